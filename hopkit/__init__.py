"""hopkit: multi-hop retrieval-augmented reasoning methods as DSPy programs.

    import dspy, hopkit
    dspy.configure(lm=hopkit.local_lm("qwen1.5b"))          # or any dspy.LM
    data = hopkit.load_dataset("bundled:dev")
    program = hopkit.IRCoT(hopkit.BM25(data.corpus))
    print(program(question=data.examples[0].question).answer)

Names are loaded on first use, so ``import hopkit`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    # programs
    "SearChain": "hopkit.programs.searchain",
    "IRCoT": "hopkit.programs.ircot",
    "TreeOfReviews": "hopkit.programs.tree_of_reviews",
    "CoR": "hopkit.api",
    "OneR": "hopkit.programs.baselines",
    "NoR": "hopkit.programs.baselines",
    "SelfAsk": "hopkit.programs.self_ask",
    "ReAct": "hopkit.programs.react",
    "IterRetGen": "hopkit.programs.iter_retgen",
    "build_program": "hopkit.programs.registry",
    # a method of your own (docs/extending.md)
    "register_method": "hopkit.programs.registry",
    "Method": "hopkit.programs.method",
    "TraceViews": "hopkit.programs.views",
    "Knob": "hopkit.knobs.knob",
    "Variant": "hopkit.variants",
    "hop_prediction": "hopkit.programs.prediction",
    "program_knobs": "hopkit.knobs.values",
    # retrievers
    "BM25": ("hopkit.retrieval.bm25", "BM25Retriever"),
    "ColBERTv2": "hopkit.api",
    # readers
    "LMReader": "hopkit.reader.lm_reader",
    "ExtractiveReader": "hopkit.reader.extractive",
    # data, LM, evaluation
    "load_dataset": "hopkit.api",
    "local_lm": "hopkit.api",
    "evaluate": "hopkit.api",
    "compare": "hopkit.api",
    "load_program": ("hopkit.optimize.saved", "load_program"),
    # a run declared once, as ``hopkit eval`` runs it (docs/python-api.md, "A run from its spec")
    "RunSpec": "hopkit.spec",
    "run_eval": "hopkit.run.eval",
    "StudySpec": "hopkit.optimize.study_spec",
    "run_optimize": "hopkit.run.optimize",
    "run_ablation": "hopkit.run.ablate",
    "run_reproduce": "hopkit.run.reproduce",
    "open_parts": "hopkit.run.parts",
    # metrics: by name (get_metric("f1"), each callable as a DSPy metric), and the string-level scores
    "get_metric": "hopkit.evaluation.metrics",
    "METRICS": "hopkit.evaluation.metrics",
    "exact_match": "hopkit.evaluation.metrics",
    "cover_exact_match": "hopkit.evaluation.metrics",
    "token_f1": "hopkit.evaluation.metrics",
    "recall_at": "hopkit.evaluation.metrics",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from hopkit.api import ColBERTv2, CoR, compare, evaluate, load_dataset, local_lm
    from hopkit.evaluation.metrics import METRICS, cover_exact_match, exact_match, get_metric, recall_at, token_f1
    from hopkit.knobs.knob import Knob
    from hopkit.knobs.values import program_knobs
    from hopkit.optimize.saved import load_program
    from hopkit.optimize.study_spec import StudySpec
    from hopkit.programs.baselines import NoR, OneR
    from hopkit.programs.ircot import IRCoT
    from hopkit.programs.iter_retgen import IterRetGen
    from hopkit.programs.method import Method
    from hopkit.programs.prediction import hop_prediction
    from hopkit.programs.react import ReAct
    from hopkit.programs.registry import build_program, register_method
    from hopkit.programs.searchain import SearChain
    from hopkit.programs.self_ask import SelfAsk
    from hopkit.programs.tree_of_reviews import TreeOfReviews
    from hopkit.programs.views import TraceViews
    from hopkit.reader.extractive import ExtractiveReader
    from hopkit.reader.lm_reader import LMReader
    from hopkit.retrieval.bm25 import BM25Retriever as BM25
    from hopkit.run.ablate import run_ablation
    from hopkit.run.eval import run_eval
    from hopkit.run.optimize import run_optimize
    from hopkit.run.parts import open_parts
    from hopkit.run.reproduce import run_reproduce
    from hopkit.spec import RunSpec
    from hopkit.variants import Variant


def __getattr__(name: str) -> Any:
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'hopkit' has no attribute {name!r}")
    module, attribute = target if isinstance(target, tuple) else (target, name)
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
