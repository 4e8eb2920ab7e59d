"""Moves the host answered "not now" (protocol.md 3.5, 3.6): ``reject storage`` (its journal
cannot be written just now) or ``reject rate_limited`` (this connection's refused moves used
up their limit). The host gives those before it looks at the move at all, so they say nothing
of it: a move sent again after a resume that the host had applied gets them too. Such a move
stays unanswered (a ``played`` held for it stays held, 3.5) and the same ``play`` goes again,
``move_id`` and all, after a pause that grows to :data:`LONGEST_PAUSE`, until the host answers
it otherwise (the codes: :data:`~scopa_net.client.session_errors.PASSING_REFUSALS`). Sans-IO:
:class:`NotNow` is told the refusals and the time, and says which moves are due to go again.
The same pauses time this seat's seed messages refused for now
(:mod:`~scopa_net.client.seeds_not_now`), kept by message type instead of ``move_id``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Generic, TypeVar

from scopa_net.wire.errors import ErrorCode

Key = TypeVar("Key", bound=Hashable)
"""What a :class:`NotNow` tells refusals apart by: a move's ``move_id``, a message's type."""

FIRST_PAUSE = 0.5
LONGEST_PAUSE = 5.0
"""Seconds before a move refused "not now" goes again: the first pause, doubling up to the
longest (the host tries its journal again at least every 5 s; a rate limit it put in debt has
room again within about 3 s, 3.6)."""

SAID_AFTER = 3.0
"""Seconds of "not now" refusals before the person is told that what they sent waits (a seed,
a blind table's message, a leave): a moment's refusal, or a rate limit's breath, is not worth a
line, and the host says itself that it cannot save."""

WHY = {
    ErrorCode.STORAGE.value: "the host cannot save just now (its disk)",
    ErrorCode.RATE_LIMITED.value: "the host asks this client to slow down",
}
"""Why a move goes again, in a person's words, by the code that refused it for now."""


def goes_again(code: str, play: str) -> str:
    """The one line a person reads when their move ``play`` is refused for now."""
    return f"Your move {play} goes to the host again in a moment, by itself: {WHY[code]}."


class NotNow(Generic[Key]):
    """When each request refused for now is due to go again, and which of them were said,
    each by its :data:`Key` (a move by its ``move_id``; a seed message by its type)."""

    def __init__(self) -> None:
        self._due: dict[Key, float] = {}
        """Each key -> when it goes again (the clock :meth:`refused` was given)."""
        self._pause: dict[Key, float] = {}
        """Each key -> the pause before it went the last time it was refused."""
        self._told: set[Key] = set()
        """Keys whose request the person was told goes again (once each)."""
        self._since: dict[Key, float] = {}
        """Each key -> when it was first refused (the clock :meth:`refused` was given)."""

    def refused(self, key: Key, now: float) -> bool:
        """The host refused ``key`` for now: it goes again after a pause. True the first
        time for that key (the person is told then, not at every refusal)."""
        pause = min(self._pause.get(key, FIRST_PAUSE / 2) * 2, LONGEST_PAUSE)
        self._pause[key] = pause
        self._due[key] = now + pause
        self._since.setdefault(key, now)
        first = key not in self._told
        self._told.add(key)
        return first

    def waited(self, key: Key, now: float) -> float:
        """Seconds since the host first refused ``key`` for now (0: it is not refused)."""
        return now - self._since.get(key, now)

    @property
    def next_due(self) -> float:
        """When the next request refused for now goes again (infinity: none waits)."""
        return min(self._due.values(), default=math.inf)

    def due(self, now: float) -> list[Key]:
        """The keys due to go again by ``now``, taken off the list (refused again, they are
        put back by :meth:`refused`)."""
        keys = [key for key, at in self._due.items() if at <= now]
        for key in keys:
            del self._due[key]
        return keys

    def sent_again(self) -> None:
        """A new connection sends every unanswered move again (protocol.md 3.3): none waits
        for its pause any more (what was said stays said)."""
        self._due.clear()

    def went_again(self, key: Key) -> bool:
        """Whether ``key`` was refused for now and went again exactly as first sent (a
        move's ``move_id_taken`` then says the host applied it as another play, 3.5)."""
        return key in self._told

    def answered(self, key: Key) -> None:
        """``key`` is answered (or given up): nothing more of it."""
        self._due.pop(key, None)
        self._pause.pop(key, None)
        self._since.pop(key, None)
        self._told.discard(key)
