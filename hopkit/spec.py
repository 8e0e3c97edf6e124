"""A run, declared once: everything ``hopkit eval`` needs in one typed, frozen object.

A spec comes from flags, from a TOML file (``hopkit eval --config run.toml``) or from a run log
(``hopkit eval --like runs/x.jsonl``, whose metadata holds the spec it ran), and flags given on the command
line override the file or log. It is checked once, here, with one-line errors, before anything loads. What it
says is then carried out in one pass down (``hopkit.run.eval``): data, retriever, reader and LM, the program, then the
harness.

    method = "ircot"
    dataset = "musique:validation@dev100.jsonl"
    questions = "1-50"
    profile = "paper"
    demos_from = "ircot-demos:musique.txt"
    [knobs]
    k = 6
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from hopkit.errors import InputError, MissingArtifactError, UnknownNameError
from hopkit.lm.factory import DEFAULT_LM, LMSpec


@dataclass(frozen=True)
class RunSpec:
    method: str = "oner"
    dataset: str = "bundled:dev"
    questions: str | None = None  # "A-B", 1-based and inclusive, or "@FILE" of qids
    n: int | None = None  # the first n (of the range)
    profile: str = "hopkit"
    knobs: dict[str, Any] = field(default_factory=dict)
    demos_from: str = "auto"
    program: str | None = None  # a saved program folder (hopkit optimize); it decides method, knobs and demos
    task: str | None = None
    metrics: tuple[str, ...] | None = None  # None: the task's
    retriever: str = "auto"
    index: str | None = None
    plaid: str | None = None
    reader: str = "lm"
    lm: str = DEFAULT_LM
    api_base: str | None = None
    max_tokens: int = 512
    lm_timeout: float = 120.0
    cache: bool = True
    threads: int = 1
    out: str | None = None

    def lm_spec(self, api_key: str | None = None) -> LMSpec:
        return LMSpec(model=self.lm, api_base=self.api_base, api_key=api_key, max_tokens=self.max_tokens,
                      cache=self.cache, timeout=self.lm_timeout)

    def checked(self) -> RunSpec:
        """The spec, or a one-line error for the first thing in it that cannot run."""
        from hopkit.data.examples import check_question_range
        from hopkit.data.registry import KINDS
        from hopkit.evaluation.metrics import get_metric
        from hopkit.knobs import check_profile
        from hopkit.programs.registry import check_knobs, get_method

        for name in self.metrics or ():
            get_metric(name)
        get_method(self.method)
        knobs = check_knobs(self.method, dict(self.knobs))
        check_profile(self.profile)
        kind = self.dataset.partition(":")[0]
        if kind not in KINDS:
            raise UnknownNameError("dataset", kind, KINDS)
        if self.questions is not None:
            check_question_range(self.questions)
        if self.n is not None and self.n < 1:
            raise InputError("n must be at least 1")
        if self.program is not None and (self.knobs or self.profile != "hopkit"):
            raise InputError("knobs and a profile cannot change a saved program's knobs (it records its own); "
                             "optimize again, or drop the saved program")
        if self.threads < 1 or self.max_tokens < 1:
            raise InputError("threads and max_tokens must be at least 1")
        return replace(self, knobs=knobs)


FIELDS = {f.name: f for f in fields(RunSpec)}
# where a run writes: not a setting of the run, so not in its log's metadata
PLACE = ("out",)
# a run's mechanics, not its settings: recorded, and a log resumes under other values of these (none changes an
# answer; a cached answer is keyed by what does)
MECHANICS = frozenset({"threads", "n", "questions", "lm_timeout", "cache"})


def off_profile(method: str, profile: str, knobs: dict[str, Any]) -> dict[str, Any]:
    """The knobs whose value is not the profile's: a knob set to its profile's value runs as if unset, so every
    door records the same knobs for the same run (eval's given ones, a study's trial, the Python API's program)."""
    from hopkit.knobs.profiles import profile_values
    from hopkit.programs.registry import METHODS

    group = METHODS[method].knob_group if method in METHODS else None
    if not group or profile not in ("hopkit", "paper"):
        return dict(knobs)
    values = profile_values(group, profile)
    return {name: value for name, value in knobs.items() if name not in values or values[name] != value}


def run_meta(spec: RunSpec, dataset_name: str, saved: tuple[str, str, dict[str, Any]] | None = None) -> dict:
    """A run log's metadata, the same whichever door runs it (eval, optimize, ablate, reproduce, the Python API):
    the settings a resume must match, with the spec itself (``hopkit eval --like`` reads it back through
    ``from_mapping``). ``saved``: a saved program's (method, profile, knobs), which label the run in its place."""
    spec = replace(spec, knobs=off_profile(spec.method, spec.profile, spec.knobs))
    settings = {name: value for name, value in asdict(spec).items() if name not in PLACE}
    method, profile, knobs = saved if saved is not None else (spec.method, spec.profile, dict(spec.knobs))
    return {"method": method, "dataset": dataset_name, "dataset_spec": spec.dataset, "lm": spec.lm,
            "api_base": spec.api_base, "knobs": dict(knobs), "profile": profile, "retriever": spec.retriever,
            "max_tokens": spec.max_tokens, "spec": settings,
            **({"program": str(Path(spec.program).resolve())} if spec.program is not None else {})}
# never read from a settings file, which runs record and share: the same refusal from every verb's file
SECRETS = {"api_key": "{path}: api_key is not a file setting (a run's settings are recorded and shared); "
                      "pass --api-key on the command line"}


def _accepted(hint: Any) -> tuple[type, ...]:
    """The Python types a field's annotation accepts from TOML or JSON: a float also takes an integer, and a tuple
    a list (TOML has no tuples)."""
    kinds: list[type] = []
    for part in get_args(hint) if get_origin(hint) in (Union, UnionType) else (hint,):
        kind = get_origin(part) or part
        kinds.append(type(None) if part is None else kind)
        widened: dict[Any, list[type]] = {float: [int], tuple: [list]}
        kinds += widened.get(kind, [])
    return tuple(dict.fromkeys(kinds))


# what each field takes, for the one-line error a wrong type gets (read from RunSpec's annotations)
TYPES: dict[str, tuple[type, ...]] = {name: _accepted(hint) for name, hint in get_type_hints(RunSpec).items()}


def from_mapping(data: dict[str, Any], source: str, base: RunSpec | None = None) -> RunSpec:
    """A spec from a mapping (a TOML file's tables, a log's metadata); unknown fields and wrong types refused."""
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name in SECRETS:
            raise InputError(SECRETS[name].format(path=source))
        if name not in FIELDS:
            raise UnknownNameError("run setting", name, list(FIELDS),
                                   f"{source}: {name!r} is not a run setting{{hint}}; the settings: "
                                   f"{', '.join(FIELDS)}")
        wanted = TYPES[name]
        if isinstance(value, bool) and bool not in wanted or not isinstance(value, wanted):
            names = " or ".join(t.__name__ if t is not type(None) else "none" for t in wanted)
            raise InputError(f"{source}: {name} = {value!r} is a {type(value).__name__}; it takes {names}")
        values[name] = tuple(value) if name == "metrics" and isinstance(value, (list, tuple)) else value
    return replace(base or RunSpec(), **values)


def from_toml(path: Path) -> RunSpec:
    if not path.is_file():
        raise MissingArtifactError(f"no run file at {path}; write one with the settings of hopkit eval "
                                   "(method, dataset, knobs, ...)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{path} is not TOML ({error})") from None
    return from_mapping(data, str(path))


def from_log(path: Path) -> RunSpec:
    """The spec a run log ran with, from its ``.meta.json``."""
    meta_path = path.with_suffix(".meta.json") if path.suffix != ".json" else path
    if not meta_path.is_file():
        raise MissingArtifactError(f"no settings beside {path} ({meta_path.name}): a run's settings are read from a "
                                   "run log that hopkit eval wrote")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if "spec" not in meta:
        raise InputError(f"{meta_path} holds no run spec (a log from before run specs): rerun it with flags")
    return from_mapping(meta["spec"], str(meta_path))


def override(spec: RunSpec, given: dict[str, Any]) -> RunSpec:
    """The spec with the flags the user gave on top; knobs merge, a flag's knob winning."""
    values = dict(given)
    if "knobs" in values:
        values["knobs"] = {**spec.knobs, **values["knobs"]}
    return replace(spec, **values)
