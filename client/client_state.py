"""What the prompt, the completer and the toolbar read of the game: written by the
controller only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scopa_net.client.asking import Asking
from scopa_net.client.session import ConnectionState
from scopa_net.client.style import Display
from scopa_net.plays import Play
from scopa_net.view import SeatView


@dataclass(slots=True)
class ClientState:
    """What the prompt, the completer and the toolbar read. Written by the controller only."""

    seat: int
    names: tuple[str, ...]
    display: Display
    view: SeatView | None = None
    connection: ConnectionState = ConnectionState.LOCAL
    asking: Asking = Asking.NOTHING
    choices: tuple[Play, ...] = ()
    match_over: bool = False
    scores: tuple[int, ...] = ()
    """The match score by side, counting every round scored so far."""
    paused: bool = False
    """A score sheet is waiting to be read: the next round shows after Enter."""
    sent_from: SeatView | None = None
    """The view this seat's last move was played from, until the host answers it."""
    move_queued: bool = False
    """That move waits for the connection to the host to come back (not yet sent)."""
    unanswered_for: int = 0
    """Whole seconds that move has waited on a live connection for the host's answer, once
    past ``NO_ANSWER_SHOWN`` (0 before, and once answered): the toolbar says it."""
    players_awaited: int = 0
    """The players a host's table still waits for before its first deal (0 when none, or
    not known): the toolbar says it, as the line said when this person sat down."""
    awaited_away: tuple[int, str, float] | None = None
    """At a blind table, the person lost whom the round in play waits for: seat, name, and
    when (``time.time()``) the round is void unless they are back; the toolbar says it."""
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    @property
    def in_match(self) -> bool:
        return self.view is not None and not self.match_over

    @property
    def move_sent(self) -> bool:
        """A move is on its way to the host: no view since the one it was played from."""
        return self.sent_from is not None and self.view is self.sent_from
