"""Stand-ins for the client's tests: a session over a given match, and a screen that keeps the
plain text shown on it."""

from __future__ import annotations

import trio

from scopa_net.client import render
from scopa_net.client.session import ConnectionState, Event
from scopa_net.match import Match
from scopa_net.plays import Play, PlayRecord
from scopa_net.view import SeatView


class TableSession:
    """A session over a given match: the player's plays go straight to it."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.seat = 0
        self.names = ("Ada", "Bot 1")
        self.connection = ConnectionState.LOCAL
        self.submitted: list[Play] = []
        self.said: list[str] = []
        self._send, self.events = trio.open_memory_channel[Event](16)

    @property
    def view(self) -> SeatView:
        return self.match.view_for(0)

    async def submit(self, play: Play) -> PlayRecord:
        record = self.match.play(play, 0, exact=True)
        self.submitted.append(play)
        return record

    async def say(self, text: str) -> None:
        self.said.append(text)


class Screen:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def show(self, lines: object) -> None:
        self.lines += render.plain(lines).splitlines()  # type: ignore[arg-type]

    def take(self) -> str:
        text = "\n".join(self.lines)
        self.lines.clear()
        return text
