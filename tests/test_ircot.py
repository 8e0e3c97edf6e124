"""IRCoT's control flow with a scripted LM: truncation, the answer-is stop, the step limit, dedup and the cap."""

import dspy
import pytest
from scripted_engine import ScriptedEngine

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.evaluation.trace_stats import stats_of
from hopkit.lm.accounted import AccountedLM
from hopkit.lm.usage import usage_scope
from hopkit.programs.ircot import IRCoT
from hopkit.programs.ircot.demonstrations import build_demos
from hopkit.programs.ircot.sentences import extract_answer, first_sentence
from hopkit.programs.registry import build_program


class TableRetriever:
    """Returns fixed pids per query; records every query it was asked."""

    def __init__(self, table, default=()):
        self.table, self.default, self.queries = table, list(default), []

    def retrieve(self, query, k):
        self.queries.append(query)
        pids = self.table.get(query, self.default)[:k]
        return [Passage(pid, pid.upper(), f"text of {pid}").ranked(i + 1, 1.0) for i, pid in enumerate(pids)]


def use_script(replies):
    engine = ScriptedEngine(replies)
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))
    return engine


def test_first_sentence_and_answer_extraction():
    assert first_sentence("Kellis was born in Velmar. Velmar is in Tarvania.") == "Kellis was born in Velmar."
    assert first_sentence("F. W. Murnau directed it. Then more.") == "F. W. Murnau directed it."
    assert extract_answer("Kellis was born there. So the answer is: Port Velmar.") == ("Port Velmar", True)
    assert extract_answer("Port Velmar, I think") == ("Port Velmar, I think", False)


def test_only_the_first_sentence_is_kept_and_used_as_the_query():
    retriever = TableRetriever({"Q?": ["a", "b"], "Atlas was made by Kellis.": ["c"]})
    engine = use_script([{"continuation": "Atlas was made by Kellis. Kellis lived in Velmar. "
                                          "So the answer is: Velmar."},
                         {"continuation": "So the answer is: Velmar."},
                         {"reasoning": "Kellis lived in Velmar.", "answer": "Velmar"}])
    prediction = IRCoT(retriever, k=2)(question="Q?")
    assert retriever.queries == ["Q?", "Atlas was made by Kellis."]
    assert prediction.trace["chain"] == ["Atlas was made by Kellis.", "So the answer is: Velmar."]
    assert prediction.trace["stop"] == "answer_is" and prediction.answer == "Velmar"
    assert prediction.citations == ["a", "b", "c"] and len(engine.requests) == 3


def test_the_answer_is_sentence_is_not_used_for_retrieval():
    retriever = TableRetriever({"Q?": ["a"]})
    use_script([{"continuation": "So the answer is: yes."}, {"answer": "yes"}])
    prediction = IRCoT(retriever, k=1, answer_reader="direct")(question="Q?")
    assert retriever.queries == ["Q?"] and prediction.answer == "yes"
    assert [s["query"] for s in prediction.trace["steps"]] == ["Q?", None]


def test_step_limit_holds():
    retriever = TableRetriever({}, default=["a"])
    use_script([{"continuation": f"Fact number {i} is here."} for i in range(3)] + [{"answer": "x"}])
    prediction = IRCoT(retriever, k=1, max_steps=3, answer_reader="direct")(question="Q?")
    assert prediction.trace["stop"] == "max_steps" and len(prediction.trace["chain"]) == 3


def test_deduplication_and_the_cap():
    retriever = TableRetriever({"Q?": ["a", "b", "c"], "S one.": ["b", "c", "d"], "S two.": ["e", "f", "g"]})
    use_script([{"continuation": "S one."}, {"continuation": "S two."}, {"continuation": "So the answer is: z."},
                {"answer": "z"}])
    prediction = IRCoT(retriever, k=3, cap=5, answer_reader="direct")(question="Q?")
    assert prediction.retrieved == ["a", "b", "c", "d", "e"]  # b, c not repeated; f, g over the cap
    steps = prediction.trace["steps"]
    assert steps[1]["added"] == ["d"] and steps[2]["added"] == ["e"]


def test_without_a_reader_the_answer_comes_from_the_chain_and_costs_are_per_step():
    retriever = TableRetriever({}, default=["a"])
    use_script([{"continuation": "Atlas is in Velmar."}, {"continuation": "So the answer is: Velmar."}])
    with usage_scope() as usage:
        prediction = IRCoT(retriever, k=1, answer_reader="none")(question="Q?")
    assert prediction.answer == "Velmar" and usage.lm_calls == 2
    assert [s["cost"].get("lm_calls") for s in prediction.trace["steps"][1:]] == [1, 1]


def test_demonstrations_mix_gold_and_m_distractors_within_the_budget():
    corpus = Corpus([Passage(f"p{i}", f"T{i}", f"paragraph {i} " * 5) for i in range(30)])
    train = [dspy.Example(qid=f"t{i}", question=f"q{i}?", answers=[f"a{i}"], gold_pids=[f"p{i}", f"p{i + 10}"],
                          chain=[f"s{i}.", f"So the answer is: a{i}."]).with_inputs("question") for i in range(10)]
    demos = build_demos(train, corpus, m_distractors=3, budget_wordpieces=200)
    assert 1 <= len(demos.reason) < 10  # the budget stops packing
    for demo in demos.cot_reader:
        i = int(demo.question[1:-1])
        titles = {c.split("\n")[0] for c in demo.context}
        assert len(demo.context) == 5 and {f"Wikipedia Title: T{i}", f"Wikipedia Title: T{i + 10}"} <= titles
        assert demo.reasoning == f"s{i}. So the answer is: a{i}." and demo.answer == f"a{i}"
    with pytest.raises(Exception, match="reasoning chain"):
        build_demos([dspy.Example(question="q", gold_pids=[], answers=["a"])], corpus)


def test_registry_builds_variants_with_demos(bundled_dev):
    from hopkit.data.registry import load_bundled
    from hopkit.retrieval.bm25 import BM25Retriever

    train = load_bundled("train")
    retriever = BM25Retriever(bundled_dev.corpus)
    program = build_program("ircot-noreader", retriever=retriever, train=train, k=2, m_distractors=1)
    assert program.reader_mode == "none" and program.k == 2 and len(program.reason.demos) >= 1
    demo = program.reason.demos[0]
    assert demo.continuation and isinstance(demo.context, list)


def test_a_restated_chain_is_skipped_to_its_first_new_sentence():
    retriever = TableRetriever({}, default=["a"])
    both = "Atlas is in Velmar. Velmar is in Tarvania."
    use_script([{"continuation": both}, {"continuation": both}, {"continuation": both}, {"answer": "x"}])
    prediction = IRCoT(retriever, k=1, max_steps=5, answer_reader="direct")(question="Q?")
    assert prediction.trace["chain"] == ["Atlas is in Velmar.", "Velmar is in Tarvania."]
    assert prediction.trace["stop"] == "nothing_new"  # the third step wrote only what the chain holds
    assert [s.get("restated") for s in prediction.trace["steps"][1:]] == [0, 1, 2]


def test_stop_on_repeat_stops_at_a_restated_first_sentence():
    retriever = TableRetriever({}, default=["a"])
    both = "Atlas is in Velmar. Velmar is in Tarvania."
    use_script([{"continuation": both}, {"continuation": both}, {"answer": "x"}])
    prediction = IRCoT(retriever, k=1, max_steps=3, answer_reader="direct", stop_on_repeat=True)(question="Q?")
    assert prediction.trace["stop"] == "repeat" and prediction.trace["chain"] == ["Atlas is in Velmar."]


def test_a_malformed_reader_output_keeps_the_retrieval_and_is_counted():
    retriever = TableRetriever({"Q?": ["a", "b"]})
    use_script([{"continuation": "So the answer is: Velmar."}, {"something": "not the fields"},
                {"something": "still not"}])
    prediction = IRCoT(retriever, k=2, answer_reader="cot")(question="Q?")
    assert prediction.retrieved == ["a", "b"] and prediction.answer == "Velmar"
    assert stats_of(prediction.trace)["reader_parse_failures"] == 1


def test_a_malformed_reasoning_step_ends_the_chain_and_is_counted():
    retriever = TableRetriever({"Q?": ["a"]})
    use_script([{"something": "not the fields"}, {"something": "still not"}, {"answer": "x"}])
    prediction = IRCoT(retriever, k=1, answer_reader="direct")(question="Q?")
    assert prediction.trace["stop"] == "reason_parse_failure" and prediction.answer == "x"
    assert stats_of(prediction.trace)["reason_parse_failures"] == 1 and prediction.retrieved == ["a"]


def test_a_first_sentence_that_restates_the_question_is_skipped_and_not_used_as_a_query():
    retriever = TableRetriever({"Where is Atlas?": ["a"], "Atlas is in Velmar.": ["b"]})
    use_script([{"continuation": "Where is Atlas? Atlas is in Velmar."},
                {"continuation": "So the answer is: Velmar."}, {"answer": "Velmar"}])
    prediction = IRCoT(retriever, k=1, max_steps=3, answer_reader="direct")(question="Where is Atlas?")
    steps = prediction.trace["steps"]
    assert prediction.trace["chain"] == ["Atlas is in Velmar.", "So the answer is: Velmar."]
    assert steps[1]["restated"] == 1 and steps[1]["query"] == "Atlas is in Velmar."
    assert prediction.retrieved == ["a", "b"]
