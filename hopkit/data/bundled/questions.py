"""Multi-hop questions over the fictional world, of the kinds the papers evaluate.

Each question records its gold supporting pids in hop order and, per hop, a
single-hop query that the hop's paragraph answers (used for retriever triples).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from hopkit.data.bundled.world import Entity, World


@dataclass(frozen=True)
class Question:
    qid: str
    question: str
    answers: list[str]
    gold_pids: list[str]
    kind: str
    hop_queries: list[str]
    chain: list[str]  # a reasoning chain, one sentence per hop, ending "So the answer is: ..."

    def to_dict(self) -> dict:
        return {"qid": self.qid, "question": self.question, "answers": self.answers,
                "gold_pids": self.gold_pids, "type": self.kind, "hop_queries": self.hop_queries,
                "chain": self.chain}


def _aliases(e: Entity) -> list[str]:
    if e.kind == "country":
        return [e.name, e.facts["official"]]
    return [e.name]


class _Asker:
    def __init__(self, world: World, rng: random.Random) -> None:
        self.w, self.rng, self.ix = world, rng, world.by_pid()

    def bridge_birthplace(self) -> Question:
        work = self.rng.choice(self.w.works)
        person = self.ix[work.facts["creator"]]
        city = self.ix[person.facts["birth_city"]]
        return Question("", f"In which city was the creator of the {work.facts['kind']} {work.name} born?",
                        _aliases(city), [work.pid, person.pid], "bridge",
                        [f"Who created {work.name}?", f"Where was {person.name} born?"],
                        [f"{work.name} was {work.facts['verb']} by {person.name}.",
                         f"{person.name} was born in {city.name}.", f"So the answer is: {city.name}."])

    def bridge_founder_birth_year(self) -> Question:
        org = self.rng.choice(self.w.orgs)
        person = self.ix[org.facts["founder"]]
        return Question("", f"In what year was the founder of {org.name} born?", [str(person.facts["born"])],
                        [org.pid, person.pid], "bridge",
                        [f"Who founded {org.name}?", f"When was {person.name} born?"],
                        [f"{org.name} was founded by {person.name}.", f"{person.name} was born in "
                                                                      f"{person.facts['born']}.",
                         f"So the answer is: {person.facts['born']}."])

    def bridge_publisher_city(self) -> Question:
        work = self.rng.choice(self.w.works)
        org = self.ix[work.facts["publisher"]]
        city = self.ix[org.facts["headquarters"]]
        return Question("", f"In which city is the headquarters of the publisher of {work.name}?",
                        _aliases(city), [work.pid, org.pid], "bridge",
                        [f"Who published {work.name}?", f"Where is {org.name} headquartered?"],
                        [f"{work.name} was published by {org.name}.", f"{org.name} is headquartered in {city.name}.",
                         f"So the answer is: {city.name}."])

    def compositional_creator_country(self) -> Question:
        work = self.rng.choice(self.w.works)
        person = self.ix[work.facts["creator"]]
        city = self.ix[person.facts["birth_city"]]
        country = self.ix[city.facts["country"]]
        return Question("", f"In which country was the creator of {work.name} born?", _aliases(country),
                        [work.pid, person.pid, city.pid], "compositional-3hop",
                        [f"Who created {work.name}?", f"Where was {person.name} born?", f"Which country is {city.name} "
                                                                                        f"in?"],
                        [f"{work.name} was created by {person.name}.", f"{person.name} was born in {city.name}.",
                         f"{city.name} is a city in {country.name}.", f"So the answer is: {country.name}."])

    def compositional_publisher_founder_city(self) -> Question:
        work = self.rng.choice(self.w.works)
        org = self.ix[work.facts["publisher"]]
        person = self.ix[org.facts["founder"]]
        city = self.ix[person.facts["birth_city"]]
        return Question("", f"Where was the founder of the company that published {work.name} born?",
                        _aliases(city), [work.pid, org.pid, person.pid], "compositional-3hop",
                        [f"Who published {work.name}?", f"Who founded {org.name}?", f"Where was {person.name} born?"],
                        [f"{work.name} was published by {org.name}.", f"{org.name} was founded by {person.name}.",
                         f"{person.name} was born in {city.name}.", f"So the answer is: {city.name}."])

    def compositional_4hop(self) -> Question:
        work = self.rng.choice(self.w.works)
        org = self.ix[work.facts["publisher"]]
        person = self.ix[org.facts["founder"]]
        city = self.ix[person.facts["birth_city"]]
        country = self.ix[city.facts["country"]]
        return Question("", f"In which country was the founder of the publisher of {work.name} born?",
                        _aliases(country), [work.pid, org.pid, person.pid, city.pid], "compositional-4hop",
                        [f"Who published {work.name}?", f"Who founded {org.name}?",
                         f"Where was {person.name} born?", f"Which country is {city.name} in?"],
                        [f"{work.name} was published by {org.name}.", f"{org.name} was founded by {person.name}.",
                         f"{person.name} was born in {city.name}.", f"{city.name} is a city in {country.name}.",
                         f"So the answer is: {country.name}."])

    def comparison_born_first(self) -> Question:
        a, b = self.rng.sample(self.w.people, 2)
        while a.facts["born"] == b.facts["born"]:
            a, b = self.rng.sample(self.w.people, 2)
        first = a if a.facts["born"] < b.facts["born"] else b
        return Question("", f"Who was born first, {a.name} or {b.name}?", [first.name], [a.pid, b.pid],
                        "comparison", [f"When was {a.name} born?", f"When was {b.name} born?"],
                        [f"{a.name} was born in {a.facts['born']}.", f"{b.name} was born in {b.facts['born']}.",
                         f"Thus {first.name} was born first.", f"So the answer is: {first.name}."])

    def comparison_founded_first(self) -> Question:
        a, b = self.rng.sample(self.w.orgs, 2)
        while a.facts["founded"] == b.facts["founded"]:
            a, b = self.rng.sample(self.w.orgs, 2)
        first = a if a.facts["founded"] < b.facts["founded"] else b
        return Question("", f"Which was founded earlier, {a.name} or {b.name}?", [first.name], [a.pid, b.pid],
                        "comparison", [f"When was {a.name} founded?", f"When was {b.name} founded?"],
                        [f"{a.name} was founded in {a.facts['founded']}.", f"{b.name} was founded in "
                                                                           f"{b.facts['founded']}.",
                         f"Thus {first.name} was founded earlier.", f"So the answer is: {first.name}."])

    def yes_no_same_occupation(self) -> Question:
        a = self.rng.choice(self.w.people)
        same = self.rng.random() < 0.5
        pool = [p for p in self.w.people if (p.facts["occupation"] == a.facts["occupation"]) == same and p is not a]
        b = self.rng.choice(pool)
        occupation_a, occupation_b = a.facts["occupation"], b.facts["occupation"]
        return Question("", f"Are {a.name} and {b.name} of the same occupation?", ["yes" if same else "no"],
                        [a.pid, b.pid], "yes-no", [f"What was {a.name}'s occupation?", f"What was {b.name}'s "
                                                                                       f"occupation?"],
                        [f"{a.name} is a {occupation_a}.", f"{b.name} is a {occupation_b}.",
                         f"Thus they {'share' if same else 'do not share'} an occupation.",
                         f"So the answer is: {'yes' if same else 'no'}."])


# (weight, generator name): bridge and compositional questions dominate, as in the papers' datasets.
_MIX: list[tuple[int, str]] = [
    (3, "bridge_birthplace"), (2, "bridge_founder_birth_year"), (2, "bridge_publisher_city"),
    (2, "compositional_creator_country"), (2, "compositional_publisher_founder_city"), (1, "compositional_4hop"),
    (1, "comparison_born_first"), (1, "comparison_founded_first"), (1, "yes_no_same_occupation"),
]


def ask_questions(world: World, rng: random.Random, n: int) -> list[Question]:
    asker = _Asker(world, rng)
    makers: list[Callable[[], Question]] = [getattr(asker, name) for weight, name in _MIX for _ in range(weight)]
    seen: set[str] = set()
    out: list[Question] = []
    while len(out) < n:
        q = rng.choice(makers)()
        if q.question in seen or len(set(q.gold_pids)) < len(q.gold_pids):
            continue
        seen.add(q.question)
        out.append(Question(f"hk{len(out):05d}", q.question, q.answers, q.gold_pids, q.kind, q.hop_queries, q.chain))
    return out
