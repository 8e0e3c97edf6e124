"""SearChain's other tasks over the same fictional world: claims to check, slots to fill, yes/no
questions that need two facts, and "explain" questions with a composed reference answer.

Each task draws from its own generator seeded from the benchmark's seed, after the multi-hop
questions, so the corpus and the existing splits stay byte-identical.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hopkit.data.bundled.questions import Question, _aliases
from hopkit.data.bundled.world import Entity, World

# relation -> (the world's pool of subjects, the fact that holds the object, the fact's sentence, the hop query)
_SLOTS = {
    "place of birth": ("people", "birth_city", "{s} was born in {o}.", "Where was {s} born?"),
    "author": ("works", "creator", "{s} was created by {o}.", "Who created {s}?"),
    "founded by": ("orgs", "founder", "{s} was founded by {o}.", "Who founded {s}?"),
    "country": ("cities", "country", "{s} is a city in {o}.", "Which country is {s} in?"),
    "headquarters location": ("orgs", "headquarters", "{s} is headquartered in {o}.", "Where is {s} headquartered?"),
}
TASK_SPLITS = {"fact-check": "claims", "slot-filling": "slots", "yes-no": "yesno", "long-form": "explain"}


class _TaskAsker:
    def __init__(self, world: World, rng: random.Random) -> None:
        self.w, self.rng, self.ix = world, rng, world.by_pid()

    def _other(self, pool: list[Entity], avoid: Entity) -> Entity:
        """A look-alike when one exists (same name family), so a false claim is not given away by its name."""
        family = [e for e in pool if e.family == avoid.family and e is not avoid]
        return self.rng.choice(family or [e for e in pool if e is not avoid])

    # ---- fact checking: a claim whose truth needs two paragraphs, supported or refuted half the time
    def claim(self) -> Question:
        supported = self.rng.random() < 0.5
        if self.rng.random() < 0.5:
            work = self.rng.choice(self.w.works)
            person = self.ix[work.facts["creator"]]
            city = self.ix[person.facts["birth_city"]]
            said = city if supported else self._other(self.w.cities, city)
            claim = f"The creator of {work.name} was born in {said.name}."
            gold, hops = [work.pid, person.pid], [f"Who created {work.name}?", f"Where was {person.name} born?"]
            chain = [f"{work.name} was {work.facts['verb']} by {person.name}.", f"{person.name} was born in "
                                                                                f"{city.name}."]
        else:
            org = self.rng.choice(self.w.orgs)
            person = self.ix[org.facts["founder"]]
            year = person.facts["born"] if supported else person.facts["born"] + self.rng.choice([-7, -3, 4, 9])
            claim = f"The founder of {org.name} was born in {year}."
            gold, hops = [org.pid, person.pid], [f"Who founded {org.name}?", f"When was {person.name} born?"]
            chain = [f"{org.name} was founded by {person.name}.", f"{person.name} was born in {person.facts['born']}."]
        label = "SUPPORTS" if supported else "REFUTES"
        return Question("", claim, [label], gold, "claim", hops, [*chain, f"So the answer is: {label}."])

    # ---- slot filling: "subject [SEP] relation", the object as answer (with aliases)
    def slot(self) -> Question:
        relation = self.rng.choice(list(_SLOTS))
        pool, key, fact, query = _SLOTS[relation]
        subject = self.rng.choice(getattr(self.w, pool))
        obj = self.ix[subject.facts[key]]
        return Question("", f"{subject.name} [SEP] {relation}", _aliases(obj), [subject.pid], "slot",
                        [query.format(s=subject.name)],
                        [fact.format(s=subject.name, o=obj.name), f"So the answer is: {obj.name}."])

    # ---- yes/no that needs two facts
    def yes_no(self) -> Question:
        yes = self.rng.random() < 0.5
        work = self.rng.choice(self.w.works)
        person = self.ix[work.facts["creator"]]
        city = self.ix[person.facts["birth_city"]]
        country = self.ix[city.facts["country"]]
        asked = country if yes else self._other(self.w.countries, country)
        return Question("", f"Was the creator of {work.name} born in {asked.name}?", ["yes" if yes else "no"],
                        [work.pid, person.pid, city.pid], "yes-no-2fact",
                        [f"Who created {work.name}?", f"Where was {person.name} born?",
                         f"Which country is {city.name} in?"],
                        [f"{work.name} was created by {person.name}.", f"{person.name} was born in {city.name}.",
                         f"{city.name} is a city in {country.name}.", f"So the answer is: {'yes' if yes else 'no'}."])

    # ---- explain: a reference answer composed from two or three paragraphs
    def explain(self) -> Question:
        work = self.rng.choice(self.w.works)
        person = self.ix[work.facts["creator"]]
        city = self.ix[person.facts["birth_city"]]
        org = self.ix[work.facts["publisher"]]
        facts = [f"{work.name} is a {work.facts['kind']} {work.facts['verb']} by {person.name} in "
                 f"{work.facts['year']}.",
                 f"{person.name} was a {person.facts['occupation']} born in {city.name} in {person.facts['born']}.",
                 f"It was published by {org.name}."]
        answer = " ".join(facts)
        return Question("", f"Explain who made {work.name} and where its maker came from.", [answer],
                        [work.pid, person.pid, org.pid], "explain",
                        [f"Who created {work.name}?", f"Where was {person.name} born?", f"Who published {work.name}?"],
                        [*facts, f"So the answer is: {answer}"])


def ask_task_questions(world: World, seed: int, task: str, n: int) -> list[Question]:
    if task not in TASK_SPLITS:
        raise ValueError(f"no bundled task {task!r}")
    rng = random.Random(f"{seed}-{task}")
    asker = _TaskAsker(world, rng)
    make: Callable[[], Question] = {"fact-check": asker.claim, "slot-filling": asker.slot, "yes-no": asker.yes_no,
                                    "long-form": asker.explain}[task]
    prefix = TASK_SPLITS[task][:2]
    seen: set[str] = set()
    out: list[Question] = []
    while len(out) < n:
        q = make()
        if q.question in seen or len(set(q.gold_pids)) < len(q.gold_pids):
            continue
        seen.add(q.question)
        out.append(Question(f"{prefix}{len(out):05d}", q.question, q.answers, q.gold_pids, q.kind, q.hop_queries,
                            q.chain))
    return out
