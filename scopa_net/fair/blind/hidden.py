"""The host's rules engine at a blind table, where it does not know the deck.

The host knows the table, its computer players' hands and every card played, nothing else. It
deals its :class:`~scopa_net.round.Round` a *guessed* deck: the cards it knows at their
positions, every other card anywhere. The positions it does not know are interchangeable from
where it stands, and whether a play is legal depends only on the card played and the table, so
the guess plays exactly like the truth as long as each card is put right the moment it becomes
known: :func:`learn` swaps the guesses of two unknown positions (and the hands holding them)
so that the position now known holds its card. By the round's end every card is known, so
captures, sweeps and the score are exact. A seat's view must never be built from the guess:
the host sends no hands at a blind table.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping

from scopa_net.dealing import TABLE, deal_plan
from scopa_net.round import Round


def guessed_deck(known: Mapping[int, int]) -> list[int]:
    """A deck order (card by position) with every known card at its position and the other
    cards, in card order, in the other positions."""
    if len(set(known.values())) != len(known):
        raise ValueError("a card is known at two positions")
    rest = iter(c for c in range(40) if c not in set(known.values()))
    return [known[pos] if pos in known else next(rest) for pos in range(40)]


def learn(rnd: Round, known: MutableMapping[int, int], pos: int, card: int) -> None:
    """Deck position ``pos`` holds ``card`` (a play's proof, or a card the host opened):
    correct ``rnd``'s guess, and ``known``, before the play is applied."""
    if known.get(pos) == card:
        return
    if pos in known or card in known.values():
        raise ValueError(f"position {pos} or card {card} is already known elsewhere")
    deck = list(rnd.deck)
    other = deck.index(card)
    guess = deck[pos]
    deck[pos], deck[other] = card, guess
    plan = deal_plan(rnd.rules, rnd.dealer)
    dealt = plan[rnd.next_deal].start if rnd.next_deal < len(plan) else 40
    targets = {d.start + i: t for d in plan for i, t in enumerate(d.targets)}
    for where, old, new in ((pos, guess, card), (other, card, guess)):
        if where < dealt:
            target = targets[where]
            if target == TABLE:
                raise ValueError(f"table position {where} was not known when laid")
            hand = rnd.hands[target]
            hand[hand.index(old)] = new
    rnd.deck = tuple(deck)
    known[pos] = card
