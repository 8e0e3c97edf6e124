"""``--format`` for the verbs that print tables: Markdown as they print it, or LaTeX or CSV for a paper
(hopkit/report/table_formats.py)."""

from __future__ import annotations

import argparse

from hopkit.report.table_formats import FORMATS, tables_as


def add_format_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", default="markdown", choices=FORMATS,
                        help="markdown (default), latex (booktabs tabulars, the other lines as comments) or csv "
                             "(the tables' rows alone)")


def print_tables(text: str, args: argparse.Namespace) -> None:
    """Print a verb's output, its tables in the format asked for."""
    print(tables_as(text, getattr(args, "format", "markdown")))
