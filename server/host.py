"""The host: accepts connections, keeps the lobby, runs one task per table.

:meth:`Host.serve` opens the journal's tables again (a host killed and restarted on the same
database resumes every table at its last committed entry), starts listening, and runs until
cancelled. :meth:`Host.shutdown` stops accepting, says goodbye to every connection and lets the
journal finish what it was writing.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net.fair.commitments import fingerprint, public_key_bytes
from scopa_net.names import clean_name
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.journal import Journal
from scopa_net.server.journal_writer import JournalWriter
from scopa_net.server.outbox import Outbox
from scopa_net.server.session import PlayerSession
from scopa_net.server.table import Phase, SeatKind, Table
from scopa_net.server.table_task import TableTask, password_hash
from scopa_net.wire import messages as m
from scopa_net.wire.errors import ErrorCode

log = logging.getLogger("scopa_net.host")

HOST_KEY = "host_key"
RESTORE_FINISHED_FOR = 600.0
"""Seconds after its end that a finished match is still restored after a restart."""


def load_host_key(journal: Journal) -> Ed25519PrivateKey:
    """The host's long-lived signing key, made and stored on first start."""
    raw = journal.get_meta(HOST_KEY)
    if isinstance(raw, bytes) and len(raw) == 32:
        return Ed25519PrivateKey.from_private_bytes(raw)
    key = Ed25519PrivateKey.generate()
    journal.set_meta(HOST_KEY, key.private_bytes_raw())
    return key


class Host:
    def __init__(self, config: HostConfig, journal: Journal | None = None) -> None:
        self.config = config
        self.journal = journal if journal is not None else Journal(config.db)
        self.key = load_host_key(self.journal)
        self.public_key = public_key_bytes(self.key)
        self.writer = JournalWriter(self.journal, threaded=self.journal.path != ":memory:")
        self.tables: dict[int, TableTask] = {}
        self._next_id = 1
        self._per_address: Counter[str] = Counter()
        self._sessions: set[PlayerSession] = set()
        self._nursery: trio.Nursery | None = None
        self._listen_scope = trio.CancelScope()
        self.port: int | None = None
        self.stopped = trio.Event()
        self.on_restored: Callable[[int, int], None] | None = None
        """Told (tables restored, tables to restore) as a restart restores its tables."""

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
            await trio.serve_tcp(
                self._handle,
                self.config.port,
                host=self.config.bind,
                handler_nursery=nursery,
                task_status=task_status,
            )

    async def shutdown(self, grace: float = 2.0) -> None:
        """Stop accepting, tell every connection, let writes finish, then stop."""
        self._listen_scope.cancel()
        for session in list(self._sessions):
            session.outbox.close(
                m.Bye(reason=ErrorCode.SHUTTING_DOWN.value, message="the host is shutting down")
            )
        with trio.move_on_after(grace):
            while self._sessions:
                await trio.sleep(0.05)
        await self.writer.call(lambda journal: None)  # everything before this is on disk
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
        session = PlayerSession(self, stream, name)
        counted = False
        try:
            if self._per_address[address] >= self.config.max_connections_per_address:
                log.info("connection %s refused: too many from %s", name, address)
                session.outbox.close(
                    m.Bye(
                        reason=ErrorCode.TOO_MANY_CONNECTIONS.value,
                        message=f"at most {self.config.max_connections_per_address} "
                        "connections from one address",
                    )
                )
                with trio.move_on_after(1.0):
                    await session.run()
                return
            self._per_address[address] += 1
            counted = True
            self._sessions.add(session)
            log.info("connection %s opened", name)
            await session.run()
        except Exception:
            log.exception("connection %s failed", name)
        finally:
            self._sessions.discard(session)
            if counted:
                self._per_address[address] -= 1
            log.info("connection %s closed", name)
            await trio.aclose_forcefully(stream)

    # --- the lobby ----------------------------------------------------------------------

    def _live_tables(self) -> list[Table]:
        """Tables whose match is not over (a finished one lingers, but is not listed)."""
        return [t.table for t in self.tables.values() if t.table.phase is not Phase.OVER]

    def table_infos(self) -> tuple[m.TableInfo, ...]:
        """The tables a newcomer can join: still in play, with a seat open."""
        joinable = [t for t in self._live_tables() if not t.full]
        return tuple(t.info() for t in joinable[: m.MAX_TABLES_LISTED])

    @property
    def open_seats(self) -> int:
        return sum(1 for t in self._live_tables() for s in t.seats if s.kind is SeatKind.OPEN)

    async def create_table_for(self, outbox: Outbox, msg: m.CreateTable) -> None:
        try:
            task = await self.create_table(
                msg.name, msg.rules.to_rules(), msg.password, msg.bots, msg.bot_level
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
    ) -> TableTask:
        live = len(self._live_tables())
        if live >= self.config.max_tables:
            raise TooManyTablesError(f"this host already runs {live} tables")
        table_id = self._next_id
        self._next_id += 1
        name = clean_name(name) or f"table {table_id}"  # shown in every lobby listing
        settings = {
            "name": name,
            "players": rules.players,
            "target": rules.target,
            "variants": sorted(v.value for v in rules.variants),
            "password": None if password is None else password_hash(password),
            "bots": bots,
            "bot_level": bot_level,
        }
        created = time.time()
        await self.writer.call(lambda j: j.create_table(str(table_id), created, settings))
        task = self._start_table(table_id, settings)
        log.info("table %s created: %r, %s", table_id, name, rules.describe())
        return task

    def _start_table(
        self,
        table_id: int,
        settings: dict,
        entries: list[tuple[str, dict]] | None = None,
        *,
        finish_recorded: bool = False,
    ) -> TableTask:
        rules = RuleSet.of(settings["players"], settings["target"], settings["variants"])
        bots = settings["bots"]
        table = Table(
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
        task = TableTask(table, self.config, self.writer, password_digest=settings["password"])
        self.tables[table_id] = task
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
        finally:
            self.tables.pop(task.table.table_id, None)

    def _restore_tables(self) -> None:
        records = self.journal.tables()
        if records:
            self._next_id = max(int(r.table_id) for r in records) + 1
        now = time.time()
        # A match that ended just before a crash comes back for a while, so its players can
        # still resume and read the end.
        records = [
            r for r in records if r.finished is None or now - r.finished <= RESTORE_FINISHED_FOR
        ]
        for done, record in enumerate(records, 1):
            entries = [(e.kind, e.payload) for e in self.journal.entries(record.table_id)]
            task = self._start_table(
                int(record.table_id),
                record.settings,
                entries,
                finish_recorded=record.finished is not None,
            )
            log.log(
                logging.DEBUG if self.on_restored else logging.INFO,
                "table %s restored at round %s (%s)",
                record.table_id,
                task.table.round_no,
                task.table.phase.value,
            )
            if self.on_restored is not None:
                self.on_restored(done, len(records))


class TooManyTablesError(Exception):
    pass
