"""``scopa-net history --export`` without a table: every seat's transcript of every match
the list's filters keep (``--since``, ``--name``, ``--table``), written into one folder for
``scopa-net verify FOLDER``, each file named by its table, match, seat and who held it.

Nothing is written over: a file already there with the same bytes is left as it is (running
the same export again is harmless), and one that differs stops the export, before anything is
written, in one line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scopa_net.commands.history_filter import Listed, MatchFilter
from scopa_net.commands.options import EXIT_FAILED, EXIT_LOCAL, CommandError, plural
from scopa_net.tally import folded

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript
    from scopa_net.seat_holders import SeatHolders
    from scopa_net.server.journal import Journal, TableRecord

    Replayed = tuple[list[list[Transcript]], list[SeatHolders]]
    """A table's matches replayed: each one's transcripts by seat, and who held its seats."""


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


def export_every_match(journal: Journal, wanted: MatchFilter, folder: Path) -> int:
    """Write every seat's transcript of each match over that ``wanted`` keeps into
    ``folder``, say each file written and what was left out, and end with the command that
    checks them all. CommandError (one line) for what cannot be done."""
    from scopa_net.commands.history import (
        _fingerprint,
        in_play,
        journal_key,
        listed_in_order,
        with_computer_rounds,
    )

    journal_key(journal)  # none beside the journal: said before anything else

    records = {r.table_id: with_computer_rounds(journal, r) for r in journal.tables()}
    played = {t: in_play(journal, r) for t, r in records.items() if r.finished is None}
    start = wanted.start(journal.host_starts())
    kept = [
        m
        for m in listed_in_order(
            list(records.values()),
            {t: words for t, (words, _) in played.items()},
            {t: seats for t, (_, seats) in played.items()},
        )
        if wanted.keeps(m, start)
    ]
    over = [m for m in kept if m.over]
    going = [m for m in kept if not m.over and m.seats]
    if not over:
        print(wanted.nothing(start) if wanted.given() else "no matches yet")
        if going:
            print(_left_out(going))
        return 0
    replays: dict[str, Replayed] = {}
    files = [f for m in over for f in _files_of(journal, records[m.table_id], m, folder, replays)]
    _check_nothing_differs(files)
    wrote, same = _write(files, folder)
    for f in wrote:
        print(f"wrote {f.path}: {f.about}")
    key = _fingerprint(journal)
    matches = "1 match" if len(over) == 1 else f"{len(over)} matches"
    if wrote:
        said = f"{plural(len(wrote), 'transcript')} of {matches} written into {folder}, each "
        said += "with its .names beside it"
        if same:
            said += f"; {len(same)} already there, the same, left as they were"
    else:
        said = f"nothing new: the {plural(len(same), 'transcript')} of {matches} are in "
        said += f"{folder} already, the same"
    print(said)
    if going:
        print(_left_out(going))
    print(f"check them with `scopa-net verify --pin {key} {folder}`")
    return 0


def _left_out(going: list[Listed]) -> str:
    """The line that says which matches were not exported: they are still in play."""
    which = ", ".join(_match_words(m) for m in going)
    return f"not exported, still in play: {which} (export them when they end)"


def _match_words(match: Listed) -> str:
    return f"table {match.table_id}, match {match.number}"


def _files_of(
    journal: Journal,
    record: TableRecord,
    match: Listed,
    folder: Path,
    replays: dict[str, Replayed],
) -> list[Exported]:
    """The files of every seat of one match over (``replays``: each table's matches, replayed
    once for all of them)."""
    from scopa_net.commands.history import _match_ended, replayed_seats
    from scopa_net.names import table_label
    from scopa_net.server.table import OlderJournalError

    players = int(record.settings["players"])
    try:
        if record.table_id not in replays:
            replays[record.table_id] = replayed_seats(journal, record, range(players))
        every, held = replays[record.table_id]
    except OlderJournalError as exc:
        raise CommandError(
            f"cannot export {exc}, which this scopa-net cannot replay; each player's own "
            "transcript, saved by their client (transcripts/ in its data folder), is the one "
            "to check with `scopa-net verify`",
            EXIT_FAILED,
        ) from None
    transcripts, holders = every[match.number - 1], held[match.number - 1]
    if not transcripts[0].rounds:
        return []
    names = holders.names_file(holders.last_names()).encode()
    ended = _match_ended(record, match.number)
    label = table_label(record.table_id, str(record.settings.get("name") or ""))
    match_names = holders.match_names()
    out = []
    for seat, transcript in enumerate(transcripts):
        who = match_names[seat] or "open"
        about = f"seat {seat} ({who}) of {label}, match {match.number}"
        if transcript.result.sig is None:
            about += " (closed before its end: unfinished)"
        path = folder / export_name(match, seat)
        out.append(Exported(path, transcript.encode(), names, ended, about))
    return out


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


def _check_nothing_differs(files: list[Exported]) -> None:
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


def _write(files: list[Exported], folder: Path) -> tuple[list[Exported], list[Exported]]:
    """Write the files not there yet; the files written, and those found there the same."""
    from scopa_net.client.files import make_private_folder
    from scopa_net.commands.history import write_transcript

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
    return wrote, same
