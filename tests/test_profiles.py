"""``profile="paper"``: every addition off for every method, shown on a scripted LM (no added sentence in any
prompt, no check call), against ``hopkit`` on the same script; and each departure knob doing what it says."""

import re

import dspy
import pytest
from scripted_engine import ScriptedEngine

from hopkit.additions.answer_as_asked import FIELD_DESCS, SENTENCE
from hopkit.data.passage import Passage
from hopkit.knobs import KNOBS, profile_values, resolve
from hopkit.lm.accounted import AccountedLM
from hopkit.programs.baselines import OneR
from hopkit.programs.ircot import IRCoT
from hopkit.programs.searchain import SearChain
from hopkit.programs.tree_of_reviews import TreeOfReviews
from hopkit.reader.lm_reader import LMReader
from hopkit.reader.protocol import Span

YES_NO = "Is Atlas older than Borea?"
CHECK_INSTRUCTION = "Answer the question with yes or no, using the facts"  # the yes/no check's prompt
LONG = " ".join(f"word{i}" for i in range(200))  # a paragraph longer than any word cut


class FieldEngine(ScriptedEngine):
    """Answers any signature from a table of output field values; records each request's text."""

    def __init__(self, fields):
        super().__init__([])
        self.fields, self.texts, self.max_tokens = fields, [], []

    def complete(self, request):
        text = (str(request.system or "") + "\n" + "\n".join(
            getattr(part, "text", "") for message in request.messages for part in message.parts))
        self.texts.append(text)
        self.max_tokens.append(request.config.max_tokens)
        asked = text.split("Your output fields are:")[-1].split("All interactions will be structured")[0]
        names = re.findall(r"\d+\. `(\w+)`", asked)
        fields = {**self.fields, "answer": "no"} if CHECK_INSTRUCTION in text else self.fields
        self.replies = [{name: fields.get(name, "none") for name in names}]
        return super().complete(request)

    def asked_the_yes_no_check(self):
        return any(CHECK_INSTRUCTION in text for text in self.texts)


def use(fields):
    engine = FieldEngine(fields)
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))
    return engine


class OneRetriever:
    def __init__(self, text=LONG):
        self.text, self.queries = text, []

    def retrieve(self, query, k):
        self.queries.append(query)
        return [Passage(f"p{i}", f"Atlas {i}", self.text).ranked(i + 1, 1.0) for i in range(min(k, 2))]


class ValueReader:
    """SearChain's reader: a confident span for every query."""

    confidence_scale = "probability"

    def read(self, question, passages):
        return Span(text="1901", score=0.9, pid=passages[0].pid, start=0, end=4)


VALUE_ANSWER = {"answer": "1901", "reasoning": "Atlas was made in 1901. So the answer is: 1901.",
                "continuation": "So the answer is: 1901.", "final_answer": "1901",
                "chain": '[{"query": "When was Atlas made?", "answer": "1901", "unsolved": false}]',
                "final_content": "Atlas was made in 1901 [1].", "relevant": "True", "sufficient": "True",
                "output": "Atlas was made in 1901.", "response": "Atlas was made in 1901.",
                "missing_information": "Borea was made in 1890."}


def build(method, profile):
    retriever = OneRetriever()
    if method == "oner":
        return OneR(retriever, profile=profile)
    if method == "ircot":
        return IRCoT(retriever, profile=profile)
    if method == "searchain":
        return SearChain(retriever, ValueReader(), profile=profile)
    return TreeOfReviews(retriever, profile=profile, threads=1)


@pytest.mark.parametrize("method", ["oner", "ircot", "searchain", "tor"])
def test_the_paper_profile_adds_no_sentence_and_runs_no_check(method):
    engine = use(VALUE_ANSWER)
    paper = build(method, "paper")(question=YES_NO)
    assert paper.answer == "1901"  # a value for a yes/no question stands: no check in the paper
    assert not engine.asked_the_yes_no_check() and not any(SENTENCE in text for text in engine.texts)
    assert not any("[[ ## reasoning ## ]]" in t and "[[ ## sufficient ## ]]" in t for t in engine.texts)
    assert not any(f"word{150}" not in t and "word119 ..." in t for t in engine.texts)  # whole paragraphs
    calls = len(engine.texts)

    engine = use(VALUE_ANSWER)
    hopkit = build(method, "hopkit")(question=YES_NO)
    assert engine.asked_the_yes_no_check() and hopkit.answer in ("yes", "no")
    assert len(engine.texts) > calls
    if method in ("oner", "ircot"):
        assert any(SENTENCE in text for text in engine.texts)  # the reader prompt's answer-form sentence


def test_every_addition_is_off_in_the_paper_profile_and_on_in_hopkit():
    for group, knobs in KNOBS.items():
        paper, hopkit = profile_values(group, "paper"), profile_values(group, "hopkit")
        for name, knob in knobs.items():
            if knob.addition:
                assert paper[name] != hopkit[name], (group, name)
                assert paper[name] in (False, 0, "path", "skip", "feedback", "plain"), (group, name)
            else:
                assert paper[name] == hopkit[name], (group, name)


def test_explicit_knobs_win_over_the_profile():
    assert resolve("ircot", "paper", {"yes_no_check": True})["yes_no_check"] is True
    assert resolve("ircot", "paper", {"yes_no_check": None})["yes_no_check"] is False
    engine = use(VALUE_ANSWER)
    assert OneR(OneRetriever(), profile="paper", yes_no_check=True)(question=YES_NO).answer in ("yes", "no")
    assert engine.asked_the_yes_no_check()


def test_ircot_step_token_cap_is_a_knob():
    engine = use(VALUE_ANSWER)
    IRCoT(OneRetriever(), profile="hopkit")(question="Where was Atlas made?")
    assert engine.max_tokens[0] == 160
    engine = use(VALUE_ANSWER)
    IRCoT(OneRetriever(), profile="paper")(question="Where was Atlas made?")
    assert engine.max_tokens[0] != 160  # no cap of ours: the LM's own max_tokens
    engine = use(VALUE_ANSWER)
    IRCoT(OneRetriever(), step_tokens=40)(question="Where was Atlas made?")
    assert engine.max_tokens[0] == 40


@pytest.mark.parametrize("method,words", [("oner", 120), ("ircot", 120), ("tor", 80)])
def test_paragraph_word_cut_is_a_knob(method, words):
    engine = use(VALUE_ANSWER)
    build(method, "hopkit")(question="Where was Atlas made?")
    assert any(f"word{words - 1} ..." in t for t in engine.texts)
    assert not any(f"word{words} " in t for t in engine.texts)
    engine = use(VALUE_ANSWER)
    build(method, "paper")(question="Where was Atlas made?")
    assert any("word199" in t for t in engine.texts)


def test_answer_as_asked_sentence_is_a_knob():
    engine = use(VALUE_ANSWER)
    OneR(OneRetriever(), profile="paper", answer_as_asked=True)(question="Where was Atlas made?")
    assert any(SENTENCE in t for t in engine.texts)
    engine = use(VALUE_ANSWER)
    OneR(OneRetriever(), answer_as_asked=False, yes_no_check=False)(question=YES_NO)
    assert not any(SENTENCE in t for t in engine.texts)


def test_tor_mpc_review_prompt_is_a_knob():
    for mpc_review, reasons_first in (("plain", False), ("reasoning_first", True)):
        engine = use(VALUE_ANSWER)
        TreeOfReviews(OneRetriever(), expansion="mpc", mpc_review=mpc_review, threads=1)(question="Where?")
        review = next(t for t in engine.texts if "[[ ## sufficient ## ]]" in t)
        assert ("`reasoning`" in review) is reasons_first


def test_tor_query_fallback_is_a_knob():
    searching = {**VALUE_ANSWER, "sufficient": "False", "output": "", "query": "written query"}
    for fallback, written in ((True, True), (False, False)):
        engine = use(searching)
        retriever = OneRetriever()
        TreeOfReviews(retriever, expansion="direct", query_fallback=fallback, depth=2, width_1=1, threads=1,
                      check_accept=False)(question="Where?")
        assert any("[[ ## query ## ]]" in t.split("Your output fields are:")[-1] for t in engine.texts) is written
        assert ("written query" in retriever.queries) is written


def test_tor_extra_demonstration_is_a_knob(bundled_dev):
    from hopkit.data.registry import load_dataset_spec

    train = load_dataset_spec("bundled:train")
    assert len(TreeOfReviews(OneRetriever(), train=train).review_step.demos) == 4
    assert len(TreeOfReviews(OneRetriever(), train=train, profile="paper").review_step.demos) == 3  # 3-shot
    assert len(TreeOfReviews(OneRetriever(), train=train, extra_demo=False).review_step.demos) == 3


def test_searchain_paper_profile_runs_algorithm_1_as_written():
    use(VALUE_ANSWER)
    program = SearChain(OneRetriever(), ValueReader(), profile="paper")
    assert (program.answer_from, program.duplicates, program.no_answer, program.decompose_retry) == (
        "path", "skip", "feedback", False)
    assert program.answer_steps.names == [] and program.theta == 0.82  # a reader that declares no calibration
    assert SearChain(OneRetriever(), LMReader(), profile="paper").theta == 0.5  # the LM reader's calibrated theta
    prediction = program(question="When was Atlas made?")
    assert prediction.trace["profile"] == "paper" and prediction.trace["answer_source"] == "traced"


def test_searchain_plan_cap_and_answer_field_wording_are_knobs():
    engine = use(VALUE_ANSWER)
    SearChain(OneRetriever(), ValueReader())(question="When was Atlas made?")
    assert engine.max_tokens[0] == 384 and FIELD_DESCS["final_answer"] in engine.texts[0]
    engine = use(VALUE_ANSWER)
    SearChain(OneRetriever(), ValueReader(), profile="paper")(question="When was Atlas made?")
    assert engine.max_tokens[0] != 384 and not any(FIELD_DESCS[f] in t for t in engine.texts for f in FIELD_DESCS)


def test_ircot_restated_sentences_are_skipped_unless_told_otherwise():
    script = {**VALUE_ANSWER, "continuation": "Atlas was made in Morn. Morn is in Tarv."}
    for skip, second in ((True, "Morn is in Tarv."), (False, "Atlas was made in Morn.")):
        use(script)
        prediction = IRCoT(OneRetriever(), max_steps=2, skip_restated=skip)(question="Where was Atlas made?")
        assert prediction.trace["chain"] == ["Atlas was made in Morn.", second]


def test_the_reader_ablation_keeps_the_checks():
    """IRCoT w/o reader differs from IRCoT in the reader alone: the chain's own answer is checked too."""
    engine = use(VALUE_ANSWER)
    from hopkit.programs.registry import build_program

    prediction = build_program("ircot-noreader", OneRetriever())(question=YES_NO)
    assert engine.asked_the_yes_no_check() and prediction.answer == "no"
    assert prediction.trace["reader_output"]["yes_no_check"]["before"] == "1901"


def test_trial_0_of_a_study_is_the_paper_profile_with_the_readers_theta():
    from hopkit.optimize.search_space import profile_defaults, search_space

    space = search_space("searchain", ["theta", "k", "r_max", "answer_from", "yes_no_check"])
    assert profile_defaults(space, "paper", LMReader()) == {"theta": 0.5, "k": 1, "r_max": 5, "answer_from": "path",
                                                            "yes_no_check": False}
    assert profile_defaults(space, "paper", None)["theta"] == 0.82
    assert profile_defaults(space, "hopkit", LMReader())["answer_from"] == "last_chain"


@pytest.mark.parametrize("method", ["ircot", "searchain", "tor"])
def test_a_paper_trace_says_what_stands_in(method):
    use(VALUE_ANSWER)
    assert build(method, "paper")(question="Where was Atlas made?").trace["stands_in"]
    use(VALUE_ANSWER)
    assert build(method, "hopkit")(question="Where was Atlas made?").trace["stands_in"] == []


class DisagreeingReader(ValueReader):
    def read(self, question, passages):
        return Span(text="1850", score=0.9, pid=passages[0].pid, start=0, end=4)


def test_searchain_feedback_document_cut_is_a_knob():
    for profile, seen, unseen in (("hopkit", "word119 ...", "word120 "), ("paper", "word199", None)):
        engine = use(VALUE_ANSWER)
        SearChain(OneRetriever(), DisagreeingReader(), profile=profile, r_max=2)(question="When was Atlas made?")
        feedback = [t for t in engine.texts[1:] if "[[ ## chain ## ]]" in t]  # the second plan reads the document
        assert feedback and any(seen in t for t in feedback)
        assert unseen is None or not any(unseen in t for t in feedback)


def test_tree_of_reviews_knobs_cite_the_sections_of_its_paper_that_set_them():
    sections = {"depth": "4.4", "width_1": "4.4", "width_2": "4.4", "width_3": "4.4", "reader_tokens": "4.4",
                "shots": "4.4", "fusion": "3.3", "expansion": "3.4", "mpc_query": "3.4", "relevance_pruning": "3.4",
                "repetitive_pruning": "3.4", "order": "3.2", "rerank": "4.2"}
    cited = {name: KNOBS["tor"][name].origin.split("ToR section ")[1][:3] for name in sections}
    assert cited == sections
