"""SearChain's rule for a repeated query (knob ``duplicates=rejudge``; an addition, off in ``paper``).

Algorithm 1 skips a query IR processed before. When a replanned chain repeats a query with a new answer that
conflicts with the reading recorded for it, skipping lets the conflicting answer through unverified; and an
unsolved query skipped stays unsolved forever. Here the first is judged again against the recorded reading and
the second takes IR's recorded answer (docs/design/additions.md#duplicates)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hopkit.data.passage import Passage
from hopkit.programs.searchain import feedback
from hopkit.programs.searchain.answer_chain import recorded_answer
from hopkit.programs.searchain.judgment import conflicts, judge, judged_by
from hopkit.programs.searchain.repeats import READ_AGAIN, SKIPPED, Outcome, Repeat
from hopkit.programs.searchain.tree import CORRECTED, DUPLICATE, FILLED, UNANSWERED, TreeNode


def rejudge_repeat(repeat: Repeat, knobs: Mapping[str, Any], verify: bool, complete: bool) -> Outcome:
    """SKIPPED, READ_AGAIN, or the node and the correction message that ends the round."""
    node, earlier = repeat.node, repeat.earlier
    if not node.unsolved:
        if not conflicts(node.lm_answer, recorded_answer(earlier)):
            node.action = DUPLICATE
            return SKIPPED
        return _rejudged(repeat, knobs, verify, complete) or SKIPPED
    # an unsolved query is never skipped: IR's recorded answer fills it; where IR found none, the recorded reading
    # stands (the same query reads the same documents the same way), else it is read again
    if not (recorded_answer(earlier) or earlier.action == UNANSWERED):
        return READ_AGAIN
    node.action = FILLED if recorded_answer(earlier) else UNANSWERED
    node.reader_answer = recorded_answer(earlier) or earlier.reader_answer
    node.confidence, node.pid = earlier.confidence, earlier.pid
    if node.action == FILLED:
        repeat.path.append(node)
    return SKIPPED


def _rejudged(repeat: Repeat, knobs: Mapping[str, Any], verify: bool,
              complete: bool) -> tuple[TreeNode, str] | None:
    node, earlier = repeat.node, repeat.earlier
    node.rejudged = True
    node.reader_answer, node.confidence, node.pid = earlier.reader_answer, earlier.confidence, earlier.pid
    document: Passage | None = repeat.documents.get(earlier.pid) if earlier.pid else None
    node.action = judge(False, node.lm_answer, node.reader_answer or "", node.confidence,
                        document.text if document is not None else "", verify=verify, complete=complete,
                        **judged_by(knobs))
    if (node.action == CORRECTED and earlier.action in (CORRECTED, FILLED)
            and not conflicts(node.lm_answer, earlier.lm_answer)):
        # the LM was told this correction before and wrote the same answer again: IR's answer fills the node and
        # IR goes on (a second identical feedback changes nothing, and can spend every round on one correction).
        # An answer changed to another one is corrected again.
        node.action, node.reader_answer = FILLED, recorded_answer(earlier)
    repeat.path.append(node)
    if node.action == CORRECTED and document is not None:
        return node, feedback.correction(repeat.question, node.query, node.reader_answer or "", document,
                                         knobs["paragraph_words"])
    return None
