"""Files the client writes whole: written beside their place, then renamed over it.

A rename replaces a file at once, so a crash or a full disk at any moment leaves the old file
or the new one, never one cut short: a seat record, a tally, a transcript, the pinned host
keys. A write that fails or is stopped (Ctrl-C) removes its ``.NAME.PID.tmp``; one left beside
the file is what a crash (``kill -9``, a power cut) left.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
from pathlib import Path


def replace_file(path: Path, data: bytes, *, mode: int = 0o666, durable: bool = False) -> None:
    """Make ``path`` hold ``data``; the new file gets ``mode`` (less the umask). ``durable``:
    the data and the rename are on disk before this returns (fsync of the file, then of the
    folder), for what must survive a power cut. OSError is the caller's to report."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    except OSError as exc:  # named by the folder it could not be made in, not the temp file
        raise type(exc)(exc.errno, exc.strerror, str(path.parent)) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:  # a full disk, a Ctrl-C: no half-written file left beside it
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if durable:
        sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the platform allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def names_beside(transcript: Path) -> Path:
    """The file that names a saved transcript's seats, one name a line by seat, as the client
    last knew them: transcripts hold no names. It sits in ``transcript-names/`` beside the
    ``transcripts/`` folder (``transcript-names/KEY-table1-seat0.names``), so that the
    transcripts folder holds transcripts only (``scopa-net verify transcripts/*``)."""
    return transcript.parent.parent / "transcript-names" / f"{transcript.stem}.names"


def make_private_folder(folder: Path) -> None:
    """Make ``folder`` and the folders missing above it, each for its owner only (0700,
    as the XDG rules ask of the data directory): what scopa-net keeps holds seat tokens
    and the seeds of rounds in play. A folder already there is left as it is. A file where
    a folder should be is ``NotADirectoryError`` naming that file."""
    missing = []
    for place in (folder, *folder.parents):
        if place.is_dir():
            break
        missing.append(place)
    for place in reversed(missing):
        try:
            place.mkdir(mode=0o700)
        except FileExistsError:
            if not place.is_dir():
                raise NotADirectoryError(
                    errno.ENOTDIR, "a file is where a folder should be", str(place)
                ) from None


def append_line(path: Path, line: str) -> None:
    """Add ``line`` (and a newline) at the end of ``path``, made for its owner only if new."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as f:
        f.write(f"{line}\n")


def why_not_written(exc: OSError, place: Path) -> str:
    """Why ``exc`` kept something from being written at ``place`` (or the file ``exc``
    names), in a person's words and naming where: ``permission denied for ~/x``, ``~/x is a
    file, not a folder``, ``~/x is on a read-only disk``, ``the disk is full (~/x)``."""
    named = Path(exc.filename) if exc.filename else place
    where = shown_path(named)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied for {where}"
    if exc.errno == errno.ENOTDIR:
        # The file in the way, which a path through it names only as its own end
        in_the_way = next((p for p in (*reversed(named.parents), named) if p.is_file()), named)
        return f"{shown_path(in_the_way)} is a file, not a folder"
    if exc.errno == errno.EROFS:
        return f"{where} is on a read-only disk"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk is full ({where})"
    return f"{(exc.strerror or str(exc)).lower()} ({where})"


def shown_path(path: Path) -> str:
    """``path`` as a person can paste it into a shell: ``~/...`` under the home directory."""
    quoted = shlex.quote(str(path))
    try:
        inside = path.relative_to(Path.home())
    except (ValueError, RuntimeError):
        return quoted
    short = f"~/{inside}"
    return short if shlex.quote(str(inside)) == str(inside) else quoted
