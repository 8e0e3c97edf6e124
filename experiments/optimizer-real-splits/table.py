"""The five optimizer studies on real splits (docs/results.md): each study tuned its knobs on dev100's questions
1-50 and scored the paper's setting and the chosen one once on questions 51-100. Per study: dev and test F1 of
both, the paired test difference, LM calls a question; then the difference pooled over the studies' test
questions, resampled within each study.

    python experiments/optimizer-real-splits/table.py
"""

import json
from pathlib import Path

from hopkit.evaluation.paired import compare_runs, read_rows, stratified_paired_bootstrap

HERE = Path(__file__).parent
STUDIES = ["ircot-musique-labeled", "ircot-hotpotqa-labeled", "searchain-musique-labeled",
           "searchain-hotpotqa-labeled", "tor-musique-labeled"]

print("| study | chosen knobs | dev: paper / chosen | test: paper / chosen (n) | chosen - paper on test | "
      "LM calls/q on test: paper / chosen |")
print("|---|---|---|---|---|---|")
groups = []
for name in STUDIES:
    summary = json.loads((HERE / name / "summary.json").read_text())
    best = read_rows(HERE / name / "test" / f"best-{summary['best_trial']}.jsonl.gz")
    default_path = HERE / name / "test" / f"default-{summary['default_trial']}.jsonl.gz"
    paper = read_rows(default_path) if default_path.is_file() else best  # the paper's setting was chosen
    d = compare_runs(paper, best, ["f1"]).differences[0]
    shared = [q for q in paper if q in best]
    groups.append(([paper[q]["metrics"]["f1"] for q in shared], [best[q]["metrics"]["f1"] for q in shared]))
    calls = summary["lm_calls_per_question"]
    print(f"| {name} | {summary['best_knobs']} | {100 * summary['dev']['default']:.1f} / {100 * summary['dev']['best']:.1f} "
          f"| {100 * d.mean_a:.1f} / {100 * d.mean_b:.1f} (n={len(shared)}) | {100 * d.diff:+.1f} "
          f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}] | {calls['test_default']:.2f} / {calls['test_best']:.2f} |")
diff, low, high = stratified_paired_bootstrap(groups)
print(f"\npooled over {sum(len(a) for a, _ in groups)} test questions: chosen - paper = {100 * diff:+.1f} "
      f"[{100 * low:+.1f}, {100 * high:+.1f}]")
