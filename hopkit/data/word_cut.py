"""What a paragraph word cut (the ``paragraph_words`` knob) hides of a dataset's gold evidence.

The ``hopkit`` profile shows each paragraph's first N words (docs/design/additions.md, "paragraph_words"); the papers
show whole paragraphs. A cut costs an answer only where the evidence sits past it, and that is countable from the
data alone, before any LM runs: a question is *cut* when an answer it needs is in its gold paragraphs but in none of
their shown parts (title and first N words, as ``Passage.as_context`` shows them). Where the dataset names each hop's
answer and paragraph (MuSiQue's decompositions), every hop is checked in its own paragraph; elsewhere the final
answer is checked across the gold paragraphs. ``hopkit data cut`` prints the counts (docs/datasets.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.text.normalize import covers


@dataclass(frozen=True)
class WordCutReport:
    words: int
    questions: int
    gold_paragraphs: int
    longer: int  # gold paragraphs of more than ``words`` words
    checked: int  # questions whose answers were found in their gold paragraphs at all
    cut: list[str]  # qids of the questions an answer of which is only past the cut
    by_hop: int  # of the checked questions, those checked hop by hop (the rest by their final answer)

    def summary(self) -> str:
        share = f" ({100 * self.longer / self.gold_paragraphs:.0f}%)" if self.gold_paragraphs else ""
        how = "hop by hop" if self.by_hop == self.checked else "by the final answer" if not self.by_hop else \
            f"{self.by_hop} hop by hop, the rest by the final answer"
        return (f"paragraph_words = {self.words}: {self.longer} of {self.gold_paragraphs} gold paragraphs are "
                f"longer{share}; {len(self.cut)} questions have an answer only past the cut, of {self.checked} whose "
                f"answers are in their gold paragraphs ({how})")


def word_cut_report(examples: Sequence, corpus: Corpus, words: int) -> WordCutReport:
    """Count what showing the first ``words`` words of each paragraph hides of ``examples``' gold evidence."""
    gold_paragraphs = longer = checked = by_hop = 0
    cut: list[str] = []
    for example in examples:
        gold = [corpus[pid] for pid in example.gold_pids if pid in corpus]
        gold_paragraphs += len(gold)
        longer += sum(len(passage.text.split()) > words for passage in gold)
        hops = _hop_needs(example, gold)
        needs = hops or [(answer, gold) for answer in example.answers[:1]]
        found = [(answer, where) for answer, where in needs if _shows(where, answer, None, example.answers)]
        if not found:
            continue
        checked += 1
        by_hop += bool(hops)
        if any(not _shows(where, answer, words, example.answers) for answer, where in found):
            cut.append(str(example.qid))
    return WordCutReport(words, len(examples), gold_paragraphs, longer, checked, cut, by_hop)


def _hop_needs(example, gold: list[Passage]) -> list[tuple[str, list[Passage]]]:
    """(hop answer, [its paragraph]) for each hop, where the example names them in order (MuSiQue's gold pids come
    hop by hop, hopkit/data/hub_formats.py); else empty."""
    answers = list(example.get("hop_answers") or [])
    if not answers or len(answers) > len(gold):
        return []
    return [(answer, [paragraph]) for answer, paragraph in zip(answers, gold)]


def _shows(paragraphs: list[Passage], answer: str, words: int | None, aliases: list[str]) -> bool:
    """Whether the answer (or, for the final answer, any alias) is in the shown part of one of the paragraphs."""
    names = aliases if answer in aliases else [answer]
    return any(covers(passage.as_context(words), name) for passage in paragraphs for name in names)
