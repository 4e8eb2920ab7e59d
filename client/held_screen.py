"""What the screen is not shown yet while a play of this seat waits to be judged.

A ``played`` of the seat read while a move of its is unanswered (after a resume, its move sent
again) may be the person's own or one the host made for them: it is held until the move's
answer judges it (protocol.md 3.5, :class:`~scopa_net.client.own_plays.OwnPlays`). The screen
must not say "You play 7d" before that, nor show what followed that play, so the session's
events from that play on wait here, in order, and go to the screen once it is judged hers, or
are dropped when it is not (the changed-play banner is then the first thing read). In the
ordinary case the host answers a move before its ``played`` and nothing waits. Sans-IO: the
session hands events in and takes them out.
"""

from __future__ import annotations

from scopa_net.client.session import ConnectionChanged, Event, MoveQueued

PASSING = (ConnectionChanged, MoveQueued)
"""What is shown at once even while a play is held: the connection's state, and whether a
move typed is still queued (the person's own doing, nothing of the held play's)."""


class HeldScreen:
    """The events waiting for a held play's judgement (see the module docstring)."""

    def __init__(self) -> None:
        self._waiting: list[Event] | None = None
        """The events held, oldest first (None: nothing is held, they go to the screen)."""

    @property
    def holding(self) -> bool:
        """Whether events wait for a play's judgement now."""
        return self._waiting is not None

    def hold(self) -> None:
        """A play of this seat is held from now: what the session shows next waits."""
        if self._waiting is None:
            self._waiting = []

    def takes(self, event: Event) -> bool:
        """Keep ``event`` back while a play is held (True), or let it go to the screen."""
        if self._waiting is None or isinstance(event, PASSING):
            return False
        self._waiting.append(event)
        return True

    def release(self) -> list[Event]:
        """The held plays were judged the person's (or will never be judged: the session
        ends): the events held, in order, for the screen; nothing is held from now."""
        waiting, self._waiting = self._waiting or [], None
        return waiting

    def drop(self) -> None:
        """The held plays are not shown: judged not the person's (the seat stops on a changed
        play), or lost with the host's later events (its journal put back)."""
        self._waiting = None
