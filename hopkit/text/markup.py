"""Tiny HTML builders; every piece of text from data goes through ``text`` (escaped), never raw."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any


def text(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def tag(name: str, body: str = "", **attributes: Any) -> str:
    """``body`` is markup already built (escaped); attribute values are escaped here."""
    attrs = "".join(f' {key.rstrip("_").replace("_", "-")}="{text(value)}"' for key, value in attributes.items()
                    if value is not None)
    return f"<{name}{attrs}>{body}</{name}>"


def badge(label: str, kind: str) -> str:
    return tag("span", text(label), class_=f"badge {kind}")


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def tree_list(nodes: list[dict], parent_key: str, root: str, line: Callable[[dict], str]) -> str:
    """Nodes that name their parent (``parent_key``) as nested lists under ``root``, each drawn by ``line``."""
    children: dict[str, list[dict]] = {}
    for node in nodes:
        children.setdefault(str(node.get(parent_key)), []).append(node)

    def walk(parent: str) -> str:
        items = [tag("li", line(node) + walk(str(node["id"])), class_="node", data_id=node["id"])
                 for node in children.get(parent, [])]
        return tag("ul", "".join(items)) if items else ""

    return walk(root)
