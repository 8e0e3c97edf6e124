"""The extractive reader on a tiny randomly initialised QA model built here (no weights to download)."""

import pytest

from hopkit.data.passage import Passage
from hopkit.reader.extractive import ExtractiveReader

WORDS = ("orvan kellis is a novelist born in port velmar the city of tarvania where was what year "
         "founded 1873 river who wrote").split()


@pytest.fixture(scope="module")
def tiny_qa_model(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertForQuestionAnswering, BertTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-qa")
    (folder / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    BertTokenizerFast(vocab_file=str(folder / "vocab.txt")).save_pretrained(folder)
    torch.manual_seed(0)
    config = BertConfig(vocab_size=5 + len(WORDS), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=128)
    BertForQuestionAnswering(config).save_pretrained(folder)
    return str(folder)


PASSAGES = [Passage("p1", "Orvan Kellis", "Orvan Kellis is a novelist born in Port Velmar."),
            Passage("p2", "Port Velmar", "Port Velmar is the city of Tarvania, founded 1873.")]


def test_span_lies_inside_its_passage_with_a_probability(tiny_qa_model):
    reader = ExtractiveReader(tiny_qa_model, device="cpu")
    span = reader.read("Where was Orvan Kellis born?", PASSAGES)
    passage = next(p for p in PASSAGES if p.pid == span.pid)
    assert span.located and passage.text[span.start:span.end] == span.text and span.text
    assert 0.0 < span.score <= 1.0
    assert not reader.is_dpr and reader.device == "cpu"


def test_batched_reading_matches_one_by_one(tiny_qa_model):
    reader = ExtractiveReader(tiny_qa_model, device="cpu", batch_size=3)
    items = [("Where was Orvan Kellis born?", PASSAGES), ("What year was Port Velmar founded?", PASSAGES[1:])]
    batched = reader.read_batch(items)
    single = [reader.read(q, ps) for q, ps in items]
    assert [(s.text, s.pid) for s in batched] == [(s.text, s.pid) for s in single]
    assert [s.score for s in batched] == pytest.approx([s.score for s in single], rel=1e-4)


def test_missing_model_says_what_to_give(tmp_path):
    from hopkit.errors import MissingArtifactError

    with pytest.raises(MissingArtifactError, match="question-answering model"):
        ExtractiveReader(str(tmp_path / "none"))


@pytest.fixture(scope="module")
def tiny_dpr_reader(tmp_path_factory):
    """SearChain's verifier is a DPR reader: its relevance logit is the confidence f."""
    import torch
    from transformers import DPRConfig, DPRReader, DPRReaderTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-dpr")
    (folder / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    DPRReaderTokenizerFast(vocab_file=str(folder / "vocab.txt")).save_pretrained(folder)
    torch.manual_seed(0)
    config = DPRConfig(vocab_size=5 + len(WORDS), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                       intermediate_size=64, max_position_embeddings=128)
    DPRReader(config).save_pretrained(folder)
    return str(folder)


def test_dpr_branch_scores_by_relevance_logit_and_keeps_spans_in_the_passage(tiny_dpr_reader):
    import torch

    reader = ExtractiveReader(tiny_dpr_reader, device="cpu")
    assert reader.is_dpr and reader.confidence_scale == "logit"
    question = "Where was Orvan Kellis born?"
    for passage in PASSAGES:
        span = reader.read(question, [passage])
        assert span.pid == passage.pid
        if span.text:  # the span comes from the passage's text, never from the question or the title
            assert span.located and passage.text[span.start:span.end] == span.text
        encoded = reader.tokenizer(questions=[question], titles=[passage.title], texts=[passage.text],
                                   return_tensors="pt")
        with torch.inference_mode():
            relevance = reader.model(input_ids=encoded["input_ids"],
                                     attention_mask=encoded["attention_mask"]).relevance_logits
        assert span.score == pytest.approx(float(relevance[0]), abs=1e-4)


def test_dpr_context_mask_starts_after_the_second_separator():
    from hopkit.reader.extractive import _after_second_sep

    # [CLS] q [SEP] title [SEP] t1 t2 [PAD]
    assert _after_second_sep([2, 10, 3, 11, 3, 12, 13, 0], sep=3, pad=0) == [
        False, False, False, False, False, True, True, False]
