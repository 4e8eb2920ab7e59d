"""Fit the deal search's leaf weights (:data:`scopa_net.bots.lookahead.FITTED_WEIGHTS`).

The leaf (:class:`scopa_net.bots.lookahead.Leaf`) values an unfinished position as a weighted
sum of a few figures (its :meth:`~scopa_net.bots.lookahead.Leaf.features`). This script plays
rounds between two computer players, takes the positions where the search asks the leaf
(with two players: each deal's start; with more: every position), and fits the weights by
least squares to the round's final margin, side 0's points minus side 1's. Every deck, seat
and random split is seeded, so a run gives the same weights anywhere::

    nice -n 19 python benchmarks/fit_leaf.py --rounds 20000 [--players 4] [--variant ...]

It prints the weights, and the mean squared error on held-out rounds (every fifth) of the
fitted weights and of the hand-set ones (:data:`scopa_net.bots.lookahead.HAND_WEIGHTS`).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from scopa_net.bots.levels import make_player
from scopa_net.bots.lookahead import FEATURES, HAND_WEIGHTS, Leaf
from scopa_net.cards import CARDS
from scopa_net.commands.options import BOT_LEVELS
from scopa_net.match import Match
from scopa_net.rules import RuleSet

HELD_OUT = 5
"""Every this many rounds, one is kept out of the fit to check it."""
RIDGE = 1e-6
"""A touch of ridge regularisation, so a feature that never varies does not break the fit."""


def samples(
    rules: RuleSet, level: str, rounds: int, seed: int, *, every: bool, prime_splits: int = 1
) -> list[tuple[int, tuple[float, ...], int]]:
    """(round number, features, side 0's final margin) at each leaf-like position."""
    leaf = Leaf(rules, prime_splits=prime_splits)
    out: list[tuple[int, tuple[float, ...], int]] = []
    for n in range(rounds):
        rng = random.Random(f"fit|{seed}|{n}")
        deck = list(CARDS)
        rng.shuffle(deck)
        players = [make_player(level, rng.getrandbits(32)) for _ in range(rules.players)]
        match = Match(rules, rng.randrange(rules.players))
        rnd = match.deal(deck)
        if rnd.void:
            continue
        taken = []
        while not rnd.finished:
            dealt = all(len(h) == rules.hand_size for h in rnd.hands)
            if every or dealt:
                taken.append(leaf.features(rnd, rng.getrandbits(40)))
            seat = rnd.turn
            match.play(players[seat].choose(match.view_for(seat)), seat, exact=True)
        totals = rnd.score().totals
        out += [(n, f, totals[0] - totals[1]) for f in taken]
    return out


def least_squares(rows: Sequence[tuple[float, ...]], targets: Sequence[float]) -> list[float]:
    """The weights w minimising sum((row . w - target)^2), by the normal equations."""
    k = len(rows[0])
    a = [[RIDGE * (i == j) for j in range(k)] for i in range(k)]
    b = [0.0] * k
    for row, t in zip(rows, targets, strict=True):
        for i in range(k):
            ri = row[i]
            if ri:
                b[i] += ri * t
                ai = a[i]
                for j in range(k):
                    ai[j] += ri * row[j]
    # Gaussian elimination with partial pivoting.
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(col + 1, k):
            f = a[r][col] / a[col][col]
            for j in range(col, k):
                a[r][j] -= f * a[col][j]
            b[r] -= f * b[col]
    w = [0.0] * k
    for i in range(k - 1, -1, -1):
        w[i] = (b[i] - sum(a[i][j] * w[j] for j in range(i + 1, k))) / a[i][i]
    return w


def mse(rows: Sequence[tuple[float, ...]], targets: Sequence[float], w: Sequence[float]) -> float:
    total = 0.0
    for row, t in zip(rows, targets, strict=True):
        total += (sum(x * y for x, y in zip(row, w, strict=True)) - t) ** 2
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--level", default="medium", help="the level playing both sides")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--every",
        action="store_true",
        help="sample every position (default: with 2 players, "
        "each deal's start; otherwise every position)",
    )
    parser.add_argument(
        "--deal-starts",
        action="store_true",
        help="sample each deal's start whatever the player count (where the "
        "information-set trees ask the leaf)",
    )
    parser.add_argument(
        "--prime-splits", type=int, default=1, help="splits the primiera figure averages"
    )
    args = parser.parse_args()
    rules = RuleSet.of(args.players, 11, args.variant)
    every = args.every or (rules.players != 2 and not args.deal_starts)
    started = time.process_time()
    level = BOT_LEVELS.get(args.level, args.level)
    data = samples(
        rules, level, args.rounds, args.seed, every=every, prime_splits=args.prime_splits
    )
    fit = [(f, t) for n, f, t in data if n % HELD_OUT]
    check = [(f, t) for n, f, t in data if not n % HELD_OUT]
    w = least_squares([f for f, _ in fit], [t for _, t in fit])
    rows, targets = [f for f, _ in check], [t for _, t in check]
    print(
        f"{rules.describe()}; {args.level} v {args.level}, {args.rounds} rounds, seed "
        f"{args.seed}; {len(fit)} positions fitted, {len(check)} held out"
    )
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:<9} {value:8.4f}")
    print("weights: " + ", ".join(f"{v:.3f}" for v in w))
    print(
        f"held-out mean squared error: fitted {mse(rows, targets, w):.3f}, "
        f"hand-set {mse(rows, targets, HAND_WEIGHTS):.3f}, "
        f"zero {mse(rows, targets, [0.0] * len(w)):.3f}"
    )
    print(f"CPU {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
