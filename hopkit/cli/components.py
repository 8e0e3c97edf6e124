"""Turning CLI flags into the parts a program runs on: LM, dataset, retriever."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import dspy

from hopkit.data.examples import Dataset
from hopkit.data.registry import load_dataset_spec
from hopkit.errors import InputError
from hopkit.knobs import PROFILES, parse_knobs  # noqa: F401 (the CLI's --set parser)
from hopkit.lm.factory import DEFAULT_LM, LMSpec, check_reachable, make_lm
from hopkit.paths import default_index_path
from hopkit.evaluation.retriever_choice import AUTO
from hopkit.retrieval.loading import open_retriever
from hopkit.retrieval.counting import CountingRetriever


def add_lm_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lm", default=DEFAULT_LM, help="local:<qwen1.5b|qwen0.5b|file.gguf> or provider/model")
    parser.add_argument("--api-base", default=None, help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--no-cache", action="store_true", help="do not reuse cached LM answers")
    parser.add_argument("--lm-timeout", type=float, default=120.0,
                        help="seconds an LM server may take for one call before the call fails (recorded, retried on rerun)")


def add_profile_flag(parser: argparse.ArgumentParser, default: str = "hopkit",
                     text: str = "every knob not set with --set") -> None:
    parser.add_argument("--profile", default=default, choices=list(PROFILES),
                        help=f"paper: the paper's algorithm and values, every hopkit addition off; hopkit: hopkit's "
                             f"defaults. Decides {text} (default: %(default)s)")


def add_retrieval_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--retriever", default=AUTO,
                        help="auto (default: BM25, unless the dataset's ColBERT index has the higher question recall "
                        "on its questions; with --index, that index's backend) | bm25 | colbert | hybrid | remote:URL")
    parser.add_argument("--index", type=Path, default=None, help="index folder (default: the dataset's)")
    parser.add_argument("--plaid", default=None, help="ColBERT search settings: ncells=N,centroid_score_threshold=X,ndocs=N")
    parser.add_argument("--reader", default="lm", help="lm (answerability confidence) | lm:span | extractive:<model name or path>")
    parser.add_argument("--demos-from", default="auto",
                        help="dataset whose chains become in-context demonstrations (methods that use them): auto "
                             "(bundled:train for bundled data; for a real dataset the choice measured for the method "
                             "there: musique:train for IRCoT on MuSiQue, else none), none, in-domain (the dataset's own train split from the hub), hopkit:wiki "
                             "(hopkit's own Wikipedia demonstrations, offline; hopkit:wiki-balanced: the same with "
                             "even yes/no labels), or a spec such as ircot-demos:/path/hotpotqa.txt")


def configure_lm(args: argparse.Namespace) -> dspy.LM:
    return use_lm(LMSpec(model=args.lm, api_base=args.api_base, api_key=args.api_key, max_tokens=args.max_tokens,
                         cache=not args.no_cache, timeout=getattr(args, "lm_timeout", 120.0)))


def use_lm(spec: LMSpec) -> dspy.LM:
    """The LM the spec names, checked reachable (a server) and configured for DSPy."""
    lm = make_lm(spec)
    if not spec.is_local:
        check_reachable(lm)
    dspy.configure(lm=lm)
    return lm


def load_retriever(args: argparse.Namespace, dataset: Dataset | None) -> CountingRetriever:
    """The retriever the flags name over the dataset; what ``--retriever auto`` chose goes back into ``args``."""
    retriever, args.retriever, choice = open_dataset_retriever(args.retriever, args.index,
                                                               getattr(args, "plaid", None), dataset)
    if choice:
        args.retriever_choice = choice
    return retriever


def open_dataset_retriever(backend: str, index: Path | None, plaid: str | None,
                           dataset: Dataset | None) -> tuple[CountingRetriever, str, str | None]:
    """The index named by ``index``, else the dataset's; with a dataset, the index must be over its corpus.
    Returns the retriever, the backend it is, and what ``auto`` measured to choose it (None: nothing measured)."""
    if index is None and dataset is None:
        raise InputError("give --index or --dataset")
    if index is None and dataset is not None and dataset.corpus is None:
        raise InputError(f"{dataset.name} brings no passages of its own: index your corpus (e.g. KILT's Wikipedia "
                         "passages) with `hopkit index --backend bm25 --corpus FILE.jsonl --out DIR` and pass --index DIR")
    from hopkit.retrieval.loading import parse_plaid

    choice = None
    if backend == AUTO:
        backend, choice = _choose_backend(index, dataset)
    retriever = open_retriever(backend, lambda name: default_index_path(dataset.corpus_name, name),
                               index, parse_plaid(plaid))
    corpus = getattr(retriever, "corpus", None)
    if (dataset is not None and dataset.corpus is not None and corpus is not None
            and corpus.fingerprint() != dataset.corpus.fingerprint()):
        raise InputError(f"the {backend} index was built over another corpus than {dataset.name}'s; "
                         f"rebuild it with `hopkit index --backend {backend} --dataset {dataset.name}`")
    return CountingRetriever(retriever), backend, choice


def load_dataset(spec: str) -> Dataset:
    return load_dataset_spec(spec)


def add_question_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, default=None, help="the first n questions")
    parser.add_argument("--questions", default=None, metavar="A-B",
                        help="questions A to B of the dataset, counted from 1, both included (e.g. 51-80: a half "
                             "never read while designing); with --n, the first n of them")


def pick_questions(examples: list, n: int | None, questions: str | None) -> list:
    """The questions a run answers: ``--questions A-B`` (1-based, inclusive), then the first ``--n``."""
    if n is not None and n < 1:
        raise InputError("--n must be at least 1")
    if questions:
        first, sep, last = questions.partition("-")
        if not sep or not first.strip().isdigit() or not last.strip().isdigit() or not 1 <= int(first) <= int(last):
            raise InputError(f"--questions expects A-B with 1 <= A <= B (e.g. 51-80), got {questions!r}")
        if int(first) > len(examples):
            raise InputError(f"--questions {questions}: the dataset has {len(examples)} questions")
        examples = examples[int(first) - 1:int(last)]
    return examples[:n] if n else list(examples)


def _choose_backend(index: Path | None, dataset: Dataset | None) -> tuple[str, str | None]:
    """``--retriever auto`` (the default): the backend of the index ``--index`` names; else BM25 unless the
    dataset's ColBERT index has the higher question recall (measured only when that index exists; the measurement
    is printed and kept for the run's metadata)."""
    from hopkit.evaluation.retriever_choice import choose_retriever
    from hopkit.retrieval.loading import index_backend, load_index

    if index is not None:
        return index_backend(index), None
    if dataset is None:
        raise InputError("give --index or --dataset")
    choice = choose_retriever(dataset.examples, lambda backend: default_index_path(dataset.corpus_name, backend),
                              load_index)
    if not choice.recalls:
        return choice.backend, None
    print(f"retriever: {choice.summary()}", file=sys.stderr)  # a measurement was made: say so
    return choice.backend, choice.summary()


def retriever_choice(args: argparse.Namespace) -> dict:
    """What ``--retriever auto`` chose and why, for a run's metadata (nothing for a named retriever)."""
    choice = getattr(args, "retriever_choice", None)
    return {"retriever_choice": choice} if choice else {}
