"""Where IRCoT loses answers, from a run log's traces: per question, whether retrieval missed a gold
paragraph, how the chain stopped, and whether the reader went wrong with every gold paragraph in hand.

    python scripts/ircot_failures.py runs/dev100/ircot.jsonl [--list]
"""

from __future__ import annotations

from collections import Counter

from hopkit.evaluation.metrics import cover_exact_match, exact_match
from failure_log import read_failure_log

from hopkit.errors import exit_on_error
from hopkit.text.similarity import token_f1
from hopkit.text.question_form import question_form
from hopkit.programs.ircot.sentences import extract_answer


def diagnose(row: dict) -> str:
    if row.get("error"):
        return "error"
    if row["metrics"].get("em", 0) == 1:
        return "right"
    retrieved = set((row.get("prediction") or {}).get("retrieved") or [])
    if not set(row["gold_pids"]) <= retrieved:
        return "retrieval missed a gold paragraph"
    chain_answer, said = extract_answer(" ".join(row["trace"].get("chain") or []))
    if said and any(cover_exact_match(chain_answer, gold) for gold in row["answers"]):
        return "gold in hand, the chain was right, the reader wrong"
    return "gold in hand, reader wrong"


def main() -> None:
    rows, listing = read_failure_log(__doc__)
    causes, stops, by_form = Counter(), Counter(), Counter()
    steps = []
    for row in rows:
        cause = diagnose(row)
        causes[cause] += 1
        by_form[(question_form(row.get("question", "")), cause)] += 1
        trace = row.get("trace") or {}
        stops[trace.get("stop", "?")] += 1
        steps.append(len(trace.get("chain") or []))
        if listing:
            reader = trace.get("reader_output") or {}
            print(f"{row['qid']} | {cause} | stop={trace.get('stop')} steps={len(trace.get('chain') or [])} | "
                  f"gold={row['answers'][:2]} | answer={row['prediction']['answer'][:60]!r} | parsed={reader.get('parsed')}")
    n = len(rows)
    print(f"{n} questions; EM-right {causes['right']}")
    for cause, count in causes.most_common():
        print(f"  {cause}: {count}")
    print("chain stops: " + ", ".join(f"{k} {v}" for k, v in stops.most_common()) +
          f"; mean sentences {sum(steps) / max(n, 1):.2f}")
    unparsed = sum(1 for r in rows if (r.get("trace") or {}).get("reader_output", {}).get("parsed") is False)
    for form in sorted({form for form, _ in by_form}):
        print(f"  {form}: " + ", ".join(f"{cause} {count}" for (f, cause), count in by_form.most_common() if f == form))
    print(f"reader outputs with no answer found (whole generation used): {unparsed}")
    print(reader_against_chain(rows))


def reader_against_chain(rows: list[dict]) -> str:
    """The separate reader's answer against the chain's own "So the answer is" (IRCoT w/o reader, the
    paper's reader ablation, read from the same traces without another LM call)."""
    def best(fn, answer: str, golds: list[str]) -> float:
        return max((fn(answer, gold) for gold in golds), default=0.0)
    em = {"reader": 0.0, "chain": 0.0}
    f1 = {"reader": 0.0, "chain": 0.0}
    only = {"reader": 0, "chain": 0}
    answered = [r for r in rows if not r.get("error")]
    for row in answered:
        chain_answer, said = extract_answer(" ".join((row.get("trace") or {}).get("chain") or []))
        answers = {"reader": row["prediction"]["answer"], "chain": chain_answer if said else ""}
        right = {}
        for who, answer in answers.items():
            right[who] = best(exact_match, answer, row["answers"])
            em[who] += right[who]
            f1[who] += best(token_f1, answer, row["answers"])
        only["reader"] += int(right["reader"] > right["chain"])
        only["chain"] += int(right["chain"] > right["reader"])
    n = max(len(answered), 1)
    return (f"reader EM {100 * em['reader'] / n:.1f} F1 {100 * f1['reader'] / n:.1f}; the chain's own answer EM "
            f"{100 * em['chain'] / n:.1f} F1 {100 * f1['chain'] / n:.1f}; right by the reader only "
            f"{only['reader']}, by the chain only {only['chain']}")


if __name__ == "__main__":
    exit_on_error(main)
