"""How many times each seat changed in the round in play: the host's bound on a round that
never ends (protocol.md 3.6, Seat changes).

Every event from a round's start is kept for replay (3.4), and a round at an ordinary table
may stall for as long as a connected person does not play. A seat change is a request that
puts a ``seat_status`` in every seat's log: a ``join``, a ``resume`` that brings its player
back, a ``rename`` that changes the name. Past :attr:`limit` of them for one seat in one round,
the next is refused (``rate_limited``) until the next round opens. Leaving, stepping away and a
lost connection are never refused: each follows a change that was counted, so the events one
seat can add to a round are bounded all the same.
"""

from __future__ import annotations

from collections.abc import Hashable

from scopa_net.server.table import TableError
from scopa_net.wire.errors import ErrorCode

AT_THE_LIMIT = {
    "join": (
        "seat {seat} has {what} {limit} times this round, as many as this host allows; sit "
        "down there once the next round starts, or take another seat"
    ),
    "resume": (
        "your seat has {what} {limit} times this round, as many as this host allows; it is "
        "still yours: come back once the next round starts"
    ),
    "rename": (
        "your seat has {what} {limit} times this round, as many as this host allows; change "
        "your name once the next round starts"
    ),
}
"""What a person refused at the limit reads, by the request refused: one line, no brackets
(our client shows a refused resume's words inside its own)."""
WHAT_COUNTS = "changed hands, come back or changed name"


class SeatChanges:
    """Seat changes counted per seat since the round in play opened."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._round: Hashable = None
        self._counts: dict[int, int] = {}

    def check(self, round_key: Hashable, seat: int, request: str) -> None:
        """Refuse (``TableError`` ``rate_limited``) a change of ``seat`` in the round
        ``round_key`` (None: no round yet in this match, nothing counted) past the limit."""
        if round_key is None:
            return
        if round_key != self._round:
            self._round, self._counts = round_key, {}
        if self._counts.get(seat, 0) >= self.limit:
            words = AT_THE_LIMIT[request].format(seat=seat, what=WHAT_COUNTS, limit=self.limit)
            raise TableError(ErrorCode.RATE_LIMITED, words)

    def count(self, round_key: Hashable, seat: int) -> None:
        """One change of ``seat`` made in the round ``round_key`` (after :meth:`check`)."""
        if round_key is None:
            return
        if round_key != self._round:
            self._round, self._counts = round_key, {}
        self._counts[seat] = self._counts.get(seat, 0) + 1
