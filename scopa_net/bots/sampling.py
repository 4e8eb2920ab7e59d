"""Guesses about the hidden cards that agree with everything a seat has seen.

Scopa's forced captures reveal nothing about the cards a player keeps, so the only
constraints are the counts: each other seat holds exactly its ``hand_counts`` of the unseen
cards and the rest are the stock. Every such placement is equally likely, and
:func:`sample_world` draws one uniformly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scopa_net.bots.observed import Observed
from scopa_net.round import Round


@dataclass(frozen=True, slots=True)
class World:
    """One guess: a hand for every other seat (empty for the guessing seat), and the stock."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]


def sample_world(known: Observed, rng: random.Random) -> World:
    """A uniformly random placement of the unseen cards consistent with the counts."""
    cards = list(known.unseen)
    rng.shuffle(cards)
    hands: list[tuple[int, ...]] = []
    at = 0
    for s, count in enumerate(known.hand_counts):
        if s == known.seat:
            hands.append(())
        else:
            hands.append(tuple(cards[at : at + count]))
            at += count
    return World(tuple(hands), tuple(cards[at:]))


def is_certain(known: Observed) -> bool:
    """True when only one placement exists: no stock and at most one other seat with cards."""
    holders = sum(1 for s, n in enumerate(known.hand_counts) if n and s != known.seat)
    return known.stock_count == 0 and holders <= 1


def sample_position(known: Observed, rng: random.Random) -> Round:
    world = sample_world(known, rng)
    return known.position(world.hands, world.stock)
