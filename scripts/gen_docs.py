"""Write the generated reference pages (docs/knobs.md, docs/cli.md) from the knob declarations and the parser."""

from hopkit.cli.reference import pages

if __name__ == "__main__":
    for path, text in pages().items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
