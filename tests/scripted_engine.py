"""A scripted DSPy engine for control-flow tests: canned completions, fixed token log-probabilities."""

import re

from dspy.lm15 import Message, Response, TextPart, TokenLogprob, TopLogprob, Usage, response_to_events


class ScriptedEngine:
    """Answers each request with the next field dict, in ChatAdapter's format, tokenised at whitespace
    (each token keeps the whitespace before it). ``alternatives`` maps a token (stripped) to its top
    alternatives, [(token, logprob), ...], as an LM asked for top log-probabilities returns them."""

    def __init__(self, replies, logprob=-0.1, fail_with=None, alternatives=None):
        self.replies = list(replies)
        self.logprob = logprob
        self.alternatives = alternatives or {}
        self.fail_with = fail_with
        self.requests = []

    def complete(self, request):
        self.requests.append(request)
        if self.fail_with is not None:
            raise self.fail_with
        fields = self.replies.pop(0)
        text = "".join(f"[[ ## {k} ## ]]\n{v}\n\n" for k, v in fields.items()) + "[[ ## completed ## ]]"
        tokens = re.findall(r"\s*\S+|\s+", text)
        return Response(id=None, model="scripted", message=Message.assistant([TextPart(text)]), finish_reason="stop",
                        usage=Usage(input_tokens=100, output_tokens=len(tokens)),
                        logprobs=tuple(self._logprob(t) for t in tokens)
                        if request.config.logprobs is not None else None)

    def _logprob(self, token):
        top = tuple(TopLogprob(token=t, logprob=lp) for t, lp in self.alternatives.get(token.strip(), ()))
        return TokenLogprob(token=token, logprob=top[0].logprob if top else self.logprob, top=top)

    def stream(self, request):
        return response_to_events(self.complete(request))

    def close(self):
        pass


class FieldEchoEngine(ScriptedEngine):
    """Answers any signature: reads the output fields the prompt asks for and fills each one, ``answer``
    with ``answer`` and the rest with a short placeholder (enough for teleprompters that call their own
    signatures, such as MIPROv2's instruction proposer)."""

    def __init__(self, answer="Morn"):
        super().__init__([])
        self.answer = answer

    def complete(self, request):
        texts = [request.system] if isinstance(request.system, str) else []
        texts += [getattr(part, "text", "") for message in request.messages for part in message.parts]
        asked = "\n".join(texts).split("Your output fields are:")[-1].split("All interactions will be structured")[0]
        names = re.findall(r"\d+\. `(\w+)`", asked)
        self.replies = [{name: self.answer if name == "answer" else f"A short {name}." for name in names}]
        return super().complete(request)
