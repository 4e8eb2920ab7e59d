"""A bare protocol client for contract tests over loopback TCP.

It speaks the wire format through a sans-IO PlayerConnection and nothing more: it answers
pings, takes part in the fair deal by itself (a fresh seed every round) unless told not to,
and keeps the seat's view with a SeatMirror so a test can tell whose turn it is. Every message
it receives is kept in ``received``; a test sends exactly the messages it means to.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable

import trio

from scopa_net.client.moves import legal_plays
from scopa_net.fair.commitments import seat_commitment
from scopa_net.mirror import SeatMirror
from scopa_net.plays import Play
from scopa_net.view import SeatView
from scopa_net.wire import messages as m
from scopa_net.wire.codec import encode
from scopa_net.wire.connection import NEED_DATA, ConnectionClosed, PlayerConnection, State
from scopa_net.wire.convert import opening_snapshot


class RawSeat:
    def __init__(self, stream: trio.abc.Stream, *, auto_seeds: bool = True) -> None:
        self.stream = stream
        self.conn = PlayerConnection()
        self.auto_seeds = auto_seeds
        self.received: list[m.Message] = []
        self.mirror: SeatMirror | None = None
        self.seat: int | None = None
        self.table_id: int | None = None
        self.token: bytes | None = None
        self.closed = False
        self._seeds: dict[bytes, bytes] = {}
        self._sending = trio.Lock()
        """One message at a time on the stream: a test's own task may send (a `leave`) while
        the seat's reading task answers a ping or sends a seed."""

    @classmethod
    async def connect(
        cls, port: int, *, auto_seeds: bool = True, version: int | None = None
    ) -> RawSeat:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        return await cls.over(stream, auto_seeds=auto_seeds, version=version)

    @classmethod
    async def over(
        cls, stream: trio.abc.Stream, *, auto_seeds: bool = True, version: int | None = None
    ) -> RawSeat:
        """Say hello over an open stream (a memory stream, in virtual-time tests), in
        ``version`` (None: this scopa-net's newest)."""
        seat = cls(stream, auto_seeds=auto_seeds)
        await seat.send(m.Hello(version=version or m.PROTOCOL_VERSION, client="contract-test"))
        await seat.until(lambda msg: isinstance(msg, m.Welcome))
        return seat

    # --- sending ------------------------------------------------------------------------

    async def send(self, msg: m.Message) -> None:
        async with self._sending:
            await self.stream.send_all(self.conn.send(msg))

    async def send_unchecked(self, msg: m.Message) -> None:
        """Send bytes our own state machine would refuse to (to test the host's checks)."""
        async with self._sending:
            await self.stream.send_all(encode(msg))

    # --- receiving ----------------------------------------------------------------------

    async def receive(self) -> m.Message:
        """The next message (pings answered, seeds sent, the view kept); EOFError at the end."""
        msg = await self.receive_within(math.inf)
        assert msg is not None
        return msg

    async def receive_within(self, seconds: float) -> m.Message | None:
        """As :meth:`receive`, or None when no byte arrives within ``seconds``: only the wait
        for bytes is cut short, so nothing read is lost (a caller that must act on its own
        state, not only on the host's next message, such as a ping 10 s later)."""
        while True:
            event = self.conn.next_event()
            if event is not NEED_DATA:
                break
            with trio.move_on_after(seconds):
                self.conn.receive_data(await self.stream.receive_some(65536))
                continue
            return None
        if isinstance(event, ConnectionClosed):
            self.closed = True
            raise EOFError("the host closed the connection")
        assert isinstance(event, m.Message)
        self.received.append(event)
        await self._take(event)
        return event

    async def until(self, pred: Callable[[m.Message], bool], timeout: float = 15) -> m.Message:
        with trio.fail_after(timeout):
            while True:
                msg = await self.receive()
                if pred(msg):
                    return msg

    async def _take(self, msg: m.Message) -> None:
        if isinstance(msg, m.Ping):
            await self.send(m.Pong(nonce=msg.nonce))
        elif isinstance(msg, m.Joined | m.Resumed):
            self.seat, self.table_id, self.token = msg.seat, msg.table_id, msg.token
        elif isinstance(msg, m.Snapshot):
            self.mirror = SeatMirror(msg)
        elif isinstance(msg, m.RematchStatus) and msg.state == "agreed" and self.mirror:
            # A new match: its events start from nothing, as a snapshot at round 0 would.
            rules = self.view.rules
            assert self.seat is not None
            assert self.table_id is not None
            start = opening_snapshot(rules, seat=self.seat, seq=msg.seq, table_id=self.table_id)
            self.mirror = SeatMirror(start)
        elif msg.SEQUENCED and self.mirror is not None:
            self.mirror.apply(msg)
        if not self.auto_seeds or self.seat is None or self.conn.state is not State.SEATED:
            return
        if isinstance(msg, m.RoundCommit):
            seed = self._seeds[msg.round_id] = secrets.token_bytes(32)
            commit = seat_commitment(msg.round_id, self.seat, seed)
            await self.send(m.SeedCommit(round_id=msg.round_id, commit=commit))
        elif isinstance(msg, m.SeedCommits) and msg.round_id in self._seeds:
            await self.send(m.SeedReveal(round_id=msg.round_id, seed=self._seeds[msg.round_id]))

    # --- conveniences -------------------------------------------------------------------

    @property
    def seq(self) -> int:
        assert self.mirror is not None
        return self.mirror.seq

    @property
    def view(self) -> SeatView:
        assert self.mirror is not None
        return self.mirror.view

    def my_plays(self) -> list[Play]:
        return legal_plays(self.view)

    async def join(self, table_id: int, seat: int | None = None, name: str = "raw") -> None:
        await self.send(m.Join(table_id=table_id, seat=seat, name=name, password=None))
        await self.until(lambda msg: isinstance(msg, m.Snapshot))

    async def create(self, create: m.CreateTable) -> int:
        await self.send(create)
        created = await self.until(lambda msg: isinstance(msg, m.TableCreated))
        assert isinstance(created, m.TableCreated)
        return created.table.id

    async def dealt(self) -> None:
        """Wait until a round is dealt and someone is to play."""
        await self.until(
            lambda msg: isinstance(msg, m.Deal) and self.view.to_move is not None, timeout=20
        )

    async def answer(self, move_id: int) -> m.Ack | m.Reject:
        msg = await self.until(
            lambda msg: isinstance(msg, m.Ack | m.Reject) and msg.move_id == move_id
        )
        assert isinstance(msg, m.Ack | m.Reject)
        return msg

    async def play(self, move_id: int, play: Play, after: int | None = None) -> m.Ack | m.Reject:
        await self.send(
            m.Play(
                move_id=move_id,
                after=self.seq if after is None else after,
                card=play.card.index,
                captured=play.captured_mask,
            )
        )
        return await self.answer(move_id)

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)


async def listed(port: int, version: int | None = None) -> tuple[m.TableInfo, ...]:
    """The host's `tables`, asked on a connection of its own (in ``version``)."""
    lobby = await RawSeat.connect(port, version=version)
    try:
        await lobby.send(m.ListTables())
        tables = await lobby.until(lambda msg: isinstance(msg, m.Tables))
        assert isinstance(tables, m.Tables)
        return tables.tables
    finally:
        await lobby.aclose()


async def listed_away(port: int, name: str, version: int | None = None) -> m.TableInfo:
    """The listed table once it names ``name``'s seat as open to a newcomer (``NAME <away>``,
    protocol.md 3.3: its player away past the host's away limit)."""
    with trio.fail_after(10):
        while True:
            for table in await listed(port, version):
                if any(s.name == f"{name} <away>" for s in table.seats):
                    return table
            await trio.sleep(0.05)
