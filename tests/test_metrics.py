import dspy
import pytest

from hopkit.errors import UnknownNameError
from hopkit.evaluation.metrics import METRICS, cover_exact_match, exact_match, get_metric, recall_at, rouge_l, token_f1
from hopkit.text.normalize import normalize_answer


def test_normalize_follows_squad():
    assert normalize_answer("The  Glass, Orchard!") == "glass orchard"
    assert normalize_answer("An apple") == "apple"


def test_exact_match_and_f1_by_hand():
    assert exact_match("the Port Velmar", "Port Velmar.") == 1.0
    assert exact_match("Velmar", "Port Velmar") == 0.0
    # prediction "port velmar city" vs gold "port velmar": p = 2/3, r = 1, f1 = 0.8
    assert token_f1("Port Velmar city", "Port Velmar") == pytest.approx(0.8)
    assert token_f1("Kellis", "Port Velmar") == 0.0


def test_cover_em_needs_whole_tokens():
    assert cover_exact_match("It was born in Port Velmar in 1900", "Port Velmar") == 1.0
    assert cover_exact_match("Port Velmarton", "Port Velmar") == 0.0


def test_rouge_l_by_hand():
    # LCS of "a b c d" and "a c d e" (no articles) is 3 -> p = r = 3/4
    assert rouge_l("w x y z", "w y z q") == pytest.approx(0.75)
    assert rouge_l("", "x") == 0.0


def test_recall_at_budget():
    ranked = [f"p{i}" for i in range(20)]
    assert recall_at(ranked, ["p0", "p14"]) == 1.0
    assert recall_at(ranked, ["p0", "p15"]) == 0.5
    assert recall_at(ranked, ["p0", "p15"], budget=20) == 1.0


def test_metric_takes_max_over_aliases_and_declares_direction():
    example = dspy.Example(question="q", answers=["Tarvania", "Republic of Tarvania"], gold_pids=["a", "b"])
    prediction = dspy.Prediction(answer="Republic of Tarvania", citations=["a"], retrieved=["a", "c"])
    assert get_metric("em")(example, prediction) == 1.0
    assert get_metric("recall@15")(example, prediction) == 0.5
    assert all(m.higher_is_better for m in METRICS.values())
    with pytest.raises(UnknownNameError, match="Did you mean 'rouge_l'"):
        get_metric("rouge-l")
