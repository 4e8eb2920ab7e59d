"""A long arena run that writes its report as it goes: every ``--every`` pairs the summary so
far (same figures and intervals as ``scopa-net arena``) is written to ``--out``, so a run cut
short by the clock still leaves the largest finished sample and its interval.

    nice -n 19 python benchmarks/arena_progress.py hard medium --matches 1000 \\
        [--out arena-hard-medium.txt] [--players 4] [--variant scopone_scientifico] \\
        [--think 1.0] [--seed 1]

Levels are those of ``scopa-net arena`` (including the measurement-only ``oracle``). One
process, pairs in order: the same pairs as ``scopa-net arena --jobs 1`` with the same seed.

With ``--cpu-think`` the think times reported are the process's CPU seconds instead of wall
seconds: on a shared machine wall time mostly measures the other load.

A long row can be split over several processes: each plays ``--pairs START:STOP`` (pair
numbers, STOP excluded) and keeps its finished pairs in ``--save FILE`` (rewritten as it
goes); ``--combine FILE ...`` then prints the report over all of them. A pair's games depend
only on the levels, the rules, the seed and the pair's number (the bots count nodes, not
seconds), so the split row is the same row as one process would play.

Two rows of the same levels and seed, played by two versions of the code (a setting changed
in a worktree, say), are best compared pair by pair: ``--combine FILE ... --paired FILE ...``
also prints the first row minus the second over the deck pairs both played, with its
interval, which leaves out the luck of the decks that the two rows' own intervals each carry.
"""

from __future__ import annotations

import argparse
import pickle
import time
from pathlib import Path

from scopa_net.bots.arena import ArenaConfig, format_report, pair_margin, play_pair, summarise
from scopa_net.bots.stats import mean_interval
from scopa_net.commands.arena import _player, arena_level
from scopa_net.rules import RuleSet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level_a", type=arena_level)
    parser.add_argument("level_b", type=arena_level)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--target", type=int, default=11)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--out", type=Path, help="file rewritten with the report so far")
    parser.add_argument("--pairs", type=_pair_range, help="START:STOP, the pairs to play")
    parser.add_argument("--save", type=Path, help="file rewritten with the finished pairs")
    parser.add_argument(
        "--combine", type=Path, nargs="+", help="report over these --save files instead"
    )
    parser.add_argument(
        "--paired",
        type=Path,
        nargs="+",
        help="with --combine: another row's --save files, compared pair by pair",
    )
    parser.add_argument(
        "--cpu-think", action="store_true", help="report think times in CPU seconds"
    )
    args = parser.parse_args()
    if args.paired and not args.combine:
        parser.error("--paired compares with the row of --combine: give both")
    a, b = _player(args.level_a), _player(args.level_b)
    config = ArenaConfig(
        a,
        b,
        (args.matches + 1) // 2,
        RuleSet.of(args.players, args.target, args.variant or ()),
        args.seed,
        think_a=args.think if a == "expert" else None,
        think_b=args.think if b == "expert" else None,
    )
    names = (args.level_a, args.level_b)  # as typed, as `scopa-net arena` prints them
    unit = "think times in CPU seconds\n" if args.cpu_think else ""
    if args.combine:
        saved = _saved_pairs(args.combine, config)
        done = [saved[k] for k in sorted(saved)]
        print(f"{unit}{format_report(config, summarise(config, done), names)}")
        print(f"combined: {len(done)} of {config.pairs} pairs from {len(args.combine)} files")
        if args.paired:
            print(_paired_line(saved, _saved_pairs(args.paired, config), names))
        return
    start, stop = args.pairs or (0, config.pairs)
    todo = range(start, min(stop, config.pairs))
    started = time.perf_counter()
    kept: dict[int, tuple] = {}
    text = ""
    for pair in todo:
        timer = time.process_time if args.cpu_think else time.perf_counter
        kept[pair] = play_pair(config, pair, timer, time.process_time)
        if args.save is not None:
            args.save.write_bytes(pickle.dumps((config, kept)))
        done = list(kept.values())
        if len(done) % args.every == 0 or len(done) == len(todo):
            state = "finished" if len(done) == len(todo) else "in progress"
            elapsed = time.perf_counter() - started
            text = (
                f"{unit}{format_report(config, summarise(config, done), names)}\n"
                f"{state}: {len(done)} of {len(todo)} pairs"
                f" ({todo.start}:{todo.stop} of {config.pairs}), {elapsed:.0f} s"
            )
            if args.out is not None:
                args.out.write_text(text + "\n")
    print(text)


def _saved_pairs(paths: list[Path], config: ArenaConfig) -> dict[int, tuple]:
    """The finished pairs in ``--save`` files of a row played with ``config``, by number."""
    saved: dict[int, tuple] = {}
    for path in paths:
        try:
            their_config, pairs = pickle.loads(path.read_bytes())
        except OSError as exc:
            raise SystemExit(f"arena_progress.py: cannot read {path}: {exc.strerror}") from None
        if their_config != config:
            raise SystemExit(f"{path} was played with other settings: {their_config}")
        saved.update(pairs)
    return saved


def _paired_line(row: dict[int, tuple], other: dict[int, tuple], names: tuple[str, str]) -> str:
    """This row minus the other, pair by pair over the deck pairs both played."""
    shared = sorted(set(row) & set(other))
    if len(shared) < 2:
        return f"paired: {len(shared)} deck pairs in both rows, too few to compare"
    diffs = [pair_margin(*row[k]) - pair_margin(*other[k]) for k in shared]
    estimate = mean_interval(diffs)
    return (
        f"paired: this row minus the --paired one, {names[0]} minus {names[1]} per round, "
        f"pair by pair over the {len(shared)} deck pairs both played: {estimate.text()}"
    )


def _pair_range(text: str) -> tuple[int, int]:
    start, sep, stop = text.partition(":")
    if not sep or not start.isdigit() or not stop.isdigit() or int(start) >= int(stop):
        raise argparse.ArgumentTypeError(f"{text!r} is not START:STOP (e.g. 0:250)")
    return int(start), int(stop)


if __name__ == "__main__":
    main()
