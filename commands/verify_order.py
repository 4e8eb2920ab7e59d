"""When each transcript given to ``verify`` was saved, and the order their matches were played.

A transcript records no time (protocol.md 6.1 and 9.8): what ``verify`` can say of when a
match was played is the file's modification time, the last time its client saved it (at the
match's end, for a finished match), and it says that this is where the time comes from.

Files are checked in the order their matches were played, not as the shell lists them
(``...-match2``, ``...-match3``, then match 1 last): by their modification times, and among the
files of one seat at one table (``KEY-tableN-seatS.scopa``, ``KEY-tableN-seatS-matchM.scopa``,
``tableN-matchM-seatS.scopa``) by the match's number, which the file's name holds and which a
copy (that gives every file the time it was copied) does not change. A folder given stands for
the transcripts in it.
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

_CLIENT_NAME = re.compile(r"(?P<seat>.*-table\d+-seat\d+)(?:-match(?P<match>\d+))?\.scopa")
"""A client's transcript: ``KEY-tableN-seatS.scopa``, a rematch's ``...-matchM.scopa``."""
_EXPORTED_NAME = re.compile(
    r"(?P<table>table\d+)(?:-match(?P<match>\d+))?(?P<seat>-seat\d+)(?:-[a-z0-9-]+)?\.scopa"
)
"""One ``history --export`` writes: ``tableN-seatS.scopa``, ``tableN-matchM-seatS.scopa``, and
given no table ``tableN-matchM-seatS-NAME.scopa``."""

TRANSCRIPT_SUFFIX = ".scopa"


def given_files(paths: Sequence[Path]) -> list[Path]:
    """The files ``verify`` checks: each path given, a folder's transcripts (its ``*.scopa``
    files, not the ``.names`` beside them) in its place. A folder with none stays as given,
    for ``verify`` to say so."""
    files: list[Path] = []
    for path in paths:
        inside = sorted(path.glob(f"*{TRANSCRIPT_SUFFIX}")) if path.is_dir() else []
        files += [f for f in inside if f.is_file()] or [path]
    return files


def saved_time(path: Path) -> float | None:
    """The file's modification time (seconds since the epoch); None if it has none to read."""
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def saved_words(when: float) -> str:
    """``saved 2026-12-07 01:21 (the file's time: a transcript records none)``, local time."""
    shown = time.strftime("%Y-%m-%d %H:%M", time.localtime(when))
    return f"saved {shown} (the file's time: a transcript records none)"


def match_of(path: Path) -> tuple[tuple[str, str], int] | None:
    """The seat at a table whose matches ``path`` is one of (its folder and name without the
    match), and the match's number (1 when the name has none); None for another name."""
    name = path.name
    found = _CLIENT_NAME.fullmatch(name)
    if found is not None:
        seat = found["seat"]
    else:
        found = _EXPORTED_NAME.fullmatch(name)
        if found is None:
            return None
        seat = found["table"] + found["seat"]
    return (str(path.parent), seat), int(found["match"] or 1)


def played_order(paths: Sequence[Path]) -> list[Path]:
    """``paths`` in the order their matches were played: by modification time (a file that
    cannot be read last, as given), the matches of one seat at one table by their number."""
    by_time = sorted(paths, key=lambda p: _or_last(saved_time(p)))
    places: dict[tuple[str, str], list[int]] = defaultdict(list)
    for place, path in enumerate(by_time):
        found = match_of(path)
        if found is not None:
            places[found[0]].append(place)
    ordered = list(by_time)
    for taken in places.values():
        matches = sorted((by_time[i] for i in taken), key=lambda p: match_of(p)[1])  # type: ignore[index]
        for place, path in zip(taken, matches, strict=True):
            ordered[place] = path
    return ordered


def _or_last(when: float | None) -> float:
    return math.inf if when is None else when
