"""hopkit's additions to SearChain, each chosen by its knob and off in ``paper``: the first-plan retry
(``decompose_retry``), the rule for a repeated query (``duplicates=rejudge``) and the final answer from the last
chain (``answer_from=last_chain``). They act on SearChain's own parts (its tree, judgment, feedback and chain
text), so they live with the method; the additions every method shares are in hopkit/additions/
(docs/design/additions.md)."""
