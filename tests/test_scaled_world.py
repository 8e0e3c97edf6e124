"""The bundled world grown to N passages: exact size, deterministic, look-alike families kept, default unchanged."""

from hopkit.data.bundled.build import BundledSpec, build_bundled
from hopkit.data.bundled.world import WorldSize
from hopkit.data.corpus import Corpus


def test_a_grown_world_has_exactly_n_passages_and_the_same_mix():
    size = WorldSize().scaled(200_000)
    assert size.total == 200_000 and size.works > WorldSize().works and size.countries > WorldSize().countries
    assert WorldSize().scaled(100) == WorldSize()  # never shrunk


def test_a_grown_build_is_deterministic_and_leaves_the_default_alone(tmp_path):
    small = dict(train=30, dev=10, test=10, task_train=0, task_dev=0, task_test=0)
    a = build_bundled(tmp_path / "a", BundledSpec(paragraphs=6000, **small))
    b = build_bundled(tmp_path / "b", BundledSpec(paragraphs=6000, **small))
    corpus = Corpus.from_file(a / "corpus.jsonl")
    assert len(corpus) == 6000 and (a / "corpus.jsonl").read_bytes() == (b / "corpus.jsonl").read_bytes()
    assert (a / "dev.jsonl").read_bytes() == (b / "dev.jsonl").read_bytes()
    stems = {}
    for passage in corpus:
        if passage.pid.startswith("person-"):
            stems.setdefault(passage.title.split()[-1][:5], []).append(passage.pid)
    assert max(len(v) for v in stems.values()) >= 2  # look-alike name families survive the growth
    default = build_bundled(tmp_path / "c", BundledSpec(**small))
    assert len(Corpus.from_file(default / "corpus.jsonl")) == WorldSize().total
