"""Every tunable knob of every program, declared once: default (the ``hopkit`` profile), paper value (the
``paper`` profile), range, and where it came from.

Programs resolve their knobs here (``hopkit.knobs.profiles.resolve``) and validate values with the same
check; the optimizer reads the same declarations to build its search space, and ``hopkit knobs METHOD``
prints them. A knob marked ``addition`` is not in the paper: its paper value turns it off.
"""

from __future__ import annotations

from hopkit.knobs.knob import Knob

ADDITIONS = "docs/design/additions.md"  # what each addition was designed on, and its measured effect


def why(reason: str, knob: str) -> str:
    """An addition's origin: the reason in a sentence and where its evidence is."""
    return f"{reason} ({ADDITIONS}#{knob})"


# Words of each paragraph a reader or reasoner sees. hopkit reads 120 for OneR, IRCoT and SearChain's
# feedback, so that no method reads a shorter version of the same evidence than the baseline; none of the
# papers cuts a paragraph (0: whole paragraphs).
PARAGRAPH_WORDS = 120


def paragraph_words(default: int, origin: str) -> Knob:
    return Knob("paragraph_words", default, "words of each paragraph shown to the LM; 0: the whole paragraph "
                "(the papers read whole paragraphs)", 0, 400, 1, paper=0, addition=True,
                label="paragraph word cut", origin=why(origin, "paragraph_words"))


# IRCoT's few-shot prompts, shared by OneR and NoR, whose reader is IRCoT's (the paper's baselines read with the
# same few-shot reader). The paper samples 15 of its 20 annotated questions and packs as many as fit its context.
DEMO_BUDGET = Knob("demo_budget", 6000, "wordpieces all demonstrations of one prompt may take, packed in order until "
                   "the next would not fit (the paper: 6,000 for Flan-T5, 8,000 for GPT3)", 0, 16000, 100,
                   builds_demos=True, origin="IRCoT section 4")
MAX_DEMOS = Knob("max_demos", 15, "most demonstrations of one prompt (the paper samples 15 of its 20)", 1, 30, 1,
                 builds_demos=True, origin="IRCoT appendix B")
M_DISTRACTORS = Knob("m_distractors", 2, "distractors per demonstration (the paper's M)", 1, 3, 1,
                     builds_demos=True, origin="IRCoT section 3")

# Shared by every method that answers: the answer-form steps of hopkit/additions/.
YES_NO_CHECK = Knob("yes_no_check", True, "when a yes/no question gets an answer that is neither yes nor no, one "
                    "short call decides yes or no from the reader's reasoning or paragraphs", choices=(True, False),
                    paper=False, addition=True, label="yes/no check",
                    origin=why("a small model answers a yes/no question with the value it compared", "yes_no_check"))
RESTATEMENT = Knob("restatement", True, "with yes_no_check: a yes/no answer written as a sentence that restates "
                   "the question's claim reads as yes (no when it negates it), with no call", choices=(True, False),
                   paper=False, addition=True, label="restatement read as yes/no",
                   origin=why("a restated claim is a yes the check's call can turn into a no", "restatement"))
OPTION_CHECK = Knob("option_check", True, "when an either-or question gets an answer that names neither option (or "
                    "both), one short call picks an option; an answer naming one becomes that option",
                    choices=(True, False), paper=False, addition=True, label="either-or check",
                    origin=why("an either-or question is often answered with neither option", "option_check"))
DATE_COMPARISON = Knob("date_comparison", True, "an either-or question that compares two options by date "
                       "('which came out first', 'who was born later', 'whose director is older'): the date the "
                       "method's reasoning states for each option is read back and compared in code, no LM call; "
                       "the answer stands when the reasoning gives an option no single date or the two tie",
                       choices=(True, False), paper=False, addition=True, label="date comparison",
                       origin=why("reasoning that states both dates still picks the wrong option", "date_comparison"))
ANSWER_AS_ASKED = Knob("answer_as_asked", True, "the answer prompt's sentence 'answer the question as asked: yes or "
                       "no when it asks yes or no, one of the named options when it asks which' (readers' "
                       "instructions; SearChain's answer fields)",
                       choices=(True, False), paper=False, addition=True,
                       label="answer-as-asked wording",
                       origin=why("a small model answers the value it compared, not the yes/no or option asked",
                                  "answer_as_asked"))
# the checks that read a method's answer, in the order they run: every method that answers a question has them
ANSWER_STEPS: dict[str, Knob] = {step.name: step for step in (YES_NO_CHECK, RESTATEMENT, OPTION_CHECK,
                                                               DATE_COMPARISON)}

# ToR's section 4.3 runs its step-by-step baselines (Self-Ask, ReAct, ITER-RETGEN) alike: top-5 paragraphs a query,
# at most 3 turns, 3 shots from a train split.
def baseline_k() -> Knob:
    return Knob("k", 5, "paragraphs retrieved a query (5 in ToR's runs)", 1, 15, 1, origin="ToR section 4.3")


def baseline_turns(doc: str) -> Knob:
    return Knob("max_turns", 3, doc + " (3 in ToR's runs)", 1, 8, 1, origin="ToR section 4.3")


def baseline_shots() -> Knob:
    return Knob("shots", 3, "worked examples shown, drawn from the train split (3 in ToR's runs)", 0, 6, 1,
                builds_demos=True, origin="ToR section 4.3")


KNOBS: dict[str, dict[str, Knob]] = {
    "oner": {
        "k": Knob("k", 8, "paragraphs retrieved with the question as the query (IRCoT tunes 5..15)", 1, 15, 1,
                  origin="IRCoT's OneR baseline"),
        "demo_budget": DEMO_BUDGET,
        "max_demos": MAX_DEMOS,
        "m_distractors": M_DISTRACTORS,
        "paragraph_words": paragraph_words(PARAGRAPH_WORDS, "one budget for OneR and IRCoT"),
        "answer_as_asked": ANSWER_AS_ASKED,
        **ANSWER_STEPS,
    },
    "ircot": {
        "k": Knob("k", 4, "paragraphs retrieved per step (the paper tunes K in {2, 4, 6, 8})", 1, 10, 1,
                  origin="IRCoT section 3"),
        "cap": Knob("cap", 15, "most paragraphs collected per question (15 in the paper)", 1, 30, 1,
                    origin="IRCoT section 3"),
        "max_steps": Knob("max_steps", 8, "most reasoning sentences (8 in the paper)", 1, 12, 1,
                          origin="IRCoT section 3"),
        "answer_reader": Knob("answer_reader", "cot", "separate reader: cot, direct, or none (answer from the chain)",
                              choices=("cot", "direct", "none"), origin="IRCoT appendix A (CoT reader)"),
        "m_distractors": M_DISTRACTORS,
        "demo_budget": DEMO_BUDGET,
        "max_demos": MAX_DEMOS,
        "balance_openings": Knob("balance_openings", True, "demonstrations taken round-robin over their questions' "
                                 "openings, so one template cannot fill the budget (off: the paper's random choice)",
                                 choices=(True, False), builds_demos=True, paper=False, addition=True,
                                 label="demonstrations balanced by opening",
                                 origin=why("one template can fill a random pick of demonstrations",
                                            "balance_openings")),
        "skip_restated": Knob("skip_restated", True, "keep the first generated sentence that is neither the "
                              "question nor one the chain already holds. This stands in for the paper's text "
                              "continuation: its reasoner continues 'Q: question A: s1 ... sn' and cannot write the "
                              "question or s1 again, while a chat model given them as inputs often writes them out "
                              "again first (false: keep the first sentence whatever it says)", choices=(True, False),
                              origin="the chat format standing in for continuation"),
        "stop_on_repeat": Knob("stop_on_repeat", False, "also stop when the model's first sentence repeats one the "
                               "chain holds (the paper stops only at 'answer is' or max_steps)", choices=(False, True),
                               origin="the paper's rule by default"),
        "step_tokens": Knob("step_tokens", 160, "most tokens one reason step may generate (only its first new sentence "
                            "is kept); 0: no cap beyond the LM's max_tokens, as the paper", 0, 1024, 1, paper=0,
                            addition=True,
                            label="reason-step token cap",
                            origin=why("cost: a generation that copies paragraphs is cut", "step_tokens")),
        "paragraph_words": paragraph_words(PARAGRAPH_WORDS, "one budget for OneR and IRCoT"),
        "answer_as_asked": ANSWER_AS_ASKED,
        **ANSWER_STEPS,
    },
    "searchain": {
        "theta": Knob("theta", None, "reader confidence above which a disagreeing reference corrects a node, on a "
                      "probability scale; the paper's 1.5 on DPR's relevance logit is sigmoid(1.5) = 0.82. None: the "
                      "reader's calibrated value (the LM reader: 0.5), else 0.82", 0.0, 1.0, optional=True,
                      origin="SearChain section 3.3; the paper tuned theta for its reader"),
        "alpha": Knob("alpha", 0.35, "ROUGE-L between a long-form answer and its document below which they "
                      "disagree (0.35 in the paper)", 0.0, 1.0, origin="SearChain section 4"),
        "r_max": Knob("r_max", 5, "most rounds of LM-IR interaction (5 in the paper)", 1, 10, 1,
                      origin="SearChain Algorithm 1"),
        "k": Knob("k", 1, "documents retrieved per node; the reader reads them all (top-1 in the paper)", 1, 5, 1,
                  origin="SearChain section 3.3"),
        "dup_threshold": Knob("dup_threshold", 0.9, "ROUGE-L between two queries at or above which the later one "
                              "counts as already processed", 0.5, 1.0, origin="hopkit's reading of 'processed'"),
        "answer_form": Knob("answer_form", "short", "short: verify by containment of the reader's answer; long: by "
                            "ROUGE-L against alpha", choices=("short", "long"), origin="SearChain section 3.3"),
        "answer_from": Knob("answer_from", "last_chain", "last_chain: the final answer and content come from the last "
                            "chain with IR's answers put in; path: tracing over every node IR processed (Algorithm "
                            "1's R)", choices=("last_chain", "path"), paper="path", addition=True,
                            label="answer from the last chain",
                            origin=why("nodes of replanned rounds otherwise reach the traced answer", "answer_from")),
        "duplicates": Knob("duplicates", "rejudge", "skip: every processed query is skipped (the paper); rejudge: a "
                           "repeat whose answer conflicts with the recorded one is judged again against its recorded "
                           "reading, and an unsolved query is never skipped", choices=("skip", "rejudge"),
                           paper="skip", addition=True,
                           label="repeated queries re-judged",
                           origin=why("a repeated correction can spend every round", "duplicates")),
        "plan_shots": Knob("plan_shots", 2, "Chain-of-Query demonstrations, first and later rounds in turn, each of "
                           "another question of the task's kind (the paper: 2; 4 for fact checking, and 6 for "
                           "StrategyQA without IR, set by the task)", 1, 6, 1, builds_demos=True,
                           origin="SearChain Table 8"),
        "extra_plan_demo": Knob("extra_plan_demo", True, "a third Chain-of-Query demonstration, a second question's "
                                "first round beside one first round and one later round; off: the paper's 2 examples",
                                choices=(True, False), builds_demos=True, paper=False, addition=True,
                                label="third plan demonstration",
                                origin=why("a second first round shows the planner another decomposition",
                                           "extra_plan_demo")),
        "decompose_retry": Knob("decompose_retry", True, "when the first chain is one node that restates the "
                                "question, ask once more for a decomposition", choices=(True, False), paper=False,
                                addition=True, label="decomposition retry",
                                origin=why("a small planner can return the question as its only node",
                                           "decompose_retry")),
        "short_form": Knob("short_form", True, "a final answer written as a sentence (5 words or more) to a question "
                           "that is not yes/no gets one short call that copies the answering phrase out of it; the "
                           "phrase stands only if it is in the sentence (off for long-form answers)",
                           choices=(True, False), paper=False, addition=True, label="short form of a sentence answer",
                           origin=why("a final answer written as a sentence where a phrase is asked", "short_form")),
        "no_answer": Knob("no_answer", "go_on", "an unsolved node whose reader finds no answer in its document: "
                          "go_on keeps it unsolved and IR goes on to the next node; feedback completes it all the "
                          "same, ending the round (the paper's DPR reader always returns a span)",
                          choices=("go_on", "feedback"), paper="feedback", addition=True,
                          label="go on past an empty reading",
                          origin=why("an LM reader can abstain, where the paper's DPR reader always returns a span",
                                     "no_answer")),
        "plan_tokens": Knob("plan_tokens", 384, "most tokens one Chain-of-Query may take; 0: no cap beyond the LM's "
                            "max_tokens, as the paper", 0, 1024, 1, paper=0, addition=True, label="plan token cap",
                            origin=why("cost: a plan that runs on is cut", "plan_tokens")),
        "paragraph_words": paragraph_words(PARAGRAPH_WORDS, "the document shown in feedback, OneR's budget"),
        "answer_as_asked": ANSWER_AS_ASKED,
        **ANSWER_STEPS,
    },
    "tor": {
        "depth": Knob("depth", 3, "layers of paragraphs below the question (3 in the paper)", 1, 4, 1,
                      origin="ToR section 4.4"),
        "width_1": Knob("width_1", 5, "paragraphs retrieved with the question (5 in the paper)", 1, 10, 1,
                        origin="ToR section 4.4"),
        "width_2": Knob("width_2", 3, "paragraphs per new query in layer 2 (3 in the paper)", 1, 10, 1,
                        origin="ToR section 4.4"),
        "width_3": Knob("width_3", 3, "paragraphs per new query in layer 3 (3 in the paper)", 1, 10, 1,
                        origin="ToR section 4.4"),
        "width_4": Knob("width_4", 3, "paragraphs per new query in layer 4 (3 in the paper's depth-4 run)", 1, 10, 1,
                        origin="ToR table 6"),
        "expansion": Knob("expansion", "mpc", "new queries: direct, cot (think about what is missing first) or mpc "
                          "(the LM writes the missing paragraph, which is the query); the paper's ToR uses mpc",
                          choices=("direct", "cot", "mpc"), origin="ToR section 3.4"),
        "mpc_review": Knob("mpc_review", "reasoning_first", "the review prompt under MPC expansion: plain (the paper's "
                           "review without thoughts, its Table 8) or reasoning_first (write the reasoning path, or "
                           "what is missing, before judging)", choices=("plain", "reasoning_first"), paper="plain",
                           addition=True,
                           label="reasoning-first MPC review",
                           origin=why("a small reviewer judges better after writing what it knows", "mpc_review")),
        "fusion": Knob("fusion", "evidence", "the reader reads the analyses, the paragraphs, or both (evidence)",
                       choices=("analysis", "paragraph", "evidence"), origin="ToR section 3.3"),
        "order": Knob("order", "depth_first", "depth_first: each child's subtree is searched before its next sibling "
                      "is reviewed, so repetitive pruning sees the evidence found so far (the paper); layer: a node's "
                      "children are reviewed together, concurrently, before any is expanded (faster with a server "
                      "that answers calls in parallel)", choices=("depth_first", "layer"), origin="ToR section 3.2"),
        "reader_tokens": Knob("reader_tokens", 4096, "wordpieces of evidence (with the question) the reader is given, "
                              "the pool added in order until the next would not fit; 0: the whole pool",
                              0, 32768, 1, origin="ToR section 4.4 (maximum length 4,096)"),
        "relevance_pruning": Knob("relevance_pruning", True, "do not expand paragraphs reviewed as irrelevant",
                                  choices=(True, False), origin="ToR section 3.4"),
        "repetitive_pruning": Knob("repetitive_pruning", True, "do not review or expand a retrieved paragraph already "
                                   "in the evidence pool", choices=(True, False), origin="ToR section 3.4"),
        "budget": Knob("budget", 11, "most LM calls per question before the search stops and fuses, so at most "
                       "budget + 1 calls in all; 0: no limit (the paper's search, 16.9 calls on average there)",
                       0, 100, 1, paper=0, addition=True, label="LM-call budget",
                       origin=why("cost: unbounded, a small reviewer expands every path of a comparison", "budget")),
        "query_fallback": Knob("query_fallback", True, "a search whose review gave no query (or only the question "
                               "again) gets one call that writes a query for the missing fact; off: the review's "
                               "output is sent as it is, and an empty one is not expanded", choices=(True, False),
                               paper=False, addition=True,
                               label="query-writing fallback",
                               origin=why("a search whose review gives no real query would end its path",
                                          "query_fallback")),
        "extra_demo": Knob("extra_demo", True, "a fourth review demonstration: a comparison question with one side "
                           "only (relevant, search for the other side); off: the paper's 3 shots",
                           choices=(True, False), builds_demos=True, paper=False, addition=True,
                           label="fourth review demonstration",
                           origin=why("a small reviewer rejects one side of a comparison as not enough", "extra_demo")),
        "shots": Knob("shots", 3, "demonstrations of the missing-paragraph and fusion prompts, as many as the "
                      "examples allow (the review prompt has its own three)", 1, 5, 1, builds_demos=True,
                      origin="ToR section 4.4 (3-shot for every prompt)"),
        "check_accept": Knob("check_accept", True, "an accept whose short answer is not in the paragraphs on its path "
                             "(yes/no: fewer than two paragraphs) searches on instead", choices=(True, False),
                             paper=False, addition=True,
                             label="checked accept",
                             origin=why("an accept whose answer its paragraphs do not hold", "check_accept")),
        "check_reject": Knob("check_reject", True, "a reject of a paragraph whose title names one of an either-or "
                             "question's two options searches on instead (the paragraph is one side of the "
                             "comparison)", choices=(True, False), paper=False, addition=True, label="checked reject",
                             origin=why("a reject of a paragraph about one option of a comparison", "check_reject")),
        "rerank": Knob("rerank", "retriever", "how more than 15 pool paragraphs are ranked against the response: "
                       "retriever (the retriever's own similarity, as the paper) or token_f1 (lexical overlap)",
                       choices=("retriever", "token_f1"), origin="ToR section 4.2 (recall@15: up to 15 paragraphs)"),
        "mpc_query": Knob("mpc_query", "whole", "the MPC paragraph as the query: whole (the paper; ColBERT still cuts "
                          "it at its query length) or first_sentence (cut on purpose)",
                          choices=("whole", "first_sentence"), origin="ToR section 3.4"),
        "paragraph_words": paragraph_words(80, "ToR's review prompt holds a whole path"),
        **ANSWER_STEPS,
    },
    "self-ask": {
        "k": baseline_k(),
        "max_turns": baseline_turns("most follow-up questions, each answered from its own retrieval"),
        "shots": baseline_shots(),
        "paragraph_words": paragraph_words(PARAGRAPH_WORDS, "one budget for every method's paragraphs"),
        **ANSWER_STEPS,
    },
    "react": {
        "k": baseline_k(),
        "max_turns": baseline_turns("most search actions; then the answer is asked for"),
        "shots": baseline_shots(),
        "paragraph_words": paragraph_words(PARAGRAPH_WORDS, "one budget for every method's paragraphs"),
        **ANSWER_STEPS,
    },
    "iter-retgen": {
        "k": baseline_k(),
        "max_turns": baseline_turns("retrieval-generation turns T; each retrieves with the question and the last "
                                    "response, and the last turn's answer stands"),
        "shots": baseline_shots(),
        "paragraph_words": paragraph_words(PARAGRAPH_WORDS, "one budget for every method's paragraphs"),
        "answer_as_asked": ANSWER_AS_ASKED,
        **ANSWER_STEPS,
    },
}


def knob(method: str, name: str) -> Knob:
    return KNOBS[method][name]
