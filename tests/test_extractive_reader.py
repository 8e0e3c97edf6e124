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
