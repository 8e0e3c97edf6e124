"""SearChain's control flow with a scripted LM and reader: verification, completion, duplicates,
rounds, the Tree-of-Reasoning, tracing and the three variants."""

import json

import dspy
import pytest
from scripted_engine import ScriptedEngine

from hopkit.data.passage import Passage
from hopkit.evaluation.trace_stats import stats_of
from hopkit.lm.accounted import AccountedLM
from hopkit.programs.registry import build_program
from hopkit.programs.searchain import SearChain
from hopkit.programs.searchain.chain_text import parse_chain_text, render_chain
from hopkit.programs.searchain.judgment import disagrees, judge, probability_confidence
from hopkit.programs.searchain.processed import ProcessedQueries
from hopkit.programs.searchain.tree import (
    COMPLETED,
    CORRECTED,
    DUPLICATE,
    FILLED,
    NOT_REACHED,
    PASS,
    UNANSWERED,
    UNSOLVED_KEPT,
)
from hopkit.reader.lm_reader import LMReader
from hopkit.reader.protocol import Span


class QueryRetriever:
    """One document per query, its pid derived from the query; records every query."""

    def __init__(self):
        self.queries = []

    def retrieve(self, query, k):
        self.queries.append(query)
        pid = "d-" + "".join(ch for ch in query.lower() if ch.isalnum())[:12]
        return [Passage(pid, pid, f"text about {query}").ranked(1, 1.0)]


class TableReader:
    """Answers each query with a fixed (text, confidence); records what it read."""

    confidence_scale = "probability"

    def __init__(self, table):
        self.table, self.read_queries = table, []

    def read(self, question, passages):
        self.read_queries.append(question)
        text, score = self.table.get(question, ("", 0.0))
        return Span(text=text, score=score, pid=passages[0].pid, start=0, end=len(text))

    def read_batch(self, items):
        return [self.read(q, p) for q, p in items]


def chain(*nodes, final=""):
    """A scripted ChainOfQuery reply: nodes are (query, answer) with answer None for unsolved."""
    items = [{"query": q, "answer": a, "unsolved": a is None} for q, a in nodes]
    return {"chain": json.dumps(items), "final_answer": final}


def final(content, answer):
    return {"final_content": content, "answer": answer}


def use_script(replies):
    engine = ScriptedEngine(replies)
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))
    return engine


def run(replies, reader_table, **knobs):
    engine = use_script(replies)
    retriever, reader = QueryRetriever(), TableReader(reader_table)
    prediction = SearChain(retriever, reader, **knobs)(question="Where was the maker of Atlas born?")
    return prediction, retriever, reader, engine


def nodes_of(prediction):
    return {n["id"]: n for n in prediction.trace["tree"]["nodes"]}


def test_judge_corrects_only_when_confident_and_disagreeing():
    kw = {"theta": 0.8, "alpha": 0.35, "answer_form": "short"}
    assert judge(False, "Atlas was made by Kellis.", "Morn", 0.9, "doc", **kw) == CORRECTED
    assert judge(False, "Atlas was made by Kellis.", "Morn", 0.8, "doc", **kw) == PASS  # f must exceed theta
    assert judge(False, "Atlas was made by Kellis.", "kellis", 0.99, "doc", **kw) == PASS  # contained: agrees
    assert judge(False, "Atlas was made by Kellis.", "", 0.99, "doc", **kw) == PASS  # no reader answer
    assert judge(False, "x", "Morn", 0.99, "doc", verify=False, **kw) == PASS


def test_judge_completes_every_unsolved_node_whatever_the_confidence():
    kw = {"theta": 0.8, "alpha": 0.35, "answer_form": "short"}
    for confidence in (0.0, 0.5, 0.99, None):
        assert judge(True, "", "Morn", confidence, "doc", **kw) == COMPLETED
        assert judge(True, "", "Morn", confidence, "doc", complete=False, **kw) == UNSOLVED_KEPT


def test_long_form_answers_disagree_by_rouge_against_alpha():
    document = "the river floods every spring because snow melts in the high valleys"
    assert not disagrees("snow melts in the high valleys every spring", "", document, "long", alpha=0.35)
    assert disagrees("volcanic activity heats the lake", "", document, "long", alpha=0.35)


def test_logit_confidence_maps_through_a_sigmoid():
    assert probability_confidence(1.5, "logit") == pytest.approx(0.8176, abs=1e-4)
    assert probability_confidence(0.3, "probability") == 0.3 and probability_confidence(None, "logit") is None


def test_processed_queries_match_exact_and_near_duplicates():
    seen = ProcessedQueries(threshold=0.8)
    seen.add("Who made Atlas?", "r1.1")
    assert seen.match("who made  atlas") == "r1.1"
    assert seen.match("Who made the Atlas?") == "r1.1"  # articles drop out in normalisation
    assert seen.match("Who exactly made the Atlas book?") is None  # ROUGE-L 0.75 < 0.8
    assert ProcessedQueries(0.7).match("x") is None


def test_a_chain_that_passes_ends_after_one_round_and_is_traced_with_references():
    prediction, retriever, reader, engine = run(
        [chain(("Who made Atlas?", "Atlas was made by Kellis."), ("Where was Kellis born?", "Kellis was born in Morn."),
               final="Morn"),
         final("Atlas was made by Kellis [1], who was born in Morn [2].", "Morn")],
        {"Who made Atlas?": ("Kellis", 0.95), "Where was Kellis born?": ("Morn", 0.95)})
    assert prediction.answer == "Morn" and len(engine.requests) == 2
    assert retriever.queries == ["Who made Atlas?", "Where was Kellis born?"]
    assert prediction.trace["finished"] and stats_of(prediction.trace)["rounds"] == 1
    assert stats_of(prediction.trace)["skc"] == 2 and prediction.trace["references"] == [1, 2]
    assert prediction.citations == ["d-whomadeatlas", "d-wherewaskell"]
    assert stats_of(prediction.trace)["from_lm"] == 2


def test_verification_feedback_ends_the_round_and_the_next_branch_hangs_from_that_node():
    prediction, retriever, _, engine = run(
        [chain(("Who made Atlas?", "Atlas was made by Brann."), ("Where was Brann born?", "Brann was born in Tull.")),
         chain(("Who made Atlas?", "Atlas was made by Kellis."), ("Where was Kellis born?", "Kellis was born in Morn."),
               final="Morn"),
         final("Kellis made Atlas [1] and was born in Morn [2].", "Morn")],
        {"Who made Atlas?": ("Kellis", 0.95), "Where was Kellis born?": ("Morn", 0.9)})
    nodes = nodes_of(prediction)
    assert nodes["r1.1"]["action"] == CORRECTED and nodes["r1.2"]["action"] == NOT_REACHED
    assert "Where was Brann born?" not in retriever.queries  # the first feedback ends the round
    branch = prediction.trace["tree"]["branches"][1]
    assert branch["attached_to"] == "r1.1" and nodes["r2.1"]["parent"] == "r1.1"
    assert nodes["r2.1"]["action"] == DUPLICATE and nodes["r2.1"]["duplicate_of"] == "r1.1"
    assert retriever.queries.count("Who made Atlas?") == 1  # duplicates are not retrieved again
    assert nodes["r2.2"]["action"] == PASS and prediction.trace["path"] == ["r1.1", "r2.2"]
    assert stats_of(prediction.trace)["corrected_by_ir"] == 1 and prediction.answer == "Morn"
    feedback = engine.requests[1]
    assert "Kellis" in str(feedback.messages) and "Brann" in str(feedback.messages)  # chain + correction shown


def test_judge_keeps_an_unanswered_unsolved_node_unless_feedback_is_asked():
    kw = {"theta": 0.8, "alpha": 0.35, "answer_form": "short"}
    assert judge(True, "", "", 0.9, "doc", no_answer="go_on", **kw) == UNANSWERED
    assert judge(True, "", " . ", 0.9, "doc", no_answer="go_on", **kw) == UNANSWERED  # nothing left once normalised
    assert judge(True, "", "", 0.9, "doc", no_answer="feedback", **kw) == COMPLETED
    assert judge(True, "", "Morn", 0.1, "doc", no_answer="go_on", **kw) == COMPLETED
    # a copy of the query's own entity is no answer to "What role did Ralph Bakshi play?" (seen on dev100)
    copied = judge(True, "", "Ralph Bakshi", 0.0, "doc", no_answer="go_on", query="What role did Ralph Bakshi play?",
                   **kw)
    assert copied == UNANSWERED


def test_an_unsolved_node_the_reader_cannot_answer_lets_ir_go_on_to_the_next_node():
    question_node = ("Is Atlas older than Brann?", None)  # restates the question, then the real hops
    prediction, retriever, reader, engine = run(
        [chain(question_node, ("When was Atlas made?", None), ("When was Brann made?", None)),
         chain(("When was Atlas made?", "Atlas was made in 1901."), ("When was Brann made?", None)),
         chain(("When was Atlas made?", "Atlas was made in 1901."), ("When was Brann made?", "In 1950."), final="yes"),
         final("Atlas [1] is older than Brann [2].", "yes")],
        {"When was Atlas made?": ("1901", 0.6), "When was Brann made?": ("1950", 0.6)}, decompose_retry=False)
    nodes = nodes_of(prediction)
    assert nodes["r1.1"]["action"] == UNANSWERED and nodes["r1.2"]["action"] == COMPLETED
    assert nodes["r2.2"]["action"] == COMPLETED and prediction.trace["finished"]
    assert prediction.answer == "yes" and stats_of(prediction.trace)["unanswered_by_ir"] == 1
    assert prediction.trace["knobs"]["no_answer"] == "go_on"


def test_the_paper_completes_an_unanswered_node_and_the_same_chain_comes_back():
    replies = [chain(("Is Atlas older than Brann?", None), ("When was Atlas made?", None)) for _ in range(3)]
    prediction, retriever, _, _ = run(replies + [final("Unknown [1].", "no")], {}, no_answer="feedback", r_max=3,
                                      decompose_retry=False)
    nodes = nodes_of(prediction)
    assert [nodes[f"r{r}.1"]["action"] for r in (1, 2, 3)] == [COMPLETED] * 3
    assert "When was Atlas made?" not in retriever.queries  # the hop behind the first node is never read


def test_a_placeholder_final_answer_does_not_become_the_answer():
    prediction, _, _, _ = run(
        [chain(("Who made Atlas?", "Atlas was made by Kellis."), final="None"),
         final("Atlas was made by Kellis [1].", "Kellis")], {"Who made Atlas?": ("Kellis", 0.9)})
    assert prediction.trace["finished"] and prediction.answer == "Kellis"


def test_theta_left_unset_comes_from_the_readers_calibration_else_the_papers_value():
    class CalibratedReader(TableReader):
        calibrated_theta = 0.4

    assert SearChain(QueryRetriever(), TableReader({})).theta == 0.82
    assert SearChain(QueryRetriever(), CalibratedReader({})).theta == 0.4
    assert SearChain(QueryRetriever(), CalibratedReader({}), theta=0.9).theta == 0.9
    assert LMReader().calibrated_theta == 0.5 and LMReader(confidence="span").calibrated_theta is None
    prediction, _, _, _ = run(  # f = 0.6: corrects under the LM reader's 0.4, passes under the paper's 0.82
        [chain(("Who made Atlas?", "Atlas was made by Brann."), final="Brann"),
         chain(("Who made Atlas?", "Atlas was made by Kellis."), final="Kellis"), final("Kellis [1].", "Kellis")],
        {"Who made Atlas?": ("Kellis", 0.6)}, theta=0.4)
    assert nodes_of(prediction)["r1.1"]["action"] == CORRECTED and prediction.answer == "Kellis"


def test_a_correction_the_lm_ignored_fills_the_node_instead_of_coming_back():
    # round 2 repeats round 1's answer word for word (a changed answer is corrected again: the test above)
    prediction, retriever, _, engine = run(
        [chain(("Who made Atlas?", "Atlas was made by Brann."), ("Where was Brann born?", "Brann was born in Tull.")),
         chain(("Who made Atlas?", "Atlas was made by Brann."), ("Where was Brann born?", "Brann was born in Tull."),
               final="Tull"),
         final("Kellis [1] was born in Morn [2].", "Morn")],
        {"Who made Atlas?": ("Kellis", 0.9), "Where was Brann born?": ("", 0.1)})
    nodes = nodes_of(prediction)
    assert nodes["r1.1"]["action"] == CORRECTED and nodes["r2.1"]["action"] == FILLED
    assert nodes["r2.1"]["reader_answer"] == "Kellis" and stats_of(prediction.trace)["rounds"] == 2
    assert prediction.trace["finished"] and prediction.answer == "Morn"  # traced: IR filled a node of the last chain
    assert "Kellis" in str(engine.requests[-1].messages[-1].parts)


def test_low_confidence_disagreement_passes_and_completion_ignores_confidence():
    prediction, retriever, _, _ = run(
        [chain(("Who made Atlas?", "Atlas was made by Brann."), ("Where was Brann born?", None)),
         chain(("Who made Atlas?", "Atlas was made by Brann."), ("Where was Brann born?", "Brann was born in Tull."),
               final="Tull"),
         final("Brann [1] was born in Tull [2].", "Tull")],
        {"Who made Atlas?": ("Kellis", 0.3), "Where was Brann born?": ("Tull", 0.01)}, theta=0.5)
    nodes = nodes_of(prediction)
    assert nodes["r1.1"]["action"] == PASS  # f = 0.3 <= theta: the LM's answer stands
    assert nodes["r1.2"]["action"] == COMPLETED  # f = 0.01, completed anyway
    assert prediction.trace["tree"]["branches"][1]["attached_to"] == "r1.2"
    assert stats_of(prediction.trace)["completed_by_ir"] == 1 and prediction.answer == "Tull"


def test_r_max_bounds_the_rounds():
    replies = [chain((f"Unknown thing {i}?", None)) for i in range(3)] + [final("It is unknown [1].", "unknown")]
    prediction, _, _, engine = run(replies, {f"Unknown thing {i}?": ("x", 0.1) for i in range(3)}, r_max=3)
    assert stats_of(prediction.trace)["rounds"] == 3 and not prediction.trace["finished"]
    assert len(engine.requests) == 4  # 3 chains + the final content


def test_without_ir_no_retrieval_and_the_chain_answers():
    engine = use_script([chain(("Who made Atlas?", "Atlas was made by Brann."), final="Tull")])
    retriever, reader = QueryRetriever(), TableReader({})
    prediction = SearChain(retriever, reader, use_ir=False)(question="Q?")
    assert retriever.queries == [] and reader.read_queries == [] and len(engine.requests) == 1
    assert prediction.answer == "Tull" and prediction.trace["variant"] == "without IR"


def test_without_verification_a_confident_disagreement_passes():
    prediction, _, _, engine = run(
        [chain(("Who made Atlas?", "Atlas was made by Brann."), final="Brann"), final("Brann [1].", "Brann")],
        {"Who made Atlas?": ("Kellis", 0.99)}, verify=False)
    assert nodes_of(prediction)["r1.1"]["action"] == PASS and len(engine.requests) == 2


def test_without_completion_unsolved_nodes_get_no_feedback():
    prediction, _, _, engine = run(
        [chain(("Who made Atlas?", None), final=""), final("Unknown [1].", "unknown")],
        {"Who made Atlas?": ("Kellis", 0.99)}, complete=False)
    assert nodes_of(prediction)["r1.1"]["action"] == UNSOLVED_KEPT and stats_of(prediction.trace)["rounds"] == 1


def test_marker_format_is_read_when_the_typed_parse_fails():
    text = "[Query 1]: Who made Atlas?\n[Answer 1]: Kellis made it.\n[Unsolved Query 2]: Where was Kellis born?"
    prediction, _, _, _ = run([{"chain": text, "final_answer": ""}, chain(("Who made Atlas?", "Kellis made it."),
                              ("Where was Kellis born?", "In Morn."), final="Morn"), final("Morn [2].", "Morn")],
                              {"Who made Atlas?": ("Kellis", 0.9), "Where was Kellis born?": ("Morn", 0.9)})
    assert [b["parse"] for b in prediction.trace["tree"]["branches"]] == ["fallback", "typed"]
    assert stats_of(prediction.trace)["fallback_parses"] == 1 and prediction.answer == "Morn"


def test_an_unreadable_chain_is_counted_and_asked_again():
    prediction, _, _, _ = run([{"chain": "I am not sure.", "final_answer": ""},
                               chain(("Who made Atlas?", "Kellis made it."), final="Kellis"),
                               final("Kellis [1].", "Kellis")],
                              {"Who made Atlas?": ("Kellis", 0.9)})
    assert stats_of(prediction.trace)["unreadable_chains"] == 1 and prediction.answer == "Kellis"


def test_parse_chain_text_round_trips_the_marker_format():
    nodes, answer = parse_chain_text("[Query 1]: A?\n[Answer 1]: B.\n[Unsolved Query 2]: C?\n[Final Answer]: D")
    assert [(n.query, n.answer, n.unsolved) for n in nodes] == [("A?", "B.", False), ("C?", None, True)]
    assert answer == "D" and parse_chain_text(render_chain(nodes, answer)) == (nodes, answer)


def test_registry_builds_the_variants_and_validates_knobs():
    reader, retriever = TableReader({}), QueryRetriever()
    assert build_program("searchain-noverify", retriever, reader).verify is False
    assert build_program("searchain-nocomplete", retriever, reader).complete is False
    assert build_program("searchain-noir").use_ir is False
    with pytest.raises(Exception, match="theta"):
        build_program("searchain", retriever, reader, theta=1.5)


def test_a_chain_cut_off_by_a_runaway_answer_keeps_its_queries_as_unsolved():
    nodes, _ = parse_chain_text('[[ ## chain ## ]]\n[{"query": "Who made X?", "answer": "X was made by H. H. H. H. H')
    assert [(n.query, n.unsolved) for n in nodes] == [("Who made X?", True)]


def test_the_rendered_trace_shows_the_tree_the_path_and_the_sources():
    from hopkit.evaluation.harness import trace_stats
    from hopkit.programs.searchain.rendering import render_trace

    prediction, _, _, _ = run(
        [chain(("Who made Atlas?", "Atlas was made by Brann."), ("Where was Brann born?", "In Tull.")),
         chain(("Who made Atlas?", "Atlas was made by Kellis."), ("Where was Kellis born?", "In Morn."), final="Morn"),
         final("Kellis made Atlas [1] and was born in Morn [2].", "Morn")],
        {"Who made Atlas?": ("Kellis", 0.95), "Where was Kellis born?": ("Morn", 0.9)})
    text = render_trace(prediction.trace)
    lines = text.splitlines()
    corrected = next(line for line in lines if "r1.1" in line and "CORRECTED" in line)
    hung = next(line for line in lines if line.lstrip().startswith("- r2.1"))
    assert len(hung) - len(hung.lstrip()) > len(corrected) - len(corrected.lstrip())  # branch drawn under r1.1
    assert "[1] Who made Atlas? -> Kellis" in text and "1 corrected by IR" in text and "SKC 2" in text
    stats = trace_stats([{"trace": prediction.trace}, {"trace": {}}])
    assert stats["rounds"] == 1.0 and stats["corrected_by_ir"] == 0.5


def test_the_final_answer_follows_the_last_chain_when_tracing_disagrees():
    prediction, _, _, engine = run(
        [chain(("Who made Atlas?", "Atlas was made by Kellis."), ("Where was Kellis born?", "Kellis was born in Morn."),
               final="Morn"),
         final("Kellis [1] was born in Tull [2].", "Tull")],
        {"Who made Atlas?": ("Kellis", 0.95), "Where was Kellis born?": ("Morn", 0.95)})
    assert prediction.answer == "Morn" and prediction.trace["answer_source"] == "chain"
    assert prediction.trace["final_content"] == "Kellis [1] was born in Tull [2]."


def test_a_sentence_answer_is_cut_to_the_phrase_it_states_and_never_rewritten():
    replies = [chain(("How many members has Lawson?", "Lawson has four members."),
                     final="Lawson has more members than Club."),
               final("Lawson has four [1].", "Lawson")]
    prediction, _, _, engine = run(replies + [{"answer": "Lawson"}], {"How many members has Lawson?": ("four", 0.9)})
    assert prediction.answer == "Lawson" and prediction.trace["short_form"]["before"].startswith("Lawson has")
    assert stats_of(prediction.trace)["short_form_calls"] == 1
    prediction, _, _, _ = run(replies + [{"answer": "Ambrose"}], {"How many members has Lawson?": ("four", 0.9)})
    assert prediction.answer == "Lawson has more members than Club."  # not in the sentence: the sentence stands
    assert prediction.trace["short_form"]["rejected"] == "Ambrose"


def test_short_answers_and_yes_no_questions_make_no_short_form_call():
    prediction, _, _, engine = run(
        [chain(("Who made Atlas?", "Atlas was made by Kellis."), final="Kellis"), final("Kellis [1].", "Kellis")],
        {"Who made Atlas?": ("Kellis", 0.9)})
    assert prediction.trace["short_form"] is None and len(engine.requests) == 2
    program = SearChain(QueryRetriever(), TableReader({}), answer_form="long")
    assert program.answer_steps.short_form is None  # long-form answers are sentences by design


def test_the_paper_tracing_over_r_stays_a_knob():
    prediction, _, _, _ = run(
        [chain(("Who made Atlas?", "Atlas was made by Kellis."), final="Kellis"), final("Kellis [1].", "Brann")],
        {"Who made Atlas?": ("Kellis", 0.95)}, answer_from="path")
    assert prediction.answer == "Brann" and prediction.trace["answer_source"] == "traced"


def test_nodes_of_a_replanned_round_never_reach_the_answer():
    # round 1 guesses a star (the reader found nothing, so it passes), then IR corrects the director;
    # round 2 plans another way to the answer and never uses the star
    prediction, _, _, engine = run(
        [chain(("Who starred in Atlas?", "Tom Hanks starred in Atlas."), ("Who directed Atlas?", "Brann directed it.")),
         chain(("Who directed Atlas?", "Kellis directed Atlas."),
               ("Where was Kellis born?", "Kellis was born in Morn.")),
         final("Kellis [1] was born in Morn [2].", "Morn")],
        {"Who starred in Atlas?": ("", 0.0), "Who directed Atlas?": ("Kellis", 0.95),
         "Where was Kellis born?": ("Morn", 0.9)})
    traced = str(engine.requests[-1].messages[-1].parts)
    assert "Tom Hanks" not in traced and "Kellis" in traced and "Morn" in traced
    assert prediction.answer == "Morn"
    assert "d-whostarredi" not in prediction.citations  # the star's document supports nothing in the answer
    assert prediction.trace["path"][0] == "r1.1"  # R still records every node IR processed


def test_a_corrected_answer_is_put_into_the_last_chain_when_rounds_run_out():
    prediction, _, _, engine = run(
        [chain(("Who made Atlas?", "Atlas was made by Brann."), final="Brann"),
         final("Atlas was made by Kellis [1].", "Kellis")],
        {"Who made Atlas?": ("Kellis", 0.95)}, r_max=1)
    assert "Who made Atlas? -> Kellis" in str(engine.requests[-1].messages[-1].parts)
    assert prediction.answer == "Kellis" and prediction.trace["answer_source"] == "traced"


def test_a_repeat_with_a_conflicting_answer_is_judged_again_and_a_skip_knob_restores_the_paper():
    replies = [chain(("Who made Atlas?", "Atlas was made by Brann.")),
               chain(("Who made Atlas?", "Atlas was made by Tull."), ("Where was Tull born?", "Tull was born in Ost."),
                     final="Ost"),
               chain(("Who made Atlas?", "Atlas was made by Kellis."), final="Kellis"),
               final("Kellis [1].", "Kellis")]
    table = {"Who made Atlas?": ("Kellis", 0.95), "Where was Tull born?": ("Ost", 0.9)}
    prediction, retriever, _, _ = run(replies, table)
    nodes = nodes_of(prediction)
    assert nodes["r2.1"]["rejudged"] and nodes["r2.1"]["action"] == CORRECTED  # "Tull" conflicts with "Kellis"
    assert retriever.queries.count("Who made Atlas?") == 1  # judged on the recorded reading, not read again
    assert nodes["r3.1"]["action"] == DUPLICATE and prediction.answer == "Kellis"
    assert stats_of(prediction.trace)["rejudged"] == 1
    prediction, _, _, _ = run(replies[:2] + [final("Tull [1] was born in Ost [2].", "Ost")], table, duplicates="skip")
    assert nodes_of(prediction)["r2.1"]["action"] == DUPLICATE and prediction.answer == "Ost"


def test_an_unsolved_repeat_is_never_skipped():
    # round 2 keeps the completed query unsolved and puts the fact in its final answer instead (seen with
    # the 1.5B planner): IR's recorded answer fills the node, no second feedback, and tracing answers
    prediction, retriever, _, engine = run(
        [chain(("Who made Atlas?", None), ("Where was the maker of Atlas born?", None)),
         chain(("Who made Atlas?", None), ("Where was Kellis born?", "Kellis was born in Morn."), final="Kellis"),
         final("Kellis [1] was born in Morn [2].", "Morn")],
        {"Who made Atlas?": ("Kellis", 0.4), "Where was Kellis born?": ("Morn", 0.9)})
    nodes = nodes_of(prediction)
    assert nodes["r1.1"]["action"] == COMPLETED and nodes["r2.1"]["action"] == FILLED
    assert retriever.queries.count("Who made Atlas?") == 1 and nodes["r2.1"]["reader_answer"] == "Kellis"
    assert prediction.trace["finished"] and stats_of(prediction.trace)["filled_from_record"] == 1
    assert prediction.answer == "Morn" and prediction.trace["answer_source"] == "traced"
    assert "Kellis" in str(engine.requests[-1].messages[-1].parts)


def test_an_unsolved_repeat_ir_could_not_answer_keeps_its_recorded_reading():
    # the same query reads the same documents the same way: a second reading would cost a call for nothing
    prediction, retriever, _, _ = run(
        [chain(("Where was Kellis born?", None), ("Who made Atlas?", None)),
         chain(("Where was Kellis born?", None), ("Who made Atlas?", "Kellis made it."), final="Kellis"),
         final("Kellis [1].", "Kellis")],
        {"Who made Atlas?": ("Kellis", 0.9)})
    nodes = nodes_of(prediction)
    assert nodes["r1.1"]["action"] == UNANSWERED and nodes["r2.1"]["action"] == UNANSWERED
    assert retriever.queries.count("Where was Kellis born?") == 1 and prediction.answer == "Kellis"
    assert nodes["r2.1"]["duplicate_of"] == "r1.1" and "r2.1" not in prediction.trace["path"]


def test_a_first_chain_that_restates_the_question_is_asked_once_to_decompose():
    question_node = ("Where was the maker of Atlas born?", "Morn")
    replies = [chain(question_node, final="Morn"),
               chain(("Who made Atlas?", "Atlas was made by Kellis."),
                     ("Where was Kellis born?", "Kellis was born in Morn."), final="Morn"),
               final("Kellis [1], Morn [2].", "Morn")]
    table = {"Who made Atlas?": ("Kellis", 0.95), "Where was Kellis born?": ("Morn", 0.9)}
    prediction, retriever, _, engine = run(replies, table)
    assert "Break the question into simple queries" in str(engine.requests[1].messages)
    assert retriever.queries == ["Who made Atlas?", "Where was Kellis born?"]
    assert stats_of(prediction.trace)["decompose_retries"] == 1 and prediction.trace["restated_chain"]
    prediction, retriever, _, engine = run([replies[0], final("Morn [1].", "Morn")],
                                           {"Where was the maker of Atlas born?": ("Morn", 0.9)},
                                           decompose_retry=False)
    assert retriever.queries == ["Where was the maker of Atlas born?"] and len(engine.requests) == 2


def test_feedback_says_the_answer_may_change_in_the_papers_sense():
    from hopkit.programs.searchain import feedback

    message = feedback.correction("Q?", "Who made Atlas?", "Kellis", Passage("d", "Atlas", "Atlas is by Kellis."), 50)
    assert "should be \"Kellis\"" in message and "You may change your answer" in message
    assert "trust" not in message.lower()


def _chain_only_examples():
    from hopkit.data.corpus import Corpus
    from hopkit.data.examples import make_example

    corpus = Corpus([Passage("x", "Atlas (novel)", "Atlas is a novel written by Kellis in 1901."),
                     Passage("k", "Kellis", "Kellis was a writer born in Morn."),
                     Passage("a", "Ada Pell", "Ada Pell was born in 1900."),
                     Passage("b", "Bo Tull", "Bo Tull was born in 1910.")])
    train = [make_example("c1", "Who is older, Ada Pell or Bo Tull?", ["Ada Pell"], ["a", "b"],
                          chain=["Ada Pell was born in 1900.", "Bo Tull was born in 1910.",
                                 "So the answer is: Ada Pell."]),
             make_example("b1", "Where was the author of Atlas born?", ["Morn"], ["x", "k"],
                          chain=["Atlas was written by Kellis.", "Kellis was born in Morn.",
                                 "So the answer is: Morn."])]
    return train, corpus


def test_demonstrations_from_chains_of_thought_get_lm_written_queries_and_a_completed_round():
    from hopkit.programs.searchain.demonstrations import build_chain_demos

    train, corpus = _chain_only_examples()
    use_script([{"query": "When was Ada Pell born?"}, {"query": "When was Bo Tull born?"},
                {"query": "Who wrote Atlas?"}, {"query": "Where was Kellis born"}])
    demos = build_chain_demos(train, corpus)
    assert [d.question for d in demos] == [train[0].question, train[1].question, train[1].question]
    first = demos[0].chain
    assert first[0].query == "When was Ada Pell born?" and first[0].answer == "Ada Pell was born in 1900."
    assert first[1].unsolved and first[1].answer is None
    later = demos[2]
    assert later.chain[0].query == "Where was Kellis born?" and later.final_answer == "Morn"
    assert "Morn" in later.feedback[1] and "Kellis was a writer born in Morn." in later.feedback[1]
    assert not any("Broudrorn" in str(d) for d in demos)


def test_a_question_is_never_shown_its_own_chain_demonstration():
    from hopkit.programs.searchain.demonstrations import build_chain_demos

    train, corpus = _chain_only_examples()
    use_script([{"query": "When was Ada Pell born?"}, {"query": "When was Bo Tull born?"},
                {"query": "Who wrote Atlas?"}, {"query": "Where was Kellis born?"}])
    demos = build_chain_demos(train, corpus)
    engine = use_script([chain(("Where was Kellis born?", "Kellis was born in Morn."), final="Morn"),
                         final("Morn [1].", "Morn")])
    SearChain(QueryRetriever(), TableReader({}), demos=demos)(question="Where was the author of Atlas born?")
    planned = str(engine.requests[0].messages)
    assert "Ada Pell" in planned and "Atlas was written by Kellis" not in planned


def test_a_value_answer_to_a_yes_no_question_is_checked_once():
    engine = use_script([chain(("When was Atlas made?", "Atlas was made in 1901."),
                               ("When was Tull made?", "Tull was made in 1901."), final="1901"),
                         final("Atlas [1] and Tull [2] were both made in 1901.", "1901"),
                         {"reasoning": "Both in 1901.", "answer": "yes"}])
    prediction = SearChain(QueryRetriever(), TableReader({"When was Atlas made?": ("1901", 0.95),
                                                         "When was Tull made?": ("1901", 0.95)}))(
        question="Were Atlas and Tull made in the same year?")
    assert prediction.answer == "yes" and prediction.trace["yes_no_check"]["before"] == "1901"
    assert stats_of(prediction.trace)["yes_no_checks"] == 1 and not engine.replies


def test_an_answer_naming_neither_option_of_an_either_or_question_is_checked_once():
    engine = use_script([chain(("When was Atlas made?", "Atlas was made in 1901."),
                               ("When was Tull made?", "Tull was made in 1887."), final="1887"),
                         final("Atlas [1] was made in 1901 and Tull [2] in 1887.", "1887"), {"answer": "Tull"}])
    prediction = SearChain(QueryRetriever(), TableReader({"When was Atlas made?": ("1901", 0.95),
                                                         "When was Tull made?": ("1887", 0.95)}))(
        question="Which was made first, Atlas or Tull?")
    assert prediction.answer == "Tull" and prediction.trace["option_check"]["before"] == "1887"
    assert stats_of(prediction.trace)["option_checks"] == 1 and not engine.replies


def test_chain_of_thought_demonstrations_need_no_comparison_question():
    from hopkit.data.corpus import Corpus
    from hopkit.data.examples import make_example
    from hopkit.programs.searchain.demonstrations import build_chain_demos

    class Writer:  # stands in for the LM that writes a query per fact
        def __call__(self, question, fact):
            return type("Out", (), {"query": f"query for: {fact}"})()

    corpus = Corpus([Passage("a", "Atlas", "Atlas was made by Kellis."),
                     Passage("k", "Kellis", "Kellis was born in Morn."),
                     Passage("b", "Brand", "Brand was written by Ibsen."),
                     Passage("i", "Ibsen", "Ibsen was born in Skien.")])
    train = [make_example("1", "Where was the maker of Atlas born?", ["Morn"], ["a", "k"],
                          chain=["Atlas was made by Kellis.", "Kellis was born in Morn.", "So the answer is: Morn."]),
             make_example("2", "Where was the writer of Brand born?", ["Skien"], ["b", "i"],
                          chain=["Brand was written by Ibsen.", "Ibsen was born in Skien.",
                                 "So the answer is: Skien."])]
    demos = build_chain_demos(train, corpus, write_query=Writer())
    assert {d.question for d in demos} == {train[0].question, train[1].question} and len(demos) == 3
