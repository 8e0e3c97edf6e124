"""Self-Ask as the registry knows it, with and without IR (SearChain's Table 1 reports both), and its ablations."""

from __future__ import annotations

from hopkit.programs.method import Method
from hopkit.programs.self_ask.program import SelfAsk
from hopkit.programs.self_ask.views import VIEWS
from hopkit.variants import Variant, without_additions

METHODS = [
    Method("self-ask", "Self-Ask: follow-up questions answered with retrieval, then a final answer", "self-ask", True,
           lambda r, rd, t, **kw: SelfAsk(r, train=t, **kw), uses_demos=True, views=VIEWS),
    Method("self-ask-noir", "Self-Ask without IR: the LM answers its own follow-up questions", "self-ask", False,
           lambda r, rd, t, **kw: SelfAsk(None, use_ir=False, train=t, **kw), uses_demos=True, views=VIEWS),
]

ABLATIONS = {
    "self-ask": [
        Variant("Self-Ask", "self-ask"),
        Variant("w/o IR", "self-ask-noir", {}, "SearChain Table 1"),
        *without_additions("self-ask", "self-ask"),
    ],
}
