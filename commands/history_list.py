"""What ``scopa-net history`` lists for a journal: every match of its tables in the order they
began (:mod:`.history_matches`), a match in play as it stands (replayed from the journal:
the score so far, where a computer played for someone, or who waits at a table waiting for
players), narrowed by the filters (:mod:`.history_filter`), with the host's restarts between
them and a ``--name``'s record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scopa_net.commands.history_filter import Listed, MatchFilter, Seats, record_line, seat_names
from scopa_net.commands.history_matches import listed_in_order, with_restarts
from scopa_net.commands.history_replay import replayed_table, with_computer_rounds
from scopa_net.commands.journal_files import open_journal
from scopa_net.score_line import score_line

if TYPE_CHECKING:
    from scopa_net.server.journal import Journal, TableRecord


def listing(journals: list[tuple[str, str]], wanted: MatchFilter) -> list[str]:
    """The lines ``history`` prints for ``journals`` (each a heading and a path; the heading
    "" for a journal listed alone): each journal's lines, under its heading if it has one."""
    lines: list[str] = []
    for heading, path in journals:
        found = listed_lines(path, wanted)
        if heading:
            lines.append(f"{heading} (--db {path}):")
            found = [f"  {line}" for line in found]
        lines += found
    return lines


def listed_lines(path: str, wanted: MatchFilter) -> list[str]:
    """The lines ``history`` lists for the journal at ``path``: the matches ``wanted`` keeps,
    the host's restarts between them, and a --name's record; one line if none is kept."""
    journal = open_journal(path, create=False)
    try:
        found = journal_matches(journal)
    finally:
        journal.close()
    kept, start = found.kept(wanted)
    if not kept:
        return [nothing_kept(wanted, start)]
    lines = with_restarts(kept, found.starts)
    return lines + ([record_line(wanted.name, kept)] if wanted.name is not None else [])


@dataclass(frozen=True)
class JournalMatches:
    """Every match a journal tells of, as ``history`` lists them."""

    records: dict[str, TableRecord]
    """Each table's record by its id, with the rounds a computer played for someone."""
    matches: list[Listed]
    """Every match of every table, in the order they began."""
    starts: list[float]
    """When the host started, each time."""

    def kept(self, wanted: MatchFilter) -> tuple[list[Listed], float | None]:
        """The matches ``wanted`` keeps, and when they must have begun by (none: any time)."""
        start = wanted.start(self.starts)
        return [m for m in self.matches if wanted.keeps(m, start)], start


def journal_matches(journal: Journal) -> JournalMatches:
    """Every match of ``journal``'s tables, those in play replayed to say how they stand."""
    records = {r.table_id: with_computer_rounds(journal, r) for r in journal.tables()}
    played = {t: in_play(journal, r) for t, r in records.items() if r.finished is None}
    now = {table: words for table, (words, _) in played.items()}
    seated = {table: seats for table, (_, seats) in played.items()}
    matches = listed_in_order(list(records.values()), now, seated)
    return JournalMatches(records, matches, journal.host_starts())


def nothing_kept(wanted: MatchFilter, start: float | None, *, over: bool = False) -> str:
    """The line when no match is kept: the filters' words (:meth:`MatchFilter.nothing`), or
    that the journal holds none yet; ``over``: some are kept but none is over (for an export:
    ``no match is over yet: nothing exported``)."""
    if over or wanted.given():
        return wanted.nothing(start, over=over)
    return "no matches yet"


def in_play(journal: Journal, record: TableRecord) -> tuple[str, Seats]:
    """How a table not finished stands, replayed from its journal: who plays and the score
    so far (``Ada 3 - Bruno 1 after 2 rounds``, ``after 3 rounds (1 of them void)``; ``Ada 0 -
    Bruno 0, round 1 in play`` before the first round is scored, ``round 2`` after a void
    deal: numbered as at the table) and where a computer played for someone
    (``; a computer played for Bruno in round 2``), or who sits and waits (``Ada waits``);
    "" if nobody sits or the table cannot be replayed. With it, who has held each seat of
    the match in play (none before it began, or if the table cannot be replayed)."""
    from scopa_net.client.scoresheet import rounds_taken
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
    # Every round void counts: a deal void for its kings and a blind round called off
    # (protocol.md 9.6, 9.7; the engine's ``void_deals`` knows only the first), as the rounds
    # are numbered at the table ("Round 2 (round 1 dealt again)") and in the words above.
    scored, voids = len(match.results), max(table.voids, match.void_deals)
    # Before any round is scored: not "0 - 0 after 0 rounds", which reads as no score at all.
    line = (
        f"{score} after {rounds_taken(scored, voids)}"
        if scored
        else f"{score}, round {voids + 1} in play"
    )
    return line + (f"; {said}" if said else ""), seats
