"""Knobs: every tunable setting of every program, declared once with its range and paper value, and the
profiles (``paper``, ``hopkit``) that resolve them."""

from __future__ import annotations

from hopkit.knobs.cli_values import parse_knobs
from hopkit.knobs.declared import ANSWER_AS_ASKED, KNOBS, OPTION_CHECK, PARAGRAPH_WORDS, RESTATEMENT, YES_NO_CHECK, knob
from hopkit.knobs.knob import PROFILES, Knob, check_profile
from hopkit.knobs.profiles import check_names, check_values, knob_help, profile_values, resolve
from hopkit.knobs.theta import with_reader_theta

__all__ = ["ANSWER_AS_ASKED", "KNOBS", "OPTION_CHECK", "PARAGRAPH_WORDS", "PROFILES", "RESTATEMENT", "YES_NO_CHECK",
           "Knob", "check_names", "check_profile", "check_values", "knob", "knob_help", "parse_knobs",
           "profile_values", "resolve", "with_reader_theta"]
