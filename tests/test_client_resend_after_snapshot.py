"""A move the host never answered, its connection lost, and the seat taken back by a
snapshot (protocol.md 3.3, 3.4): the move goes again only once the snapshot is read. Sent
before it (the connection still ``syncing``), our own client broke the protocol, took that
for a lost connection and resumed again, about once a second, until the table closed."""

from __future__ import annotations

import contextlib
from pathlib import Path

import trio
from hosting import Cuttable, create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.session import MatchOver, Message
from scopa_net.client.session_errors import MoveUnansweredError
from scopa_net.rules import RuleSet
from scopa_net.server import table_task
from scopa_net.server.host import Host
from scopa_net.server.table import Phase

PLAY_FRAME = b"\xa1t\xa4play"
"""How a ``play`` message's type reads in its msgpack bytes (``"t": "play"``)."""


class LosesAPlay(Cuttable):
    """A connection that swallows the first ``play`` sent on it and then ends, as one cut
    just as a move went: the host never sees it, so the client holds it unanswered."""

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if PLAY_FRAME in bytes(data):
            self.cut.set()
            return
        await self.inner.send_all(data)

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        with trio.move_on_after(30):  # the cut, or the host's bytes, whichever comes first
            return await super().receive_some(max_bytes)
        await self.inner.aclose()
        return b""


class Heard:
    """The session as the person's screen reads it: the lines said, and the result."""

    def __init__(self, session: object) -> None:
        self._session = session
        self.events = self
        self.lines: list[str] = []
        self.results: list[MatchOver] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self._session, name)

    async def receive(self) -> object:
        event = await self._session.events.receive()  # type: ignore[attr-defined]
        if isinstance(event, Message):
            self.lines.append(event.text)
        elif isinstance(event, MatchOver):
            self.results.append(event)
        return event


async def test_a_seat_back_by_snapshot_at_a_finished_match_resumes_once(
    tmp_path: Path, monkeypatch: object
) -> None:
    """The person's client loses a move with its connection and is away until the match is
    over (a computer plays for them, rounds past the replay limit): coming back, it takes the seat
    once, reads the match's end and stops. Before, it resumed again and again (epochs 2, 3,
    4...) until the table closed."""
    monkeypatch.setattr(table_task, "LINGER", 6.0)  # type: ignore[attr-defined]
    connections: list[trio.abc.Stream] = []
    host: Host | None = None
    table: list[int] = []

    def over() -> bool:
        assert host is not None
        return bool(table) and host.tables[table[0]].table.phase is Phase.OVER

    async def connect() -> trio.abc.Stream:
        assert host is not None
        if connections:  # back once the match is over without this person
            with trio.fail_after(30):
                while not over():
                    await trio.sleep(0.02)
        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        connections.append(LosesAPlay(stream) if not connections else stream)
        return connections[-1]

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=0.2, replay_limit=8)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path, connector=connect
            ) as session:
                assert session.table_id is not None
                table.append(session.table_id)
                heard = Heard(session)
                with contextlib.suppress(MoveUnansweredError):  # the lost move: never played
                    await play_as_bot(heard, make_player("random", 1))  # type: ignore[arg-type]
                with trio.move_on_after(3 * table_task.LINGER):  # the rest, to the end
                    with contextlib.suppress(trio.EndOfChannel):
                        while True:
                            await heard.receive()
            nursery.cancel_scope.cancel()
    assert len(connections) == 2, heard.lines  # the first, and the one that took the seat back
    assert len(heard.results) == 1
    assert not any("connection" in line for line in heard.lines), heard.lines


async def test_back_by_snapshot_after_the_vote_was_declined_it_reads_why_once(
    tmp_path: Path, monkeypatch: object
) -> None:
    """As document_fields saw it: Bea's move is lost with her connection, the match ends
    while she is away and Ada says no to playing again. Bea's client (one that asks "play
    again?") comes back once and reads the result, then who closed the table, in one line."""
    monkeypatch.setattr(table_task, "LINGER", 6.0)  # type: ignore[attr-defined]
    connections: list[trio.abc.Stream] = []
    host: Host | None = None
    table: list[int] = []
    declined = trio.Event()
    heard: list[Heard] = []

    async def connect() -> trio.abc.Stream:
        assert host is not None
        if connections:  # back once Ada has said no
            with trio.fail_after(30):
                await declined.wait()
        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        connections.append(LosesAPlay(stream) if not connections else stream)
        return connections[-1]

    async def bea(ready: trio.Event, done: trio.Event) -> None:
        await ready.wait()
        assert host is not None
        async with open_network_session(
            "127.0.0.1", host.port, TableChoice(table_id=table[0]), name="Bea",
            data_dir=tmp_path / "bea", connector=connect, offer_rematch=True,
        ) as session:  # fmt: skip
            heard.append(Heard(session))
            with contextlib.suppress(MoveUnansweredError):  # the lost move: never played
                await play_as_bot(heard[0], make_player("random", 2))  # type: ignore[arg-type]
            with trio.move_on_after(3 * table_task.LINGER):  # the rest, to the end
                with contextlib.suppress(trio.EndOfChannel):
                    while True:
                        await heard[0].receive()
        done.set()

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=0.2, replay_limit=8)
            ready, done = trio.Event(), trio.Event()
            nursery.start_soon(bea, ready, done)
            choice = TableChoice(create=create(RuleSet.of(3, 11), bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path / "ada"
            ) as ada:  # no rematch offered: Ada's client says no as the match ends
                assert ada.table_id is not None
                table.append(ada.table_id)
                ready.set()
                with contextlib.suppress(MoveUnansweredError):
                    await play_as_bot(ada, make_player("random", 1))  # type: ignore[arg-type]
            declined.set()
            await done.wait()
            nursery.cancel_scope.cancel()
    (bea_heard,) = heard
    assert len(connections) == 2, bea_heard.lines
    assert len(bea_heard.results) == 1
    assert bea_heard.lines[-1] == "no rematch (Ada said no): the table is closing"
