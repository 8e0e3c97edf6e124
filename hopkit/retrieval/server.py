"""Serve any retriever over HTTP in the ColBERTv2 server format DSPy's client and SearChain expect.

GET /api/search?query=...&k=... -> {"topk": [{"text", "pid", "rank", "score", "prob"}, ...]}
where ``prob`` is the softmax of the scores over the returned top k, as the original server does. The same answer
comes at ``/`` and to a POST of ``{"query": ..., "k": ...}``, the forms ``dspy.ColBERTv2(url, port=...)`` and its
``post_requests=True`` send; any other method gets 405.
"""

from __future__ import annotations

import json
import math
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from hopkit.retrieval.protocol import Retriever

MAX_K = 100
PATHS = ("/", "/api/search")
BACKLOG = 128  # pending connections a burst of concurrent clients may open (http.server's default is 5)


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
        server_version = "hopkit"
        sys_version = ""  # the header names no Python version

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            url = urlparse(self.path)
            if url.path not in PATHS:
                return self._send(404, {"error": "use /api/search?query=...&k=..."})
            params = parse_qs(url.query)
            self._answer((params.get("query") or [""])[0], (params.get("k") or ["10"])[0])

        def do_POST(self) -> None:  # noqa: N802
            if urlparse(self.path).path not in PATHS:
                return self._send(404, {"error": "POST {\"query\": ..., \"k\": ...} to /api/search"})
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            except (ValueError, UnicodeDecodeError):
                return self._send(400, {"error": "the body must be JSON: {\"query\": ..., \"k\": ...}"})
            if not isinstance(body, dict):
                return self._send(400, {"error": "the body must be a JSON object: {\"query\": ..., \"k\": ...}"})
            self._answer(str(body.get("query") or ""), body.get("k", 10))

        def _refuse(self) -> None:
            self._send(405, {"error": "use GET /api/search?query=...&k=... or POST it as JSON"},
                       {"Allow": "GET, POST"})

        do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _refuse  # noqa: N815

        def _answer(self, query: str, k_text: object) -> None:
            try:
                k = int(str(k_text))
            except ValueError:
                return self._send(400, {"error": "k must be an integer"})
            if not query.strip() or not 1 <= k <= MAX_K:
                return self._send(400, {"error": f"need a non-empty query and 1 <= k <= {MAX_K}"})
            self._send(200, topk_payload(retriever, query, k))

        def _send(self, status: int, body: dict, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        request_queue_size = BACKLOG
        daemon_threads = True

    return Server((host, port), Handler)


def serve_in_background(retriever: Retriever, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """Start a server on a thread (port 0 picks a free port: ``server.server_address``)."""
    server = make_server(retriever, host, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
