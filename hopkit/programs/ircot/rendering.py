"""IRCoT's trace as a reader follows the method: each reasoning sentence, the query it became, and the paragraphs
it added to the collection, then the reader's answer (``hopkit demo``, ``hopkit ask --show-trace``)."""

from __future__ import annotations

from collections.abc import Callable


def render_steps(trace: dict, collected: int, title_of: Callable[[str], str] = str) -> str:
    """The interleaved steps; ``collected``: the paragraphs the reader read; ``title_of`` names a paragraph by its
    pid (its title, where the corpus is at hand)."""
    lines = []
    for step in trace.get("steps", []):
        added = ", ".join(title_of(pid) for pid in step.get("added") or []) or "nothing new"
        if step.get("step") == 0:
            lines.append(f"  retrieve with the question -> added: {added}")
            continue
        if step.get("parse_error"):
            lines.append(f"  step {step['step']}: the LM's output did not parse (counted; the chain stops)")
            continue
        lines.append(f"  step {step['step']}: \"{step.get('sentence') or ''}\"")
        if step.get("query"):
            lines.append(f"    retrieve with it -> added: {added}")
    reader = trace.get("reader_output") or {}
    lines.append(f"  the {reader.get('mode', 'chain')} reader reads the {collected} paragraphs collected")
    return "\n".join(lines)
