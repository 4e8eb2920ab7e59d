"""Deck orders that deal chosen cards, for the client tests (imported by the other files)."""

from __future__ import annotations

from collections.abc import Mapping

from scopa_net.cards import CARDS, Card
from scopa_net.dealing import TABLE, deal_plan
from scopa_net.match import Match
from scopa_net.notation import parse_card
from scopa_net.rules import RuleSet


def named(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def deck_dealing(
    rules: RuleSet, dealer: int, hands: Mapping[int, str], table: str = ""
) -> list[Card]:
    """A deck whose first deal gives ``hands[seat]`` (all of each hand) and lays ``table``;
    every other card fills the remaining positions in index order."""
    first = deal_plan(rules, dealer)[0]
    wanted: dict[int, list[Card]] = {seat: named(text) for seat, text in hands.items()}
    wanted[TABLE] = named(table)
    used = {c for cards in wanted.values() for c in cards}
    spare = [c for c in CARDS if c not in used]
    deck: list[Card] = []
    for target in first.targets:
        pool = wanted.get(target)
        deck.append(pool.pop(0) if pool else spare.pop(0))
    deck += spare
    assert len(set(deck)) == 40
    return deck


def match_dealt(
    hands: Mapping[int, str], table: str, *, players: int = 2, target: int = 11, dealer: int = 1
) -> Match:
    """A match whose first round is dealt as asked; seat ``dealer + 1`` moves first."""
    rules = RuleSet.of(players, target)
    match = Match(rules, first_dealer=dealer)
    match.deal(deck_dealing(rules, dealer, hands, table))
    return match


def test_deck_dealing_deals_the_named_cards() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h")
    assert [str(c) for c in match.round.hand(0)] == ["3s", "7d", "Kb"]
    assert [str(c) for c in match.round.hand(1)] == ["2h", "2s", "Jd"]
    assert sorted(str(c) for c in match.round.table_cards) == ["2b", "4h", "5s", "7h"]
    assert match.round.turn == 0
