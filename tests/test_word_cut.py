import json

import pytest

from hopkit.cli.main import main
from hopkit.data.registry import load_dataset_spec
from hopkit.data.word_cut import word_cut_report

FILLER = " ".join(["filler"] * 30)


def _paragraph(idx, title, text, supporting=True):
    return {"idx": idx, "title": title, "paragraph_text": text, "is_supporting": supporting}


def _musique_rows():
    """q1: hop 1's answer (Varn) sits at word 31 of its paragraph, past a 20-word cut; q2: both answers early;
    q3: its final answer is in no paragraph, so it cannot be checked."""
    hops = [{"question": "Who made Oru?", "answer": "Varn", "paragraph_support_idx": 0},
            {"question": "Where was #1 born?", "answer": "Morn", "paragraph_support_idx": 1}]
    return [
        {"id": "q1", "question": "Where was the maker of Oru born?", "answer": "Morn", "answer_aliases": [],
         "answerable": True, "question_decomposition": hops,
         "paragraphs": [_paragraph(0, "Oru", f"Oru is a tool. {FILLER} It was made by Varn."),
                        _paragraph(1, "Varn", "Varn was born in Morn."),
                        _paragraph(2, "Other", f"{FILLER} {FILLER}", supporting=False)]},
        {"id": "q2", "question": "Where was the maker of Ika born?", "answer": "Tull", "answer_aliases": [],
         "answerable": True,
         "question_decomposition": [{**hops[0], "question": "Who made Ika?", "answer": "Sela"},
                                    {**hops[1], "answer": "Tull"}],
         "paragraphs": [_paragraph(0, "Ika", f"Ika was made by Sela. {FILLER}"),
                        _paragraph(1, "Sela", "Sela was born in Tull.")]},
        {"id": "q3", "question": "Where is Pem?", "answer": "Nowhere", "answer_aliases": [], "answerable": True,
         "paragraphs": [_paragraph(0, "Pem", "Pem is a town.")]},
    ]


@pytest.fixture
def musique_file(tmp_path):
    path = tmp_path / "musique.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in _musique_rows()))
    return path


def test_a_hop_answer_past_the_cut_counts_its_question_and_a_whole_paragraph_hides_nothing(musique_file):
    dataset = load_dataset_spec(f"musique:validation@{musique_file}")
    assert dataset.examples[0].hop_answers == ["Varn", "Morn"]
    report = word_cut_report(dataset.examples, dataset.own_corpus(), 20)
    assert (report.questions, report.gold_paragraphs, report.longer) == (3, 5, 2)
    assert (report.checked, report.by_hop, report.cut) == (2, 2, ["q1"])  # q3's answer is in no paragraph
    assert word_cut_report(dataset.examples, dataset.own_corpus(), 40).cut == []
    assert "1 questions have an answer only past the cut, of 2 whose answers" in report.summary()


def test_the_final_answer_is_checked_where_no_hop_answers_are_named(musique_file):
    dataset = load_dataset_spec(f"musique:validation@{musique_file}")
    for example in dataset.examples:
        example["hop_answers"] = []
    report = word_cut_report(dataset.examples, dataset.own_corpus(), 20)
    assert (report.checked, report.by_hop, report.cut) == (2, 0, [])  # Morn and Tull are both early
    assert "(by the final answer)" in report.summary()


def test_the_verb_prints_each_cut_and_refuses_a_cut_of_nothing(musique_file, capsys):
    assert main(["data", "cut", "--dataset", f"musique:validation@{musique_file}", "--words", "20", "40"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "musique:validation: 3 questions"
    assert out[1].startswith("- paragraph_words = 20: 2 of 5 gold paragraphs are longer (40%)") and "e.g. q1" in out[1]
    assert out[2].startswith("- paragraph_words = 40: 0 of 5") and "0 questions" in out[2]
    assert main(["data", "cut", "--dataset", f"musique:validation@{musique_file}", "--words", "0"]) == 2
    assert "at least 1 word" in capsys.readouterr().err


def test_the_cut_questions_qids_make_a_file_that_picks_them(musique_file, capsys, tmp_path):
    spec = f"musique:validation@{musique_file}"
    assert main(["data", "cut", "--dataset", spec, "--words", "20", "--qids"]) == 0
    listed = tmp_path / "cut.txt"
    listed.write_text(capsys.readouterr().out)
    assert listed.read_text().split() == ["q1"]
    assert main(["data", "cut", "--dataset", spec, "--words", "20", "--questions", f"@{listed}"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "musique:validation: 1 question"
    assert main(["data", "cut", "--dataset", spec, "--words", "20", "40", "--qids"]) == 2
    assert "one --words N" in capsys.readouterr().err
