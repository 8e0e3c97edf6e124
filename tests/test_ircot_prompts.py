"""What IRCoT's prompts hold: every earlier sentence and collected paragraph, complete demonstration
chains that end in the answer step, real chains from IRCoT's demonstration files, no fictional
bundled text for a real dataset unless asked for, and never a question's own example."""

import json

import dspy
import pytest
from scripted_engine import ScriptedEngine

from hopkit.cli.main import build_parser, main
from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.data.registry import load_dataset_spec
from hopkit.data.sentences import split_sentences
from hopkit.lm.accounted import AccountedLM
from hopkit.programs.demo_source import resolve_demos_from
from hopkit.programs.ircot import IRCoT
from hopkit.programs.ircot.demonstrations import build_demos

DEMO_FILE = """# METADATA: {"qid": "demo-1"}
Wikipedia Title: Harbour Lights (novel)
Harbour Lights is a 1931 novel by the Welsh writer Eluned Price, set in a fishing town.

Wikipedia Title: Eluned Price
Eluned Price (1890-1962) was a Welsh novelist born in Aberystwyth.

Wikipedia Title: Copper Kettle
Copper Kettle is a tea room in Bath.

Q: In which town was the author of Harbour Lights born?
A: Harbour Lights was written by Eluned Price. Eluned Price was born in Aberystwyth. So the answer is: \
Aberystwyth.


# METADATA: {"qid": "demo-2"}
Wikipedia Title: Grey Fell Railway
The Grey Fell Railway is a heritage line opened in 1874 by the engineer Tobias Marsh.

Wikipedia Title: Tobias Marsh
Tobias Marsh (1821-1899) was an English civil engineer who studied at Durham University.

Q: Where did the engineer who opened the Grey Fell Railway study?
A: The Grey Fell Railway was opened by Tobias Marsh. Tobias Marsh studied at Durham University. So the answer is: \
Durham University.
"""


def scripted(replies):
    engine = ScriptedEngine(replies)
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))
    return engine


def prompt_text(request) -> str:
    texts = [request.system] if isinstance(request.system, str) else []
    return "\n".join(texts + [getattr(part, "text", "") or "" for m in request.messages for part in m.parts])


def last_user_turn(request) -> str:
    return "".join(getattr(part, "text", "") or "" for part in request.messages[-1].parts)


class TableRetriever:
    def __init__(self, table):
        self.table = table

    def retrieve(self, query, k):
        return [Passage(pid, f"Title {pid}", f"Paragraph text of {pid}.").ranked(i + 1, 1.0)
                for i, pid in enumerate(self.table.get(query, [])[:k])]


def test_split_sentences_keeps_initials_and_abbreviations_together():
    assert split_sentences("F. W. Murnau directed it. Dr. Who was born in St. Ives. So the answer is: Ives.") == [
        "F. W. Murnau directed it.", "Dr. Who was born in St. Ives.", "So the answer is: Ives."]
    assert split_sentences("") == []


def test_the_reasoner_sees_every_earlier_sentence_and_every_collected_paragraph():
    retriever = TableRetriever({"Q?": ["a", "b"], "Alpha leads to Carla.": ["c"], "Carla leads to Dora.": ["d"]})
    engine = scripted([{"continuation": "Alpha leads to Carla. Something else."},
                       {"continuation": "Carla leads to Dora."}, {"continuation": "So the answer is: Dora."},
                       {"answer": "Dora"}])
    IRCoT(retriever, k=2, answer_reader="direct")(question="Q?")
    third = last_user_turn(engine.requests[2])
    for pid in "abcd":
        assert f"Paragraph text of {pid}." in third
    assert "Alpha leads to Carla. Carla leads to Dora." in third and "Something else" not in third
    assert "Paragraph text of d." not in last_user_turn(engine.requests[1])  # retrieved after the second step


def test_a_reason_step_is_capped_to_a_few_sentences_and_the_reader_is_not():
    retriever = TableRetriever({"Q?": ["a"]})
    engine = scripted([{"continuation": "So the answer is: Dora."}, {"answer": "Dora"}])
    IRCoT(retriever, k=1, answer_reader="direct")(question="Q?")
    assert engine.requests[0].config.max_tokens == 160
    assert engine.requests[1].config.max_tokens != 160


def test_every_reasoner_demonstration_runs_through_the_answer_step(tmp_path):
    corpus = Corpus([Passage(f"p{i}", f"T{i}", f"paragraph {i}") for i in range(20)])
    train = [dspy.Example(question=f"q{i}?", answers=[f"a{i}"], gold_pids=[f"p{i}", f"p{i + 10}"],
                          chain=[f"s{i} one.", f"s{i} two."]).with_inputs("question") for i in range(6)]
    demos = build_demos(train, corpus, m_distractors=1, budget_wordpieces=20_000)
    assert demos.reason[0].reasoning_so_far == ""  # the paper's format: a whole chain from the start
    for demo in demos.reason:
        i = demo.question[1:-1]
        full = f"s{i} one. s{i} two. So the answer is: a{i}."
        assert demo.continuation.endswith(f"So the answer is: a{i}.")
        assert f"{demo.reasoning_so_far} {demo.continuation}".strip() == full
    assert any(demo.reasoning_so_far for demo in demos.reason)  # and continuations of a chain begun
    engine = scripted([{"continuation": "So the answer is: x."}, {"answer": "x"}])
    IRCoT(TableRetriever({"Q?": ["a"]}), k=1, answer_reader="direct", demos=demos)(question="Q?")
    assert "So the answer is: a" in prompt_text(engine.requests[0])


def test_demonstrations_from_an_ircot_file_carry_its_chains(tmp_path):
    path = tmp_path / "demos.txt"
    path.write_text(DEMO_FILE)
    dataset = load_dataset_spec(f"ircot-demos:{path}")
    assert dataset.examples[0].chain == ["Harbour Lights was written by Eluned Price.",
                                         "Eluned Price was born in Aberystwyth.", "So the answer is: Aberystwyth."]
    demos = build_demos(dataset.examples, dataset.corpus, m_distractors=1, budget_wordpieces=20_000)
    chains = {d.question: f"{d.reasoning_so_far} {d.continuation}".strip() for d in demos.reason}
    assert chains["In which town was the author of Harbour Lights born?"] == (
        "Harbour Lights was written by Eluned Price. Eluned Price was born in Aberystwyth. "
        "So the answer is: Aberystwyth.")
    first = next(d for d in demos.reason if d.question.startswith("In which town"))
    assert any(c.startswith("Wikipedia Title: Eluned Price") for c in first.context)


def test_a_question_is_never_shown_its_own_example(tmp_path):
    path = tmp_path / "demos.txt"
    path.write_text(DEMO_FILE)
    dataset = load_dataset_spec(f"ircot-demos:{path}")
    demos = build_demos(dataset.examples, dataset.corpus, m_distractors=1, budget_wordpieces=20_000)
    own = "In which town was the author of Harbour Lights born?"
    engine = scripted([{"continuation": "So the answer is: x."}, {"reasoning": "r.", "answer": "x"}] * 2)
    program = IRCoT(TableRetriever({}), k=1, answer_reader="cot", demos=demos)
    program(question=own)
    for request in engine.requests:
        assert "born in Aberystwyth" not in prompt_text(request)
        assert "Durham University" in prompt_text(request)  # the other demonstration stays
    program(question="Another question?")
    assert "born in Aberystwyth" in prompt_text(engine.requests[-1])
    assert len(program.reason.demos) == 2  # the program's own demonstrations are untouched


def _real_dataset(tmp_path):
    rows = [{"question_id": f"r{i}", "question_text": f"Which river flows through town {i}?",
             "answers_objects": [{"spans": [f"River {i}"]}],
             "contexts": [{"title": f"Town {i}", "paragraph_text": f"Town {i} lies on the River {i}.",
                           "is_supporting": True},
                          {"title": f"Hill {i}", "paragraph_text": f"Hill {i} is a hill.", "is_supporting": False}]}
            for i in range(3)]
    path = tmp_path / "real.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_auto_demonstrations_are_bundled_only_for_bundled_data():
    assert resolve_demos_from("auto", "bundled:dev") == "bundled:train"
    assert resolve_demos_from("auto", "ircot:dev100") is None
    assert resolve_demos_from(None, None) is None
    assert resolve_demos_from("none", "bundled:dev") is None
    assert resolve_demos_from("ircot-demos:/x.txt", "ircot:dev100") == "ircot-demos:/x.txt"


@pytest.mark.parametrize("demos_from, fictional", [("auto", False), ("bundled:train", True)])
def test_no_fictional_text_reaches_a_real_datasets_prompt_unless_asked(hopkit_home, tmp_path, demos_from, fictional):
    from hopkit.cli.answer import _program
    from hopkit.data.registry import load_bundled

    path = _real_dataset(tmp_path)
    assert main(["index", "--backend", "bm25", "--dataset", f"ircot:{path}"]) == 0
    args = build_parser().parse_args(["eval", "--method", "ircot", "--dataset", f"ircot:{path}",
                                      "--demos-from", demos_from])
    dataset = load_dataset_spec(f"ircot:{path}")
    program, _ = _program(args, dataset, lambda: None)
    engine = scripted([{"continuation": "So the answer is: River 0."}, {"reasoning": "r.", "answer": "River 0"}])
    program(question=dataset.examples[0].question)
    text = "\n".join(prompt_text(r) for r in engine.requests)
    bundled_questions = [ex.question for ex in load_bundled("train").examples]
    assert any(q in text for q in bundled_questions) is fictional


def test_one_question_template_cannot_fill_the_demonstrations():
    from hopkit.programs.ircot.demonstrations import round_robin_by_opening

    def ex(question: str) -> dspy.Example:
        return dspy.Example(question=question)

    examples = [ex("In which country was A born?"), ex("In which country was B born?"),
                ex("In which country was C born?"), ex("In which city was D born?"), ex("Who was born first, E or F?")]
    ordered = [e.question for e in round_robin_by_opening(examples)]
    assert ordered == [examples[i].question for i in (0, 3, 4, 1, 2)]


def test_in_domain_demonstrations_name_the_datasets_own_train_split():
    from hopkit.errors import InputError

    assert resolve_demos_from("in-domain", "musique:validation") == "musique:train"
    assert resolve_demos_from("in-domain", "2wikimultihopqa:validation") == "2wikimultihopqa:train"
    assert resolve_demos_from("in-domain", "hotpotqa-fullwiki:validation") == "hotpotqa-distractor:train"
    assert resolve_demos_from("in-domain", "bundled:dev") == "bundled:train"
    with pytest.raises(InputError, match="no known train split"):
        resolve_demos_from("in-domain", "ircot:dev100")
