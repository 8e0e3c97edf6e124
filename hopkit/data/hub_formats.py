"""Real datasets through ``datasets``: HotpotQA, 2WikiMultihopQA, MuSiQue (answerable), StrategyQA, and
KILT's FEVER, zsRE, T-REx and ELI5 (SearChain's other tasks).

KILT rows carry no passage text (provenance points into KILT's Wikipedia), so their datasets have an
empty corpus: answer them over your own passages (``hopkit index --corpus kilt_passages.jsonl`` then
``--index``), and recall@15 is not reported. StrategyQA's closed corpus is its annotated facts.

Online users name a hub split; anyone can point the same converters at a local file of
the hub's rows (``name:split@/path/rows.jsonl``), which is how they are tested offline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hopkit.data.decomposition import hop_queries_and_chain
from hopkit.data.examples import ClosedCorpusBuilder, Dataset, local_corpus_name, make_example
from hopkit.data.hub_reach import failure_reason, hub_rows
from hopkit.data.stored_copies import stored_copy
from hopkit.errors import HubUnavailableError, InputError, MissingArtifactError
from hopkit.tasks import DEFAULT_TASK


def _pairs(context: Any) -> Iterable[tuple[str, list[str]]]:
    """HotpotQA's ``{"title": [...], "sentences": [[...]]}`` or 2Wiki's ``[[title, [sentences]], ...]``."""
    if isinstance(context, dict):
        return zip(context["title"], context["sentences"])
    return ((item[0], item[1]) for item in context)


def _supporting_titles(facts: Any) -> set[str]:
    if isinstance(facts, dict):
        return set(facts["title"])
    return {item[0] for item in facts}


def _hotpot_like(row: dict, builder: ClosedCorpusBuilder) -> Any:
    """HotpotQA or 2Wiki: the supporting paragraphs are gold, in the order the reasoning uses them, and the row's
    reasoning becomes a chain for demonstrations: 2Wiki's evidence triples as hop queries and fact sentences
    ("director of Dead Or Alive?", "The director of Dead Or Alive is Takashi Miike."), HotpotQA's supporting
    sentences as they are."""
    supporting = _supporting_titles(row["supporting_facts"])
    by_title: dict[str, str] = {}
    texts: dict[str, list[str]] = {}
    for title, sentences in _pairs(row["context"]):
        by_title[title] = builder.add(title, "".join(sentences).strip() if sentences else title)
        texts[title] = list(sentences or [])
    order = _reasoning_order(row, supporting, list(by_title))
    gold = [by_title[title] for title in order if title in by_title]
    answer = str(row["answer"])
    extra: dict[str, Any] = {}
    evidences = [e for e in row.get("evidences") or [] if isinstance(e, (list, tuple)) and len(e) == 3]
    if evidences:
        queries, facts = hop_queries_and_chain([{"question": f"{s} >> {r}", "answer": o} for s, r, o in evidences])
        if queries:
            extra = {"hop_queries": queries, "chain": [*facts, f"So the answer is: {answer}."]}
    else:
        facts = [texts[title][index].strip() for title, index in _fact_pairs(row["supporting_facts"])
                 if title in texts and isinstance(index, int) and 0 <= index < len(texts[title])]
        if facts:
            extra = {"chain": [*facts, f"So the answer is: {answer}."]}
    return make_example(str(row.get("id", row.get("_id"))), row["question"], [answer], gold, type=row.get("type"),
                        **extra)


def _fact_pairs(facts: Any) -> list[tuple[str, int]]:
    if isinstance(facts, dict):
        return list(zip(facts["title"], facts["sent_id"]))
    return [(item[0], item[1]) for item in facts]


def _reasoning_order(row: dict, supporting: set[str], titles: list[str]) -> list[str]:
    """Supporting titles in the order the reasoning reaches them: 2Wiki's evidence subjects, else the supporting
    facts' order, then any supporting title left, in context order."""
    subjects = [str(e[0]).lower() for e in row.get("evidences") or [] if isinstance(e, (list, tuple)) and e]
    # an evidence names "The Zone" for the paragraph titled "The Zone (2017 film)"
    order = [title for subject in subjects for title in titles
             if title.lower() == subject or title.lower().startswith(f"{subject} (")]
    order += [title for title, _ in _fact_pairs(row["supporting_facts"])]
    order += titles
    return [title for title in dict.fromkeys(order) if title in supporting]


def _musique(row: dict, builder: ClosedCorpusBuilder) -> Any:
    if not row.get("answerable", True):
        return None
    pids, gold = [], []
    for paragraph in row["paragraphs"]:
        pids.append(builder.add(paragraph["title"], paragraph["paragraph_text"]))
        if paragraph.get("is_supporting"):
            gold.append(pids[-1])
    answers = [row["answer"], *row.get("answer_aliases", [])]
    hops = list(row.get("question_decomposition") or [])
    queries, facts = hop_queries_and_chain(hops)
    support = [hop.get("paragraph_support_idx") for hop in hops]
    if not queries or not all(isinstance(i, int) and 0 <= i < len(pids) for i in support):
        return make_example(str(row["id"]), row["question"], answers, gold)
    ordered = list(dict.fromkeys([pids[i] for i in support] + gold))  # hop i's paragraph first, in hop order
    hop_answers = [str(hop["answer"]).strip() for hop in hops] if len(set(support)) == len(support) else []
    return make_example(str(row["id"]), row["question"], answers, ordered, hop_queries=queries,
                        chain=[*facts, f"So the answer is: {row['answer']}."], type=f"{len(hops)}-hop",
                        hop_answers=hop_answers)


def _strategyqa(row: dict, builder: ClosedCorpusBuilder) -> Any:
    facts = row.get("facts") or []
    facts = [facts] if isinstance(facts, str) else list(facts)
    title = str(row.get("term") or "fact")
    gold = [builder.add(title, fact) for fact in facts if str(fact).strip()]
    answer = row["answer"]
    answer = ("yes" if answer else "no") if isinstance(answer, bool) else str(answer).strip().lower()
    return make_example(str(row.get("qid", row.get("id"))), row["question"], [answer], gold,
                        decomposition=list(row.get("decomposition") or []), facts=facts)


def _kilt(row: dict, builder: ClosedCorpusBuilder) -> Any:
    """KILT: ``input`` and ``output: [{answer, provenance}]``; answers are every output's answer."""
    answers = [str(o["answer"]).strip() for o in row["output"] if o.get("answer") is not None
               and str(o["answer"]).strip()]
    if not answers:
        return None
    titles = sorted({p["title"] for o in row["output"] for p in (o.get("provenance") or []) if p.get("title")})
    return make_example(str(row["id"]), row["input"], list(dict.fromkeys(answers)), [], provenance_titles=titles)


@dataclass(frozen=True)
class HubDataset:
    hub_id: str
    config: str | None
    convert: Callable[[dict, ClosedCorpusBuilder], Any]
    task: str = DEFAULT_TASK
    # the hub's split names, where known: another name is refused before the hub is asked, since the hub answers
    # an unknown split only after its retries (and, offline, with a connection error that hides the typo)
    splits: tuple[str, ...] | None = None


HUB: dict[str, HubDataset] = {
    "hotpotqa-distractor": HubDataset("hotpotqa/hotpot_qa", "distractor", _hotpot_like,
                                      splits=("train", "validation")),
    "hotpotqa-fullwiki": HubDataset("hotpotqa/hotpot_qa", "fullwiki", _hotpot_like,
                                    splits=("train", "validation", "test")),
    "2wikimultihopqa": HubDataset("framolfese/2WikiMultihopQA", None, _hotpot_like),
    "musique": HubDataset("dgslibisey/MuSiQue", None, _musique, splits=("train", "validation")),
    "strategyqa": HubDataset("ChilleD/StrategyQA", None, _strategyqa, "yes-no"),
    "fever": HubDataset("facebook/kilt_tasks", "fever", _kilt, "fact-check", ("train", "validation", "test")),
    "zsre": HubDataset("facebook/kilt_tasks", "structured_zeroshot", _kilt, "slot-filling",
                       ("train", "validation", "test")),
    "trex": HubDataset("facebook/kilt_tasks", "trex", _kilt, "slot-filling", ("train", "validation", "test")),
    "eli5": HubDataset("facebook/kilt_tasks", "eli5", _kilt, "long-form", ("train", "validation", "test")),
}


def check_hub_split(name: str, split: str) -> None:
    """Refuse, in one line, a split the hub does not have (``musique:dev``); each part of ``train+validation`` and
    a slice such as ``validation[:100]`` are read by their names."""
    known = HUB[name].splits
    if known is None:
        return
    unknown = [part for part in (p.split("[")[0].strip() for p in split.split("+")) if part not in known]
    if unknown:
        raise InputError(f"{name} has no hub split {unknown[0]!r}: its splits are {', '.join(known)} (a file "
                         f"of rows under any name: `{name}:{unknown[0]}@/path/rows.jsonl`)")


def load_hub(name: str, split: str, local_file: str | None = None, limit: int | None = None) -> Dataset:
    import datasets

    spec = HUB[name]
    copy = None if local_file else stored_copy(name, split)  # rows stored once with `hopkit data add`
    local_file = local_file or (str(copy) if copy else None)
    if not local_file:
        check_hub_split(name, split)
    try:
        if local_file:
            rows = datasets.load_dataset("json", data_files=local_file, split="train")
        else:
            rows = hub_rows(spec.hub_id, spec.config, split)
    except FileNotFoundError as error:
        raise MissingArtifactError(f"dataset file {local_file} does not exist ({error})") from None
    except Exception as error:
        if local_file:  # the file is there and does not parse: no hub is involved
            cause = error.__cause__ or error
            detail = (str(cause).strip().splitlines() or [""])[0][:200]
            raise InputError(
                f"could not read {local_file} as JSON lines ({type(cause).__name__}: {detail}); each line must be "
                f"one JSON object in the {spec.hub_id} layout") from None
        # the hub raises many kinds (ConnectionError, OfflineModeIsEnabled, ...)
        reason = failure_reason(error)
        raise HubUnavailableError(
            f"could not load {spec.hub_id} split {split!r} from the Hugging Face hub "
            f"({reason}); offline, pass rows you have as `{name}:{split}@/path/to/rows.jsonl` or store "
            f"them once with `hopkit data add {name}:{split} --from /path/to/rows.jsonl`, or IRCoT's processed files "
            f"with `ircot:/path/file.jsonl`", reason
        ) from None
    builder = ClosedCorpusBuilder()
    examples = []
    for row in rows:
        try:
            example = spec.convert(row, builder)
        except (KeyError, TypeError, IndexError) as error:
            raise InputError(f"{name}: a row does not have the {spec.hub_id} layout ({error!r})") from None
        if example is not None:
            examples.append(example)
        if limit is not None and len(examples) >= limit:
            break
    corpus = builder.build()
    # two files of one split (MuSiQue's dev100 and test92) have their own corpora, so their own default indexes
    corpus_name = local_corpus_name(f"{name}-{split}", corpus) if local_file else f"{name}-{split}"
    return Dataset(f"{name}:{split}", examples, corpus, corpus_name, spec.task, str(copy) if copy else None)
