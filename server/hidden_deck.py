"""The host's engine at a blind table, where it does not know most of the cards.

The host deals its :class:`~scopa_net.match.Match` a deck in which every position it cannot read
holds a *guess*: some card not yet seen. The guessed positions are interchangeable from the
host's view (legality depends only on the card played and the table), so when a position's
card becomes known (a computer player's card opened at its deal, or a person's card proven by
its play) :func:`fix` swaps the two guesses so that the engine holds the true card there. By the
round's end every card has been played or laid on the table, so the score is exact.

Nothing here ever reaches a seat: the host never shows a person a hand (their own client opens
it), and every card it announces is one it has proven.
"""

from __future__ import annotations

from collections.abc import Mapping

from scopa_net.cards import CARDS, Card
from scopa_net.round import Round


def guessed_deck(known: Mapping[int, int]) -> list[Card]:
    """A deck order with ``known`` (position -> card) in place and every other position
    holding one of the remaining cards, in card order."""
    rest = iter(sorted(set(range(40)) - set(known.values())))
    return [CARDS[known[pos]] if pos in known else CARDS[next(rest)] for pos in range(40)]


def fix(rnd: Round, pos: int, card: int, known: set[int]) -> None:
    """Make ``rnd`` hold ``card`` at deck position ``pos`` (now known), swapping it with the
    guessed position that held it. ``known``: the positions already fixed (updated)."""
    deck = list(rnd.deck)
    guess = deck[pos]
    if guess != card:
        other = deck.index(card)
        if other in known:
            raise ValueError(f"card {card} is known at position {other}, not {pos}")
        deck[pos], deck[other] = card, guess
        rnd.deck = tuple(deck)
        for hand in rnd.hands:
            for i, c in enumerate(hand):
                if c == guess:
                    hand[i] = card
                elif c == card:
                    hand[i] = guess
    known.add(pos)
