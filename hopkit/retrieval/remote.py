"""A retriever that speaks the ColBERTv2 server format (ours, or any existing ColBERTv2 server)."""

from __future__ import annotations

import json
from urllib.error import URLError
from urllib.parse import urlencode
from urllib.request import urlopen

from hopkit.data.passage import Passage
from hopkit.errors import RetrieverUnavailableError


class RemoteColBERT:
    backend = "remote"

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        if not self.url.endswith("/api/search"):
            self.url += "/api/search"
        self.timeout = timeout

    def retrieve(self, query: str, k: int) -> list[Passage]:
        address = f"{self.url}?{urlencode({'query': query, 'k': k})}"
        try:
            with urlopen(address, timeout=self.timeout) as response:
                payload = json.load(response)
        except (URLError, OSError) as error:
            raise RetrieverUnavailableError(f"retrieval server {self.url} did not answer ({error})") from None
        passages = []
        for i, item in enumerate(payload.get("topk", [])):
            title, _, text = item["text"].partition(" | ") if " | " in item["text"] else ("", "", item["text"])
            passages.append(Passage(pid=str(item.get("pid", i)), title=item.get("title", title),
                                    text=item.get("long_text", text), score=float(item.get("score", 0.0)),
                                    rank=int(item.get("rank", i + 1))))
        return passages
