"""A study carried out from its two specs, as ``hopkit.run_eval`` carries out a run: the run spec of its dev runs
and the study spec (``hopkit.optimize.study_spec``). ``hopkit optimize`` turns its flags and study file into the two
and prints what comes back; Python calls ``hopkit.run_optimize`` with them. Nothing here reads the command line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import cast

from hopkit.errors import InputError
from hopkit.knobs.knob import Profile
from hopkit.optimize.request import OptimizeResult
from hopkit.optimize.study_spec import StudySpec
from hopkit.spec import RunSpec


def run_optimize(spec: RunSpec, study: StudySpec | None = None, api_key: str | None = None, progress: bool = True,
                 say: Callable[[str], None] = print,
                 configure_lm: Callable[[], object] | None = None) -> OptimizeResult:
    """Tune the spec's method on its dev split (``spec.dataset``, ``SPEC[A-B]`` for a range) with the spec's knobs
    fixed, as the study spec says, and save the chosen program. Both specs are checked before anything loads; the
    study folder resumes. ``configure_lm``: an LM already loaded, else the spec's is made."""
    import functools

    from hopkit.data.registry import load_dataset_spec
    from hopkit.evaluation.metrics import get_metric
    from hopkit.optimize.demos import RUN_ON_TRAIN
    from hopkit.optimize.request import (
        DemoSettings,
        OptimizeRequest,
        PruningSettings,
        Splits,
        StudyPlace,
        check_study_place,
    )
    from hopkit.optimize.runner import optimize
    from hopkit.optimize.splits import load_splits, split_spec
    from hopkit.optimize.study import check_storage, sqlite_url
    from hopkit.paths import runs_dir, slug
    from hopkit.programs.registry import get_method
    from hopkit.run.parts import open_parts
    from hopkit.tasks import get_task, tuned_metric

    study = study or StudySpec()
    spec = spec.checked()
    if spec.n is not None or spec.questions is not None:
        raise InputError("a study's dev questions are its dataset spec's range, e.g. 'bundled:dev[1-50]', or "
                         "StudySpec(n_dev=...); leave the run spec's n and questions unset")
    if spec.program is not None or spec.out is not None:
        raise InputError("a study builds its programs from the method and knobs and writes to StudySpec(out=...); "
                         "leave the run spec's program and out unset")
    study = study.checked(spec.method, spec.knobs)
    if study.demos != "none" and study.train is None:
        raise InputError(f"demos {study.demos!r} compiles demonstrations on a train split: give "
                         "StudySpec(train='SPEC'), e.g. 'bundled:train', or demos='none'")
    needs_train = study.demos != "none" or get_method(spec.method).uses_demos
    load = functools.cache(load_dataset_spec)  # the test split's dataset is read again below, for its corpus
    train, dev, picked = load_splits(study.train if needs_train else None, spec.dataset, study.test, load,
                                     n_dev=study.n_dev, n_test=study.n_test)
    metric = get_metric(study.metric or tuned_metric(get_task(spec.task or dev.task)))
    name = study.name or slug(f"{spec.method}-{dev.name}-{metric.name}-{study.demos}-{spec.lm}")
    folder = Path(study.out) if study.out else runs_dir() / "optimize" / name
    check_study_place(folder)  # before anything is made or loads
    storage = study.storage or sqlite_url(folder / "study.db")
    check_storage(storage)
    run_spec = replace(spec, n=len(picked["dev"]))  # each setting's log records the run spec with its own knobs
    # the retriever, reader, LM and task eval opens from the same spec; the demonstrations are the study's own
    parts = open_parts(run_spec, dev, demos=False, configure_lm=configure_lm, api_key=api_key)
    # a split from another file or hub split retrieves from its own paragraphs, not dev's
    split_retrievers = {
        **({"train": parts.retriever_for(train, "train")} if train is not None and study.demos in RUN_ON_TRAIN
           else {}),
        **({"test": parts.retriever_for(load(split_spec(study.test)[0]), "test")} if study.test else {})}
    request = OptimizeRequest(
        method=spec.method, metric=metric,
        splits=Splits(train, picked["dev"], dev.name, test=picked["test"], train_n=study.n_train),
        place=StudyPlace(folder, storage, name), trials=study.trials,
        demos=DemoSettings(study.demos, study.demo_threshold),
        pruning=PruningSettings(study.pruner, study.slices, study.prune_startup, study.max_calls_per_question,
                                study.unpruned_check),
        profile=cast(Profile, spec.profile), objectives=("metric", *study.costs), fixed=dict(spec.knobs),
        params=list(study.params) if study.params is not None else None, choose=study.choose, seed=study.seed,
        threads=spec.threads, progress=progress, run_spec=replace(run_spec, retriever=parts.backend),
        task=parts.task, retriever_choice=parts.retriever_choice)
    try:
        return optimize(request, parts.retriever, parts.reader, say=say, split_retrievers=split_retrievers)
    except ValueError as error:
        raise InputError(str(error)) from None
