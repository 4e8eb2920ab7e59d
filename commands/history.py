"""``scopa-net history``: the matches in a host's journal, narrowed by table, name or time, and
one seat's transcript exported for ``scopa-net verify``."""

from __future__ import annotations

import argparse
import dataclasses
import errno
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from scopa_net.commands.history_export import (
    Exported,
    already_there,
    check_nothing_differs,
    left_out,
    stopped_error,
    summary_lines,
    write_new,
    write_transcript,
)
from scopa_net.commands.history_filter import (
    Listed,
    MatchFilter,
    Seats,
    parse_since,
    record_line,
    seat_named,
    seat_names,
    summary_seats,
    winning_seats,
)
from scopa_net.commands.journal_files import (
    open_journal,
)
from scopa_net.commands.options import (
    EXIT_FAILED,
    EXIT_LOCAL,
    CommandError,
    add_command,
    at_least,
    file_name,
    file_path,
    plural,
    said_default,
)
from scopa_net.commands.paths import default_host_db, lan_host_db
from scopa_net.rules import RuleSet
from scopa_net.score_line import score_line

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from scopa_net.fair.transcript import Transcript
    from scopa_net.seat_holders import SeatHolders
    from scopa_net.server.journal import Journal, TableRecord
    from scopa_net.server.table import Table


def register(subparsers: argparse._SubParsersAction) -> None:
    h = add_command(
        subparsers,
        "history",
        help="matches on this host, over and in play; export their transcripts",
        description="List the matches in a host's journal (each table's number and name, the "
        "match's number at a table that played more than one, when it started and ended or "
        "that it is in play, and the score), or export one seat's transcript for "
        "`scopa-net verify` (--export with no table: every seat's of every match the list "
        "keeps, into a folder). --table, --name and --since narrow the list (`history --name "
        "Ada --since start`: Ada's matches tonight, then her record: 'Ada: 3 matches, won "
        "2'); a list they leave empty says so in one line.",
    )
    h.add_argument(
        "--db",
        type=file_name,
        default=None,
        help="journal database (default: those of `host` and `play --lan`, in the data directory)",
    )
    listing = h.add_argument_group("narrowing the list (combined: a match must pass each)")
    listing.add_argument(
        "--table", type=at_least(1), default=None, help="only that table's matches"
    )
    listing.add_argument(
        "--name",
        default=None,
        help="only the matches where someone of that name held a seat (case and accents "
        "aside: nicolo finds Nicolò), then that person's record over them",
    )
    listing.add_argument(
        "--since",
        type=since_value,
        default=None,
        metavar="WHEN",
        help="only the matches that began at or after WHEN: a date YYYY-MM-DD or "
        "'YYYY-MM-DD HH:MM' (local time), or start (since the host last started: tonight)",
    )
    h.add_argument(
        "--export",
        type=at_least(1),
        nargs="?",
        const=EVERY_MATCH,
        metavar="TABLE",
        help="table to export; without TABLE, every seat of every match over that --table, "
        "--name and --since keep, into the folder --out names (default: this one)",
    )
    h.add_argument(
        "--seat",
        default=None,
        metavar="SEAT",
        help="with --export: whose transcript, a seat number or the name of someone who "
        f"held it in that match {said_default(0)}",
    )
    h.add_argument(
        "--match",
        type=int,
        metavar="N",
        help="which match of a table that played again (default: the last with a round played)",
    )
    h.add_argument(
        "--out",
        type=file_path,
        help="file to write (default: tableT-seatS.scopa, for table T and seat S; "
        "tableT-matchM-seatS.scopa for match M at a table that played again); with --export "
        "and no TABLE, the folder to write into, each file tableT-matchM-seatS-NAME.scopa",
    )
    h.set_defaults(run=run_history)


EVERY_MATCH = -1
"""``--export`` given no table: every match the filters keep."""


def _export_every_match(args: argparse.Namespace, wanted: MatchFilter) -> int:
    """``history --export`` without a table: every seat's transcript of each match over that
    ``wanted`` keeps, into the folder ``--out`` names (:mod:`.history_export`); each file
    written said, what was left out, and the command that checks them all."""
    lone = [f"--{flag}" for flag in ("seat", "match") if getattr(args, flag) is not None]
    if lone:
        raise CommandError(
            f"{' and '.join(lone)} {'chooses' if len(lone) == 1 else 'choose'} in one table's "
            "export (--export TABLE); --export without a table writes every seat of every "
            "match the filters keep"
        )
    journals = [("", args.db)] if args.db is not None else default_journals()
    if len(journals) > 1:
        which = " or ".join(f"--db {path} ({heading})" for heading, path in journals)
        raise CommandError(f"two journals here: give {which}, the one to export")
    folder = args.out if args.out is not None else Path(".")
    if folder.exists() and not folder.is_dir():
        raise CommandError(
            f"{folder} is a file: --out names the folder to write into when --export has no table"
        )
    journal = open_journal(journals[0][1], create=False)
    try:
        key = _fingerprint(journal)  # none beside the journal: said before anything else
        records = {r.table_id: with_computer_rounds(journal, r) for r in journal.tables()}
        played = {t: in_play(journal, r) for t, r in records.items() if r.finished is None}
        start = wanted.start(journal.host_starts())
        now = {t: words for t, (words, _) in played.items()}
        seated = {t: seats for t, (_, seats) in played.items()}
        kept = [
            m
            for m in listed_in_order(list(records.values()), now, seated)
            if wanted.keeps(m, start)
        ]
        over = [m for m in kept if m.over]
        going = [m for m in kept if not m.over and m.seats]
        replays: dict[str, tuple[list[list[Transcript]], list[SeatHolders]]] = {}
        files = [f for m in over for f in _files_of(journal, records[m.table_id], m, replays)]
    except KeyboardInterrupt as exc:  # while the matches were read: nothing is written
        raise stopped_error(exc, 0, folder) from None
    finally:
        journal.close()
    if not over:
        nothing = wanted.nothing(start, over=bool(going))
        if not going and not wanted.given():
            nothing = "no matches yet"
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


def _cannot_replay(exc: Exception) -> CommandError:
    """What an export says of a table whose journal an older scopa-net wrote (``exc``, its
    ``OlderJournalError``), which this one cannot replay."""
    return CommandError(
        f"cannot export {exc}, which this scopa-net cannot replay; each player's own "
        "transcript, saved by their client (transcripts/ in its data folder), is the one "
        "to check with `scopa-net verify`",
        EXIT_FAILED,
    )


def _files_of(
    journal: Journal,
    record: TableRecord,
    match: Listed,
    replays: dict[str, tuple[list[list[Transcript]], list[SeatHolders]]],
) -> list[Exported]:
    """The files of every seat of one match over, each named in no folder yet (``replays``:
    each table's matches, replayed once for all of them)."""
    from scopa_net.commands.history_export import export_name
    from scopa_net.names import seat_named, table_label
    from scopa_net.server.table import OlderJournalError

    players = int(record.settings["players"])
    try:
        if record.table_id not in replays:
            replays[record.table_id] = replayed_seats(journal, record, range(players))
        every, held = replays[record.table_id]
    except OlderJournalError as exc:
        raise _cannot_replay(exc) from None
    transcripts, holders = every[match.number - 1], held[match.number - 1]
    if not transcripts[0].rounds:
        return []
    names = holders.names_file(holders.last_names()).encode()
    ended = _match_ended(record, match.number)
    label = table_label(record.table_id, str(record.settings.get("name") or ""))
    match_names = holders.match_names()
    out = []
    for seat, transcript in enumerate(transcripts):
        who = seat_named(seat, match_names[seat]) if match_names[seat] else _seat_name("", seat)
        about = f"{who} of {label}, match {match.number}"
        if transcript.result.sig is None:
            about += " (closed before its end: unfinished)"
        path = Path(export_name(match, seat))
        out.append(Exported(path, transcript.encode(), names, ended, about))
    return out


def since_value(text: str) -> float | str:
    """``--since``'s value (:func:`parse_since`), a usage error said in one line."""
    try:
        return parse_since(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_history(args: argparse.Namespace) -> int:
    lone = [f"--{flag}" for flag in ("seat", "match", "out") if getattr(args, flag) is not None]
    if lone and args.export is None:
        raise CommandError(
            f"{' and '.join(lone)} {'is' if len(lone) == 1 else 'are'} for --export TABLE (the "
            "transcript to write); without --export, history lists the matches"
        )
    wanted = MatchFilter(args.table, args.name, args.since)
    if args.export == EVERY_MATCH:
        from scopa_net.client.sigterm import sigterm_raises

        with sigterm_raises():  # SIGTERM says what was written, as Ctrl-C does
            return _export_every_match(args, wanted)
    if wanted.given() and args.export is not None:
        given = [f"--{f}" for f in ("table", "name", "since") if getattr(args, f) is not None]
        raise CommandError(
            f"{' and '.join(given)} narrow the list; --export TABLE writes one transcript (its "
            "--seat takes a name): give one or the other, or --export with no table to write "
            "every match they keep"
        )
    if args.seat is None:
        args.seat = "0"
    journals = [("", args.db)] if args.db is not None else default_journals()
    if args.export is not None:
        journal = _journal_with_table(journals, args.export)
        try:
            return _export(journal, args)
        finally:
            journal.close()
    lines: list[str] = []
    for heading, path in journals:
        found = _listed(path, wanted)
        if heading:
            lines.append(f"{heading} (--db {path}):")
            found = [f"  {line}" for line in found]
        lines += found
    print("\n".join(lines))
    return 0


def _listed(path: str, wanted: MatchFilter) -> list[str]:
    """The lines ``history`` lists for the journal at ``path``: the matches ``wanted`` keeps,
    the host's restarts between them, and a --name's record; one line if none is kept."""
    journal = open_journal(path, create=False)
    try:
        records = [with_computer_rounds(journal, r) for r in journal.tables()]
        played = {r.table_id: in_play(journal, r) for r in records if r.finished is None}
        now = {table: words for table, (words, _) in played.items()}
        seated = {table: seats for table, (_, seats) in played.items()}
        starts = journal.host_starts()
    finally:
        journal.close()
    start = wanted.start(starts)
    kept = [m for m in listed_in_order(records, now, seated) if wanted.keeps(m, start)]
    if not kept:
        return [wanted.nothing(start) if wanted.given() else "no matches yet"]
    lines = with_restarts(kept, starts)
    return lines + ([record_line(wanted.name, kept)] if wanted.name is not None else [])


def default_journals() -> list[tuple[str, str]]:
    """The journals ``history`` reads without --db, each with the heading naming it: the
    host's alone (no heading) unless ``play --lan`` keeps one too."""
    host, lan = default_host_db(os.environ), lan_host_db(os.environ)
    if not lan.exists():
        return [("", str(host))]
    mine = [("scopa-net host", str(host))] if host.exists() else []
    return [*mine, ("play --lan", str(lan))]


def _journal_with_table(journals: list[tuple[str, str]], table: int) -> Journal:
    """The one journal of ``journals`` holding ``table`` (to export); CommandError if none
    does, or more than one (then --db must say which)."""
    opened = [(heading, path, open_journal(path, create=False)) for heading, path in journals]
    holding = [
        (heading, path, journal)
        for heading, path, journal in opened
        if any(r.table_id == str(table) for r in journal.tables())
    ]
    for _, _, journal in opened:
        if len(holding) != 1 or journal is not holding[0][2]:
            journal.close()
    if len(holding) == 1:
        return holding[0][2]
    if not holding and len(opened) == 1:
        raise CommandError(f"no table {table} in this journal")
    which = " or ".join(f"--db {path} ({heading})" for heading, path, _ in holding or opened)
    if not holding:
        raise CommandError(f"no table {table} in either journal ({which})")
    raise CommandError(f"table {table} is in both journals: give {which}")


def played_order(
    records: Sequence[TableRecord],
    starts: Sequence[float] = (),
    now: dict[str, str] | None = None,
) -> list[str]:
    """Every match of every table in ``records``, in the order they began (not table by
    table: a table's third match, played the next evening, comes among that evening's), and
    a line where the host restarted (``starts``: when it started, each time) between them.
    ``now``: table id -> how its match in play stands (:func:`in_play`)."""
    return with_restarts(listed_in_order(records, now), starts)


def listed_in_order(
    records: Sequence[TableRecord],
    now: dict[str, str] | None = None,
    seated: dict[str, Seats] | None = None,
) -> list[Listed]:
    """Every match of every table in ``records`` (:func:`listed_matches`), in the order
    they began. ``seated``: table id -> who holds each seat of its match in play."""
    now, seated = now or {}, seated or {}
    found = [
        m
        for r in records
        for m in listed_matches(r, now.get(r.table_id, ""), seated.get(r.table_id, ()))
    ]
    return [m for _, m in sorted(enumerate(found), key=lambda nm: (nm[1].began, nm[0]))]


def with_restarts(matches: Sequence[Listed], starts: Sequence[float] = ()) -> list[str]:
    """The lines of ``matches`` (in the order they began), with a line where the host
    restarted (``starts``) between two of them."""
    lines: list[str] = []
    restarts = sorted(starts)
    for match in matches:
        if lines:  # a start before any match listed is the host's first: no restart
            while restarts and restarts[0] <= match.began:
                lines.append(f"host restarted {_minute(restarts.pop(0))}")
        else:
            restarts = [t for t in restarts if t > match.began]
        lines.append(match.line)
    return lines


def finished_matches(record: TableRecord) -> list[str]:
    """A line for each match of a table, in order: those over (the one before a rematch too)
    and the one in play. Each line names the table (number and name), the match's number
    when the table played more than one, and when it started and ended, or "in play"."""
    return [line for _, line in timed_matches(record)]


def timed_matches(record: TableRecord, now: str = "") -> list[tuple[float, str]]:
    """:func:`finished_matches`, each line with when its match began (its first deal; the
    table's opening if the journal does not say), the order ``history`` lists them in.
    ``now``: how the match in play stands, or who waits at a table waiting for players."""
    return [(m.began, m.line) for m in listed_matches(record, now)]


def listed_matches(record: TableRecord, now: str = "", seated: Seats = ()) -> list[Listed]:
    """:func:`timed_matches`, each with who held its seats and who won (``seated``: who
    holds the seats of the match in play)."""
    matches: list[dict] = []
    if record.summary:
        summary = dict(record.summary)  # the last match over
        matches = [*summary.pop("earlier", []), summary]
    in_play = record.finished is None
    count = len(matches) + in_play
    name = str(record.settings.get("name") or "") if isinstance(record.settings, dict) else ""
    listed: list[Listed] = []
    started: float | None = record.created
    for n, match in enumerate(matches, 1):
        began = match.get("began")  # its first deal (not kept before: the table's opening)
        if isinstance(began, int | float) and (started is None or began >= started):
            started = began
        ended = match.get("finished")
        if not isinstance(ended, int | float):  # a journal from before each end was kept
            ended = record.finished if n == len(matches) else None
        line = describe_finished(
            record.table_id,
            started,
            match,
            match_no=n if count > 1 else None,
            ended=ended,
            name=name,
        )
        seats = summary_seats(match)
        won = winning_seats(match, len(seats))
        listed.append(Listed(started or record.created, line, record.table_id, seats, won, True, n))
        started = ended  # a rematch begins as the match before it ends
    if in_play:
        head = _match_head(record.table_id, name, count if count > 1 else None)
        if record.began is not None and (started is None or record.began >= started):
            started = record.began
        if not matches and not record.dealt:
            line = f"{head}: waiting for players since {_minute(record.created)}"
            seated = ()  # nobody has played a match there yet
        else:
            line = f"{head}: started {_minute(started) if started else '?'}, in play"
        line += f": {now}" if now else ""
        began = started or record.created
        listed.append(Listed(began, line, record.table_id, seated, over=False, number=count))
    return listed


def in_play(journal: Journal, record: TableRecord) -> tuple[str, Seats]:
    """How a table not finished stands, replayed from its journal: who plays and the score
    so far (``Ada 3 - Bruno 1 after 2 rounds``; ``Ada 0 - Bruno 0, round 1 in play`` before
    the first round is scored) and where a computer played for someone
    (``; a computer played for Bruno in round 2``), or who sits and waits (``Ada waits``);
    "" if nobody sits or the table cannot be replayed. With it, who has held each seat of
    the match in play (none before it began, or if the table cannot be replayed)."""
    from scopa_net.seat_holders import computer_words
    from scopa_net.server.table import SeatKind

    try:
        table = replayed_table(journal, record)
    except Exception:  # a note only: the table is listed all the same
        return "", ()
    people = [s.name for s in table.seats if s.kind is SeatKind.HUMAN and s.name]
    match = table.match
    if match is None or not table.holders.began():
        if not people:
            return "", ()
        return f"{' and '.join(people)} {'waits' if len(people) == 1 else 'wait'}", ()
    names = [
        h or s.name or f"seat {n}"
        for n, (h, s) in enumerate(zip(table.holders.match_names(), table.seats, strict=True))
    ]
    sides = len(match.scores)
    score = score_line([(" & ".join(names[side::sides]), p) for side, p in enumerate(match.scores)])
    seats = tuple(seat_names(n) for n in names)
    holders = table.holders  # where a computer played for someone, as a match over says it
    said = computer_words(names, holders.computer_rounds(), holders.computer_people())
    scored = len(match.results)
    # Before any round is scored: not "0 - 0 after 0 rounds", which reads as no score at all.
    line = f"{score} after {plural(scored, 'round')}" if scored else f"{score}, round 1 in play"
    return line + (f"; {said}" if said else ""), seats


def _match_head(table_id: str, name: str, match_no: int | None) -> str:
    """``table 3 'Kitchen', match 2``: the table by number and name, and the match's number."""
    from scopa_net.names import table_label

    head = table_label(table_id, name)
    return f"{head}, match {match_no}" if match_no else head


def describe_finished(
    table_id: str,
    started: float | None,
    summary: dict,
    *,
    match_no: int | None = None,
    ended: float | None = None,
    name: str = "",
) -> str:
    """One match over: the table (number and name), the match's number (``match_no``, at a
    table that played more than one), when it started and ``ended`` (the journal's own
    times, never a restart's), who played (everyone who held a seat: ``Bruno & Dino, then
    Ivo``), the score, the winner and the rules."""
    name = name or str(summary.get("name") or "")
    head = _match_head(table_id, name, match_no)
    when = f"started {_minute(started)}" if started else "started ?"
    if isinstance(ended, int | float):
        end = _minute(ended)
        same_day = started and end[:10] == _minute(started)[:10]
        when += f", ended {end[11:] if same_day else end}"
    players = [_seat_name(name, seat) for seat, name in enumerate(summary.get("players", []))]
    holders = summary.get("holders")  # everyone who played each seat (none before it was kept)
    if isinstance(holders, list) and len(holders) == len(players):
        players = [str(h) if h else p for h, p in zip(holders, players, strict=True)]
    scores = list(summary.get("scores") or [])
    winner = summary.get("winner")
    sides = len(scores)
    names = [" & ".join(players[side::sides]) if sides else "" for side in range(sides)]
    score = score_line(
        [
            (name or f"side {i}", points)
            for i, (name, points) in enumerate(zip(names, scores, strict=True))
        ]
    )
    won = (
        f"; {names[winner] or f'side {winner}'} won"
        if isinstance(winner, int) and winner < sides
        else ""
    )
    rules = f" ({summary['rules']})" if summary.get("rules") else ""
    if summary.get("abandoned"):
        why = summary.get("closed") or "everyone had left"
        won = f"{'; ' if score else ''}closed unfinished: {why}"
    from scopa_net.seat_holders import computer_words

    computer = summary.get("computer")  # the rounds a computer played for a seat's person
    whose = summary.get("computer_for")  # whom it played for then (none before it was kept)
    if isinstance(computer, list) and len(computer) == len(players) and score:
        rounds = [r if isinstance(r, list) else [] for r in computer]
        said = computer_words(players, rounds, _played_for(whose, len(players)))
        won += f"; {said}" if said else ""
    return f"{head}: {when}: {score}{won}{rules}"


def _played_for(kept: object, seats: int) -> list[list[tuple[int, str]]] | None:
    """A summary's ``computer_for`` read back: by seat, each round a computer played for a
    person and their name; None if it holds none (kept before it was) or not as written."""
    if not isinstance(kept, list) or len(kept) != seats:
        return None
    pairs = [p for seat in kept if isinstance(seat, list) for p in seat]
    if not all(isinstance(p, list | tuple) and len(p) == 2 for p in pairs):
        return None
    if not all(isinstance(r, int) for r, _ in pairs):
        return None
    return [[(int(r), str(n)) for r, n in seat] if isinstance(seat, list) else [] for seat in kept]


def _minute(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(when))


def _seat_name(name: object, seat: int) -> str:
    """A seat's player as history shows it: the name, or ``seat 1 (open)`` for a seat nobody
    took (the journal keeps no name for it), numbered as ``who`` numbers seats."""
    return str(name) if name else f"seat {seat} (open)"


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


def replayed(
    journal: Journal, record: TableRecord, seat: int | None
) -> tuple[list[Transcript], list[SeatHolders]]:
    """Each match of a table, rebuilt from its journal as a restart does: ``seat``'s
    transcript of it (none without a seat) and who held its seats, round by round."""
    every, held = replayed_seats(journal, record, [] if seat is None else [seat])
    return [seats[0] for seats in every if seats], held


def replayed_seats(
    journal: Journal, record: TableRecord, seats: Sequence[int]
) -> tuple[list[list[Transcript]], list[SeatHolders]]:
    """:func:`replayed` for several seats at once (one replay of the table): each match's
    transcripts of ``seats``, in that order, and who held its seats."""

    table = _new_table(journal, record)
    matches: list[list[Transcript]] = []  # each match over when the table played again
    held: list[SeatHolders] = []  # who held its seats, round by round

    def keep_match() -> None:
        if seats:
            matches.append([table.transcript_for(seat) for seat in seats])
        held.append(table.holders)

    table.before_rematch = keep_match
    table.replay((e.kind, e.payload) for e in journal.entries(record.table_id))
    keep_match()
    return matches, held


def _new_table(journal: Journal, record: TableRecord) -> Table:
    """The table ``record`` opened, before any of its journal's entries."""
    from scopa_net.server.blind_table import BlindTable
    from scopa_net.server.table import Table

    settings = record.settings
    rules = RuleSet.of(settings["players"], settings["target"], settings["variants"])
    kind = BlindTable if settings.get("blind") else Table
    return kind(
        int(record.table_id), settings["name"], rules, journal_key(journal), bots=settings["bots"]
    )


def journal_key(journal: Journal) -> Ed25519PrivateKey:
    """The key of the host that kept ``journal``, which signs what is exported from it: from
    its file beside the journal, never made here (a key made here would sign under a key no
    player pinned). CommandError (one line) if there is none, or it cannot be read."""
    from scopa_net.server.host import host_key_path, read_host_key

    path = host_key_path(journal.path)
    try:
        key = read_host_key(journal)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise CommandError(f"cannot read the host key {path}: {why}", EXIT_LOCAL) from None
    if key is None:
        raise CommandError(
            f"no host key beside the journal {journal.path} (it would be {path}): what history "
            "exports is signed with the key of the host that kept this journal; copy that "
            "host's key file (host.key, beside its journal) to "
            f"{path}, then try again",
            EXIT_LOCAL,
        )
    return key


def replayed_table(journal: Journal, record: TableRecord) -> Table:
    """The table ``record`` as its journal leaves it (as a restart rebuilds it)."""
    table = _new_table(journal, record)
    table.replay((e.kind, e.payload) for e in journal.entries(record.table_id))
    return table


def with_computer_rounds(journal: Journal, record: TableRecord) -> TableRecord:
    """``record`` with, in each match's summary, the rounds a computer played for each seat's
    person (``computer``): the host keeps them there, and for a match a journal kept before
    it did, they are found by replaying the table (only where a person went away)."""
    summary = record.summary
    if not isinstance(summary, dict) or not isinstance(record.settings, dict):
        return record
    matches = [dict(m) for m in [*summary.get("earlier", []), summary] if isinstance(m, dict)]
    if all("computer" in m for m in matches) or not journal.has_entry(record.table_id, "status"):
        return record
    try:
        _, held = replayed(journal, record, None)
    except Exception:  # a note only: a table that cannot be replayed is listed all the same
        return record
    for match, holders in zip(matches, held, strict=False):
        if "computer" not in match:
            match["computer"] = holders.computer_rounds()
            match["computer_for"] = holders.computer_people()
    *earlier, last = matches
    return dataclasses.replace(record, summary={**last, "earlier": earlier} if earlier else last)


def _match_ended(record: TableRecord, match_no: int) -> float | None:
    """When the table's match ``match_no`` (from 1) ended, as its journal says; None for one
    still in play."""
    summary = record.summary
    if not isinstance(summary, dict):
        return None
    ended = [*summary.get("earlier", []), summary]
    if match_no > len(ended) or not isinstance(ended[match_no - 1], dict):
        return None
    when = ended[match_no - 1].get("finished")
    if when is None and match_no == len(ended):  # a journal kept before matches said it
        when = record.finished
    return float(when) if isinstance(when, int | float) else None


def _seat_named(name: str, holders: SeatHolders, where: str) -> int:
    """The seat someone called ``name`` held in a match (:func:`seat_named`), or one line."""
    try:
        return seat_named(name, holders.match_names(), where)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def _export(journal: Journal, args: argparse.Namespace) -> int:
    records = {r.table_id: r for r in journal.tables()}
    record = records[str(args.export)]
    settings = record.settings
    rules = RuleSet.of(settings["players"], settings["target"], settings["variants"])
    by_number = re.fullmatch(r"-?\d+", args.seat.strip()) is not None
    seat = int(args.seat) if by_number else 0
    if not 0 <= seat < rules.players:
        raise CommandError(
            f"seat {seat} is not a seat at table {args.export}: give --seat 0 to "
            f"{rules.players - 1}, or the name of someone who held one"
        )
    from scopa_net.server.table import OlderJournalError

    try:
        matches, held = replayed(journal, record, seat)
        match_no, transcript = _chosen_match(matches, args.match, args.export)
        if not by_number:
            where = f"table {args.export}"
            where = f"match {match_no} of {where}" if len(matches) > 1 else where
            seat = _seat_named(args.seat, held[match_no - 1], where)
            if seat != 0:  # the transcript is that seat's own
                matches, held = replayed(journal, record, seat)
                transcript = matches[match_no - 1]
    except OlderJournalError as exc:
        raise _cannot_replay(exc) from None
    name = f"table{args.export}-seat{seat}.scopa"
    if len(matches) > 1:
        name = f"table{args.export}-match{match_no}-seat{seat}.scopa"
    out = args.out or Path(name)
    # Transcripts know seats only (protocol.md 6.1): the names the host knew go beside it,
    # where `verify` reads them, round by round where a seat changed hands.
    names = out.with_suffix(".names") if out.suffix != ".names" else None
    holders = held[match_no - 1]
    ended = _match_ended(record, match_no)
    data = transcript.encode()
    there = already_there(out, data, transcript)
    key = _fingerprint(journal)
    try:
        if names is not None and (there != "same" or not names.exists()):
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
    voids = sum(r.void is not None for r in transcript.rounds)
    counted = plural(len(transcript.rounds) - voids, "round")  # played out; voids apart
    if voids:
        counted += f" and {plural(voids, 'void round')}"
    if len(matches) > 1:
        counted = f"match {match_no} of {len(matches)}, {counted}"
    if names is not None:
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
    print(f"wrote {out} ({counted}); check it with `scopa-net verify --pin {key} {out}`")
    return 0


def _fingerprint(journal: Journal) -> str:
    """The key of the host whose journal it is, as it shows it: this machine runs that host,
    so its key is the one to pin (verify trusts by itself only the keys of hosts joined, and
    of those `play` ran)."""
    from scopa_net.fair.commitments import fingerprint, public_key_bytes

    return fingerprint(public_key_bytes(journal_key(journal)))
