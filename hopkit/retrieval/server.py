"""Serve any retriever over HTTP in the ColBERTv2 server format DSPy's client and SearChain expect.

GET /api/search?query=...&k=... -> {"topk": [{"text", "pid", "rank", "score", "prob"}, ...]}
where ``prob`` is the softmax of the scores over the returned top k, as the original server does.
"""

from __future__ import annotations

import json
import math
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from hopkit.retrieval.protocol import Retriever

MAX_K = 100


def topk_payload(retriever: Retriever, query: str, k: int) -> dict:
    passages = retriever.retrieve(query, k)
    scores = [p.score or 0.0 for p in passages]
    top = max(scores, default=0.0)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights) or 1.0
    return {"query": query, "topk": [
        {"text": f"{p.title} | {p.text}" if p.title else p.text, "pid": p.pid, "title": p.title,
         "long_text": p.text, "rank": p.rank, "score": p.score, "prob": w / total}
        for p, w in zip(passages, weights)]}


def make_server(retriever: Retriever, host: str = "127.0.0.1", port: int = 8893) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            url = urlparse(self.path)
            if url.path != "/api/search":
                return self._send(404, {"error": "use /api/search?query=...&k=..."})
            params = parse_qs(url.query)
            query = (params.get("query") or [""])[0]
            try:
                k = int((params.get("k") or ["10"])[0])
            except ValueError:
                return self._send(400, {"error": "k must be an integer"})
            if not query.strip() or not 1 <= k <= MAX_K:
                return self._send(400, {"error": f"need a non-empty query and 1 <= k <= {MAX_K}"})
            self._send(200, topk_payload(retriever, query, k))

        def _send(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    return ThreadingHTTPServer((host, port), Handler)


def serve_in_background(retriever: Retriever, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """Start a server on a thread (port 0 picks a free port: ``server.server_address``)."""
    server = make_server(retriever, host, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
