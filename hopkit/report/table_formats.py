"""The analyses' tables in a paper's format: every verb prints Markdown, and ``--format latex`` or ``csv`` turns its
tables into a booktabs ``tabular`` or CSV rows, so a table goes into a paper without being typed again.

Only the tables are converted. LaTeX keeps the verb's other lines as comments (what each table is); CSV keeps the
rows alone, a blank line between tables.
"""

from __future__ import annotations

import csv
import io
import re

FORMATS = ("markdown", "latex", "csv")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_MARK = re.compile(r"(?<=[\d\]])\*")  # the significance star after a number or an interval: +14.0* or [...]*
_NUMERIC = re.compile(r"^[-+]?[\d.,]+%?\*?( \(n=\d+\))?$|^-$")
_LATEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                   "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_LATEX_SYMBOLS = {"Δ": r"$\Delta$", "−": "-", "≥": r"$\geq$", "≤": r"$\leq$", "±": r"$\pm$", "×": r"$\times$"}


def tables_as(text: str, form: str) -> str:
    """``text`` as a verb printed it, with its Markdown tables in ``form`` (markdown: unchanged)."""
    if form == "markdown":
        return text
    parts = _parts(text)
    if form == "csv":
        return "\n".join(_csv(part) for part in parts if isinstance(part, list)).rstrip("\n")
    if form == "latex":
        return "\n".join(_latex(part) if isinstance(part, list) else f"% {part}" if part else ""
                         for part in parts).strip("\n")
    raise ValueError(f"unknown table format {form!r}; one of {', '.join(FORMATS)}")


def _parts(text: str) -> list[str | list[list[str]]]:
    """The text's lines, with each Markdown table as one part: its rows, without the header rule."""
    parts: list[str | list[list[str]]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not (stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1):
            parts.append(stripped)
            continue
        cells = [cell.strip() for cell in stripped[1:-1].split("|")]
        if all(re.fullmatch(r":?-{3,}:?", cell) for cell in cells):  # the header rule carries nothing
            continue
        if parts and isinstance(parts[-1], list):
            parts[-1].append(cells)
        else:
            parts.append([cells])
    return parts


def _csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([_plain(cell) for cell in row])
    return out.getvalue()


def _plain(cell: str) -> str:
    return _BOLD.sub(r"\1", cell).replace("<br>", "; ")


def _latex(rows: list[list[str]]) -> str:
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    align = "l" + "".join("r" if all(_NUMERIC.match(_plain(row[c])) for row in rows[1:]) else "l"
                          for c in range(1, width))
    lines = [f"\\begin{{tabular}}{{{align}}}", "\\toprule", _latex_row(rows[0]), "\\midrule"]
    lines += [_latex_row(row) for row in rows[1:]]
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines)


def _latex_row(cells: list[str]) -> str:
    return " & ".join(_latex_cell(cell) for cell in cells) + r" \\"


def _latex_cell(cell: str) -> str:
    parts = [_latex_text(part.strip()) for part in cell.split("<br>")]
    return parts[0] if len(parts) == 1 else "\\makecell[l]{" + r" \\ ".join(parts) + "}"


def _latex_text(text: str) -> str:
    bold = [m.group(1) for m in _BOLD.finditer(text)]
    text = _BOLD.sub("\0", text)
    text = _MARK.sub("\1", text)
    text = "".join(_LATEX_SPECIALS.get(ch, _LATEX_SYMBOLS.get(ch, ch)) for ch in text)
    for inner in bold:
        text = text.replace("\0", "\\textbf{" + _latex_text(inner) + "}", 1)
    return text.replace("\1", "$^{*}$")
