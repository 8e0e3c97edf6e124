"""A scripted DSPy engine for control-flow tests: canned completions, fixed token log-probabilities."""

from dspy.lm15 import Message, Response, TextPart, TokenLogprob, Usage, response_to_events


class ScriptedEngine:
    """Answers each request with the next field dict, in ChatAdapter's format, tokenised by whitespace."""

    def __init__(self, replies, logprob=-0.1, fail_with=None):
        self.replies = list(replies)
        self.logprob = logprob
        self.fail_with = fail_with
        self.requests = []

    def complete(self, request):
        self.requests.append(request)
        if self.fail_with is not None:
            raise self.fail_with
        fields = self.replies.pop(0)
        text = "".join(f"[[ ## {k} ## ]]\n{v}\n\n" for k, v in fields.items()) + "[[ ## completed ## ]]"
        tokens = [t for t in text.replace(" ", "\0 ").split("\0") if t]
        return Response(id=None, model="scripted", message=Message.assistant([TextPart(text)]), finish_reason="stop",
                        usage=Usage(input_tokens=100, output_tokens=len(tokens)),
                        logprobs=tuple(TokenLogprob(token=t, logprob=self.logprob) for t in tokens)
                        if request.config.logprobs is not None else None)

    def stream(self, request):
        return response_to_events(self.complete(request))

    def close(self):
        pass
