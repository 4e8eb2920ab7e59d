"""A person's client in a test: a real session with the game's controller in front of it, and
every line its screen printed, read as plain text (as a person reads it).

Shared by the LAN screen tests (a test module may not import another, tests/test_suite_guards.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress

import trio

from scopa_net.bots.levels import make_player
from scopa_net.client import render
from scopa_net.client.controller import Asking, Controller
from scopa_net.client.network_session import NetworkSession
from scopa_net.client.style import Display
from scopa_net.client.toolbar import toolbar_text
from scopa_net.errors import IllegalPlayError


class PersonScreen:
    """``lines``: what the screen printed; ``toolbars``: the toolbar after each event."""

    def __init__(self, session: NetworkSession) -> None:
        self.session = session
        self.lines: list[str] = []
        self.toolbars: list[str] = []
        self.controller = Controller(session, Display(), self._show, lambda: None)

    def _show(self, lines: object) -> None:
        self.lines += render.plain(lines).splitlines()  # type: ignore[arg-type]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    async def type(self, line: str) -> list[str]:
        """What typing ``line`` printed."""
        before = len(self.lines)
        await self.controller.handle_line(line)
        return self.lines[before:]

    async def until_dealt(self, seconds: float = 10) -> None:
        """Take events as the screen does until this person's cards are dealt."""
        with trio.fail_after(seconds):
            async for event in self.session.events:
                self.controller.handle_event(event)
                if self.controller.state.in_match:
                    return

    async def play(
        self,
        between: Callable[[PersonScreen], Awaitable[None]] | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        """Take every event as the game's screen does and play at random on this person's
        turn (not while a question waits), until the session ends; ``between(self)`` after
        each event is what the person does then. ``seed``: the random player's (by default
        one more than three past the lines printed so far)."""
        player = make_player("random", len(self.lines) + 3 if seed is None else seed)
        async for event in self.session.events:
            self.controller.handle_event(event)
            self.toolbars.append(render.plain([toolbar_text(self.controller.state)]))
            if between is not None:
                await between(self)
            view = self.session.view
            asking = self.controller.state.asking is not Asking.NOTHING
            if view is not None and view.my_turn and not view.round_over and not asking:
                with trio.move_on_after(5):
                    with suppress(IllegalPlayError):  # the table moved on first: next event
                        await self.session.submit(player.choose(view))
