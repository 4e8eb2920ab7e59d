"""The one interface between the terminal app and a game, wherever the game is played.

The app talks only to a :class:`Session`: it reads the current view, sends plays and chat,
and receives :data:`Event` values from a memory channel. :mod:`scopa_net.client.local_session`
plays in-process against computer players; a network session (a connection to a host) will
implement the same protocol, so the app does not change when the host arrives.

A session lives on the trio side. Refusals of a play come back as exceptions from
:meth:`Session.submit` (the same ones the engine raises), never as events.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

import trio

from scopa_net.plays import Play, PlayRecord
from scopa_net.scoring import RoundScore
from scopa_net.view import SeatView


class SessionEndedError(Exception):
    """A move that will never be answered: the session ended first. Why it ended is the
    session's to say (its own error, or its last line), never the move's."""


class ConnectionState(enum.Enum):
    LOCAL = "local game"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True, kw_only=True)
class ViewChanged:
    """The seat's view is now ``view``; ``record`` is the play that changed it, if one did;
    ``sat_down``: the view a person sat down to, in a round under way (its board is drawn)."""

    view: SeatView
    record: PlayRecord | None = None
    sat_down: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted:
    view: SeatView


@dataclass(frozen=True, slots=True, kw_only=True)
class VoidDeal:
    """The opening table held three or more kings; the same dealer deals again."""

    view: SeatView


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundOver:
    """A round has been scored; ``view`` still shows its end (``view.round_score``)."""

    view: SeatView
    score: RoundScore
    match_scores: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver:
    winner: int
    match_scores: tuple[int, ...]
    rounds: int
    """Rounds played out (scored): a void round is not one."""
    voids: int = 0
    """Rounds void (three kings on the table; at a blind table, a person gone), apart."""
    vote_over: bool = False
    """The vote on playing again is over already (a seat taken back after it): "play
    again?" is not asked; why there is no rematch comes next."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchStarted:
    """Everyone agreed to play again: a new match begins at ``match_scores`` (all 0), with no
    round of it scored yet."""

    match_scores: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    """Chat from a seat (``seat`` None: a notice from the host; with ``local``, from this
    client itself: its own deal check, where it saved a transcript, a key warning; with
    ``table``, what happened at the table, in the table's own words: someone sat down, left,
    came back or changed name, the rematch vote)."""

    seat: int | None
    text: str
    local: bool = False
    table: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveQueued:
    """This seat's move waits for the connection to the host to come back (``queued``), or,
    having waited, has now been sent (not ``queued``)."""

    queued: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RematchClosed:
    """The vote on playing again is over without a rematch (declined, or the table closed,
    protocol.md 3.11): the question "play again?" is no longer asked. The table's own words
    on why come before it, as a :class:`Message`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ConnectionChanged:
    state: ConnectionState
    detail: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class CaughtUp:
    """Back at the table after a lost connection, the host has sent what was missed (the line
    stayed quiet after it): the view is the table as it is now, not as it was at the cut."""


Event = (
    ViewChanged
    | RoundStarted
    | VoidDeal
    | RoundOver
    | MatchOver
    | MatchStarted
    | Message
    | MoveQueued
    | RematchClosed
    | ConnectionChanged
    | CaughtUp
)


class Session(Protocol):
    """A seat at a table, seen from the trio side of the client."""

    @property
    def seat(self) -> int: ...

    @property
    def names(self) -> tuple[str, ...]:
        """Player names by seat."""
        ...

    @property
    def view(self) -> SeatView | None:
        """The latest view, or None before the first deal."""
        ...

    @property
    def connection(self) -> ConnectionState: ...

    @property
    def events(self) -> trio.MemoryReceiveChannel[Event]:
        """Events in order; the channel closes when the session ends."""
        ...

    async def submit(self, play: Play) -> PlayRecord:
        """Make ``play`` for this seat, taken literally (captures as given); raises
        :class:`~scopa_net.errors.IllegalPlayError` and changes nothing if it is refused."""
        ...

    async def say(self, text: str) -> None:
        """Send a chat message to the table."""
        ...
