"""Fast round scoring and the card weights the heuristics share.

:func:`side_totals` gives the same totals as :func:`scopa_net.scoring.score_round` (a test
checks them against each other) without building score sheets, because search calls it once
per simulated round.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from scopa_net.cards import (
    CARDS,
    COINS_MASK,
    RE_BELLO,
    SETTEBELLO,
    SUIT_MASK,
    VALUE_MASK,
    indices_of,
)
from scopa_net.rules import RuleSet, Variant
from scopa_net.scoring import napola_run, prime_value


@cache
def _best_prime_table(suit_mask: int, rules: RuleSet) -> dict[int, int]:
    """For every subset of one suit (as a 40-bit mask), its best prime value."""
    cards = list(indices_of(suit_mask))
    table: dict[int, int] = {}
    for subset in range(1 << len(cards)):
        mask = 0
        best = 0
        for i, c in enumerate(cards):
            if subset >> i & 1:
                mask |= 1 << c
                best = max(best, prime_value(CARDS[c].rank, rules))
        table[mask] = best
    return table


def _napola_table() -> dict[int, int]:
    coins = list(indices_of(COINS_MASK))
    table: dict[int, int] = {}
    for subset in range(1 << len(coins)):
        mask = sum(1 << c for i, c in enumerate(coins) if subset >> i & 1)
        table[mask] = napola_run(mask)
    return table


_NAPOLA = _napola_table()


class FastScorer:
    """Round totals by side for one rule set, from pile masks and sweep counts."""

    __slots__ = ("_napola", "_prime_sum", "_primes", "_re_bello")

    def __init__(self, rules: RuleSet) -> None:
        self._primes = tuple((m, _best_prime_table(m, rules)) for m in SUIT_MASK)
        self._prime_sum = rules.has(Variant.PRIMIERA_SUM)
        self._re_bello = rules.has(Variant.RE_BELLO)
        self._napola = rules.has(Variant.NAPOLA)

    def totals(self, piles: Sequence[int], sweeps: Sequence[int]) -> list[int]:
        points = list(sweeps)
        _award(points, [p.bit_count() for p in piles])
        _award(points, [(p & COINS_MASK).bit_count() for p in piles])
        keys = []
        for p in piles:
            suits = total = 0
            for m, best in self._primes:
                held = p & m
                if held:
                    suits += 1
                    total += best[held]
            keys.append(total if self._prime_sum else suits * 1000 + total)
        _award(points, keys)
        bello = SETTEBELLO.bit
        for side, p in enumerate(piles):
            if p & bello:
                points[side] += 1
            if self._re_bello and p & RE_BELLO.bit:
                points[side] += 1
            if self._napola:
                points[side] += _NAPOLA[p & COINS_MASK]
        return points


def _award(points: list[int], figures: list[int]) -> None:
    """One point to the strict leader of ``figures``, none on a tie for the lead."""
    best = max(figures)
    if figures.count(best) == 1:
        points[figures.index(best)] += 1


def margin(totals: Sequence[int], side: int) -> int:
    """How far ``side`` finished ahead of the best other side (negative when behind)."""
    return totals[side] - max(t for s, t in enumerate(totals) if s != side)


# --- card weights ---------------------------------------------------------------------------

SEVENS_MASK = VALUE_MASK[7]
SIXES_MASK = VALUE_MASK[6]
ACES_MASK = VALUE_MASK[1]


def card_weights(rules: RuleSet) -> tuple[float, ...]:
    """What capturing each card is worth, roughly, in round points: every card counts toward
    most cards, coins toward most coins, sevens, sixes and aces toward the primiera, the
    settebello is a point on its own, and the variants add their cards."""
    weights = []
    for c in CARDS:
        w = 0.1
        if c.index in (i for i in indices_of(COINS_MASK)):
            w += 0.12
        if c == SETTEBELLO:
            w += 1.0
        w += {7: 0.3, 6: 0.15, 1: 0.08}.get(c.value, 0.0)
        if rules.has(Variant.RE_BELLO) and c == RE_BELLO:
            w += 1.0
        if rules.has(Variant.NAPOLA) and c.suit == 0 and c.value <= 3:
            w += 0.3
        weights.append(w)
    return tuple(weights)


def mask_weight(weights: Sequence[float], mask: int) -> float:
    return sum(weights[c] for c in indices_of(mask))
