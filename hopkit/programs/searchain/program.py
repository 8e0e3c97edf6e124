"""SearChain as a DSPy module (Xu et al., Search-in-the-Chain, Algorithm 1).

Each round the LM plans a whole Chain-of-Query; IR walks its nodes in order, skipping queries
processed before: it retrieves the top-k documents for the node's query and the reader answers
from them. An unsolved node always gets completion feedback; a solved node gets verification
feedback only when the reader is confident (f > theta) and disagrees. The first feedback ends
the round and the LM rebuilds the chain; rounds stop when a whole chain passes or after r_max.
Every node IR processed joins the reasoning path R with its supporting document.

hopkit's additions are steps this loop calls by name, each chosen by its knob and off in ``paper``
(docs/design/additions.md): the first-plan rule (a retry when the first chain restates the question), the rule for
a repeated query (the paper skips it) and the final-answer rule (the paper traces over R), in additions/ here, and
the answer steps of hopkit/additions/.
"""

from __future__ import annotations

from typing import Any

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.additions.answer_as_asked import field_as_asked
from hopkit.data.examples import Dataset
from hopkit.data.passage import Passage
from hopkit.errors import InputError
from hopkit.knobs import with_reader_theta
from hopkit.knobs.knob import Profile
from hopkit.knobs.stand_ins import stand_ins
from hopkit.knobs.values import program_knobs
from hopkit.programs.answer_steps import AnswerSteps
from hopkit.programs.documented import documented
from hopkit.programs.knobbed import KnobbedProgram
from hopkit.programs.own_example import without_own_example
from hopkit.programs.prediction import hop_prediction
from hopkit.programs.searchain import feedback
from hopkit.programs.searchain.additions.decompose_retry import decompose_again
from hopkit.programs.searchain.additions.last_chain import final_from_last_chain
from hopkit.programs.searchain.additions.rejudge import rejudge_repeat
from hopkit.programs.searchain.answer_chain import FinalAnswer
from hopkit.programs.searchain.chain_text import Plan, parse_chain_text, render_chain
from hopkit.programs.searchain.demonstrations import build_chain_demos
from hopkit.programs.searchain.judgment import judge, judged_by, probability_confidence
from hopkit.programs.searchain.processed import ProcessedQueries
from hopkit.programs.searchain.repeats import SKIPPED, Repeat, skip_repeat
from hopkit.programs.searchain.tracing import final_from_path
from hopkit.programs.searchain.tree import COMPLETED, CORRECTED, NO_IR, ROOT, ReasoningTree, TreeNode
from hopkit.reader.protocol import Reader
from hopkit.retrieval.counting import counted
from hopkit.retrieval.protocol import Retriever
from hopkit.signatures.searchain import ChainOfQuery, TraceWithReferences


def as_planned(plan: Any, question: str, first: Plan) -> tuple[Plan, None]:
    """The paper's first round: the first chain stands as planned."""
    return first, None


_NO_ANSWER = {"", "none", "null", "unknown", "n/a"}  # what a planner writes for "no final answer yet"
# each rule by its knob's value: the paper's, and hopkit's in additions/ beside this file
FIRST_PLAN_RULES = {False: as_planned, True: decompose_again}
REPEAT_RULES = {"skip": skip_repeat, "rejudge": rejudge_repeat}
FINAL_RULES = {"path": final_from_path, "last_chain": final_from_last_chain}


class SearChain(KnobbedProgram):
    """SearChain (Xu et al., 2024): a Chain-of-Query verified and completed by IR over rounds, then traced.

    Variants: ``use_ir=False`` (one chain, no IR), ``verify=False`` (no correction), ``complete=False``
    (unsolved nodes are not completed). ``train`` (a dataset with chains) builds the planner's
    demonstrations, as ``hopkit eval`` does; ``demos`` passes built ones instead."""

    def __init__(self, retriever: Retriever | None, reader: Reader | None, *, profile: Profile = "hopkit",
                 use_ir: bool = True, verify: bool = True, complete: bool = True, train: Dataset | None = None,
                 demos: list[dspy.Example] | None = None, **given: Any) -> None:
        super().__init__()
        checked = program_knobs("searchain", profile, given, owner="SearChain")  # a bad value fails first
        if use_ir and (retriever is None or reader is None):
            raise InputError("SearChain with IR needs a retriever and a reader (use_ir=False runs without)")
        if demos is not None and train is not None:
            raise InputError("give SearChain either train (demonstrations built from it) or demos, not both")
        self.retriever, self.reader, self.profile = counted(retriever), reader, profile
        self.use_ir, self.verify, self.complete = use_ir, verify, complete
        self.method_name = ("searchain-noir" if not use_ir else "searchain-noverify" if not verify
                            else "searchain-nocomplete" if not complete else "searchain")
        # theta left unset: the reader's calibrated value stands in for the paper's DPR-tuned one
        self.knobs = knobs = with_reader_theta(checked, reader)
        self.answer_steps = AnswerSteps.from_knobs(knobs)
        self.first_plan_rule = FIRST_PLAN_RULES[knobs.decompose_retry]
        self.repeat_rule, self.final_rule = REPEAT_RULES[knobs.duplicates], FINAL_RULES[knobs.answer_from]
        self.plan = dspy.Predict(field_as_asked(ChainOfQuery, "final_answer", knobs))
        self.trace_answer = dspy.Predict(field_as_asked(TraceWithReferences, "answer", knobs))
        if train is not None:
            demos = build_chain_demos(train.examples, train.own_corpus(), extra_demo=knobs.extra_plan_demo,
                                      shots=knobs.plan_shots)
        if demos:
            self.plan.demos = list(demos)

    @property
    def variant(self) -> str:
        if not self.use_ir:
            return "without IR"
        off = [name for name, on in (("verification", self.verify), ("completion", self.complete)) if not on]
        return "without " + " and ".join(off) if off else "full"

    def forward(self, question: str) -> dspy.Prediction:
        tree = ReasoningTree(question)
        processed = ProcessedQueries(self.knobs.dup_threshold)
        path: list[TreeNode] = []  # the correct reasoning path R, in the order IR recorded it
        documents: dict[str, Passage] = {}
        retrieved: list[str] = []
        messages: list[str] = []
        attach_to, finished, retried = ROOT, False, None
        for round_ in range(1, self.knobs.r_max + 1):
            plan = self._plan(question, messages)
            if round_ == 1:
                plan, retried = self.first_plan_rule(self._plan, question, plan)
            chain, final_answer, parse = plan
            branch = tree.add_branch(round_, chain, attach_to, final_answer, parse)
            if not self.use_ir:
                for node in branch:
                    node.action = NO_IR
                finished = True
                break
            if parse == "unreadable":
                messages.append(feedback.unreadable(question))
                continue
            identified = self._traverse(question, tree, branch, processed, path, documents, retrieved)
            if identified is None:
                finished = True
                break
            node, message = identified
            messages += [feedback.previous_chain(round_, render_chain(chain, final_answer)), message]
            attach_to = node.id
        final = self.final_rule(self.trace_answer, question, tree, path, self.use_ir, finished)
        return self._prediction(question, tree, path, final, finished, retried, retrieved)

    def _prediction(self, question: str, tree: ReasoningTree, path: list[TreeNode], final: FinalAnswer,
                    finished: bool, retried: str | None, retrieved: list[str]) -> dspy.Prediction:
        """The final answer through the answer steps, with the tree and the path (the stats are read from the trace,
        hopkit/evaluation/trace_stats.py)."""
        answer, steps = self.answer_steps(question, final.answer, final.content or "")
        citations = list(dict.fromkeys(pid for pid in final.cited if pid))
        trace = {
            "method": "searchain", "profile": self.profile, "variant": self.variant, "knobs": dict(self.knobs),
            "stands_in": stand_ins("searchain", self.profile, reader=type(self.reader).__name__,
                                   theta=self.knobs.theta),
            "finished": finished, "tree": tree.to_dict(), "path": [node.id for node in path],
            "final_content": final.content,
            "references": final.references, "answer_source": final.source, "traced_answer": final.traced,
            "restated_chain": retried, "answer_before_steps": final.answer, **steps,
        }
        return hop_prediction(answer, citations=citations, retrieved=retrieved, trace=trace)

    def _plan(self, question: str, messages: list[str]) -> Plan:
        """The LM's chain; the tolerant text parser reads what the typed parser rejects."""
        adapter = dspy.ChatAdapter(use_json_adapter_fallback=False)  # our parser is the fallback, not a 2nd call
        most = self.knobs.plan_tokens
        try:
            with dspy.context(adapter=adapter):
                out = self.plan(question=question, feedback=list(messages),
                                config={"max_tokens": most} if most else {},
                                **without_own_example(self.plan, question))
            chain = [node for node in (out.chain or []) if node.query.strip()]
            return chain, _stated(out.final_answer), "typed" if chain else "unreadable"
        except AdapterParseError as error:
            chain, final_answer = parse_chain_text(str(error.lm_response or ""))
            return chain, _stated(final_answer), "fallback" if chain else "unreadable"

    def _traverse(self, question: str, tree: ReasoningTree, branch: list[TreeNode], processed: ProcessedQueries,
                  path: list[TreeNode], documents: dict[str, Passage],
                  retrieved: list[str]) -> tuple[TreeNode, str] | None:
        """IR over one chain; returns the node that needs feedback and the message, or None if all pass."""
        for node in branch:
            seen = processed.match(node.query)
            if seen is not None:
                node.duplicate_of = seen
                outcome = self.repeat_rule(Repeat(question, node, tree.nodes[seen], documents, path), self.knobs,
                                           self.verify, self.complete)
                if isinstance(outcome, tuple):  # the node and the feedback that ends the round
                    return outcome
                if outcome == SKIPPED:
                    continue
            document = self._read(node, tree, documents, retrieved)
            node.action = judge(node.unsolved, node.lm_answer, node.reader_answer or "", node.confidence,
                                document.text if document is not None else "", verify=self.verify,
                                complete=self.complete, query=node.query, **judged_by(self.knobs))
            processed.add(node.query, node.id)
            path.append(node)
            words = self.knobs.paragraph_words
            if node.action == COMPLETED and document is not None:
                return node, feedback.completion(question, node.query, node.reader_answer or "", document, words)
            if node.action == CORRECTED and document is not None:
                return node, feedback.correction(question, node.query, node.reader_answer or "", document, words)
        return None

    def _read(self, node: TreeNode, tree: ReasoningTree, documents: dict[str, Passage],
              retrieved: list[str]) -> Passage | None:
        """IR on one node: the top-k documents for its query, the reader's answer and confidence, and the
        document that supports it (the reader's, else the first)."""
        if self.retriever is None or self.reader is None:  # __init__ refuses IR without both
            raise RuntimeError("SearChain's IR needs a retriever and a reader")
        passages = self.retriever.retrieve(node.query, self.knobs.k)
        retrieved.extend(p.pid for p in passages if p.pid not in retrieved)
        span = self.reader.read(node.query, passages) if passages else None
        if span is not None and span.failed:
            tree.reader_parse_failures += 1
        by_pid = {p.pid: p for p in passages}
        document = by_pid.get(span.pid) if span is not None and span.pid in by_pid else (passages or [None])[0]
        scale = getattr(self.reader, "confidence_scale", "probability")
        node.reader_answer = span.text if span is not None else ""
        node.confidence = probability_confidence(span.score if span is not None else None, scale)
        node.pid = document.pid if document is not None else None
        if document is not None:
            documents[document.pid] = document
        return document


def _stated(final_answer: object) -> str:
    """The chain's final answer, empty where the planner wrote a placeholder ("None", "unknown")."""
    text = str(final_answer or "").strip()
    return "" if text.strip(" .").lower() in _NO_ANSWER else text


documented(SearChain, "searchain")
