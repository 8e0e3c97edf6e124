"""The papers' own numbers, as data, so a reproduced table can show each cell beside its source.

- IRCoT, Table 3 (appendix A): answer F1 of NoR, OneR and IRCoT with Direct and CoT readers, for Flan-T5-XXL and
  GPT3, on HotpotQA, 2WikiMultihopQA and MuSiQue (IIRC is not among hopkit's datasets).
- SearChain, Table 1: cover-EM with gpt-3.5-turbo (SearChain and its ablations; the paper reports no F1).
- Tree of Reviews, Table 2: answer EM and F1 with GPT-3.5-Turbo and GPT-4-Turbo, for ToR and the baselines it
  reran (OneR, IRCoT, CoR, Self-Ask, ReAct and ITER-RETGEN among them).
- SearChain, Table 1, also for Self-Ask (with and without IR) and ReAct.

The papers' models, corpora and question samples differ from a local run's: the numbers are a reference point, not
a target a 1.5B model on a closed corpus should meet.
"""

from __future__ import annotations

from dataclasses import dataclass

DATASETS = ("hotpotqa", "2wiki", "musique")


@dataclass(frozen=True)
class PaperNumber:
    source: str  # "IRCoT Table 3"
    model: str
    metric: str  # f1, em or cover_em
    values: dict[str, float]  # dataset -> value


def _n(source: str, model: str, metric: str, hotpotqa: float, twowiki: float, musique: float) -> PaperNumber:
    return PaperNumber(source, model, metric, {"hotpotqa": hotpotqa, "2wiki": twowiki, "musique": musique})


# method (hopkit's name) -> the numbers its papers give for it, first the one a table shows by default
PAPER_NUMBERS: dict[str, list[PaperNumber]] = {
    "nor": [_n("IRCoT Table 3", "Flan-T5-XXL", "f1", 24.2, 30.1, 12.0),
            _n("IRCoT Table 3", "GPT3", "f1", 41.4, 34.9, 18.1),
            _n("ToR Table 2", "GPT-3.5-Turbo", "f1", 37.7, 31.8, 18.2)],
    "nor-cot": [_n("IRCoT Table 3", "GPT3", "f1", 47.3, 37.5, 24.9),
                _n("IRCoT Table 3", "Flan-T5-XXL", "f1", 22.3, 30.0, 9.8),
                _n("ToR Table 2", "GPT-3.5-Turbo", "f1", 38.8, 33.6, 25.1)],
    "oner": [_n("IRCoT Table 3", "Flan-T5-XXL", "f1", 48.1, 48.2, 24.0),
             _n("IRCoT Table 3", "GPT3", "f1", 49.7, 41.1, 18.3),
             _n("ToR Table 2", "GPT-3.5-Turbo", "f1", 33.4, 23.8, 10.3)],
    "oner-cot": [_n("IRCoT Table 3", "GPT3", "f1", 52.7, 49.4, 26.3),
                 _n("IRCoT Table 3", "Flan-T5-XXL", "f1", 42.8, 45.5, 16.6),
                 _n("ToR Table 2", "GPT-3.5-Turbo", "f1", 32.1, 18.7, 11.2)],
    "ircot": [_n("IRCoT Table 3", "GPT3", "f1", 61.2, 65.2, 35.5),
              _n("IRCoT Table 3", "Flan-T5-XXL", "f1", 51.0, 51.3, 22.9),
              _n("ToR Table 2", "GPT-3.5-Turbo", "f1", 38.9, 30.4, 15.0)],
    "ircot-direct": [_n("IRCoT Table 3", "Flan-T5-XXL", "f1", 59.0, 64.2, 29.1),
                     _n("IRCoT Table 3", "GPT3", "f1", 59.9, 60.2, 34.1)],
    "searchain": [_n("SearChain Table 1", "gpt-3.5-turbo", "cover_em", 56.91, 46.27, 17.07)],
    "searchain-noverify": [_n("SearChain Table 1", "gpt-3.5-turbo", "cover_em", 46.11, 42.67, 14.70)],
    "searchain-nocomplete": [_n("SearChain Table 1", "gpt-3.5-turbo", "cover_em", 53.05, 43.64, 15.86)],
    "searchain-noir": [_n("SearChain Table 1", "gpt-3.5-turbo", "cover_em", 38.36, 40.49, 13.61)],
    "tor": [_n("ToR Table 2", "GPT-3.5-Turbo", "f1", 50.4, 37.0, 22.1),
            _n("ToR Table 2", "GPT-3.5-Turbo", "em", 38.2, 29.0, 13.2),
            _n("ToR Table 2", "GPT-4-Turbo", "f1", 63.1, 62.9, 43.6)],
    "cor": [_n("ToR Table 2", "GPT-3.5-Turbo", "f1", 39.8, 28.8, 16.8)],
    # the step-by-step baselines as ToR reran them (section 4.3: Contriever, top-5, 3 turns, 3-shot) and as
    # SearChain's Table 1 reports them (cover-EM; its ReAct row is "React -> CoT-SC", ReAct with CoT-SC as fallback)
    "self-ask": [_n("ToR Table 2", "GPT-3.5-Turbo", "f1", 32.6, 22.3, 12.5),
                 _n("ToR Table 2", "GPT-3.5-Turbo", "em", 23.4, 15.4, 5.6),
                 _n("ToR Table 2", "GPT-4-Turbo", "f1", 51.3, 52.6, 40.6),
                 _n("SearChain Table 1", "gpt-3.5-turbo", "cover_em", 40.05, 39.58, 14.28)],
    "self-ask-noir": [_n("SearChain Table 1", "gpt-3.5-turbo", "cover_em", 33.95, 35.65, 11.10)],
    "react": [_n("ToR Table 2", "GPT-3.5-Turbo", "f1", 37.2, 24.3, 7.7),
              _n("ToR Table 2", "GPT-3.5-Turbo", "em", 25.8, 14.6, 2.2),
              _n("ToR Table 2", "GPT-4-Turbo", "f1", 47.5, 48.2, 38.0),
              _n("SearChain Table 1 (React -> CoT-SC)", "gpt-3.5-turbo", "cover_em", 43.15, 40.36, 15.49)],
    "iter-retgen": [_n("ToR Table 2", "GPT-3.5-Turbo", "f1", 36.7, 23.0, 16.7),
                    _n("ToR Table 2", "GPT-3.5-Turbo", "em", 25.8, 16.6, 9.4),
                    _n("ToR Table 2", "GPT-4-Turbo", "f1", 58.9, 51.0, 43.3)],
}


def dataset_key(dataset_name: str) -> str | None:
    """hotpotqa, 2wiki or musique for a dataset name (``musique:validation``, ``qa:questions500`` over 2Wiki's
    HippoRAG corpus names itself by its spec), None when it is none of them."""
    name = dataset_name.lower()
    for key, marks in (("hotpotqa", ("hotpot",)), ("2wiki", ("2wiki", "wikimultihop")), ("musique", ("musique",))):
        if any(mark in name for mark in marks):
            return key
    return None


def paper_number(method: str, dataset: str, metric: str | None = None) -> PaperNumber | None:
    """The first number the papers give for the method on the dataset (in ``metric`` when given)."""
    for number in PAPER_NUMBERS.get(method, []):
        if dataset in number.values and (metric is None or number.metric == metric):
            return number
    return None
