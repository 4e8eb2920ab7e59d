"""A blind round's setup held back by one person's connection, and a person who plays her
turns meanwhile: for tests of a seat caught up while the next blind round waits (9.7)."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import trio
from hosting import Through, create, start_host
from person_screen import Player, in_play, sit, until

from scopa_net.bots.levels import make_player
from scopa_net.client.network_session import NetworkSession
from scopa_net.errors import IllegalPlayError
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


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


@dataclass
class HeldTable:
    """A blind table whose next round's setup Ada's ``link`` can hold (:class:`KeyHeld`):
    the ``host``, Ada's and Bruno's screens, and the round first in play on Bruno's screen
    (round 1, or the redeal after a deal void for its kings, about 1 in 600)."""

    host: Host
    ada: Player
    bruno: Player
    link: KeyHeld
    in_play: int


async def ada_and_bruno_in_play(
    nursery: trio.Nursery, tmp: Path, rules: RuleSet, *, bots: int = 0
) -> HeldTable:
    """A host that replays a resume at most one missed event (so a seat back is caught up by
    snapshot), with a grace time of half a second and computer players that do not wait;
    Ada opens a blind table of ``rules`` (``bots`` computer players) over a link whose keys
    can be held, Bruno sits down at it, and a round comes into play on his screen."""
    host = await start_host(nursery, replay_limit=1, grace=0.5, bot_delay=0.0)
    links: list[KeyHeld] = []

    async def ada_connects() -> trio.abc.Stream:
        links.append(KeyHeld(await trio.open_tcp_stream("127.0.0.1", host.port)))
        return links[-1]

    ada = await sit(
        nursery, host, "Ada", tmp,
        create=create(rules, bots=bots, blind=True), connector=ada_connects,
    )  # fmt: skip
    bruno = await sit(nursery, host, "Bruno", tmp, table_id=ada.session.table_id)
    await until(lambda: in_play(bruno))
    (link,) = links
    table = host.tables[ada.session.table_id].table
    return HeldTable(host, ada, bruno, link, table.round_no)
