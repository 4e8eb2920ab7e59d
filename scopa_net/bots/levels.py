"""The computer players by level name, as the arena and the host pick them."""

from __future__ import annotations

from collections.abc import Callable

from scopa_net.bots.base import Player
from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.random_player import RandomPlayer
from scopa_net.bots.strong import StrongPlayer

LEVELS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "strong": StrongPlayer,
}


def make_player(level: str, seed: int) -> Player:
    """A player of ``level`` seeded with ``seed``; ValueError naming the levels if unknown."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None
    return factory(seed)
