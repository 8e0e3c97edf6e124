"""Whether the Hugging Face hub can be reached, decided at once.

Offline, ``datasets.load_dataset`` retries the hub several times before it fails (docs/datasets.md says how long),
and a `paper` run (or IRCoT on MuSiQue under `hopkit`) asks the hub for its train split on every start. When the
hub's host does not resolve, the loader asks in offline mode instead: a copy in the ``datasets`` cache still loads,
and a missing one fails without the retries.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any
from urllib.parse import urlparse

# a resolver that hangs (no network, no answer) must not cost more than this
LOOKUP_SECONDS = 3.0
_TRUE = {"1", "ON", "YES", "TRUE"}


@cache
def hub_unreachable() -> str | None:
    """Why the hub cannot be reached (offline mode, or its host does not resolve); None: it may be, so ask it."""
    if any(os.environ.get(name, "").upper() in _TRUE for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")):
        return "offline mode is set (HF_HUB_OFFLINE)"
    from huggingface_hub import constants

    host = urlparse(constants.ENDPOINT).hostname or "huggingface.co"
    return None if _resolves(host) else f"{host} does not resolve: no network"


def _resolves(host: str) -> bool:
    found: list[bool] = []

    def look_up() -> None:
        try:
            socket.getaddrinfo(host, 443)
            found.append(True)
        except OSError:
            found.append(False)

    lookup = threading.Thread(target=look_up, daemon=True)
    lookup.start()
    lookup.join(LOOKUP_SECONDS)
    return bool(found and found[0])


def hub_rows(hub_id: str, config: str | None, split: str) -> Any:
    """A hub split's rows (``datasets.load_dataset``); with the hub unreachable, from the ``datasets`` cache at once.
    A failure raises what ``datasets`` raised; ``failure_reason`` words it."""
    import datasets

    if hub_unreachable():
        with asked_offline():
            return datasets.load_dataset(hub_id, config, split=split)
    return datasets.load_dataset(hub_id, config, split=split)


def failure_reason(error: Exception) -> str:
    """Why a hub load failed, in a few words: the hub out of reach, else the error's kind."""
    return hub_unreachable() or type(error).__name__


@contextmanager
def asked_offline() -> Iterator[None]:
    """``datasets`` in offline mode for the calls inside: its cache answers, the hub is not retried."""
    from datasets import config

    before = config.HF_HUB_OFFLINE
    config.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        config.HF_HUB_OFFLINE = before
