"""Issue 39's main table, as in the papers: methods as rows, HotpotQA, 2Wiki and MuSiQue as columns
(scripts/datasets_queue.sh's logs). A cell: EM/F1 (n), LM calls per question, recall at the paragraphs the method
read (and how many it read), and the paired F1 difference against OneR at the K that scored best on that set.

    python scripts/datasets_table.py [--root docs/runs/datasets] [--profile hopkit|paper] [--retrieval] [--additions]

--retrieval adds, per dataset, IRCoT's recall at its paragraphs read against one retrieval with the question alone
at the same number of paragraphs per question, from the index IRCoT's run read (the paper's retrieval figure); it
needs the sets' indexes.

--additions: what hopkit's additions do on each set, the hopkit profile's row against the paper profile's
(scripts/datasets_queue.sh's stage 3) on the questions both answered, paired, with the LM calls of each; OneR
at each profile's own best K. Only a difference on a set an addition was not designed on (2Wiki, MuSiQue) speaks
for it in general.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent))

from demos_choice import choose  # noqa: E402
from k_choice import DEFAULT_K, choose_k  # noqa: E402

from hopkit.evaluation.metrics import recall_at  # noqa: E402
from hopkit.evaluation.paired import compare_runs, read_rows  # noqa: E402

DATASETS = {"hotpotqa": "HotpotQA", "2wiki": "2WikiMultihopQA", "musique": "MuSiQue"}
REPO = Path(__file__).resolve().parents[1]
QUEUE_STATUS = REPO / "docs" / "runs" / "datasets" / "queue-status"
METHODS = {"nor": "NoR", "oner": "OneR", "ircot": "IRCoT", "searchain": "SearChain", "tor": "ToR", "cor": "CoR"}


def read(row: dict) -> list[str]:
    return list((row.get("prediction") or {}).get("retrieved") or [])


def best_oner(folder: Path, profile: str) -> tuple[int, dict[str, dict]] | None:
    """OneR's K with the best mean F1 on the sweep's questions, and that K's rows."""
    logs = sorted((folder / f"oner-sweep-{profile}").glob("oner-k*.jsonl"))
    scored = []
    for path in logs:
        rows = read_rows(path)
        if rows:
            k = int(path.name.split("-k")[1].split("-")[0])
            scored.append((mean(r["metrics"]["f1"] for r in rows.values()), -k, k, rows))
    if not scored:
        return None
    _, _, k, rows = max(scored, key=lambda s: s[:2])  # a tie goes to the smaller K
    return k, rows


def method_log(folder: Path, method: str, profile: str,
               code_time: Callable[[str], int] | None = None) -> tuple[Path | None, dict[str, dict]]:
    """The method's longest log for the profile (stage 2 grows the chosen demonstrations' log); at equal lengths
    the log of the demonstrations scripts/demos_choice.py chose, at the K scripts/k_choice.py chose (IRCoT and
    SearChain: stage 2 may hold a log at the default K and one at the sweep's K), and of those the one the newest
    code wrote: a rerun of the chosen log's settings at a later commit (its name the chosen log's plus a suffix,
    its metadata the same; the commit from the queue's start lines) replaces it. (None, {}) when there is none."""
    names = [f"{method}-{profile}*.jsonl"] + (["nor-hopkit*.jsonl"] if method == "nor" else [])
    chosen, _ = choose(folder, method)
    ends = (f"-{chosen}",)
    if method in DEFAULT_K:
        k = choose_k(folder, method, chosen, profile)[0]
        ends = (f"-{chosen}-k{k}",) if k != DEFAULT_K[method] else ends
    logs = [(path, read_rows(path)) for pattern in names for path in folder.glob(pattern)]
    chosen_log = next((path for path, _ in logs if path.stem.endswith(ends)), None)
    chosen_settings = settings(chosen_log) if chosen_log else None
    commits = log_commits(folder)
    time_of = code_time or commit_time

    def rank(log: tuple[Path, dict[str, dict]]) -> tuple[int, bool, int]:
        path, rows = log
        rerun = (chosen_settings is not None and path.stem.startswith(f"{chosen_log.stem}-")
                 and settings(path) == chosen_settings)
        commit = commits.get(path.stem)
        return len(rows), path == chosen_log or rerun, time_of(commit) if commit else 0

    return max(logs, key=rank, default=(None, {}))


def settings(log: Path) -> dict | None:
    """The run's metadata (dataset, demonstrations, knobs, retriever, LM), or None without it."""
    meta = log.with_suffix(".meta.json")
    return json.loads(meta.read_text()) if meta.is_file() else None


def log_commits(folder: Path) -> dict[str, str]:
    """Each log's code commit in the folder: the last queue start line for it ("start SET/NAME n=N TIME COMMIT"),
    from the folder's root's queue-status, or the raw runs' when the folder is a replayed copy."""
    status = next((path for path in (folder.parent / "queue-status", QUEUE_STATUS) if path.is_file()), None)
    commits: dict[str, str] = {}
    for line in status.read_text().splitlines() if status else []:
        parts = line.split()
        if len(parts) == 5 and parts[0] == "start" and parts[1].startswith(f"{folder.name}/"):
            commits[parts[1].split("/", 1)[1]] = parts[4]
    return commits


@lru_cache(maxsize=None)
def commit_time(commit: str) -> int:
    """The commit's time in this repository (0 when git or the commit is missing)."""
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%ct", commit], capture_output=True, text=True,
                             cwd=REPO, check=True).stdout.strip()
        return int(out)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 0


def method_rows(folder: Path, method: str, profile: str) -> dict[str, dict]:
    return method_log(folder, method, profile)[1]


def cell(rows: dict[str, dict], oner: dict[str, dict] | None) -> str:
    if not rows:
        return "-"
    values = list(rows.values())
    em, f1 = (100 * mean(r["metrics"].get(m, 0.0) for r in values) for m in ("em", "f1"))
    calls = mean_calls(rows)
    recall = 100 * mean(recall_at(read(r), r["gold_pids"], max(1, len(read(r)))) for r in values)
    count = mean(len(read(r)) for r in values)
    text = f"{em:.1f}/{f1:.1f} (n={len(values)}) · {calls:.1f} calls · R {recall:.1f}@{count:.1f}"
    if oner is not None and rows is not oner:
        shared = {q: oner[q] for q in rows if q in oner}
        if shared:
            text += f" · {paired_f1(shared, {q: rows[q] for q in shared})} (n={len(shared)})"
    return text


def mean_calls(rows: dict[str, dict]) -> float:
    return mean(float((r.get("cost") or {}).get("lm_calls", 0) or 0) for r in rows.values())


def paired_f1(base: dict[str, dict], other: dict[str, dict]) -> str:
    """other - base F1 x 100 on their shared questions, with its paired 95% interval (`*`: it excludes 0)."""
    d = compare_runs(base, other, ["f1"]).differences[0]
    return f"{100 * d.diff:+.1f}{'*' if d.significant else ''} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"


def table(root: Path, profile: str) -> str:
    columns = [name for name in DATASETS if (root / name).is_dir()]
    head = ["method", *(DATASETS[name] for name in columns)]
    grid: dict[str, list[str]] = {label: [] for label in METHODS.values()}
    for name in columns:
        folder = root / name
        oner = best_oner(folder, profile)
        oner_rows = oner[1] if oner else None
        for method, label in METHODS.items():
            if method == "oner":
                grid[label].append(cell(oner_rows or {}, None).replace(" (n=", f" K={oner[0]} (n=", 1)
                                   if oner else "-")
            else:
                rows = method_rows(folder, method, profile)
                text = cell(rows, oner_rows)
                ks = {(r.get("trace") or {}).get("k") for r in rows.values()} if method in ("ircot", "searchain") else set()
                grid[label].append(text.replace(" (n=", f" K={ks.pop()} (n=", 1) if len(ks) == 1 and None not in ks
                                   else text)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join([label, *cells]) + " |" for label, cells in grid.items() if any(c != "-" for c in cells)]
    return "\n".join(lines)


def additions_table(root: Path) -> str:
    """Per method and set: hopkit - paper F1, paired, on their shared questions, with each profile's LM calls."""
    columns = [name for name in DATASETS if (root / name).is_dir()]
    lines = ["| method | " + " | ".join(DATASETS[name] for name in columns) + " |", "|" + "---|" * (len(columns) + 1)]
    for method, label in METHODS.items():
        if method == "nor":
            continue  # NoR has no additions: one log serves both profiles
        cells = []
        for name in columns:
            folder = root / name
            hopkit, paper = profile_pair(folder, method)
            shared = sorted(set(hopkit) & set(paper))
            cells.append(additions_cell({q: hopkit[q] for q in shared}, {q: paper[q] for q in shared}))
        if any(c != "-" for c in cells):
            lines.append("| " + " | ".join([label, *cells]) + " |")
    return "\n".join(lines)


def profile_pair(folder: Path, method: str) -> tuple[dict[str, dict], dict[str, dict]]:
    """The hopkit and paper profiles' rows to pair: OneR at the hopkit profile's best K in both (the same K, so that
    the pair measures the additions, not two K choices: the paper sweep's best K is picked on the very questions it
    is scored on), any other method its chosen log."""
    if method != "oner":
        return method_rows(folder, method, "hopkit"), method_rows(folder, method, "paper")
    best = best_oner(folder, "hopkit")
    if not best:
        return {}, {}
    k, hopkit = best
    logs = sorted((folder / "oner-sweep-paper").glob(f"oner-k{k}-*.jsonl"))
    return hopkit, (read_rows(logs[0]) if logs else {})


def additions_cell(hopkit: dict[str, dict], paper: dict[str, dict]) -> str:
    if not hopkit:
        return "-"
    changed = sum(hopkit[q]["metrics"]["f1"] != paper[q]["metrics"]["f1"] for q in hopkit)
    return (f"{paired_f1(paper, hopkit)} (n={len(hopkit)}, {changed} differ) · "
            f"calls {mean_calls(hopkit):.1f} / {mean_calls(paper):.1f}")


def retrieval_figure(root: Path, profile: str) -> list[str]:
    """IRCoT's recall at its paragraphs read against one retrieval with the question at the same count, per
    question, from the index IRCoT's run read (its log's metadata: BM25, or ColBERT where the choice rule took it)."""
    from hopkit.api import load_dataset
    from hopkit.paths import default_index_path
    from hopkit.retrieval.loading import load_index

    specs = {"hotpotqa": "ircot:../shared/data/hotpotqa/dev100.jsonl",
             "2wiki": "2wikimultihopqa:validation@../shared/data/2wiki/dev82.jsonl",
             "musique": "musique:validation@../shared/data/musique/dev100.jsonl"}
    lines = []
    for name, spec in specs.items():
        path, rows = method_log(root / name, "ircot", profile)
        if not rows:
            continue
        backend = json.loads(path.with_suffix(".meta.json").read_text()).get("retriever", "bm25")
        index = load_index(default_index_path(load_dataset(spec).corpus_name, backend))
        ircot, oner = [], []
        for row in rows.values():
            count = max(1, len(read(row)))
            ircot.append(recall_at(read(row), row["gold_pids"], count))
            oner.append(recall_at([p.pid for p in index.retrieve(row["question"], count)], row["gold_pids"], count))
        lines.append(f"- {DATASETS[name]} (n = {len(rows)}, {mean(len(read(r)) for r in rows.values()):.1f} "
                     f"paragraphs read, {backend}): IRCoT {100 * mean(ircot):.1f}, one retrieval with the question at "
                     f"the same count {100 * mean(oner):.1f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("docs/runs/datasets"))
    parser.add_argument("--profile", default="hopkit", choices=["hopkit", "paper"])
    parser.add_argument("--retrieval", action="store_true")
    parser.add_argument("--additions", action="store_true", help="hopkit - paper per method and set, paired")
    args = parser.parse_args()
    if not any((args.root / name).is_dir() for name in DATASETS):
        parser.error(f"no dataset folder ({', '.join(DATASETS)}) under {args.root}: pass --root the queue's runs "
                     "(docs/runs/datasets, or docs/runs/datasets-replayed after the replay)")
    if args.additions:
        print(additions_table(args.root))
        return
    print(table(args.root, args.profile))
    if args.retrieval:
        print("\n".join(["", *retrieval_figure(args.root, args.profile)]))


if __name__ == "__main__":
    main()
