"""A paper's protocol carried out from a run spec, as ``hopkit.run_eval`` carries out a run: the paper's grid
tuned on a tune split, the chosen setting scored once on a test split (hopkit/reproduce/protocol.py).
``hopkit reproduce`` turns its flags into the spec and the protocol's own settings and prints what comes back;
Python calls ``hopkit.run_reproduce``. Nothing here reads the command line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hopkit.reproduce.protocol import PromptSetResult
from hopkit.spec import RunSpec

GRIDS = ("paper", "wide")
PRUNERS = ("none", "median", "halving")


@dataclass
class ReproduceRun:
    results: list[PromptSetResult]  # one a prompt set: the setting chosen on tune, its test scores and costs
    folder: Path  # the study folder; ``hopkit reproduce-table FOLDER`` lays it out beside the paper's number


def run_reproduce(spec: RunSpec, test: str, tune: str | None = None, reader_from: str | Path | None = None,
                  grid: str = "paper", pruner: str = "none", prompt_sets: int = 1, progress: bool = True,
                  say: Callable[[str], None] = print, api_key: str | None = None,
                  configure_lm: Callable[[], object] | None = None) -> ReproduceRun:
    """Run ``spec.method`` as its paper ran it, under the ``paper`` profile: ``tune`` and ``test`` are dataset specs
    with optional ranges (``SPEC[A-B]``; sharing a question is refused), ``reader_from`` a finished IRCoT study
    whose chosen reader is held, ``grid`` ``wide`` adds IRCoT's M. The spec gives the LM, retriever, reader,
    demonstrations (``demos_from``) and the study folder (``out``; default runs/reproduce/METHOD-DATASET), which
    resumes. Everything that can be checked is checked before anything loads."""
    import functools
    from dataclasses import replace

    from hopkit.data.registry import load_dataset_spec
    from hopkit.errors import InputError
    from hopkit.optimize.splits import split_spec
    from hopkit.paths import runs_dir, slug
    from hopkit.programs.registry import get_method
    from hopkit.reproduce import ReproduceRequest, paper_grid, reproduce
    from hopkit.reproduce.protocol import PROFILE, check_study_place, chosen_in
    from hopkit.run.parts import open_parts

    if grid not in GRIDS:
        raise InputError(f"unknown grid {grid!r}; use {' or '.join(GRIDS)}")
    if pruner not in PRUNERS:
        raise InputError(f"unknown pruner {pruner!r}; use one of {', '.join(PRUNERS)}")
    spec = replace(spec, profile=PROFILE).checked()
    method = get_method(spec.method)
    paper_grid(spec.method, grid == "wide")  # a grid outside a knob's range fails before anything loads
    test_spec = split_spec(test)[0]
    folder = Path(spec.out) if spec.out else runs_dir() / "reproduce" / slug(f"{spec.method}-{test_spec}")
    check_study_place(folder)  # before the retriever, reader and LM load
    fixed = {"answer_reader": chosen_in(Path(reader_from), "answer_reader")} if reader_from else {}
    spec = replace(spec, out=None)
    # the parts eval opens from the same spec, over the split the setting is chosen on (the tune split where there
    # is one, so that ``retriever = "auto"`` measures no test question); a split over other paragraphs gets its own
    # index through ``retriever_for``
    first = split_spec(tune)[0] if tune else test_spec
    load = functools.cache(load_dataset_spec)  # the protocol reads the same files again for its splits
    parts = open_parts(replace(spec, dataset=first), load(first), [(spec.method, PROFILE)],
                       demos=method.uses_demos, configure_lm=configure_lm, api_key=api_key)
    train = parts.demonstrations(spec.method, PROFILE)[0] if method.uses_demos else None
    record = {"lm": spec.lm, "reader": spec.reader if method.needs_reader else None, "max_tokens": spec.max_tokens,
              **parts.recorded(spec.method, PROFILE), **({} if method.uses_demos else {"demos_from": "none"})}
    request = ReproduceRequest(method=spec.method, test=test, folder=folder, tune=tune, wide=grid == "wide",
                               pruner=pruner, prompt_sets=prompt_sets, threads=spec.threads, progress=progress,
                               record=record, fixed=fixed, fixed_from=str(reader_from) if reader_from else None,
                               run_spec=spec)
    return ReproduceRun(reproduce(request, load, parts.retriever_for, parts.reader, train, say=say), folder)
