"""An extractive reader over a transformers question-answering model (DPR reader or SQuAD-style).

The best span comes from the start/end logits inside the passage's own tokens. Confidence is
the DPR reader's relevance logit where the model has one (as SearChain's verifier uses it),
else the span's probability, softmax(start)[s] * softmax(end)[e]. fp16 on CUDA, fp32 on CPU.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from hopkit.data.passage import Passage
from hopkit.errors import MissingArtifactError
from hopkit.reader.locate import locate
from hopkit.reader.protocol import Span


class ExtractiveReader:
    def __init__(self, model: str, device: str | None = None, max_length: int = 384, max_answer_tokens: int = 30,
                 batch_size: int = 16) -> None:
        import torch
        from transformers import AutoConfig

        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.max_length, self.max_answer_tokens, self.batch_size = max_length, max_answer_tokens, batch_size
        try:
            config = AutoConfig.from_pretrained(model)
        except OSError as error:
            raise MissingArtifactError(
                f"no question-answering model at {model!r} ({error.__class__.__name__}); give a local folder or, "
                "online, a hub name such as facebook/dpr-reader-single-nq-base") from None
        self.is_dpr = config.model_type == "dpr"
        self.confidence_scale = "logit" if self.is_dpr else "probability"
        dtype = torch.float16 if self.device.startswith("cuda") else torch.float32
        if self.is_dpr:
            from transformers import DPRReader, DPRReaderTokenizerFast

            self.tokenizer = DPRReaderTokenizerFast.from_pretrained(model)
            self.model = DPRReader.from_pretrained(model, torch_dtype=dtype)
        else:
            from transformers import AutoModelForQuestionAnswering, AutoTokenizer

            self.tokenizer = AutoTokenizer.from_pretrained(model)
            self.model = AutoModelForQuestionAnswering.from_pretrained(model, torch_dtype=dtype)
        self.model.to(self.device).eval()
        self._lock = threading.Lock()

    def read(self, question: str, passages: Sequence[Passage]) -> Span:
        return self.read_batch([(question, passages)])[0]

    def read_batch(self, items: Sequence[tuple[str, Sequence[Passage]]]) -> list[Span]:
        pairs = [(i, question, passage) for i, (question, passages) in enumerate(items) for passage in passages]
        best: dict[int, Span] = {}
        for start in range(0, len(pairs), self.batch_size):
            chunk = pairs[start:start + self.batch_size]
            for (i, _, _), span in zip(chunk, self._read_pairs([(q, p) for _, q, p in chunk])):
                if i not in best or _rank(span) > _rank(best[i]):
                    best[i] = span
        return [best.get(i, Span(text="", score=None, pid=None)) for i in range(len(items))]

    def _read_pairs(self, pairs: list[tuple[str, Passage]]) -> list[Span]:
        import torch

        questions = [q for q, _ in pairs]
        texts = [p.text for _, p in pairs]
        if self.is_dpr:  # [CLS] question [SEP] title [SEP] text: the text follows the second [SEP]
            encoded = self.tokenizer(questions=questions, titles=[p.title for _, p in pairs], texts=texts,
                                     padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
            offsets = None
            context_mask = [_after_second_sep(ids, self.tokenizer.sep_token_id, self.tokenizer.pad_token_id)
                            for ids in encoded["input_ids"].tolist()]
        else:
            encoded = self.tokenizer(questions, texts, padding=True, truncation="only_second",
                                     max_length=self.max_length, return_offsets_mapping=True, return_tensors="pt")
            offsets = encoded.pop("offset_mapping")
            context_mask = [[sid == 1 for sid in encoded.sequence_ids(row)] for row in range(len(pairs))]
        inputs = {k: v.to(self.device) for k, v in encoded.items()
                  if k in ("input_ids", "attention_mask", "token_type_ids")}
        if self.is_dpr:
            inputs.pop("token_type_ids", None)
        with self._lock, torch.inference_mode():
            out = self.model(**inputs)
        start_logits, end_logits = out.start_logits.float().cpu(), out.end_logits.float().cpu()
        relevance = out.relevance_logits.float().cpu() if self.is_dpr else None
        spans = []
        for row, (_, passage) in enumerate(pairs):
            s, e, prob = _best_span(start_logits[row], end_logits[row], context_mask[row], self.max_answer_tokens)
            if s < 0:
                spans.append(Span(text="", score=0.0, pid=passage.pid))
                continue
            if offsets is not None:
                char_start, char_end = int(offsets[row][s][0]), int(offsets[row][e][1])
            else:  # no offsets from the DPR tokenizer: find the decoded span in the passage
                decoded = self.tokenizer.decode(encoded["input_ids"][row][s:e + 1], skip_special_tokens=True)
                char_start, char_end = locate(decoded, passage.text)
                if char_start < 0:
                    spans.append(Span(text=decoded, score=0.0, pid=passage.pid))
                    continue
            score = float(relevance[row]) if relevance is not None else prob
            spans.append(Span(text=passage.text[char_start:char_end], score=score, pid=passage.pid,
                              start=char_start, end=char_end))
        return spans


def _rank(span: Span) -> tuple[bool, float]:
    return bool(span.text), span.score if span.score is not None else float("-inf")


def _after_second_sep(ids: list[int], sep: int, pad: int) -> list[bool]:
    seps = [i for i, token in enumerate(ids) if token == sep]
    begin = seps[1] + 1 if len(seps) > 1 else len(ids)
    return [i >= begin and token not in (sep, pad) for i, token in enumerate(ids)]


def _best_span(start: Any, end: Any, mask: list[bool], max_tokens: int) -> tuple[int, int, float]:
    import torch

    allowed = torch.tensor(mask)
    if not allowed.any():
        return -1, -1, 0.0
    start_p = torch.softmax(start.masked_fill(~allowed, float("-inf")), dim=-1)
    end_p = torch.softmax(end.masked_fill(~allowed, float("-inf")), dim=-1)
    scores = start_p[:, None] * end_p[None, :]
    n = scores.shape[0]
    band = torch.ones(n, n, dtype=torch.bool).triu() & ~torch.ones(n, n, dtype=torch.bool).triu(max_tokens)
    scores = scores.masked_fill(~band, 0.0)
    flat = int(torch.argmax(scores))
    s, e = divmod(flat, n)
    return s, e, float(scores[s, e])
