"""How long the host's event loop is held while a table's computer player decides.

A ticker task sleeps 1 ms at a time on the trio loop while one ``hard`` player decides on views
of random rounds, as a table's bot seat does (``choose_off_loop``), with a short pause between
decisions. It prints the gaps between the ticker's wake-ups: how long every other table would
wait. The baseline, measured in the same run on the same views, is the decision made on the
loop's own thread (what the host did before hard moved to a worker thread).

    python benchmarks/loop_stall.py [--decisions 40] [--players 2 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import partial

import trio

from scopa_net.cards import CARDS
from scopa_net.match import Match
from scopa_net.rules import RuleSet
from scopa_net.server.thinking import choose_off_loop, table_player
from scopa_net.view import SeatView

TICK = 0.001
PAUSE = 0.005
"""Seconds between two decisions (a table's bot waits longer: the loop is free then)."""


def views(players: int, count: int, seed: int) -> list[SeatView]:
    """The view of the seat to move, some random plays into fresh rounds."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        deck = list(CARDS)
        rng.shuffle(deck)
        match = Match(RuleSet.of(players), first_dealer=0)
        rnd = match.deal(deck)
        for _ in range(rng.randrange(20)):
            if rnd.finished:
                break
            codes = rnd.legal_codes()
            match.push_code(codes[rng.randrange(len(codes))])
        if not rnd.finished:
            found.append(match.view_for(rnd.turn))
    return found


async def gaps_while_deciding(positions: list[SeatView], *, on_the_loop: bool) -> list[float]:
    """The ticker's gaps (seconds) while a hard player decides at each of ``positions``."""
    gaps: list[float] = []
    done = trio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await trio.sleep(TICK)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    async with trio.open_nursery() as nursery:
        nursery.start_soon(ticker)
        player, clock = table_player("strong", 1, 1.0)
        await trio.sleep(0.01)
        for view in positions:
            if on_the_loop:
                player.choose(view)
            else:
                await choose_off_loop(player, view, clock)
            await trio.sleep(PAUSE)
        done.set()
    return gaps


def spread(gaps: list[float]) -> str:
    ordered = sorted(gaps)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"median {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {ordered[-1] * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for players in args.players:
        positions = views(players, args.decisions, args.seed)
        off = trio.run(partial(gaps_while_deciding, positions, on_the_loop=False))
        on = trio.run(partial(gaps_while_deciding, positions, on_the_loop=True))
        print(f"{players} players, {args.decisions} hard decisions, the loop's 1 ms ticker's gaps:")
        print(f"  hard on a worker thread (the host):  {spread(off)}")
        print(f"  baseline, hard on the loop's thread: {spread(on)}")
        print(f"  longest stall, baseline / host: {max(on) / max(off):.1f}x")


if __name__ == "__main__":
    main()
