"""SearChain as a DSPy module (Xu et al., Search-in-the-Chain, Algorithm 1).

Each round the LM plans a whole Chain-of-Query; IR walks its nodes in order, skipping queries
processed before: it retrieves the top-k documents for the node's query and the reader answers
from them. An unsolved node always gets completion feedback; a solved node gets verification
feedback only when the reader is confident (f > theta) and disagrees. The first feedback ends
the round and the LM rebuilds the chain; rounds stop when a whole chain passes or after r_max.
Every node IR processed joins the reasoning path R with its supporting document.

Additions to Algorithm 1, each a knob (hopkit/knobs/declared.py): ``answer_from=last_chain`` writes the final
content and answer from the last chain with IR's answers put in (the chain's own answer stands when
that chain passed and IR filled none of its nodes from earlier readings), so guesses of replanned rounds never reach the answer (``path``: tracing over R,
as the paper); ``duplicates=rejudge`` judges a repeated query whose new answer conflicts with the
recorded one against its recorded reading and never skips an unsolved query: one IR answered before gets
that answer without a second round of the same feedback, one it could not answer keeps that reading (``skip``:
the paper);
``decompose_retry`` asks once more when the first chain is a single node restating the question;
``short_form`` copies the answering phrase out of a final answer written as a sentence;
``no_answer=go_on`` keeps an unsolved node unsolved when the reader finds no answer in its document and
goes on to the next node, where completing it with nothing would end the round with no new fact and the
LM would plan the same chain again (the paper's DPR reader always returns a span; ``feedback``: complete).
"""

from __future__ import annotations

import re

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.data.passage import Passage
from hopkit.knobs import knob
from hopkit.programs.own_example import without_own_example
from hopkit.programs.prediction import hop_prediction
from hopkit.additions.answer_as_asked import with_answer_form_field
from hopkit.additions.answer_steps import AnswerSteps, called
from hopkit.data.examples import Dataset
from hopkit.errors import InputError
from hopkit.knobs import resolve
from hopkit.knobs.knob import Profile
from hopkit.knobs.stand_ins import stand_ins
from hopkit.knobs.theta import default_theta
from hopkit.programs.documented import documented
from hopkit.programs.searchain.demonstrations import build_chain_demos
from hopkit.text.similarity import rouge_l
from hopkit.text.normalize import normalize_answer
from hopkit.programs.searchain import feedback
from hopkit.programs.searchain.answer_chain import FinalAnswer, answer_pairs, last_chain, recorded_answer
from hopkit.programs.searchain.chain_text import parse_chain_text, render_chain
from hopkit.programs.searchain.judgment import AnswerForm, conflicts, judge, probability_confidence
from hopkit.programs.searchain.processed import ProcessedQueries
from hopkit.programs.searchain.tree import (COMPLETED, CORRECTED, DUPLICATE, FILLED, NO_IR, PASS, ROOT,
                                            UNANSWERED, UNSOLVED_KEPT, ReasoningTree, TreeNode)
from hopkit.reader.protocol import Reader
from hopkit.retrieval.protocol import Retriever
from hopkit.signatures.searchain import ChainOfQuery, QueryNode, TraceWithReferences

_SOURCE = {PASS: "lm", CORRECTED: "corrected", COMPLETED: "completed", UNSOLVED_KEPT: "unsolved",
           UNANSWERED: "unsolved", FILLED: "completed"}
_REFERENCE = re.compile(r"\[(\d+)\]")
_NO_ANSWER = {"", "none", "null", "unknown", "n/a"}  # what a planner writes for "no final answer yet"
RESTATES = 0.7  # ROUGE-L between a lone query and the question at or above which the query restates it


class SearChain(dspy.Module):
    """SearChain (Xu et al., 2024): a Chain-of-Query verified and completed by IR over rounds, then traced.

    Variants: ``use_ir=False`` (one chain, no IR), ``verify=False`` (no correction), ``complete=False``
    (unsolved nodes are not completed). ``train`` (a dataset with chains) builds the planner's
    demonstrations, as ``hopkit eval`` does; ``demos`` passes built ones instead."""

    def __init__(self, retriever: Retriever | None, reader: Reader | None, theta: float | None = None,
                 alpha: float | None = None, r_max: int | None = None, k: int | None = None,
                 dup_threshold: float | None = None, answer_form: AnswerForm | None = None,
                 answer_from: str | None = None, duplicates: str | None = None, decompose_retry: bool | None = None,
                 no_answer: str | None = None, short_form: bool | None = None, paragraph_words: int | None = None,
                 yes_no_check: bool | None = None, restatement: bool | None = None, option_check: bool | None = None,
                 date_comparison: bool | None = None, answer_as_asked: bool | None = None,
                 plan_tokens: int | None = None, extra_plan_demo: bool | None = None, profile: Profile = "hopkit",
                 use_ir: bool = True, verify: bool = True, complete: bool = True, train: Dataset | None = None,
                 demos: list[dspy.Example] | None = None) -> None:
        super().__init__()
        knobs = resolve("searchain", profile, dict(
            theta=theta, alpha=alpha, r_max=r_max, k=k, dup_threshold=dup_threshold, answer_form=answer_form,
            answer_from=answer_from, duplicates=duplicates, decompose_retry=decompose_retry, no_answer=no_answer,
            short_form=short_form, paragraph_words=paragraph_words, yes_no_check=yes_no_check,
            restatement=restatement, option_check=option_check, date_comparison=date_comparison,
            answer_as_asked=answer_as_asked, plan_tokens=plan_tokens, extra_plan_demo=extra_plan_demo),
            owner="SearChain")
        if use_ir and (retriever is None or reader is None):
            raise InputError("SearChain with IR needs a retriever and a reader (use_ir=False runs without)")
        if demos is not None and train is not None:
            raise InputError("give SearChain either train (demonstrations built from it) or demos, not both")
        self.retriever, self.reader, self.profile = retriever, reader, profile
        # theta left unset: the reader's calibrated value stands in for the paper's DPR-tuned one (a knob's check)
        knobs["theta"] = knob("searchain", "theta").check(
            default_theta(reader) if knobs["theta"] is None else knobs["theta"])
        self.knobs = knobs
        self.theta, self.alpha, self.r_max, self.k = knobs["theta"], knobs["alpha"], knobs["r_max"], knobs["k"]
        self.dup_threshold, self.answer_form = knobs["dup_threshold"], knobs["answer_form"]
        self.answer_from, self.duplicates = knobs["answer_from"], knobs["duplicates"]
        self.decompose_retry, self.no_answer = knobs["decompose_retry"], knobs["no_answer"]
        self.answer_steps = AnswerSteps.from_knobs(
            {**knobs, "short_form": knobs["short_form"] and self.answer_form == "short"})
        self.use_ir, self.verify, self.complete = use_ir, verify, complete
        self.max_words, self.plan_tokens = knobs["paragraph_words"], knobs["plan_tokens"]
        self.plan = dspy.Predict(with_answer_form_field(ChainOfQuery, "final_answer", knobs["answer_as_asked"]))
        self.trace_answer = dspy.Predict(
            with_answer_form_field(TraceWithReferences, "answer", knobs["answer_as_asked"]))
        if train is not None:
            demos = build_chain_demos(train.examples, train.corpus, extra_demo=knobs["extra_plan_demo"])
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
        processed = ProcessedQueries(self.dup_threshold)
        path: list[TreeNode] = []  # the correct reasoning path R, in the order IR recorded it
        documents: dict[str, Passage] = {}
        retrieved: list[str] = []
        messages: list[str] = []
        attach_to, finished, final_answer, retried = ROOT, False, "", None
        for round_ in range(1, self.r_max + 1):
            chain, final_answer, parse = self._plan(question, messages)
            if round_ == 1 and self.decompose_retry and restates_question(chain, question):
                (chain, final_answer, parse), retried = self._decompose_again(question, chain, final_answer, parse)
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
        if self.answer_from == "last_chain":
            final = self._final_from_chain(question, tree, finished)
        else:
            answer, content, references = self._final(question, tree, path, final_answer)
            final = FinalAnswer(answer, content, references, [node.pid for node in path], "traced", answer)
        return self._prediction(question, tree, path, final, finished, retried, retrieved)

    def _prediction(self, question: str, tree: ReasoningTree, path: list[TreeNode], final: FinalAnswer,
                    finished: bool, retried: str | None, retrieved: list[str]) -> dspy.Prediction:
        """The final answer through the answer steps of hopkit/additions/, with the tree, the path and the stats."""
        answer, content = final.answer, final.content
        answer_before_steps = answer
        answer, steps = self.answer_steps(question, answer, content or "")
        shortened, checked, picked = steps.get("short_form"), steps.get("yes_no_check"), steps.get("option_check")
        dated = steps.get("date_comparison")
        citations = list(dict.fromkeys(pid for pid in final.cited if pid))
        sources = [_SOURCE.get(node.action, node.action) for node in path]
        trace = {
            "method": "searchain", "profile": self.profile, "variant": self.variant,
            "stands_in": stand_ins("searchain", self.profile, reader=type(self.reader).__name__, theta=self.theta),
            "theta": self.theta, "alpha": self.alpha,
            "r_max": self.r_max, "k": self.k, "answer_form": self.answer_form, "no_answer": self.no_answer,
            "finished": finished,
            "tree": tree.to_dict(), "path": [node.id for node in path], "final_content": content,
            "references": final.references, "answer_source": final.source, "traced_answer": final.traced,
            "restated_chain": retried, "answer_before_steps": answer_before_steps, "short_form": shortened,
            "yes_no_check": checked,
            "option_check": picked, "date_comparison": dated,
            "stats": {"rounds": len(tree.branches), "skc": len(final.references),
                      "unreadable_chains": sum(b.parse == "unreadable" for b in tree.branches),
                      "fallback_parses": sum(b.parse == "fallback" for b in tree.branches),
                      "trace_parse_failures": tree.trace_parse_failures,
                      "decompose_retries": int(retried is not None),
                      "yes_no_checks": called(checked), "option_checks": called(picked),
                      "short_form_calls": called(shortened),
                      "rejudged": sum(n.rejudged for n in tree.nodes.values()),
                      "reader_parse_failures": tree.reader_parse_failures,
                      "path_nodes": len(path), "from_lm": sources.count("lm"),
                      "corrected_by_ir": sources.count("corrected"), "completed_by_ir": sources.count("completed"),
                      "unanswered_by_ir": sum(node.action == UNANSWERED for node in path),
                      "filled_from_record": sum(node.action == FILLED for node in path)},
        }
        return hop_prediction(answer, citations=citations, retrieved=retrieved, trace=trace)

    def _decompose_again(self, question: str, chain: list[QueryNode], final_answer: str,
                         parse: str) -> tuple[tuple[list[QueryNode], str, str], str]:
        """``decompose_retry``: a first chain of one node that restates the question is asked once more for a
        decomposition; the new plan stands if it has nodes. Returns the plan and the chain it replaced."""
        retried = render_chain(chain, final_answer)
        again = self._plan(question, [feedback.previous_chain(1, retried), feedback.decompose(question)])
        return (again if again[0] else (chain, final_answer, parse)), retried

    def _plan(self, question: str, messages: list[str]) -> tuple[list[QueryNode], str, str]:
        """The LM's chain; the tolerant text parser reads what the typed parser rejects."""
        adapter = dspy.ChatAdapter(use_json_adapter_fallback=False)  # our parser is the fallback, not a 2nd call
        try:
            with dspy.context(adapter=adapter):
                out = self.plan(question=question, feedback=list(messages),
                                config={"max_tokens": self.plan_tokens} if self.plan_tokens else {},
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
        scale = getattr(self.reader, "confidence_scale", "probability")
        for node in branch:
            seen = processed.match(node.query)
            if seen is not None:
                earlier = tree.nodes[seen]
                node.duplicate_of = seen
                if self.duplicates == "skip" or (
                        not node.unsolved and not conflicts(node.lm_answer, recorded_answer(earlier))):
                    node.action = DUPLICATE
                    continue
                if not node.unsolved:  # judged again against the reading recorded for that query
                    identified = self._rejudge(question, node, earlier, documents, path)
                    if identified is not None:
                        return identified
                    continue
                # an unsolved query is never skipped: IR's recorded answer fills it; where IR found none, the
                # recorded reading stands (the same query reads the same documents the same way), else read again
                if recorded_answer(earlier) or earlier.action == UNANSWERED:
                    node.action = FILLED if recorded_answer(earlier) else UNANSWERED
                    node.reader_answer = recorded_answer(earlier) or earlier.reader_answer
                    node.confidence, node.pid = earlier.confidence, earlier.pid
                    if node.action == FILLED:
                        path.append(node)
                    continue
            passages = self.retriever.retrieve(node.query, self.k)
            retrieved.extend(p.pid for p in passages if p.pid not in retrieved)
            span = self.reader.read(node.query, passages) if passages else None
            if span is not None and span.failed:
                tree.reader_parse_failures += 1
            by_pid = {p.pid: p for p in passages}
            document = by_pid.get(span.pid) if span is not None and span.pid in by_pid else (passages or [None])[0]
            node.reader_answer = span.text if span is not None else ""
            node.confidence = probability_confidence(span.score if span is not None else None, scale)
            node.pid = document.pid if document is not None else None
            if document is not None:
                documents[document.pid] = document
            node.action = judge(node.unsolved, node.lm_answer, node.reader_answer, node.confidence,
                                document.text if document is not None else "", theta=self.theta, alpha=self.alpha,
                                answer_form=self.answer_form, verify=self.verify, complete=self.complete,
                                no_answer=self.no_answer, query=node.query)
            processed.add(node.query, node.id)
            path.append(node)
            if node.action == COMPLETED and document is not None:
                return node, feedback.completion(question, node.query, node.reader_answer, document, self.max_words)
            if node.action == CORRECTED:
                return node, feedback.correction(question, node.query, node.reader_answer, document, self.max_words)
        return None

    def _rejudge(self, question: str, node: TreeNode, earlier: TreeNode, documents: dict[str, Passage],
                 path: list[TreeNode]) -> tuple[TreeNode, str] | None:
        node.rejudged = True
        node.reader_answer, node.confidence, node.pid = earlier.reader_answer, earlier.confidence, earlier.pid
        document = documents.get(earlier.pid) if earlier.pid else None
        node.action = judge(False, node.lm_answer, node.reader_answer or "", node.confidence,
                            document.text if document is not None else "", theta=self.theta, alpha=self.alpha,
                            answer_form=self.answer_form, verify=self.verify, complete=self.complete)
        if (node.action == CORRECTED and earlier.action in (CORRECTED, FILLED)
                and not conflicts(node.lm_answer, earlier.lm_answer)):
            # the LM was told this correction before and wrote the same answer again: IR's answer fills the node
            # and IR goes on (a second identical feedback changes nothing, and can spend every round on one
            # correction). An answer changed to another one is corrected again.
            node.action, node.reader_answer = FILLED, recorded_answer(earlier)
        path.append(node)
        if node.action == CORRECTED and document is not None:
            return node, feedback.correction(question, node.query, node.reader_answer or "", document, self.max_words)
        return None

    def _final_from_chain(self, question: str, tree: ReasoningTree, finished: bool) -> FinalAnswer:
        """The last chain with IR's answers put in. When that chain passed IR, its own answer stands and
        tracing writes the referenced content; otherwise tracing over its verified pairs gives the answer."""
        nodes = last_chain(tree)
        chain_answer = tree.branches[-1].final_answer if tree.branches else ""
        if not nodes:
            return FinalAnswer(chain_answer, "", [], [], "chain", "")
        if not self.use_ir:
            own = chain_answer or next((n.lm_answer for n in reversed(nodes) if n.lm_answer), "")
            return FinalAnswer(own, "", [], [], "chain", "")
        pairs = answer_pairs(tree, nodes)
        lines = [f"[{n}] {p.node.query} -> {p.answer or 'unknown'}" for n, p in enumerate(pairs, start=1)]
        try:
            out = self.trace_answer(question=question, verified_pairs=lines)
            content, traced = (out.final_content or "").strip(), (out.answer or "").strip()
        except AdapterParseError as error:
            tree.trace_parse_failures += 1
            content, traced = str(error.lm_response or "").strip(), ""
        references = sorted({int(m) for m in _REFERENCE.findall(content) if 1 <= int(m) <= len(pairs)})
        cited = [p.pid for p in pairs]
        if finished and chain_answer and not any(n.action == FILLED for n in nodes):
            return FinalAnswer(chain_answer, content, references, cited, "chain", traced)  # written knowing every fact
        if traced:
            return FinalAnswer(traced, content, references, cited, "traced", traced)
        return FinalAnswer(chain_answer or pairs[-1].answer, content, references, cited,
                           "chain" if chain_answer else "last-node", traced)

    def _final(self, question: str, tree: ReasoningTree, path: list[TreeNode],
               chain_answer: str) -> tuple[str, str, list[int]]:
        """Tracing: the final content from the correct path's query-answer pairs, with reference marks."""
        if not path:  # nothing verified (the variant without IR): the chain's own answer
            last = tree.branches[-1] if tree.branches else None
            nodes = [tree.nodes[i] for i in last.node_ids] if last else []
            fallback = chain_answer or next((n.lm_answer for n in reversed(nodes) if n.lm_answer), "")
            return fallback, "", []
        pairs = [f"[{n}] {node.query} -> {_path_answer(node) or 'unknown'}" for n, node in enumerate(path, start=1)]
        try:
            out = self.trace_answer(question=question, verified_pairs=pairs)
            content, answer = (out.final_content or "").strip(), (out.answer or "").strip()
        except AdapterParseError as error:  # counted in the trace; the chain's answer stands in
            tree.trace_parse_failures += 1
            content, answer = str(error.lm_response or "").strip(), ""
        references = sorted({int(m) for m in _REFERENCE.findall(content) if 1 <= int(m) <= len(path)})
        return answer or chain_answer or _path_answer(path[-1]), content, references


def restates_question(chain: list[QueryNode], question: str) -> bool:
    """A first chain of one node whose query is the question again (ROUGE-L >= RESTATES)."""
    return len(chain) == 1 and rouge_l(normalize_answer(chain[0].query), normalize_answer(question)) >= RESTATES


def _stated(final_answer: object) -> str:
    """The chain's final answer, empty where the planner wrote a placeholder ("None", "unknown")."""
    text = str(final_answer or "").strip()
    return "" if text.strip(" .").lower() in _NO_ANSWER else text


def _path_answer(node: TreeNode) -> str:
    """A corrected or completed node carries the reader's answer; a passed one the LM's (Algorithm 1's R)."""
    return node.reader_answer if node.action in (CORRECTED, COMPLETED, FILLED) else node.lm_answer


documented(SearChain, "searchain")
