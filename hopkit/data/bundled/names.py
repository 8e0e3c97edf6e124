"""Invented names, built from syllables so that no language model has seen them.

Names come in families that share a stem ("Kellis", "Kellisar", "Port Kellis"),
which is what makes the distractor paragraphs hard: they share surface tokens
with the gold paragraph but state other facts.
"""

from __future__ import annotations

import random

_ONSETS = ["b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "gr", "kr", "th",
           "st", "tr", "vr"]
_VOWELS = ["a", "e", "i", "o", "u", "ae", "ei", "ou", "y"]
_CODAS = ["", "", "n", "r", "l", "s", "th", "m", "k", "nd", "rn"]


def _syllable(rng: random.Random) -> str:
    return rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)


class NameForge:
    """Unique invented words; ``used`` guards every name handed out."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def stem(self, syllables: tuple[int, int] = (2, 3)) -> str:
        while True:
            word = "".join(_syllable(self.rng) for _ in range(self.rng.randint(*syllables))).capitalize()
            if 4 <= len(word) <= 11 and word not in self.used:
                self.used.add(word)
                return word

    def unique(self, candidate: str) -> str | None:
        if candidate in self.used:
            return None
        self.used.add(candidate)
        return candidate


SURNAME_SUFFIXES = ["", "son", "ar", "ine", "ek", "ova", "ley"]
PLACE_PATTERNS = ["{}", "Port {}", "{} Falls", "New {}", "{}holm", "{} Crossing"]
ORG_KINDS = {
    "publishing house": ["{} Press", "{} House", "{} & Sons Publishers"],
    "film studio": ["{} Pictures", "{} Studios"],
    "record label": ["{} Records", "{} Sound"],
    "university": ["University of {}", "{} College"],
    "shipping company": ["{} Line", "{} Shipping"],
}
TITLE_ADJECTIVES = ["Glass", "Silent", "Crimson", "Hollow", "Northern", "Iron", "Paper", "Distant", "Seventh", "Amber",
                    "Winter", "Broken", "Golden", "Quiet", "Salt", "Last", "Burning", "Velvet", "Lonely", "Copper"]
TITLE_NOUNS = ["Orchard", "Harbor", "Lantern", "Meridian", "Cathedral", "Garden", "Tide", "Archive", "Bridge",
               "Season", "Mirror", "Compass", "River", "Tower", "Letter", "Caravan", "Chorus", "Atlas", "Threshold",
               "Vineyard"]
TITLE_PATTERNS = ["The {a} {n}", "{a} {n}", "{n} of {x}", "The {n} of {x}", "{x}'s {n}"]
OCCUPATIONS = {
    "novelist": ("novel", "publishing house", "written"),
    "poet": ("poetry collection", "publishing house", "written"),
    "film director": ("film", "film studio", "directed"),
    "composer": ("album", "record label", "composed"),
    "historian": ("history book", "university", "written"),
    "cartographer": ("atlas", "shipping company", "drawn"),
}
