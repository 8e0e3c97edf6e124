"""The fictional world: countries, cities, organisations, people and works, with their facts."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hopkit.data.bundled.names import (
    OCCUPATIONS,
    ORG_KINDS,
    PLACE_PATTERNS,
    SURNAME_SUFFIXES,
    TITLE_ADJECTIVES,
    TITLE_NOUNS,
    TITLE_PATTERNS,
    NameForge,
)


@dataclass
class Entity:
    """One encyclopedia subject; ``family`` groups look-alike names of the same kind."""

    pid: str
    kind: str
    name: str
    family: str
    facts: dict = field(default_factory=dict)


@dataclass
class World:
    countries: list[Entity]
    cities: list[Entity]
    orgs: list[Entity]
    people: list[Entity]
    works: list[Entity]

    def all(self) -> list[Entity]:
        return self.countries + self.cities + self.orgs + self.people + self.works

    def by_pid(self) -> dict[str, Entity]:
        return {e.pid: e for e in self.all()}


@dataclass(frozen=True)
class WorldSize:
    countries: int = 24
    cities: int = 260
    orgs: int = 320
    people: int = 1100
    works: int = 1100

    @property
    def total(self) -> int:
        return self.countries + self.cities + self.orgs + self.people + self.works

    def scaled(self, passages: int) -> WorldSize:
        """The same mix of kinds grown (never shrunk) to exactly ``passages`` entities, one paragraph each."""
        if passages <= self.total:
            return self
        factor = passages / self.total
        grown = {kind: round(getattr(self, kind) * factor) for kind in ("countries", "cities", "orgs", "works")}
        return WorldSize(people=passages - sum(grown.values()), **grown)


def build_world(rng: random.Random, size: WorldSize = WorldSize()) -> World:
    forge = NameForge(rng)
    countries = _countries(rng, forge, size.countries)
    cities = _cities(rng, forge, size.cities, countries)
    people = _people(rng, forge, size.people, cities)
    orgs = _orgs(rng, forge, size.orgs, cities, people)
    works = _works(rng, forge, size.works, people, orgs)
    orgs_by_kind: dict[str, list[Entity]] = {}
    for org in orgs:  # in the organisations' order, so the draws below are the same as a scan per person
        orgs_by_kind.setdefault(org.facts["kind"], []).append(org)
    for person in people:  # employers are drawn once organisations exist
        fitting = orgs_by_kind[OCCUPATIONS[person.facts["occupation"]][1]]
        person.facts["employer"] = rng.choice(fitting).pid
    return World(countries, cities, orgs, people, works)


def _countries(rng: random.Random, forge: NameForge, n: int) -> list[Entity]:
    out = []
    for i in range(n):
        stem = forge.stem((2, 3))
        name = stem + rng.choice(["ia", "and", "ora", "istan", "ea"])
        form = rng.choice(["Republic of {}", "Kingdom of {}", "Federation of {}", "Grand Duchy of {}"])
        out.append(Entity(f"country-{i:03d}", "country", name, stem,
                          {"official": form.format(name), "founded": rng.randint(900, 1850),
                           "region": rng.choice(["northern", "southern", "eastern", "western", "central"])}))
    return out


def _cities(rng: random.Random, forge: NameForge, n: int, countries: list[Entity]) -> list[Entity]:
    out: list[Entity] = []
    while len(out) < n:
        stem = forge.stem((2, 2))
        for pattern in rng.sample(PLACE_PATTERNS, k=rng.randint(1, 3)):
            name = forge.unique(pattern.format(stem))
            if name is None or len(out) >= n:
                continue
            country = rng.choice(countries)
            out.append(Entity(f"city-{len(out):04d}", "city", name, stem,
                              {"country": country.pid, "founded": rng.randint(800, 1900),
                               "population": rng.randint(8, 900) * 1000,
                               "river": forge.stem((2, 2))}))
    for country in countries:
        own = [c for c in out if c.facts["country"] == country.pid] or [rng.choice(out)]
        country.facts["capital"] = rng.choice(own).pid
    return out


def _people(rng: random.Random, forge: NameForge, n: int, cities: list[Entity]) -> list[Entity]:
    out: list[Entity] = []
    while len(out) < n:
        stem = forge.stem((2, 2))
        for suffix in rng.sample(SURNAME_SUFFIXES, k=rng.randint(2, 3)):
            name = forge.unique(f"{forge.stem((1, 2))} {stem}{suffix}")
            if name is None or len(out) >= n:
                continue
            born = rng.randint(1780, 1990)
            out.append(Entity(f"person-{len(out):04d}", "person", name, stem,
                              {"born": born, "died": born + rng.randint(35, 95) if born < 1940 else None,
                               "birth_city": rng.choice(cities).pid,
                               "occupation": rng.choice(list(OCCUPATIONS)),
                               "pronoun": rng.choice(["she", "he"])}))
    return out


def _orgs(rng: random.Random, forge: NameForge, n: int, cities: list[Entity], people: list[Entity]) -> list[Entity]:
    out: list[Entity] = []
    while len(out) < n:
        stem = forge.stem((2, 2))
        kinds = rng.sample(list(ORG_KINDS), k=rng.randint(1, 3))
        for kind in kinds:
            name = forge.unique(rng.choice(ORG_KINDS[kind]).format(stem))
            if name is None or len(out) >= n:
                continue
            founder = rng.choice(people)
            founded = min(founder.facts["born"] + rng.randint(22, 60), 2015)
            out.append(Entity(f"org-{len(out):04d}", "organisation", name, stem,
                              {"kind": kind, "founded": founded, "founder": founder.pid,
                               "headquarters": rng.choice(cities).pid}))
    return out


def _works(rng: random.Random, forge: NameForge, n: int, people: list[Entity], orgs: list[Entity]) -> list[Entity]:
    out: list[Entity] = []
    orgs_by_kind: dict[str, list[Entity]] = {}
    for org in orgs:
        orgs_by_kind.setdefault(org.facts["kind"], []).append(org)
    while len(out) < n:
        noun = rng.choice(TITLE_NOUNS)
        pattern = rng.choice(TITLE_PATTERNS)
        title = forge.unique(pattern.format(a=rng.choice(TITLE_ADJECTIVES), n=noun, x=forge.stem((2, 2))))
        if title is None:
            continue
        creator = rng.choice(people)
        kind, publisher_kind, verb = OCCUPATIONS[creator.facts["occupation"]]
        year = min(creator.facts["born"] + rng.randint(20, 60), 2020)
        out.append(Entity(f"work-{len(out):04d}", "work", title, noun,
                          {"kind": kind, "creator": creator.pid, "verb": verb, "year": year,
                           "publisher": rng.choice(orgs_by_kind[publisher_kind]).pid}))
    return out
