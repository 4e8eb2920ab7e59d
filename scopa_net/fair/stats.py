"""How often a seat was dealt the cards players watch, against what fair deals give.

For each seat, over the rounds it was dealt: the settebello, sevens and coins in its hand, with
the expected count and a 95% band (mean plus or minus 1.96 standard deviations; the count of a
given set of K cards among the h cards of a hand is hypergeometric). A count outside the band
happens by chance about one time in twenty, so it is a reason to look, not proof of cheating.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from scopa_net.cards import COINS_MASK, SETTEBELLO, VALUE_MASK

DECK = 40
Z_95 = 1.96
WATCHED: tuple[tuple[str, int], ...] = (
    ("settebello", SETTEBELLO.bit),
    ("sevens", VALUE_MASK[7]),
    ("coins", COINS_MASK),
)


@dataclass(frozen=True, slots=True)
class Tally:
    """One watched set of cards for one seat: what it got, what fairness predicts."""

    name: str
    observed: int
    expected: float
    variance: float

    @property
    def band(self) -> tuple[float, float]:
        half = Z_95 * math.sqrt(self.variance)
        return max(0.0, self.expected - half), self.expected + half

    @property
    def within(self) -> bool:
        low, high = self.band
        return low <= self.observed <= high


def hypergeometric(hand: int, marked: int) -> tuple[float, float]:
    """Mean and variance of the marked cards in a hand of ``hand`` cards from 40."""
    p = marked / DECK
    mean = hand * p
    variance = hand * p * (1 - p) * (DECK - hand) / (DECK - 1)
    return mean, variance


def seat_tallies(hands: Iterable[tuple[int, ...]]) -> tuple[Tally, ...]:
    """Tallies over the hands one seat was dealt in a run of rounds (card indices each)."""
    observed = dict.fromkeys((name for name, _ in WATCHED), 0)
    mean = dict.fromkeys(observed, 0.0)
    var = dict.fromkeys(observed, 0.0)
    for hand in hands:
        mask = 0
        for c in hand:
            mask |= 1 << c
        for name, marked in WATCHED:
            m, v = hypergeometric(len(hand), marked.bit_count())
            observed[name] += (mask & marked).bit_count()
            mean[name] += m
            var[name] += v
    return tuple(Tally(name, observed[name], mean[name], var[name]) for name, _ in WATCHED)
