"""What hopkit adds to the papers' algorithms, apart from them: each addition is a knob (hopkit/knobs/declared.py,
marked ``addition``), off in the ``paper`` profile.

- ``answer_steps``: the steps that act on a method's final answer, composed in order: short form
  (``short_form``), the yes/no check (``yes_no_check``, with ``restatement``) and the either-or check
  (``option_check``).
- ``answer_as_asked``: the reader prompts' answer-form sentence (``answer_as_asked``).
- ``review_checks``: ToR's checked accept and reject (``check_accept``, ``check_reject``); ``query_fallback`` and
  ``call_budget``: ToR's written query and its LM-call budget.

SearChain's own additions act on its parts, so they live with the method (hopkit/programs/searchain/additions/).
Nothing here imports a program.

The programs' folders (hopkit/programs/) hold the papers' algorithms; a program calls these steps only
where its knobs turn them on.
"""
