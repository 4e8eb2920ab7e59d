"""The public shuffle: rejection sampling without modulo bias, and a uniform permutation."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from scopa_net.fair.hashing import tagged_hash
from scopa_net.fair.shuffle import (
    RandomStream,
    deck_permutation,
    first_dealer,
    fisher_yates,
    host_order,
)

ROUND_ID = bytes(16)


class ScriptedStream(RandomStream):
    """A stream that returns the given words, to pin down exactly how numbers are drawn."""

    def __init__(self, words: list[int]) -> None:
        self.words = list(words)

    def word(self) -> int:
        return self.words.pop(0)


def chi_square_critical(df: int, z: float) -> float:
    """The chi-square value ``z`` standard deviations up (Wilson-Hilferty approximation)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def position_card_chi_square(perms: list[tuple[int, ...]]) -> float:
    counts = Counter((pos, value) for perm in perms for pos, value in enumerate(perm))
    expected = len(perms) / 40
    return sum((counts[(p, v)] - expected) ** 2 / expected for p in range(40) for v in range(40))


def seeds(n: int) -> list[bytes]:
    return [tagged_hash(b"test/shuffle-seed", i.to_bytes(4, "big")) for i in range(n)]


def test_a_word_in_the_biased_tail_is_rejected() -> None:
    # 2**32 mod 3 == 1, so the single highest word would favour 0 and is thrown away.
    assert ScriptedStream([2**32 - 1, 5]).below(3) == 2
    assert ScriptedStream([2**32 - 2]).below(3) == (2**32 - 2) % 3


def test_below_one_and_bounds() -> None:
    assert ScriptedStream([123456]).below(1) == 0
    with pytest.raises(ValueError, match="cannot draw below 0"):
        ScriptedStream([1]).below(0)


def test_fisher_yates_swaps_from_the_top_down() -> None:
    # i = 2 draws below(3) -> 0: swap places 2 and 0; i = 1 draws below(2) -> 1: no swap.
    assert fisher_yates(ScriptedStream([0, 1]), 3) == (2, 1, 0)


def test_the_stream_is_the_hmac_counter_stream() -> None:
    import hashlib
    import hmac

    key, label = bytes(range(32)), b"label"
    stream = RandomStream(key, label, ROUND_ID)
    words = [stream.word() for _ in range(9)]  # crosses into the second block
    prefix = len(label).to_bytes(4, "big") + label + len(ROUND_ID).to_bytes(4, "big") + ROUND_ID
    blocks = b"".join(
        hmac.new(key, prefix + j.to_bytes(4, "big"), hashlib.sha256).digest() for j in (0, 1)
    )
    assert words == [int.from_bytes(blocks[4 * i : 4 * i + 4], "big") for i in range(9)]


def test_permutations_are_permutations_and_depend_on_every_input() -> None:
    seed = seeds(1)[0]
    perm = deck_permutation(seed, ROUND_ID)
    assert sorted(perm) == list(range(40))
    assert deck_permutation(seed, bytes([1]) + ROUND_ID[1:]) != perm
    assert host_order(seed, ROUND_ID) != perm  # a different label, a different stream


def test_position_by_card_counts_fit_the_uniform_distribution() -> None:
    perms = [deck_permutation(s, ROUND_ID) for s in seeds(3000)]
    statistic = position_card_chi_square(perms)
    # 40 x 40 table with fixed margins: 39 * 39 degrees of freedom; reject at ~4.3 sigma.
    assert statistic < chi_square_critical(39 * 39, 4.3)


def test_the_chi_square_test_catches_a_biased_shuffle() -> None:
    """The naive shuffle (swap every place with any place) is biased; the test must see it."""

    def naive(seed: bytes) -> tuple[int, ...]:
        stream = RandomStream(seed, b"naive", ROUND_ID)
        items = list(range(40))
        for i in range(40):
            j = stream.below(40)
            items[i], items[j] = items[j], items[i]
        return tuple(items)

    perms = [naive(s) for s in seeds(3000)]
    assert position_card_chi_square(perms) > chi_square_critical(39 * 39, 4.3)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_first_dealer_is_uniform(players: int) -> None:
    counts = Counter(first_dealer(s, ROUND_ID, players) for s in seeds(1200))
    expected = 1200 / players
    statistic = sum((counts[s] - expected) ** 2 / expected for s in range(players))
    assert set(counts) == set(range(players))
    assert statistic < chi_square_critical(players - 1, 4.3)
