"""``scopa-net history --export TABLE``: one seat's transcript of one match of a table, the seat
by number or by the name of someone who held it, written with the seats' names beside it
(``.names``, which ``verify`` reads) and never over another file (:mod:`.history_export`)."""

from __future__ import annotations

import errno
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scopa_net.commands.history_export import already_there, cannot_replay, write_transcript
from scopa_net.commands.history_filter import seat_named
from scopa_net.commands.history_matches import match_ended
from scopa_net.commands.history_replay import host_fingerprint, replayed, table_rules
from scopa_net.commands.options import EXIT_FAILED, EXIT_LOCAL, CommandError, plural

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript
    from scopa_net.seat_holders import SeatHolders
    from scopa_net.server.journal import Journal, TableRecord


@dataclass(frozen=True)
class Chosen:
    """The transcript to export: whose (``seat``), of which match (``number``, from 1), and
    every match of its table (``matches``: that seat's transcripts; ``held``: who held each
    match's seats)."""

    seat: int
    number: int
    transcript: Transcript
    matches: list[Transcript]
    held: list[SeatHolders]


def export_seat(
    journal: Journal, table: int, seat: str, match: int | None, out: Path | None
) -> int:
    """Write ``seat``'s transcript (a number, or the name of someone who held it) of
    ``table``'s match ``match`` (None: the last with a round played) to ``out`` (None:
    ``tableT-seatS.scopa``, ``tableT-matchM-seatS.scopa`` at a table that played again), its
    ``.names`` beside it; say what was written and the command that checks it. An ``out``
    ending in ``.names`` is refused: that name is the names file's."""
    if out is not None and out.suffix == ".names":
        raise CommandError(
            f"--out {out}: a .names file holds the seats' names, written beside the transcript; "
            f"give --out the transcript's own name, such as {out.with_suffix('.scopa')}"
        )
    record = {r.table_id: r for r in journal.tables()}[str(table)]
    chosen = chosen_transcript(journal, record, table, seat, match)
    name = f"table{table}-seat{chosen.seat}.scopa"
    if len(chosen.matches) > 1:
        name = f"table{table}-match{chosen.number}-seat{chosen.seat}.scopa"
    out = out or Path(name)
    # Transcripts know seats only (protocol.md 6.1): the names the host knew go beside it,
    # where `verify` reads them, round by round where a seat changed hands.
    names = out.with_suffix(".names")
    holders = chosen.held[chosen.number - 1]
    ended = match_ended(record, chosen.number)
    data = chosen.transcript.encode()
    there = already_there(out, data, chosen.transcript)
    key = host_fingerprint(journal)
    try:
        if there != "same" or not names.exists():
            write_transcript(names, holders.names_file(holders.last_names()).encode(), ended)
        if there == "same":
            print(
                f"{out} is there already, the same: nothing to write; check it with "
                f"`scopa-net verify --pin {key} {out}`"
            )
            return 0
        write_transcript(out, data, ended)
    except OSError as exc:
        why = exc.strerror or str(exc)
        folder = "that exists" if exc.errno == errno.ENOENT else "you can write"
        raise CommandError(
            f"cannot write {out}: {why}; give --out a file in a folder {folder}", EXIT_LOCAL
        ) from None
    counted = _what_was_written(chosen, record, names, there)
    print(f"wrote {out} ({counted}); check it with `scopa-net verify --pin {key} {out}`")
    return 0


def chosen_transcript(
    journal: Journal, record: TableRecord, table: int, seat: str, match: int | None
) -> Chosen:
    """The transcript ``--seat`` and ``--match`` choose at ``table`` (:func:`export_seat`),
    replayed from ``journal``; CommandError (one line) for a seat or match there is not, or
    a table this scopa-net cannot replay."""
    from scopa_net.server.table import OlderJournalError

    by_number = re.fullmatch(r"-?\d+", seat.strip()) is not None
    number = int(seat) if by_number else 0
    try:
        players = table_rules(record).players
        if not 0 <= number < players:
            raise CommandError(
                f"seat {number} is not a seat at table {table}: give --seat 0 to "
                f"{players - 1}, or the name of someone who held one"
            )
        matches, held = replayed(journal, record, number)
        match_no, transcript = _chosen_match(matches, match, table)
        if not by_number:
            where = f"table {table}"
            where = f"match {match_no} of {where}" if len(matches) > 1 else where
            number = _seat_named(seat, held[match_no - 1], where)
            if number != 0:  # the transcript is that seat's own
                matches, held = replayed(journal, record, number)
                transcript = matches[match_no - 1]
    except OlderJournalError as exc:
        raise cannot_replay(exc) from None
    return Chosen(number, match_no, transcript, matches, held)


def _what_was_written(chosen: Chosen, record: TableRecord, names: Path, there: str) -> str:
    """The words in brackets after ``wrote FILE``: the rounds it holds, which match, where
    the names went, whether it is unfinished, and the earlier copy it replaces (``there``)."""
    transcript, match_no, matches = chosen.transcript, chosen.number, chosen.matches
    voids = sum(r.void is not None for r in transcript.rounds)
    counted = plural(len(transcript.rounds) - voids, "round")  # played out; voids apart
    if voids:
        counted += f" and {plural(voids, 'void round')}"
    if len(matches) > 1:
        counted = f"match {match_no} of {len(matches)}, {counted}"
    counted += f", the seats' names in {names}"
    if transcript.result.sig is None:  # no signed end: verify will say UNFINISHED
        in_play = record.finished is None and match_no == len(matches)
        counted += (
            "; match still in play: unfinished"
            if in_play
            else "; match closed before its end: unfinished"
        )
    if there:  # an earlier copy of this match (exported while it was in play)
        counted += f"; it replaces the copy exported before, of {there}"
    return counted


def _chosen_match(
    matches: Sequence[Transcript], wanted: int | None, table_id: int
) -> tuple[int, Transcript]:
    """The match to export and its number: ``wanted`` (from 1), or the last with a round
    played (a rematch that has not dealt yet has none)."""
    if wanted is None:
        played = [n for n, t in enumerate(matches, 1) if t.rounds]
        if not played:
            raise CommandError(
                f"table {table_id} never finished a round: there is no transcript to export",
                EXIT_FAILED,
            )
        return played[-1], matches[played[-1] - 1]
    if not 1 <= wanted <= len(matches):
        count = "1 match" if len(matches) == 1 else f"{len(matches)} matches"
        raise CommandError(f"--match {wanted}: table {table_id} has played {count}")
    if not matches[wanted - 1].rounds:
        raise CommandError(
            f"match {wanted} of table {table_id} has not finished a round yet: there is no "
            "transcript to export",
            EXIT_FAILED,
        )
    return wanted, matches[wanted - 1]


def _seat_named(name: str, holders: SeatHolders, where: str) -> int:
    """The seat someone called ``name`` held in a match (:func:`seat_named`), or one line."""
    try:
        return seat_named(name, holders.match_names(), where)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
