"""The CUDA paths, measured on a GPU machine against the CPU paths on the same machine.

    python scripts/cuda_paths.py prepare .gpu [CHECKPOINT]   # here: checkpoint (fp16 copy) and bundled data
    python scripts/cuda_paths.py run .gpu OUT            # on the GPU machine

``run`` builds a ColBERT index over the bundled corpus and searches the dev hop queries on CUDA,
then does the same in a child process with CUDA hidden, and compares: build time, query latency,
recall@1/5 and whether both paths rank the same passages. The extractive reader is timed the same
way on a randomly initialised BERT-base QA model (no QA weights can be downloaded here): its speed
is the model's size, not its weights, and the agreement of fp16-on-CUDA with fp32-on-CPU spans is
the check that the fp16 path picks the same spans. The checkpoint travels as an fp16 copy to fit the
device machine's transfer limit; both paths load that same copy (into fp32), so they compare alike.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

READER_QUESTIONS = 200
LATENCY_QUERIES = 200


def fp16_copy(source: Path, out: Path) -> None:
    """A checkpoint folder with its weights in fp16 (half the transfer; loaded back into fp32 where it runs)."""
    import shutil

    from safetensors.torch import load_file, save_file

    out.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        if item.is_file() and item.name != "model.safetensors":
            shutil.copy(item, out / item.name)
    weights = load_file(source / "model.safetensors")
    save_file({k: v.half() if v.is_floating_point() else v for k, v in weights.items()},
              out / "model.safetensors", metadata={"format": "pt"})


def prepare(folder: Path, checkpoint: Path | None = None) -> None:
    """``checkpoint``: any MiniLM ColBERT checkpoint folder (default: the one fine-tuned on the bundled triples);
    the check compares the two paths on the same weights, so which fine-tuning it had does not matter."""
    import shutil

    from hopkit.paths import home

    source = checkpoint or home() / "checkpoints" / "colbert-minilm-ft"
    fp16_copy(source, folder / "checkpoint")
    data = folder / "data"
    data.mkdir(exist_ok=True)
    bundled = max((home() / "data").glob("bundled-v*"), key=lambda p: int(p.name.rsplit("v", 1)[1]))
    for name in ("corpus.jsonl", "dev.jsonl"):
        shutil.copy(bundled / name, data / name)
    print(f"prepared {folder}: checkpoint from {source} (fp16), data from {bundled}")


def random_reader(folder: Path, tokenizer_source: Path) -> Path:
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForQuestionAnswering

    model_dir = folder / "random-bert-base-qa"
    if not (model_dir / "config.json").is_file():
        tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_source))
        torch.manual_seed(0)
        BertForQuestionAnswering(BertConfig(vocab_size=len(tokenizer))).save_pretrained(model_dir)
        tokenizer.save_pretrained(model_dir)
    return model_dir


def measure(label: str, folder: Path, work: Path) -> dict:
    import torch

    from hopkit.data.corpus import Corpus
    from hopkit.reader.extractive import ExtractiveReader
    from hopkit.retrieval.colbert.index import build_colbert_index
    from hopkit.retrieval.colbert.retriever import ColBERTRetriever

    # colbert-ai compiles its C++/CUDA extensions on first use: into the work folder, so the first build's time
    # includes compiling them (and the CPU child's own build its CPU ones)
    os.environ.setdefault("TORCH_EXTENSIONS_DIR", str(work / "torch-extensions"))
    device = "cuda" if torch.cuda.is_available() else "cpu"
    assert device == label, f"asked for {label} but torch sees {device}"
    corpus = Corpus.from_file(folder / "data" / "corpus.jsonl")
    dev = [json.loads(line) for line in (folder / "data" / "dev.jsonl").read_text().splitlines() if line.strip()]
    hops = [(q, pid) for ex in dev for q, pid in zip(ex["hop_queries"], ex["gold_pids"])]

    start = time.perf_counter()
    index = build_colbert_index(corpus, str(folder / "checkpoint"), work / f"{label}.colbert")
    build_s = time.perf_counter() - start
    start = time.perf_counter()  # again, now that colbert-ai's extensions are compiled and cached
    build_colbert_index(corpus, str(folder / "checkpoint"), work / f"{label}-again.colbert")
    rebuild_s = time.perf_counter() - start
    retriever = ColBERTRetriever(index)
    latencies = []
    for query, _ in hops[:LATENCY_QUERIES]:
        t = time.perf_counter()
        retriever.retrieve(query, k=10)
        latencies.append(1000 * (time.perf_counter() - t))
    t = time.perf_counter()
    ranked = retriever.retrieve_batch([q for q, _ in hops], k=10)
    batch_s = time.perf_counter() - t
    top = [[p.pid for p in row] for row in ranked]

    reader = ExtractiveReader(str(random_reader(work, folder / "checkpoint")), device=device)
    items = [(ex["question"], retriever.retrieve(ex["question"], k=5)) for ex in dev[:READER_QUESTIONS]]
    reader.read_batch(items[:4])  # warm up (CUDA context, kernels)
    t = time.perf_counter()
    spans = reader.read_batch(items)
    read_s = time.perf_counter() - t
    return {
        "device": device, "gpu": torch.cuda.get_device_name(0) if device == "cuda" else None,
        "torch": torch.__version__, "threads": torch.get_num_threads(), "passages": len(corpus),
        "index_build_s": round(build_s, 1), "index_rebuild_s": round(rebuild_s, 1), "queries": len(hops),
        "latency_p50_ms": round(statistics.median(latencies), 1),
        "latency_p95_ms": round(statistics.quantiles(latencies, n=20)[18], 1),
        "batch_queries_per_s": round(len(hops) / batch_s, 1),
        "recall_at_1": sum(pid in row[:1] for row, (_, pid) in zip(top, hops)) / len(hops),
        "recall_at_5": sum(pid in row[:5] for row, (_, pid) in zip(top, hops)) / len(hops),
        "top": top, "reader_pairs": sum(len(p) for _, p in items), "reader_s": round(read_s, 2),
        "reader_dtype": str(reader.model.dtype),
        "spans": [(s.pid, s.text, s.score) for s in spans],
    }


def compare(gpu: dict, cpu: dict) -> dict:
    same_top1 = sum(a[:1] == b[:1] for a, b in zip(gpu["top"], cpu["top"])) / len(gpu["top"])
    overlap5 = statistics.mean(len(set(a[:5]) & set(b[:5])) / 5 for a, b in zip(gpu["top"], cpu["top"]))
    same_span = sum((a[0], a[1]) == (b[0], b[1]) for a, b in zip(gpu["spans"], cpu["spans"])) / len(gpu["spans"])
    score_gap = max(abs(a[2] - b[2]) for a, b in zip(gpu["spans"], cpu["spans"]))
    return {"same_top1": same_top1, "top5_overlap": overlap5, "same_reader_span": same_span,
            "max_reader_score_gap": score_gap}


def table(gpu: dict, cpu: dict, agreement: dict) -> str:
    rows = ["| path | device | index build s, first (compiles extensions) | again | p50 ms/query | p95 ms/query | batch queries/s | recall@1 | recall@5 "
            "| reader pairs/s | reader dtype |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for run in (gpu, cpu):
        where = run["gpu"] or f"CPU, {run['threads']} threads"
        rows.append(f"| {run['device']} | {where} | {run['index_build_s']} | {run['index_rebuild_s']} "
                    f"| {run['latency_p50_ms']} | {run['latency_p95_ms']} | {run['batch_queries_per_s']} "
                    f"| {100 * run['recall_at_1']:.1f} | {100 * run['recall_at_5']:.1f} "
                    f"| {run['reader_pairs'] / run['reader_s']:.1f} | {run['reader_dtype']} |")
    rows.append(f"\nCUDA vs CPU: same top-1 passage {100 * agreement['same_top1']:.1f}%, top-5 overlap "
                f"{100 * agreement['top5_overlap']:.1f}%; reader spans identical {100 * agreement['same_reader_span']:.1f}%, "
                f"largest span-probability gap {agreement['max_reader_score_gap']:.4f} "
                f"({gpu['queries']} hop queries over {gpu['passages']} passages; reader {gpu['reader_pairs']} pairs)")
    return "\n".join(rows)


def run(folder: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    gpu = measure("cuda", folder, folder / "work")
    (out / "cuda.json").write_text(json.dumps(gpu))
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    subprocess.run([sys.executable, __file__, "measure-cpu", str(folder), str(out)], check=True, env=env)
    cpu = json.loads((out / "cpu.json").read_text())
    agreement = compare(gpu, cpu)
    (out / "agreement.json").write_text(json.dumps(agreement, indent=2))
    (out / "table.md").write_text(table(gpu, cpu, agreement) + "\n")
    print(table(gpu, cpu, agreement))


if __name__ == "__main__":
    verb, *args = sys.argv[1:]
    if verb == "prepare":
        prepare(Path(args[0]), Path(args[1]) if len(args) > 1 else None)
    elif verb == "run":
        run(Path(args[0]), Path(args[1]))
    elif verb == "measure-cpu":
        result = measure("cpu", Path(args[0]), Path(args[0]) / "work")
        (Path(args[1]) / "cpu.json").write_text(json.dumps(result))
    else:
        sys.exit("usage: cuda_paths.py prepare FOLDER | run FOLDER OUT")
