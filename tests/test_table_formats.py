"""``--format latex|csv``: the verbs' Markdown tables as booktabs tabulars (other lines kept as comments) or CSV rows
(tables alone), so a table reaches a paper without being typed again."""

import json

from hopkit.cli.main import main
from hopkit.report.table_formats import tables_as

PRINTED = """A = runs/a.jsonl
| metric | A | B | B - A | 95% CI |
|---|---|---|---|---|
| f1 | 21.3 | 27.6 | +6.3* | **[-5.2, +18.0]** |
| answer_em | 10.0 | - | ΔF1 +1.0 | 3<br>k=6 |

| form | n |
|---|---|
| open | 2 |
one line after"""


def test_markdown_is_left_as_printed():
    assert tables_as(PRINTED, "markdown") == PRINTED


def test_latex_gives_booktabs_tabulars_with_the_prose_as_comments():
    latex = tables_as(PRINTED, "latex").splitlines()
    assert latex[0] == "% A = runs/a.jsonl"
    assert latex[1:5] == [r"\begin{tabular}{lrrll}", r"\toprule", r"metric & A & B & B - A & 95\% CI \\",
                          r"\midrule"]
    assert latex[5] == r"f1 & 21.3 & 27.6 & +6.3$^{*}$ & \textbf{[-5.2, +18.0]} \\"
    assert latex[6] == r"answer\_em & 10.0 & - & $\Delta$F1 +1.0 & \makecell[l]{3 \\ k=6} \\"
    assert latex[7:9] == [r"\bottomrule", r"\end{tabular}"]
    assert latex[9] == "" and latex[10] == r"\begin{tabular}{lr}" and latex[-1] == "% one line after"


def test_csv_gives_the_rows_of_each_table_alone():
    assert tables_as(PRINTED, "csv").splitlines() == [
        "metric,A,B,B - A,95% CI", "f1,21.3,27.6,+6.3*,\"[-5.2, +18.0]\"", "answer_em,10.0,-,ΔF1 +1.0,3; k=6",
        "", "form,n", "open,2"]


def test_compare_prints_latex_when_asked(tmp_path, capsys):
    for name, scores in (("a", [0.0, 1.0, 0.0]), ("b", [1.0, 1.0, 0.0])):
        (tmp_path / f"{name}.jsonl").write_text("".join(
            json.dumps({"qid": f"q{i}", "question": f"Who is {i}?", "answers": ["x"], "prediction": {"answer": "x"},
                        "metrics": {"f1": s}}) + "\n" for i, s in enumerate(scores)))
    assert main(["compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--samples", "200",
                 "--format", "latex"]) == 0
    out = capsys.readouterr().out
    assert r"\begin{tabular}" in out and r"f1 & 33.3 & 66.7 & +33.3 & " in out
    assert "|" not in out.replace(r"\textbar{}", "").split(r"\end{tabular}")[0]  # no Markdown table is left
