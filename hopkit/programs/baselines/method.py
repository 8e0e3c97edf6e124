"""NoR and OneR as the registry knows them: each with a direct or a chain-of-thought reader (their ablations are
IRCoT's baselines, hopkit/programs/ircot/method.py)."""

from __future__ import annotations

from hopkit.programs.baselines.program import NoR, OneR
from hopkit.programs.baselines.views import VIEWS
from hopkit.programs.method import Method
from hopkit.variants import Variant

METHODS = [
    Method("nor", "no retrieval, direct answer", None, False,
           lambda r, rd, t, profile="hopkit": NoR("direct", train=t, profile=profile), uses_demos=True,
           reader_demos_only=True, views=VIEWS),
    Method("nor-cot", "no retrieval, chain-of-thought answer", None, False,
           lambda r, rd, t, profile="hopkit": NoR("cot", train=t, profile=profile), uses_demos=True,
           reader_demos_only=True, views=VIEWS),
    Method("oner", "one retrieval with the question, direct answer", "oner", True,
           lambda r, rd, t, **kw: OneR(r, reasoning="direct", train=t, **kw), uses_demos=True,
           reader_demos_only=True, views=VIEWS),
    Method("oner-cot", "one retrieval with the question, chain-of-thought answer", "oner", True,
           lambda r, rd, t, **kw: OneR(r, reasoning="cot", train=t, **kw), uses_demos=True,
           reader_demos_only=True, views=VIEWS),
]
ABLATIONS: dict[str, list[Variant]] = {}
