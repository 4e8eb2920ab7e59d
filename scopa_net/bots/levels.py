"""The computer players by level name, as the arena and the host pick them."""

from __future__ import annotations

from collections.abc import Callable

from scopa_net.bots.base import Player
from scopa_net.bots.expert import ExpertPlayer
from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.random_player import RandomPlayer
from scopa_net.bots.strong import StrongPlayer

LEVELS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "strong": StrongPlayer,
    "expert": ExpertPlayer,
}
#: Levels that take a time budget per move (``think``, seconds).
THINKING_LEVELS = frozenset({"expert"})


def make_player(
    level: str,
    seed: int,
    *,
    think: float | None = None,
    clock: Callable[[], float] | None = None,
) -> Player:
    """A player of ``level`` seeded with ``seed``; ValueError naming the levels if unknown.

    ``think`` (seconds a move) and ``clock`` (the caller's, read only to keep to ``think``)
    are for the levels in :data:`THINKING_LEVELS`; the others decide without them.
    """
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None
    if level in THINKING_LEVELS:
        if think is None:
            return ExpertPlayer(seed, clock=clock)
        return ExpertPlayer(seed, think=think, clock=clock)
    return factory(seed)
