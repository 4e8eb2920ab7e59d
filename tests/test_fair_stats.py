"""The dealt-card statistics of ``scopa-net verify``."""

from __future__ import annotations

import math

import pytest

from scopa_net.cards import SETTEBELLO, VALUE_MASK
from scopa_net.fair.stats import hypergeometric, seat_tallies


def test_hypergeometric_matches_enumeration_for_a_small_hand() -> None:
    # Two cards from 40, one marked: P(1) = 2/40, so the mean is 1/20 and variance p(1-p).
    mean, var = hypergeometric(2, 1)
    assert mean == pytest.approx(1 / 20)
    assert var == pytest.approx((1 / 20) * (19 / 20))
    # The whole pack: no spread left.
    assert hypergeometric(40, 10) == (10.0, 0.0)


def test_tallies_count_and_flag() -> None:
    sevens = [i for i in range(40) if VALUE_MASK[7] >> i & 1]
    always = [(SETTEBELLO.index, *sevens[1:], 0, 1)] * 30
    tallies = {t.name: t for t in seat_tallies(always)}
    assert tallies["settebello"].observed == 30
    assert tallies["sevens"].observed == 120
    assert not tallies["settebello"].within
    assert tallies["settebello"].expected == pytest.approx(30 * 6 / 40)
    _, high = tallies["settebello"].band
    assert high - tallies["settebello"].expected == pytest.approx(
        1.96 * math.sqrt(tallies["settebello"].variance)
    )
