"""The player interface, and the per-decision random source every level shares."""

from __future__ import annotations

import random
from typing import Protocol

from scopa_net.plays import Play
from scopa_net.view import SeatView


class Player(Protocol):
    """A computer player: seeded when built, then asked for one play at a time."""

    def choose(self, view: SeatView) -> Play:
        """A legal play for the seat to move, decided from ``view`` alone."""
        ...


def decision_rng(seed: int, view: SeatView) -> random.Random:
    """A random source for one decision, fixed by the seed and what the view shows.

    A choice then depends on nothing but (seed, view): not on earlier calls, not on the
    process, not on cards the seat cannot see. Random seeds its state from the SHA-512 of a
    text seed, so the result is the same on every machine and every run.
    """
    hand = ",".join(str(c.index) for c in view.hand)
    plays = ",".join(str(p.play.code) for p in view.plays)
    table = ",".join(str(c.index) for c in view.table)
    text = f"{seed}|{view.seat}|{view.round_number}|{view.dealer}|{hand}|{table}|{plays}"
    return random.Random(text)
