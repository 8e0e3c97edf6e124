"""ColBERT at 200k (and 50k) passages on a GPU: the row issue 24 left for a session with one.

    python scripts/colbert_scale_gpu.py prepare .gpu          # here: the MiniLM ColBERT init as an fp16 copy
    python scripts/colbert_scale_gpu.py run .gpu OUT [SIZES [GRID]]  # on the GPU machine (default sizes 200000,50000)

GRID, as ``hopkit bench-retrieval --plaid-grid`` takes it, replaces the three settings below (e.g. to find the
setting that keeps question recall within a point at 200k, which the 50k choice does not).

``run`` does on the GPU what the CPU rows of docs/results.md did on 2 cores, with the same recipe: fine-tune the
MiniLM ColBERT init on the bundled triples (400 steps, as README's train-retriever command), grow the bundled world
to each size, build the PLAID index in a child process (wall time, the child's peak memory, the k-means' own
seconds), then search the hop queries and the dev questions of the first 100 questions in a child per PLAID setting
(p50/p95 latency, batched throughput, recall@1/@15 and question recall@15). The k-means runs in torch on the GPU
(``--kmeans auto``: PyPI's faiss has no GPU build; hopkit/retrieval/colbert/torch_kmeans.py). Every row is appended
to OUT/rows.jsonl as soon as it is measured, so a run stopped at its time limit keeps what it finished.

The device machine has no dspy, so this script calls the library's retrieval and data parts directly (they need
none of it) instead of the ``hopkit`` command line.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

SETTINGS = {  # the PLAID settings of the 50k CPU rows: chosen there, fastest there, and near-exhaustive
    "chosen at 50k": "ncells=2,centroid_score_threshold=0.5,ndocs=1024",
    "fastest at 50k": "ncells=1,centroid_score_threshold=0.5,ndocs=256",
    "near-exhaustive": "ncells=32,centroid_score_threshold=0,ndocs=8192",
}
QUESTIONS = 100
TRAIN_STEPS = 400


def prepare(folder: Path) -> None:
    from cuda_paths import fp16_copy  # scripts/, beside this script

    from hopkit.paths import home
    from hopkit.retrieval.colbert.checkpoints import derive_from_minilm

    source = home() / "checkpoints" / "colbert-minilm"
    if not (source / "model.safetensors").is_file():
        source = derive_from_minilm(source)
    init = folder / "init"
    fp16_copy(source, init)
    print(f"prepared {init}: the MiniLM ColBERT init from {source} (fp16; loaded into fp32 there)")


def world(size: int | None) -> Path:
    from hopkit.data.bundled.build import BundledSpec, build_bundled
    from hopkit.paths import data_dir

    folder = data_dir() / f"world-{size or 'bundled'}"
    if not (folder / "manifest.json").is_file():
        start = time.perf_counter()
        build_bundled(folder, BundledSpec(paragraphs=size))
        print(f"world {size or 'bundled'} built in {time.perf_counter() - start:.0f}s", flush=True)
    return folder


def train(init: Path, out: Path) -> float:
    from hopkit.data.corpus import Corpus
    from hopkit.retrieval.colbert.training import TrainSettings, train_colbert

    bundled = world(None)
    start = time.perf_counter()
    train_colbert(str(init), bundled / "triples.jsonl", Corpus.from_file(bundled / "corpus.jsonl"), out,
                  TrainSettings(steps=TRAIN_STEPS))
    return time.perf_counter() - start


def build_child(corpus_file: Path, checkpoint: str, out: Path) -> None:
    """In a child: build the index and print the k-means' seconds and where it ran."""
    from hopkit.data.corpus import Corpus
    from hopkit.retrieval.colbert import torch_kmeans
    from hopkit.retrieval.colbert.index import build_colbert_index

    timed = {"kmeans_s": 0.0}
    original = torch_kmeans.torch_kmeans

    def kmeans(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            timed["kmeans_s"] += time.perf_counter() - start

    torch_kmeans.torch_kmeans = kmeans
    build_colbert_index(Corpus.from_file(corpus_file), checkpoint, out)
    manifest = json.loads((out / "hopkit-index.json").read_text())
    print(json.dumps({**timed, "kmeans_ran_on": manifest["kmeans_ran_on"]}))


def search_child(index: Path, dev_file: Path, plaid: str) -> None:
    from hopkit.evaluation.scale_bench import measure_search
    from hopkit.retrieval.loading import load_index, parse_plaid

    dev = [json.loads(line) for line in dev_file.read_text().splitlines() if line.strip()][:QUESTIONS]
    items = [(q, pid) for ex in dev for q, pid in zip(ex["hop_queries"], ex["gold_pids"])]
    questions = [(ex["question"], list(ex["gold_pids"])) for ex in dev]
    print(json.dumps(measure_search(load_index(index, parse_plaid(plaid)), items, 15, 32, questions=questions)))


def run(folder: Path, out: Path, sizes: list[int], grid: str | None = None) -> None:
    import torch

    from hopkit.evaluation.scale_bench import _child, folder_mb, plaid_grid
    from hopkit.paths import home

    out.mkdir(parents=True, exist_ok=True)
    rows = out / "rows.jsonl"

    def keep(row: dict) -> None:
        with rows.open("a") as handle:
            handle.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)

    keep({"step": "machine", "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
          "cpu_threads": torch.get_num_threads()})
    checkpoint = home() / "checkpoints" / "colbert-minilm-ft"
    try:
        keep({"step": "train", "steps": TRAIN_STEPS, "seconds": round(train(folder / "init", checkpoint), 1)})
    except Exception as error:  # the timing rows still come, from the init checkpoint, and say so
        keep({"step": "train", "failed": f"{type(error).__name__}: {error}"[:500]})
        checkpoint = folder / "init"
    script = str(Path(__file__).resolve())
    for size in sizes:
        grown = world(size)
        index = home() / "indexes" / f"world-{size}.colbert"
        build_s, build_peak, printed = _child([sys.executable, script, "build-child", str(grown / "corpus.jsonl"),
                                               str(checkpoint), str(index)])
        built = json.loads(printed.strip().splitlines()[-1])
        keep({"step": "build", "passages": size, "checkpoint": checkpoint.name, "build_s": round(build_s, 1), "build_peak_mb": round(build_peak),
              "index_mb": round(folder_mb(index), 1), **built})
        settings = {plaid: plaid for plaid in plaid_grid(grid)} if grid else SETTINGS
        for name, plaid in settings.items():
            _, search_peak, printed = _child([sys.executable, script, "search-child", str(index),
                                              str(grown / "dev.jsonl"), plaid])
            keep({"step": "search", "passages": size, "setting": name, "plaid": plaid,
                  "search_peak_mb": round(search_peak), **json.loads(printed.strip().splitlines()[-1])})


if __name__ == "__main__":
    verb, *args = sys.argv[1:] or ["help"]
    if verb == "prepare":
        prepare(Path(args[0]))
    elif verb == "run":
        os.environ.setdefault("TORCH_EXTENSIONS_DIR", str(Path(args[0]).resolve() / "torch-extensions"))
        run(Path(args[0]), Path(args[1]), [int(s) for s in (args[2] if len(args) > 2 else "200000,50000").split(",")],
            args[3] if len(args) > 3 else None)
    elif verb == "build-child":
        build_child(Path(args[0]), args[1], Path(args[2]))
    elif verb == "search-child":
        search_child(Path(args[0]), Path(args[1]), args[2])
    else:
        sys.exit(__doc__)
