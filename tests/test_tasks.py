"""SearChain's other tasks: loaders on local rows in the hubs' layouts, the task setting, and its metrics."""

import json

import dspy
import pytest
from scripted_engine import FieldEchoEngine, ScriptedEngine

from hopkit.data.registry import load_dataset_spec
from hopkit.evaluation.metrics import get_metric
from hopkit.lm.accounted import AccountedLM
from hopkit.programs.baselines import OneR
from hopkit.programs.registry import build_program, task_knobs
from hopkit.programs.searchain.views import statements as searchain_statements
from hopkit.programs.tree_of_reviews.views import statements as tor_statements
from hopkit.tasks import TaskProgram, apply_task, get_task, task_metrics
from hopkit.text.labels import claim_label, yes_no


def _rows(tmp_path, name, rows):
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def kilt(id_, input_, *answers, title="Ada Pell"):
    return {"id": id_, "input": input_, "meta": {},
            "output": [{"answer": a, "provenance": [{"wikipedia_id": "1", "title": title}]} for a in answers]}


def test_strategyqa_rows_load_as_yes_no_over_their_facts(tmp_path):
    path = _rows(tmp_path, "sqa", [{"qid": "s1", "term": "Ada Pell", "description": "a glassmaker",
                                    "question": "Could Ada Pell have met Bo Tull?", "answer": False,
                                    "facts": ["Ada Pell died in 1880.", "Bo Tull was born in 1910."],
                                    "decomposition": ["When did Ada Pell die?", "When was Bo Tull born?"]}])
    data = load_dataset_spec(f"strategyqa:dev@{path}")
    example = data.examples[0]
    assert data.task == "yes-no" and example.answers == ["no"] and len(example.gold_pids) == 2
    assert example.decomposition[0] == "When did Ada Pell die?" and len(data.corpus) == 2


@pytest.mark.parametrize("name, task, row", [
    ("fever", "fact-check", kilt("f1", "Ada Pell was a glassmaker.", "SUPPORTS")),
    ("zsre", "slot-filling", kilt("z1", "Ada Pell [SEP] place of birth", "Denton", "Denton, Tarvania")),
    ("trex", "slot-filling", kilt("t1", "Ada Pell [SEP] occupation", "glassmaker")),
    ("eli5", "long-form", kilt("e1", "Why is glass clear?", "Because light passes through it without scattering.")),
])
def test_kilt_rows_load_with_their_task_and_no_corpus(tmp_path, name, task, row):
    data = load_dataset_spec(f"{name}:dev@{_rows(tmp_path, name, [row, kilt('x', 'no answer')])}")
    assert data.task == task and data.corpus is None and len(data.examples) == 1
    assert data.examples[0].answers == [o["answer"] for o in row["output"]]
    assert data.examples[0].provenance_titles == ["Ada Pell"]
    assert task_metrics(get_task(task), data.examples)[-1] != "recall@15"  # no gold paragraphs in KILT rows


def test_an_open_corpus_dataset_asks_for_an_index(tmp_path, hopkit_home):
    from hopkit.cli.main import main

    path = _rows(tmp_path, "fever", [kilt("f1", "Ada Pell was a glassmaker.", "SUPPORTS")])
    assert main(["eval", "--method", "oner", "--dataset", f"fever:dev@{path}", "--lm", "local:none"]) == 2


def test_labels_are_read_by_words_never_by_substring():
    score = get_metric("label_acc")
    example = dspy.Example(answers=["SUPPORTS"])
    assert score(example, dspy.Prediction(answer="NOT SUPPORTS")) == 0.0
    assert score(example, dspy.Prediction(answer="The evidence supports the claim.")) == 1.0
    assert score(dspy.Example(answers=["REFUTES"]), dspy.Prediction(answer="refuted")) == 1.0
    assert score(example, dspy.Prediction(answer="unclear")) == 0.0
    assert claim_label("NOT SUPPORTS") == "REFUTES" and yes_no("No, it was not.") == "no" and yes_no("maybe") is None


def test_the_task_rewords_answer_steps_and_makes_the_answer_canonical():
    dspy.configure(lm=AccountedLM("local/scripted", engine=FieldEchoEngine(answer="The claim is not supported."),
                                  cache=False))

    class OneParagraph:
        def retrieve(self, query, k):
            from hopkit.data.passage import Passage

            return [Passage("p", "Ada Pell", "Ada Pell was a baker.").ranked(1, 1.0)]

    program = apply_task(OneR(OneParagraph()), "fact-check")
    assert isinstance(program, TaskProgram)
    signature = dict(program.named_predictors())["program.answer"].signature
    assert "REFUTES" in signature.instructions and signature.output_fields["answer"].json_schema_extra["desc"] == \
        "SUPPORTS or REFUTES"
    prediction = program(question="Ada Pell was a glassmaker.")
    assert prediction.answer == "REFUTES" and prediction.trace["raw_answer"] == "The claim is not supported."
    assert get_metric("cover_em")(dspy.Example(answers=["SUPPORTS"]), prediction) == 0.0
    assert apply_task(OneR(OneParagraph()), "multihop-qa").__class__ is OneR


def test_a_closed_task_reads_the_programs_traced_answer_when_the_answer_has_no_label():
    class Planned(dspy.Module):  # SearChain's shape: the chain's planned answer, and its tracing step's answer
        def __init__(self, answer, traced):
            super().__init__()
            self.answer, self.traced = answer, traced

        def forward(self, question):
            return dspy.Prediction(answer=self.answer, trace={"traced_answer": self.traced})

    claim = "The creator of Tower of Zerdyr was born in Port Kourdrein."
    read = apply_task(Planned("Stam Trothstaeova", "SUPPORTS"), "fact-check", searchain_statements)(question=claim)
    assert read.answer == "SUPPORTS" and read.trace["answer_read_from"] == "traced_answer"
    # a label stands as written
    kept = apply_task(Planned("REFUTES", "SUPPORTS"), "fact-check", searchain_statements)(question=claim)
    assert kept.answer == "REFUTES" and "answer_read_from" not in kept.trace
    neither = apply_task(Planned("Stam Trothstaeova", "Port Kourdrein"), "fact-check",
                         searchain_statements)(question=claim)
    assert neither.answer == "Stam Trothstaeova"  # no label anywhere: left as it was, and scored wrong
    assert apply_task(Planned("Stam", "yes"), "yes-no", searchain_statements)(question="Was it?").answer == "yes"
    open_answer = apply_task(Planned("Stam", "Ada"), "slot-filling", searchain_statements)(question="x [SEP] y")
    assert open_answer.answer == "Stam"  # open answers


def test_long_form_searchain_verifies_by_rouge_against_alpha():
    from test_searchain import QueryRetriever, TableReader, chain

    knobs = task_knobs("searchain", get_task("long-form"), {})
    assert knobs == {"answer_form": "long", "yes_no_check": False, "option_check": False, "date_comparison": False}
    assert task_knobs("searchain", get_task("long-form"), {"answer_form": "short"})["answer_form"] == "short"
    # "Is it safe to ...?" stays long
    assert task_knobs("oner", get_task("long-form"), {}) == {"yes_no_check": False, "option_check": False,
                                                             "date_comparison": False}
    assert task_knobs("oner", get_task("multihop-qa"), {}) == {}
    assert task_knobs("oner", get_task("fact-check"), {}) == {"option_check": False, "date_comparison": False}
    long_answer = "Glass is clear because its atoms are arranged without any grain that would scatter the light."
    engine = ScriptedEngine([chain(("Why is glass clear?", long_answer)),
                             chain(("Why is glass clear?", "Light passes through glass."), final="Light passes."),
                             {"final_content": "Light passes through glass [1].", "answer": "Light passes."}])
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))
    program = build_program("searchain", QueryRetriever(), TableReader({"Why is glass clear?": ("light", 0.95)}),
                            decompose_retry=False, **knobs)
    prediction = apply_task(program, "long-form")(question="Why is glass clear?")
    nodes = {n["id"]: n for n in prediction.trace["tree"]["nodes"]}
    # the document ("text about Why is glass clear?") shares little with the long answer: ROUGE-L < alpha
    assert program.answer_form == "long" and nodes["r1.1"]["action"] == "verified-corrected"
    assert prediction.trace["task"] == "long-form"


def test_bundled_task_splits_load_with_their_task_over_the_same_corpus(hopkit_home):
    from collections import Counter

    claims = load_dataset_spec("bundled:fact-check:dev")
    assert claims.task == "fact-check" and claims.corpus_name == "bundled" and len(claims.examples) == 100
    labels = Counter(ex.answers[0] for ex in claims.examples)
    assert set(labels) == {"SUPPORTS", "REFUTES"} and abs(labels["SUPPORTS"] - labels["REFUTES"]) <= 20
    assert all(len(ex.gold_pids) == 2 and ex.gold_pids[0] in claims.corpus for ex in claims.examples)
    slots = load_dataset_spec("bundled:slot-filling:dev").examples
    assert all(" [SEP] " in ex.question and len(ex.gold_pids) == 1 for ex in slots)
    yes_no_data = load_dataset_spec("bundled:yes-no:test")
    assert yes_no_data.task == "yes-no" and {ex.answers[0] for ex in yes_no_data.examples} == {"yes", "no"}
    explain = load_dataset_spec("bundled:long-form:train").examples[0]
    assert len(explain.answers[0].split()) > 20 and explain.chain[-1].startswith("So the answer is:")
    assert load_dataset_spec("bundled:dev").task == "multihop-qa"


def test_task_splits_leave_the_multihop_files_byte_identical(tmp_path):
    from hopkit.data.bundled.build import BundledSpec, build_bundled

    with_tasks = build_bundled(tmp_path / "a",
                               BundledSpec(train=20, dev=5, test=5, task_train=5, task_dev=2, task_test=2))
    without = build_bundled(tmp_path / "b", BundledSpec(train=20, dev=5, test=5, task_train=0, task_dev=0, task_test=0))
    for name in ("corpus.jsonl", "train.jsonl", "dev.jsonl", "test.jsonl", "triples.jsonl"):
        assert (with_tasks / name).read_bytes() == (without / name).read_bytes(), name


def test_an_unknown_bundled_task_says_which_exist():
    from hopkit.errors import InputError

    with pytest.raises(InputError, match="fact-check"):
        load_dataset_spec("bundled:claims:dev")


@pytest.mark.parametrize("name, row", [
    ("strategyqa", {"qid": "s1", "term": "Ada Pell", "question": "Could Ada Pell have met Bo Tull?", "answer": False,
                    "facts": ["Ada Pell died in 1880.", "Bo Tull was born in 1910."]}),
    ("fever", kilt("f1", "Ada Pell was a glassmaker.", "SUPPORTS")),
    ("zsre", kilt("z1", "Ada Pell [SEP] place of birth", "Denton")),
    ("trex", kilt("t1", "Ada Pell [SEP] occupation", "glassmaker")),
    ("eli5", kilt("e1", "Why is glass clear?", "Because light passes through it.")),
])
def test_hopkit_eval_runs_on_each_loaders_local_rows(tmp_path, hopkit_home, name, row):
    """Over a scripted OpenAI-compatible server; KILT rows over a user's own passage file and index."""
    from lm_servers import scripted_lm_server

    from hopkit.cli.main import main

    rows = _rows(tmp_path, name, [row])
    extra = []
    if name == "strategyqa":  # a closed corpus of its facts, indexed like any dataset's
        assert main(["index", "--backend", "bm25", "--dataset", f"{name}:dev@{rows}"]) == 0
    else:
        corpus = tmp_path / "passages.jsonl"
        corpus.write_text(json.dumps({"pid": "k1", "title": "Ada Pell", "text": "Ada Pell was a glassmaker born in "
                                      "Denton. Light passes through glass."}) + "\n")
        assert main(["index", "--backend", "bm25", "--corpus", str(corpus), "--out", str(tmp_path / "index")]) == 0
        extra = ["--index", str(tmp_path / "index")]
    server = scripted_lm_server(answer="SUPPORTS" if name == "fever" else "Denton")
    out = tmp_path / "run.jsonl"
    code = main(["eval", "--method", "oner", "--dataset", f"{name}:dev@{rows}", "--lm", "openai/scripted",
                 "--api-base", f"http://127.0.0.1:{server.server_address[1]}/v1", "--no-cache", "--quiet",
                 "--out", str(out), *extra])
    server.shutdown()
    result = json.loads(out.read_text().splitlines()[0])
    assert code == 0 and result["error"] is None and result["metrics"]
    assert (name == "fever") == ("label_acc" in result["metrics"])
    assert (name == "eli5") == ("rouge_l" in result["metrics"])


def test_a_bundled_task_takes_its_demonstrations_from_its_own_train_split_first(hopkit_home):
    from hopkit.programs.demo_source import resolve_demos_from

    assert resolve_demos_from("auto", "bundled:fact-check:dev") == "bundled:fact-check:train+bundled:train"
    assert resolve_demos_from("auto", "bundled:long-form:dev@50000") == "bundled:long-form:train+bundled:train"
    assert resolve_demos_from("auto", "bundled:dev@50000") == "bundled:train"
    joined = load_dataset_spec("bundled:long-form:train+bundled:train")
    own, multihop = load_dataset_spec("bundled:long-form:train"), load_dataset_spec("bundled:train")
    assert len(joined.examples) == len(own.examples) + len(multihop.examples)
    assert joined.examples[0].qid == own.examples[0].qid
    assert joined.task == "long-form" and joined.corpus.fingerprint() == multihop.corpus.fingerprint()


def test_joining_datasets_of_different_corpora_is_refused(hopkit_home, tmp_path):
    from hopkit.errors import InputError

    row = {"question_id": "r1", "question_text": "Where is Hill 0?", "answers_objects": [{"spans": ["Ohio"]}],
           "contexts": [{"title": "Hill 0", "paragraph_text": "Hill 0 is in Ohio.", "is_supporting": True}]}
    path = tmp_path / "real.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(InputError, match="different corpora"):
        load_dataset_spec(f"bundled:train+ircot:{path}")


@pytest.mark.parametrize("task", ["fact-check", "slot-filling", "yes-no", "long-form"])
def test_every_method_builds_its_demonstrations_for_every_bundled_task(hopkit_home, task):
    import hopkit

    train = load_dataset_spec(f"bundled:{task}:train+bundled:train")
    own = {ex.question for ex in load_dataset_spec(f"bundled:{task}:train").examples}
    retriever = hopkit.BM25(train.corpus)
    for method in ("ircot", "searchain", "tor", "cor"):
        program = build_program(method, retriever=retriever, reader=hopkit.LMReader(), train=train)
        questions = {getattr(demo, "question", None) for _, predictor in program.named_predictors()
                     for demo in predictor.demos}
        # the task's own examples reach the prompts where their shape fits the method's demonstrations: IRCoT
        # takes any chain; SearChain needs two or more hops (slot filling has one); ToR's reviews a two-fact
        # bridge (the claims)
        fits = method == "ircot" or (method == "searchain" and task != "slot-filling") or task == "fact-check"
        assert bool(questions & own) == fits, (method, task)
    searchain = build_program("searchain", retriever=retriever, reader=hopkit.LMReader(), train=train)
    long_answers = [demo.final_answer for _, p in searchain.named_predictors()
                    for demo in p.demos if getattr(demo, "final_answer", "")]
    if task == "long-form":
        assert any(len(answer.split()) > 20 for answer in long_answers)


class _Fused(dspy.Module):
    """A program that, like ToR's fusion, returns an answer and keeps its response in the trace."""

    def __init__(self, answer: str, response: str) -> None:
        super().__init__()
        self.answer, self.response = answer, response

    def forward(self, question: str) -> dspy.Prediction:
        return dspy.Prediction(answer=self.answer, citations=[], retrieved=[], trace={"response": self.response})


def test_a_long_form_answer_is_the_fuller_of_answer_and_response():
    explained = "The Golden Tide was written by Rouk Grirnhoar, a historian born in New Montreil."
    ask = "Explain The Golden Tide."
    named = apply_task(_Fused("Rouk Grirnhoar", explained), "long-form", tor_statements)(question=ask)
    assert named.answer == explained and named.trace["long_answer_from"] == "response"
    swapped = apply_task(_Fused(explained, "Rouk Grirnhoar"), "long-form", tor_statements)(question=ask)
    assert swapped.answer == explained and "long_answer_from" not in swapped.trace
    short_task = apply_task(_Fused("Rouk Grirnhoar", explained), "slot-filling",
                            tor_statements)(question="Golden Tide [SEP] author")
    assert short_task.answer == "Rouk Grirnhoar"


def test_ircot_takes_a_task_splits_own_demonstrations_before_the_multihop_ones(hopkit_home):
    from hopkit.programs.ircot.demonstrations import build_demos

    joined = load_dataset_spec("bundled:fact-check:train+bundled:train")
    claims = {ex.question for ex in load_dataset_spec("bundled:fact-check:train").examples}
    demos = build_demos(joined.examples, joined.corpus)
    assert demos.cot_reader and all(demo.question in claims for demo in demos.cot_reader)  # was 2 claims of 8 before
    assert {demo.answer for demo in demos.cot_reader} <= {"SUPPORTS", "REFUTES"}
    alone = build_demos(load_dataset_spec("bundled:train").examples, joined.corpus)
    assert not any(demo.question in claims for demo in alone.cot_reader)
