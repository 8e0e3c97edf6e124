"""scripts/earlier_hop_answers.py: a wrong answer read with both gold paragraphs in hand that names a bridge entity."""

from __future__ import annotations

import json

from script_loader import load_script


def _row(question: str, answer: str, em: float, read: list[str]) -> dict:
    return {"question": question, "gold_pids": ["g1", "g2"], "prediction": {"answer": answer, "retrieved": read},
            "metrics": {"em": em}}


def test_an_answer_naming_an_earlier_hops_answer_counts_only_with_every_gold_paragraph_read(tmp_path):
    script = load_script("earlier_hop_answers")
    dataset = tmp_path / "dev.jsonl"
    rows = [{"question": q, "question_decomposition": [{"answer": hop}, {"answer": last}]}
            for q, hop, last in [("Q1", "Robert Menzies", "Lyons' death"), ("Q2", "Dave Koz", "George Benson"),
                                 ("Q3", "Ernst Mach", "Charles University"), ("Q4", "Nelson River", "Hudson Bay")]]
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows))
    hops = script.earlier_hops_by_question(dataset)
    logged = [_row("Q1", "Robert Menzies", 0.0, ["g1", "g2"]),
              _row("Q2", "George Benson, Kenny G, Dave Koz", 0.0, ["g2", "x", "g1"]),
              _row("Q3", "Ernst Mach", 0.0, ["g1"]),  # a gold paragraph missing: a retrieval loss, not counted
              _row("Q4", "the Nelson", 0.0, ["g1", "g2"])]  # wrong, but no earlier hop named whole
    wrong_in_hand, named = script.count(logged, hops)
    assert wrong_in_hand == 3
    assert [(q, hop) for q, _, hop in named] == [("Q1", "Robert Menzies"), ("Q2", "Dave Koz")]
    assert script.earlier_hop("Kozmic", ["Koz"]) is None  # whole words only
