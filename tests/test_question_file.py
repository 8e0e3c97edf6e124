"""The ``qa:QUESTIONS.jsonl@CORPUS.jsonl`` loader: questions over one shared corpus."""

from pathlib import Path

import pytest

from hopkit.data.registry import load_dataset_spec
from hopkit.errors import InputError, MissingArtifactError

FIXTURES = Path(__file__).parent / "fixtures" / "qa"
SPEC = f"qa:{FIXTURES / 'questions.jsonl'}@{FIXTURES / 'corpus.jsonl'}"


def test_questions_share_one_corpus_and_gold_titles_name_every_paragraph_with_that_title():
    dataset = load_dataset_spec(SPEC)
    assert [ex.qid for ex in dataset.examples] == ["q1", "q2", "q3"]
    assert len(dataset.corpus) == 5  # the repeated line is one paragraph
    titles = [dataset.corpus[pid].title for pid in dataset.examples[0].gold_pids]
    assert sorted(titles) == ["Alba Rivers", "Ines Valo", "Quiet Harbour", "Tomas Brenn", "Tomas Brenn"]
    assert dataset.examples[1].answers == ["Finland"]  # one string, as 2Wiki gives it
    assert dataset.examples[2].gold_pids == []
    assert dataset.name == "qa:questions"


def test_a_gold_title_missing_from_the_corpus_is_reported_when_the_set_loads(tmp_path, capsys):
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "a", "question": "Who?", "answers": ["X"], "gold_titles": ["Tomas Brenn", '
                         '"Nowhere Town"]}\n')
    dataset = load_dataset_spec(f"qa:{questions}@{FIXTURES / 'corpus.jsonl'}")
    err = capsys.readouterr().err
    assert "1 of 1 questions" in err and "'Nowhere Town'" in err
    assert dataset.examples[0].missing_gold_titles == ["Nowhere Town"]
    assert len(dataset.examples[0].gold_pids) == 2  # the title the corpus has still counts


def test_a_missing_file_a_missing_corpus_and_a_malformed_line_each_get_one_line(tmp_path):
    with pytest.raises(MissingArtifactError, match="question file .*nope.jsonl does not exist"):
        load_dataset_spec(f"qa:{tmp_path / 'nope.jsonl'}@{FIXTURES / 'corpus.jsonl'}")
    with pytest.raises(InputError, match="names no corpus"):
        load_dataset_spec(f"qa:{FIXTURES / 'questions.jsonl'}")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "question": "Who?", "answers": ["X"]}\n{"id": "b", "question": \n')
    with pytest.raises(InputError, match=r"bad.jsonl:2: not a JSON object"):
        load_dataset_spec(f"qa:{bad}@{FIXTURES / 'corpus.jsonl'}")
    no_answer = tmp_path / "no_answer.jsonl"
    no_answer.write_text('{"id": "a", "question": "Who?"}\n')
    with pytest.raises(InputError, match=r"no_answer.jsonl:1: expected an object with 'question' and 'answers'"):
        load_dataset_spec(f"qa:{no_answer}@{FIXTURES / 'corpus.jsonl'}")


def test_two_corpus_files_of_one_name_in_different_folders_each_keep_their_own_default_index(tmp_path):
    """Two experiments' ``data/corpus.jsonl``: indexing the second must not replace the first's index, and each
    dataset must open the index over its own paragraphs."""
    from hopkit.cli.main import main
    from hopkit.evaluation.retriever_choice import open_dataset_retriever

    questions = FIXTURES / "questions.jsonl"
    specs = []
    for folder, extra in (("a", ""), ("b", '{"title": "Extra Page", "text": "Only the second corpus has it."}\n')):
        corpus = tmp_path / folder / "data" / "corpus.jsonl"
        corpus.parent.mkdir(parents=True)
        corpus.write_text((FIXTURES / "corpus.jsonl").read_text() + extra)
        specs.append(f"qa:{questions}@{corpus}")
    first, second = (load_dataset_spec(spec) for spec in specs)
    assert first.corpus_name != second.corpus_name
    assert load_dataset_spec(specs[0]).corpus_name == first.corpus_name  # one file: one index, run after run
    for spec in specs:
        assert main(["index", "--backend", "bm25", "--dataset", spec]) == 0
    for dataset in (first, second):
        retriever, _, _ = open_dataset_retriever("bm25", None, None, dataset)
        assert len(retriever.corpus) == len(dataset.corpus)


def test_index_of_a_corpus_file_without_out_goes_to_a_folder_of_that_files_own(tmp_path, capsys):
    from hopkit.cli.main import main

    folders = []
    for folder, extra in (("a", ""), ("b", '{"title": "Extra Page", "text": "Only the second corpus has it."}\n')):
        corpus = tmp_path / folder / "corpus.jsonl"
        corpus.parent.mkdir()
        corpus.write_text((FIXTURES / "corpus.jsonl").read_text() + extra)
        assert main(["index", "--backend", "bm25", "--corpus", str(corpus)]) == 0
        folders.append(capsys.readouterr().out.split(" in ")[1].split(" (")[0])
    assert folders[0] != folders[1] and all(Path(folder).is_dir() for folder in folders)
