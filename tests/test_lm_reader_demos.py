"""The answerability reader's demonstrations come in contrasting pairs: no query form or paragraph decides the
judgment by itself (a lone unanswered "Where was X born?" example taught the 1.5B reader to abstain on every
birthplace query)."""

from hopkit.signatures.extract_span import JUDGE_DEMOS, NO_ANSWER


def _form(query: str) -> tuple[str, str]:
    return tuple(query.split()[:2])


def test_every_unanswered_demo_has_an_answered_twin():
    answered = [d for d in JUDGE_DEMOS if d.answers]
    unanswered = [d for d in JUDGE_DEMOS if not d.answers]
    assert answered and unanswered
    for demo in unanswered:
        assert demo.span == NO_ANSWER
        twins = [d for d in answered if d.paragraph == demo.paragraph or _form(d.query) == _form(demo.query)]
        assert twins, f"no answered demonstration shares the query form or paragraph of {demo.query!r}"


def test_answered_spans_are_copied_from_their_paragraphs():
    for demo in JUDGE_DEMOS:
        if demo.answers:
            assert demo.span in demo.paragraph and demo.span.lower() not in demo.query.lower()
