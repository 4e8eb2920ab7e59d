"""The files ``scopa-net history --export`` writes, and never over another: with a table, one
seat's transcript (:mod:`.history_export_seat`); without, every seat's transcript of every
match the list's filters keep (``--since``, ``--name``, ``--table``), written into one folder
for ``scopa-net verify FOLDER`` (:mod:`.history_export_every`), each file named by its table,
match, seat and who held it.

Nothing is written over: a file already there with the same bytes is left as it is (running
the same export again is harmless), and one that differs stops the export, before anything is
written, in one line."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scopa_net.commands.history_filter import Listed
from scopa_net.commands.options import (
    EXIT_FAILED,
    EXIT_LOCAL,
    CommandError,
    plural,
)
from scopa_net.tally import folded

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript


@dataclass(frozen=True)
class Exported:
    """One file to write: a seat's transcript of one match, and its ``.names`` beside it."""

    path: Path
    data: bytes
    names: bytes
    ended: float | None
    about: str
    """Whose it is, as the line that says it was written reads: ``seat 1 (Carla) of table 2
    'Thursday final', match 1``."""


def file_word(names: tuple[str, ...]) -> str:
    """The people who held a seat, in plain Latin letters for a file name (``nicolo`` for
    Nicolò, ``dino-ivo`` where Ivo took Dino's seat); ``open`` for a seat nobody held."""
    words = [re.sub(r"[^a-z0-9]", "", folded(n)) or "x" for n in names]
    return "-".join(words)[:40] or "open"


def export_name(match: Listed, seat: int) -> str:
    """``table2-match1-seat0-bruno.scopa``: the match's number is always there, so that a
    match keeps its name after its table played again."""
    who = file_word(match.seats[seat] if seat < len(match.seats) else ())
    return f"table{match.table_id}-match{match.number}-seat{seat}-{who}.scopa"


def left_out(going: list[Listed]) -> str:
    """The line that says which matches were not exported: they are still in play."""
    which = "; ".join(_match_words(m) for m in going)  # each holds a comma of its own
    return f"not exported, still in play: {which} (export them when they end)"


def _match_words(match: Listed) -> str:
    return f"table {match.table_id}, match {match.number}"


def already_there(path: Path, data: bytes, transcript: Transcript) -> str:
    """What is at ``path``, where a transcript (``data``) is to be written: "" if nothing,
    "same" if those very bytes, else an earlier copy of the same seat's transcript of the same
    match, exported while it was in play (its rounds the first of this one's): how many
    rounds it had, in words. CommandError (one line) for any other file: it is not written
    over."""
    from scopa_net.fair.blind.wire import decode_any
    from scopa_net.fair.errors import FairnessError

    try:
        there = path.read_bytes()
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise CommandError(
            f"cannot read {path}: {exc.strerror or exc}; give --out another file", EXIT_LOCAL
        ) from None
    if there == data:
        return "same"
    try:
        before = decode_any(there)
    except FairnessError:
        before = None
    ids = [r.round_id for r in transcript.rounds]
    if (
        before is not None
        and before.host_key == transcript.host_key
        and before.seat == transcript.seat
        and before.result.sig is None
        and before.rounds
        and [r.round_id for r in before.rounds] == ids[: len(before.rounds)]
    ):
        return plural(len(before.rounds), "round")
    raise CommandError(
        f"{path} is there already and is not a copy of this transcript: nothing written; "
        "move it away or give --out another file",
        EXIT_LOCAL,
    )


def cannot_replay(exc: Exception) -> CommandError:
    """What an export says of a table whose journal an older scopa-net wrote (``exc``, its
    ``OlderJournalError``), which this one cannot replay."""
    return CommandError(
        f"cannot export {exc}, which this scopa-net cannot replay; each player's own "
        "transcript, saved by their client (transcripts/ in its data folder), is the one "
        "to check with `scopa-net verify`",
        EXIT_FAILED,
    )


def check_nothing_differs(files: list[Exported]) -> None:
    """CommandError, before anything is written, if a file to write is there already with
    other bytes (or its .names is)."""
    for f in files:
        for path, data in ((f.path, f.data), (f.path.with_suffix(".names"), f.names)):
            try:
                there = path.read_bytes()
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise CommandError(
                    f"cannot read {path}: {exc.strerror or exc}; give --out another folder",
                    EXIT_LOCAL,
                ) from None
            if there != data:
                raise CommandError(
                    f"{path} is there already and is not this export's: nothing written; move "
                    "it away or give --out another folder",
                    EXIT_LOCAL,
                )


def write_new(files: list[Exported], folder: Path) -> tuple[list[Exported], list[Exported]]:
    """Write the files not there yet; the files written, and those found there the same."""
    from scopa_net.client.files import make_private_folder

    wrote, same = [], []
    try:
        make_private_folder(folder)
        for f in files:
            names = f.path.with_suffix(".names")
            if not names.exists():
                write_transcript(names, f.names, f.ended)
            if f.path.exists():
                same.append(f)
                continue
            write_transcript(f.path, f.data, f.ended)
            wrote.append(f)
    except OSError as exc:
        why = exc.strerror or str(exc)
        where = exc.filename or folder
        raise CommandError(
            f"cannot write into {where}: {why}; {plural(len(wrote), 'transcript')} written "
            "before it; give --out a folder this machine can write",
            EXIT_LOCAL,
        ) from None
    except KeyboardInterrupt as exc:
        raise stopped_error(exc, len(wrote), folder) from None
    return wrote, same


def stopped_error(stop: KeyboardInterrupt, wrote: int, folder: Path) -> CommandError:
    """What an export stopped by Ctrl-C (or SIGTERM, or SIGHUP: its terminal closed) says: how
    many transcripts it wrote into ``folder`` (each whole, its .names beside it), and that the
    same command writes the rest; status 130 (143 for SIGTERM, 129 for SIGHUP)."""
    from scopa_net.commands.work_stops import how_stopped

    stopped, status = how_stopped(stop)
    if wrote == 0:
        return CommandError(f"{stopped} before any transcript was written into {folder}", status)
    return CommandError(
        f"{stopped} after writing {plural(wrote, 'transcript')} into {folder}, each whole with "
        "its .names; the same command writes the rest, leaving those as they are",
        status,
    )


def summary_lines(
    wrote: list[Exported], same: list[Exported], matches: int, folder: Path, key: str
) -> list[str]:
    """What an export of every match says after its files: how many were written (or that
    nothing was new), and the command that checks them all (``key``: the host's)."""
    count = "1 match" if matches == 1 else f"{matches} matches"
    if wrote:
        said = f"{plural(len(wrote), 'transcript')} of {count} written into {folder}, each "
        said += "with its .names beside it"
        if same:
            said += f"; {len(same)} already there, the same, left as they were"
    else:
        said = f"nothing new: the {plural(len(same), 'transcript')} of {count} are in "
        said += f"{folder} already, the same"
    return [said, f"check them with `scopa-net verify --pin {key} {folder}`"]


def write_transcript(path: Path, data: bytes, ended: float | None) -> None:
    """Write an exported file as the client writes its own transcripts: whole, for its owner
    only (0600); its time is when the match ended (``verify`` says "saved" then and orders
    files by it), or now for a match still in play. OSError is the caller's to report."""
    from scopa_net.client.files import replace_file

    replace_file(path, data, mode=0o600)
    if ended is not None:
        os.utime(path, (ended, ended))
