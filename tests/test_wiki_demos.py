"""hopkit's own demonstrations (``hopkit:wiki``): shipped in the package, so they load offline; every chain names
each hop's answer and ends in the answer; every method builds its demonstrations from them."""

import dspy
import pytest

import hopkit
from hopkit.data.local_formats import parse_ircot_demos
from hopkit.data.registry import load_dataset_spec
from hopkit.data.wiki_demos import WIKI_DEMOS, render
from hopkit.errors import UnknownNameError
from hopkit.programs.registry import build_program


def test_loads_offline_with_gold_paragraphs_the_chain_names():
    data = load_dataset_spec("hopkit:wiki")
    assert data.name == "hopkit:wiki" and len(data.examples) == len(WIKI_DEMOS)
    by_qid = {demo.qid: demo for demo in WIKI_DEMOS}
    for example in data.examples:
        demo = by_qid[example.qid]
        assert demo.chain.endswith(f"So the answer is: {example.answers[0]}.")
        gold_titles = [data.corpus[pid].title for pid in example.gold_pids]
        assert len(gold_titles) >= 2, example.qid  # multi-hop: at least two paragraphs read
        assert len(demo.paragraphs) > len(gold_titles), example.qid  # a distractor beside the gold
        assert example.chain[-1].startswith("So the answer is:")
    jaws = data.examples[2]
    assert [data.corpus[pid].title for pid in jaws.gold_pids] == ["Jaws (film)", "Titanic (1997 film)",
                                                                   "Steven Spielberg", "James Cameron"]


def test_the_rendered_file_reads_back_the_same():
    """A pinned checkout reads the rendered text with ``--demos-from ircot-demos:FILE``: the same examples."""
    again = parse_ircot_demos(render(), "file", "ircot-demos:file", "demos-file")
    data = load_dataset_spec("hopkit:wiki")
    assert [(e.question, e.answers, e.chain) for e in again.examples] == \
        [(e.question, e.answers, e.chain) for e in data.examples]


def test_every_method_builds_demonstrations_from_them():
    """SearChain's Chain-of-Query and ToR's review paths need a query for each fact, which the LM writes (a
    scripted one here)."""
    from dspy.utils import DummyLM

    data = load_dataset_spec("hopkit:wiki")
    retriever = hopkit.BM25(data.corpus)
    assert build_program("ircot", retriever, hopkit.LMReader(), train=data).reason.demos
    with dspy.context(lm=DummyLM([{"query": "Who wrote the novel?"}] * 200)):
        for method, step in (("searchain", "plan"), ("tor", "review_step")):
            assert getattr(build_program(method, retriever, hopkit.LMReader(), train=data), step).demos, method


def test_an_unknown_set_names_the_known_one():
    with pytest.raises(UnknownNameError, match="wiki"):
        load_dataset_spec("hopkit:trivia")


def test_the_balanced_set_has_as_many_yes_as_no_answers_and_differs_in_that_one_demonstration():
    plain, balanced = load_dataset_spec("hopkit:wiki"), load_dataset_spec("hopkit:wiki-balanced")
    answers = [example.answers[0] for example in balanced.examples]
    assert answers.count("yes") == answers.count("no") == 1
    assert [e.answers[0] for e in plain.examples].count("no") == 2
    changed = [(a.qid, b.qid) for a, b in zip(plain.examples, balanced.examples) if a.question != b.question]
    assert changed == [("hopkit-wiki-04", "hopkit-wiki-04b")]
    gold = [balanced.corpus[pid].title for pid in balanced.examples[3].gold_pids]
    assert gold == ["Danube", "Dnieper"]
