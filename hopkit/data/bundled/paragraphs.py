"""Encyclopedia paragraphs that state each entity's facts in varied sentences.

Every paragraph also mentions other entities (a trip, a rival, a later edition),
so that a query naming an entity retrieves more than the entity's own page.
"""

from __future__ import annotations

import random

from hopkit.data.bundled.world import Entity, World
from hopkit.data.passage import Passage


def write_paragraphs(world: World, rng: random.Random) -> list[Passage]:
    index = world.by_pid()
    writers = {"country": _country, "city": _city, "organisation": _org, "person": _person, "work": _work}
    passages = []
    for entity in world.all():
        sentences = writers[entity.kind](entity, index, rng)
        sentences.append(_aside(entity, world, rng))
        passages.append(Passage(pid=entity.pid, title=entity.name, text=" ".join(sentences)))
    return passages


def _name(index: dict[str, Entity], pid: str) -> str:
    return index[pid].name


def _country(e: Entity, ix: dict[str, Entity], rng: random.Random) -> list[str]:
    f = e.facts
    return [
        f"The {f['official']} is a sovereign state in the {f['region']} part of the continent of Aldmere.",
        rng.choice([f"Its capital and largest city is {_name(ix, f['capital'])}.",
                    f"{_name(ix, f['capital'])} serves as the capital of {e.name}."]),
        f"The state traces its founding to the year {f['founded']}.",
    ]


def _city(e: Entity, ix: dict[str, Entity], rng: random.Random) -> list[str]:
    f = e.facts
    country = _name(ix, f["country"])
    return [
        rng.choice([f"{e.name} is a city in {country}, on the banks of the {f['river']} river.",
                    f"{e.name} is a river town in {country} that lies along the {f['river']}."]),
        rng.choice([f"It was founded in {f['founded']} and had a population of {f['population']:,} at the last census.",
                    f"Settlers founded it in {f['founded']}; about {f['population']:,} people live there today."]),
    ]


def _org(e: Entity, ix: dict[str, Entity], rng: random.Random) -> list[str]:
    f = e.facts
    founder, hq = _name(ix, f["founder"]), _name(ix, f["headquarters"])
    return [
        rng.choice([f"{e.name} is a {f['kind']} founded in {f['founded']} by {founder}.",
                    f"Founded by {founder} in {f['founded']}, {e.name} is a {f['kind']}."]),
        rng.choice([f"Its headquarters are in {hq}.", f"The company is headquartered in {hq}."]),
    ]


def _person(e: Entity, ix: dict[str, Entity], rng: random.Random) -> list[str]:
    f = e.facts
    city = _name(ix, f["birth_city"])
    lived = f"({f['born']}\u2013{f['died']})" if f["died"] else f"(born {f['born']})"
    surname = e.name.split()[-1]
    pronoun = f["pronoun"].capitalize()
    return [
        rng.choice([f"{e.name} {lived} is a {f['occupation']} who was born in {city}.",
                    f"{e.name} {lived} was a {f['occupation']}. {pronoun} was born in the city of {city}."]),
        rng.choice([f"{surname} worked for {_name(ix, f['employer'])} for much of "
                    f"{'her' if f['pronoun'] == 'she' else 'his'} career.",
                    f"{pronoun} was long associated with {_name(ix, f['employer'])}."]),
    ]


def _work(e: Entity, ix: dict[str, Entity], rng: random.Random) -> list[str]:
    f = e.facts
    creator, publisher = _name(ix, f["creator"]), _name(ix, f["publisher"])
    return [
        rng.choice([f"{e.name} is a {f['year']} {f['kind']} {f['verb']} by {creator}.",
                    f"{e.name} is a {f['kind']} by {creator}, first released in {f['year']}."]),
        rng.choice([f"It was published by {publisher}.", f"{publisher} brought it out."]),
    ]


def _aside(e: Entity, world: World, rng: random.Random) -> str:
    """A sentence naming unrelated entities: realistic noise for retrieval."""
    other_person = rng.choice(world.people).name
    other_city = rng.choice(world.cities).name
    return rng.choice([
        f"A later study by {other_person} compared it with accounts from {other_city}.",
        f"In {rng.randint(1900, 2020)} an exhibition in {other_city} was devoted to it.",
        f"{other_person} is sometimes confused with it in older sources.",
        f"Travellers from {other_city} often mention it in their letters.",
    ])
