"""A worker process for the shared-study tests: OneR over a table retriever with a slow constant LM."""

import sys
import time
from pathlib import Path

import dspy

sys.path.insert(0, str(Path(__file__).parent))

from scripted_engine import ScriptedEngine  # noqa: E402

from hopkit.data.corpus import Corpus  # noqa: E402
from hopkit.data.examples import Dataset, make_example  # noqa: E402
from hopkit.data.passage import Passage  # noqa: E402
from hopkit.evaluation.metrics import get_metric  # noqa: E402
from hopkit.lm.accounted import AccountedLM  # noqa: E402
from hopkit.optimize.request import DemoSettings, OptimizeRequest, Splits, StudyPlace  # noqa: E402
from hopkit.optimize.runner import optimize  # noqa: E402


class ConstantEngine(ScriptedEngine):
    """Always answers "Morn", after ``delay`` seconds (a stand-in for a real LM's latency)."""

    def __init__(self, delay=0.0):
        super().__init__([])
        self.delay = delay

    def complete(self, request):
        time.sleep(self.delay)
        self.replies = [{"answer": "Morn"}]
        return super().complete(request)


class TableRetriever:
    def retrieve(self, query, k):
        return [Passage(f"p{i}", f"T{i}", f"text {i}").ranked(i + 1, 1.0) for i in range(k)]


def tiny_dataset(name, n):
    examples = [make_example(f"{name}{i}", f"Question {i}?", ["Morn" if i % 2 else "Tull"], ["p0"]) for i in range(n)]
    return Dataset(name, examples, Corpus([Passage("p0", "T0", "text 0")]), "tiny")


def request(folder, storage, trials, demos="none", objectives=("metric",), grace_s=180, test=()):
    return OptimizeRequest(method="oner", metric=get_metric("f1"),
                           splits=Splits(tiny_dataset("train", 6), tiny_dataset("dev", 4).examples, "tiny:dev",
                                         test=test, train_n=6),
                           place=StudyPlace(Path(folder), storage, "shared", heartbeat_s=1, grace_s=grace_s),
                           trials=trials, demos=DemoSettings(demos), objectives=objectives, progress=False,
                           profile="paper")


def configure(delay=0.0, cache=False, engine=None):
    dspy.configure(lm=AccountedLM("local/constant", engine=engine or ConstantEngine(delay), cache=cache))


if __name__ == "__main__":
    folder, storage, trials, delay = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    grace_s = int(sys.argv[5]) if len(sys.argv) > 5 else 2  # 2 s: the kill tests' stale trial is found quickly
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=False)
    configure(delay)
    optimize(request(folder, storage, trials, grace_s=grace_s), TableRetriever(), None, say=lambda text: None)
