"""Deck orders that deal chosen cards (helpers.deck_dealing, helpers.match_dealt) deal them."""

from __future__ import annotations

from helpers import match_dealt


def test_deck_dealing_deals_the_named_cards() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h")
    assert [str(c) for c in match.round.hand(0)] == ["3s", "7d", "Kb"]
    assert [str(c) for c in match.round.hand(1)] == ["2h", "2s", "Jd"]
    assert sorted(str(c) for c in match.round.table_cards) == ["2b", "4h", "5s", "7h"]
    assert match.round.turn == 0
