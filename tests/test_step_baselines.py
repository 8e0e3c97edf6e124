"""Self-Ask, ReAct and ITER-RETGEN, the step-by-step baselines of ToR's and SearChain's tables: their control flow on
a scripted LM (what each retrieves with, when it stops, what it answers) and their worked examples."""

import dspy
import pytest
from scripted_engine import ScriptedEngine
from test_ircot import TableRetriever

from hopkit.data.registry import load_dataset_spec
from hopkit.evaluation.trace_stats import stats_of
from hopkit.knobs import profile_values
from hopkit.lm.accounted import AccountedLM
from hopkit.programs.iter_retgen import IterRetGen
from hopkit.programs.react import ReAct
from hopkit.programs.react.program import read_action
from hopkit.programs.registry import ablations, build_program, views_of
from hopkit.programs.self_ask import SelfAsk
from hopkit.programs.self_ask.program import read_line
from hopkit.programs.worked_examples import worked_examples

PAPER = ("k", "max_turns", "shots")


def use_script(replies):
    engine = ScriptedEngine(replies)
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))
    return engine


@pytest.mark.parametrize("group", ["self-ask", "react", "iter-retgen"])
def test_the_paper_profile_runs_them_as_tor_ran_them(group):
    paper = profile_values(group, "paper")
    assert {name: paper[name] for name in PAPER} == {"k": 5, "max_turns": 3, "shots": 3}  # ToR section 4.3
    assert not any(paper[name] for name in ("yes_no_check", "option_check", "date_comparison"))


def test_self_ask_retrieves_for_each_follow_up_and_stops_at_the_final_answer():
    retriever = TableRetriever({"Who made Atlas?": ["a", "b"], "Where was Kellis born?": ["c"]})
    engine = use_script([{"next_line": "Follow up: Who made Atlas?"}, {"answer": "Atlas was made by Kellis."},
                         {"next_line": "Follow up: Where was Kellis born?"}, {"answer": "Kellis was born in Velmar."},
                         {"next_line": "So the final answer is: Velmar"}])
    prediction = SelfAsk(retriever, profile="paper")(question="Where was the maker of Atlas born?")
    assert retriever.queries == ["Who made Atlas?", "Where was Kellis born?"]
    assert prediction.answer == "Velmar" and prediction.retrieved == ["a", "b", "c"] and len(engine.requests) == 5
    assert prediction.trace["finished_by"] == "model" and [s["answer"] for s in prediction.trace["steps"]] == [
        "Atlas was made by Kellis.", "Kellis was born in Velmar."]
    last = engine.requests[4].messages[-1].parts[0].text  # the paragraphs stand before the question
    assert last.index("text of a") < last.index("Where was the maker of Atlas born?") < last.index("Follow up: Who")
    assert stats_of(prediction.trace)["follow_ups"] == 2


def test_self_ask_asks_for_the_answer_when_its_turns_run_out_and_reads_a_loose_line():
    retriever = TableRetriever({}, default=["a"])
    use_script([{"next_line": "Who made Atlas?"}, {"answer": "Kellis made it."},
                {"next_line": "Follow up: Where was Kellis born?"}, {"answer": "In Velmar."},
                {"next_line": "Follow up: And then?"}, {"answer": "Velmar"}])
    prediction = SelfAsk(retriever, profile="paper", max_turns=2)(question="Where was the maker of Atlas born?")
    assert prediction.answer == "Velmar" and prediction.trace["finished_by"] == "turns"
    assert [s["parse"] for s in prediction.trace["steps"]] == ["loose", "typed"]
    assert stats_of(prediction.trace)["loose_lines"] == 1 and stats_of(prediction.trace)["answer_asked_for"] == 1


def test_self_ask_without_ir_retrieves_nothing():
    use_script([{"next_line": "Follow up: Who made Atlas?"}, {"answer": "Kellis."},
                {"next_line": "So the final answer is: Velmar"}])
    program = build_program("self-ask-noir", profile="paper")
    prediction = program(question="Where was the maker of Atlas born?")
    assert prediction.answer == "Velmar" and prediction.retrieved == [] and prediction.trace["use_ir"] is False


def test_react_observes_each_search_in_its_trajectory_and_finishes():
    retriever = TableRetriever({"maker of Atlas": ["a"], "Kellis birthplace": ["b", "c"]})
    engine = use_script([{"thought": "I need the maker.", "action": "Search[maker of Atlas]"},
                         {"thought": "Kellis made it.", "action": "Search[Kellis birthplace]"},
                         {"thought": "Born in Velmar.", "action": "Finish[Velmar]"}])
    prediction = ReAct(retriever, profile="paper")(question="Where was the maker of Atlas born?")
    assert retriever.queries == ["maker of Atlas", "Kellis birthplace"] and prediction.answer == "Velmar"
    last = engine.requests[2].messages[-1].parts[0].text
    assert "Observation 1: Wikipedia Title: A" in last and "Action 2: Search[Kellis birthplace]" in last
    assert prediction.retrieved == ["a", "b", "c"] and stats_of(prediction.trace)["searches"] == 2


def test_react_asks_for_the_answer_after_its_last_search():
    retriever = TableRetriever({}, default=["a"])
    use_script([{"thought": "t", "action": "Search[x]"}, {"thought": "t", "action": "search[y]"},
                {"answer": "Velmar"}])
    prediction = ReAct(retriever, profile="paper", max_turns=1)(question="Q?")
    assert retriever.queries == ["x"] and prediction.answer == "Velmar" and prediction.trace["finished_by"] == "turns"
    assert read_action("Finish[ Velmar ]") == ("finish", "Velmar", "typed")
    assert read_action("Who made Atlas?") == ("search", "Who made Atlas?", "loose")
    assert read_line("so the final answer is: no") == ("final", "no", "typed")


def test_iter_retgen_retrieves_with_the_question_and_the_last_response_for_t_turns():
    retriever = TableRetriever({}, default=["a", "b"])
    use_script([{"reasoning": "Atlas was made by Kellis.", "answer": "Kellis"},
                {"reasoning": "Kellis was born in Velmar.", "answer": "Velmar"},
                {"reasoning": "Kellis was born in Velmar.", "answer": "Velmar"}])
    prediction = IterRetGen(retriever, profile="paper", k=2)(question="Where was the maker of Atlas born?")
    assert retriever.queries == ["Where was the maker of Atlas born?",
                                 "Where was the maker of Atlas born? Atlas was made by Kellis. Kellis",
                                 "Where was the maker of Atlas born? Kellis was born in Velmar. Velmar"]
    assert prediction.answer == "Velmar" and [t["turn"] for t in prediction.trace["turns"]] == [1, 2, 3]
    assert stats_of(prediction.trace) == {"turns": 3, "generation_parse_failures": 0}


def test_a_malformed_generation_is_counted_and_the_turns_go_on():
    retriever = TableRetriever({}, default=["a"])
    # the ChatAdapter's tries, then JSON's
    engine = ScriptedEngine([{"answer": "only"}] * 4 + [{"reasoning": "r", "answer": "Velmar"}])
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))
    prediction = IterRetGen(retriever, profile="paper", max_turns=3)(question="Q?")
    assert prediction.answer == "Velmar" and stats_of(prediction.trace)["generation_parse_failures"] == 2


def test_worked_examples_come_from_the_train_split_varied_and_complete():
    train = load_dataset_spec("bundled:train")
    shown = worked_examples(train, 3)
    assert len(shown) == 3 and len({example.question for example in shown}) == 3
    assert all(hop.paragraph.pid in train.corpus and hop.fact for example in shown for hop in example.hops)
    program = build_program("self-ask", retriever=TableRetriever({}), train=train, profile="paper")
    lines = [demo.next_line for demo in program.next_line.demos]
    assert all(line.split(":")[0] in ("Follow up", "So the final answer is") for line in lines)
    assert [demo.so_far.count("Follow up: ") for demo in program.next_line.demos] == [0, 1, 2]  # one point each
    assert build_program("react", retriever=TableRetriever({}), profile="paper").step.demos == []  # no train: none


@pytest.mark.parametrize("method", ["self-ask", "react", "iter-retgen"])
def test_each_has_its_views_and_its_ablations(method):
    variants = ablations(method)
    assert variants[0].method == method and any(v.profile == "paper" for v in variants)
    assert views_of({"method": method}) is not views_of({"method": "unknown"})


def test_each_trace_is_typed_and_reads_back_from_its_logged_json():
    import json

    from hopkit.programs.iter_retgen.trace import IterRetGenTrace
    from hopkit.programs.react.trace import ReActTrace
    from hopkit.programs.self_ask.trace import SelfAskTrace

    retriever = TableRetriever({}, default=["a"])
    use_script([{"reasoning": "r", "answer": "Velmar"}] * 3)
    runs = {IterRetGenTrace: IterRetGen(retriever, profile="paper")(question="Q?")}
    use_script([{"next_line": "Follow up: who?"}, {"answer": "Kellis."}, {"next_line": "So the final answer is: X"}])
    runs[SelfAskTrace] = SelfAsk(retriever, profile="paper")(question="Q?")
    use_script([{"thought": "t", "action": "Search[x]"}, {"thought": "u", "action": "Finish[X]"}])
    runs[ReActTrace] = ReAct(retriever, profile="paper")(question="Q?")
    for kind, prediction in runs.items():
        logged = json.loads(json.dumps(prediction.trace))  # as the run log keeps it
        assert kind.from_dict(logged).to_dict() == logged, kind


@pytest.mark.parametrize("method", ["self-ask", "react", "iter-retgen"])
def test_each_runs_through_optimize_and_ablate_by_name(method, tmp_path, hopkit_home):
    from lm_servers import scripted_lm_server

    from hopkit.cli.main import main

    server = scripted_lm_server()
    lm = ["--lm", "openai/scripted", "--api-base", f"http://127.0.0.1:{server.server_address[1]}/v1", "--no-cache"]
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    study = tmp_path / "study.toml"
    study.write_text('n_dev = 2\nretriever = "bm25"\nquiet = true\n')
    assert main(["optimize", "--method", method, "--dataset", "bundled", "--demos", "none", "--trials", "1",
                 "--params", "k", "--config", str(study), "--out", str(tmp_path / "study"), *lm]) == 0
    assert main(["ablate", "--method", method, "--only", "paper profile", "--dataset", "bundled:dev", "--n", "2",
                 "--retriever", "bm25", "--quiet", "--out", str(tmp_path / "ablate"), *lm]) == 0
    assert len(list((tmp_path / "ablate").glob("*.jsonl"))) == 2
    server.shutdown()
