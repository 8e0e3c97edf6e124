"""The ``paper`` profile is few-shot as the papers were: ``auto`` takes the dataset's own train split for every
method (NoR and OneR read with IRCoT's few-shot reader), IRCoT packs up to 15 demonstrations into 6,000
wordpieces, SearChain shows 2 examples, ToR 3 for each prompt; a source that cannot be loaded leaves the run
zero-shot, said on stderr and recorded."""

from __future__ import annotations

import pytest

from hopkit.data.registry import load_dataset_spec
from hopkit.errors import InputError, MissingArtifactError
from hopkit.knobs import profile_values
from hopkit.programs import demo_source as demos
from hopkit.programs.demo_source import resolve_demos_from
from hopkit.programs.registry import build_program
from hopkit.text.wordpieces import count_wordpieces


class NoRetriever:
    def retrieve(self, query, k):
        return []


@pytest.fixture(scope="module")
def train(hopkit_home):
    return load_dataset_spec("bundled:train")


def test_auto_follows_the_profile():
    for method in ("ircot", "searchain", "tor", "oner", "nor-cot"):
        assert resolve_demos_from("auto", "musique:validation", method, "paper") == "musique:train"
        assert resolve_demos_from("auto", "hotpotqa-distractor:validation", method, "paper") == \
            "hotpotqa-distractor:train"
    assert resolve_demos_from("auto", "qa:questions500", "ircot", "paper") is None  # no known train split
    assert resolve_demos_from("auto", "musique:validation", "oner", "hopkit") is None  # hopkit: zero-shot baselines
    assert resolve_demos_from("auto", "bundled:dev", "oner", "hopkit") is None
    assert resolve_demos_from("auto", "bundled:dev", "oner", "paper") == "bundled:train"
    assert resolve_demos_from("ircot-demos:/x.txt", "musique:validation", "oner", "hopkit") == "ircot-demos:/x.txt"


def test_paper_demonstrations_that_cannot_be_loaded_leave_the_run_zero_shot_and_say_so(monkeypatch, capsys):
    def offline(spec):
        raise MissingArtifactError(f"could not load {spec} from the Hugging Face hub (ConnectionError)")

    monkeypatch.setattr("hopkit.data.registry.load_dataset_spec", offline)
    assert demos.load_demonstrations("auto", "2wikimultihopqa:validation", "searchain", "paper") == (
        None, "none (2wikimultihopqa:train unavailable)")
    err = capsys.readouterr().err
    assert "the paper profile is few-shot" in err and "ircot-demos:FILE" in err and "runs zero-shot" in err


def test_ircot_packs_up_to_15_demonstrations_into_the_papers_6000_wordpieces(train):
    paper = profile_values("ircot", "paper")
    assert (paper["demo_budget"], paper["max_demos"], paper["m_distractors"]) == (6000, 15, 2)
    program = build_program("ircot", NoRetriever(), train=train, profile="paper")
    demos = program.read_cot.demos
    assert 1 < len(demos) <= 15
    pieces = sum(count_wordpieces("\n".join([*d.context, d.question, d.reasoning])) for d in demos)
    assert pieces <= 6000
    small = build_program("ircot", NoRetriever(), train=train, profile="paper", demo_budget=800)
    assert len(small.read_cot.demos) < len(demos)
    assert len(build_program("ircot", NoRetriever(), train=train, profile="paper", max_demos=2).reason.demos) == 2


def test_nor_and_oner_read_with_ircots_few_shot_reader(train):
    ircot = build_program("ircot", NoRetriever(), train=train, profile="paper")
    oner = build_program("oner", NoRetriever(), train=train, profile="paper")
    assert [d.question for d in oner.answer.demos] == [d.question for d in ircot.read_direct.demos]
    assert oner.answer.demos[0].context == ircot.read_direct.demos[0].context
    nor = build_program("nor-cot", train=train, profile="paper")
    demos = nor.answer.predict.demos
    assert [d.question for d in demos] == [d.question for d in ircot.read_cot.demos]
    assert "context" not in demos[0] and demos[0].reasoning
    assert build_program("oner", NoRetriever(), profile="paper").answer.demos == []  # no train: zero-shot


def test_searchain_shows_the_papers_2_examples(train):
    class Reader:
        calibrated_theta = 0.5

        def read(self, question, passages):
            raise AssertionError("not called")

    paper = build_program("searchain", NoRetriever(), Reader(), train=train, profile="paper").plan.demos
    hopkit = build_program("searchain", NoRetriever(), Reader(), train=train).plan.demos
    assert len(paper) == 2 and len(hopkit) == 3
    assert not paper[0].feedback and paper[1].feedback  # one first round, one later round


def test_tor_gives_each_prompt_3_demonstrations(train):
    program = build_program("tor", NoRetriever(), train=train, profile="paper")
    assert len(program.review_step.demos) == 3
    assert len(program.complete_missing.demos) == 3
    assert len(program.fuse.from_evidence.demos) == 3 and len(program.fuse.from_paragraphs.demos) == 3
    assert len({d.question for d in program.complete_missing.demos}) == 3


@pytest.mark.parametrize("dataset", ["qa:/data/questions500.jsonl", "ircot:/data/dev100.jsonl", "strategyqa:dev"])
def test_a_paper_run_on_a_dataset_with_no_train_split_asks_for_demonstrations_instead_of_going_zero_shot(dataset):
    with pytest.raises(InputError, match="give --demos-from SPEC .* or --demos-from none to run zero-shot on purpose"):
        demos.load_demonstrations("auto", dataset, "ircot", "paper")
    assert demos.load_demonstrations("none", dataset, "ircot", "paper") == (None, "none")  # asked for: recorded
    assert demos.load_demonstrations("auto", dataset, "ircot", "hopkit") == (None, "none")  # hopkit: zero-shot


class _NoReader:
    def read(self, question, passages):
        return None


def test_searchain_shows_the_papers_two_examples_each_of_another_question(train):
    program = build_program("searchain", NoRetriever(), _NoReader(), train=train, profile="paper")
    demos = program.plan.demos
    assert len(demos) == 2 and len({d.question for d in demos}) == 2
    assert [bool(d.feedback) for d in demos] == [False, True]  # a first round, then a later round
    hopkit = build_program("searchain", NoRetriever(), _NoReader(), train=train, profile="hopkit")
    assert len(hopkit.plan.demos) == 3  # hopkit's extra first round


def test_searchain_checks_claims_with_four_claim_examples_as_its_paper(hopkit_home):
    from hopkit.tasks import get_task

    mixed = load_dataset_spec("bundled:fact-check:train+bundled:train")
    program = build_program("searchain", NoRetriever(), _NoReader(), train=mixed, profile="paper",
                            task=get_task("fact-check")).program
    demos = program.plan.demos
    assert program.knobs.plan_shots == 4 and len(demos) == 4 and len({d.question for d in demos}) == 4
    finished = [d for d in demos if d.feedback]
    assert finished and all(d.final_answer in ("SUPPORTS", "REFUTES") for d in finished)
    assert all(d.question.rstrip().endswith(".") for d in demos)  # claims, not questions
    qa = build_program("searchain", NoRetriever(), _NoReader(), train=mixed, profile="paper",
                       task=get_task("multihop-qa"))
    assert len(qa.plan.demos) == 2
