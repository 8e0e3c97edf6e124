"""The parts a run's programs are built over, opened once from its spec: the retriever over the dataset's corpus, the
reader, the LM, the task, and each method's demonstrations. ``hopkit eval`` builds one program over them, ``ablate``
one a variant, ``sweep`` one a value and ``optimize`` one a trial: every door opens its parts here, so the same flags
build the same program and record the same metadata whichever door runs it (docs/python-api.md, "A run from its spec").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import dspy

from hopkit.data.examples import Dataset
from hopkit.knobs.knob import Profile
from hopkit.reader.protocol import Reader
from hopkit.retrieval.counting import CountingRetriever
from hopkit.spec import RunSpec
from hopkit.tasks import DEFAULT_TASK, Task

SAVED_DEMOS = "the saved program's"  # what a saved program's run records as its demonstrations


@dataclass
class RunParts:
    spec: RunSpec
    dataset: Dataset | None
    task: Task
    retriever: CountingRetriever | None  # None: no method opened for needs one
    backend: str  # the retriever backend, after ``auto`` chose one
    retriever_choice: str | None  # what ``auto`` measured to choose it
    reader: Reader | None
    # (method, profile) -> its train examples and what its run records as its demonstrations
    demos: dict[tuple[str, str], tuple[Dataset | None, str]] = field(default_factory=dict)
    # retrievers by corpus fingerprint: the dataset's own (the opened one), then other splits' files as asked for
    _over_corpus: dict[str, CountingRetriever] = field(default_factory=dict, repr=False)

    def demonstrations(self, method: str, profile: str | None = None) -> tuple[Dataset | None, str]:
        """(the method's train examples or None, what its run records as its demonstrations)."""
        return self.demos.get((method, profile or self.spec.profile), (None, SAVED_DEMOS))

    def program(self, method: str | None = None, profile: str | None = None, knobs: dict[str, Any] | None = None,
                state: dict[str, Any] | None = None) -> dspy.Module:
        """The method (the spec's unless named) under the profile with these knobs (the spec's unless given), over
        the parts, for the run's task; ``state``: a saved program's DSPy state."""
        from hopkit.programs.registry import ProgramParts

        method = method or self.spec.method
        profile = profile or self.spec.profile
        train = self.demonstrations(method, profile)[0]
        return ProgramParts(method, self.retriever, self.reader, train, cast(Profile, profile), self.task,
                            state).program(**(self.spec.knobs if knobs is None else knobs))

    def recorded(self, method: str | None = None, profile: str | None = None) -> dict[str, Any]:
        """What opening the parts decided that a run log records beside the spec: the backend ``auto`` chose and
        why, the demonstrations as resolved, and a task other than the default."""
        return {"retriever": self.backend, "demos_from": self.demonstrations(method or self.spec.method, profile)[1],
                **({"retriever_choice": self.retriever_choice} if self.retriever_choice else {}),
                **({"task": self.task.name} if self.task.name != DEFAULT_TASK else {})}

    def retriever_for(self, dataset: Dataset | None, split: str = "") -> CountingRetriever | None:
        """The retriever over ``dataset``'s own corpus, with the backend the run's retriever has. A train or test
        split read from another file or hub split has other paragraphs than the run's dataset, and its questions
        must retrieve from them: the opened retriever serves a dataset over the same corpus, a named index, a
        server, or a dataset that brings no corpus; any other corpus gets its own index, opened once."""
        if (self.retriever is None or dataset is None or dataset.corpus is None or self.spec.index
                or self.backend.startswith("remote:") or self.dataset is None or self.dataset.corpus is None):
            return self.retriever
        if not self._over_corpus:  # the run's own corpus is hashed once
            self._over_corpus[self.dataset.corpus.fingerprint()] = self.retriever
        fingerprint = dataset.corpus.fingerprint()
        if fingerprint not in self._over_corpus:
            from hopkit.errors import MissingArtifactError
            from hopkit.evaluation.retriever_choice import open_dataset_retriever

            try:
                self._over_corpus[fingerprint] = open_dataset_retriever(self.backend, None, self.spec.plaid,
                                                                        dataset)[0]
            except MissingArtifactError:
                name = f"the {split} split" if split else dataset.name
                raise MissingArtifactError(
                    f"{name} ({dataset.spec or dataset.name}) has other paragraphs than {self.dataset.name}, and its "
                    f"questions retrieve from them: build their index with `hopkit index --backend {self.backend} "
                    f"--dataset {dataset.spec or dataset.name}`") from None
        return self._over_corpus[fingerprint]

    @property
    def corpus(self) -> Any:
        """What the programs' citations point into: the index's own corpus, else the dataset's."""
        inner = getattr(self.retriever, "inner", None)
        return getattr(inner, "corpus", None) or (self.dataset.corpus if self.dataset is not None else None)


def open_parts(spec: RunSpec, dataset: Dataset | None, programs: Iterable[tuple[str, str]] = (),
               demos: bool = True, configure_lm: Callable[[], object] | None = None,
               api_key: str | None = None) -> RunParts:
    """The parts for the (method, profile) pairs the run will build (default: the spec's own), opened in one pass
    down: demonstrations (a refusal comes before anything heavy loads), the retriever and reader if a method needs
    them, then the LM (``configure_lm``: one already loaded, else the spec's). ``demos=False``: the programs bring
    their own (a saved program's state, an optimizer's compiled demonstrations)."""
    from hopkit.evaluation.retriever_choice import open_dataset_retriever
    from hopkit.lm.factory import use_lm
    from hopkit.programs.demo_source import load_demonstrations
    from hopkit.programs.registry import get_method
    from hopkit.reader.loading import open_reader
    from hopkit.tasks import get_task

    pairs = sorted(set(programs)) or [(spec.method, spec.profile)]
    methods = [get_method(method) for method, _ in pairs]
    name = dataset.name if dataset is not None else None
    loaded = {(method, profile): load_demonstrations(spec.demos_from, name, method, profile)
              for method, profile in pairs if demos}
    retriever, backend, choice = (open_dataset_retriever(spec.retriever, Path(spec.index) if spec.index else None,
                                                         spec.plaid, dataset)
                                  if any(m.needs_retriever for m in methods) else (None, spec.retriever, None))
    reader = open_reader(spec.reader) if any(m.needs_reader for m in methods) else None
    configure_lm() if configure_lm else use_lm(spec.lm_spec(api_key))
    task = get_task(spec.task or (dataset.task if dataset is not None else DEFAULT_TASK))
    return RunParts(spec, dataset, task, retriever, backend, choice, reader, loaded)

