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

WHAT_COUNTS = "sitting down, coming back, a new name"

NEXT_ROUND = {
    "join": "sit down there once the next round starts, or take another seat",
    "resume": "the seat is still yours: come back once the next round starts",
    "rename": "change your name once the next round starts",
}
"""What a person refused at the limit can do, by the request refused."""


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
            raise TableError(
                ErrorCode.RATE_LIMITED,
                f"seat {seat} has changed {self.limit} times this round ({WHAT_COUNTS}), as "
                f"many as this host allows; {NEXT_ROUND[request]}",
            )

    def count(self, round_key: Hashable, seat: int) -> None:
        """One change of ``seat`` made in the round ``round_key`` (after :meth:`check`)."""
        if round_key is None:
            return
        if round_key != self._round:
            self._round, self._counts = round_key, {}
        self._counts[seat] = self._counts.get(seat, 0) + 1
