"""Issue 39's table and demonstration choice, read from run logs: OneR at its best K, paired differences against
it, recall at the paragraphs read, and in-domain demonstrations only when they score higher."""

from __future__ import annotations

import json
from pathlib import Path
from script_loader import load_script


def _log(path: Path, f1: list[float], read: list[list[str]] | None = None, calls: float = 1.0) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [{"qid": f"q{i}", "question": f"Q{i}?", "answers": ["x"], "gold_pids": ["g1", "g2"],
             "prediction": {"answer": "x", "retrieved": (read or [["g1", "n"]] * len(f1))[i]},
             "metrics": {"em": float(s == 1.0), "f1": s}, "cost": {"lm_calls": calls}} for i, s in enumerate(f1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_oner_at_its_best_k_and_each_method_paired_against_it(tmp_path):
    table = load_script("datasets_table")
    folder = tmp_path / "musique"
    _log(folder / "oner-sweep-hopkit" / "oner-k5-bm25__lm.jsonl", [0.0, 0.0, 1.0, 0.0])
    _log(folder / "oner-sweep-hopkit" / "oner-k7-bm25__lm.jsonl", [1.0, 0.0, 1.0, 0.0])
    _log(folder / "ircot-hopkit-zeroshot.jsonl", [1.0, 1.0, 1.0, 0.0], [["g1", "g2", "n"]] * 4, calls=4.0)
    text = table.table(tmp_path, "hopkit")
    oner_line = next(line for line in text.splitlines() if line.startswith("| OneR"))
    ircot_line = next(line for line in text.splitlines() if line.startswith("| IRCoT"))
    assert "K=7" in oner_line and "50.0/50.0" in oner_line and "R 50.0@2.0" in oner_line
    assert "75.0/75.0 (n=4) · 4.0 calls · R 100.0@3.0 · +25.0" in ircot_line
    assert "SearChain" not in text  # no log, no row


def test_in_domain_demonstrations_only_when_they_score_higher(tmp_path):
    choice = load_script("demos_choice")
    _log(tmp_path / "tor-hopkit-zeroshot.jsonl", [1.0, 0.0, 0.5])
    _log(tmp_path / "tor-hopkit-indomain.jsonl", [1.0, 0.0, 0.5, 1.0])  # the winner's log grew in stage 2
    _log(tmp_path / "ircot-hopkit-zeroshot.jsonl", [0.0, 0.0])
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [1.0, 0.0])
    assert choice.choose(tmp_path, "tor")[0] == "zeroshot"  # a tie on the shared questions: the cheaper prompt
    winner, why = choice.choose(tmp_path, "ircot")
    assert winner == "indomain" and "+50.0" in why and "n = 2" in why
    assert choice.choose(tmp_path, "searchain") == ("zeroshot", "no stage-1 comparison yet")


def test_hopkits_own_demonstrations_compete_and_a_tie_goes_to_the_cheaper_prompt(tmp_path):
    choice = load_script("demos_choice")
    _log(tmp_path / "ircot-hopkit-zeroshot.jsonl", [0.0, 0.0, 1.0])
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [1.0, 0.0, 1.0, 1.0])
    _log(tmp_path / "ircot-hopkit-wikidemos.jsonl", [1.0, 0.0, 1.0])
    winner, why = choice.choose(tmp_path, "ircot")  # in-domain ties hopkit:wiki on the shared three
    assert winner == "wikidemos" and "hopkit:wiki - zero-shot F1 +33.3" in why and "n = 3" in why
    _log(tmp_path / "ircot-hopkit-wikidemos.jsonl", [0.0, 0.0, 1.0])
    assert choice.choose(tmp_path, "ircot")[0] == "indomain"

def test_a_stage_1_choice_must_hold_on_the_questions_stage_2_adds_or_zero_shot_takes_over(tmp_path):
    choice = load_script("demos_choice")
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [0.0, 0.0, 0.0])  # stage 1 only: the first three questions
    _log(tmp_path / "ircot-hopkit-wikidemos.jsonl", [1.0, 0.0, 1.0, 1.0, 0.0])
    _log(tmp_path / "ircot-hopkit-zeroshot.jsonl", [0.0, 0.0, 1.0])
    assert choice.choose(tmp_path, "ircot")[0] == "wikidemos"  # zero-shot not grown yet: stage 1's choice
    _log(tmp_path / "ircot-hopkit-zeroshot.jsonl", [0.0, 0.0, 1.0, 1.0, 0.0])  # ties on the unseen two
    winner, why = choice.choose(tmp_path, "ircot")
    assert winner == "zeroshot" and "on the 2 questions stage 1 never saw" in why and "not held" in why
    assert choice.choose(tmp_path, "ircot", held_out=False)[0] == "wikidemos"  # what the queue keeps growing
    _log(tmp_path / "ircot-hopkit-zeroshot.jsonl", [0.0, 0.0, 1.0, 0.0, 0.0])  # loses on them: the choice holds
    winner, why = choice.choose(tmp_path, "ircot")
    assert winner == "wikidemos" and why.endswith("(held)")


def test_the_table_reads_the_chosen_demonstrations_log_when_both_have_the_same_questions(tmp_path):
    table = load_script("datasets_table")
    _log(tmp_path / "ircot-hopkit-zeroshot.jsonl", [1.0, 0.5])  # stage 1: zero-shot wins, in-domain sorts first
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [0.0, 0.5])
    assert [row["metrics"]["f1"] for row in table.method_rows(tmp_path, "ircot", "hopkit").values()] == [1.0, 0.5]
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [1.0, 1.0])
    assert [row["metrics"]["f1"] for row in table.method_rows(tmp_path, "ircot", "hopkit").values()] == [1.0, 1.0]


def test_ircots_k_is_the_best_f1_of_the_sweep_on_shared_questions_and_a_tie_goes_to_the_smaller_k(tmp_path):
    choice = load_script("k_choice")
    assert choice.choose_k(tmp_path, "ircot", "indomain") == (4, "no K sweep yet")
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [1.0, 0.0, 0.0, 1.0])  # K=4, grown past the sweep's questions
    _log(tmp_path / "ircot-ksweep-hopkit" / "ircot-k2-indomain.jsonl", [1.0, 0.0, 0.0])
    _log(tmp_path / "ircot-ksweep-hopkit" / "ircot-k8-indomain.jsonl", [1.0, 1.0, 0.0])
    _log(tmp_path / "ircot-ksweep-hopkit" / "ircot-k6-zeroshot.jsonl", [1.0, 1.0, 1.0])  # other demonstrations
    assert choice.choose_k(tmp_path, "ircot", "indomain") == (4, "the K sweep is not finished (no log yet for K=6)")
    _log(tmp_path / "ircot-ksweep-hopkit" / "ircot-k6-indomain.jsonl", [0.0, 1.0, 0.0])
    k, why = choice.choose_k(tmp_path, "ircot", "indomain")
    assert k == 8 and "n = 3" in why and "K=4 33.3" in why and "K=6 33.3" in why
    _log(tmp_path / "ircot-ksweep-hopkit" / "ircot-k6-indomain.jsonl", [1.0, 1.0, 0.0])
    assert choice.choose_k(tmp_path, "ircot", "indomain")[0] == 6


def test_a_sweep_stopped_part_way_chooses_nothing(tmp_path):
    choice = load_script("k_choice")  # session 55: a queue restarted during K=6 grew K=6, the best of its 3 questions
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [0.0, 0.0, 0.0, 0.0])
    _log(tmp_path / "ircot-ksweep-hopkit" / "ircot-k2-indomain.jsonl", [0.0, 0.0, 0.0, 0.0])
    _log(tmp_path / "ircot-ksweep-hopkit" / "ircot-k6-indomain.jsonl", [1.0])
    _log(tmp_path / "ircot-ksweep-hopkit" / "ircot-k8-indomain.jsonl", [])
    assert choice.choose_k(tmp_path, "ircot", "indomain") == (
        4, "the K sweep is not finished (K=6 at 1 of 4, K=8 at 0 of 4)")


def test_searchains_k_starts_from_the_papers_top_1_and_moves_only_on_a_higher_f1(tmp_path):
    choice = load_script("k_choice")
    assert choice.choose_k(tmp_path, "searchain", "zeroshot") == (1, "no K sweep yet")
    _log(tmp_path / "searchain-hopkit-zeroshot.jsonl", [1.0, 0.0])
    _log(tmp_path / "searchain-ksweep-hopkit" / "searchain-k3-zeroshot.jsonl", [0.0, 1.0])
    assert choice.choose_k(tmp_path, "searchain", "zeroshot")[0] == 1  # a tie: fewer paragraphs
    _log(tmp_path / "searchain-ksweep-hopkit" / "searchain-k3-zeroshot.jsonl", [1.0, 1.0])
    assert choice.choose_k(tmp_path, "searchain", "zeroshot")[0] == 3


def test_check_firings_count_changes_and_their_direction_wherever_the_trace_keeps_them():
    firings = load_script("check_firings")
    rows = {"q1": {"answers": ["Ada Pell"], "trace": {"reader_output": {"option_check": {
                "before": "Pell", "after": "Ada Pell"}}}},
            "q2": {"answers": ["no"], "trace": {"yes_no_check": {"before": "No", "after": "no"}}},
            "q3": {"answers": ["1990"], "trace": {"steps": [{"yes_no_check": {"before": "1990", "after": "yes"}}],
                                                  "option_check": None}}}
    counts = firings.count(rows)
    assert counts["option_check"] == {"fired": 1, "changed": 1, "right_to_wrong": 0, "wrong_to_right": 1,
                                      "worse": 0, "better": 1}
    assert counts["yes_no_check"]["fired"] == 2 and counts["yes_no_check"]["changed"] == 1
    assert counts["yes_no_check"]["right_to_wrong"] == 1 and counts["short_form"]["fired"] == 0


def test_a_k_chosen_on_the_sweep_must_hold_on_the_questions_stage_2_adds(tmp_path):
    choice = load_script("k_choice")
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [0.0, 0.0, 1.0, 1.0])  # K=4 in stage 2
    for k, f1 in ((2, [0.0, 0.0]), (6, [1.0, 0.0]), (8, [0.0, 0.0])):
        _log(tmp_path / "ircot-ksweep-hopkit" / f"ircot-k{k}-indomain.jsonl", f1)
    assert choice.choose_k(tmp_path, "ircot", "indomain")[0] == 6  # the sweep's two: not grown yet
    _log(tmp_path / "ircot-hopkit-indomain-k6.jsonl", [1.0, 0.0, 1.0, 0.0])  # K=6 grown: loses on the unseen two
    k, why = choice.choose_k(tmp_path, "ircot", "indomain")
    assert k == 4 and "on the 2 questions the sweep never read, K=6 - K=4 F1 -50.0" in why and "not held: K=4" in why
    assert choice.choose_k(tmp_path, "ircot", "indomain", held_out=False)[0] == 6  # what the queue keeps growing
    _log(tmp_path / "ircot-hopkit-indomain-k6.jsonl", [1.0, 0.0, 1.0, 1.0])  # ties on them: the smaller K
    assert choice.choose_k(tmp_path, "ircot", "indomain")[0] == 4
    _log(tmp_path / "ircot-hopkit-indomain-k6.jsonl", [1.0, 0.0, 1.0, 1.0, 1.0])
    _log(tmp_path / "ircot-hopkit-indomain.jsonl", [0.0, 0.0, 1.0, 1.0, 0.0])
    k, why = choice.choose_k(tmp_path, "ircot", "indomain")
    assert k == 6 and why.endswith("(held)")


def test_the_table_reads_the_log_at_the_k_that_held(tmp_path):
    table = load_script("datasets_table")
    _log(tmp_path / "ircot-hopkit-zeroshot.jsonl", [0.0, 0.0, 1.0, 1.0])
    for k, f1 in ((2, [0.0, 0.0]), (6, [1.0, 0.0]), (8, [0.0, 0.0])):
        _log(tmp_path / "ircot-ksweep-hopkit" / f"ircot-k{k}-zeroshot.jsonl", f1)
    _log(tmp_path / "ircot-hopkit-zeroshot-k6.jsonl", [1.0, 0.0, 1.0, 1.0])  # held on the unseen two? a tie: K=4
    assert table.method_log(tmp_path, "ircot", "hopkit")[0].name == "ircot-hopkit-zeroshot.jsonl"
    _log(tmp_path / "ircot-hopkit-zeroshot.jsonl", [0.0, 0.0, 1.0, 0.0])  # K=6 leads on them too
    assert table.method_log(tmp_path, "ircot", "hopkit")[0].name == "ircot-hopkit-zeroshot-k6.jsonl"


def test_the_additions_view_pairs_each_methods_hopkit_row_with_its_paper_row_on_shared_questions(tmp_path):
    table = load_script("datasets_table")
    folder = tmp_path / "2wiki"
    _log(folder / "oner-sweep-hopkit" / "oner-k5-bm25__lm.jsonl", [1.0, 0.0, 1.0, 0.0])
    _log(folder / "oner-sweep-paper" / "oner-k5-bm25__lm.jsonl", [1.0, 0.0, 0.0, 0.0])
    _log(folder / "tor-hopkit-zeroshot.jsonl", [1.0, 1.0, 0.0, 0.0], calls=10.0)
    _log(folder / "tor-paper-zeroshot.jsonl", [1.0, 0.0], calls=6.0)  # stage 3a: fewer questions so far
    _log(folder / "ircot-hopkit-zeroshot.jsonl", [1.0, 1.0])  # no paper row: no cell
    text = table.additions_table(tmp_path)
    lines = {line.split(" | ")[0]: line for line in text.splitlines()[2:]}
    assert "+25.0" in lines["| OneR"] and "(n=4, 1 differ)" in lines["| OneR"]
    assert "+50.0" in lines["| ToR"] and "(n=2, 1 differ) · calls 10.0 / 6.0" in lines["| ToR"]
    assert "| IRCoT" not in lines and "| NoR" not in lines


def test_the_additions_view_pairs_oner_at_the_hopkit_rows_k_in_both_profiles(tmp_path):
    # the paper sweep's best K (9, picked on the questions it is scored on) is not hopkit's (15): pairing the two
    # best Ks would measure two K choices; the pair is at hopkit's K in both profiles
    table = load_script("datasets_table")
    folder = tmp_path / "2wiki"
    _log(folder / "oner-sweep-hopkit" / "oner-k9-bm25__lm.jsonl", [1.0, 1.0, 0.0, 0.0])
    _log(folder / "oner-sweep-hopkit" / "oner-k15-bm25__lm.jsonl", [1.0, 1.0, 1.0, 0.0])
    _log(folder / "oner-sweep-paper" / "oner-k9-bm25__lm.jsonl", [1.0, 1.0, 1.0, 1.0])
    _log(folder / "oner-sweep-paper" / "oner-k15-bm25__lm.jsonl", [1.0, 0.0, 1.0, 0.0])
    line = next(line for line in table.additions_table(tmp_path).splitlines() if line.startswith("| OneR"))
    assert "+25.0" in line and "(n=4, 1 differ)" in line


def test_a_rerun_of_the_chosen_settings_at_newer_code_replaces_the_older_log(tmp_path):
    table = load_script("datasets_table")
    folder = tmp_path / "musique"
    meta = json.dumps({"method": "ircot", "demos_from": "musique:train", "knobs": {}})
    _log(folder / "ircot-hopkit-zeroshot.jsonl", [0.0, 0.0])  # in-domain demonstrations are chosen
    _log(folder / "ircot-hopkit-indomain.jsonl", [0.0, 0.5])
    _log(folder / "ircot-hopkit-indomain-skipq.jsonl", [1.0, 0.5])  # same settings, a later commit
    _log(folder / "ircot-hopkit-indomain-k6.jsonl", [1.0, 1.0])  # other knobs: never a rerun
    for name, knobs in (("ircot-hopkit-indomain", "{}"), ("ircot-hopkit-indomain-skipq", "{}"),
                        ("ircot-hopkit-indomain-k6", '{"k": 6}')):
        (folder / f"{name}.meta.json").write_text(meta.replace('"knobs": {}', f'"knobs": {knobs}'))
    (tmp_path / "queue-status").write_text(
        "start musique/ircot-hopkit-indomain n=2 01:00:00 aaa\n"
        "start musique/ircot-hopkit-indomain-k6 n=2 02:00:00 ccc\n"
        "start musique/ircot-hopkit-indomain-skipq n=2 03:00:00 bbb\n")
    times = {"aaa": 1, "bbb": 2, "ccc": 3}.get
    assert table.method_log(folder, "ircot", "hopkit", code_time=times)[0].name == "ircot-hopkit-indomain-skipq.jsonl"
    older = {"aaa": 2, "bbb": 1, "ccc": 3}.get  # the suffixed log at older code: the chosen log stays
    assert table.method_log(folder, "ircot", "hopkit", code_time=older)[0].name == "ircot-hopkit-indomain.jsonl"
    _log(folder / "ircot-hopkit-indomain.jsonl", [0.0, 0.5, 1.0])  # the longer log still comes first
    assert table.method_log(folder, "ircot", "hopkit", code_time=times)[0].name == "ircot-hopkit-indomain.jsonl"
