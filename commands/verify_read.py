"""Reading a file given to ``scopa-net verify``: its bytes (none past a transcript's largest
size), and in a person's words why a file could not be opened or read as a transcript (missing,
a folder, empty, cut short, another version's, not a transcript)."""

from __future__ import annotations

import os
from pathlib import Path

from scopa_net.commands.paths import data_dir


class TooBigError(Exception):
    """A file larger than any transcript: its size, and the limit, as a person reads them."""

    def __init__(self, size: int | None, limit: int) -> None:
        shown, self.limit = _megabytes(size or 0), _megabytes(limit)
        if size is None:  # a device or a pipe: it has no size, only more bytes than a transcript
            shown = f"more than {self.limit}"
        elif shown == self.limit:
            shown, self.limit = f"{size} bytes", f"{limit} bytes"
        super().__init__(shown)


def read_at_most(path: Path, limit: int) -> bytes:
    """A file's bytes, read only if it holds no more than ``limit`` (a 300 MB file is not read
    whole to be found too big); :class:`TooBigError` if it holds more."""
    with path.open("rb") as f:
        data = f.read(limit + 1)
        if len(data) <= limit:
            return data
        size = os.fstat(f.fileno()).st_size
    raise TooBigError(size if size > limit else None, limit)


def _megabytes(size: int) -> str:
    """``300 MB``, ``4.2 MB``: a size as a person reads it (a megabyte is a million bytes)."""
    if size >= 10_000_000:
        return f"{size / 1e6:.0f} MB"
    return f"{size / 1e6:.1f} MB"


def unopened(path: Path, exc: OSError) -> tuple[str, str]:
    """What became of a file that could not be opened, and what to tell the person."""
    if isinstance(exc, FileNotFoundError) and _unmatched_pattern(path):
        if _same_folder(path.parent, data_dir(os.environ) / "transcripts"):
            return "missing", NO_TRANSCRIPTS_YET
        return "missing", f"no file in {path.parent} matches {path.name}"
    if isinstance(exc, FileNotFoundError):
        return "missing", "cannot read: no such file (check its name and folder)"
    if isinstance(exc, IsADirectoryError):
        if _same_folder(path, data_dir(os.environ) / "transcripts"):
            return "missing", NO_TRANSCRIPTS_YET
        return "unreadable", "a folder with no transcripts (.scopa files) in it"
    return "unreadable", f"cannot read: {exc.strerror or exc}"


NO_TRANSCRIPTS_YET = (
    "no transcripts here yet: a match saves one as its rounds are played; for a match you "
    "joined mid-way at a blind table, which saves none, the host can write yours (scopa-net "
    "history --export TABLE --seat SEAT, on the host's machine)"
)
"""What an empty transcripts folder means: no game played yet, or only blind matches joined
mid-way (a client saves no transcript of those); true of both, it does not guess which."""


def _unmatched_pattern(path: Path) -> bool:
    """Whether ``path`` is a pattern such as ``transcripts/*`` that the shell passed on as it
    was, since no file matched it."""
    return any(c in path.name for c in "*?[") and not any(path.parent.glob(path.name))


def _same_folder(one: Path, other: Path) -> bool:
    return one.expanduser().resolve() == other.expanduser().resolve()


def unreadable_words(error: Exception, *, empty: bool) -> str:
    """Why a file could not be read as a transcript at all, in a person's words."""
    from scopa_net.fair.errors import CutShortError, NotATranscriptError, OtherVersionError

    if empty:
        return "empty file: there is no transcript in it to check"
    if isinstance(error, OtherVersionError):
        return (
            "a transcript of another version of scopa-net, which this one cannot read: verify "
            "it with the version that saved it"
        )
    if isinstance(error, CutShortError):
        return "cut short (damaged, or still being written): it cannot be checked"
    if isinstance(error, NotATranscriptError):
        return "not a scopa-net transcript (another kind of file, or one damaged past reading)"
    return (
        "a damaged scopa-net transcript (or one changed by hand): part of it is not laid out as "
        "a transcript, so nothing in it can be checked"
    )
