"""``scopa-net arena``: pit two computer levels against each other on duplicate deals."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from scopa_net.bots.arena import ArenaConfig, GameResult, format_report, play_pair, summarise
from scopa_net.bots.levels import LEVELS
from scopa_net.rules import RuleSet


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="play computer levels against each other and report win rates",
        description="Play LEVEL_A against LEVEL_B to the target on duplicate deals: each "
        "sequence of decks is played twice with the sides swapped. Reproducible for a seed.",
    )
    parser.add_argument("level_a", metavar="LEVEL_A", choices=sorted(LEVELS))
    parser.add_argument("level_b", metavar="LEVEL_B", choices=sorted(LEVELS))
    parser.add_argument(
        "--matches", type=int, default=100, help="matches to play (rounded up to even)"
    )
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=11, help="points to win (1-99)")
    parser.add_argument(
        "--variant", action="append", metavar="NAME", help="a named variant (repeatable)"
    )
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: cores)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.matches < 1:
        print(f"scopa-net arena: --matches must be at least 1, not {args.matches}", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print(f"scopa-net arena: --jobs must be at least 1, not {args.jobs}", file=sys.stderr)
        return 2
    rules = RuleSet.of(args.players, args.target, args.variant or ())
    config = ArenaConfig(args.level_a, args.level_b, (args.matches + 1) // 2, rules, args.seed)
    started = time.perf_counter()
    report = summarise(config, run_pairs(config, args.jobs))
    print(format_report(config, report))
    print(f"wall time {time.perf_counter() - started:.1f} s on {args.jobs} job(s)")
    return 0


def run_pairs(config: ArenaConfig, jobs: int) -> Iterator[tuple[GameResult, GameResult]]:
    """Every pair's results in pair order, computed on ``jobs`` processes."""
    play = partial(play_pair, config, clock=time.perf_counter)
    if jobs == 1:
        yield from map(play, range(config.pairs))
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play, range(config.pairs), chunksize=1)
