"""``scopa-net arena``: pit two computer levels against each other on duplicate deals."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from scopa_net.commands.options import (
    BOT_LEVELS,
    DEFAULT_THINK,
    MAX_THINK,
    CommandError,
    add_command,
    add_rule_options,
    at_least,
    bot_level,
    player_for,
    said_default,
    table_rules,
    think_seconds,
    variants_epilog,
)
from scopa_net.commands.progress import Progress

if TYPE_CHECKING:
    from scopa_net.bots.arena import ArenaConfig, GameResult


#: The level only the arena offers: the ``oracle`` sees every hidden card (a ceiling for
#: measurement, never a player at a table).
ARENA_ONLY_LEVELS = ("oracle",)


def arena_level(text: str) -> str:
    """A level for the arena: a table level (old names taken) or one of the arena's own."""
    name = text.strip().lower()
    if name in ARENA_ONLY_LEVELS:
        return name
    try:
        return bot_level(text)
    except argparse.ArgumentTypeError:
        every = ", ".join((*BOT_LEVELS, *ARENA_ONLY_LEVELS))
        raise argparse.ArgumentTypeError(f"{text!r} is not a level: use one of {every}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    levels = (
        "{" + ",".join(BOT_LEVELS) + "} (expert thinks --think seconds a move) or the "
        "arena's own oracle (sees every hidden card: a ceiling, for measurement)"
    )
    parser = add_command(
        subparsers,
        "arena",
        help="play computer levels against each other and report win rates",
        description="Play LEVEL_A against LEVEL_B to the target on duplicate deals: each "
        "sequence of decks is played twice with the sides swapped. Reproducible for a seed.",
        epilog=variants_epilog(),
    )
    parser.add_argument("level_a", metavar="LEVEL_A", type=arena_level, help=f"one of {levels}")
    parser.add_argument("level_b", metavar="LEVEL_B", type=arena_level, help=f"one of {levels}")
    parser.add_argument(
        "--matches",
        type=at_least(1),
        default=100,
        metavar="N",
        help="matches to play (rounded up to even)",
    )
    parser.add_argument(
        "--think",
        type=think_seconds,
        default=None,
        metavar="SECONDS",
        help="time budget per move of an expert side, in CPU seconds, more than 0 and at most "
        f"{MAX_THINK:g} {said_default(DEFAULT_THINK)}",
    )
    parser.add_argument(
        "--think-b",
        type=think_seconds,
        default=None,
        metavar="SECONDS",
        help="LEVEL_B's budget when it differs from LEVEL_A's (expert v expert)",
    )
    add_rule_options(parser)
    parser.add_argument("--seed", type=int, default=1, help="seed for the decks")
    parser.add_argument(
        "--jobs",
        type=at_least(1),
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes (default: as many as this machine's CPUs)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line, only the report")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scopa_net.bots.arena import ArenaConfig, format_report, summarise

    rules = table_rules(args.players, args.target, args.variant)
    if rules.players not in (2, 4):
        raise CommandError("arena plays 2 or 4 players")
    a, b = _player(args.level_a), _player(args.level_b)
    if args.think_b is not None and b != "expert":
        raise CommandError(f"--think-b is LEVEL_B's budget as an expert; LEVEL_B is {args.level_b}")
    if args.think is not None and "expert" not in (a, b):
        raise CommandError(
            f"--think is an expert's budget; neither {args.level_a} nor {args.level_b} is one"
        )
    think = DEFAULT_THINK if args.think is None else args.think
    think_b = think if args.think_b is None else args.think_b
    config = ArenaConfig(
        a,
        b,
        (args.matches + 1) // 2,
        rules,
        args.seed,
        think_a=think if a == "expert" else None,
        think_b=think_b if b == "expert" else None,
    )
    started = time.perf_counter()
    with Progress("arena", 2 * config.pairs, "matches", quiet=args.quiet) as progress:
        report = summarise(config, _counted(run_pairs(config, args.jobs), progress))
    print(format_report(config, report, (args.level_a, args.level_b)))
    print(f"wall time {time.perf_counter() - started:.1f} s on {args.jobs} job(s)")
    return 0


def _player(level: str) -> str:
    return level if level in ARENA_ONLY_LEVELS else player_for(level)


def _counted(
    pairs: Iterator[tuple[GameResult, GameResult]], progress: Progress
) -> Iterator[tuple[GameResult, GameResult]]:
    for pair in pairs:
        progress.advance(2)
        yield pair


def run_pairs(config: ArenaConfig, jobs: int) -> Iterator[tuple[GameResult, GameResult]]:
    """Every pair's results in pair order, computed on ``jobs`` processes."""
    from scopa_net.bots.arena import play_pair

    # Budgets are kept in CPU seconds of the worker, so other load does not starve a side.
    play = partial(play_pair, config, clock=time.perf_counter, think_clock=time.process_time)
    if jobs == 1:
        yield from map(play, range(config.pairs))
        return
    import multiprocessing

    # The workers leave Ctrl-C to this process, which stops them at once, in the middle of
    # their matches: a pool that is shut down politely first plays every match queued.
    pool = multiprocessing.Pool(jobs, initializer=_leave_interrupts_to_the_parent)
    try:
        yield from pool.imap(play, range(config.pairs), chunksize=1)
    finally:
        pool.terminate()
        pool.join()


def _leave_interrupts_to_the_parent() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
