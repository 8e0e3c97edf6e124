"""The optimizer: search space from declared knobs, paper defaults first, shared and resumable studies,
saved programs that load and predict identically, and the FixedTrial path."""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import optuna
import pytest
from optimize_worker import TableRetriever, configure, request, tiny_dataset
from optuna.trial import TrialState

from hopkit.knobs import KNOBS
from hopkit.optimize.optuna_compat import fail_dead_trials
from hopkit.optimize.request import PruningSettings
from hopkit.optimize.runner import optimize
from hopkit.optimize.saved import load_program, read_manifest
from hopkit.optimize.search_space import profile_defaults, search_space, suggest
from hopkit.optimize.study import FINISHED, distinct_settings, open_study, run_trials

WORKER = Path(__file__).parent / "optimize_worker.py"


def test_the_search_space_is_read_from_the_declared_knobs():
    for method, group in [("ircot", "ircot"), ("searchain", "searchain"), ("tor", "tor"), ("oner", "oner")]:
        assert set(search_space(method)) == set(KNOBS[group])
    assert set(search_space("searchain", fixed={"answer_form": "short"})) == set(KNOBS["searchain"]) - {"answer_form"}
    assert list(search_space("ircot", only=["k", "cap"])) == ["k", "cap"]
    with pytest.raises(Exception, match="no knob"):
        search_space("ircot", only=["theta"])


def test_a_demos_study_leaves_out_knobs_that_only_shape_the_built_demonstrations():
    """Every trial of a demos study loads the compiled demonstrations, so IRCoT's M changes nothing."""
    assert set(search_space("ircot", compiled_demos=True)) == set(KNOBS["ircot"]) - {
        "m_distractors", "balance_openings", "demo_budget", "max_demos"}
    assert set(search_space("tor", compiled_demos=True)) == set(KNOBS["tor"]) - {"extra_demo", "shots"}
    assert set(search_space("searchain", compiled_demos=True)) == set(KNOBS["searchain"]) - {
        "extra_plan_demo", "plan_shots"}
    with pytest.raises(Exception, match="tune them with no compiled demonstrations"):
        search_space("ircot", only=["k", "m_distractors"], compiled_demos=True)


def test_no_knob_shadows_a_parameter_of_build_program():
    import inspect

    from hopkit.programs.registry import build_program

    reserved = set(inspect.signature(build_program).parameters) - {"knobs"}
    for group, knobs in KNOBS.items():
        assert not reserved & set(knobs), f"{group} declares a knob named like a build_program parameter"


def test_the_papers_setting_is_enqueued_again_when_its_trial_raised(tmp_path):
    from hopkit.optimize.study import enqueue_paper_trial, find_paper_trial

    study = open_study("s", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"])
    enqueue_paper_trial(study, {"k": 8})

    def broken(trial):
        trial.suggest_int("k", 1, 15)
        raise RuntimeError("a build error")

    with pytest.raises(RuntimeError):
        study.optimize(broken, n_trials=1)
    enqueue_paper_trial(study, {"k": 8})
    enqueue_paper_trial(study, {"k": 8})  # once is enough
    study.optimize(lambda trial: float(trial.suggest_int("k", 1, 15)), n_trials=1)
    assert find_paper_trial(study).number == 1 and find_paper_trial(study).params == {"k": 8}
    assert len(study.trials) == 2


def test_a_resumed_study_draws_new_settings_and_a_fresh_one_is_reproducible(tmp_path):
    def objective(trial):
        return trial.suggest_float("x", 0.0, 1.0)

    storage = f"sqlite:///{tmp_path / 'study.db'}"
    open_study("s", storage, ["maximize"], seed=3).optimize(objective, n_trials=3)
    open_study("s", storage, ["maximize"], seed=3).optimize(objective, n_trials=3)  # a second process resumes
    drawn = [t.params["x"] for t in optuna.load_study(study_name="s", storage=storage).trials]
    assert len(set(drawn)) == 6
    again = open_study("s", f"sqlite:///{tmp_path / 'other.db'}", ["maximize"], seed=3)
    again.optimize(objective, n_trials=3)
    assert [t.params["x"] for t in again.trials] == drawn[:3]


def test_the_trial_budget_counts_distinct_settings_and_stops_in_a_small_space(tmp_path):
    def objective(trial):
        return float(trial.suggest_int("k", 1, 3))

    study = open_study("s", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"])
    assert run_trials(study, objective, 3) == 3
    assert {t.params["k"] for t in study.get_trials(states=FINISHED)} == {1, 2, 3}
    small = open_study("small", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"])
    assert run_trials(small, objective, 5) == 3  # only three settings exist: stops at 3 x 5 trials
    assert len(small.trials) == 15


def test_a_retry_queued_after_the_settings_are_all_in_is_run_not_left_waiting(tmp_path):
    def objective(trial):
        return float(trial.suggest_int("k", 1, 3))

    study = open_study("s", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"])
    assert run_trials(study, objective, 3) == 3
    # what a killed worker's stale trial leaves when another worker has already finished every setting
    killed = study.ask({"k": optuna.distributions.IntDistribution(1, 3)})
    study.tell(killed, state=TrialState.FAIL)
    optuna.storages.RetryFailedTrialCallback()(study, study.trials[killed.number])  # as the stale-trial check does
    assert run_trials(study, objective, 3) == 3
    assert not study.get_trials(states=(TrialState.WAITING, TrialState.RUNNING))
    retried = [t for t in study.trials if t.system_attrs.get("failed_trial") == killed.number]
    assert [t.state for t in retried] == [TrialState.COMPLETE] and retried[0].params == killed.params


def test_the_fixed_trial_path_replays_values_and_samples_within_ranges():
    space = search_space("tor")
    chosen = {**profile_defaults(space), "depth": 2, "expansion": "cot", "relevance_pruning": False}
    assert suggest(optuna.trial.FixedTrial(chosen), space) == chosen
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=1))
    for _ in range(5):
        values = suggest(study.ask(), search_space("searchain"))
        assert 0.0 <= values["theta"] <= 1.0 and 1 <= values["r_max"] <= 10
        assert values["answer_form"] in ("short", "long")


def test_paper_defaults_are_trial_0_and_the_saved_program_predicts_identically(tmp_path):
    configure()
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    result = optimize(request(tmp_path, storage, trials=3, demos="labeled"), TableRetriever(), None,
                      say=lambda text: None)
    study = optuna.load_study(study_name="shared", storage=storage)
    first = study.trials[0]
    assert first.params == profile_defaults(search_space("oner", compiled_demos=True))
    assert first.user_attrs["paper_defaults"]
    assert len(study.get_trials(states=FINISHED)) == 3
    manifest = read_manifest(result.program_dir)
    assert manifest["method"] == "oner" and manifest["knobs"] == result.knobs and manifest["dev_n"] == 4
    assert manifest["before"] is not None and "dspy" in manifest["packages"]
    loaded = load_program(result.program_dir, retriever=TableRetriever())
    assert loaded.k == result.knobs["k"]
    assert len(loaded.answer.demos) == 4  # LabeledFewShot's demos came back from program.json
    state = json.loads((result.program_dir / "program.json").read_text())
    assert [d["question"] for d in loaded.answer.demos] == [d["question"] for d in state["answer"]["demos"]]
    configure()
    again = loaded(question="Question 1?")
    configure()
    from hopkit.programs.registry import build_program
    direct = build_program("oner", TableRetriever(), None, state=state, **result.knobs)(question="Question 1?")
    assert again.answer == direct.answer == "Morn" and again.retrieved == direct.retrieved


def test_opening_a_fresh_study_retries_when_another_worker_wins_the_schema_setup(tmp_path, monkeypatch):
    import sqlalchemy.exc

    from hopkit.optimize import study as study_module

    real = study_module.RDBStorage
    calls = []

    def loses_the_race_once(*args, **kwargs):
        calls.append(args[0])
        if len(calls) == 1:
            real(*args, **kwargs)  # the other worker's setup: the schema now exists
            raise sqlalchemy.exc.IntegrityError("INSERT INTO alembic_version", {}, Exception("UNIQUE constraint"))
        return real(*args, **kwargs)

    monkeypatch.setattr(study_module, "RDBStorage", loses_the_race_once)
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    study = open_study("shared", storage, ["maximize"])
    assert len(calls) == 2 and study.study_name == "shared"


def test_a_storage_that_cannot_be_opened_says_how_to_fix_it(tmp_path):
    from hopkit.errors import StorageError

    for url in (f"sqlite:///{tmp_path / 'no-such-folder' / 'study.db'}", "not-a-url"):
        with pytest.raises(StorageError, match="Check the study file.s storage"):
            open_study("shared", url, ["maximize"])


def test_two_processes_share_one_sqlite_study(tmp_path):
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    open_study("shared", storage, ["maximize"])  # create it once, so the workers only load it
    # a grace period far above the 1 s heartbeat, as no worker is killed here. The CI failures of sessions 57 and 68
    # (one worker exiting nonzero) were both workers taking enqueued trial 0 from SQLite; the next test pins that
    workers = [subprocess.Popen([sys.executable, str(WORKER), str(tmp_path), storage, "8", "0.05", "60"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for _ in range(2)]
    outputs = [w.communicate(timeout=300)[0].decode() for w in workers]
    assert all(w.returncode == 0 for w in workers), "\n---\n".join(o[-4000:] for o in outputs)  # tracebacks end logs
    study = optuna.load_study(study_name="shared", storage=storage)
    finished = study.get_trials(states=FINISHED)
    assert distinct_settings(study.trials) >= 8
    assert len({t.user_attrs["worker"] for t in finished if "worker" in t.user_attrs}) == 2


def test_two_processes_never_take_the_same_enqueued_trial_from_one_sqlite_study(tmp_path):
    # the CI failure of session 68: both workers ran enqueued trial 0, and the second could not record it. Without
    # BEGIN IMMEDIATE (hopkit/optimize/optuna_compat.py) about half of such runs take a trial twice
    for run in range(3):
        url = f"sqlite:///{tmp_path / f'race-{run}.db'}"
        study = optuna.create_study(study_name="race", storage=url)
        for x in range(20):
            study.enqueue_trial({"x": x})
        workers = [subprocess.Popen([sys.executable, str(Path(__file__).parent / "pop_worker.py"), url, "10"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
        outputs = [w.communicate(timeout=120) for w in workers]
        assert all(w.returncode == 0 for w in workers), [err.decode()[-2000:] for _, err in outputs]
        taken = [number for out, _ in outputs for number in json.loads(out)]
        assert "told twice" not in taken and sorted(taken) == list(range(20))


def test_a_killed_optimization_resumes_from_its_storage(tmp_path):
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    open_study("shared", storage, ["maximize"])  # create it once, so polling below never races the worker's setup
    for _ in range(3):  # on a loaded machine the trial seen running may finish before the kill lands: try again
        worker = subprocess.Popen([sys.executable, str(WORKER), str(tmp_path), storage, "6", "0.4"])
        deadline = time.time() + 120
        while time.time() < deadline:
            time.sleep(0.5)
            study = optuna.load_study(study_name="shared", storage=storage)
            states = [t.state for t in study.trials]
            if states.count(optuna.trial.TrialState.COMPLETE) >= 1 and optuna.trial.TrialState.RUNNING in states:
                break
        worker.kill()
        worker.wait()
        study = optuna.load_study(study_name="shared", storage=storage)
        if any(t.state == optuna.trial.TrialState.RUNNING for t in study.trials):
            break
    else:
        pytest.fail("no trial was running when the worker was killed, in three tries")
    time.sleep(3)  # past the heartbeat grace period: the running trial is stale
    finished_before = len(study.get_trials(states=FINISHED))
    assert finished_before < 6
    resumed = subprocess.run([sys.executable, str(WORKER), str(tmp_path), storage, "6", "0.0"],
                             capture_output=True, timeout=300)
    assert resumed.returncode == 0, resumed.stdout.decode() + resumed.stderr.decode()
    study = optuna.load_study(study_name="shared", storage=storage)
    assert distinct_settings(study.trials) == 6 and len(study.get_trials(states=FINISHED)) >= 6
    failed = study.get_trials(states=(optuna.trial.TrialState.FAIL,))
    assert failed  # the killed trial, failed whether or not it had recorded a heartbeat
    # retried with its knobs: a kill that lands while the knobs are drawn leaves only the first ones, and the retry
    # draws the rest
    finished = [t.params for t in study.get_trials(states=FINISHED)]
    assert all(any(t.params.items() <= params.items() for params in finished) for t in failed if t.params)


def test_a_trial_killed_before_its_first_heartbeat_is_failed_and_retried(tmp_path):
    study = open_study("dead", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"], heartbeat_s=1, grace_s=1)
    space = {"k": optuna.distributions.IntDistribution(1, 20)}
    killed = study.ask(space)  # running, and no heartbeat ever recorded: optuna alone never fails it
    time.sleep(1.5)
    young = study.ask(space)  # within the grace period: its worker may still be starting
    assert fail_dead_trials(study) == [killed._trial_id]
    states = {t.number: t.state for t in study.get_trials()}
    assert states[killed.number] == TrialState.FAIL and states[young.number] == TrialState.RUNNING
    assert [t.params for t in study.get_trials(states=(TrialState.WAITING,))] == [killed.params]


def test_multi_objective_reports_a_pareto_front_and_plots(tmp_path):
    configure()
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    result = optimize(request(tmp_path, storage, trials=3, objectives=("metric", "lm_calls")), TableRetriever(), None,
                      say=lambda text: None)
    assert result.pareto and all(len(point["values"]) == 2 for point in result.pareto)
    assert Path(result.plots["history"]).is_file() and Path(result.plots["pareto"]).is_file()
    assert read_manifest(result.program_dir)["objectives"] == ["metric", "lm_calls"]
    assert json.loads(result.summary_path.read_text())["pareto"] == result.pareto


def test_the_summary_scores_the_papers_setting_and_the_best_on_test_and_adds_up_wall_time(tmp_path):
    configure()
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    test = tiny_dataset("test", 3).examples
    first = optimize(request(tmp_path, storage, trials=3, test=test), TableRetriever(), None, say=lambda text: None)
    summary = json.loads(first.summary_path.read_text())
    assert summary["default_trial"] == 0 and summary["trials"] == 3 and summary["test_n"] == 3
    assert "pareto" not in summary and summary["cost_front"]  # one metric: the cost front, no empty Pareto list
    assert summary["test"]["best"] == first.test_scores["f1"]
    assert summary["test"]["default"] == first.test_default_scores["f1"]
    assert set(summary["lm_calls_per_question"]) == {"dev_default", "dev_best", "test_default", "test_best"}
    assert all(value == 1.0 for value in summary["lm_calls_per_question"].values())  # OneR: one call a question
    assert (tmp_path / "test" / f"best-{summary['best_trial']}.jsonl").is_file()
    again = optimize(request(tmp_path, storage, trials=4, test=test), TableRetriever(), None, say=lambda text: None)
    assert again.trials == 4
    assert again.total_seconds == pytest.approx(round(first.seconds, 1) + round(again.seconds, 1), abs=0.01)
    from hopkit.optimize.study_record import study_rows

    settings = tmp_path / "settings"
    answered = sum(len(p.read_text().splitlines()) for p in settings.glob("*.jsonl"))
    assert answered >= 4 and len(study_rows(settings)) == answered
    answered_files = [*settings.glob("*.jsonl"), *(tmp_path / "test").glob("*.jsonl")]
    spent = sum(json.loads(line)["cost"]["seconds"] for p in answered_files for line in p.read_text().splitlines())
    assert spent > 0 and again.answering_seconds == pytest.approx(spent)
    assert json.loads(again.summary_path.read_text())["seconds_answering"] == pytest.approx(spent, abs=0.05)
    (settings / "setting-torn.jsonl").write_text('{"qid": "x", "cost"')  # a worker killed mid-line
    assert len(study_rows(settings)) == answered
    from hopkit.optimize.summary import read_summary, summary_rows

    assert not any(Path(log).is_absolute() for log in read_summary(tmp_path)["logs"].values())
    moved = tmp_path.parent / f"{tmp_path.name}-moved"  # a clone of the repository, or a copied study folder
    shutil.copytree(tmp_path, moved)
    table = summary_rows(read_summary(moved), moved).splitlines()
    assert table[2].split(" | ")[3] == "papers' (trial 0)" and table[3].split(" | ")[3].startswith("best (trial")
    assert table[3].split(" | ")[5] == f"{100 * again.test_scores['f1']:.1f}"
    text = "\n".join(table)
    # every setting ties at 0.5 on this table, and a tie keeps the first: the study chose trial 0, so there is no pair
    assert read_summary(moved)["best_trial"] == 0
    assert "the study chose the paper's setting (trial 0)" in text and "paired over" not in text
    assert "questions answered by the trials" in text and "cost front: trial" in text
    assert Path(again.plots["cost_front"]).is_file()
    from hopkit.optimize.setting_table import study_settings_table

    tried = study_settings_table(read_summary(moved), moved)  # hopkit report's table of every setting on dev
    assert tried.count("| paper |") == 1
    assert tried.count("| tried |") == len(list((moved / "settings").glob("*.meta.json"))) - 1


def test_bootstrap_few_shot_keeps_traces_that_pass_the_metric():
    import dspy

    from hopkit.evaluation.metrics import get_metric
    from hopkit.optimize.demos import compile_demos
    from hopkit.programs.registry import build_program
    configure()
    student = build_program("oner", TableRetriever())
    compiled = compile_demos("bootstrap", student, tiny_dataset("train", 6).examples, get_metric("f1"), max_demos=2)
    demos = compiled.answer.demos
    assert demos and all(isinstance(d, dspy.Example) for d in demos)
    assert all(d.answer == "Morn" for d in demos if "context" in d)  # bootstrapped: the program's own passing outputs


def test_a_searchain_state_with_typed_demos_survives_save_and_load(tmp_path, bundled_dev):
    from hopkit.data.registry import load_dataset_spec
    from hopkit.optimize.saved import save_program
    from hopkit.programs.registry import build_program

    train = load_dataset_spec("bundled:train")
    program = build_program("searchain", TableRetriever(), reader=object(), train=train, theta=0.5)
    folder = save_program(tmp_path / "sc", program, "searchain", {"theta": 0.5})
    loaded = load_program(folder, retriever=TableRetriever(), reader=object())
    assert loaded.theta == 0.5 and len(loaded.plan.demos) == len(program.plan.demos) == 3
    original = program.plan.demos[2]
    restored = loaded.plan.demos[2]
    assert restored["question"] == original.question
    assert [n["query"] for n in restored["chain"]] == [n.query for n in original.chain]


def test_a_resumed_demos_study_reuses_its_compiled_demonstrations(tmp_path, monkeypatch):
    from hopkit.optimize import runner
    from hopkit.optimize.demos import STATE_FILE

    configure()
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    first = optimize(request(tmp_path, storage, trials=2, demos="labeled"), TableRetriever(), None,
                     say=lambda text: None)
    saved = json.loads((tmp_path / STATE_FILE).read_text())
    assert saved["provenance"]["demos"] == "labeled" and saved["state"]
    keys = {p.name for p in (tmp_path / "settings").glob("setting-*.jsonl")}
    first_demos = {name: value["demos"] for name, value in
                   json.loads((first.program_dir / "program.json").read_text()).items() if "demos" in value}
    assert any(first_demos.values())

    def no_compiling(*args, **kwargs):
        raise AssertionError("a resumed study compiled its demonstrations again")

    monkeypatch.setattr(runner, "compile_demos", no_compiling)
    again = optimize(request(tmp_path, storage, trials=3, demos="labeled"), TableRetriever(), None,
                     say=lambda text: None)
    assert again.trials == 3 and keys <= {p.name for p in (tmp_path / "settings").glob("setting-*.jsonl")}
    again_demos = {name: value["demos"] for name, value in
                   json.loads((again.program_dir / "program.json").read_text()).items() if "demos" in value}
    assert again_demos == first_demos
    other = request(tmp_path, storage, trials=3, demos="bootstrap")
    with pytest.raises(Exception, match="compiled from"):
        optimize(other, TableRetriever(), None, say=lambda text: None)


def test_mipro_tunes_instructions_and_demos_and_the_saved_program_carries_them(tmp_path):
    from scripted_engine import FieldEchoEngine

    from hopkit.optimize.demos import STATE_FILE

    configure(engine=FieldEchoEngine())
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    result = optimize(request(tmp_path, storage, trials=2, demos="mipro"), TableRetriever(), None,
                      say=lambda text: None)
    assert json.loads((tmp_path / STATE_FILE).read_text())["provenance"]["demos"] == "mipro"
    manifest = read_manifest(result.program_dir)
    assert manifest["demos"] == "mipro" and result.trials == 2
    state = json.loads((result.program_dir / "program.json").read_text())
    loaded = load_program(result.program_dir, retriever=TableRetriever())
    assert loaded.answer.signature.instructions == state["answer"]["signature"]["instructions"]
    assert loaded(question="Question 1?").answer == "Morn"


@pytest.mark.parametrize("startup, pruned", [(1, 4), (10, 0)])
def test_the_pruner_waits_for_the_given_number_of_finished_trials(tmp_path, startup, pruned):
    study = open_study("p", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"], prune_startup=startup)
    for k in range(5):
        study.enqueue_trial({"k": k})
    study.optimize(_scripted_objective({0: 5.0, 1: 4.0, 2: 3.0, 3: 2.0, 4: 1.0}), n_trials=5)
    assert len(study.get_trials(states=(optuna.trial.TrialState.PRUNED,))) == pruned


def _scripted_objective(value_of_k):
    def objective(trial):
        value = value_of_k[trial.suggest_int("k", 0, 9)]
        trial.report(value, 0)
        if trial.should_prune():
            raise optuna.TrialPruned()
        return value
    return objective


def test_the_median_pruner_counts_a_repeated_setting_once(tmp_path):
    """optuna's MedianPruner would stop k=1 (two finished trials, median 5.0); here k=0 tried twice is one
    setting, so the startup of 2 is not met until k=1 finishes, and k=2 then trails their median (4.5)."""
    study = open_study("p", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"], prune_startup=2)
    for k in (0, 0, 1, 2, 3):
        study.enqueue_trial({"k": k})
    study.optimize(_scripted_objective({0: 5.0, 1: 4.0, 2: 3.0, 3: 6.0}), n_trials=5)
    states = [(t.params["k"], t.state.name) for t in study.trials]
    assert states == [(0, "COMPLETE"), (0, "COMPLETE"), (1, "COMPLETE"), (2, "PRUNED"), (3, "COMPLETE")]


def test_bootstrap_keeps_the_programs_own_demos_where_labels_lack_the_outputs():
    """Training questions without an answer label: no trace passes the metric, and the labelled demos
    DSPy would add lack the predictor's output (shown to the LM as "Not supplied"), so the predictor
    keeps the demonstrations it was built with; the teacher runs with those, not with bare labels."""
    import dspy

    from hopkit.evaluation.metrics import get_metric
    from hopkit.optimize.demos import bootstrapped_demos, compile_demos, own_demos_teacher
    from hopkit.programs.registry import build_program
    configure()
    student = build_program("oner", TableRetriever())
    own = [dspy.Example(question="Q?", context=["c"], answer="Own").with_inputs("question", "context")]
    student.answer.demos = list(own)
    unlabelled = [ex.without("answer").copy(answers=[]) for ex in tiny_dataset("train", 4).examples]
    compiled = compile_demos("bootstrap", student, unlabelled, get_metric("f1"), max_demos=2)
    assert [d.answer for d in compiled.answer.demos] == ["Own"]
    assert bootstrapped_demos(compiled) == 0
    teacher = own_demos_teacher(student)
    assert teacher.answer.demos == own and teacher._compiled and teacher is not student


def test_a_trial_budget_below_one_is_refused_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="trials must be at least 1"):
        optimize(request(tmp_path, f"sqlite:///{tmp_path / 'study.db'}", trials=0), TableRetriever(), None)
    assert not (tmp_path / "study.db").exists()


@pytest.mark.parametrize("threshold, bootstrapped", [(1.0, 0), (0.5, 2)])
def test_a_partly_right_trace_becomes_a_demonstration_only_below_the_threshold(threshold, bootstrapped):
    """The LM always answers "Morn"; gold "Morn Valley" gives F1 0.67. DSPy keeps any trace with a
    truthy score, so without a threshold that partly right answer would be taught as right."""
    from hopkit.evaluation.metrics import get_metric
    from hopkit.optimize.demos import bootstrapped_demos, compile_demos
    from hopkit.programs.registry import build_program
    configure()
    partly = [ex.copy(answers=["Morn Valley"]) for ex in tiny_dataset("train", 4).examples]
    compiled = compile_demos("bootstrap", build_program("oner", TableRetriever()), partly, get_metric("f1"),
                             max_demos=2, threshold=threshold)
    traces = [d for d in compiled.answer.demos if "context" in d]
    assert len(traces) == bootstrapped
    assert bootstrapped_demos(compiled) == bootstrapped
    assert all(d.answer == "Morn" for d in traces)
    assert all(d.answer == "Morn Valley" for d in compiled.answer.demos if "context" not in d)


def test_a_demonstration_threshold_outside_0_1_is_refused():
    from hopkit.evaluation.metrics import get_metric
    from hopkit.optimize.demos import compile_demos
    from hopkit.programs.registry import build_program

    with pytest.raises(ValueError, match=r"threshold \(demo_threshold\) must be in"):
        compile_demos("bootstrap", build_program("oner", TableRetriever()), [], get_metric("f1"), threshold=0.0)


def test_the_compile_trains_on_questions_the_built_demonstrations_do_not_show():
    import dspy

    from hopkit.optimize.demos import unseen_by_demos
    from hopkit.programs.registry import build_program
    program = build_program("oner", TableRetriever())
    train = tiny_dataset("train", 6).examples
    program.answer.demos = [dspy.Example(question=train[1].question, context=["c"], answer="Morn")]
    chosen = unseen_by_demos(train, program, 4)
    assert [ex.question for ex in chosen] == [train[i].question for i in (0, 2, 3, 4)]


def test_split_ranges_and_overlapping_splits_are_refused():
    from hopkit.data.examples import make_example
    from hopkit.errors import InputError
    from hopkit.optimize.splits import in_range, refuse_overlap, split_spec

    assert split_spec("musique:validation@/d/dev100.jsonl[1-50]") == ("musique:validation@/d/dev100.jsonl", (1, 50))
    assert split_spec("bundled:dev") == ("bundled:dev", None)
    for bad in ("bundled:dev[0-5]", "bundled:dev[9-3]", "bundled:dev[a-b]"):
        with pytest.raises(InputError, match=r"\[A-B\]"):
            split_spec(bad)
    examples = [make_example(f"q{i}", f"Question {i}?", ["a"], []) for i in range(1, 101)]
    dev, test = in_range(examples, (1, 50), "dev"), in_range(examples, (51, 100), "test")
    assert (dev[0].qid, dev[-1].qid, test[0].qid, len(test)) == ("q1", "q50", "q51", 50)
    assert len(in_range(examples, (1, 50), "dev", limit=20)) == 20
    refuse_overlap({"train": [], "dev": dev, "test": test})
    with pytest.raises(InputError, match="dev and test splits share 10 questions"):
        refuse_overlap({"dev": dev, "test": in_range(examples, (41, 60), "test")})
    with pytest.raises(InputError, match="the dataset has 100 questions"):
        in_range(examples, (101, 120), "test")


def test_optimize_refuses_overlapping_splits_before_the_retriever_and_lm_load(hopkit_home, capsys):
    from hopkit.cli.main import main

    rc = main(["optimize", "--method", "oner", "--demos", "none", "--dev", "bundled:dev[1-20]",
               "--test", "bundled:dev[11-30]", "--trials", "1"])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "share 10 questions" in err and len(err.splitlines()) == 1


def test_optimize_refuses_a_negative_pruner_startup_before_the_study_opens(hopkit_home, tmp_path, capsys):
    from hopkit.cli.main import main

    folder = tmp_path / "study"
    (tmp_path / "study.toml").write_text("prune_startup = -1\n")
    rc = main(["optimize", "--method", "oner", "--demos", "none", "--dev", "bundled:dev[1-20]",
               "--trials", "1", "--config", str(tmp_path / "study.toml"), "--out", str(folder)])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "startup must be 0 or more" in err and len(err.splitlines()) == 1
    assert not folder.exists()  # refused before the storage, retriever and LM were opened


def _pruning_study(values_on_full_dev):
    from optuna.distributions import IntDistribution

    study = optuna.create_study(direction="maximize")
    dist = {"k": IntDistribution(1, 20)}
    states = {1: ("COMPLETE", 6), 2: ("PRUNED", 2), 3: ("PRUNED", 4), 4: ("COMPLETE", 6)}
    for k, (state, n) in states.items():
        study.add_trial(optuna.trial.create_trial(
            params={"k": k}, distributions=dist, state=getattr(optuna.trial.TrialState, state),
            values=[values_on_full_dev[k]] if state == "COMPLETE" else None,
            intermediate_values={1: 0.1}, user_attrs={"n": n}))
    return study


@pytest.mark.parametrize("pruned_best, same", [(0.4, True), (0.9, False)])
def test_the_unpruned_check_counts_questions_and_hours_and_says_whether_the_choice_holds(pruned_best, same):
    from hopkit.data.examples import make_example
    from hopkit.optimize.pruning import check_pruning

    dev = [make_example(f"q{i}", f"Question {i}?", ["a"], []) for i in range(6)]
    full = {1: 0.5, 2: 0.2, 3: pruned_best, 4: 0.6}  # trial 3 was pruned after 4 questions

    def rows(k, count):
        return [{"qid": f"q{i}", "metrics": {"f1": full[k]}, "cost": {"seconds": 360.0, "lm_calls": 1}}
                for i in range(count)]

    answered = {1: 6, 2: 2, 3: 4, 4: 6}
    report = check_pruning(_pruning_study(full), dev, "f1", lambda knobs: rows(knobs["k"], answered[knobs["k"]]),
                           lambda knobs: rows(knobs["k"], 6))
    assert (report.settings, report.questions_pruned, report.questions_unpruned) == (4, 18, 24)
    assert (report.lm_hours_pruned, report.lm_hours_unpruned) == (1.8, 2.4) and report.share == 0.75
    assert report.chosen_pruned == {"k": 4} and report.same_setting is same
    assert report.chosen_unpruned == ({"k": 4} if same else {"k": 3})
    assert ("the same" if same else "not the same") in report.line()


def test_the_pruner_is_a_choice():
    from hopkit.optimize.study import make_pruner

    assert isinstance(make_pruner("halving"), optuna.pruners.SuccessiveHalvingPruner)
    assert isinstance(make_pruner("none"), optuna.pruners.NopPruner)
    with pytest.raises(ValueError, match="unknown pruner"):
        make_pruner("hyperband")


def test_a_study_with_the_unpruned_check_reports_it_in_its_summary(tmp_path):
    from dataclasses import replace

    configure()
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    halving = replace(request(tmp_path, storage, trials=3), pruning=PruningSettings("halving", unpruned_check=True))
    result = optimize(halving, TableRetriever(), None, say=lambda text: None)
    summary = json.loads(result.summary_path.read_text())
    assert summary["pruner"] == "halving" and summary["pruning"]["questions_unpruned"] == 3 * 4
    assert summary["pruning"]["same_setting"] in (True, False) and summary["questions_answered"]["questions"] >= 4
    from hopkit.optimize.summary import summary_rows

    assert "questions answered by the trials and the unpruned check: " in summary_rows(summary)


def test_every_demonstration_says_where_it_came_from_and_none_shows_a_held_out_question():
    from hopkit.data.examples import make_example
    from hopkit.errors import InputError
    from hopkit.optimize.demos import demo_sources, refuse_held_out

    train = [make_example("t1", "Who made Atlas?", ["Kellis"], []), make_example("t2", "Where is Morn?", ["Tarn"], [])]
    dev = [make_example("d1", "Who wrote Brand?", ["Ibsen"], [])]
    state = {"reason": {"demos": [{"question": "Who made Atlas?", "augmented": True},
                                  {"question": "where is morn", "answer": "Tarn"}]},
             "read": {"demos": [{"question": "Kellis was born where?"}]}, "lm": None}
    records = demo_sources(state, train, dev)
    assert records[0] == {"predictor": "reason", "position": 0, "source": "bootstrapped", "train_qid": "t1"}
    assert records[1]["source"] == "labeled" and records[1]["train_qid"] == "t2"
    assert records[2]["source"].startswith("labeled (no split question")
    refuse_held_out(records)
    leaked = demo_sources({"reason": {"demos": [{"question": "Who wrote Brand?"}]}}, train, dev)
    with pytest.raises(InputError, match="from train only"):
        refuse_held_out(leaked)


def test_the_saved_program_scores_the_studys_test_figure_again(tmp_path):
    from hopkit.evaluation.harness import evaluate
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog
    configure()
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    test = tiny_dataset("test", 4).examples
    result = optimize(request(tmp_path, storage, trials=2, demos="labeled", test=test), TableRetriever(), None,
                      say=lambda text: None)
    program = load_program(result.program_dir, retriever=TableRetriever())
    again = evaluate(program, test, [get_metric("f1")], RunLog(tmp_path / "again.jsonl", {}), progress=False)
    assert again.metrics["f1"] == pytest.approx(result.test_scores["f1"])
    sources = read_manifest(result.program_dir)["demo_sources"]
    assert sources and all(s.get("train_qid", "").startswith("train") for s in sources if "train_qid" in s)


def test_a_one_trial_study_scores_the_papers_setting_on_dev_and_test_once(tmp_path):
    """The demonstration studies (scripts/optimize_real_queue.sh) hold the knobs at the paper's setting: one trial."""
    configure()
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    result = optimize(request(tmp_path, storage, trials=1, test=tiny_dataset("test", 3).examples), TableRetriever(),
                      None, say=lambda text: None)
    summary = json.loads(result.summary_path.read_text())
    assert summary["trials"] == 1 and summary["default_trial"] == summary["best_trial"] == 0
    assert result.knobs == profile_defaults(search_space("oner"))
    assert summary["test"]["best"] == summary["test"]["default"]
    assert sorted(p.name for p in (tmp_path / "test").glob("*.jsonl")) == ["best-0.jsonl"]


def test_optimize_keeps_to_its_concerns_and_takes_the_rest_from_the_study_file(hopkit_home, tmp_path, capsys):
    """The command has at most 18 options of its own, beside the LM flags every verb shares; a study file sets the
    others (typed and checked), and a wrong key or type is one line."""
    from hopkit.cli.main import build_parser, main
    from hopkit.cli.study_file import apply_study_file

    parser = build_parser()
    verb = next(a for a in parser._actions if hasattr(a, "choices") and a.choices and "optimize" in a.choices)
    optimize = verb.choices["optimize"]
    shared = {"--api-base", "--api-key", "--max-tokens", "--no-cache", "--lm-timeout"}
    assert len([a for a in optimize._actions if a.option_strings and not shared & set(a.option_strings)]) <= 18
    study = tmp_path / "study.toml"
    study.write_text('method = "oner"\npruner = "halving"\nslices = 5\nretriever = "bm25"\nunpruned_check = true\n')
    args = parser.parse_args(["optimize", "--config", str(study)])
    apply_study_file(args, required=("method",))
    assert (args.method, args.pruner, args.slices, args.retriever, args.unpruned_check) == (
        "oner", "halving", 5, "bm25", True)
    study.write_text('slices = "five"\n')
    assert main(["optimize", "--method", "oner", "--config", str(study)]) == 2
    assert "slices takes an integer, got 'five'" in capsys.readouterr().err
    study.write_text('prunr = "median"\n')
    assert main(["optimize", "--method", "oner", "--config", str(study)]) == 2
    assert "did you mean 'pruner'" in capsys.readouterr().err


def test_a_quiet_study_draws_no_progress_bar(tmp_path, capsys):
    """DSPy's teleprompters draw their own bars on stderr; a study run without progress keeps them off."""
    configure()
    optimize(request(tmp_path, f"sqlite:///{tmp_path / 'study.db'}", trials=1, demos="bootstrap"), TableRetriever(),
             None, say=lambda text: None)
    assert "%|" not in capsys.readouterr().err


def test_each_setting_log_records_what_retriever_auto_measured_as_eval_does(tmp_path):
    from dataclasses import replace

    from hopkit.optimize.request import setting_meta_of
    from hopkit.spec import RunSpec

    spec = RunSpec(method="oner", dataset="tiny:dev", retriever="colbert", knobs={"k": 5})
    measured = replace(request(tmp_path, None, 1), run_spec=spec, retriever_choice="colbert: recall@5 higher")
    meta = setting_meta_of(measured, "tiny:dev")["setting_meta"]({"k": 7})
    assert meta["retriever"] == "colbert" and meta["knobs"] == {"k": 7}
    assert meta["retriever_choice"] == "colbert: recall@5 higher"
    assert "retriever_choice" not in setting_meta_of(replace(measured, retriever_choice=None), "tiny:dev")[
        "setting_meta"]({"k": 7})
