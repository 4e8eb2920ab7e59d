"""Client work per keystroke and per screen: how long it takes, next to the engine alone.

The completer rebuilds a round from the seat's view (``scopa_net.client.moves``) to list the
legal plays; the baseline is the engine listing the same plays on the round it already has.
Rendering the whole board is timed beside it. Figures are medians over several runs of many
positions, in microseconds per call.

    python benchmarks/client.py [--runs 5] [--positions 400]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from scopa_net.cards import CARDS
from scopa_net.client.moves import legal_plays
from scopa_net.client.render import board_lines
from scopa_net.client.style import Display
from scopa_net.match import Match
from scopa_net.round import Round
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView


def positions(count: int, seed: int) -> list[tuple[Round, SeatView]]:
    """Moments of play from random rounds: the engine's round and the mover's view."""
    rng = random.Random(seed)
    out: list[tuple[Round, SeatView]] = []
    while len(out) < count:
        match = Match(RuleSet.of(2), first_dealer=0)
        deck = list(CARDS)
        rng.shuffle(deck)
        rnd = match.deal(deck)
        while not rnd.finished and len(out) < count:
            out.append((rnd.copy(), match.view_for(rnd.turn)))
            match.play(rng.choice(rnd.legal_plays()), rnd.turn, exact=True)
    return out


def per_call_us(fn: Callable[[], object], calls: int, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--positions", type=int, default=400)
    args = parser.parse_args()
    moments = positions(args.positions, seed=1)
    names = ("You", "Bot 1")
    display = Display()
    n = len(moments)
    engine = per_call_us(lambda: [r.legal_plays() for r, _ in moments], n, args.runs)
    client = per_call_us(lambda: [legal_plays(v) for _, v in moments], n, args.runs)
    board = per_call_us(lambda: [board_lines(v, names, display) for _, v in moments], n, args.runs)
    print(f"positions: {n}, runs: {args.runs} (medians, microseconds per call)")
    print(f"engine legal plays (baseline):      {engine:8.1f}")
    print(f"client legal plays from the view:   {client:8.1f}   ratio {client / engine:5.1f}x")
    print(f"render the whole board:             {board:8.1f}   ratio {board / engine:5.1f}x")


if __name__ == "__main__":
    main()
