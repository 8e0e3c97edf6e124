"""The paragraphs a method retrieves per step for a dataset, tuned on the dev questions by answer F1: IRCoT's K in
{2, 4, 6, 8}, as the IRCoT paper tunes it (its section 4; OneR's K is tuned the same way by
scripts/oner_k_sweep.py), and SearChain's k in {1, 3} (the paper reads top-1; hopkit's retrieval-only counterfactual
in docs/results.md found k=3 reaching more gold paragraphs on all three sets). Reads stage 1's logs of
scripts/datasets_queue.sh: the method's default is its own log (`<method>-hopkit-<demos>.jsonl`), the others
`<method>-ksweep-hopkit/<method>-k<K>-<demos>.jsonl`. The sweep is read only once it is finished: a log for every K
of the method's sweep, the sweep's logs on the same questions (a sweep stopped part way, or resumed, chooses
nothing: the default K stands). Only the questions every log holds count; a tie goes to the smaller K (fewer
paragraphs read). Where stage 2 grew the winner's log (`<method>-hopkit-<demos>-k<K>.jsonl`) and the
default's past the sweep's questions, the choice is made again between the two on the questions the sweep never
read (a choice made on 20 questions must hold on the ones it did not see, as scripts/demos_choice.py asks of
demonstrations; a K that holds is what hopkit/knobs/measured.py may take).

    python scripts/k_choice.py docs/runs/datasets/musique ircot indomain [--explain]
"""

from __future__ import annotations

from pathlib import Path
from statistics import mean

from choice_cli import print_choice
from hopkit.evaluation.paired import compare_runs, read_rows

DEFAULT_K = {"ircot": 4, "searchain": 1}  # the method's own default, the K its stage-1 log ran
SWEEP_KS = {"ircot": (2, 4, 6, 8), "searchain": (1, 3)}  # the paper's grid for IRCoT; top-1 against top-3


def k_logs(folder: Path, method: str, demos: str, profile: str = "hopkit") -> dict[int, Path]:
    logs = {DEFAULT_K[method]: folder / f"{method}-{profile}-{demos}.jsonl"}
    for path in (folder / f"{method}-ksweep-{profile}").glob(f"{method}-k*-{demos}.jsonl"):
        logs[int(path.name.split("-k")[1].split("-")[0])] = path
    return {k: path for k, path in sorted(logs.items()) if path.exists()}


def choose_k(folder: Path, method: str, demos: str, profile: str = "hopkit", held_out: bool = True) -> tuple[int, str]:
    """(K, one line saying why): the method's default K while its sweep has not run; ``held_out=False``: the
    sweep's winner without the check on the questions grown after it."""
    rows = {k: read_rows(path) if path.stat().st_size else {}  # a run just started has an empty log
            for k, path in k_logs(folder, method, demos, profile).items()}
    if len(rows) < 2:
        return DEFAULT_K[method], "no K sweep yet"
    unfinished = unfinished_sweep(rows, method)
    if unfinished:
        return DEFAULT_K[method], f"the K sweep is not finished ({unfinished})"
    shared = set.intersection(*(set(r) for r in rows.values()))
    if not shared:
        return DEFAULT_K[method], "the sweep's logs share no question"
    f1 = {k: mean(r[q]["metrics"]["f1"] for q in shared) for k, r in rows.items()}
    best = max(f1, key=lambda k: (f1[k], -k))
    why = f"F1 by K (n = {len(shared)}): " + ", ".join(f"K={k} {100 * v:.1f}" for k, v in f1.items())
    default, grown = DEFAULT_K[method], folder / f"{method}-{profile}-{demos}-k{best}.jsonl"
    if best == default or not grown.exists() or not held_out:
        return best, why
    at_best = read_rows(grown)
    unseen = (set(at_best) & set(rows[default])) - shared
    if not unseen:
        return best, why
    diff = compare_runs({q: rows[default][q] for q in unseen}, {q: at_best[q] for q in unseen}, ["f1"]).differences[0]
    held = best if diff.diff > 0 else min(best, default) if diff.diff == 0 else default
    verdict = "held" if held == best else f"not held: K={held}"
    return held, (f"{why}; on the {len(unseen)} questions the sweep never read, K={best} - K={default} F1 "
                  f"{100 * diff.diff:+.1f} [{100 * diff.low:+.1f}, {100 * diff.high:+.1f}] ({verdict})")


def unfinished_sweep(rows: dict[int, dict], method: str) -> str:
    """What the sweep still lacks, or "" once every K has a log and the sweep's logs hold the same questions."""
    missing = [k for k in SWEEP_KS[method] if k not in rows]
    if missing:
        return "no log yet for " + ", ".join(f"K={k}" for k in missing)
    sweep = {k: set(r) for k, r in rows.items() if k != DEFAULT_K[method]}
    asked = set.union(*sweep.values())
    return ", ".join(f"K={k} at {len(questions)} of {len(asked)}" for k, questions in sweep.items()
                     if questions != asked)


def main() -> None:
    print_choice(__doc__, {"method": list(DEFAULT_K), "demos": ["zeroshot", "wikidemos", "indomain"]}, choose_k)


if __name__ == "__main__":
    main()
