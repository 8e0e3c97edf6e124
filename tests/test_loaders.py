import json

import pytest

from hopkit.data.examples import context_pid
from hopkit.data.registry import load_dataset_spec
from hopkit.errors import InputError, MissingArtifactError, UnknownNameError


def _write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_ircot_processed_jsonl_builds_a_closed_corpus(tmp_path):
    shared = {"title": "Mack Rides", "paragraph_text": "Mack Rides is a German company.", "is_supporting": True}
    rows = [
        {"question_id": "q1", "question_text": "Which country made Lost Gravity?",
         "answers_objects": [{"spans": ["Germany"]}, {"spans": ["German"]}],
         "contexts": [{"title": "Lost Gravity", "paragraph_text": "Lost Gravity was built by Mack Rides.",
                       "is_supporting": True}, shared,
                      {"title": "Efteling", "paragraph_text": "Efteling is a park.", "is_supporting": False}]},
        {"question_id": "q2", "question_text": "Where is Mack Rides based?",
         "answers_objects": [{"spans": ["Waldkirch"]}], "contexts": [shared]},
    ]
    dataset = load_dataset_spec(f"ircot:{_write_jsonl(tmp_path / 'hotpot_dev.jsonl', rows)}")
    assert len(dataset.corpus) == 3  # the shared paragraph is stored once
    first = dataset.examples[0]
    assert first.answers == ["Germany", "German"]
    assert first.gold_pids == [context_pid("Lost Gravity", "Lost Gravity was built by Mack Rides."),
                               context_pid("Mack Rides", "Mack Rides is a German company.")]
    assert set(first.inputs().keys()) == {"question"}


def test_ircot_jsonl_with_the_wrong_layout_says_what_it_expects(tmp_path):
    path = _write_jsonl(tmp_path / "x.jsonl", [{"question": "q"}])
    with pytest.raises(InputError, match="question_id, question_text, answers_objects, contexts"):
        load_dataset_spec(f"ircot:{path}")


def test_hotpotqa_rows_from_a_local_file(tmp_path):
    row = {"id": "h1", "question": "Q?", "answer": "Bob", "type": "bridge", "level": "hard",
           "supporting_facts": {"title": ["A"], "sent_id": [0]},
           "context": {"title": ["A", "B"], "sentences": [["Bob is here.", " Yes."], ["Other."]]}}
    dataset = load_dataset_spec(f"hotpotqa-distractor:validation@{_write_jsonl(tmp_path / 'h.jsonl', [row])}")
    (example,) = dataset.examples
    assert example.answers == ["Bob"] and example.gold_pids == [context_pid("A", "Bob is here. Yes.")]
    assert len(dataset.corpus) == 2


def test_2wiki_list_layout_and_musique_answerable_only(tmp_path):
    wiki = {"_id": "w1", "question": "Q?", "answer": "yes", "type": "comparison",
            "supporting_facts": [["A", 0], ["B", 0]], "context": [["A", ["a."]], ["B", ["b."]], ["C", ["c."]]]}
    dataset = load_dataset_spec(f"2wikimultihopqa:dev@{_write_jsonl(tmp_path / 'w.jsonl', [wiki])}")
    assert len(dataset.examples[0].gold_pids) == 2 and len(dataset.corpus) == 3
    paragraphs = [{"idx": 0, "title": "T", "paragraph_text": "t.", "is_supporting": True}]
    rows = [{"id": "m1", "question": "Q?", "answer": "x", "answer_aliases": ["ex"], "answerable": True,
             "paragraphs": paragraphs},
            {"id": "m2", "question": "Q2?", "answer": "y", "answer_aliases": [], "answerable": False,
             "paragraphs": paragraphs}]
    musique = load_dataset_spec(f"musique:validation@{_write_jsonl(tmp_path / 'm.jsonl', rows)}")
    assert [e.qid for e in musique.examples] == ["m1"] and musique.examples[0].answers == ["x", "ex"]


def test_hub_loader_offline_fails_with_instructions():
    with pytest.raises(MissingArtifactError, match="@/path/to/rows.jsonl"):
        load_dataset_spec("hotpotqa-distractor:validation")


def test_a_split_the_hub_does_not_have_is_refused_before_the_hub_is_asked(monkeypatch, tmp_path):
    import datasets

    def no_hub(*args, **kwargs):
        raise AssertionError("the hub was asked")

    monkeypatch.setattr(datasets, "load_dataset", no_hub)
    with pytest.raises(InputError, match="musique has no hub split 'dev': its splits are train, validation"):
        load_dataset_spec("musique:dev")
    with pytest.raises(InputError, match="no hub split 'test'"):
        load_dataset_spec("hotpotqa-distractor:train+test[:10]")
    # a file of rows may carry any split name: only the hub's names are checked
    rows = [{"id": "m1", "question": "q?", "answer": "x", "answer_aliases": [], "answerable": True,
             "paragraphs": [{"idx": 0, "title": "T", "paragraph_text": "x.", "is_supporting": True}]}]
    monkeypatch.undo()
    assert load_dataset_spec(f"musique:dev@{_write_jsonl(tmp_path / 'm.jsonl', rows)}").name == "musique:dev"


def test_ircot_demonstration_format(tmp_path):
    text = ('# METADATA: {"qid": "d1"}\nWikipedia Title: Walls and Bridges\nAn album by Lennon.\n\n'
            "Wikipedia Title: Efteling (park)\nA park.\n\nQ: Which album?\n"
            "A: Lennon released Walls and Bridges. So the answer is: Walls and Bridges.\n\n")
    path = tmp_path / "demo.txt"
    path.write_text(text)
    dataset = load_dataset_spec(f"ircot-demos:{path}")
    (example,) = dataset.examples
    assert example.answers == ["Walls and Bridges"]
    assert example.gold_pids == [context_pid("Walls and Bridges", "An album by Lennon.")]


def test_unknown_and_incomplete_dataset_names():
    with pytest.raises(UnknownNameError, match="Did you mean 'bundled'"):
        load_dataset_spec("bundle:dev")
    with pytest.raises(InputError, match="bundled split 'val'"):
        load_dataset_spec("bundled:val")
    with pytest.raises(InputError, match="needs more"):
        load_dataset_spec("ircot")


def _musique_row(qid: str, hops: list[tuple[str, str, str, str]], answer: str) -> dict:
    """hops: (question, answer, supporting title, its paragraph text); two distractors follow."""
    paragraphs = [{"idx": i, "title": t, "paragraph_text": text, "is_supporting": True}
                  for i, (_, _, t, text) in enumerate(hops)]
    paragraphs += [{"idx": len(hops) + i, "title": f"D{qid}{i}", "paragraph_text": f"Distractor {qid} {i}.",
                    "is_supporting": False} for i in range(2)]
    paragraphs.reverse()  # the supporting paragraphs are not in hop order
    index = {p["title"]: n for n, p in enumerate(paragraphs)}
    decomposition = [{"id": n, "question": q, "answer": a, "paragraph_support_idx": index[t]}
                     for n, (q, a, t, _) in enumerate(hops)]
    return {"id": qid, "question": f"Question {qid}?", "answer": answer, "answer_aliases": [], "answerable": True,
            "paragraphs": paragraphs, "question_decomposition": decomposition}


def test_musique_decompositions_become_hop_queries_a_chain_and_demonstrations(tmp_path):
    import hopkit
    from hopkit.programs.registry import build_program

    rows = [_musique_row("a", [("Hello Love >> performer", "Hank Snow", "Hello Love", "Hello Love is by Hank Snow."),
                               ("Where did #1 die?", "Madison", "Hank Snow", "Hank Snow died in Madison."),
                               ("#2 >> country", "United States", "Madison", "Madison is in the United States.")],
                         "United States"),
            _musique_row("b", [("Who wrote Brand?", "Henrik Ibsen", "Brand", "Brand is a play by Henrik Ibsen."),
                               ("#1 >> place of birth", "Skien", "Ibsen", "Ibsen was born in Skien.")], "Skien"),
            _musique_row("c", [("Who made Atlas?", "Kellis", "Atlas", "Atlas was made by Kellis."),
                               ("Where was #1 born ?", "Morn", "Kellis", "Kellis was born in Morn.")], "Morn")]
    data = load_dataset_spec(f"musique:train@{_write_jsonl(tmp_path / 'm.jsonl', rows)}")
    first = data.examples[0]
    assert first.hop_queries == ["performer of Hello Love?", "Where did Hank Snow die?", "country of Madison?"]
    assert first.chain[0] == "The performer of Hello Love is Hank Snow."
    assert first.chain[-1] == "So the answer is: United States."
    assert [data.corpus[pid].title for pid in first.gold_pids] == ["Hello Love", "Hank Snow", "Madison"]  # hop order
    assert data.examples[2].hop_queries[1] == "Where was Kellis born?"
    retriever = hopkit.BM25(data.corpus)
    for method, step in (("ircot", "reason"), ("searchain", "plan"), ("tor", "review_step")):  # no comparison needed
        program = build_program(method, retriever, hopkit.LMReader(), train=data)
        assert getattr(program, step).demos, method
    assert len(build_program("tor", retriever, train=data).review_step.demos) == 3  # no one-sided comparison


def test_2wiki_evidences_become_hop_queries_a_chain_and_demonstrations_for_every_method(tmp_path):
    import hopkit
    from hopkit.programs.registry import build_program

    def row(qid, question, answer, evidences, paragraphs):
        return {"_id": qid, "type": "compositional", "question": question, "answer": answer,
                "context": [[title, [text]] for title, text in paragraphs],
                "supporting_facts": [[title, 0] for title, _ in paragraphs[:2]][::-1], "evidences": evidences}

    rows = [row("w1", "Where was the director of film The Zone (2017 Film) born?", "Montreal",
                [["The Zone", "director", "Denys Desjardins"], ["Denys Desjardins", "place of birth", "Montreal"]],
                [("The Zone (2017 film)", "The Zone is a 2017 film by Denys Desjardins."),
                 ("Denys Desjardins", "Denys Desjardins was born in Montreal."), ("Zebra", "Zebras are striped.")]),
            row("w2", "Who directed What Will You Do When You Catch Me??", "Stanisław Bareja",
                [["What Will You Do When You Catch Me?", "director", "Stanisław Bareja"]],
                [("What Will You Do When You Catch Me?", "A 1978 film by Stanisław Bareja."),
                 ("Stanisław Bareja", "Stanisław Bareja was a Polish director.")]),
            row("w3", "When was the director of Atlas born?", "1901",
                [["Atlas", "director", "Kellis"], ["Kellis", "date of birth", "1901"]],
                [("Atlas", "Atlas is a film by Kellis."), ("Kellis", "Kellis was born in 1901.")])]
    data = load_dataset_spec(f"2wikimultihopqa:train@{_write_jsonl(tmp_path / 'w.jsonl', rows)}")
    first = data.examples[0]
    assert first.hop_queries == ["director of The Zone?", "place of birth of Denys Desjardins?"]
    assert first.chain == ["The director of The Zone is Denys Desjardins.",
                           "The place of birth of Denys Desjardins is Montreal.", "So the answer is: Montreal."]
    # gold in the order the evidences reach it, a title's "(2017 film)" matched to the evidence's "The Zone"
    assert [data.corpus[pid].title for pid in first.gold_pids] == ["The Zone (2017 film)", "Denys Desjardins"]
    assert data.examples[1].hop_queries == ["director of What Will You Do When You Catch Me?"]  # one "?" only
    retriever = hopkit.BM25(data.corpus)
    for method, step in (("ircot", "reason"), ("searchain", "plan"), ("tor", "review_step")):
        assert getattr(build_program(method, retriever, hopkit.LMReader(), train=data), step).demos, method


def test_hotpotqa_supporting_sentences_become_a_chain(tmp_path):
    row = {"id": "h1", "question": "Where was the author of Atlas born?", "answer": "Morn", "type": "bridge",
           "context": {"title": ["Kellis", "Atlas", "Zebra"],
                       "sentences": [["Kellis was a writer. ", "He was born in Morn."], ["Atlas is a novel by Kellis."],
                                     ["Zebras are striped."]]},
           "supporting_facts": {"title": ["Atlas", "Kellis"], "sent_id": [0, 1]}}
    data = load_dataset_spec(f"hotpotqa-distractor:train@{_write_jsonl(tmp_path / 'h.jsonl', [row])}")
    example = data.examples[0]
    assert example.chain == ["Atlas is a novel by Kellis.", "He was born in Morn.", "So the answer is: Morn."]
    assert [data.corpus[pid].title for pid in example.gold_pids] == ["Atlas", "Kellis"]


def test_a_local_file_that_is_not_json_lines_says_so_not_that_the_hub_failed(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"id": "x", "question": "q?"}\nnot json\n')
    with pytest.raises(InputError, match=r"could not read .*rows.jsonl as JSON lines .*MuSiQue layout") as caught:
        load_dataset_spec(f"musique:validation@{path}")
    assert "hub" not in str(caught.value)
