"""Plays built from their codes (the checked path's shortcut) are the plays built plainly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scopa_net.cards import CARDS, cards_of
from scopa_net.plays import Play, play_of_code, plays_of_codes

cards = st.integers(0, 39)
taken = st.integers(0, (1 << 40) - 1)


@given(cards, taken)
def test_a_play_from_its_code_is_the_play_built_from_its_cards(card: int, mask: int) -> None:
    mask &= ~(1 << card)
    plain = Play(CARDS[card], tuple(reversed(cards_of(mask))))
    fast = play_of_code(plain.code)
    assert fast == plain
    assert (fast.card, fast.captured, fast.code, fast.text()) == (
        plain.card,
        plain.captured,
        plain.code,
        plain.text(),
    )
    assert play_of_code(plain.code) is fast  # built once
    assert plays_of_codes([plain.code, card]) == [plain, Play(CARDS[card])]
