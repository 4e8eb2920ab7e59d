"""Where a seat caught up by snapshot starts: as the latest round began (protocol.md 3.4, 9.7)."""

from __future__ import annotations

from collections.abc import Callable

from scopa_net.wire import messages as m


class RoundStart:
    """One seat's point as the latest round began: the seat's seq then (its log is kept whole
    from there) and its snapshot of then, which a seat caught up from there is sent.

    The snapshot may be given made, or as a function that makes it (from values kept as they
    stood then, all immutable), called the first time it is asked for: most rounds nobody is
    caught up, and four snapshots made at every round's start (each some 40 records, a play
    of the round before among them) were about a tenth of the host's CPU under load."""

    __slots__ = ("_make", "_snapshot", "seq")

    def __init__(
        self,
        seq: int,
        snapshot: m.Snapshot | None = None,
        *,
        make: Callable[[], m.Snapshot] | None = None,
    ) -> None:
        if (snapshot is None) == (make is None):
            raise ValueError("a round start needs its snapshot or a way to make it, not both")
        self.seq = seq
        self._snapshot = snapshot
        self._make = make

    @property
    def snapshot(self) -> m.Snapshot:
        """The seat's snapshot as the round began (made now if not yet)."""
        if self._snapshot is None:
            assert self._make is not None
            self._snapshot, self._make = self._make(), None
        return self._snapshot

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoundStart):
            return NotImplemented
        return (self.seq, self.snapshot) == (other.seq, other.snapshot)

    __hash__ = None  # type: ignore[assignment]  # (equal by value, and not immutable)

    def __repr__(self) -> str:
        return f"RoundStart(seq={self.seq})"
