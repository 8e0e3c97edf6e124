"""Where SearChain loses answers, from a run log's traces: the planner, the reader, verification or the final answer.

    python scripts/searchain_failures.py docs/runs/dev100/searchain-zeroshot__local-qwen1.5b.jsonl [--list]

Each wrong answer (EM 0) gets the first cause that fits, in this order:
- final answer, longer form: the answer holds the gold in a longer phrase (cover-EM 1);
- yes/no check: the check's call gave the wrong verdict (from a sentence or a value answer);
- verification: a node's answer held the gold and IR corrected it away;
- final answer: the gold was in the tree (a chain's final answer, or a node's answer from the LM or the
  reader) but the final answer lost it;
- reader: IR read every gold paragraph (over all nodes) and no answer anywhere holds the gold: the reader had
  the evidence in hand (the rule IRCoT's and OneR's losses use: scripts/answer_losses.py);
- planner, later hop: the chain's queries reached some gold paragraphs but not all (a chain that stopped short,
  or a later query that never named the entity an earlier node found), and no answer holds the gold;
- planner: no node's query retrieved a gold paragraph, and no answer holds the gold.
"""

from __future__ import annotations

from collections import Counter

from hopkit.evaluation.metrics import cover_exact_match
from failure_log import read_failure_log

from hopkit.errors import exit_on_error

CORRECTED = "verified-corrected"


def _covers(text: str | None, answers: list[str]) -> bool:
    return bool(text) and any(cover_exact_match(text, gold) for gold in answers)


def diagnose(row: dict) -> str:
    if row.get("error"):
        return "error"
    if row["metrics"].get("em", 0) == 1:
        return "right"
    answers, trace = row["answers"], row["trace"]
    if row["metrics"].get("cover_em", 0) == 1:
        return "final answer, longer form"
    check = trace.get("yes_no_check") or {}
    if check.get("call"):  # the verdict came from the check's own call
        return "yes/no check"
    nodes = trace["tree"]["nodes"]
    if any(n["action"] == CORRECTED and _covers(n["lm_answer"], answers) for n in nodes):
        return "verification"
    in_tree = [b.get("final_answer") for b in trace["tree"]["branches"]]
    in_tree += [n["lm_answer"] for n in nodes] + [n.get("reader_answer") for n in nodes]
    if any(_covers(text, answers) for text in in_tree):
        return "final answer"
    gold = set(row.get("gold_pids") or [])
    read = {n.get("pid") for n in nodes} | set((row.get("prediction") or {}).get("retrieved") or [])
    if gold and gold <= read:
        return "reader"
    return "planner, later hop" if gold & read else "planner"


def main() -> None:
    rows, listing = read_failure_log(__doc__)
    causes = Counter()
    for row in rows:
        cause = diagnose(row)
        causes[cause] += 1
        if listing:
            answer = (row.get("prediction") or {}).get("answer", "")
            print(f"{row['qid']}  {cause:28s} gold {row['answers'][0]!r:28s} answer {answer!r}")
    print(f"{len(rows)} questions")
    for cause, count in causes.most_common():
        print(f"  {cause:28s} {count}")


if __name__ == "__main__":
    exit_on_error(main)
