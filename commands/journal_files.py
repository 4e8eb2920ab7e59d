"""The files a host keeps (journal, key, lock), made ready at start or refused in one line.

Every way this machine can refuse them (a folder that cannot be written, a file where a
folder should be, a read-only disk) ends in a :class:`CommandError` with status 5 saying
what is wrong and what to do, never a traceback. What scopa-net makes is for its owner only:
the journal holds the seeds of the rounds in play.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING

from scopa_net.client.files import make_private_folder
from scopa_net.commands.options import EXIT_LOCAL, EXIT_USAGE, CommandError

if TYPE_CHECKING:
    from scopa_net.server.journal import Journal


def unusable(what: str, exc: OSError, *, ours: bool = False) -> str:
    """One line for an OSError met on the host's files: ``what`` (``the journal FILE``)
    could not be used, why, and what to do instead. ``ours``: the place is scopa-net's
    own folder, not one the person chose (a file in its way may be moved)."""
    where = exc.filename or what
    todo = "give --db a file in a folder you can write"
    if exc.errno in (errno.EACCES, errno.EPERM):
        why = f"permission denied for {where}"
    elif exc.errno == errno.ENOTDIR:
        why = f"{where} is a file, not a folder"
        todo = "move that file away, or give --db" if ours else "give --db"
        todo += " a file in a folder"
    elif exc.errno == errno.EROFS:
        why = f"{where} is on a read-only disk"
    elif exc.errno in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full"
        todo = "free some space, or give --db a file on another disk"
    else:
        why = f"cannot use {where}: {(exc.strerror or str(exc)).lower()}"
    return f"{what}: {why}; {todo}"


def journal_folder(db: str, *, chosen: bool) -> None:
    """Make the folders missing on the way to the journal, each its owner's only (0700); a
    folder already there is used as it is. ``chosen``: the person gave --db (a file in the
    way is theirs to deal with, not scopa-net's own folder's)."""
    if db == ":memory:":
        return
    try:
        make_private_folder(Path(db).parent)
    except OSError as exc:
        what = f"the journal {db}"
        raise CommandError(unusable(what, exc, ours=not chosen), EXIT_LOCAL) from None


def lan_folder_ready(folder: Path) -> None:
    """Make ``play --lan``'s folder (its own host's journal, key and kept seat) and check that
    files can be made in it and its journal written, before the host opens them; else a
    :class:`CommandError`, status 5, in one line. It has no --db: the way out is another
    data folder."""
    import tempfile

    from scopa_net.client.files import shown_path, why_not_written

    try:
        make_private_folder(folder)
        try:  # SQLite makes files beside its journal (-wal, -shm)
            tempfile.TemporaryFile(dir=folder).close()
        except OSError as exc:  # told as the folder, not the file tried in it
            raise OSError(exc.errno, exc.strerror, str(folder)) from None
        journal = folder / "host.db"
        if journal.is_file():
            with open(journal, "r+b"):  # opened to write, nothing written
                pass
    except OSError as exc:
        todo = "set XDG_DATA_HOME to a folder you can write"
        if exc.errno == errno.ENOTDIR:
            todo = f"move that file away, or {todo}"
        why = why_not_written(exc, folder)
        raise CommandError(
            f"`play --lan` keeps its table in {shown_path(folder)}: {why}; {todo}", EXIT_LOCAL
        ) from None


def check_db_path(path: str, *, create: bool) -> None:
    """Refuse a --db that is a directory, or missing (unless created): its folders are made
    beforehand by :func:`journal_folder`."""
    if path == ":memory:":
        return
    where = Path(path)
    if where.is_dir():
        raise CommandError(f"--db {path}: that is a directory; give a file name", EXIT_USAGE)
    if not create and not where.exists():
        lan = where.parent / "play-lan" / "host.db"
        mine = f" (`play --lan` keeps its own: --db {lan})" if lan.exists() else ""
        raise CommandError(
            f"no journal at {path}: history lists the matches of a host you ran "
            f"(`scopa-net host`) and of your `scopa-net play --lan` tables; give that host's "
            f"--db{mine}. A game of `play` without --lan keeps its transcripts only "
            "(`scopa-net verify` reads them)",
            EXIT_USAGE,
        )


def check_writable(path: str) -> None:
    """Refuse a journal file that is there but cannot be written (read-only, or immutable),
    saying that the file is the trouble: its folder may well be writable."""
    if path == ":memory:" or not Path(path).is_file():
        return
    try:
        with open(path, "r+b"):  # opened to write, nothing written
            pass
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM):
            return  # told as it comes, by opening the journal
        raise CommandError(
            f"the journal {path} is a read-only file; make it writable (chmod u+w), or give "
            "--db another file",
            EXIT_LOCAL,
        ) from None


def open_journal(path: str, *, create: bool) -> Journal:
    """The host's journal at ``path``; CommandError (one line) if it cannot be used. Only
    ``create`` (a host) makes or writes one: otherwise it is opened to read, and a file that
    is not a journal is refused unchanged."""
    check_db_path(path, create=create)
    if create:
        check_writable(path)
    import sqlite3

    from scopa_net.server.journal import Journal, JournalError, NewerJournalError

    try:
        journal = Journal(path, read_only=not create)
        try:
            journal.tables()  # reads the file: a file that is not a database fails here
        except BaseException:
            journal.close()
            raise
    except NewerJournalError as exc:
        raise CommandError(str(exc), EXIT_LOCAL) from None
    except OSError as exc:
        raise CommandError(unusable(f"the journal {path}", exc), EXIT_LOCAL) from None
    except sqlite3.OperationalError as exc:  # a file SQLite cannot open or write
        raise CommandError(
            f"the journal {path}: cannot use it ({exc}); give --db a file in a folder you "
            "can write",
            EXIT_LOCAL,
        ) from None
    except (sqlite3.DatabaseError, JournalError) as exc:
        raise CommandError(
            f"{path} is not a scopa-net journal ({exc}); give --db another file", EXIT_LOCAL
        ) from None
    return journal


def check_host_key(journal: Journal) -> None:
    """Read (or make) the host's key beside the journal now, so that a key file that cannot
    be read or written is told at once. A journal that holds tables but has no key beside it
    (moved away from it, or the key file lost) is refused: a new key would sign its tables'
    rounds under a key no player pinned, and every player's client would refuse the host."""
    from scopa_net.server.host import host_key_path, load_host_key, read_host_key

    path = host_key_path(journal.path)
    try:
        keyless = (
            journal.path != ":memory:" and not path.exists() and read_host_key(journal) is None
        )
    except ValueError:
        keyless = False  # a key file that holds no key: said below
    if keyless and journal.tables():
        raise CommandError(
            f"the journal {journal.path} holds tables but no host key is beside it ({path}): "
            "they were dealt under the key of the host that kept them, the one players pinned; "
            f"copy that key file (host.key, beside its journal) to {path}, or give --db a new "
            "journal to start afresh under a new key",
            EXIT_LOCAL,
        )
    try:
        load_host_key(journal)
    except OSError as exc:
        raise CommandError(unusable(f"the journal {journal.path}", exc), EXIT_LOCAL) from None
    except ValueError as exc:
        path = host_key_path(journal.path)
        raise CommandError(
            f"{path} is not a host key ({exc}); move it away to make a new key (players "
            "who pinned the old one will be warned), or give another --db",
            EXIT_LOCAL,
        ) from None


class JournalLock:
    """Only one host at a time on a journal: a lock file beside it, held while the host runs."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.path = Path(f"{db}.lock")
        self._file: IO[str] | None = None

    def __enter__(self) -> JournalLock:
        if self.db == ":memory:":
            return self
        try:
            import fcntl
        except ImportError:  # not on this system: no lock
            return self
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise CommandError(unusable(f"the journal {self.db}", exc), EXIT_LOCAL) from None
        self._file = os.fdopen(fd, "r+", encoding="utf-8")
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._file.seek(0)
            pid = self._file.read().strip() or "?"
            self._file.close()
            raise CommandError(
                f"another host is using the journal {self.db} (process {pid}); "
                "stop it first, or give this one its own --db",
                EXIT_LOCAL,
            ) from None
        self._file.seek(0)
        self._file.truncate()
        self._file.write(f"{os.getpid()}\n")
        self._file.flush()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()
            # A folder that became read-only leaves the file: harmless, as the lock is the
            # flock, not the file, and the next host writes its own number in it.
            with contextlib.suppress(OSError):
                self.path.unlink(missing_ok=True)
