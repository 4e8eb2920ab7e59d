"""A bound on everything the host holds (issue 16 items 8-10).

Connections and their refusals over loopback TCP (one test in a host process of its own with a
small descriptor limit); tables, expiry, rates and memory in virtual time over memory streams.
"""

from __future__ import annotations

import errno
import logging
import subprocess
import sys
from collections.abc import Iterator
from functools import partial

import pytest
import trio
import trio.testing
from hosting import create, serve_then_close, start_host
from rawplayer import RawPlayer, answer, close_links, close_opened, memory_connector, open_link

from scopa_net.client.network_session import _Link
from scopa_net.commands.history_matches import describe_finished
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.server.journal_writer import JournalWriter
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.framing import FrameReader


@pytest.fixture(autouse=True)
def _close_links() -> Iterator[None]:
    yield
    close_opened()


@pytest.fixture
def clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(rate=1.0, autojump_threshold=0.0)


async def first_answer(port: int) -> m.Message:
    """Connect, say hello, and return the host's first message."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    try:
        await stream.send_all(encode(m.Hello(version=m.PROTOCOL_VERSION, client="t")))
        reader = FrameReader()
        with trio.fail_after(5):
            while not isinstance(frame := reader.next_frame(), bytes):
                data = await stream.receive_some(65536)
                if not data:
                    return m.Bye(reason="closed", message="")
                reader.receive_data(data)
        return decode(frame)
    finally:
        await stream.aclose()


# --- connections -----------------------------------------------------------------------------


async def test_refused_connections_get_bye_before_any_welcome() -> None:
    """Pass (issue 16 item 8): over the per-address limit (here 2), and over the total cap
    (here 4, other addresses aside), eight tries each get `bye too_many_connections` as the
    very first frame, never a `welcome`; when one closes, the next is served."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, max_connections_per_address=2)
        held = [await open_link(port=host.port) for _ in range(2)]
        for _ in range(8):
            first = await first_answer(host.port)
            assert isinstance(first, m.Bye), first
            assert first.reason == "too_many_connections", first
            assert "one address" in first.message
        await held.pop().aclose()
        with trio.fail_after(5):
            while not isinstance(await first_answer(host.port), m.Welcome):
                await trio.sleep(0.05)
        await close_links()
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, max_connections=4)
        assert host.max_connections == 4
        held = [await open_link(port=host.port) for _ in range(4)]
        for _ in range(8):
            first = await first_answer(host.port)
            assert isinstance(first, m.Bye), first
            assert first.reason == "too_many_connections", first
            assert "full" in first.message
        await close_links()
        nursery.cancel_scope.cancel()


HOST_WITH_FEW_DESCRIPTORS = """
import resource, trio
resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host

async def main():
    config = HostConfig(bind="127.0.0.1", port=0, advertise=False,
                        max_connections_per_address=10_000)
    host = Host(config)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.serve)
        print(port, host.max_connections, flush=True)

trio.run(main)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no descriptor limits to set")
async def test_the_connection_cap_follows_the_descriptor_limit() -> None:
    """Pass (issue 16 item 8): a host with 128 descriptors serves 64 connections (128 less
    its 64 spare) and refuses the next ones with `bye too_many_connections`, never leaving a
    connection unserved; it still serves a newcomer once one closes."""
    proc = await trio.lowlevel.open_process(
        [sys.executable, "-c", HOST_WITH_FEW_DESCRIPTORS],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        with trio.fail_after(20):
            line = b""
            while not line.endswith(b"\n"):
                line += await proc.stdout.receive_some(100)
        port, cap = map(int, line.split())
        assert cap == 64
        links: list[_Link] = []
        for _ in range(cap):
            links.append(await open_link(port=port))
        for _ in range(5):
            first = await first_answer(port)
            assert isinstance(first, m.Bye), first
            assert first.reason == "too_many_connections", first
        await links.pop().aclose()
        with trio.fail_after(5):
            while not isinstance(await first_answer(port), m.Welcome):
                await trio.sleep(0.05)
        await close_links()
    finally:
        proc.kill()
        await proc.wait()


class _ExhaustedListener:
    """A listener whose accept fails with EMFILE ``failures`` times, then gives a stream."""

    def __init__(self, failures: int, host: Host) -> None:
        self.failures = failures
        self.host = host
        self.accepted = trio.Event()

    async def accept(self) -> trio.abc.Stream:
        if self.failures:
            self.failures -= 1
            raise OSError(errno.EMFILE, "Too many open files")
        if self.accepted.is_set():
            await trio.sleep_forever()
        self.accepted.set()
        _client, server = trio.testing.memory_stream_pair()
        return server

    async def __aenter__(self) -> _ExhaustedListener:
        return self

    async def __aexit__(self, *exc: object) -> None:
        pass


async def test_out_of_descriptors_is_logged_once_per_burst(
    clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Pass (issue 16 item 8): 50 accepts failing with EMFILE in a row give one ERROR line
    (no traceback), then one line when accepting works again."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    async with trio.open_nursery() as nursery:
        host = Host(HostConfig(advertise=False), Journal(":memory:"))
        await nursery.start(partial(serve_then_close, host, listen=False))
        listener = _ExhaustedListener(50, host)
        served = trio.Event()

        async def handle(stream: trio.abc.Stream) -> None:
            served.set()

        host._handle = handle  # type: ignore[method-assign]
        nursery.start_soon(host._accept, listener, nursery)
        with trio.fail_after(30):
            await served.wait()
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1, errors
        assert errors[0].exc_info is None, errors
        assert "cannot accept" in errors[0].getMessage()
        assert any("accepting connections again" in r.getMessage() for r in caplog.records)
        nursery.cancel_scope.cancel()


# --- tables ----------------------------------------------------------------------------------


class SlowWriter(JournalWriter):
    async def append(self, table_id: int, entries: list) -> None:
        if entries:
            await trio.sleep(0.5)
        await super().append(table_id, entries)

    async def call(self, fn: object) -> None:
        await trio.sleep(0.5)
        await super().call(fn)  # type: ignore[arg-type]


async def in_process_host(nursery: trio.Nursery, *, slow: bool = False, **options: object) -> Host:
    config = HostConfig(db=":memory:", advertise=False, **options)  # type: ignore[arg-type]
    host = Host(config, Journal(":memory:"))
    if slow:
        host.writer = SlowWriter(host.journal, threaded=False)
    await nursery.start(partial(serve_then_close, host, listen=False))
    return host


def addressed(host: Host, nursery: trio.Nursery, address: str):
    """Memory-stream connections that the host sees as coming from ``address``."""

    async def connect_() -> trio.abc.Stream:
        client, server = trio.testing.memory_stream_pair()
        nursery.start_soon(host.handle_stream, server, address, address)
        return client

    return connect_


async def test_the_table_limit_holds_under_concurrent_creates(
    clock: trio.testing.MockClock,
) -> None:
    """Pass (issue 16 item 9): 12 connections ask for a table at once while each journal
    write takes 0.5 s; with a limit of 5 exactly 5 tables are made and 7 get
    `too_many_tables`."""
    async with trio.open_nursery() as nursery:
        host = await in_process_host(nursery, slow=True, max_tables=5, max_tables_per_address=100)
        connector = memory_connector(host, nursery)
        links = [await open_link(connector) for _ in range(12)]
        answers: list[m.Message] = []

        async def ask(link: _Link) -> None:
            await link.send(create(RuleSet.of(2, 11), bots=1))
            answers.append(await answer(link, (m.TableCreated, m.Error), within=30))

        async with trio.open_nursery() as asking:
            for link in links:
                asking.start_soon(ask, link)
        made = [a for a in answers if isinstance(a, m.TableCreated)]
        refused = [a for a in answers if isinstance(a, m.Error)]
        assert len(made) == 5
        assert len(host.tables) == 5
        assert len(refused) == 7
        assert all(r.code == "too_many_tables" for r in refused)
        nursery.cancel_scope.cancel()


async def test_one_address_has_a_quota_of_tables(clock: trio.testing.MockClock) -> None:
    """Pass (issue 16 item 9): with a quota of 2, a third table from one address gets
    `too_many_tables` naming the quota; another address still gets its table; when one of the
    first address's tables closes, it may open another."""
    async with trio.open_nursery() as nursery:
        host = await in_process_host(nursery, max_tables_per_address=2, pause_after=10.0)
        flood = await open_link(addressed(host, nursery, "10.0.0.9"))
        for _ in range(2):
            await flood.send(create(RuleSet.of(2, 11), bots=1))
            assert isinstance(await answer(flood, (m.TableCreated,)), m.TableCreated)
        await flood.send(create(RuleSet.of(2, 11), bots=1))
        refused = await answer(flood, (m.Error,))
        assert refused.code == "too_many_tables"
        assert "one address" in refused.message
        other = await open_link(addressed(host, nursery, "10.0.0.10"))
        await other.send(create(RuleSet.of(2, 11), bots=1))
        assert isinstance(await answer(other, (m.TableCreated,)), m.TableCreated)
        # Nobody sits at the flood's tables: they expire, and the quota frees up.
        await trio.sleep(11)
        await flood.send(create(RuleSet.of(2, 11), bots=1))
        assert isinstance(await answer(flood, (m.TableCreated,)), m.TableCreated)
        nursery.cancel_scope.cancel()


async def test_empty_and_abandoned_tables_pause_then_close(
    clock: trio.testing.MockClock,
) -> None:
    """Pass (issue 16 item 9): a table nobody sits at closes after `pause_after`; at a table
    whose only player left, the stand-in plays through the grace period, the computer
    players then pause (no more moves) once nobody has been here `pause_after`, and the table
    closes after `abandon_after`, marked abandoned in the journal and not restored; a table
    whose player comes back within that time plays on."""
    async with trio.open_nursery() as nursery:
        host = await in_process_host(
            nursery, grace=5.0, pause_after=20.0, abandon_after=100.0, bot_delay=0.5
        )
        connector = memory_connector(host, nursery)
        lobby = await open_link(connector)
        await lobby.send(create(RuleSet.of(2, 11), bots=1))
        empty = await answer(lobby, (m.TableCreated,))
        empty_id = empty.table.id  # type: ignore[attr-defined]
        await lobby.send(create(RuleSet.of(2, 11), bots=1))
        made = await answer(lobby, (m.TableCreated,))
        player = RawPlayer(lobby, made.table.id)  # type: ignore[attr-defined]
        await player.join()
        task = host.tables[player.table_id]
        await trio.sleep(21)
        assert empty_id not in host.tables
        await lobby.aclose()
        rnd = task.table.match.round if task.table.match else None
        await trio.sleep(10)  # grace over: the stand-in plays
        assert task.table.seats[player.seat].stand_in
        await trio.sleep(15)  # 25 s alone: paused
        moves = sum(s.seq for s in task.table.seats)
        await trio.sleep(30)
        assert sum(s.seq for s in task.table.seats) == moves, "the bots went on playing"
        assert rnd is None or player.table_id in host.tables
        await trio.sleep(50)
        assert player.table_id not in host.tables
        record = next(r for r in host.journal.tables() if r.table_id == str(player.table_id))
        assert record.summary
        assert record.summary.get("abandoned")
        assert record.summary["journal_entries"] > 10  # reported with the finish
        shown = describe_finished(record.table_id, record.finished, record.summary)
        assert "closed unfinished: everyone had left" in shown  # `scopa-net history`
        nursery.cancel_scope.cancel()


async def test_a_player_back_after_the_pause_plays_on(clock: trio.testing.MockClock) -> None:
    """Pass: a paused table whose player resumes plays on (the stand-in hands back, the
    player's move is acknowledged)."""
    from rawplayer import play_turn

    from scopa_net.bots.levels import make_player

    async with trio.open_nursery() as nursery:
        host = await in_process_host(
            nursery, grace=5.0, pause_after=20.0, abandon_after=100.0, bot_delay=1.0
        )
        connector = memory_connector(host, nursery)
        lobby = await open_link(connector)
        await lobby.send(create(RuleSet.of(2, 11), bots=1))
        made = await answer(lobby, (m.TableCreated,))
        player = RawPlayer(lobby, made.table.id)  # type: ignore[attr-defined]
        await player.join()
        await lobby.aclose()
        await trio.sleep(60)
        assert host.tables[player.table_id]._paused_at is not None
        await player.resume(await open_link(connector))
        table = host.tables[player.table_id].table
        assert isinstance(await play_turn(player, table, make_player("random", 1)), m.Ack)
        nursery.cancel_scope.cancel()


# --- rates and memory ------------------------------------------------------------------------


async def test_resumes_of_one_seat_are_rate_limited(clock: trio.testing.MockClock) -> None:
    """Pass (issue 16 item 10): with 3 resumes per 10 s, the fourth gets `error rate_limited`
    (its token still good), and once the window has passed the seat resumes again."""
    async with trio.open_nursery() as nursery:
        host = await in_process_host(nursery, resume_burst=3, resume_window=10.0)
        connector = memory_connector(host, nursery)
        lobby = await open_link(connector)
        await lobby.send(create(RuleSet.of(2, 11), bots=1))
        made = await answer(lobby, (m.TableCreated,))
        player = RawPlayer(lobby, made.table.id)  # type: ignore[attr-defined]
        await player.join()
        for _ in range(3):
            await player.resume(await open_link(connector))
        link = await open_link(connector)
        await link.send(
            m.Resume(table_id=player.table_id, seat=player.seat, token=player.token, last_seq=0)
        )
        refused = await answer(link, (m.Error, m.Resumed))
        assert isinstance(refused, m.Error), refused
        assert refused.code == "rate_limited", refused
        await trio.sleep(10)
        await player.resume(link)
        nursery.cancel_scope.cancel()


async def test_a_seats_log_keeps_only_what_a_resume_can_ask_for(
    clock: trio.testing.MockClock,
) -> None:
    """Pass (issue 16 item 10): with a replay limit of 20, after 200 lines of chat each seat's
    log in memory holds at most 40 events; a resume from long ago gets a snapshot, one from
    within the limit a replay of exactly the events it missed; and the table's chat stops at
    `max_chat_lines` with `rate_limited`. (A host that sends a snapshot of the present, as
    one of protocol 4: ours keeps every event of the latest round besides, 3.4.)"""
    async with trio.open_nursery() as nursery:
        host = await in_process_host(
            nursery,
            replay_limit=20,
            round_start_catch_up=False,
            chat_lines=10_000,
            request_burst=10_000,
            request_rate=10_000.0,
            max_chat_lines=200,
        )
        connector = memory_connector(host, nursery)
        lobby = await open_link(connector)
        await lobby.send(create(RuleSet.of(2, 11), bots=1))
        made = await answer(lobby, (m.TableCreated,))
        player = RawPlayer(lobby, made.table.id)  # type: ignore[attr-defined]
        await player.join()
        for i in range(200):
            await player.link.send(m.Say(text=f"line {i}"))
        await player.until(
            lambda: any(isinstance(r, m.Chat) and r.text == "line 199" for r in player.received)
        )
        await player.link.send(m.Say(text="one too many"))
        refused = await answer(player.link, (m.Error,))
        assert refused.code == "rate_limited", refused  # type: ignore[attr-defined]
        table = host.tables[player.table_id].table
        assert all(len(s.log) <= 40 for s in table.seats)
        seat = table.seats[player.seat]
        await player.until(lambda: player.seq == seat.seq)
        assert seat.base > 0
        newest = player.seq
        player.seq = 3
        resumed = await player.resume(await open_link(connector))
        assert resumed.catch_up == "snapshot"
        snap = await player.step()
        assert isinstance(snap, m.Snapshot)
        assert snap.seq >= newest
        newest = snap.seq
        player.seq = newest - 10
        resumed = await player.resume(await open_link(connector))
        assert resumed.catch_up == "replay"
        replayed = [await player.step() for _ in range(10)]
        assert [e.seq for e in replayed] == list(range(newest - 9, newest + 1))  # type: ignore[attr-defined]
        nursery.cancel_scope.cancel()
