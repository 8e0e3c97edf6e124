"""Tree of Reviews' control flow with a routed scripted LM: actions, pruning, limits, budget, fusion, CoR."""

import re
import threading

import dspy
import pytest
from scripted_engine import ScriptedEngine

from hopkit.data.passage import Passage
from hopkit.evaluation.trace_stats import stats_of
from hopkit.lm.accounted import AccountedLM
from hopkit.programs.registry import build_program
from hopkit.programs.tree_of_reviews import TreeOfReviews
from hopkit.programs.tree_of_reviews.fusion import EvidenceFusion, rank_by_response
from hopkit.programs.tree_of_reviews.review import read_markers
from hopkit.programs.tree_of_reviews.tree import Evidence

TITLE = re.compile(r"Wikipedia Title: (\w+)")


class RoutedEngine(ScriptedEngine):
    """Replies by what the request is: a review is answered by the last paragraph on its path."""

    def __init__(self, reviews, fusion=None, missing="written missing paragraph", default=("no", "no", ""),
                 written_query="written query"):
        super().__init__([])
        self.reviews, self.default, self.missing, self.written_query = reviews, default, missing, written_query
        self.systems = []
        self.fusion = fusion or {"response": "The answer is Morn.", "answer": "Morn"}
        self.reviewed_paths = []
        self.lock = threading.Lock()

    def complete(self, request):
        text = request.messages[-1].parts[0].text
        system = str(request.system or "") + str(request.messages[0])
        with self.lock:
            self.systems.append(system)
            if "[[ ## sufficient ## ]]" in system:
                titles = TITLE.findall(text)
                self.reviewed_paths.append(titles)
                relevant, sufficient, output, *answer = self.reviews.get(titles[-1], self.default)
                reply = {"relevant": relevant == "yes", "sufficient": sufficient == "yes", "output": output,
                         "answer": answer[0] if answer else ("text" if sufficient == "yes" else "")}
                for thought in ("reasoning", "relevance_thought", "sufficiency_thought", "next_thought"):
                    if f"[[ ## {thought} ## ]]" in system:
                        reply[thought] = "a thought"
                self.replies = [reply]
            elif "missing_information" in system:
                self.replies = [{"missing_information": self.missing, "answer": "?"}]
            elif "[[ ## facts ## ]]" in system:  # the yes/no check
                self.replies = [{"reasoning": "a thought", "answer": "no"}]
            elif "[[ ## query ## ]]" in system:
                self.replies = [{"query": self.written_query}]
            else:
                self.replies = [dict(self.fusion)]
            return super().complete(request)


class TableRetriever:
    def __init__(self, table):
        self.table, self.calls = table, []

    def retrieve(self, query, k):
        self.calls.append((query, k))
        found = self.table.get(query, [])[:k]
        return [Passage(pid, pid, f"text of {pid}").ranked(i + 1, 1.0) for i, pid in enumerate(found)]


def setup(reviews, table, **kw):
    routing = ("fusion", "missing", "default", "written_query")
    engine = RoutedEngine(reviews, **{k: v for k, v in kw.items() if k in routing})
    dspy.configure(lm=AccountedLM("local/routed", engine=engine, cache=False))
    knobs = {k: v for k, v in kw.items() if k not in routing}
    retriever = TableRetriever(table)
    return TreeOfReviews(retriever, **{"expansion": "direct", "threads": 1, **knobs}), engine, retriever


def nodes(prediction):
    return {n["pid"]: n for n in prediction.trace["nodes"]}


def test_each_action_has_its_effect():
    program, engine, retriever = setup(
        {"A": ("yes", "yes", "A answers it."), "B": ("yes", "no", "find C"), "C": ("yes", "yes", "B and C answer it."),
         "D": ("no", "no", "")},
        {"Q?": ["A", "B", "D"], "find C": ["C"]})
    prediction = program(question="Q?")
    by_pid = nodes(prediction)
    assert by_pid["A"]["action"] == "accept" and by_pid["B"]["action"] == "search" and by_pid["D"]["action"] == "reject"
    assert retriever.calls == [("Q?", 5), ("find C", 3)]  # only the search node expands, with layer 2's width
    assert by_pid["C"]["path"] == ["B", "C"] and by_pid["B"]["next_query"] == "find C"
    assert [e["pids"] for e in prediction.trace["evidence"]] == [["A"], ["B", "C"]]
    assert prediction.answer == "Morn" and prediction.citations == ["A", "B", "C"]
    stats = stats_of(prediction.trace)
    assert (stats["api"], stats["doc"], stats["evidence"]) == (5, 4, 2)  # 4 reviews + fusion


def test_relevance_pruning_off_expands_irrelevant_paragraphs():
    reviews, table = {"D": ("no", "no", "look elsewhere")}, {"Q?": ["D"], "look elsewhere": ["E"]}
    program, _, retriever = setup(reviews, table)
    program(question="Q?")
    assert retriever.calls == [("Q?", 5)]
    program, _, retriever = setup(reviews, table, relevance_pruning=False)
    prediction = program(question="Q?")
    assert retriever.calls[:2] == [("Q?", 5), ("look elsewhere", 3)] and "E" in nodes(prediction)


def test_repetitive_pruning_skips_paragraphs_already_in_the_pool():
    reviews = {"A": ("yes", "yes", "A answers."), "B": ("yes", "no", "again A")}
    table = {"Q?": ["A", "B"], "again A": ["A", "C"]}
    program, engine, _ = setup(reviews, table)
    prediction = program(question="Q?")
    statuses = [(n["pid"], n["status"]) for n in prediction.trace["nodes"]]
    assert ("A", "pruned-repetitive") in statuses and stats_of(prediction.trace)["pruned_repetitive"] == 1
    assert ["B", "A"] not in engine.reviewed_paths and ["B", "C"] in engine.reviewed_paths
    program, engine, _ = setup(reviews, table, repetitive_pruning=False)
    program(question="Q?")
    assert ["B", "A"] in engine.reviewed_paths


def test_depth_and_width_limits():
    reviews = {p: ("yes", "no", f"after {p}") for p in "ABCDEFG"}
    table = {"Q?": ["A", "B", "C"], "after A": ["D", "E", "F"], "after D": ["G"]}
    program, _, retriever = setup(reviews, table, depth=2, width_1=2, width_2=1)
    prediction = program(question="Q?")
    assert retriever.calls == [("Q?", 2), ("after A", 1), ("after B", 1)]  # no third layer
    assert max(n["depth"] for n in prediction.trace["nodes"]) == 2 and "C" not in nodes(prediction)


def test_the_budget_stops_the_search_and_still_fuses():
    reviews = {p: ("yes", "no", f"after {p}") for p in "ABCDE"}
    program, engine, _ = setup(reviews, {"Q?": ["A", "B", "C"], "after A": ["D", "E"]}, budget=2)
    prediction = program(question="Q?")
    assert len(engine.reviewed_paths) == 2 and prediction.trace["stopped_by_budget"]
    assert sum(n["status"] == "skipped-budget" for n in prediction.trace["nodes"]) >= 1
    assert prediction.answer == "Morn" and stats_of(prediction.trace)["empty_pool"] == 1


def test_fusion_reads_what_its_mode_names():
    passages = {p: Passage(p, p, f"text of {p}") for p in "AB"}
    pool = [Evidence(["A"], "A says Morn.", "n.1"), Evidence(["A", "B"], "B says Tull.", "n.2")]
    assert EvidenceFusion("analysis", 80).inputs(pool, passages) == {"assertions": ["A says Morn.", "B says Tull."]}
    paragraphs = EvidenceFusion("paragraph", 80).inputs(pool, passages)["paragraphs"]
    assert [TITLE.findall(p)[0] for p in paragraphs] == ["A", "B"]  # each paragraph once
    evidence = EvidenceFusion("evidence", 80).inputs(pool, passages)["evidence"]
    assert evidence[1].startswith("Assertion: B says Tull.") and TITLE.findall(evidence[1]) == ["A", "B"]


def test_more_than_15_pool_paragraphs_are_ranked_by_the_response():
    passages = {f"p{i}": Passage(f"p{i}", f"t{i}", f"filler words number {i}") for i in range(20)}
    passages["p19"] = Passage("p19", "Morn", "Kellis was born in Morn")
    ranked = rank_by_response(list(passages), passages, "Kellis was born in Morn", keep=15)
    assert ranked[0] == "p19" and len(ranked) == 20
    assert rank_by_response(["p3", "p1"], passages, "Morn", keep=15) == ["p3", "p1"]  # 15 or fewer: pool order


def test_cor_reviews_one_growing_path():
    reviews = {"B": ("yes", "no", "find C"), "C": ("yes", "yes", "A, B and C answer it.")}
    program, engine, retriever = setup(reviews, {"Q?": ["A", "B"], "find C": ["C", "A"]}, single_path=True)
    prediction = program(question="Q?")
    assert engine.reviewed_paths == [["A", "B"], ["A", "B", "C"]]  # the whole path each time, A kept once
    assert prediction.trace["evidence"][0]["pids"] == ["A", "B", "C"] and prediction.trace["method"] == "cor"
    assert stats_of(prediction.trace)["doc"] == 3 and stats_of(prediction.trace)["api"] == 3  # 2 reviews + fusion


def test_cor_with_nothing_accepted_reads_every_relevant_paragraph_on_its_path():
    reviews = {"B": ("yes", "no", "find C"), "C": ("yes", "no", "find D")}
    program, engine, _ = setup(reviews, {"Q?": ["A", "B"], "find C": ["C"]}, single_path=True, depth=2)
    prediction = program(question="Q?")
    assert stats_of(prediction.trace)["empty_pool"] == 1
    assert sorted(prediction.citations) == ["A", "B", "C"]


def test_mpc_uses_the_written_paragraph_as_the_query():
    program, _, retriever = setup({"A": ("yes", "no", "direct query")}, {"Q?": ["A"]}, expansion="mpc",
                                  missing="Kellis was born in Morn.")
    prediction = program(question="Q?")
    assert retriever.calls[1] == ("Kellis was born in Morn.", 3)
    assert stats_of(prediction.trace)["api"] == 3  # review, missing paragraph, fusion


def test_unparseable_reviews_are_counted_and_rejected():
    review = read_markers("I cannot tell.")
    assert review.parse == "failed" and review.action == "reject"
    assert read_markers("- Judgment: [RELEVANT]\n- Judgment: [SUPPORTED]\n- Output: [ANSWER] Morn.").action == "accept"


def test_sibling_reviews_run_concurrently_and_the_trace_is_the_same():
    reviews = {p: ("yes", "yes", f"{p} answers.") for p in "ABCDE"}
    table = {"Q?": list("ABCDE")}
    program, engine, _ = setup(reviews, table, threads=4, order="layer")
    threaded = program(question="Q?")
    program, _, _ = setup(reviews, table, threads=1)
    serial = program(question="Q?")
    assert threaded.trace["evidence"] == serial.trace["evidence"] and len(engine.reviewed_paths) == 5


def test_registry_builds_tor_and_cor_with_validated_knobs():
    retriever = TableRetriever({})
    assert build_program("cor", retriever).single_path is True
    assert build_program("tor", retriever, depth=2, width_1=10, width_2=5).widths[:2] == [10, 5]
    with pytest.raises(Exception, match="expansion"):
        build_program("tor", retriever, expansion="bfs")


def test_demonstrations_show_search_accept_and_reject(bundled_dev):
    from hopkit.data.registry import load_dataset_spec

    train = load_dataset_spec("bundled:train")
    program = build_program("tor", TableRetriever({}), train=train)
    actions = [(d.relevant, d.sufficient) for d in program.review_step.demos]
    assert actions == [(True, False), (True, True), (False, False), (True, False)]
    one_side = program.review_step.demos[3]  # the comparison with one side: relevant, search for the other
    assert one_side.question == program.review_step.demos[1].question and len(one_side.paragraphs) == 1
    assert program.review_step.demos[0].output.endswith("?") and program.complete_missing.demos
    cot = build_program("cor", TableRetriever({}), train=train, expansion="cot")
    assert all(d.relevance_thought for d in cot.review_step.demos)


def test_the_default_review_reasons_before_it_decides():
    program, engine, _ = setup({"A": ("yes", "yes", "A answers.", "text")}, {"Q?": ["A"]}, expansion="mpc")
    program(question="Q?")
    review = next(s for s in engine.systems if "[[ ## sufficient ## ]]" in s)
    assert review.index("`reasoning`") < review.index("`relevant`") < review.index("`sufficient`")


def test_an_accept_whose_answer_is_not_in_its_paragraphs_searches_on():
    reviews = {"A": ("yes", "yes", "Kellis was born in Morn.", "Morn"), "B": ("yes", "yes", "Morn.", "text")}
    program, engine, retriever = setup(reviews, {"Q?": ["A"], "written query": ["B"]}, expansion="direct")
    prediction = program(question="Q?")
    a, b = nodes(prediction)["A"], nodes(prediction)["B"]
    assert a["unsupported_accept"] and a["action"] == "search" and a["query_source"] == "written"
    assert retriever.calls[1][0] == "written query" and b["action"] == "accept"
    assert prediction.trace["evidence"][0]["pids"] == ["A", "B"]
    assert stats_of(prediction.trace)["unsupported_accepts"] == 1
    program, _, _ = setup(reviews, {"Q?": ["A"]}, expansion="direct", check_accept=False)
    assert nodes(program(question="Q?"))["A"]["action"] == "accept"  # the paper's accept, one knob away


def test_a_yes_no_accept_needs_two_paragraphs():
    from hopkit.additions.review_checks import supported

    assert not supported("yes", ["A is a film."]) and supported("Yes", ["A is a film.", "B is a film."])
    assert supported("Port Velmar", ["born in Port Velmar."]) and not supported("", ["x"])


def test_an_either_or_accept_needs_both_options_on_its_path():
    from hopkit.additions.review_checks import supported

    question = "Which genus has more species, Salvia or Arachis?"
    salvia = "Salvia. Salvia is the largest genus of plants in the sage family, with about 1000 species."
    arachis = "Arachis. Arachis is a genus of about 70 species of annual and perennial herbs."
    assert not supported("Salvia", [salvia], question)  # one side of the comparison only
    assert supported("Salvia", [salvia, arachis], question)
    assert not supported("Arachis", [salvia], question)  # the answer itself is not on the path either
    assert supported("Salvia", [salvia], "Which genus is in the sage family?")  # not either-or: unchanged


def test_a_search_never_resends_the_question():
    # the review asks for a search but its query is the question itself: a query is written instead
    program, _, retriever = setup({"A": ("yes", "no", "Q?")}, {"Q?": ["A"], "find the rest": ["B"]},
                                  written_query="find the rest")
    program(question="Q?")
    assert [q for q, _ in retriever.calls] == ["Q?", "find the rest"]
    # and when no real query can be written, the node is not expanded
    program, _, retriever = setup({"A": ("yes", "no", "")}, {"Q?": ["A"]}, written_query="Q?")
    prediction = program(question="Q?")
    assert [q for q, _ in retriever.calls] == ["Q?"] and stats_of(prediction.trace)["unexpanded_searches"] == 1


def test_three_distinct_review_demonstrations_and_fusion_demonstrations(bundled_dev):
    from hopkit.data.registry import load_dataset_spec

    train = load_dataset_spec("bundled:train")
    program = build_program("tor", TableRetriever({}), train=train)
    demos = program.review_step.demos
    assert len({d.question for d in demos[:2]}) == 2  # a bridge question and a comparison question
    assert "first" in demos[1].question or " or " in demos[1].question
    assert all(d.reasoning for d in demos) and demos[1].answer in " ".join(demos[1].paragraphs)
    assert program.fuse.from_evidence.demos and program.fuse.from_paragraphs.demos


def test_review_demonstrations_from_chains_of_thought():
    from hopkit.data.corpus import Corpus
    from hopkit.data.examples import make_example
    from hopkit.programs.tree_of_reviews.demonstrations import build_review_demos

    corpus = Corpus([Passage("x", "Atlas (novel)", "Atlas is a novel written by Kellis in 1901."),
                     Passage("k", "Kellis", "Kellis was a writer born in Morn."),
                     Passage("a", "Ada Pell", "Ada Pell was born in 1900."),
                     Passage("b", "Bo Tull", "Bo Tull was born in 1910."),
                     Passage("z", "Zebra", "Zebras are striped.")])
    train = [make_example("b1", "Where was the author of Atlas born?", ["Morn"], ["x", "k"],
                          chain=["Atlas was written by Kellis.", "Kellis was born in Morn.",
                                 "So the answer is: Morn."]),
             make_example("c1", "Who is older, Ada Pell or Bo Tull?", ["Ada Pell"], ["a", "b"],
                          chain=["Ada Pell was born in 1900.", "Bo Tull was born in 1910.", "Thus Ada Pell is older.",
                                 "So the answer is: Ada Pell."]),
             make_example("z1", "What are zebras?", ["horses"], ["z"],
                          chain=["Zebras are striped.", "So the answer is: horses."])]
    dspy.configure(lm=AccountedLM("local/scripted", engine=ScriptedEngine(
        [{"query": "Who wrote Atlas?"}, {"query": "Where was Kellis born?"},
         {"query": "When was Ada Pell born?"}, {"query": "When was Bo Tull born?"}]), cache=False))
    demos = build_review_demos(train, corpus)
    search, accept, reject, one_side = demos.review_reasoned
    assert search.output == "Where was Kellis born?" and not search.sufficient
    assert one_side.relevant and not one_side.sufficient and one_side.output == "When was Bo Tull born?"
    assert accept.sufficient and accept.answer == "Ada Pell" and len(accept.paragraphs) == 2
    assert not reject.relevant and "Zebra" in reject.paragraphs[0]


def test_the_pool_is_reranked_by_the_retrievers_own_similarity():
    passages = {f"p{i}": Passage(f"p{i}", f"t{i}", f"words {i}") for i in range(20)}

    class Ranker:
        def retrieve(self, query, k):
            return [passages[p].ranked(i + 1, 1.0) for i, p in enumerate(["p7", "p3"])]

    ranked = rank_by_response(list(passages), passages, "anything", keep=15, retriever=Ranker())
    assert ranked[:2] == ["p7", "p3"] and ranked[2:] == [p for p in passages if p not in ("p7", "p3")]


def test_mpc_query_can_be_cut_to_its_first_sentence_on_purpose():
    program, _, retriever = setup({"A": ("yes", "no", "")}, {"Q?": ["A"]}, expansion="mpc",
                                  missing="Kellis was born in Morn. He wrote novels.", mpc_query="first_sentence")
    program(question="Q?")
    assert retriever.calls[1][0] == "Kellis was born in Morn."


def test_a_value_answer_to_a_yes_no_question_is_checked_and_counted():
    program, _, _ = setup({"A": ("yes", "yes", "A answers it.")}, {"Is A older than B?": ["A"]},
                          fusion={"response": "A was made in 1901 and B in 1890.", "answer": "1901"})
    prediction = program(question="Is A older than B?")
    assert prediction.answer == "no" and prediction.trace["yes_no_check"]["before"] == "1901"
    assert stats_of(prediction.trace)["api"] == 3  # review, fusion, check


def test_a_reject_of_a_paragraph_titled_with_an_option_searches_on():
    question = "Which genus has more species, Salvia or Arachis?"
    reviews = {"Salvia": ("no", "no", "Nothing about Arachis here."), "Zebra": ("no", "no", ""),
               "Arachis": ("yes", "yes", "Salvia has more.", "Salvia")}
    table = {question: ["Salvia", "Zebra"], "written query": ["Arachis"]}
    program, _, retriever = setup(reviews, table)
    prediction = program(question=question)
    by_pid = nodes(prediction)
    assert by_pid["Salvia"]["action"] == "search" and by_pid["Salvia"]["overruled_reject"]
    assert by_pid["Zebra"]["action"] == "reject" and not by_pid["Zebra"]["overruled_reject"]
    # the review's own text is no query: a query is written for the other side, never the review's words
    assert [q for q, _ in retriever.calls] == [question, "written query"]
    assert by_pid["Arachis"]["action"] == "accept"  # both options on its path: the checked accept passes
    assert prediction.trace["evidence"][0]["pids"] == ["Salvia", "Arachis"]
    assert stats_of(prediction.trace)["overruled_rejects"] == 1
    program, _, retriever = setup(reviews, table, check_reject=False)
    assert nodes(program(question=question))["Salvia"]["action"] == "reject"  # the paper's reject, one knob away
    assert [q for q, _ in retriever.calls] == [question]


def test_an_option_is_named_by_a_title_loosely():
    from hopkit.additions.review_checks import names_an_option

    question = "Which opera has more acts, Parsifal or Manon by Massenet?"
    assert names_an_option(question, "Parsifal") and names_an_option(question, "Manon")
    assert names_an_option("Which band has more members Band of Skulls or Live ?", "Live (band)")
    assert not names_an_option(question, "Richard Wagner")
    assert not names_an_option("Who wrote Parsifal?", "Parsifal")  # not an either-or question


def test_the_papers_depth_first_search_goes_into_a_subtree_before_the_next_sibling():
    reviews = {"A": ("yes", "no", "after A"), "B": ("yes", "no", "after B"), "C": ("yes", "yes", "C answers.")}
    table = {"Q?": ["A", "B"], "after A": ["C"], "after B": ["D"]}
    program, engine, _ = setup(reviews, table)
    assert program.order == "depth_first"
    program(question="Q?")
    assert engine.reviewed_paths[:3] == [["A"], ["A", "C"], ["B"]]
    program, engine, _ = setup(reviews, table, order="layer")
    program(question="Q?")
    assert engine.reviewed_paths[:3] == [["A"], ["B"], ["A", "C"]]


def test_depth_first_repetitive_pruning_sees_the_evidence_a_subtree_found():
    reviews = {"A": ("yes", "no", "after A"), "C": ("yes", "yes", "C answers.")}
    table = {"Q?": ["A", "C"], "after A": ["C"]}
    program, engine, _ = setup(reviews, table)
    prediction = program(question="Q?")
    first_layer_c = next(n for n in prediction.trace["nodes"] if n["pid"] == "C" and n["depth"] == 1)
    assert first_layer_c["status"] == "pruned-repetitive" and ["C"] not in engine.reviewed_paths
    program, engine, _ = setup(reviews, table, order="layer")
    prediction = program(question="Q?")
    assert ["C"] in engine.reviewed_paths  # reviewed with its siblings, before A's subtree found it


def test_the_reader_gets_the_pool_in_order_up_to_its_input_limit():
    from hopkit.programs.tree_of_reviews.fusion import EvidenceFusion
    from hopkit.programs.tree_of_reviews.tree import Evidence

    passages = {pid: Passage(pid, pid, "word " * 60) for pid in "ABC"}
    pool = [Evidence([pid], f"{pid} says so.", pid) for pid in "ABC"]
    limited = EvidenceFusion("paragraph", 0, reader_tokens=150).inputs(pool, passages, "Q?")
    assert [p.split("\n")[0] for p in limited["paragraphs"]] == ["Wikipedia Title: A", "Wikipedia Title: B"]
    whole = EvidenceFusion("paragraph", 0, reader_tokens=0).inputs(pool, passages, "Q?")
    assert len(whole["paragraphs"]) == 3
    program, _, _ = setup({}, {})
    assert program.fuse.reader_tokens == 4096  # the paper's maximum length, in both profiles
