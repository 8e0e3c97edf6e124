"""Tree of Reviews (Jiapeng Li et al., 2024) as a DSPy module, with its chain variant CoR.

The root is the question; each retrieved paragraph becomes a child node, reviewed together with the
paragraphs on its path. A review rejects (irrelevant: stop), searches (relevant, not sufficient: a
new query, whose paragraphs become the node's children) or accepts (sufficient: the path and a brief
analysis join the evidence pool). Depth-first, until every path is accepted, rejected or at the
maximum depth; then a reader fuses the pool, as much of it as the reader's input limit holds. With
``order=layer`` a node's children are reviewed together (concurrently, in bounded threads) before any is expanded.

Reviews: Direct expansion uses the paper's review without thoughts (Table 8), CoT expansion its
step-by-step review (Table 7), and MPC the review without thoughts with the missing-paragraph step (Table
9) as the query. hopkit's additions, each a knob off in the ``paper`` profile: ``mpc_review=reasoning_first``
(write the reasoning path before judging), ``query_fallback`` (a search with no real query gets a query-writing
call), ``budget`` (at most this many LM calls), ``extra_demo`` (a fourth review demonstration), and the
checks of hopkit/additions/ (``check_accept``, ``check_reject``, and the answer steps).
"""

from __future__ import annotations

import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.data.passage import Passage
from hopkit.programs.prediction import hop_prediction
from hopkit.additions.answer_steps import AnswerSteps, called
from hopkit.additions.review_checks import names_an_option, supported
from hopkit.data.examples import Dataset
from hopkit.errors import InputError
from hopkit.knobs import resolve
from hopkit.knobs.stand_ins import stand_ins
from hopkit.programs.documented import documented
from hopkit.knobs.knob import Profile
from hopkit.programs.tree_of_reviews.demonstrations import ReviewDemos, build_review_demos
from hopkit.data.sentences import first_sentence
from hopkit.text.normalize import normalize_answer
from hopkit.programs.own_example import without_own_example
from hopkit.programs.tree_of_reviews.fusion import EvidenceFusion, Fusion, rank_by_response
from hopkit.programs.tree_of_reviews.review import ACCEPT, REJECT, SEARCH, Review, review
from hopkit.programs.tree_of_reviews.tree import (PRUNED_REPETITIVE, SKIPPED_BUDGET, Evidence, ReviewNode,
                                                  SearchState)
from hopkit.retrieval.protocol import Retriever
from hopkit.signatures.tree_of_reviews import (CompleteMissingParagraph, ReviewParagraphs, ReviewParagraphsReasoned,
                                               ReviewParagraphsStepByStep, WriteSearchQuery)

_REVIEWS = {"direct": ReviewParagraphs, "cot": ReviewParagraphsStepByStep}

Expansion = Literal["direct", "cot", "mpc"]


def _review_signature(expansion: str, mpc_review: str) -> type[dspy.Signature]:
    """Direct: the paper's review without thoughts (Table 8); CoT: its step-by-step review (Table 7); MPC: the
    paper pairs the missing-paragraph step (Table 9) with the review without thoughts (``mpc_review=plain``);
    hopkit's default reviews reasoning first (``reasoning_first``)."""
    if expansion == "mpc":
        return ReviewParagraphsReasoned if mpc_review == "reasoning_first" else ReviewParagraphs
    return _REVIEWS[expansion]


class TreeOfReviews(dspy.Module):
    """Tree of Reviews (Li et al., 2024). ``single_path=True`` is CoR: one path that accumulates every
    paragraph. ``train`` (a dataset with chains) builds the review, expansion and fusion demonstrations, as
    ``hopkit eval`` does; ``demos`` passes built ones instead."""

    def __init__(self, retriever: Retriever, depth: int | None = None, width_1: int | None = None,
                 width_2: int | None = None, width_3: int | None = None, width_4: int | None = None,
                 expansion: Expansion | None = None, mpc_review: str | None = None, fusion: Fusion | None = None,
                 relevance_pruning: bool | None = None, repetitive_pruning: bool | None = None,
                 order: str | None = None, reader_tokens: int | None = None, budget: int | None = None, query_fallback: bool | None = None, extra_demo: bool | None = None,
                 shots: int | None = None, check_accept: bool | None = None, check_reject: bool | None = None, rerank: str | None = None,
                 mpc_query: str | None = None, paragraph_words: int | None = None, yes_no_check: bool | None = None,
                 restatement: bool | None = None, option_check: bool | None = None,
                 date_comparison: bool | None = None, profile: Profile = "hopkit", single_path: bool = False,
                 threads: int = 4, keep: int = 15, train: Dataset | None = None,
                 demos: ReviewDemos | None = None) -> None:
        super().__init__()
        knobs = resolve("tor", profile, dict(
            depth=depth, width_1=width_1, width_2=width_2, width_3=width_3, width_4=width_4, expansion=expansion,
            mpc_review=mpc_review, fusion=fusion, relevance_pruning=relevance_pruning,
            repetitive_pruning=repetitive_pruning, order=order, reader_tokens=reader_tokens, budget=budget, query_fallback=query_fallback,
            extra_demo=extra_demo, shots=shots, check_accept=check_accept, check_reject=check_reject, rerank=rerank,
            mpc_query=mpc_query, paragraph_words=paragraph_words, yes_no_check=yes_no_check,
            restatement=restatement, option_check=option_check, date_comparison=date_comparison),
            owner="CoR" if single_path else "TreeOfReviews")
        if demos is not None and train is not None:
            raise InputError("give Tree of Reviews either train (demonstrations built from it) or demos, not both")
        self.retriever, self.profile, self.knobs = retriever, profile, knobs
        self.depth = knobs["depth"]
        self.widths = [knobs[f"width_{i}"] for i in range(1, 5)]
        self.expansion, self.fusion_mode, self.mpc_review = knobs["expansion"], knobs["fusion"], knobs["mpc_review"]
        self.relevance_pruning, self.repetitive_pruning = knobs["relevance_pruning"], knobs["repetitive_pruning"]
        self.budget, self.query_fallback = knobs["budget"], knobs["query_fallback"]
        self.check_accept, self.check_reject = knobs["check_accept"], knobs["check_reject"]
        self.rerank, self.mpc_query = knobs["rerank"], knobs["mpc_query"]
        self.answer_steps = AnswerSteps.from_knobs(knobs)
        max_words = knobs["paragraph_words"]
        self.single_path, self.threads, self.max_words, self.keep = single_path, max(1, threads), max_words, keep
        self.review_step = dspy.Predict(_review_signature(self.expansion, self.mpc_review))
        self.complete_missing = dspy.Predict(CompleteMissingParagraph)
        self.write_query = dspy.Predict(WriteSearchQuery)
        self.order = knobs["order"]
        self.fuse = EvidenceFusion(self.fusion_mode, max_words, knobs["reader_tokens"])
        if train is not None:
            demos = build_review_demos(train.examples, train.corpus, max_words=max_words,
                                       extra_demo=knobs["extra_demo"], shots=knobs["shots"])
        if demos is not None:
            self.review_step.demos = list(demos.for_expansion(self.expansion, self.mpc_review))
            self.complete_missing.demos = list(demos.missing)
            self.fuse.set_demos(demos.fusion)
        self._lock = threading.Lock()

    # ---- the search -------------------------------------------------------------------------------
    def forward(self, question: str) -> dspy.Prediction:
        state = SearchState(question)
        with ThreadPoolExecutor(max_workers=self.threads) as pool:
            if self.single_path:
                self._chain(state)
            else:
                first = self._children(state, question, depth=1, parent=None)
                if self.order == "depth_first":
                    self._search(state, first)
                else:
                    self._visit_layer(state, first, pool)
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
        if self.repetitive_pruning and node.pid in state.pool_pids():
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
        expand = node.action == SEARCH or (node.action == REJECT and not self.relevance_pruning)
        if not expand or node.depth >= self.depth:
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
        for depth in range(1, self.depth + 1):
            for passage in self.retriever.retrieve(query, self.widths[depth - 1]):
                state.passages.setdefault(passage.pid, passage)
                if passage.pid not in path:
                    path.append(passage.pid)
            node = ReviewNode(id=f"c{depth}", depth=depth, parent=parent or "root", pid=path[-1] if path else "",
                              query=query, path=list(path))
            state.nodes.append(node)
            if not self._take_budget(state):
                node.status = SKIPPED_BUDGET
                return
            self._record(state, node, self._review_path(state, node))
            if node.action == ACCEPT:
                state.pool.append(Evidence(list(path), node.output, node.id))
                return
            if node.action == REJECT or depth == self.depth:
                return
            next_query = self._next_query(state, node)
            if next_query is None:
                return
            node.next_query, query, parent = next_query, next_query, node.id

    def _children(self, state: SearchState, query: str, depth: int, parent: ReviewNode | None) -> list[ReviewNode]:
        on_path = parent.path if parent else []
        nodes = []
        for passage in self.retriever.retrieve(query, self.widths[depth - 1]):
            state.passages.setdefault(passage.pid, passage)
            if passage.pid in on_path:  # the same paragraph twice on one path adds nothing
                continue
            node = ReviewNode(id=f"{parent.id if parent else 'n'}.{len(nodes) + 1}", depth=depth,
                              parent=parent.id if parent else "root", pid=passage.pid, query=query,
                              path=[*on_path, passage.pid])
            nodes.append(node)
        with self._lock:
            state.nodes.extend(nodes)
        return nodes

    # ---- LM steps ----------------------------------------------------------------------------------
    def _review_path(self, state: SearchState, node: ReviewNode) -> Review:
        paragraphs = [state.passages[pid].as_context(self.max_words) for pid in node.path]
        return review(self.review_step, state.question, paragraphs)

    def _record(self, state: SearchState, node: ReviewNode, result: Review) -> None:
        node.relevant, node.sufficient, node.output, node.parse = result.relevant, result.sufficient, result.output, result.parse
        node.reasoning, node.answer, node.action = result.reasoning, result.answer, result.action
        if node.action == ACCEPT and self.check_accept:
            paragraphs = [f"{state.passages[pid].title}. {state.passages[pid].text}" for pid in node.path]
            if not supported(result.answer, paragraphs, state.question):
                node.action, node.unsupported_accept = SEARCH, True
        if node.action == REJECT and self.check_reject:
            titles = [state.passages[pid].title for pid in (node.path if self.single_path else [node.pid])]
            if any(names_an_option(state.question, title) for title in titles):  # CoR: any paragraph on its path
                node.action, node.overruled_reject = SEARCH, True

    def _next_query(self, state: SearchState, node: ReviewNode) -> str | None:
        """Direct and CoT expansion: the review's own query. MPC: the LM writes the missing paragraph
        from its own knowledge and that text is the query. Either way the question itself is never sent
        again by accident: a missing or repeated query is written by ``WriteSearchQuery``."""
        if self.expansion == "mpc":
            if not self._take_budget(state):
                state.stopped_by_budget = True
                return None
            references = [state.passages[pid].as_context(self.max_words) for pid in node.path]
            try:
                written = self.complete_missing(question=state.question, references=references,
                                                **without_own_example(self.complete_missing, state.question))
                written = written.missing_information
            except AdapterParseError as error:
                written = str(error.lm_response or "")
            written = (written or "").strip()
            if self.mpc_query == "first_sentence" and written:
                written = first_sentence(written)
            if self._real_query(written, state) or (written and not self.query_fallback):
                node.query_source = "mpc"
                return written
        elif not (node.unsupported_accept or node.overruled_reject) and (
                self._real_query(node.output, state) or (node.output and not self.query_fallback)):
            node.query_source = "review"
            return node.output
        if not self.query_fallback:  # the paper: a search with no query is not expanded
            node.query_source = "none"
            return None
        return self._written_query(state, node)

    def _written_query(self, state: SearchState, node: ReviewNode) -> str | None:
        if not self._take_budget(state):
            state.stopped_by_budget = True
            return None
        paragraphs = [state.passages[pid].as_context(self.max_words) for pid in node.path]
        try:
            query = self.write_query(question=state.question, paragraphs=paragraphs, missing=node.reasoning).query
        except AdapterParseError:
            query = ""
        query = (query or "").strip()
        if not self._real_query(query, state):
            node.query_source = "none"
            return None
        node.query_source = "written"
        return query

    @staticmethod
    def _real_query(query: str | None, state: SearchState) -> bool:
        norm = normalize_answer(query or "")
        return bool(norm) and norm != normalize_answer(state.question)

    def _take_budget(self, state: SearchState) -> bool:
        """One LM step is about to run; False (and the search stops growing) once the budget is spent."""
        with self._lock:
            if self.budget and state.lm_steps >= self.budget:
                state.stopped_by_budget = True
                return False
            state.lm_steps += 1
            return True

    # ---- the answer --------------------------------------------------------------------------------
    def _answer(self, state: SearchState) -> dspy.Prediction:
        fallback = not state.pool
        try:
            if fallback:  # nothing accepted: read the paths reviewed as relevant, else the first layer
                relevant = [n.path for n in state.nodes if n.relevant or n.overruled_reject] or [n.path for n in state.nodes if n.depth == 1]
                pids = list(dict.fromkeys(pid for path in relevant for pid in path))
                out = self.fuse.paragraphs_only(state.question, [state.passages[p] for p in pids])
            else:
                pids = state.pool_pids()
                out = self.fuse(state.question, state.pool, state.passages)
            response, answer, fusion_parse = (out.response or "").strip(), (out.answer or "").strip(), "typed"
        except AdapterParseError as error:
            response, answer, fusion_parse = str(error.lm_response or ""), "", "failed"
        state.lm_steps += 1
        answer = answer or response
        answer_before_steps = answer
        answer, steps = self.answer_steps(state.question, answer, response)
        checked, picked, dated = steps.get("yes_no_check"), steps.get("option_check"), steps.get("date_comparison")
        state.lm_steps += called(checked) + called(picked)
        ranked = rank_by_response(pids, state.passages, response, self.keep,
                                  self.retriever if self.rerank == "retriever" else None)
        reviews = [n for n in state.nodes if n.action is not None]
        distinct = {pid for n in reviews for pid in n.path}  # a review reads its whole path (CoR: every paragraph)
        stats = {"api": state.lm_steps, "doc": len(distinct), "rate": len(distinct) / state.lm_steps,
                 "evidence": len(state.pool), "reviews": len(reviews),
                 "review_parse_failures": sum(n.parse == "failed" for n in reviews),
                 "review_marker_parses": sum(n.parse == "markers" for n in reviews),
                 "pruned_repetitive": sum(n.status == PRUNED_REPETITIVE for n in state.nodes),
                 "fusion_parse_failures": int(fusion_parse == "failed"), "empty_pool": int(fallback),
                 "accepts": sum(n.action == ACCEPT for n in reviews), "rejects": sum(n.action == REJECT for n in reviews),
                 "searches": sum(n.action == SEARCH for n in reviews),
                 "unsupported_accepts": sum(n.unsupported_accept for n in reviews),
                 "overruled_rejects": sum(n.overruled_reject for n in reviews),
                 "written_queries": sum(n.query_source == "written" for n in reviews),
                 "unexpanded_searches": sum(n.query_source == "none" for n in reviews)}
        trace = {"method": "cor" if self.single_path else "tor", "profile": self.profile,
                 "stands_in": stand_ins("tor", self.profile), "depth": self.depth,
                 "widths": self.widths[: self.depth], "expansion": self.expansion, "fusion": self.fusion_mode,
                 "relevance_pruning": self.relevance_pruning, "repetitive_pruning": self.repetitive_pruning,
                 "order": self.order, "reader_tokens": self.fuse.reader_tokens,
                 "budget": self.budget, "stopped_by_budget": state.stopped_by_budget,
                 "check_accept": self.check_accept, "check_reject": self.check_reject, "rerank": self.rerank,
                 "mpc_query": self.mpc_query, "mpc_review": self.mpc_review, "query_fallback": self.query_fallback,
                 "answer_before_steps": answer_before_steps,
                 "yes_no_check": checked, "option_check": picked, "date_comparison": dated,
                 "nodes": [n.to_dict() for n in state.nodes],
                 "evidence": [{"pids": e.pids, "analysis": e.analysis, "node": e.node} for e in state.pool],
                 "response": response, "stats": stats}
        return hop_prediction(answer, citations=state.pool_pids() or pids, retrieved=ranked, trace=trace)


documented(TreeOfReviews, "tor")
