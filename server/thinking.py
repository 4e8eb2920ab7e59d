"""Letting a computer player think without holding up the event loop.

A decision of the ``expert`` level takes its whole time budget (a second by default), one of
``hard`` (``strong``) tens of milliseconds, up to about 0.1 s. Made on the trio thread it would
stall every table the host serves, and every prompt of the client running it, for that long.
:func:`choose_off_loop` makes it on a worker thread instead; the loop goes on serving meanwhile
(the worker gives up the interpreter lock every few milliseconds). ``random`` and ``greedy``
decide in well under a millisecond, on the loop's own thread.

The budget is kept by the player with the clock it was built with (:class:`ThinkClock`).
Cancelling the waiting task (a table closing, the host shutting down) stops that clock, so the
abandoned worker returns within one guessed deal instead of thinking on for nobody.
"""

from __future__ import annotations

import inspect
import math
import threading
import time
from collections.abc import Callable

import trio

from scopa_net.bots.base import Player
from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.levels import THINKING_LEVELS, make_player
from scopa_net.bots.random_player import RandomPlayer
from scopa_net.plays import Play
from scopa_net.view import SeatView

# trio renamed ``cancellable`` to ``abandon_on_cancel`` (0.23); take whichever it has.
ABANDON_ON_CANCEL = (
    "abandon_on_cancel"
    if "abandon_on_cancel" in inspect.signature(trio.to_thread.run_sync).parameters
    else "cancellable"
)


QUICK = (RandomPlayer, GreedyPlayer)
"""The players that decide on the loop's own thread: a worker thread's hand-off (about 0.1 ms)
would cost more than their decision."""


class ThinkClock:
    """A monotonic clock in seconds that reads as infinitely late once stopped."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._stopped = threading.Event()

    def __call__(self) -> float:
        return math.inf if self._stopped.is_set() else self._now()

    def stop(self) -> None:
        self._stopped.set()

    def restart(self) -> None:
        self._stopped.clear()


def thinks(level: str) -> bool:
    """Whether a level's decisions take a time budget (and so belong off the loop)."""
    return level in THINKING_LEVELS


def table_player(level: str, seed: int, think: float) -> tuple[Player, ThinkClock | None]:
    """A player of ``level`` for a table, and the clock a thinking one keeps its budget by."""
    if not thinks(level):
        return make_player(level, seed), None
    clock = ThinkClock()
    return make_player(level, seed, think=think, clock=clock), clock


async def choose_off_loop(player: Player, view: SeatView, clock: ThinkClock | None) -> Play:
    """``player.choose(view)``: on this thread for the quick levels (:data:`QUICK`), else on a
    worker thread. A thinking player's ``clock`` is stopped if the wait is cancelled; a
    ``hard`` one, which has none, is left to finish its decision (a fraction of a second)."""
    if isinstance(player, QUICK):
        return player.choose(view)
    if clock is not None:
        clock.restart()
    try:
        return await trio.to_thread.run_sync(player.choose, view, **{ABANDON_ON_CANCEL: True})
    except trio.Cancelled:
        if clock is not None:
            clock.stop()  # the abandoned worker finishes its current guess and returns
        raise
