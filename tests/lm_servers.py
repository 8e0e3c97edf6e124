"""Loopback servers for the fault tests: a scripted OpenAI-compatible LM server and a fault-injecting proxy.

The scripted server answers any DSPy ChatAdapter request by filling the output fields the prompt asks
for (``answer`` with a fixed word); the proxy forwards to it and, for a set share of calls chosen by a
fixed schedule, returns a server error, stalls past the client's timeout, cuts the response short, or
sends garbage.
"""

import http.client
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FAULTS = ("error", "stall", "cut", "garbage")


def _fields(payload: dict) -> list[str]:
    text = "\n".join(str(m.get("content", "")) for m in payload.get("messages", []))
    asked = text.split("Your output fields are:")[-1].split("All interactions will be structured")[0]
    return re.findall(r"\d+\. `(\w+)`", asked) or ["answer"]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(handler_class, **attributes) -> _Server:
    server = _Server(("127.0.0.1", 0), handler_class)
    for name, value in attributes.items():
        setattr(server, name, value)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class ScriptedLMHandler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        payload = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        with self.server.lock:
            self.server.calls += 1
        def value(name):
            return self.server.answer if name == "answer" else f"A short {name}."

        fields = "".join(f"[[ ## {name} ## ]]\n{value(name)}\n\n" for name in _fields(payload))
        content = fields + "[[ ## completed ## ]]"
        if getattr(self.server, "unparsable", False):  # a reply with none of the fields asked for
            content = "Sorry, I would rather not say."
        body = json.dumps({"id": "x", "object": "chat.completion", "created": int(time.time()),
                           "model": payload.get("model", "scripted"),
                           "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                        "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def scripted_lm_server(answer="Morn") -> _Server:
    return serve(ScriptedLMHandler, answer=answer, calls=0, lock=threading.Lock())


class FaultProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with self.server.lock:
            index = self.server.requests
            self.server.requests += 1
        fault = self.server.fault_for(index)
        if fault is not None:
            with self.server.lock:
                self.server.injected[fault] += 1
        if fault == "error":
            return self._reply(500, b'{"error": {"message": "injected server error"}}')
        if fault == "stall":
            time.sleep(self.server.stall_seconds)
            return self._reply(200, b"{}")
        if fault == "garbage":
            return self._reply(200, b"\x00<html>not json at all")
        upstream = http.client.HTTPConnection("127.0.0.1", self.server.upstream_port, timeout=30)
        upstream.request("POST", self.path, body=body, headers={"Content-Type": "application/json"})
        response = upstream.getresponse()
        data = response.read()
        if fault == "cut":  # promise the whole body, send half, hang up
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self._reply(response.status, data)

    def _reply(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def fault_proxy(upstream_port: int, rate: float, stall_seconds: float = 4.0) -> _Server:
    """Faults on a fixed schedule: request i is faulted when (37 i + 50) mod 100 < 100 rate, the kinds
    taking turns; the schedule spares request 0 (hopkit's reachability check) for rates <= 0.5."""
    faulted = [0]

    def fault_for(index: int):
        if (37 * index + 50) % 100 >= round(100 * rate):
            return None
        faulted[0] += 1
        return FAULTS[(faulted[0] - 1) % len(FAULTS)]  # the kinds take turns

    return serve(FaultProxyHandler, upstream_port=upstream_port, fault_for=fault_for, requests=0,
                 injected={f: 0 for f in FAULTS}, stall_seconds=stall_seconds, lock=threading.Lock())
