"""Advisory locks on files of one folder, held while a client uses what they stand for.

A person may run two clients at once on one machine (a second terminal), and both read and
write the same folders: a seat kept on disk, a tally. A client that plays a seat, or keeps a
tally open, holds an exclusive ``flock`` on ``NAME.lock`` beside it, and another client looks
at that lock before it takes the thing over. The system lets go of a lock when the process
that holds it ends, however it ends (Ctrl-C, a closed terminal, ``kill -9``), so a lock nobody
holds means the client that used the thing has stopped.

Where the system has no advisory locks (``fcntl``), or no lock file can be made, nothing is
ever held elsewhere: the clients behave as they did before there were locks.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import BinaryIO

from scopa_net.client.files import make_private_folder

try:
    import fcntl
except ImportError:  # no advisory locks on this system
    fcntl = None  # type: ignore[assignment]


class FileLocks:
    """The locks this process holds in ``folder``, by name: the file ``NAME.lock``, or with
    another ``suffix`` ``NAME`` + suffix (``suffix=""`` locks the file ``NAME`` itself)."""

    def __init__(self, folder: Path, suffix: str = ".lock") -> None:
        self.folder = folder
        self.suffix = suffix
        self._held: dict[str, BinaryIO] = {}

    def path(self, name: str) -> Path:
        return self.folder / f"{name}{self.suffix}"

    def hold(self, name: str) -> bool:
        """Hold ``name``'s lock until :meth:`release` (or this process ends); False when
        another client holds it. Holding it again is a no-op."""
        if name in self._held or fcntl is None:
            return True
        try:
            make_private_folder(self.folder)
            # Owner-only (0600), as every file scopa-net keeps (docs/files.md, "Files
            # scopa-net writes"), and one made readable by an older scopa-net is made so too.
            fd = os.open(self.path(name), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with contextlib.suppress(OSError):
                os.fchmod(fd, 0o600)
            lock = os.fdopen(fd, "ab")
        except OSError:  # a folder we cannot write: nothing to lock with
            return True
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            return False
        self._held[name] = lock
        return True

    def release(self, name: str) -> None:
        """Let go of ``name``'s lock, if held here."""
        lock = self._held.pop(name, None)
        if lock is not None:
            lock.close()

    def forget(self, name: str) -> None:
        """The thing is gone: remove its lock file, unless another client holds it."""
        if self.hold(name):
            with contextlib.suppress(OSError):
                self.path(name).unlink()
            self.release(name)

    def held_elsewhere(self, name: str) -> bool:
        """Whether another client (not these locks) holds ``name``'s lock now."""
        if name in self._held or fcntl is None:
            return False
        try:
            lock = open(self.path(name), "rb")  # noqa: SIM115 (closed below)
        except OSError:
            return False
        with lock:
            try:  # shared: two clients looking at once do not see each other as holders
                fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.flock(lock, fcntl.LOCK_UN)
            return False

    def close(self) -> None:
        """Let go of every lock held here."""
        for name in list(self._held):
            self.release(name)

    def __del__(self) -> None:
        # The locks live as long as their holder (a store); one dropped lets go of them.
        self.close()
