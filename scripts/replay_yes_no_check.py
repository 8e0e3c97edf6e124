"""The yes/no check's LM call (hopkit/additions/yes_no_check.py) asked again, with the current code's prompt, on
every call the run logs recorded: the same question, the same answer it was given and the same reasoning. Prints,
per dataset, how the logged decisions and the replayed ones split against the gold verdict, so that a change to
the check's prompt is measured on every question form the logs hold before any run uses it. Calls that had no
reasoning (a direct reader: the check read paragraphs the trace does not keep) are counted and left out.

    python scripts/replay_yes_no_check.py docs/runs/dev100/*.jsonl docs/runs/datasets/*/*.jsonl \
        docs/runs/datasets/*/*/*.jsonl [--lm local:qwen1.5b] [--out rows.jsonl]

Every prompt is evaluated whole, in a cache of its own (`dspy-cache-whole-prompts` under hopkit's home): with
llama.cpp's prefix reuse on, a call's decision can depend on which calls ran before it (the KV of a shared prefix
is computed in other batches), and one of the 38 replayed calls did flip between two replays of the same logs in
another order (session 58). Evaluated whole, a replay gives the same decisions whatever it replays and whatever
the LM cache held.

With --apply DIR, every run log under DIR (a replayed tree: scripts/replay_date_comparison.py's output) is
rewritten in place with the current check's decision on each logged call that had reasoning, its metrics
rescored, so that the tree gives the answers of hopkit's current defaults; per log it prints the calls, the
changed answers and their direction. Asked calls come back from the LM cache.

    python scripts/replay_yes_no_check.py --apply docs/runs/datasets-replayed
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hopkit.cli.environment import apply_defaults  # noqa: E402

apply_defaults()

import dspy  # noqa: E402

from hopkit.additions.records import step_records  # noqa: E402
from hopkit.additions.yes_no_check import YesNoCheck, verdict_of  # noqa: E402
from hopkit.lm.factory import LMSpec, make_lm  # noqa: E402
from hopkit.paths import home  # noqa: E402
from replay_date_comparison import reasoning_of, rescored  # noqa: E402


def dataset_of(log: Path) -> str:
    """2wiki or musique from the folder the queue wrote; HotpotQA for the dev100, profiles and tasks logs."""
    parts = log.parts
    for name in ("2wiki", "musique"):
        if name in parts:
            return name
    return "hotpotqa"


def logged_calls(logs: list[Path]) -> tuple[dict[tuple[str, str, str], dict], int]:
    """Each distinct (question, answer given, reasoning) the check was called on, with its gold verdict and the
    logged decision; and how many calls had no reasoning."""
    calls: dict[tuple[str, str, str], dict] = {}
    without_reasoning = 0
    for log in logs:
        for line in log.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            trace = row.get("trace") or {}
            gold = verdict_of(str((row.get("answers") or [""])[0]))
            for step, record in step_records(trace):
                if step != "yes_no_check" or not record.get("call") or record.get("parse_error") or gold is None:
                    continue
                reasoning = reasoning_of(trace)
                if not reasoning.strip():
                    without_reasoning += 1
                    continue
                key = (row["question"], str(record["before"]), reasoning)
                calls.setdefault(key, {"dataset": dataset_of(log), "gold": gold, "logged": str(record["after"]),
                                       "method": trace.get("method"), "logs": []})["logs"].append(str(log))
    return calls, without_reasoning


def apply(folder: Path, check: YesNoCheck) -> None:
    """Each log under folder rewritten with the current check's decisions (see the module's docstring)."""
    for log in sorted(folder.rglob("*.jsonl")):
        rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
        counts = Counter()
        for row in rows:
            trace = row.get("trace") or {}
            record = next((r for step, r in step_records(trace) if step == "yes_no_check"), None)
            reasoning = reasoning_of(trace)
            if row.get("error") or not record or not record.get("call") or not reasoning.strip():
                continue
            counts["calls"] += 1
            decided, new_record = check(row["question"], str(record["before"]), reasoning)
            if decided == (row.get("prediction") or {}).get("answer"):
                continue
            metrics = rescored(row, decided)
            counts["changed"] += 1
            counts["wrong_to_right"] += metrics.get("em", 0) > row["metrics"].get("em", 0)
            counts["right_to_wrong"] += metrics.get("em", 0) < row["metrics"].get("em", 0)
            _replace_record(trace, {**(new_record or record), "replayed": True})
            row["prediction"] = {**row["prediction"], "answer": decided}
            row["metrics"] = metrics
        if counts["changed"]:
            log.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        if counts["calls"]:
            print(f"{log}: calls {counts['calls']}, changed {counts['changed']}, wrong_to_right "
                  f"{counts['wrong_to_right']}, right_to_wrong {counts['right_to_wrong']}", flush=True)


def _replace_record(trace: object, record: dict) -> bool:
    """The trace's yes_no_check record swapped for the replayed one, wherever the method keeps it."""
    if isinstance(trace, dict):
        for key, value in trace.items():
            if key == "yes_no_check" and isinstance(value, dict) and "before" in value:
                trace[key] = record
                return True
            if _replace_record(value, record):
                return True
    elif isinstance(trace, list):
        return any(_replace_record(value, record) for value in trace)
    return False


def split(rows: list[dict], field: str) -> str:
    counts = Counter((row["gold"], verdict_of(row[field]) or "kept") for row in rows)
    right = counts[("yes", "yes")] + counts[("no", "no")]
    return (f"{right}/{len(rows)} right; gold yes -> yes {counts[('yes', 'yes')]}, no {counts[('yes', 'no')]}; "
            f"gold no -> no {counts[('no', 'no')]}, yes {counts[('no', 'yes')]}; "
            f"undecided {sum(v for (g, d), v in counts.items() if d == 'kept')}")


def whole_prompt_lm(model: str) -> dspy.LM:
    """The LM with every prompt evaluated whole, its answers cached apart from those of prefix-reusing runs."""
    dspy.configure_cache(disk_cache_dir=str(home() / "dspy-cache-whole-prompts"))
    return make_lm(LMSpec(model=model, whole_prompts=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="*")
    parser.add_argument("--apply", type=Path, default=None, help="rewrite the run logs under this folder in place")
    parser.add_argument("--lm", default="local:qwen1.5b")
    parser.add_argument("--out", type=Path, default=None, help="one JSON line per call: inputs, logged, replayed")
    args = parser.parse_args()
    if args.apply:
        dspy.configure(lm=whole_prompt_lm(args.lm))
        apply(args.apply, YesNoCheck(restatement=False))
        return
    calls, without_reasoning = logged_calls(args.logs)
    print(f"{len(calls)} distinct calls with reasoning; {without_reasoning} logged calls without reasoning left out",
          flush=True)
    dspy.configure(lm=whole_prompt_lm(args.lm))
    check = YesNoCheck(restatement=False)  # the call itself: the logged answers reached it past the restatement
    rows = []
    for i, ((question, before, reasoning), found) in enumerate(calls.items(), 1):
        answer, _ = check(question, before, reasoning)
        rows.append({**found, "question": question, "before": before, "reasoning": reasoning, "replayed": answer})
        print(f"[{i}/{len(calls)}] {found['dataset']} gold {found['gold']} logged {found['logged']!r} "
              f"replayed {answer!r}", flush=True)
    if args.out:
        args.out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    for dataset in sorted({row["dataset"] for row in rows}):
        mine = [row for row in rows if row["dataset"] == dataset]
        print(f"\n{dataset} ({len(mine)} calls)\n  logged:   {split(mine, 'logged')}\n  replayed: {split(mine, 'replayed')}")


if __name__ == "__main__":
    main()
