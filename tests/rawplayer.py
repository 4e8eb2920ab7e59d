"""A player written against protocol.md alone, for host tests: it answers pings, commits and
reveals its seeds, and keeps a mirror of its seat's view from the events it receives.

Our codec and connection state machine check every frame it gets (order, fields, seq)."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

import trio
import trio.testing

from scopa_net.client.network_session import _Link, connect
from scopa_net.fair.commitments import seat_commitment
from scopa_net.mirror import SeatMirror
from scopa_net.server.host import Host
from scopa_net.wire import messages as m

Connector = Callable[[], Awaitable[trio.abc.Stream]]


def memory_connector(host: Host, nursery: trio.Nursery) -> Connector:
    """Connections to an in-process host over memory streams (for virtual time)."""

    async def connect_() -> trio.abc.Stream:
        client, server = trio.testing.memory_stream_pair()
        nursery.start_soon(host.handle_stream, server, "mem", "mem")
        return client

    return connect_


OPENED: list[_Link] = []
"""Every link opened, so that a test's teardown can close what the test left open."""


async def open_link(connector: Connector | None = None, port: int = 0) -> _Link:
    link, _ = await connect("127.0.0.1", port, connector)
    OPENED.append(link)
    return link


async def close_links() -> None:
    """Close every link still open (call at the end of a test)."""
    while OPENED:
        await trio.aclose_forcefully(OPENED.pop().stream)


def close_opened() -> None:
    """Forget the links a failed test left open (their sockets close with the test's run)."""
    OPENED.clear()


async def answer(link: _Link, kinds: tuple[type[m.Message], ...], within: float = 5.0) -> m.Message:
    """The next message of one of ``kinds`` (pings answered, others skipped)."""
    with trio.fail_after(within):
        while True:
            msg = await link.receive()
            if isinstance(msg, kinds):
                return msg
            if isinstance(msg, m.Ping):
                await link.send(m.Pong(nonce=msg.nonce))


class RawPlayer:
    def __init__(self, link: _Link, table_id: int) -> None:
        self.link = link
        self.table_id = table_id
        self.seat = -1
        self.token = b""
        self.seq = 0
        self.mirror: SeatMirror | None = None
        self.received: list[m.Message] = []
        self._seeds: dict[bytes, bytes] = {}
        self._move_id = 0

    async def join(self, seat: int | None = None) -> m.Joined:
        await self.link.send(m.Join(table_id=self.table_id, seat=seat, name="raw", password=None))
        joined = await answer(self.link, (m.Joined, m.Error))
        assert isinstance(joined, m.Joined), joined
        self.seat, self.token = joined.seat, joined.token
        await self.step()  # the snapshot
        assert self.mirror is not None
        return joined

    async def resume(self, link: _Link) -> m.Resumed:
        """Take the seat back on ``link`` (the old link is left alone)."""
        self.link = link
        await link.send(
            m.Resume(table_id=self.table_id, seat=self.seat, token=self.token, last_seq=self.seq)
        )
        resumed = await answer(link, (m.Resumed, m.Error, m.Bye))
        assert isinstance(resumed, m.Resumed), resumed
        self.token = resumed.token
        return resumed

    async def step(self) -> m.Message:
        """Receive one message and do what a player does with it."""
        msg = await self.link.receive()
        self.received.append(msg)
        link = self.link
        if isinstance(msg, m.Ping):
            await link.send(m.Pong(nonce=msg.nonce))
        elif isinstance(msg, m.Snapshot):
            self.mirror = SeatMirror(msg)
            self.seq = msg.seq
        elif hasattr(msg, "seq") and not isinstance(msg, m.Ack | m.Reject):
            assert self.mirror is not None
            self.mirror.apply(msg)
            self.seq = msg.seq  # type: ignore[attr-defined]
            if isinstance(msg, m.RoundCommit):
                seed = self._seeds[msg.round_id] = secrets.token_bytes(32)
                commit = seat_commitment(msg.round_id, self.seat, seed)
                await link.send(m.SeedCommit(round_id=msg.round_id, commit=commit))
            elif isinstance(msg, m.SeedCommits):
                seed = self._seeds[msg.round_id]
                await link.send(m.SeedReveal(round_id=msg.round_id, seed=seed))
        return msg

    async def until(self, done: Callable[[], bool], within: float = 30.0) -> None:
        with trio.fail_after(within):
            while not done():
                await self.step()

    def new_move_id(self) -> int:
        self._move_id += 1
        return self._move_id


def my_turn(player: RawPlayer, table: object) -> Callable[[], bool]:
    """Whether it is ``player``'s turn at the host's ``table`` and it has every event."""

    def check() -> bool:
        seat = table.seats[player.seat]  # type: ignore[attr-defined]
        return table.to_act() == [(player.seat, "play")] and player.seq == seat.seq  # type: ignore[attr-defined]

    return check


async def play_turn(player: RawPlayer, table: object, chooser: object) -> m.Message:
    """Wait for the player's turn, play what ``chooser`` picks; returns the host's answer."""
    await player.until(my_turn(player, table))
    assert player.mirror is not None
    play = chooser.choose(player.mirror.view)  # type: ignore[attr-defined]
    move_id = player.new_move_id()
    await player.link.send(
        m.Play(move_id=move_id, after=player.seq, card=play.card.index, captured=play.captured_mask)
    )
    return await answer(player.link, (m.Ack, m.Reject))
