"""A blind round's setup held back by one person's connection, and a person who plays her
turns meanwhile: for tests of a seat caught up while the next blind round waits (9.7)."""

from __future__ import annotations

from contextlib import suppress

import trio
from hosting import Through

from scopa_net.bots.levels import make_player
from scopa_net.client.network_session import NetworkSession
from scopa_net.errors import IllegalPlayError


class KeyHeld(Through):
    """A connection whose ``blind_key`` to the host waits, once ``held`` is set, until
    ``sent`` is: the next round's setup waits for this person."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self.held = False
        self.sent = trio.Event()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.held and b"blind_key" in bytes(data):
            await self.sent.wait()
        await self.inner.send_all(data)


async def plays_her_turns(session: NetworkSession) -> None:
    """Play at random at each of this person's turns (her screen takes the events)."""
    player = make_player("random", 1)
    while True:
        view = session.view
        if view is not None and view.my_turn and not view.round_over:
            with suppress(IllegalPlayError):  # the table moved on first
                await session.submit(player.choose(view))
        await trio.sleep(0.01)
