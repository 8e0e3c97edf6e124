"""The generated reference pages match the declarations and the parser: a knob or flag added without
regenerating them (``python scripts/gen_docs.py``) fails here."""

from hopkit.cli.reference import pages


def test_the_generated_pages_are_current():
    for path, text in pages().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is stale: run python scripts/gen_docs.py"


def test_the_pages_hold_every_knob_and_verb():
    from hopkit.knobs import KNOBS

    generated = {path.name: text for path, text in pages().items()}
    for group, knobs in KNOBS.items():
        assert f"## {group}" in generated["knobs.md"]
        assert all(f"`{name}`" in generated["knobs.md"] for name in knobs)
    for verb in ("eval", "reproduce", "reproduce-table", "bench-demos", "data build", "optimize"):
        assert f"## hopkit {verb}\n" in generated["cli.md"]


def test_every_addition_gives_a_reason_and_links_its_evidence_never_a_count():
    import re
    from pathlib import Path

    from hopkit.knobs import KNOBS

    page = (Path(__file__).resolve().parents[1] / "docs" / "design" / "additions.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^### (\S+)$", page, re.M))
    for group, knobs in KNOBS.items():
        for knob in knobs.values():
            assert not re.search(r"\d+ of \d+|\d+%|\[[+-]?\d", knob.origin), (group, knob.name, knob.origin)
            if knob.addition:
                anchor = re.search(r"docs/design/additions\.md#(\w+)", knob.origin)
                assert anchor and anchor.group(1) in sections, (group, knob.name)
