"""``scopa-net history --export`` with no table: every seat's transcript of every match over
that the list's filters keep, into one folder (:mod:`.history_export` names and writes the
files); each file written said, the matches still in play left out, and the command that
checks them all."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from scopa_net.commands.history_export import (
    Exported,
    cannot_replay,
    check_nothing_differs,
    export_name,
    left_out,
    stopped_error,
    summary_lines,
    write_new,
)
from scopa_net.commands.history_filter import Listed, MatchFilter
from scopa_net.commands.history_journals import chosen_journals
from scopa_net.commands.history_list import journal_matches, nothing_kept
from scopa_net.commands.history_matches import match_ended, player_shown
from scopa_net.commands.history_replay import host_fingerprint, replayed_seats, table_rules
from scopa_net.commands.journal_files import open_journal
from scopa_net.commands.options import CommandError

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript
    from scopa_net.seat_holders import SeatHolders
    from scopa_net.server.journal import Journal, TableRecord

    # Each table's matches, replayed once for all of them: every seat's transcripts of each
    # match, and who held its seats.
    Replays = dict[str, tuple[list[list[Transcript]], list[SeatHolders]]]


def export_every_match(db: str | None, out: Path | None, wanted: MatchFilter) -> int:
    """Every seat's transcript of each match over that ``wanted`` keeps, from the journal
    ``db`` names (None: the one in the data directory, if there is one only), into the
    folder ``out`` (None: this one)."""
    journals = chosen_journals(db)
    if len(journals) > 1:
        which = " or ".join(f"--db {path} ({heading})" for heading, path in journals)
        raise CommandError(f"two journals here: give {which}, the one to export")
    folder = out if out is not None else Path(".")
    if folder.exists() and not folder.is_dir():
        raise CommandError(
            f"{folder} is a file: --out names the folder to write into when --export has no table"
        )
    journal = open_journal(journals[0][1], create=False)
    try:
        key = host_fingerprint(journal)  # none beside the journal: said before anything else
        found = journal_matches(journal)
        kept, start = found.kept(wanted)
        over = [m for m in kept if m.over]
        going = [m for m in kept if not m.over and m.seats]
        replays: Replays = {}
        files = [f for m in over for f in _files_of(journal, found.records[m.table_id], m, replays)]
    except KeyboardInterrupt as exc:  # while the matches were read: nothing is written
        raise stopped_error(exc, 0, folder) from None
    finally:
        journal.close()
    if not over:
        nothing = nothing_kept(wanted, start, over=bool(going))
        print("\n".join([nothing, *([left_out(going)] if going else [])]))
        return 0
    files = [dataclasses.replace(f, path=folder / f.path) for f in files]
    check_nothing_differs(files)
    wrote, same = write_new(files, folder)
    lines = [f"wrote {f.path}: {f.about}" for f in wrote]
    said, check = summary_lines(wrote, same, len(over), folder, key)
    lines += [said, *([left_out(going)] if going else []), check]
    print("\n".join(lines))
    return 0


def _files_of(
    journal: Journal, record: TableRecord, match: Listed, replays: Replays
) -> list[Exported]:
    """The files of every seat of one match over, each named in no folder yet (``replays``:
    each table's matches, replayed once for all of them)."""
    from scopa_net.names import seat_named, table_label
    from scopa_net.server.table import OlderJournalError

    try:
        if record.table_id not in replays:
            seats = range(table_rules(record).players)
            replays[record.table_id] = replayed_seats(journal, record, seats)
        every, held = replays[record.table_id]
    except OlderJournalError as exc:
        raise cannot_replay(exc) from None
    transcripts, holders = every[match.number - 1], held[match.number - 1]
    if not transcripts[0].rounds:
        return []
    names = holders.names_file(holders.last_names()).encode()
    ended = match_ended(record, match.number)
    label = table_label(record.table_id, str(record.settings.get("name") or ""))
    match_names = holders.match_names()
    out = []
    for seat, transcript in enumerate(transcripts):
        who = seat_named(seat, match_names[seat]) if match_names[seat] else player_shown("", seat)
        about = f"{who} of {label}, match {match.number}"
        if transcript.result.sig is None:
            about += " (closed before its end: unfinished)"
        path = Path(export_name(match, seat))
        out.append(Exported(path, transcript.encode(), names, ended, about))
    return out
