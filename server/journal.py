"""The host's SQLite journal: every table's accepted inputs, in order, crash-safe.

A table is rebuilt after a restart by feeding its journal entries, in order, to a fresh
:class:`scopa_net.server.table.Table`: every entry carries the random values it used (seeds,
tokens), so replaying is deterministic. The journal runs in WAL mode with
``synchronous=FULL``: once :meth:`Journal.append_many` returns, the entries survive a SIGKILL
or a power cut, and only then does the host acknowledge or broadcast what they caused.

This module is synchronous and does no waiting of its own; the host calls it from one writer
task, in a worker thread, batching the entries of many tables into one transaction.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import msgpack

SCHEMA_VERSION = 2
"""The journal's ``schema_version``: 2 from the host that replays older blind tables no more
(a journal it opens to write is marked 2, so that an older host, which takes version 1 only,
refuses it rather than misread it); 1 before. Entries and tables are alike in both."""
READ_VERSIONS = (1, SCHEMA_VERSION)
NEXT_N_KEPT = 4096
"""Tables whose next entry number the journal keeps in memory (see ``Journal._next_n``)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    settings BLOB NOT NULL,
    finished REAL,
    summary BLOB
);
CREATE TABLE IF NOT EXISTS entries (
    table_id TEXT NOT NULL REFERENCES tables(table_id),
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload BLOB NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


CLOSED_KEY = "table_closed"
"""In a finished table's summary: the table closed after its match (see ``close_table``)."""


BEGAN = "began "
"""Meta key prefix: ``began 3`` is when table 3's latest match began (see ``match_began``)."""


HOST_STARTS = "host starts"
"""Meta key: when the host started, each time (see ``host_started``)."""
HOST_STARTS_KEPT = 1000
"""The latest starts kept: ``history`` marks restarts among the matches it lists."""


def _began_key(table_id: str) -> str:
    return BEGAN + str(table_id)


class JournalError(RuntimeError):
    """The journal file is unusable (another schema, corruption, a gap in a table's entries)."""


class NewerJournalError(JournalError):
    """The journal was written by a newer scopa-net (a schema version above ours)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One accepted input of one table: its number (1, 2, ...), kind, and msgpack-able payload."""

    table_id: str
    n: int
    kind: str
    payload: dict


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: str
    created: float
    settings: dict
    finished: float | None
    summary: dict | None
    began: float | None = None
    """When the table's latest match began (its first deal), if the journal says."""
    dealt: bool = False
    """Whether a round was ever dealt at the table (a table that never dealt is waiting)."""


def _make_private(path: str) -> None:
    """Create the journal file for its owner only (0600) before SQLite opens it: it holds
    the seeds of the rounds in play. A journal already there, from a host that made it
    readable by others, is made owner-only too. OSError (a folder that cannot be written)
    is the caller's to report."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        _owner_only(path)


def _owner_only(path: str) -> None:
    """Take the group's and others' access away from ``path``, a file of ours (if there)."""
    with contextlib.suppress(OSError):
        st = os.stat(path)
        if stat.S_ISREG(st.st_mode) and st.st_mode & 0o077 and st.st_uid == os.geteuid():
            os.chmod(path, st.st_mode & 0o700)


def _pack(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _unpack(blob: bytes) -> dict:
    return msgpack.unpackb(blob, raw=False, strict_map_key=False)


class Journal:
    """One SQLite database holding every table of one host."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = str(path)
        self._db = self._open_to_read() if read_only and self.path != ":memory:" else self._open()
        self.identity = self.file_identity()
        """(device, inode) of the file opened, to notice it deleted or replaced."""
        self._next_n: dict[str, int] = {}
        """The next entry number of tables written through this object lately (a table not
        in it is looked up in the database), at most :data:`NEXT_N_KEPT` of them: a host
        that runs for months makes tables without end."""
        try:
            self._check_version(read_only=read_only)
        except BaseException:  # a journal refused is closed: nobody else holds it to close
            self._db.close()
            raise

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _check_version(self, *, read_only: bool) -> None:
        """Refuse a journal of a schema this host cannot use; mark one it writes as its own."""
        version = self.get_meta("schema_version")
        if version is None and read_only:
            raise JournalError("it holds no schema version")
        if isinstance(version, int) and version > SCHEMA_VERSION:
            raise NewerJournalError(
                f"the journal {self.path} was written by a newer scopa-net (journal version "
                f"{version}; this one reads up to {SCHEMA_VERSION}): update scopa-net, or "
                "give another --db"
            )
        if version is None or (version in READ_VERSIONS and not read_only):
            if version != SCHEMA_VERSION:  # an older host can no longer open it (see above)
                self.set_meta("schema_version", SCHEMA_VERSION)
        elif version not in READ_VERSIONS:
            raise JournalError(
                f"journal {self.path!r} has schema version {version!r}; "
                f"this host speaks {SCHEMA_VERSION}"
            )

    def _open(self) -> sqlite3.Connection:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            _make_private(self.path)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")  # a file that is no database fails here
            if self.path != ":memory:":
                for beside in ("-wal", "-shm"):  # SQLite makes them with the journal's mode
                    _owner_only(self.path + beside)
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(_SCHEMA)
        except BaseException:
            db.close()
            raise
        return db

    def _open_to_read(self) -> sqlite3.Connection:
        """The journal to read only (``history``): nothing is made, written or changed, and
        a file that is not a journal (empty, or a database of something else) is a
        JournalError; one that is no database at all, sqlite3.DatabaseError."""
        uri = Path(self.path).absolute().as_uri() + "?mode=ro"
        if not os.path.exists(self.path + "-wal"):
            # No host has it open (one that has keeps its -wal): read it as a plain file, so
            # SQLite leaves no -wal and -shm beside it.
            uri += "&immutable=1"
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            names = {
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if not {"meta", "tables", "entries"} <= names:
                raise JournalError("the file is empty" if not names else "it holds other tables")
        except BaseException:
            db.close()
            raise
        return db

    def close(self) -> None:
        self._db.close()

    # --- the file -----------------------------------------------------------------------

    def file_identity(self) -> tuple[int, int] | None:
        """(device, inode) of the file now at the journal's path; None if there is none."""
        if self.path == ":memory:":
            return None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_dev, st.st_ino

    def file_missing(self) -> bool:
        """Whether the file this journal writes to is no longer at its path (deleted, or
        another file put there): what it writes would then be lost at the next start."""
        return self.path != ":memory:" and self.file_identity() != self.identity

    def write_again(self) -> None:
        """Put a fresh copy of the whole journal at its path, from the database still open
        (a deleted file lives on while it is open), and go on writing there. Another file
        found at the path is kept beside it with the suffix ``.replaced``."""
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        copy = path.with_name(path.name + ".restoring")
        copy.unlink(missing_ok=True)
        _make_private(str(copy))
        target = sqlite3.connect(copy)
        try:
            self._db.backup(target)
        finally:
            target.close()
        self._db.close()  # checkpoints into the old file and removes its -wal and -shm
        if path.exists():
            os.replace(path, path.with_name(path.name + ".replaced"))
        for leftover in ("-wal", "-shm"):
            path.with_name(path.name + leftover).unlink(missing_ok=True)
        os.replace(copy, path)
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self._db = self._open()
        self.identity = self.file_identity()

    # --- host-wide values ---------------------------------------------------------------

    def get_meta(self, key: str) -> object | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else msgpack.unpackb(row[0], raw=False)

    def set_meta(self, key: str, value: object) -> None:
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, _pack(value)),
        )

    # --- tables -------------------------------------------------------------------------

    def create_table(self, table_id: str, created: float, settings: dict) -> None:
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables (table_id, created, settings) VALUES (?, ?, ?)",
                (table_id, created, _pack(settings)),
            )

    def finish_table(self, table_id: str, finished: float, summary: dict) -> None:
        """The table's match is over. After a rematch, the matches before it stay in the
        summary, oldest first, under ``earlier``."""
        with self._transaction():
            row = self._db.execute(
                "SELECT finished, summary FROM tables WHERE table_id = ?", (table_id,)
            ).fetchone()
            began = self.get_meta(_began_key(table_id))
            if isinstance(began, int | float) and "began" not in summary:
                summary = {**summary, "began": began}
            if row is not None and row[1] is not None:
                before = _unpack(row[1])
                if row[0] is None:  # reopened: the match just played follows the one before
                    summary = {**summary, "earlier": [*before.pop("earlier", []), before]}
                elif "earlier" in before:  # finished again (closed after its end): keep them
                    summary = {**summary, "earlier": before["earlier"]}
            self._db.execute(
                "UPDATE tables SET finished = ?, summary = ? WHERE table_id = ?",
                (finished, _pack(summary), table_id),
            )

    def close_table(self, table_id: str) -> None:
        """The table closed after its match (its linger time over with no rematch, or its
        owner gone): a restart does not bring it back. Its matches stay, for history."""
        with self._transaction():
            row = self._db.execute(
                "SELECT summary FROM tables WHERE table_id = ?", (table_id,)
            ).fetchone()
            if row is None or row[0] is None:
                return
            summary = {**_unpack(row[0]), CLOSED_KEY: True}
            self._db.execute(
                "UPDATE tables SET summary = ? WHERE table_id = ?", (_pack(summary), table_id)
            )

    def match_began(self, table_id: str, when: float) -> None:
        """The table's match (the first or a rematch) began at ``when``: its first deal, the
        time ``history`` says it started (the table may have waited for players long)."""
        self.set_meta(_began_key(table_id), when)

    def host_started(self, when: float) -> None:
        """The host started (or restarted) at ``when``: ``history`` says so among its matches."""
        self.set_meta(HOST_STARTS, [*self.host_starts(), when][-HOST_STARTS_KEPT:])

    def host_starts(self) -> list[float]:
        """When the host started, oldest first (none kept before this was)."""
        starts = self.get_meta(HOST_STARTS)
        if not isinstance(starts, list):
            return []
        return [float(t) for t in starts if isinstance(t, int | float)]

    def reopen_table(self, table_id: str) -> None:
        """The table plays another match (a rematch): it is in play again, and the summary of
        the match before stays (``finish_table`` keeps it)."""
        with self._transaction():
            self._db.execute("UPDATE tables SET finished = NULL WHERE table_id = ?", (table_id,))

    def tables(self, *, finished: bool | None = None) -> list[TableRecord]:
        """Tables by creation time; only open (``False``) or finished (``True``) ones if asked."""
        sql = "SELECT table_id, created, settings, finished, summary FROM tables"
        if finished is True:
            sql += " WHERE finished IS NOT NULL"
        elif finished is False:
            sql += " WHERE finished IS NULL"
        rows = self._db.execute(sql + " ORDER BY created, table_id").fetchall()
        began = {
            str(key)[len(BEGAN) :]: msgpack.unpackb(value, raw=False)
            for key, value in self._db.execute(
                "SELECT key, value FROM meta WHERE key LIKE ?", (BEGAN + "%",)
            )
        }
        dealt = {
            row[0]
            for row in self._db.execute(
                "SELECT DISTINCT table_id FROM entries WHERE kind = 'round'"
            )
        }
        return [
            TableRecord(
                table_id,
                created,
                _unpack(settings),
                done,
                None if summary is None else _unpack(summary),
                began.get(table_id),
                table_id in dealt,
            )
            for table_id, created, settings, done, summary in rows
        ]

    # --- entries ------------------------------------------------------------------------

    def append_many(self, entries: Iterable[tuple[str, str, dict]]) -> list[Entry]:
        """Append (table_id, kind, payload) entries in one durable transaction, in order."""
        written: list[Entry] = []
        rows: list[tuple[str, int, str, bytes]] = []
        next_n: dict[str, int] = {}
        for table_id, kind, payload in entries:
            if table_id not in next_n:
                next_n[table_id] = self._next_n.get(table_id) or self._last_n(table_id) + 1
            n = next_n[table_id]
            next_n[table_id] = n + 1
            rows.append((table_id, n, kind, _pack(payload)))
            written.append(Entry(table_id, n, kind, payload))
        with self._transaction():
            self._db.executemany(
                "INSERT INTO entries (table_id, n, kind, payload) VALUES (?, ?, ?, ?)", rows
            )
        if len(self._next_n) + len(next_n) > NEXT_N_KEPT:
            self._next_n.clear()
        self._next_n.update(next_n)  # only once the transaction is committed
        return written

    def _last_n(self, table_id: str) -> int:
        row = self._db.execute(
            "SELECT COALESCE(MAX(n), 0) FROM entries WHERE table_id = ?", (table_id,)
        ).fetchone()
        return int(row[0])

    def has_entry(self, table_id: str, kind: str) -> bool:
        """Whether the table's journal holds an entry of ``kind`` (without reading them all)."""
        row = self._db.execute(
            "SELECT 1 FROM entries WHERE table_id = ? AND kind = ? LIMIT 1", (table_id, kind)
        ).fetchone()
        return row is not None

    def entries(self, table_id: str) -> Iterator[Entry]:
        """A table's entries in order; :class:`JournalError` on a gap."""
        rows = self._db.execute(
            "SELECT n, kind, payload FROM entries WHERE table_id = ? ORDER BY n", (table_id,)
        )
        expected = 1
        for n, kind, payload in rows:
            if n != expected:
                raise JournalError(f"table {table_id!r}: entry {expected} is missing")
            expected += 1
            yield Entry(table_id, n, kind, _unpack(payload))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if not exc_type:
            self._db.execute("COMMIT")
        elif self._db.in_transaction:
            # After some failures (a full disk, an I/O error) SQLite has rolled back already.
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
