"""The host: accepts connections, keeps the lobby, runs one task per table.

:meth:`Host.serve` opens the journal's tables again (a host killed and restarted on the same
database resumes every table at its last committed entry), starts listening, and runs until
cancelled. :meth:`Host.shutdown` stops accepting, says goodbye to every connection and lets the
journal finish what it was writing.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import logging
import os
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import trio
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

try:
    import resource
except ImportError:  # Windows: no descriptor limit to read or raise
    resource = None  # type: ignore[assignment]

from scopa_net.fair.commitments import fingerprint, public_key_bytes
from scopa_net.names import NAME_CHARS, clean_table_name, unique_name
from scopa_net.rules import RuleSet
from scopa_net.server import collector, table_task
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.config import HostConfig
from scopa_net.server.journal import CLOSED_KEY, Journal, TableRecord
from scopa_net.server.journal_writer import JournalWriter
from scopa_net.server.outbox import Outbox
from scopa_net.server.session import PlayerSession, drain
from scopa_net.server.table import OLDER_JOURNAL, OlderJournalError, Phase, Table
from scopa_net.server.table_task import TableTask, password_hash
from scopa_net.wire import messages as m
from scopa_net.wire.codec import encode
from scopa_net.wire.errors import ErrorCode
from scopa_net.wire.listing import tables_that_fit

log = logging.getLogger("scopa_net.host")

HOST_KEY = "host_key"
SPARE_DESCRIPTORS = 64
"""File descriptors kept back from connections: the journal, its worker, the listeners, the
LAN announcement, and one to accept a connection with and refuse it."""
OUT_OF_DESCRIPTORS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


def connection_cap(configured: int | None) -> int:
    """How many connections the host serves at once: ``configured``, or else what the file
    descriptor limit allows, after raising its soft limit to the hard one where allowed."""
    if resource is None:
        return configured or 1000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 65536 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    derived = max(8, soft - SPARE_DESCRIPTORS)
    return derived if configured is None else min(configured, derived)


def host_key_path(journal_path: str) -> Path:
    """The host key's own file, beside the journal (``host.db`` -> ``host.key``)."""
    return Path(journal_path).with_suffix(".key")


def load_host_key(journal: Journal) -> Ed25519PrivateKey:
    """The host's long-lived signing key, made on first start.

    Players pin it, so it lives in a file of its own beside the journal (PEM, readable by
    its owner only) and survives a journal that is lost or deleted. A journal from before
    the key had a file holds it: it is copied out to the file. ``:memory:`` keeps it in the
    journal only."""
    if journal.path == ":memory:":
        key = _key_in_journal(journal) or Ed25519PrivateKey.generate()
        journal.set_meta(HOST_KEY, key.private_bytes_raw())
        return key
    path = host_key_path(journal.path)
    found = read_host_key(journal)
    if found is not None and path.exists():
        return found
    key = found or Ed25519PrivateKey.generate()
    _write_private(
        path,
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )
    return key


def read_host_key(journal: Journal) -> Ed25519PrivateKey | None:
    """The host's key as :func:`load_host_key` finds it (its file beside the journal, or an
    older journal's own copy), never made anew: None if there is none. For what reads a
    journal without hosting it (``history``): a key made there would sign what it exports
    under a key no player ever pinned. ValueError for a key file that holds no key."""
    if journal.path != ":memory:":
        path = host_key_path(journal.path)
        if path.exists():
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
            if not isinstance(key, Ed25519PrivateKey):
                raise ValueError(f"{path} does not hold an Ed25519 key")
            return key
    return _key_in_journal(journal)


def _key_in_journal(journal: Journal) -> Ed25519PrivateKey | None:
    """The key a journal holds itself (one kept in memory, or from before the key had a
    file of its own)."""
    stored = journal.get_meta(HOST_KEY)
    if isinstance(stored, bytes) and len(stored) == 32:
        return Ed25519PrivateKey.from_private_bytes(stored)
    return None


def _write_private(path: Path, data: bytes) -> None:
    """Write a file only its owner can read, whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def tables(count: int) -> str:
    """``1 table``, ``16 tables``."""
    return f"{count} table" if count == 1 else f"{count} tables"


class Host:
    def __init__(self, config: HostConfig, journal: Journal | None = None) -> None:
        self.config = config
        self.journal = journal if journal is not None else Journal(config.db)
        self.key = load_host_key(self.journal)
        self.public_key = public_key_bytes(self.key)
        self.writer = JournalWriter(
            self.journal, threaded=self.journal.path != ":memory:", on_trouble=self._storage_trouble
        )
        self.tables: dict[int, TableTask] = {}
        self._journal_down_at = 0.0
        """When the journal last began to refuse writes (trio's clock)."""
        self._next_id = 1
        self._per_address: Counter[str] = Counter()
        self.max_connections = connection_cap(config.max_connections)
        self._refusing: str | None = None
        """Why connections are being refused, once the first of a burst is logged: the
        rest are counted (:attr:`_refused_quietly`), and the count logged once one is
        taken again (a peer connecting over and over must not fill the organiser's screen)."""
        self._refused_quietly = 0
        self._owner: dict[int, str] = {}
        """The address that created each table a player opened (held to its quota)."""
        self._settings: dict[int, dict] = {}
        """Each table's settings, as its journal records them."""
        self._reserved = 0
        """Tables being created (their journal write under way), counted against the limit."""
        self._sessions: set[PlayerSession] = set()
        self._nursery: trio.Nursery | None = None
        self._listen_scope = trio.CancelScope()
        self.port: int | None = None
        self.stopped = trio.Event()
        self.stopping = False
        """:meth:`shutdown` began: every table is frozen, one opened meanwhile too."""
        self.on_restored: Callable[[int, int], None] | None = None
        """Told (tables restored, tables to restore) as a restart restores its tables."""
        self.closed_at_restore: dict[int, tuple[str, str]] = {}
        """Tables the restart closed instead of restoring them: (name, why) by table."""

    # --- running ------------------------------------------------------------------------

    async def serve(
        self, *, listen: bool = True, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """Run the host; reports the port it listens on once it accepts connections.

        Without ``listen`` it runs its tables only; connections come in by
        :meth:`handle_stream` (tests over memory streams do this).
        """
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self.writer.run)
            nursery.start_soon(self._watch_journal_file)
            nursery.start_soon(self._give_back_memory)
            nursery.start_soon(collector.sweep_now_and_then)
            self._restore_tables()
            if not listen:
                task_status.started(0)
                await self.stopped.wait()
                nursery.cancel_scope.cancel()
                return
            listeners = await nursery.start(self._listen, nursery)
            self.port = listeners[0].socket.getsockname()[1]
            log.info(
                "host %r listening on %s:%s, key %s",
                self.config.name,
                self.config.bind,
                self.port,
                fingerprint(self.public_key),
            )
            task_status.started(self.port)
            await self.stopped.wait()
            nursery.cancel_scope.cancel()

    async def _listen(
        self, nursery: trio.Nursery, *, task_status: trio.TaskStatus = trio.TASK_STATUS_IGNORED
    ) -> None:
        with self._listen_scope:
            listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.bind)
            task_status.started(listeners)
            async with trio.open_nursery() as accepting:
                for listener in listeners:
                    accepting.start_soon(self._accept, listener, nursery)

    async def _accept(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        """Accept connections; out of file descriptors, wait and say so once per burst."""
        refused = 0
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:
                    if exc.errno not in OUT_OF_DESCRIPTORS:
                        raise
                    if refused == 0:
                        log.error(
                            "cannot accept connections (%s) with %s open; waiting for some "
                            "to close",
                            os.strerror(exc.errno or 0),
                            len(self._sessions),
                        )
                    refused += 1
                    await trio.sleep(0.1)
                    continue
                if refused:
                    log.warning("accepting connections again (after %s tries)", refused)
                    refused = 0
                nursery.start_soon(self._handle, stream)

    async def shutdown(self, grace: float = 2.0) -> None:
        """Stop accepting, freeze every table (nothing new is dealt, played or journaled:
        the journal keeps what the players were told), tell every connection, let writes
        finish, then stop."""
        self._listen_scope.cancel()
        self.stopping = True
        for task in self.tables.values():
            task.stopping = True  # frozen; its players going away is the host's doing
        for session in list(self._sessions):
            session.outbox.close(
                m.Bye(reason=ErrorCode.SHUTTING_DOWN.value, message="the host is shutting down")
            )
        with trio.move_on_after(grace):
            while self._sessions:
                await trio.sleep(0.05)
        with trio.move_on_after(grace if self.writer.failing else 60.0):
            await self.writer.call(lambda journal: None)  # everything before this is on disk
        if self.writer.failing is not None:
            log.error("stopping with journal writes still refused: the last moves are lost")
        self.stopped.set()

    async def _handle(self, stream: trio.SocketStream) -> None:
        try:
            peer = stream.socket.getpeername()
        except OSError:
            await trio.aclose_forcefully(stream)
            return
        await self.handle_stream(stream, str(peer[0]), f"{peer[0]}:{peer[1]}")

    async def handle_stream(self, stream: trio.abc.Stream, address: str, name: str) -> None:
        """Serve one connection (a TCP stream, or any stream in tests); never raises."""
        refusal = None
        if len(self._sessions) >= self.max_connections:
            refusal = f"the host is full ({self.max_connections} connections); try later"
        elif self._per_address[address] >= self.config.max_connections_per_address:
            refusal = (
                f"at most {self.config.max_connections_per_address} connections from one address"
            )
        if refusal is not None:
            await self._refuse(stream, name, refusal)
            return
        if self._refusing is not None:
            if self._refused_quietly:
                log.info(
                    "%s more connections refused since (%s)", self._refused_quietly, self._refusing
                )
            self._refusing, self._refused_quietly = None, 0
        session = PlayerSession(self, stream, name, address=address)
        counted = False
        try:
            self._per_address[address] += 1
            counted = True
            self._sessions.add(session)
            log.debug("connection %s opened", name)  # its player's table says who came
            await session.run()
        except Exception:
            log.exception("connection %s failed", name)
        finally:
            self._sessions.discard(session)
            if counted:
                self._per_address[address] -= 1
                if not self._per_address[address]:
                    del self._per_address[address]  # (an address is not kept once gone)
            log.debug("connection %s closed", name)
            await trio.aclose_forcefully(stream)

    async def _refuse(self, stream: trio.abc.Stream, name: str, why: str) -> None:
        """Say ``bye too_many_connections`` before anything else (no ``welcome``) and close;
        logged for the first of a burst refused so, counted for the rest."""
        if why == self._refusing:
            self._refused_quietly += 1
        else:
            if self._refused_quietly:
                log.info(
                    "%s more connections refused since (%s)", self._refused_quietly, self._refusing
                )
            log.info("connection %s refused: %s", name, why)
            self._refusing, self._refused_quietly = why, 0
        bye = m.Bye(reason=ErrorCode.TOO_MANY_CONNECTIONS.value, message=why[: m.TEXT_LEN])
        with trio.move_on_after(1.0):
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await stream.send_all(encode(bye))
        await drain(stream, 0.25)  # briefly: a flood of refusals must not hold descriptors
        await trio.aclose_forcefully(stream)

    # --- storage ------------------------------------------------------------------------

    def _storage_trouble(self, fault: BaseException | None) -> None:
        """The journal cannot be written (``fault``), or can again (None): tell the players.

        While it fails, every table waits for its write; each seated player is told once, and
        requests that would need a write are refused with ``storage`` (3.8) until it is back,
        when each table says so in its chat."""
        if fault is not None:
            text = (
                "the host cannot save the game (its disk refuses writes); play waits and "
                "nothing is lost; it carries on when it can save again"
            )
            self._journal_down_at = trio.current_time()
            for session in list(self._sessions):
                if session.seated:
                    session.outbox.reply(
                        m.Error(code=ErrorCode.STORAGE.value, message=text[: m.TEXT_LEN], ref=None)
                    )
            return
        outage = trio.current_time() - self._journal_down_at
        for task in list(self.tables.values()):
            task.notice("the host can save the game again; play on", outage=outage)

    async def _watch_journal_file(self) -> None:
        """Every ``journal_check`` seconds: is the journal file still where it was opened?

        A journal deleted under a running host would take every table with it at the next
        start: the host says so and writes a fresh copy from the database it still has open."""
        if self.journal.path == ":memory:":
            return
        failed: list[Exception] = []

        def write_again(journal: Journal) -> None:
            try:
                journal.write_again()
            except Exception as exc:  # reported below; the journal stays as it was
                failed.append(exc)

        while True:
            await trio.sleep(self.config.journal_check)
            if not self.journal.file_missing():
                continue
            if not failed:
                log.error(
                    "journal %s was deleted or replaced while the host runs; writing it "
                    "again from the open database",
                    self.journal.path,
                )
            reported = len(failed)
            await self.writer.call(write_again)
            if len(failed) > reported:
                if reported == 0:
                    log.error(
                        "journal %s: cannot write it again: %s", self.journal.path, failed[-1]
                    )
                continue
            failed.clear()
            log.warning("journal %s: written again; nothing was lost", self.journal.path)

    # --- memory -------------------------------------------------------------------------

    async def _give_back_memory(self) -> None:
        """Return freed heap to the system now and then (glibc keeps it otherwise).

        A burst of connections or a flood of frames leaves the C heap high after Python has
        freed everything: after 1500 hostile connections the host's RSS went from 48 to 61 MB
        with nothing of ours still held, and back to 57 MB after ``malloc_trim``."""
        trim = _malloc_trim()
        if trim is None:
            return
        while True:
            await trio.sleep(self.config.memory_trim_interval)
            trim(0)

    # --- the lobby ----------------------------------------------------------------------

    def _live_tables(self) -> list[Table]:
        """Tables whose match is not over (a finished one lingers, but is not listed)."""
        return [t.table for t in self.tables.values() if t.table.phase is not Phase.OVER]

    def table_infos(self) -> tuple[m.TableInfo, ...]:
        """The tables a newcomer can join: still in play, with a seat open."""
        joinable = (t for t in self._live_tables() if not t.full)
        return tables_that_fit(t.info() for t in joinable)  # the oldest that one frame holds

    @property
    def open_seats(self) -> int:
        return sum(1 for t in self._live_tables() for i in range(len(t.seats)) if t.open_to(i))

    @property
    def open_seats_behind_password(self) -> int:
        """Open seats at tables that ask for a password (the LAN announcement says how many:
        a full table with a password is no reason to say "password")."""
        return sum(
            1
            for task in self.tables.values()
            if task.password_digest is not None and task.table.phase is not Phase.OVER
            for i in range(len(task.table.seats))
            if task.table.open_to(i)
        )

    async def create_table_for(
        self, outbox: Outbox, msg: m.CreateTable, address: str | None = None
    ) -> None:
        try:
            task = await self.create_table(
                msg.name,
                msg.rules.to_rules(),
                msg.password,
                msg.bots,
                msg.bot_level,
                owner=address,
                blind=msg.blind,
            )
        except TooManyTablesError as exc:
            outbox.reply(
                m.Error(code=ErrorCode.TOO_MANY_TABLES.value, message=str(exc), ref=msg.TYPE)
            )
            return
        outbox.reply(m.TableCreated(table=task.table.info()))

    async def create_table(
        self,
        name: str,
        rules: RuleSet,
        password: str | None = None,
        bots: int = 0,
        bot_level: int = 2,
        *,
        owner: str | None = None,
        blind: bool = False,
    ) -> TableTask:
        """Open a table. ``owner``: the address asking, held to its quota of tables (None for
        the host's own). The limits are checked and the place reserved before any wait, so
        requests at once cannot overshoot them."""
        live = sum(1 for table_id in self.tables if self._counts(table_id)) + self._reserved
        if live >= self.config.max_tables:
            raise TooManyTablesError(
                f"this host already runs {tables(live)}, as many as it allows; "
                "join one of them, or try again once one has finished"
            )
        quota = self.config.max_tables_per_address
        if owner is not None and self._tables_of(owner) >= quota:
            raise TooManyTablesError(
                f"at most {tables(quota)} from one address; finish or leave one first"
            )
        table_id = self._next_id
        self._next_id += 1
        name = clean_table_name(name) or f"table {table_id}"  # shown in every lobby listing
        # Two tables with one name cannot be told apart: the second is 'name (2)'. A table
        # whose match is over counts (a rematch puts it in play again), one revived by a
        # restart too; one closed for good does not (no match is played there again).
        taken = (t.table.name for t in self.tables.values() if not t.closed_for_good)
        name = unique_name(name, taken, columns=NAME_CHARS)  # a table's name: 32 columns
        self._reserved += 1
        if owner is not None:
            self._owner[table_id] = owner
        settings = table_settings(name, rules, password, bots, bot_level, blind=blind)
        created = time.time()
        try:
            await self.writer.call(lambda j: j.create_table(str(table_id), created, settings))
        except BaseException:
            self._table_gone(table_id)
            raise
        finally:
            self._reserved -= 1
        task = self._start_table(table_id, settings, expires=owner is not None)
        kind = "; blind" if blind else ""
        log.log(
            logging.DEBUG if owner is None else logging.INFO,  # the host's own: said on stdout
            "table %s created: %r, %s%s",
            table_id,
            name,
            rules.describe(),
            kind,
        )
        return task

    def settings_of(self, table_id: int) -> dict:
        """The settings table ``table_id`` was opened with (see :func:`table_settings`)."""
        return dict(self._settings[table_id])

    def open_table_like(self, settings: dict) -> TableTask | None:
        """A table with these settings (see :func:`table_settings`) whose match is not over,
        waiting for players or in play, if there is one: a restarted host resumes its own
        table rather than open another like it. Settings without a name ask for a table named
        by its number, as :meth:`create_table` names one ("table 2")."""
        for table_id, task in self.tables.items():
            if task.table.phase is Phase.OVER or task.closed_for_good:
                continue
            asked = settings if settings["name"] else {**settings, "name": f"table {table_id}"}
            if same_table(self._settings[table_id], asked):
                return task
        return None

    def _start_table(
        self,
        table_id: int,
        settings: dict,
        entries: list[tuple[str, dict]] | None = None,
        *,
        finish_recorded: bool = False,
        expires: bool = True,
    ) -> TableTask:
        rules = RuleSet.of(settings["players"], settings["target"], settings["variants"])
        bots = settings["bots"]
        kind = BlindTable if settings.get("blind") else Table
        table = kind(
            table_id,
            settings["name"],
            rules,
            self.key,
            password=settings["password"] is not None,
            bots=bots,
            bot_level=settings["bot_level"] if bots else None,
        )
        restored = entries is not None
        if entries:
            table.replay(entries)
        task = TableTask(
            table,
            self.config,
            self.writer,
            password_digest=settings["password"],
            expires=expires,
        )
        task.journal_entries = len(entries or ())
        task.stopping = self.stopping  # opened as the host stops: frozen as the others
        self.tables[table_id] = task
        self._settings[table_id] = settings
        assert self._nursery is not None
        self._nursery.start_soon(self._run_table, task, restored, finish_recorded)
        return task

    async def _run_table(self, task: TableTask, restored: bool, finish_recorded: bool) -> None:
        try:
            if restored:
                await task.start_after_restart(finish_recorded=finish_recorded)
            await task.run()
        except Exception:
            log.exception("table %s failed", task.table.table_id)
            task.stopped_by_a_fault()
        finally:
            self.tables.pop(task.table.table_id, None)
            self._settings.pop(task.table.table_id, None)
            self._table_gone(task.table.table_id)

    def _counts(self, table_id: int) -> bool:
        """Whether a table counts against the limits on tables (protocol.md 3.3): one being
        created, in play or waiting, or over with a rematch still possible; not one whose
        match is over for good (it only lingers, 3.11)."""
        task = self.tables.get(table_id)
        return task is None or not task.table.done_for_good

    def _tables_of(self, owner: str) -> int:
        """The tables an address created that count against its quota."""
        return sum(1 for t, o in self._owner.items() if o == owner and self._counts(t))

    def _table_gone(self, table_id: int) -> None:
        self._owner.pop(table_id, None)

    def _restore_tables(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # for history only: never a reason not to start
            self.journal.host_started(time.time())
        records = self.journal.tables()
        if records:
            self._next_id = max(int(r.table_id) for r in records) + 1
        now = time.time()
        records = [r for r in records if not closed_for_good(r) and not self._vote_ran_out(r, now)]
        for done, record in enumerate(records, 1):
            entries = [(e.kind, e.payload) for e in self.journal.entries(record.table_id)]
            try:
                task = self._start_table(
                    int(record.table_id),
                    record.settings,
                    entries,
                    finish_recorded=record.finished is not None,
                )
            except OlderJournalError as exc:
                self._close_older(record, str(exc), now)
                if self.on_restored is not None:
                    self.on_restored(done, len(records))
                continue
            log.log(
                logging.DEBUG if self.on_restored else logging.INFO,
                "table %s restored at round %s (%s)",
                record.table_id,
                task.table.round_no,
                task.table.phase.value,
            )
            if self.on_restored is not None:
                self.on_restored(done, len(records))

    def _close_older(self, record: TableRecord, found: str, now: float) -> None:
        """Close a table whose journal an older scopa-net wrote and this one cannot replay
        (``found``: what it found). A match over keeps its result; one in play is closed
        unfinished, saying why, for ``history``, the restart's line and a resume refused."""
        if record.finished is not None:
            self.journal.close_table(record.table_id)
        else:
            summary = {"abandoned": True, "closed": OLDER_JOURNAL}
            self.journal.finish_table(record.table_id, now, summary)
        self.closed_at_restore[int(record.table_id)] = (
            str(record.settings.get("name") or ""),
            OLDER_JOURNAL,
        )
        log.warning("%s, which this scopa-net cannot go on with; the table is closed", found)

    def _vote_ran_out(self, record: TableRecord, now: float) -> bool:
        """Whether a finished table's rematch vote ran out while the host was stopped (by the
        wall clock: its minute after the match's end is over). It is then closed for good,
        as it would have closed had the host run on, and not revived: a match that ended
        just before a quick restart comes back, so its players can still read the end and
        vote; yesterday's does not."""
        if not past_its_vote(record, now):
            return False
        self.journal.close_table(record.table_id)
        ended = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.finished))
        log.info(
            "table %s closed: its match ended at %s and its minute to play again is over",
            record.table_id,
            ended,
        )
        return True


def closed_for_good(record: TableRecord) -> bool:
    """Whether the journal says the table closed for good: abandoned (everyone had left), or
    closed after its match before the host stopped. A start does not bring it back."""
    summary = record.summary or {}
    return bool(summary.get("abandoned") or summary.get(CLOSED_KEY))


def past_its_vote(record: TableRecord, now: float) -> bool:
    """Whether a finished table's minute to play again (its rematch vote) is over at ``now``
    by the wall clock: a start then closes it instead of bringing it back."""
    return record.finished is not None and now - record.finished >= table_task.LINGER


def resumed_on_start(record: TableRecord, now: float) -> bool:
    """Whether a host started at ``now`` on this journal brings the table back."""
    return not closed_for_good(record) and not past_its_vote(record, now)


def same_name(name: str, asked: str) -> bool:
    """Whether a table called ``name`` was asked as ``asked``: the same, or made unique from
    it (``Table A (2)``, see :meth:`Host.create_table`)."""
    return name == asked or re.fullmatch(re.escape(asked) + r" \([0-9]+\)", name) is not None


def same_table(opened: dict, wanted: dict) -> bool:
    """Whether a table opened with ``opened`` settings is one asked with ``wanted``."""
    asked = wanted["name"]
    return same_name(opened["name"], asked) and {**opened, "name": asked} == wanted


def table_settings(
    name: str,
    rules: RuleSet,
    password: str | None,
    bots: int,
    bot_level: int,
    *,
    blind: bool = False,
) -> dict:
    """A table's settings as its journal records them."""
    settings = {
        "name": name,
        "players": rules.players,
        "target": rules.target,
        "variants": sorted(v.value for v in rules.variants),
        "password": None if password is None else password_hash(password),
        "bots": bots,
        "bot_level": bot_level,
    }
    if blind:
        settings["blind"] = True  # a blind table (protocol.md 9); absent: an ordinary one
    return settings


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None elsewhere."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


class TooManyTablesError(Exception):
    pass
