"""Build rounds at chosen moments of play from card notation, for rule-by-rule tests."""

from __future__ import annotations

from collections.abc import Mapping

from scopa_net.cards import CARDS, mask_of
from scopa_net.notation import parse_card
from scopa_net.round import Round
from scopa_net.rules import RuleSet


def cards(text: str) -> list[int]:
    """Card indices from space-separated notation: ``"7d 5s Kb"``."""
    return [parse_card(t).index for t in text.split()]


def make_round(
    rules: RuleSet,
    hands: Mapping[int, str],
    table: str = "",
    *,
    stock: int = 0,
    turn: int = 0,
    dealer: int | None = None,
    piles: Mapping[int, str] | None = None,
    last_capturer: int | None = None,
) -> Round:
    """A round with the given hands and table at ``turn``.

    ``stock`` is how many cards are still to be dealt (0: this is the last deal). Cards not
    placed anywhere go into the piles: those named in ``piles`` by side, every other card to the
    last side. Seats missing from ``hands`` hold nothing.
    """
    placed = set(cards(table))
    hand_lists = [cards(hands.get(s, "")) for s in range(rules.players)]
    for h in hand_lists:
        placed |= set(h)
    pile_masks = [0] * rules.side_count
    for side, text in (piles or {}).items():
        pile_masks[side] = mask_of(CARDS[i] for i in cards(text))
        placed |= set(cards(text))
    rest = [i for i in range(40) if i not in placed]
    stock_cards = rest[:stock]
    pile_masks[-1] |= mask_of(CARDS[i] for i in rest[stock:])
    return Round.from_position(
        rules,
        dealer=(turn - 1) % rules.players if dealer is None else dealer,
        turn=turn,
        hands=hand_lists,
        table=cards(table),
        stock=stock_cards,
        piles=pile_masks,
        sweeps=[0] * rules.side_count,
        last_capturer=last_capturer,
    )


def options(rnd: Round, card: str) -> set[frozenset[str]]:
    """The groups the card can take, as sets of canonical card names ({} if it lies down)."""
    index = parse_card(card).index
    out = set()
    for play in rnd.legal_plays():
        if play.card.index == index:
            out.add(frozenset(str(c) for c in play.captured))
    return out
