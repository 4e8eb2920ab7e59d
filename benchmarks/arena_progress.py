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
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from scopa_net.bots.arena import ArenaConfig, format_report, play_pair, summarise
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
    parser.add_argument(
        "--cpu-think", action="store_true", help="report think times in CPU seconds"
    )
    args = parser.parse_args()
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
    started = time.perf_counter()
    done = []
    text = ""
    for pair in range(config.pairs):
        timer = time.process_time if args.cpu_think else time.perf_counter
        done.append(play_pair(config, pair, timer, time.process_time))
        if len(done) % args.every == 0 or len(done) == config.pairs:
            state = "finished" if len(done) == config.pairs else "in progress"
            elapsed = time.perf_counter() - started
            unit = "think times in CPU seconds\n" if args.cpu_think else ""
            text = (
                f"{unit}{format_report(config, summarise(config, done), names)}\n"
                f"{state}: {len(done)} of {config.pairs} pairs, {elapsed:.0f} s"
            )
            if args.out is not None:
                args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
