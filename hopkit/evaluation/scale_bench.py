"""Retrieval as the corpus grows: ``hopkit bench-retrieval --sizes 5000,50000,200000``.

For each size (the bundled world grown to N passages) and backend, an index is built in a child process
(wall time and the child's peak memory), its size on disk is summed, and a second child process loads it
and measures single-query p50/p95 latency, batched throughput, and recall@1 and recall@15 of the hop
queries (each single-hop query against the one paragraph that answers it), with its own peak memory.
Children keep one size's memory from bleeding into the next size's figures.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SEARCH_FIELDS = ("p50_ms", "p95_ms", "batch_qps", "recall@1", "recall@15", "question_recall@15", "queries",
                 "search_peak_mb", "device")


@dataclass
class ScaleRow:
    size: int
    backend: str
    build_s: float | None
    index_mb: float
    build_peak_mb: float | None
    search: dict

    def line(self) -> str:
        s = self.search
        build = f"{self.build_s:.1f}" if self.build_s is not None else "(existing)"
        peak = f"{self.build_peak_mb:.0f}" if self.build_peak_mb is not None else "-"
        backend = f"{self.backend} {s['plaid']}" if s.get("plaid") else self.backend
        question = s.get("question_recall@15")
        return (f"| {self.size:,} | {backend} | {s.get('device', 'cpu')} | {build} | {self.index_mb:.1f} | {peak} | "
                f"{s['search_peak_mb']:.0f} | {s['p50_ms']:.1f} | {s['p95_ms']:.1f} | {s['batch_qps']:.1f} | "
                f"{100 * s['recall@1']:.1f} | {100 * s['recall@15']:.1f} | "
                f"{'-' if question is None else f'{100 * question:.1f}'} | {s['queries']} |")


HEADER = ("| passages | backend | device | build s | index MB | build peak MB | search peak MB | p50 ms | p95 ms | "
          "batch q/s | recall@1 | recall@15 | question recall@15 | hop queries |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def _child(command: list[str]) -> tuple[float, float, str]:
    """Run a child; its wall seconds, its own peak resident memory (MB, from wait4) and its stdout."""
    import tempfile

    start = time.perf_counter()
    with tempfile.TemporaryFile(mode="w+") as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
        # to EOF; the child is reaped below, with its resource usage
        out = process.stdout.read() if process.stdout else ""
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            errors.seek(0)
            raise RuntimeError(f"{' '.join(command[2:6])} ... failed: {errors.read().strip()[-400:]}")
    return time.perf_counter() - start, usage.ru_maxrss / 1024, out


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file()) / 2**20


def plaid_grid(spec: str | None) -> list[str]:
    """``ncells=1,2,4;ndocs=256,1024`` -> every combination as a --plaid string (one empty setting if no spec).

    ``|`` joins grids: ``ncells=1,2;ndocs=256|ncells=32;centroid_score_threshold=0;ndocs=8192`` adds one
    near-exhaustive point (every cell probed, no centroid pruning) as the recall reference beside the grid.
    """
    from itertools import product

    if not spec:
        return [""]
    points: list[str] = []
    for grid in (g for g in spec.split("|") if g.strip()):
        axes = []
        for part in (p.strip() for p in grid.split(";") if p.strip()):
            name, _, values = part.partition("=")
            axes.append([f"{name.strip()}={v.strip()}" for v in values.split(",") if v.strip()])
        points += [",".join(point) for point in product(*axes) if ",".join(point) not in points]
    return points


def choose_plaid(rows: list[ScaleRow], tolerance: float = 0.01) -> ScaleRow | None:
    """The fastest setting whose recall@15 is within ``tolerance`` of the best recall any setting reached
    (the near-exhaustive setting in the grid is the reference), on hop queries and, where measured, on whole
    questions too (hop queries name their entity and often reach 100 at every setting)."""
    if not rows:
        return None
    fields = [f for f in ("recall@15", "question_recall@15") if all(r.search.get(f) is not None for r in rows)]
    best = {f: max(r.search[f] for r in rows) for f in fields}
    near = [r for r in rows if all(r.search[f] >= best[f] - tolerance for f in fields)]
    return min(near, key=lambda r: r.search["p50_ms"])


def bench_sizes(sizes: list[int], backends: list[str], n: int, k: int, batch: int, checkpoint: str | None,
                plaid: str | None, say=print, grid: str | None = None, kmeans: str = "auto") -> list[ScaleRow]:
    from hopkit.data.registry import load_dataset_spec
    from hopkit.paths import default_index_path
    from hopkit.retrieval.staging import MANIFEST

    rows = []
    for size in sizes:
        spec = f"bundled:dev@{size}"
        dataset = load_dataset_spec(spec)  # builds the grown world once (seconds)
        for backend in backends:
            folder = default_index_path(dataset.corpus_name, backend)
            build_s = build_peak = None
            if not (folder / MANIFEST).is_file():  # an index built before (by bench-retrieval or hopkit index)
                say(f"indexing {size:,} passages with {backend} ...")
                command = [sys.executable, "-m", "hopkit.cli.main", "index", "--backend", backend, "--dataset", spec]
                if backend == "colbert":
                    if not checkpoint:
                        raise ValueError("ColBERT needs --checkpoint (e.g. "
                                         "~/.cache/hopkit/checkpoints/colbert-minilm-ft)")
                    command += ["--checkpoint", checkpoint, "--kmeans", kmeans]
                build_s, build_peak, _ = _child(command)
            for setting in (plaid_grid(grid) if backend == "colbert" and grid else [plaid or ""]):
                say(f"searching {size:,} passages with {backend} {setting} ...")
                _, search_peak, out = _child([sys.executable, "-m", "hopkit.evaluation.scale_bench", spec, backend,
                                              str(n), str(k), str(batch), setting])
                search = json.loads(out.strip().splitlines()[-1])
                search["search_peak_mb"], search["plaid"] = search_peak, setting
                rows.append(ScaleRow(size, backend, build_s, folder_mb(folder), build_peak, search))
                say(rows[-1].line())
    return rows


def measure_search(retriever, items: list[tuple[str, str]], k: int, batch: int, warmup: int = 3,
                   questions: Sequence[tuple[str, list[str]]] = ()) -> dict:
    """Single-query latency, batched throughput and recall@1/@k over (query, gold pid) items; with
    ``questions`` ((question, gold pids) pairs), also the share of each question's gold pids in its own top k."""
    for query, _ in items[:warmup]:
        retriever.retrieve(query, k)
    latencies, hits1, hitsk = [], 0, 0
    for query, gold in items:
        start = time.perf_counter()
        ranked = [p.pid for p in retriever.retrieve(query, k)]
        latencies.append(1000 * (time.perf_counter() - start))
        hits1 += ranked[:1] == [gold]
        hitsk += gold in ranked
    queries = [q for q, _ in items]
    start = time.perf_counter()
    many = getattr(retriever, "retrieve_batch", None)
    for i in range(0, len(queries), batch):
        chunk = queries[i:i + batch]
        many(chunk, k) if many else [retriever.retrieve(q, k) for q in chunk]
    elapsed = time.perf_counter() - start
    latencies.sort()
    found = [len(set(gold) & {p.pid for p in retriever.retrieve(q, k)}) / len(gold) for q, gold in questions if gold]
    return {"p50_ms": statistics.median(latencies),
            "p95_ms": latencies[min(len(latencies) - 1, int(round(0.95 * (len(latencies) - 1))))],
            "batch_qps": len(queries) / elapsed if elapsed else 0.0, "recall@1": hits1 / len(items),
            f"recall@{k}": hitsk / len(items), "recall@15": hitsk / len(items) if k == 15 else None,
            "question_recall@15": statistics.mean(found) if found and k == 15 else None,
            "queries": len(items), "device": _device()}


def _device() -> str:
    try:
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    except ImportError:
        return "cpu"


def _search_main(spec: str, backend: str, n: int, k: int, batch: int, plaid: str) -> None:
    from hopkit.data.registry import load_dataset_spec
    from hopkit.paths import default_index_path
    from hopkit.retrieval.loading import load_index, parse_plaid

    dataset = load_dataset_spec(spec)
    retriever = load_index(default_index_path(dataset.corpus_name, backend), parse_plaid(plaid) or None)
    items = [(q, pid) for ex in dataset.examples[:n] for q, pid in zip(ex.hop_queries, ex.gold_pids)]
    questions = [(ex.question, list(ex.gold_pids)) for ex in dataset.examples[:n]]
    print(json.dumps(measure_search(retriever, items, k, batch, questions=questions)))


if __name__ == "__main__":
    _search_main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]),
                 sys.argv[6] if len(sys.argv) > 6 else "")
