"""IRCoT's K (paragraphs retrieved per step) for a dataset, tuned as the IRCoT paper tunes it: the K in {2, 4, 6, 8}
with the best answer F1 on the dev questions (its section 4; OneR's K is tuned the same way by
scripts/oner_k_sweep.py). Reads stage 1's logs of scripts/datasets_queue.sh: K=4 is the method's own log
(`ircot-hopkit-<demos>.jsonl`, the default K), the others `ircot-ksweep-hopkit/ircot-k<K>-<demos>.jsonl`. Only the
questions every log holds count; a tie goes to the smaller K (fewer paragraphs read).

    python scripts/ircot_k_choice.py docs/runs/datasets/musique indomain [--explain]
"""

from __future__ import annotations

from pathlib import Path
from statistics import mean

from choice_cli import print_choice
from hopkit.evaluation.paired import read_rows

DEFAULT_K = 4


def k_logs(folder: Path, demos: str, profile: str = "hopkit") -> dict[int, Path]:
    logs = {DEFAULT_K: folder / f"ircot-{profile}-{demos}.jsonl"}
    for path in (folder / f"ircot-ksweep-{profile}").glob(f"ircot-k*-{demos}.jsonl"):
        logs[int(path.name.split("-k")[1].split("-")[0])] = path
    return {k: path for k, path in sorted(logs.items()) if path.exists()}


def choose_k(folder: Path, demos: str, profile: str = "hopkit") -> tuple[int, str]:
    """(K, one line saying why): the default K while the sweep has not run."""
    rows = {k: read_rows(path) for k, path in k_logs(folder, demos, profile).items()}
    if len(rows) < 2:
        return DEFAULT_K, "no K sweep yet"
    shared = set.intersection(*(set(r) for r in rows.values()))
    if not shared:
        return DEFAULT_K, "the sweep's logs share no question"
    f1 = {k: mean(r[q]["metrics"]["f1"] for q in shared) for k, r in rows.items()}
    best = max(f1, key=lambda k: (f1[k], -k))
    return best, f"F1 by K (n = {len(shared)}): " + ", ".join(f"K={k} {100 * v:.1f}" for k, v in f1.items())


def main() -> None:
    print_choice(__doc__, "demos", choose_k, ["zeroshot", "indomain"])


if __name__ == "__main__":
    main()
