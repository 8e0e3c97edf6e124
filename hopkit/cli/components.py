"""Turning CLI flags into the parts a program runs on: LM, dataset, retriever."""

from __future__ import annotations

import argparse
from pathlib import Path

import dspy

from hopkit.data.examples import Dataset, pick_questions  # noqa: F401 (pick_questions: the verbs' import)
from hopkit.data.registry import load_dataset_spec
from hopkit.evaluation.retriever_choice import AUTO, open_dataset_retriever
from hopkit.knobs import PROFILES, parse_knobs  # noqa: F401 (the CLI's --set parser)
from hopkit.lm.factory import DEFAULT_LM, LMSpec, use_lm
from hopkit.retrieval.counting import CountingRetriever


def add_lm_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lm", default=DEFAULT_LM, help="local:<qwen1.5b|qwen0.5b|file.gguf> or provider/model")
    parser.add_argument("--api-base", default=None, help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    parser.add_argument("--api-key", default=None, help="the LM server's key")
    parser.add_argument("--max-tokens", type=int, default=512, help="most tokens one LM call writes")
    parser.add_argument("--no-cache", action="store_true", help="do not reuse cached LM answers")
    parser.add_argument("--lm-timeout", type=float, default=120.0,
                        help="seconds an LM server may take for one call before the call fails (recorded, retried on "
                             "rerun)")


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
    parser.add_argument("--plaid", default=None, help="ColBERT search settings: "
                                                      "ncells=N,centroid_score_threshold=X,ndocs=N")
    parser.add_argument("--reader", default="lm", help="lm (answerability confidence) | lm:span | extractive:<model "
                                                       "name or path>")
    parser.add_argument("--demos-from", default="auto",
                        help="dataset whose chains become in-context demonstrations (methods that use them): auto "
                             "(bundled:train for bundled data; for a real dataset the choice measured for the method "
                             "there: musique:train for IRCoT on MuSiQue, else none), none, in-domain (the dataset's "
                             "own train split from the hub), hopkit:wiki "
                             "(hopkit's own Wikipedia demonstrations, offline; hopkit:wiki-balanced: the same with "
                             "even yes/no labels), or a spec such as ircot-demos:/path/hotpotqa.txt")


def configure_lm(args: argparse.Namespace) -> dspy.LM:
    return use_lm(LMSpec(model=args.lm, api_base=args.api_base, api_key=args.api_key, max_tokens=args.max_tokens,
                         cache=not args.no_cache, timeout=getattr(args, "lm_timeout", 120.0)))


def load_retriever(args: argparse.Namespace, dataset: Dataset | None) -> CountingRetriever:
    """The retriever the flags name over the dataset; what ``--retriever auto`` chose goes back into ``args``."""
    retriever, args.retriever, choice = open_dataset_retriever(args.retriever, args.index,
                                                               getattr(args, "plaid", None), dataset)
    if choice:
        args.retriever_choice = choice
    return retriever


def load_dataset(spec: str) -> Dataset:
    return load_dataset_spec(spec)


def add_question_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, default=None, help="the first n questions")
    parser.add_argument("--questions", default=None, metavar="A-B",
                        help="questions A to B of the dataset, counted from 1, both included (e.g. 51-80: a half "
                             "never read while designing), or @FILE: the qids it lists, one a line (e.g. `hopkit "
                             "losses LOG --qids > wrong.txt`); with --n, the first n of them")


def retriever_choice(args: argparse.Namespace) -> dict:
    """What ``--retriever auto`` chose and why, for a run's metadata (nothing for a named retriever)."""
    choice = getattr(args, "retriever_choice", None)
    return {"retriever_choice": choice} if choice else {}
