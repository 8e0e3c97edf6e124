"""Tree of Reviews (Jiapeng Li et al., 2024) as a DSPy module, with its chain variant CoR.

The root is the question; each retrieved paragraph becomes a child node, reviewed together with the
paragraphs on its path. A review rejects (irrelevant: stop), searches (relevant, not sufficient: a
new query, whose paragraphs become the node's children) or accepts (sufficient: the path and a brief
analysis join the evidence pool). Depth-first, until every path is accepted, rejected or at the
maximum depth; then a reader fuses the pool, as much of it as the reader's input limit holds. With
``order=layer`` a node's children are reviewed together (concurrently, in bounded threads) before any is expanded.

Reviews: Direct expansion uses the paper's review without thoughts (Table 8), CoT expansion its
step-by-step review (Table 7), and MPC the review without thoughts with the missing-paragraph step (Table
9) as the query. hopkit's additions are steps chosen by their knobs, off in the ``paper`` profile
(hopkit/additions/, docs/design/additions.md): the checks on each review (``check_accept``, ``check_reject``), the
rule for a search's query (``query_fallback`` writes one where the review gave none), the LM-call budget
(``budget``), the reasoned MPC review and the answer steps.
"""

from __future__ import annotations

import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.additions.call_budget import CallBudget
from hopkit.additions.query_fallback import WrittenQuery
from hopkit.additions.review_checks import review_checks_for
from hopkit.data.examples import Dataset
from hopkit.data.sentences import first_sentence
from hopkit.errors import InputError
from hopkit.knobs.knob import Profile
from hopkit.knobs.stand_ins import stand_ins
from hopkit.knobs.values import program_knobs
from hopkit.programs.answer_steps import AnswerSteps
from hopkit.programs.documented import documented
from hopkit.programs.knobbed import KnobbedProgram
from hopkit.programs.own_example import without_own_example
from hopkit.programs.prediction import hop_prediction
from hopkit.programs.tree_of_reviews.demonstrations import ReviewDemos, review_demos_for
from hopkit.programs.tree_of_reviews.fusion import EvidenceFusion, rank_by_response
from hopkit.programs.tree_of_reviews.review import ACCEPT, REJECT, SEARCH, Review, review, review_signature
from hopkit.programs.tree_of_reviews.tree import PRUNED_REPETITIVE, SKIPPED_BUDGET, Evidence, ReviewNode, SearchState
from hopkit.retrieval.counting import counted
from hopkit.retrieval.protocol import Retriever
from hopkit.signatures.tree_of_reviews import CompleteMissingParagraph, WriteSearchQuery


def never_spent(steps: int) -> bool:
    """The paper's search: no LM-call budget."""
    return False


class ReviewQueryOnly:
    """The paper's rule for a search's query: the one its review (or MPC) wrote, whatever it is; a search with
    none is not expanded."""

    @staticmethod
    def accepts(query: str | None, question: str) -> bool:
        return bool(query)

    def __call__(self, *_: Any) -> tuple[None, str]:
        return None, "none"


REVIEW_QUERY_ONLY = ReviewQueryOnly()


class TreeOfReviews(KnobbedProgram):
    """Tree of Reviews (Li et al., 2024). ``single_path=True`` is CoR: one path that accumulates every
    paragraph. ``train`` (a dataset with chains) builds the review, expansion and fusion demonstrations, as
    ``hopkit eval`` does; ``demos`` passes built ones instead."""

    def __init__(self, retriever: Retriever, *, profile: Profile = "hopkit", single_path: bool = False,
                 threads: int = 4, keep: int = 15, train: Dataset | None = None, demos: ReviewDemos | None = None,
                 **given: Any) -> None:
        super().__init__()
        if demos is not None and train is not None:
            raise InputError("give Tree of Reviews either train (demonstrations built from it) or demos, not both")
        self.retriever, self.profile = counted(retriever), profile
        self.method_name = "cor" if single_path else "tor"
        self.knobs = knobs = program_knobs("tor", profile, given, owner="CoR" if single_path else "TreeOfReviews")
        self.widths = [knobs[f"width_{i}"] for i in range(1, knobs.depth + 1)]  # one a layer, to the maximum depth
        self.single_path, self.threads, self.keep = single_path, max(1, threads), keep
        self.answer_steps = AnswerSteps.from_knobs(knobs)
        # hopkit's additions, each chosen by its knob (hopkit/additions/); the paper's rule where it is off
        self.review_checks = review_checks_for(knobs)
        self.queries = WrittenQuery() if knobs.query_fallback else REVIEW_QUERY_ONLY
        self.spent = CallBudget(knobs.budget) if knobs.budget else never_spent
        self.review_step = dspy.Predict(review_signature(knobs))
        self.complete_missing = dspy.Predict(CompleteMissingParagraph)
        self.write_query = dspy.Predict(WriteSearchQuery)
        self.fuse = EvidenceFusion(knobs.fusion, knobs.paragraph_words, knobs.reader_tokens)
        if train is not None:
            demos = review_demos_for(train, knobs)
        if demos is not None:
            self.review_step.demos = list(demos.for_review(knobs))
            self.complete_missing.demos = list(demos.missing)
            self.fuse.set_demos(demos.fusion)
        self._lock = threading.Lock()

    # ---- the search -------------------------------------------------------------------------------
    def forward(self, question: str) -> dspy.Prediction:
        state = SearchState(question)
        if self.single_path:
            self._chain(state)
        elif self.knobs.order == "depth_first":
            self._search(state, self._children(state, question, 1, None))
        else:  # only a layer's concurrent reviews need threads
            with ThreadPoolExecutor(max_workers=self.threads) as pool:
                self._visit_layer(state, self._children(state, question, 1, None), pool)
        return self._answer(state)

    def _search(self, state: SearchState, siblings: list[ReviewNode]) -> None:
        """The paper's depth-first search: a node is reviewed, and its subtree searched, before its next sibling is
        reviewed, so repetitive pruning sees every piece of evidence found so far."""
        for node in siblings:
            if self._admit(state, node):
                self._record(state, node, self._review_path(state, node))
                children = self._after_review(state, node)
                if children:
                    self._search(state, children)

    def _visit_layer(self, state: SearchState, siblings: list[ReviewNode], pool: ThreadPoolExecutor) -> None:
        """``order=layer``: review one layer of siblings concurrently, then go into each in order."""
        live = [node for node in siblings if self._admit(state, node)]
        futures = [pool.submit(contextvars.copy_context().run, self._review_path, state, node) for node in live]
        for node, future in zip(live, futures):
            self._record(state, node, future.result())
        for node in live:
            children = self._after_review(state, node)
            if children:
                self._visit_layer(state, children, pool)

    def _admit(self, state: SearchState, node: ReviewNode) -> bool:
        """Whether the node is reviewed: not when repetitive pruning finds its paragraph in the pool already, nor
        once the LM-call budget is spent."""
        if self.knobs.repetitive_pruning and node.pid in state.pool_pids():
            node.status = PRUNED_REPETITIVE
            return False
        if not self._take_budget(state):
            node.status = SKIPPED_BUDGET
            return False
        return True

    def _after_review(self, state: SearchState, node: ReviewNode) -> list[ReviewNode]:
        """An accept joins the pool; a search (or, without relevance pruning, a reject) above the maximum depth
        gets its next query and the paragraphs it retrieves, the node's children."""
        if node.action == ACCEPT:
            state.pool.append(Evidence(list(node.path), node.output, node.id))
            return []
        expand = node.action == SEARCH or (node.action == REJECT and not self.knobs.relevance_pruning)
        if not expand or node.depth >= len(self.widths):
            return []
        query = self._next_query(state, node)
        if query is None:
            return []
        node.next_query = query
        return self._children(state, query, node.depth + 1, node)

    def _chain(self, state: SearchState) -> None:
        """CoR: one path; every retrieval adds its paragraphs to the same path, reviewed as a whole."""
        path: list[str] = []
        query, parent = state.question, None
        for layer, width in enumerate(self.widths, start=1):
            for passage in self.retriever.retrieve(query, width):
                state.passages.setdefault(passage.pid, passage)
                if passage.pid not in path:
                    path.append(passage.pid)
            node = ReviewNode(f"c{layer}", layer, parent or "root", path[-1] if path else "", query, list(path))
            state.nodes.append(node)
            if not self._take_budget(state):
                node.status = SKIPPED_BUDGET
                return
            self._record(state, node, self._review_path(state, node))
            if node.action == ACCEPT:
                state.pool.append(Evidence(list(path), node.output, node.id))
                return
            if node.action == REJECT or layer == len(self.widths):
                return
            next_query = self._next_query(state, node)
            if next_query is None:
                return
            node.next_query, query, parent = next_query, next_query, node.id

    def _children(self, state: SearchState, query: str, layer: int, parent: ReviewNode | None) -> list[ReviewNode]:
        on_path = parent.path if parent else []
        nodes: list[ReviewNode] = []
        for passage in self.retriever.retrieve(query, self.widths[layer - 1]):
            state.passages.setdefault(passage.pid, passage)
            if passage.pid in on_path:  # the same paragraph twice on one path adds nothing
                continue
            node = ReviewNode(f"{parent.id if parent else 'n'}.{len(nodes) + 1}", layer,
                              parent.id if parent else "root", passage.pid, query, [*on_path, passage.pid])
            nodes.append(node)
        with self._lock:
            state.nodes.extend(nodes)
        return nodes

    # ---- LM steps ----------------------------------------------------------------------------------
    def _shown(self, state: SearchState, pids: list[str]) -> list[str]:
        return [state.passages[pid].as_context(self.knobs.paragraph_words) for pid in pids]

    def _review_path(self, state: SearchState, node: ReviewNode) -> Review:
        return review(self.review_step, state.question, self._shown(state, node.path))

    def _record(self, state: SearchState, node: ReviewNode, result: Review) -> None:
        node.take(result)
        for check in self.review_checks:  # hopkit's checked accept and reject (none in ``paper``)
            check(state, node, self.single_path)

    def _next_query(self, state: SearchState, node: ReviewNode) -> str | None:
        """Direct and CoT expansion: the review's own query. MPC: the LM writes the missing paragraph
        from its own knowledge and that text is the query. A query the rule of ``self.queries`` does not take is
        not expanded (the paper), or written by ``WriteSearchQuery`` (hopkit's ``query_fallback``)."""
        if self.knobs.expansion == "mpc":
            if not self._take_budget(state):
                return None
            try:
                written = self.complete_missing(question=state.question, references=self._shown(state, node.path),
                                                **without_own_example(self.complete_missing, state.question))
                written = written.missing_information
            except AdapterParseError as error:
                written = str(error.lm_response or "")
            written = (written or "").strip()
            if self.knobs.mpc_query == "first_sentence" and written:
                written = first_sentence(written)
            if self.queries.accepts(written, state.question):
                node.query_source = "mpc"
                return written
        elif not (node.unsupported_accept or node.overruled_reject) and self.queries.accepts(node.output,
                                                                                              state.question):
            node.query_source = "review"
            return node.output
        query, source = self.queries(self.write_query, lambda: self._take_budget(state), state.question,
                                     self._shown(state, node.path), node.reasoning)
        node.query_source = source or node.query_source
        return query

    def _take_budget(self, state: SearchState) -> bool:
        """One LM step is about to run; False (and the search stops growing) once the budget is spent."""
        with self._lock:
            if self.spent(state.lm_steps):
                state.stopped_by_budget = True
                return False
            state.lm_steps += 1
            return True

    # ---- the answer --------------------------------------------------------------------------------
    def _answer(self, state: SearchState) -> dspy.Prediction:
        fallback = not state.pool
        try:
            if fallback:  # nothing accepted: read the paths reviewed as relevant, else the first layer
                relevant = ([n.path for n in state.nodes if n.relevant or n.overruled_reject]
                            or [n.path for n in state.nodes if n.depth == 1])
                pids = list(dict.fromkeys(pid for path in relevant for pid in path))
                out = self.fuse.paragraphs_only(state.question, [state.passages[p] for p in pids])
            else:
                pids = state.pool_pids()
                out = self.fuse(state.question, state.pool, state.passages)
            response, answer, fusion_parse = (out.response or "").strip(), (out.answer or "").strip(), "typed"
        except AdapterParseError as error:
            response, answer, fusion_parse = str(error.lm_response or ""), "", "failed"
        state.lm_steps += 1
        answer_before_steps = answer or response
        answer, steps = self.answer_steps(state.question, answer_before_steps, response)
        state.lm_steps += sum(bool((record or {}).get("call")) for record in steps.values())
        ranked = rank_by_response(pids, state.passages, response, self.keep,
                                  self.retriever if self.knobs.rerank == "retriever" else None)
        trace = {"method": "cor" if self.single_path else "tor", "profile": self.profile,
                 "stands_in": stand_ins("tor", self.profile), "knobs": dict(self.knobs), "widths": self.widths,
                 "lm_steps": state.lm_steps, "stopped_by_budget": state.stopped_by_budget,
                 "fusion_parse": fusion_parse, "empty_pool": fallback,
                 "answer_before_steps": answer_before_steps, **steps,
                 "nodes": [n.to_dict() for n in state.nodes],
                 "evidence": [{"pids": e.pids, "analysis": e.analysis, "node": e.node} for e in state.pool],
                 "response": response}
        return hop_prediction(answer, citations=state.pool_pids() or pids, retrieved=ranked, trace=trace)


documented(TreeOfReviews, "tor")
