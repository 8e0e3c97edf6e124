"""The same doors for every verb: optimize takes eval's LM flags, and no verb's settings file takes a secret."""

import pytest

from hopkit.cli.main import build_parser, main


def test_optimize_takes_the_lm_flags_eval_takes():
    for verb in (["eval"], ["optimize", "--method", "oner"], ["ablate", "--method", "ircot"]):
        args = build_parser().parse_args([*verb, "--api-base", "http://127.0.0.1:9/v1", "--api-key", "k",
                                          "--lm-timeout", "5", "--no-cache", "--max-tokens", "64"])
        assert (args.api_base, args.api_key, args.lm_timeout, args.no_cache, args.max_tokens) == (
            "http://127.0.0.1:9/v1", "k", 5.0, True, 64), verb


@pytest.mark.parametrize("verb", [["eval"], ["optimize", "--method", "oner"]])
def test_no_settings_file_takes_an_api_key(tmp_path, capsys, verb):
    config = tmp_path / "run.toml"
    config.write_text('api_key = "secret"\n')
    assert main([*verb, "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "api_key is not a file setting" in err[0] and "--api-key" in err[0]


def test_reproduce_takes_the_method_as_every_verb_does(capsys):
    args = build_parser().parse_args(["reproduce", "--method", "tor", "--test", "bundled:dev[1-2]"])
    assert args.method == "tor" and args.method_named is None
    assert main(["reproduce", "oner", "--method", "tor", "--test", "bundled:dev[1-2]"]) == 2
    assert "name the method once" in capsys.readouterr().err


def test_a_run_file_is_a_study_file_too(tmp_path):
    from hopkit.cli.run_spec import eval_spec
    from hopkit.cli.study_file import apply_study_file

    run_file = tmp_path / "run.toml"
    run_file.write_text('method = "ircot"\ndataset = "bundled:dev"\nprofile = "paper"\nlm = "local:qwen0.5b"\n'
                        'retriever = "bm25"\ncache = false\nmax_tokens = 256\n[knobs]\nk = 6\n')
    spec = eval_spec(build_parser().parse_args(["eval", "--config", str(run_file)]))
    for verb in (["ablate"], ["optimize"]):
        args = build_parser().parse_args([*verb, "--config", str(run_file)])
        apply_study_file(args, required=("method",))
        assert (args.method, args.profile, args.lm, args.retriever, args.no_cache, args.max_tokens) == (
            spec.method, spec.profile, spec.lm, spec.retriever, not spec.cache, spec.max_tokens), verb
        assert args.set == ["k=6"] and spec.knobs == {"k": 6}, verb
