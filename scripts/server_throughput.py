"""Eval throughput against a local OpenAI-compatible LM server (llama-cpp-python's server, on loopback),
at several --threads, and the server's greedy answers against the in-process engine's on the same questions.

    pip install 'llama-cpp-python[server]'
    python scripts/server_throughput.py --pack qwen0.5b --n 10 --threads 1,2,4
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_ready(port: int, timeout: float = 180.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2)
            return
        except OSError:
            time.sleep(1)
    raise TimeoutError("the LM server did not start")


def run_eval(args: argparse.Namespace, out: Path, extra: list[str]) -> tuple[float, dict[str, str]]:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "hopkit", "eval", "--method", args.method, "--dataset", args.dataset,
                    "--n", str(args.n), "--no-cache", "--quiet", "--out", str(out), *extra], check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    answers = {}
    for line in out.read_text().splitlines():
        row = json.loads(line)
        answers[row["qid"]] = row["prediction"]["answer"]
    return seconds, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="qwen0.5b")
    parser.add_argument("--method", default="oner")
    parser.add_argument("--dataset", default="bundled:dev")
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--threads", default="1,2,4")
    parser.add_argument("--server-threads", type=int, default=2, help="llama.cpp threads in the server")
    args = parser.parse_args()
    from hopkit.lm.model_packs import resolve_model_file

    model = resolve_model_file(args.pack)
    folder = Path(tempfile.mkdtemp(prefix="hopkit-server-"))
    local_s, local = run_eval(args, folder / "in-process.jsonl", ["--lm", f"local:{args.pack}"])
    print(f"in-process: {args.n / local_s:.3f} questions/s ({local_s:.1f} s)", flush=True)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
                               "--port", str(port), "--n_ctx", "8192", "--n_threads", str(args.server_threads),
                               "--seed", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(port)
        print("| client threads | questions/s | s | answers equal to in-process |\n|---|---|---|---|")
        for threads in (int(t) for t in args.threads.split(",")):
            seconds, served = run_eval(args, folder / f"server-{threads}.jsonl",
                                       ["--lm", f"openai/{args.pack}", "--api-base", f"http://127.0.0.1:{port}/v1",
                                        "--threads", str(threads)])
            same = sum(served.get(qid) == answer for qid, answer in local.items())
            print(f"| {threads} | {args.n / seconds:.3f} | {seconds:.1f} | {same}/{len(local)} |", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
