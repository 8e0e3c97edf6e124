"""``hopkit reproduce``: the paper's grid tuned on a tune split, the chosen setting scored once on test, the table
beside the papers' numbers; overlapping splits and grid values outside a knob's range refused."""

import json
import re
import sys
from pathlib import Path

import dspy
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from optimize_worker import TableRetriever, tiny_dataset  # noqa: E402
from scripted_engine import FieldEchoEngine  # noqa: E402

from hopkit.errors import InputError  # noqa: E402
from hopkit.lm.accounted import AccountedLM  # noqa: E402
from hopkit.reproduce import ReproduceRequest, paper_grid, reproduce  # noqa: E402
from hopkit.reproduce.grids import check_grid  # noqa: E402
from hopkit.reproduce.paper_numbers import dataset_key, paper_number  # noqa: E402
from hopkit.reproduce.protocol import demonstration_sample  # noqa: E402
from hopkit.reproduce.table import read_studies, reproduce_table  # noqa: E402


class DeepReadingEngine(FieldEchoEngine):
    """Answers right (Morn) only when the prompt shows paragraph T10, i.e. OneR retrieved 11 or more."""

    def complete(self, request):
        text = "\n".join(getattr(part, "text", "") for message in request.messages for part in message.parts)
        self.answer = "Morn" if "T10" in text.split("[[ ## question ## ]]")[0] else "Tull"
        return super().complete(request)


def _load(spec):
    examples = tiny_dataset("q", 10)
    for example in examples.examples:
        example["answers"] = ["Morn"]
    return examples


def _run(tmp_path, method, tune="tiny[1-4]", test="tiny[5-10]", reader=None):
    dspy.configure(lm=AccountedLM("local/deep", engine=DeepReadingEngine(), cache=False))
    request = ReproduceRequest(method=method, tune=tune, test=test, folder=tmp_path / method, progress=False)
    return reproduce(request, _load, lambda dataset: TableRetriever(), reader, None, say=lambda text: None)


def test_the_grid_is_chosen_on_the_tune_split_and_scored_once_on_test(tmp_path):
    [result] = _run(tmp_path, "oner")
    assert result.chosen["k"] >= 11  # the only settings that read T10
    assert len(result.tune_settings) == 6 and set(result.tune_settings.values()) == {0.0, 1.0}
    assert result.test_metrics["f1"] == 1.0
    record = json.loads((tmp_path / "oner" / "reproduce.json").read_text())
    assert record["grid"] == {"k": [5, 7, 9, 11, 13, 15]} and (record["tune_n"], record["test_n"]) == (4, 6)
    rows = (tmp_path / "oner" / record["prompt_sets"][0]["test_log"]).read_text().splitlines()
    assert sorted(json.loads(row)["qid"] for row in rows) == [f"q{i}" for i in range(4, 10)]


def test_a_resumed_study_keeps_its_first_start_and_records_the_resume(tmp_path, monkeypatch):
    from types import SimpleNamespace

    import hopkit.reproduce.protocol as protocol

    clock = {"now": "2026-12-07 07:59"}
    monkeypatch.setattr(protocol, "time", SimpleNamespace(strftime=lambda fmt: clock["now"]))
    monkeypatch.setattr(protocol, "_commit", lambda: "f2a75bc")
    _run(tmp_path, "oner")
    first = json.loads((tmp_path / "oner" / "started.json").read_text())
    clock["now"] = "2026-12-07 12:22"
    _run(tmp_path, "oner")  # the queue starting the same study again after a stop
    again = json.loads((tmp_path / "oner" / "started.json").read_text())
    assert first["started"] == again["started"] == "2026-12-07 07:59" and "resumed" not in first
    assert again["commit"] == "f2a75bc" and again["resumed"] == ["2026-12-07 12:22 at f2a75bc"]


def test_the_table_pairs_each_method_with_oner_and_shows_the_papers_number(tmp_path):
    _run(tmp_path, "oner")
    _run(tmp_path, "oner-cot")
    table = reproduce_table(read_studies([tmp_path]), samples=200)
    oner_cot = next(line for line in table.splitlines() if line.startswith("| oner-cot |"))
    assert "100.0 / 100.0 (n=6)" in oner_cot and "ΔF1 +0.0 [+0.0, +0.0] (n=6)" in oner_cot
    assert table.splitlines()[2].startswith("| oner |")  # the baseline first
    assert " a question<br>" in oner_cot and "code " in oner_cot  # seconds a question, and the commit it ran at
    assert "<br>lost: none<br>" in oner_cot  # every answer right, so none lost at any step
    # the retrieval figure: recall at the paragraphs read against one retrieval at the same count, paired
    assert "vs one retrieval 100.0 at" in oner_cot and "+0.0 [+0.0, +0.0] (n=6)" in oner_cot
    number = paper_number("ircot", "musique")
    assert (number.source, number.model, number.values["musique"]) == ("IRCoT Table 3", "GPT3", 35.5)
    assert dataset_key("qa:/data/2wiki/hipporag/questions500.jsonl") == "2wiki"


def test_a_cells_seconds_count_a_cached_answer_at_what_it_cost_when_computed(tmp_path):
    """As its tokens do: a test question answered from the LM cache (a rerun, a smoke run before the queue) would
    otherwise count 0 s and make the method look cheaper than it is."""
    _run(tmp_path, "oner")
    log = tmp_path / "oner" / json.loads((tmp_path / "oner" / "reproduce.json").read_text())["prompt_sets"][0][
        "test_log"]
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    for row in rows:
        row["cost"].update(seconds=0.01, cache_hits=1, computed={"prompt_tokens": 900, "completion_tokens": 10,
                                                                 "seconds": 40.0, "uncosted_hits": 0})
    log.write_text("".join(json.dumps(row) + "\n" for row in rows))
    cell = next(line for line in reproduce_table(read_studies([tmp_path]), samples=200).splitlines()
                if line.startswith("| oner |"))
    assert "40 s (median 40) a question" in cell


def test_overlapping_tune_and_test_splits_are_refused(tmp_path):
    with pytest.raises(InputError, match="the dev and test splits share 2 questions"):
        _run(tmp_path, "oner", tune="tiny[1-6]", test="tiny[5-10]")
    with pytest.raises(InputError, match="give a tune split"):
        _run(tmp_path, "oner", tune=None)


@pytest.mark.parametrize("method", ["tor", "searchain", "nor", "self-ask", "react", "iter-retgen"])
def test_a_method_without_a_grid_is_scored_at_its_paper_setting_with_no_tune_split(tmp_path, method):
    from hopkit.reader.lm_reader import LMReader

    [result] = _run(tmp_path, method, tune=None, reader=LMReader())  # the test split alone: nothing to overlap
    assert result.chosen == {} and result.tune_score is None
    record = json.loads((tmp_path / method / "reproduce.json").read_text())
    assert (record["grid"], record["tune"], record["tune_n"], record["test_n"]) == ({}, None, 0, 6)
    rows = (tmp_path / method / record["prompt_sets"][0]["test_log"]).read_text().splitlines()
    assert sorted(json.loads(row)["qid"] for row in rows) == [f"q{i}" for i in range(4, 10)]


def test_a_grid_value_outside_a_knobs_range_is_refused():
    assert paper_grid("ircot") == {"k": [2, 4, 6, 8], "answer_reader": ["direct", "cot"]}
    assert paper_grid("ircot", wide=True)["m_distractors"] == [1, 2, 3]
    assert paper_grid("ircot-direct") == {"k": [2, 4, 6, 8]} and paper_grid("tor") == {}
    with pytest.raises(InputError, match=re.escape("k=12 is outside its range 1..10")):
        check_grid("ircot", {"k": [2, 12]})
    with pytest.raises(InputError, match="not one of its knobs"):
        check_grid("oner", {"theta": [0.5]})


def test_each_prompt_set_samples_the_demonstrations_in_another_order():
    train = tiny_dataset("t", 8)
    assert demonstration_sample(train, 0) is train
    other = demonstration_sample(train, 1)
    assert sorted(e.qid for e in other.examples) == sorted(e.qid for e in train.examples)
    assert [e.qid for e in other.examples] != [e.qid for e in train.examples]


def test_oners_grid_is_answered_question_by_question_so_each_larger_k_extends_the_last_prompt(tmp_path):
    class Recording(DeepReadingEngine):
        def __init__(self):
            super().__init__()
            self.questions = []

        def complete(self, request):
            text = "\n".join(getattr(part, "text", "") for message in request.messages for part in message.parts)
            self.questions.append(text.split("[[ ## question ## ]]")[-1].split("Question")[1].split("?")[0].strip())
            return super().complete(request)

    engine = Recording()
    dspy.configure(lm=AccountedLM("local/deep", engine=engine, cache=False))
    request = ReproduceRequest(method="oner", tune="tiny[1-2]", test="tiny[3-3]", folder=tmp_path / "oner",
                               progress=False)
    [result] = reproduce(request, _load, lambda dataset: TableRetriever(), None, None, say=lambda text: None)
    assert engine.questions[:12] == ["0"] * 6 + ["1"] * 6  # the tune questions, one at a time over all six K
    assert len(engine.questions) == 13 and result.chosen["k"] >= 11  # the trials read the rows; then test once


def test_a_study_file_holds_the_settings_and_a_flag_overrides_it(tmp_path, monkeypatch, hopkit_home, capsys):
    from hopkit.cli.main import main

    lm = AccountedLM("local/deep", engine=DeepReadingEngine(), cache=False)
    monkeypatch.setattr("hopkit.cli.components.use_lm", lambda spec: dspy.configure(lm=lm))
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    study = tmp_path / "study.toml"
    study.write_text(f'method = "oner"\ntune = "bundled:dev[1-2]"\ntest = "bundled:dev[3-5]"\nretriever = "bm25"\n'
                     f'demos_from = "none"\nquiet = true\nout = "{tmp_path / "oner"}"\n')
    assert main(["reproduce", "--config", str(study), "--test", "bundled:dev[3-3]"]) == 0
    record = json.loads((tmp_path / "oner" / "reproduce.json").read_text())
    assert (record["method"], record["tune_n"], record["test_n"]) == ("oner", 2, 1)  # the flag's test split won
    bad = tmp_path / "bad.toml"
    bad.write_text('method = "oner"\ntset = "bundled:dev[3-5]"\n')
    assert main(["reproduce", "--config", str(bad)]) == 2
    assert "'tset' is not a setting of this verb (did you mean 'test'?)" in capsys.readouterr().err
    assert main(["reproduce", "oner"]) == 2
    assert "--test is required" in capsys.readouterr().err


def test_the_protocol_from_python_runs_the_commands_code_and_writes_the_same_study(tmp_path, monkeypatch,
                                                                                   hopkit_home):
    import hopkit
    from hopkit.cli.main import main

    lm = AccountedLM("local/deep", engine=DeepReadingEngine(), cache=False)
    monkeypatch.setattr("hopkit.cli.components.use_lm", lambda spec: dspy.configure(lm=lm))
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    spec = hopkit.RunSpec(method="oner", retriever="bm25", demos_from="none", lm="local/deep",
                          out=str(tmp_path / "python"))
    run = hopkit.run_reproduce(spec, test="bundled:dev[3-4]", tune="bundled:dev[1-2]", progress=False,
                               say=lambda text: None, configure_lm=lambda: dspy.configure(lm=lm))
    assert main(["reproduce", "oner", "--tune", "bundled:dev[1-2]", "--test", "bundled:dev[3-4]", "--retriever",
                 "bm25", "--demos-from", "none", "--lm", "local/deep", "--quiet", "--out", str(tmp_path / "cli")]) == 0
    python, cli = (json.loads((tmp_path / side / "reproduce.json").read_text()) for side in ("python", "cli"))
    assert run.folder == tmp_path / "python"
    for ours, theirs in zip(python["prompt_sets"], cli["prompt_sets"], strict=True):  # all but the seconds
        for key in ("chosen", "tune_score", "tune_settings", "test_metrics"):
            assert ours[key] == theirs[key], key
        assert ours["test_cost"]["lm_calls"] == theirs["test_cost"]["lm_calls"]
    assert run.results[0].chosen == python["prompt_sets"][0]["chosen"] and "k" in run.results[0].chosen
    specs = [json.loads((tmp_path / side / "test" / "prompt-set-0.meta.json").read_text())["spec"]
             for side in ("python", "cli")]
    assert specs[0] == specs[1] and specs[0]["profile"] == "paper"
    with pytest.raises(InputError, match="unknown grid 'widest'"):
        hopkit.run_reproduce(spec, test="bundled:dev[3-4]", grid="widest")


def test_searchains_cell_shows_its_own_cover_em_beside_the_papers_cover_em(tmp_path):
    from hopkit.reader.lm_reader import LMReader

    _run(tmp_path, "searchain", tune=None, test="musique:validation[5-10]", reader=LMReader())
    table = reproduce_table(read_studies([tmp_path]), samples=200)
    cell = next(line for line in table.splitlines() if line.startswith("| searchain |"))
    cover = json.loads((tmp_path / "searchain" / "reproduce.json").read_text())["prompt_sets"][0]["test_metrics"]
    assert f"cover-EM {100 * cover['cover_em']:.1f} here, paper " in cell and "cover-EM (SearChain Table 1" in cell


def test_ircots_grid_runs_each_chain_once_and_reads_it_with_both_readers(tmp_path):
    from hopkit.evaluation.harness import run_one
    from hopkit.evaluation.metrics import get_metric
    from hopkit.programs.registry import build_program

    class Counting(DeepReadingEngine):
        chain_calls = 0

        def complete(self, request):
            text = "\n".join(getattr(part, "text", "") for message in request.messages for part in message.parts)
            Counting.chain_calls += "continuation" in (request.system or "") + text
            return super().complete(request)

    dspy.configure(lm=AccountedLM("local/deep", engine=Counting(), cache=False))
    request = ReproduceRequest(method="ircot", tune="tiny[1-2]", test="tiny[3-3]", folder=tmp_path / "ircot",
                               progress=False)
    said = {}
    [result] = reproduce(request, _load, lambda dataset: TableRetriever(), None, None,
                         say=lambda text: said.setdefault(text.split(":")[0], Counting.chain_calls))
    shared_calls = said["chosen on tune"]  # the chain calls of the tune grid, before the test split
    rows = [json.loads(line) for path in sorted((tmp_path / "ircot" / "tune-0" / "settings").glob("*.jsonl"))
            for line in path.read_text().splitlines()]
    assert len(rows) == 16 and all(row["shared_chain"] for row in rows)  # 8 settings x 2 tune questions
    Counting.chain_calls = 0  # the same grid setting by setting, as the trials would run it alone
    alone = {}
    for k in (2, 4, 6, 8):
        for reader in ("direct", "cot"):
            program = build_program("ircot", TableRetriever(), None, None, profile="paper", k=k, answer_reader=reader)
            for example in _load("tiny").examples[:2]:
                alone[(k, reader, example.qid)] = run_one(program, example, [get_metric("f1")])
    assert shared_calls > 0 and shared_calls * 2 == Counting.chain_calls  # half the chains of setting by setting
    for row in rows:
        knobs = row["trace"]["knobs"]
        mine = alone[(knobs["k"], knobs["answer_reader"], row["qid"])]
        assert (row["prediction"], row["trace"]["chain"]) == (mine["prediction"], mine["trace"]["chain"])
        assert row["cost"]["lm_calls"] == mine["cost"]["lm_calls"]  # the chain's cost is counted in each row
    assert result.chosen["answer_reader"] in ("direct", "cot")


def test_ircots_reader_is_chosen_on_the_first_tune_split_and_held_on_the_next(tmp_path):
    from hopkit.reproduce.protocol import chosen_in

    dspy.configure(lm=AccountedLM("local/deep", engine=DeepReadingEngine(), cache=False))
    first = ReproduceRequest(method="ircot", tune="musique:dev[1-2]", test="musique:dev[3-3]",
                             folder=tmp_path / "ircot-musique", progress=False)
    reproduce(first, _load, lambda dataset: TableRetriever(), None, None, say=lambda text: None)
    reader = chosen_in(tmp_path / "ircot-musique", "answer_reader")
    second = ReproduceRequest(method="ircot", tune="2wiki:dev[1-2]", test="2wiki:dev[3-3]",
                              folder=tmp_path / "ircot-2wiki", progress=False, fixed={"answer_reader": reader},
                              fixed_from=str(tmp_path / "ircot-musique"))
    [result] = reproduce(second, _load, lambda dataset: TableRetriever(), None, None, say=lambda text: None)
    record = json.loads((tmp_path / "ircot-2wiki" / "reproduce.json").read_text())
    assert record["grid"] == {"k": [2, 4, 6, 8]} and result.chosen["answer_reader"] == reader
    rows = [json.loads(line) for path in (tmp_path / "ircot-2wiki" / "tune-0" / "settings").glob("*.jsonl")
            for line in path.read_text().splitlines()]
    assert len(rows) == 8 and {row["trace"]["knobs"]["answer_reader"] for row in rows} == {reader}
    cell = next(line for line in reproduce_table(read_studies([tmp_path]), samples=200).splitlines()
                if line.startswith("| ircot |"))
    assert f"answer_reader={reader}" in cell and "(answer_reader held from ircot-musique's tune)" in cell
    with pytest.raises(InputError, match="not in the oner grid"):
        reproduce(
            ReproduceRequest(method="oner", tune="tiny[1-2]", test="tiny[3-3]", folder=tmp_path / "x",
                             fixed={"answer_reader": "cot"}), _load, lambda d: TableRetriever(), None, None)
    with pytest.raises(InputError, match="holds no reproduce.json"):
        chosen_in(tmp_path / "nothing", "answer_reader")


def test_the_grid_benchmark_times_the_grid_setting_by_setting_and_shared(monkeypatch, hopkit_home):
    from hopkit.reproduce import grid_bench

    class Engine(FieldEchoEngine):
        prompt_eval_tokens, prompt_eval_seconds = 0, 0.0

        def complete(self, request):
            Engine.prompt_eval_tokens += 100
            return super().complete(request)

    monkeypatch.setattr("hopkit.lm.factory.make_lm", lambda spec: AccountedLM("local/e", engine=Engine(), cache=False))
    request = grid_bench.GridBenchRequest("ircot", "bundled:dev", "bundled:train", n=2)
    results = {}
    for mode in grid_bench.MODES:  # each in a fresh engine, as each runs in its own process
        Engine.prompt_eval_tokens = 0
        results[mode] = grid_bench.run_mode(request, mode)
    before, after = results["setting-by-setting"], results["shared"]
    assert (before["settings"], before["questions"]) == (8, 2) and before["answers"] == after["answers"]
    assert 0 < after["prompt_tokens_evaluated"] < before["prompt_tokens_evaluated"]  # the chains ran once per K
    table = grid_bench.format_bench(results)
    assert "| shared | 2 | 8 |" in table and "the same answer in 16 of 16 rows" in table
    assert all(result["cpu_seconds"] > 0 for result in results.values()) and "CPU seconds:" in table


def test_a_stopped_setting_by_setting_grid_resumes_from_its_kept_logs(monkeypatch, hopkit_home, tmp_path):
    from hopkit.reproduce import grid_bench

    class Engine(FieldEchoEngine):
        prompt_eval_tokens, prompt_eval_seconds = 0, 0.0

    monkeypatch.setattr("hopkit.lm.factory.make_lm", lambda spec: AccountedLM("local/e", engine=Engine(), cache=False))
    request = grid_bench.GridBenchRequest("ircot", "bundled:dev", "bundled:train", n=2, logs=str(tmp_path / "logs"))
    whole = grid_bench.run_mode(request, "setting-by-setting")
    assert whole["resumed"] is False and len(list((tmp_path / "logs" / "setting-by-setting").glob("*.jsonl"))) == 8
    kept = next((tmp_path / "logs" / "setting-by-setting").glob("*.jsonl"))
    kept.write_text(kept.read_text().splitlines()[0] + "\n")  # as if stopped after that setting's first question
    again = grid_bench.run_mode(request, "setting-by-setting")
    assert again["resumed"] is True and again["answers"] == whole["answers"] and again["cpu_seconds"] is None
    assert "| setting-by-setting | 2 | 8 |" in grid_bench.format_bench({"setting-by-setting": again})


def test_ircots_shared_grid_answers_one_retrieval_setting_at_a_time(monkeypatch, tmp_path):
    """A setting's few-shot prompts stay in the engine's prefix cache only while its questions run together."""
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog
    from hopkit.reproduce import shared_work

    order = []
    monkeypatch.setattr(shared_work, "_rows_on_one_chain",
                        lambda programs, group, readers, example, metric: order.append((group, example.qid)) or [])
    tune = _load("tiny").examples[:3]
    shared_work._shared_chains(lambda **knobs: object(), {"k": [2, 4], "answer_reader": ["direct", "cot"]}, tune,
                               get_metric("f1"), lambda knobs: RunLog(tmp_path / f"{knobs['k']}{knobs['answer_reader']}"
                                                                      ".jsonl", {"knobs": knobs}),
                               progress=False, say=lambda text: None)
    assert order == [(group, example.qid) for group in (0, 1) for example in tune]


def test_the_table_says_where_an_unfinished_study_stands(tmp_path, capsys):
    from hopkit.cli.main import main

    settings = tmp_path / "runs" / "ircot-musique" / "tune-0" / "settings"
    settings.mkdir(parents=True)
    for name, seconds in (("a", [40.0, 60.0]), ("b", [])):  # b: declared, no question answered yet
        (settings / f"setting-{name}.meta.json").write_text(json.dumps({"knobs": {"k": 2}}))
        if seconds:
            (settings / f"setting-{name}.jsonl").write_text("".join(
                json.dumps({"qid": f"q{i}", "metrics": {"f1": 1.0 - i / 2}, "cost": {"seconds": s}}) + "\n"
                for i, s in enumerate(seconds)))
    # each begun setting with its tune F1 so far: (1.0 + 0.5) / 2
    line = "ircot-musique, in progress: tune-0: 2 settings, 0 to 2 questions each (answered: k=2 2 (f1 75.0); not " \
           "started: 1; " \
           "2 rows, median 50 s a row); test: not started"
    spent = "\n\nHours so far, from the rows' wall seconds (a shared IRCoT chain counted once):\n"
    assert main(["reproduce-table", str(tmp_path / "runs")]) == 0
    # nothing finished: no table, only where it stands, and what it has cost so far
    tune_spent = "- ircot-musique: tune 0.0 h (2 question-settings, 50 s each)"
    assert capsys.readouterr().out.strip() == f"{line}{spent}{tune_spent}"
    _run(tmp_path / "runs", "oner")
    assert main(["reproduce-table", str(tmp_path / "runs"), "--samples", "200"]) == 0
    out, hours = capsys.readouterr().out.split(spent)
    assert out.startswith("| method |") and "| oner |" in out and out.strip().endswith(line)
    assert hours.splitlines()[0] == tune_spent
    assert hours.splitlines()[1].startswith("- oner: tune ") and "; test 0.0 h (6 questions, " in hours
    started = json.loads((tmp_path / "runs" / "oner" / "started.json").read_text())  # written before question 1
    assert (started["tune_n"], started["test_n"], started["grid"]) == (4, 6, {"k": [5, 7, 9, 11, 13, 15]})
    (settings.parent.parent / "started.json").write_text(json.dumps({"tune_n": 100, "test_n": 92, "commit": "abc"}))
    main(["reproduce-table", str(tmp_path / "runs" / "ircot-musique")])
    assert capsys.readouterr().out.split(spent)[0] == (
        "ircot-musique, in progress at abc: tune-0: 2 settings, 0 to 2 of 100 questions each (answered: k=2 2 "
        "(f1 75.0); not started: 1; 2 rows, median 50 s a row); test: not started")


def test_an_unfinished_studys_line_ends_with_the_hours_to_go_counting_a_shared_chain_once(tmp_path):
    from hopkit.reproduce.progress import progress_line

    study = tmp_path / "ircot-musique"
    settings = study / "tune-0" / "settings"
    settings.mkdir(parents=True)
    for reader, seconds in (("direct", 40.0), ("cot", 60.0)):  # both rows carry their one chain's cost
        name = f"setting-k2-{reader}"
        (settings / f"{name}.meta.json").write_text(json.dumps({"knobs": {"k": 2, "answer_reader": reader}}))
        (settings / f"{name}.jsonl").write_text("".join(json.dumps(
            {"qid": qid, "metrics": {"f1": 0.0}, "cost": {"seconds": seconds}, "shared_chain": True}) + "\n"
            for qid in ("q0", "q1")))
    (study / "started.json").write_text(json.dumps({"method": "ircot", "tune_n": 3, "test_n": 2, "prompt_sets": 1,
                                                    "grid": {"k": [2, 4], "answer_reader": ["direct", "cot"]}}))
    # 2 chains of 6 done at 60 s each (the dearer reader's row), 4 to go, and 2 test questions paced alike
    assert progress_line(study).endswith("to go: about 0.1 hours at the pace so far, 0.1 at its median (4 tune "
                                         "questions of a chain or setting, 2 test questions)")
    # and the hours spent count each chain once, at its dearer row: 2 chains at 60 s
    from hopkit.reproduce.hours import hours_line

    assert hours_line(study) == "ircot-musique: tune 0.0 h (2 chain-questions, 60 s each)"


def test_a_setting_whose_metadata_drops_a_knob_at_its_profile_value_is_named_by_its_grid_point(tmp_path):
    """The reader held from another study and k = 4 (the profile's own K) leave the metadata without k; the log's
    name is the grid point's key, so the line still says k=4."""
    from hopkit.optimize.objective import setting_key
    from hopkit.reproduce.progress import progress_line

    study = tmp_path / "ircot-2wiki"
    settings = study / "tune-0" / "settings"
    settings.mkdir(parents=True)
    for k, knobs in ((4, {"answer_reader": "direct"}), (6, {"answer_reader": "direct", "k": 6})):
        name = f"setting-{setting_key({'k': k})}"
        (settings / f"{name}.meta.json").write_text(json.dumps({"knobs": knobs}))
        (settings / f"{name}.jsonl").write_text(json.dumps({"qid": "q0", "metrics": {"f1": 0.0},
                                                            "cost": {"seconds": 10.0}}) + "\n")
    (study / "started.json").write_text(json.dumps({"method": "ircot", "tune_n": 2, "test_n": 2,
                                                    "grid": {"k": [2, 4, 6, 8]}}))
    assert ("(answered: answer_reader=direct k=4 1 (f1 0.0), answer_reader=direct k=6 1 (f1 0.0);"
            in progress_line(study))


def test_the_hours_to_go_pace_a_begun_setting_at_its_own_cost(tmp_path):
    """A grid's dearer setting (a larger K) is paced at its own seconds, not the grid's mean, so the estimate does not
    run short while the dear setting is still going."""
    from hopkit.reproduce.progress import progress_line

    study = tmp_path / "oner-musique"
    settings = study / "tune-0" / "settings"
    settings.mkdir(parents=True)
    for k, seconds in ((5, [360.0] * 4), (15, [3600.0])):
        (settings / f"setting-k{k}.meta.json").write_text(json.dumps({"knobs": {"k": k}}))
        (settings / f"setting-k{k}.jsonl").write_text("".join(json.dumps(
            {"qid": f"q{i}", "metrics": {"f1": 0.0}, "cost": {"seconds": s}}) + "\n" for i, s in enumerate(seconds)))
    (study / "started.json").write_text(json.dumps({"method": "oner", "tune_n": 4, "test_n": 1, "prompt_sets": 1,
                                                    "grid": {"k": [5, 10, 15]}}))
    # k=15: 3 to go at 1 h each; k=10, not begun: 4 at the grid's mean (4 x 0.1 h + 1 h) / 5 = 0.28 h; the test
    # question at that mean too: 3 + 5 x 0.28 = 4.4 hours (the grid's mean alone would say 8 x 0.28 = 2.2); at the
    # medians (k=15's 1 h, the grid's 0.1 h): 3 + 5 x 0.1 = 3.5
    assert progress_line(study).endswith("to go: about 4.4 hours at the pace so far, 3.5 at its median (7 tune "
                                         "questions of a chain or setting, 1 test questions)")


def test_the_hours_to_go_pace_the_test_split_at_the_setting_leading_on_tune(tmp_path):
    """The test answers with the chosen setting alone, so until it has rows its questions are paced at the setting
    leading on the tune split (a cheap K that wins would otherwise be paced at the dear grid's mean)."""
    from hopkit.reproduce.progress import progress_line

    study = tmp_path / "ircot-2wiki"
    settings = study / "tune-0" / "settings"
    settings.mkdir(parents=True)
    for k, f1, seconds in ((2, 1.0, 36.0), (8, 0.0, 360.0)):
        (settings / f"setting-k{k}.meta.json").write_text(json.dumps({"knobs": {"k": k}}))
        (settings / f"setting-k{k}.jsonl").write_text("".join(json.dumps(
            {"qid": f"q{i}", "metrics": {"f1": f1}, "cost": {"seconds": seconds}}) + "\n" for i in range(2)))
    (study / "started.json").write_text(json.dumps({"method": "ircot", "tune_n": 2, "test_n": 100, "prompt_sets": 1,
                                                    "grid": {"k": [2, 8]}}))
    # 100 test questions at k=2's 36 s: 1.0 hour (the grid's mean, 198 s, would say 5.5)
    assert progress_line(study).endswith("to go: about 1.0 hours at the pace so far, 1.0 at its median (0 tune "
                                         "questions of a chain or setting, 100 test questions at the pace of k=2, "
                                         "leading on tune)")


def test_in_a_shared_grid_the_leading_chain_is_the_one_whose_best_reader_leads(tmp_path):
    """The choice scores each reader of a chain apart, so the chain that paces the test is the best setting's, not the
    chain with the best mean over its readers: k=4 read by cot (0.8) leads, though k=2's readers average higher."""
    from hopkit.reproduce.progress import progress_line

    study = tmp_path / "ircot-musique"
    settings = study / "tune-0" / "settings"
    settings.mkdir(parents=True)
    for k, reader, f1, seconds in ((2, "direct", 0.7, 36.0), (2, "cot", 0.7, 36.0), (4, "direct", 0.2, 72.0),
                                   (4, "cot", 0.8, 72.0)):
        name = f"setting-k{k}-{reader}"
        (settings / f"{name}.meta.json").write_text(json.dumps({"knobs": {"k": k, "answer_reader": reader}}))
        (settings / f"{name}.jsonl").write_text(json.dumps(
            {"qid": "q0", "metrics": {"f1": f1}, "cost": {"seconds": seconds}, "shared_chain": True}) + "\n")
    (study / "started.json").write_text(json.dumps({"method": "ircot", "tune_n": 1, "test_n": 100, "prompt_sets": 1,
                                                    "grid": {"k": [2, 4], "answer_reader": ["direct", "cot"]}}))
    # 100 test questions at the k=4 chain's 72 s: 2.0 hours (k=2's 36 s would say 1.0)
    assert progress_line(study).endswith("to go: about 2.0 hours at the pace so far, 2.0 at its median (0 tune "
                                         "questions of a chain or setting, 100 test questions at the pace of k=4, "
                                         "leading on tune)")


def test_the_hours_to_go_pace_a_cached_answer_at_its_computed_seconds(tmp_path):
    """A question answered from the cache (a smoke run's, say) took near 0 wall seconds; the questions to go will be
    computed, so the pace reads the row's computed seconds, while the hours spent stay the wall seconds."""
    from hopkit.reproduce.hours import hours_line
    from hopkit.reproduce.progress import progress_line

    study = tmp_path / "oner-2wiki"
    settings = study / "tune-0" / "settings"
    settings.mkdir(parents=True)
    (settings / "setting-k5.meta.json").write_text(json.dumps({"knobs": {"k": 5}}))
    cached = {"seconds": 0.01, "cache_hits": 1, "computed": {"seconds": 360.0}}
    (settings / "setting-k5.jsonl").write_text(json.dumps({"qid": "q0", "metrics": {"f1": 0.0}, "cost": cached})
                                               + "\n")
    (study / "started.json").write_text(json.dumps({"method": "oner", "tune_n": 6, "test_n": 4, "prompt_sets": 1,
                                                    "grid": {"k": [5]}}))
    # 5 tune and 4 test questions to go at the computed 360 s: 0.9 hours (the wall 0.01 s would say 0.0)
    line = progress_line(study)
    assert "1 rows, median 360 s a row" in line
    assert line.endswith("to go: about 0.9 hours at the pace so far, 0.9 at its median (5 tune questions of a chain "
                         "or setting, "
                         "4 test questions)")
    assert hours_line(study) == "oner-2wiki: tune 0.0 h (1 question-settings, 0 s each)"


def test_a_reproduce_log_records_its_run_spec_and_eval_like_reruns_the_chosen_setting(tmp_path, hopkit_home):
    """The test log and every tune setting's log carry the run spec eval writes, on their own split and knobs, so
    ``hopkit eval --like`` reruns the setting the tune split chose on the same test questions."""
    from lm_servers import scripted_lm_server

    from hopkit.cli.main import main
    from hopkit.spec import from_log

    server = scripted_lm_server()
    lm = ["--lm", "openai/scripted", "--api-base", f"http://127.0.0.1:{server.server_address[1]}/v1", "--no-cache"]
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    folder = tmp_path / "oner-bundled"
    assert main(["reproduce", "oner", "--tune", "bundled:dev[1-2]", "--test", "bundled:dev[3-4]", "--demos-from",
                 "none", "--retriever", "bm25", "--quiet", "--out", str(folder), *lm]) == 0
    chosen = json.loads((folder / "reproduce.json").read_text())["prompt_sets"][0]["chosen"]
    spec = from_log(folder / "test" / "prompt-set-0.jsonl")
    assert (spec.method, spec.profile, spec.dataset, spec.questions, spec.retriever, spec.demos_from) == (
        "oner", "paper", "bundled:dev", "3-4", "bm25", "none")
    assert set(spec.knobs) <= set(chosen)  # the chosen knobs that are off the paper's values
    tune = [from_log(path) for path in (folder / "tune-0" / "settings").glob("setting-*.jsonl")]
    assert len(tune) == 6 and {s.questions for s in tune} == {"1-2"} and {s.profile for s in tune} == {"paper"}
    again = tmp_path / "again.jsonl"
    assert main(["eval", "--like", str(folder / "test" / "prompt-set-0.jsonl"), "--out", str(again), "--quiet"]) == 0
    rows = [json.loads(line) for line in again.read_text().splitlines()]
    first = [json.loads(line) for line in (folder / "test" / "prompt-set-0.jsonl").read_text().splitlines()]
    assert [(r["qid"], r["prediction"]["retrieved"]) for r in rows] == [
        (r["qid"], r["prediction"]["retrieved"]) for r in first]  # the same questions, each read at the chosen K
    assert {len(r["prediction"]["retrieved"]) for r in rows} == {chosen["k"]}
    server.shutdown()
