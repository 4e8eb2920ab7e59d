"""Start a real host on loopback for end-to-end tests: in the test's own trio run
(``start_host``; the ``host`` and ``make_host`` fixtures), on memory streams for virtual time
(``start_memory_host``), or in a thread of its own for a test that runs a command, which
calls ``trio.run`` itself (``host_in_thread``; the ``threaded_host`` fixture)."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    NetworkSession,
    TableChoice,
    list_tables,
    open_network_session,
)
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.client.session import RoundStarted
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m

#: The ``make_host`` fixture's type: ``await make_host(**options)`` starts a host.
MakeHost = Callable[..., Awaitable[Host]]


async def start_host(nursery: trio.Nursery, db: str = ":memory:", **options: object) -> Host:
    """A host on 127.0.0.1 (any free port) running in ``nursery``; its journal is closed as
    it stops (shut down, or its nursery cancelled), as ``scopa-net host`` closes it."""
    config = HostConfig(bind="127.0.0.1", port=0, advertise=False, db=db, **options)  # type: ignore[arg-type]
    host = Host(config, Journal(db))
    await nursery.start(serve_then_close, host)
    return host


async def serve_then_close(
    host: Host, *, listen: bool = True, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED
) -> None:
    """``host.serve()``, then its journal closed whatever ended it: a test that reads the
    journal does so while the host runs, or opens it again."""
    try:
        await host.serve(listen=listen, task_status=task_status)
    finally:
        host.journal.close()


async def serve_journal_in_virtual_time(db: str, *, task_status: trio.TaskStatus[Host]) -> None:
    """A host on the journal ``db``, serving memory streams until cancelled, its journal
    written in this thread (virtual time: no worker thread for the clock to jump past)."""
    config = HostConfig(db=db, advertise=False, grace=60.0, bot_delay=0.5)  # type: ignore[arg-type]
    host = Host(config, Journal(db))
    host.writer.threaded = False
    async with trio.open_nursery() as nursery:
        await nursery.start(partial(serve_then_close, host, listen=False))
        task_status.started(host)


async def start_journal_host_to_stop(
    nursery: trio.Nursery, db: str
) -> tuple[Host, trio.CancelScope]:
    """A host on the journal ``db`` in virtual time (:func:`serve_journal_in_virtual_time`),
    and the scope whose cancel stops it where it stands, as a host killed."""
    scope = trio.CancelScope()

    async def stoppable(*, task_status: trio.TaskStatus[Host]) -> None:
        with scope:
            await serve_journal_in_virtual_time(db, task_status=task_status)

    return await nursery.start(stoppable), scope


async def play_one_match(
    db: str,
    rules: RuleSet | None = None,
    *,
    linger_out: bool = False,
    name: str = "ann",
    **options: object,
) -> None:
    """Ann plays a whole match against a computer player (random plays) at a table of a host
    over the journal ``db`` (a two-player match to 2 points by default), then the host stops
    and its journal is closed: a journal with one finished match in it. ``linger_out``: the
    host stops once the table has closed (its linger time over), not as the match ends.
    Ann offers a rematch vote and never answers (a "no" would close the table at once).
    ``name``: the person's name, another than Ann's."""
    from scopa_net.bots.levels import make_player
    from scopa_net.client.bot_client import play_as_bot
    from scopa_net.client.network_session import TableChoice, open_network_session

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, db=db, **options)
            choice = TableChoice(create=create(rules or RuleSet.of(2, 2), bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name=name, offer_rematch=True
            ) as s:
                await play_as_bot(s, make_player("random", 2))
            while linger_out and host.tables:
                await trio.sleep(0.05)
            await host.shutdown()
            nursery.cancel_scope.cancel()
    host.journal.close()


class _UntilRoundOver:
    """A session whose events end after the first round's result: the bot stops there."""

    def __init__(self, session: Any) -> None:
        self._session = session
        self.events = self

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    async def receive(self) -> object:
        from scopa_net.client.session import RoundOver

        event = await self._session.events.receive()
        if isinstance(event, RoundOver):
            raise trio.EndOfChannel
        return event


async def play_one_round(db: str, rules: RuleSet | None = None) -> None:
    """As :func:`play_one_match`, but Ann leaves after the first round of a match to 11 and
    the host stops: a journal with one table whose match is still in play."""
    from scopa_net.bots.levels import make_player
    from scopa_net.client.bot_client import play_as_bot
    from scopa_net.client.network_session import TableChoice, open_network_session

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, db=db)
            choice = TableChoice(create=create(rules or RuleSet.of(2, 11), bots=1))
            async with open_network_session("127.0.0.1", host.port, choice, name="ann") as s:
                await play_as_bot(_UntilRoundOver(s), make_player("random", 2))  # type: ignore[arg-type]
            await host.shutdown()
            nursery.cancel_scope.cancel()
    host.journal.close()


async def start_memory_host(nursery: trio.Nursery, **options: object) -> tuple[Host, Network]:
    """A host that listens on no socket, journal in memory, and the ``Network`` of memory
    streams that reaches it: for tests in virtual time (trio's autojump clock)."""
    config = HostConfig(db=":memory:", advertise=False, **options)  # type: ignore[arg-type]
    host = Host(config, Journal(":memory:"))
    await nursery.start(partial(serve_then_close, host, listen=False))
    return host, Network(host, nursery)


@dataclass(frozen=True)
class HostThread:
    """A host running in a thread of its own (see ``host_in_thread``)."""

    host: Host
    token: trio.lowlevel.TrioToken

    @property
    def port(self) -> int:
        return self.host.port

    @property
    def address(self) -> str:
        """``127.0.0.1:PORT``, as a person types it after ``scopa-net join``."""
        return f"127.0.0.1:{self.host.port}"

    def call(self, function: Callable[..., Awaitable[Any]], *args: object) -> Any:
        """``await function(*args)`` in the host's thread (its trio run), from this one."""
        return trio.from_thread.run(function, *args, trio_token=self.token)


@contextlib.contextmanager
def host_in_thread(db: str = ":memory:", **options: object) -> Iterator[HostThread]:
    """A host on 127.0.0.1 (any free port) in a thread of its own, as ``start_host`` makes it;
    it stops (and its thread ends) when the block ends."""
    ready = threading.Event()
    started: list[HostThread] = []
    stop = threading.Event()
    failure: list[BaseException] = []

    async def serve() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, db, **options)
            started.append(HostThread(host, trio.lowlevel.current_trio_token()))
            ready.set()
            await trio.to_thread.run_sync(stop.wait, abandon_on_cancel=True)
            nursery.cancel_scope.cancel()
        host.journal.close()

    def run() -> None:
        try:
            trio.run(serve)
        except BaseException as exc:  # told to the test below, not lost in the thread
            failure.append(exc)
        finally:
            ready.set()

    thread = threading.Thread(target=run, name="host", daemon=True)
    thread.start()
    try:
        assert ready.wait(30), "the host did not start within 30 s"
        if failure:
            raise failure[0]
        yield started[0]
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive(), "the host's thread did not end within 30 s"
    if failure:
        raise failure[0]


def host_command(db: object, port: int, *flags: str) -> list[str]:
    """The argv of a ``scopa-net host`` process on 127.0.0.1:``port`` with its journal in
    ``db``, not announced on the LAN, logging warnings only, with ``flags`` after."""
    return [
        *(sys.executable, "-m", "scopa_net", "host", "--host", "127.0.0.1", "--port", str(port)),
        *("--db", str(db), "--no-advertise", "--log-level", "WARNING", *flags),
    ]


async def until_answering(port: int) -> None:
    """Returns once something listens at 127.0.0.1:``port`` (a connection opens, and is
    closed at once), trying every 50 ms: the caller bounds the wait."""
    while True:
        try:
            await (await trio.open_tcp_stream("127.0.0.1", port)).aclose()
            return
        except OSError:
            await trio.sleep(0.05)


async def start_host_process(
    db: Path, port: int, *, first: bool, log: Path, extra: tuple[str, ...] = ()
) -> trio.Process:
    """``scopa-net host`` as a process of its own on 127.0.0.1:``port`` (``host_command``), its
    journal in ``db``, computer players moving at once, its stderr appended to ``log``. With
    ``first`` it opens a table for one person and an easy computer player to 4 (with ``extra``
    flags, such as ``--blind``) and returns once the table is listed; without, once the port
    answers (a restart on the same journal)."""
    args = host_command(db, port, "--bot-delay", "0")
    if first:
        args += ["--players", "2", "--bots", "1", "--bot-level", "easy", "--target", "4", *extra]
    with log.open("ab") as stderr:
        proc = await trio.lowlevel.open_process(args, stderr=stderr)
    with trio.fail_after(20):
        await until_answering(port)
        # The host listens before it opens its first table: wait until the table is there.
        while first and not await list_tables("127.0.0.1", port):
            await trio.sleep(0.05)
    return proc


def create(
    rules: RuleSet,
    bots: int = 0,
    level: int = 1,
    password: str | None = None,
    *,
    blind: bool = False,
) -> m.CreateTable:
    return m.CreateTable(
        name="test table",
        rules=m.RulesInfo.of(rules),
        password=password,
        bots=bots,
        bot_level=level,
        blind=blind,
    )


def open_lan_game(
    data_dir: Path, **options: object
) -> contextlib.AbstractAsyncContextManager[NetworkSession]:
    """Ada's ``play --lan`` against a random computer player to 11, its host on loopback
    (nothing announced, any free port unless ``port`` says), her client's data in
    ``data_dir``; ``options`` as ``open_embedded_game`` takes them."""
    from scopa_net.client.embedded import open_embedded_game

    return open_embedded_game(
        RuleSet.of(2, 11),
        name="Ada",
        level="random",
        delay=0,
        lan=True,
        bind="127.0.0.1",
        data_dir=data_dir,
        **{"port": 0, **options},  # type: ignore[arg-type]
    )


async def bruno_leaves_once_dealt(port: int) -> None:
    """Bruno (over a real client) sits in seat 1 of table 1 at the host on ``port`` and leaves
    for good once round 1 is dealt: his seat opens."""
    async with open_network_session(
        "127.0.0.1", port, TableChoice(table_id=1, seat=1), name="Bruno"
    ) as session:
        async for event in session.events:
            if isinstance(event, RoundStarted):
                break
        await session.leave()


async def ada_plays_a_match_with_bruno(
    data: Path,
    table: m.CreateTable,
    bruno: Callable[[int, int], Awaitable[None]],
    seconds: float,
) -> tuple[bytes, bytes, bytes]:
    """Ada (her client's data in ``data``) opens ``table`` at a real host (loopback TCP) and
    plays the whole match at random, ``bruno(port, table_id)`` sitting down beside her. Ada's
    saved transcript, the host's export of her seat's, and the host's key."""
    with trio.fail_after(seconds):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0.0, grace=600)
            choice = TableChoice(create=table)
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=data
            ) as ada:
                nursery.start_soon(bruno, host.port, ada.table_id)
                over = await play_as_bot(ada, make_player("random", 7))
                assert over is not None
                seat, table_id = ada.seat, ada.table_id
            exported = host.tables[table_id].table.transcript_for(seat).encode()
            key = host.public_key
            nursery.cancel_scope.cancel()
    (saved,) = (data / "transcripts").glob("*.scopa")
    return saved.read_bytes(), exported, key


async def ada_keeps_a_seat(port: int, data: Path) -> None:
    """Ada opens a table for two with a computer player at the host on ``port``, her client
    (its data in ``data``) keeping her seat on disk, and stops."""
    store = SeatStore(data)
    choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
    async with open_network_session(
        "127.0.0.1", port, choice, name="Ada", data_dir=data, store=store
    ):
        (record,) = store.records()
    store.release(record)


def seat_kept_at_a_host_that_stopped(db: str, data: Path) -> int:
    """Ada's seat kept on disk (in ``data``) by a client that stopped, at a host over the
    journal ``db`` that stopped since; returns the port it listened on."""
    with host_in_thread(db, bot_delay=0.01, grace=600) as first:
        trio.run(ada_keeps_a_seat, first.port, data)
        return first.port


def seat_kept_for_join(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, int, SeatRecord, bytes]:
    """A ``scopa-net join`` run with its data and config in ``tmp_path``, where Ada's seat is
    kept at a host that stopped (``seat_kept_at_a_host_that_stopped``, its journal
    ``tmp_path/host.db``): the data folder, the port the host listened on, the seat's record
    and the host's key."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    data = tmp_path / "scopa-net"
    old = seat_kept_at_a_host_that_stopped(str(tmp_path / "host.db"), data)
    (record,) = SeatStore(data).records()
    return data, old, record, bytes.fromhex(record.host_key)


class Through(trio.abc.Stream):
    """A connection that passes everything on to ``inner``: a test's wrapper overrides what it
    watches or changes (``send_all``, ``receive_some``) and keeps the rest."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner = inner

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.inner.aclose()


class Cuttable(Through):
    """A connection the test cuts (``cut.set()``), as a network that drops it: the client
    reads its end."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self.cut = trio.Event()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        async with trio.open_nursery() as both:

            async def cut() -> None:
                await self.cut.wait()
                both.cancel_scope.cancel()

            both.start_soon(cut)
            data = await self.inner.receive_some(max_bytes)
            both.cancel_scope.cancel()
            return data
        await self.inner.aclose()
        return b""


class Holding(Through):
    """A connection whose incoming bytes can be held back for a while, as from a host that
    was stopped (``kill -STOP``): what arrives meanwhile is kept, and passed on, in order,
    once ``hold_for`` has run its time."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self._open = trio.Event()
        self._open.set()
        self._kept = b""

    async def hold_for(self, seconds: float) -> None:
        self._open = trio.Event()
        await trio.sleep(seconds)
        self._open.set()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if not self._kept:
            self._kept = bytes(await self.inner.receive_some(max_bytes))
        await self._open.wait()  # cancelled here, the bytes are kept for the next call
        data, self._kept = self._kept, b""
        return data


class Network:
    """Memory-stream connections to an in-process host, with a switch to cut them all."""

    def __init__(self, host: Host, nursery: trio.Nursery) -> None:
        self.host = host
        self.nursery = nursery
        self.up = True
        self.client_ends: list[trio.abc.Stream] = []

    async def connect(self) -> trio.abc.Stream:
        if not self.up:
            raise OSError("network is down")
        client, server = trio.testing.memory_stream_pair()
        self.nursery.start_soon(self.host.handle_stream, server, "mem", "mem")
        self.client_ends.append(client)
        return client

    async def go_down(self) -> None:
        self.up = False
        for end in self.client_ends:
            await trio.aclose_forcefully(end)
        self.client_ends.clear()


@dataclass
class HostProcess:
    """A ``scopa-net host`` process started by ``host_process``, and what it printed."""

    proc: subprocess.Popen[str]
    out: list[str]
    """The lines it printed on stdout, up to the one saying how to join."""

    def stop(self) -> tuple[int, str, str]:
        """Ctrl-C, as a person stops it: its exit status, the rest of stdout, and stderr."""
        self.proc.send_signal(signal.SIGINT)
        rest, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, rest, err


def host_process(argv: list[str], env: dict[str, str]) -> HostProcess:
    """Start ``argv`` (a ``scopa-net host`` command on 127.0.0.1) and return once it printed
    the line that says how players join, its stdout read so far; killed if it never does."""
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    out: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # ends if the process does
            out.append(line.rstrip("\n"))
            if "join with: scopa-net join" in line:  # on 127.0.0.1: the last line at start
                return HostProcess(proc, out)
        raise AssertionError(f"the host stopped: {out} {proc.communicate(timeout=30)}")
    except BaseException:
        proc.kill()
        proc.communicate(timeout=30)
        raise


class CutOff:
    """A person's network: connections to the host that can all be cut, and new ones refused
    until it is up again (a laptop's lid closed: the client keeps trying, as after
    ``kill -STOP``). ``wrap``: what each new connection goes through (a held message, say)."""

    def __init__(
        self, port: int, *, wrap: Callable[[trio.abc.Stream], trio.abc.Stream] | None = None
    ) -> None:
        self.port = port
        self.up = True
        self.wrap = wrap
        self.streams: list[trio.abc.Stream] = []

    async def connect(self) -> trio.abc.Stream:
        if not self.up:
            raise OSError("network is down")
        stream: trio.abc.Stream = await trio.open_tcp_stream("127.0.0.1", self.port)
        self.streams.append(stream if self.wrap is None else self.wrap(stream))
        return self.streams[-1]

    async def cut(self) -> None:
        self.up = False
        for stream in self.streams:
            await trio.aclose_forcefully(stream)
        self.streams.clear()
