"""What other pruners would have done on a finished study, replayed from its run logs at no LM cost
(hopkit/optimize/pruner_replay.py): each pruner meets the study's settings in the study's order, and each setting
reports its running metric after every dev slice from the answers it gave. The study needs every setting on all of
dev, as `hopkit optimize --unpruned-check` leaves them. The first line replays the study's own pruner: it must
match the study's own pruning (the questions its trials answered), which checks the replay.

    python scripts/replay_pruners.py docs/runs/optimize-real/ircot-musique-labeled \\
        --dev "musique:validation@../shared/data/musique/dev100.jsonl[1-50]" --slices 5 \\
        --pruners median:3,median:2,median:1,halving
"""

from __future__ import annotations

import argparse
from pathlib import Path

import optuna

from hopkit.data.registry import load_dataset_spec
from hopkit.optimize.pruner_replay import replay_pruner, study_settings
from hopkit.optimize.splits import in_range, split_spec
from hopkit.optimize.study import make_pruner


def pruner_of(spec: str) -> optuna.pruners.BasePruner:
    """``median:3`` (the median pruner after 3 finished settings), ``halving``, ``none``."""
    kind, _, startup = spec.partition(":")
    return make_pruner(kind, int(startup) if startup else 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="the study's folder (study.db and settings/)")
    parser.add_argument("--study", default=None, help="the study's name (default: the folder's name)")
    parser.add_argument("--dev", required=True, help="the study's --dev spec, with its range")
    parser.add_argument("--n-dev", type=int, default=None, help="the study's --n-dev")
    parser.add_argument("--slices", type=int, default=3, help="the study's --slices")
    parser.add_argument("--metric", default="f1")
    parser.add_argument("--pruners", default="median:3,halving,none")
    args = parser.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    spec, span = split_spec(args.dev)
    order = [str(ex.qid) for ex in in_range(load_dataset_spec(spec).examples, span, "dev", args.n_dev)]
    study = optuna.load_study(study_name=args.study or args.folder.name,
                              storage=f"sqlite:///{(args.folder / 'study.db').resolve()}")
    settings = study_settings(study, args.folder / "settings")
    print(f"{len(settings)} settings on {len(order)} dev questions, {args.slices} slices, metric {args.metric}")
    for name in args.pruners.split(","):
        print(replay_pruner(settings, order, args.metric, args.slices, pruner_of(name.strip()), name.strip()).line())


if __name__ == "__main__":
    main()
