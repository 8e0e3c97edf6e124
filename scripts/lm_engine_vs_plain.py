"""hopkit's llama.cpp engine against a plain ``Llama.create_chat_completion`` on identical real prompts.

OneR prompts of real questions (the question and its top-K BM25 paragraphs, formatted by DSPy's
ChatAdapter) go through both, alternating, each prompt ``--repeats`` times. llama.cpp's own counters give
prompt-evaluation and generation tokens per second for each call; wall seconds include everything.

    python scripts/lm_engine_vs_plain.py --dataset ircot:../shared/data/hotpotqa/dev100.jsonl --prompts 3
"""

from __future__ import annotations

import argparse
import statistics
import time

import llama_cpp


def perf(llama) -> tuple[float, int, float, int]:
    data = llama_cpp.llama_perf_context(llama._ctx.ctx)
    return data.t_p_eval_ms, data.n_p_eval, data.t_eval_ms, data.n_eval


def timed(llama, call) -> dict:
    llama_cpp.llama_perf_context_reset(llama._ctx.ctx)
    start = time.perf_counter()
    usage = call()
    wall = time.perf_counter() - start
    p_ms, p_n, e_ms, e_n = perf(llama)
    return {"wall_s": wall, "prompt_tokens": usage[0], "prompt_evaluated": p_n,
            "prompt_tok_s": 1000 * p_n / p_ms if p_ms else None, "gen_tokens": usage[1],
            "gen_tok_s": 1000 * e_n / e_ms if e_ms else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--prompts", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--k", type=int, default=7)
    parser.add_argument("--pack", default="qwen1.5b")
    args = parser.parse_args()

    import dspy

    from hopkit.paths import default_index_path
    from hopkit.data.registry import load_dataset_spec
    from hopkit.knobs import PARAGRAPH_WORDS
    from hopkit.lm.factory import LMSpec, make_lm
    from hopkit.lm.model_packs import resolve_model_file
    from hopkit.retrieval.loading import load_index
    from hopkit.signatures import ContextAnswer

    dataset = load_dataset_spec(args.dataset)
    retriever = load_index(default_index_path(dataset.corpus_name, "bm25"))
    adapter = dspy.ChatAdapter()
    prompts = []
    for example in dataset.examples[: args.prompts]:
        context = [p.as_context(PARAGRAPH_WORDS) for p in retriever.retrieve(example.question, args.k)]
        prompts.append(adapter.format(dspy.Predict(ContextAnswer).signature, demos=[],
                                      inputs={"context": context, "question": example.question}))
    hopkit_lm = make_lm(LMSpec(model=f"local:{args.pack}", cache=False))
    engine_llama = hopkit_lm.engine._model()
    plain = llama_cpp.Llama(model_path=str(resolve_model_file(args.pack)), n_ctx=8192, n_threads=engine_llama.n_threads
                            if hasattr(engine_llama, "n_threads") else None, seed=0, verbose=False)

    def via_hopkit(messages):
        before = len(hopkit_lm.history)
        hopkit_lm(messages=messages)
        usage = hopkit_lm.history[before]["usage"] if len(hopkit_lm.history) > before else {}
        return usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)

    def via_plain(messages):
        out = plain.create_chat_completion(messages=messages, temperature=0.0, max_tokens=512, seed=0)
        return out["usage"]["prompt_tokens"], out["usage"]["completion_tokens"]

    rows = {"hopkit": [], "plain": []}
    for repeat in range(args.repeats):
        for i, messages in enumerate(prompts):
            for name, llama, call in (("hopkit", engine_llama, via_hopkit), ("plain", plain, via_plain)):
                result = timed(llama, lambda: call(messages))
                rows[name].append(result)
                print(f"repeat {repeat} prompt {i} {name}: {result}", flush=True)
    print("| path | calls | prompt tokens | prompt tokens evaluated | prompt tok/s | gen tok/s | wall s/call |")
    print("|---|---|---|---|---|---|---|")
    for name, results in rows.items():
        mean = lambda key: statistics.mean(r[key] for r in results if r[key] is not None)  # noqa: E731
        print(f"| {name} | {len(results)} | {mean('prompt_tokens'):.0f} | {mean('prompt_evaluated'):.0f} | "
              f"{mean('prompt_tok_s'):.1f} | {mean('gen_tok_s'):.1f} | {mean('wall_s'):.1f} |")


if __name__ == "__main__":
    main()
