"""Each match a journal's table record tells of, as ``scopa-net history`` lists it: one line
(the table by number and name, the match's number at a table that played more than one, when
it started and ended or that it is in play, who played, the score, the winner, where a
computer played for someone), when it began, and the lines of many matches in the order they
began, with the host's restarts between them. Read from the records alone: nothing here opens
or replays a journal."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from scopa_net.commands.history_filter import Listed, Seats, summary_seats, winning_seats
from scopa_net.score_line import score_line

if TYPE_CHECKING:
    from scopa_net.server.journal import TableRecord


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
        began = started or record.created
        listed.append(Listed(began, line, record.table_id, seats, won, True, n, ended))
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
    players = [player_shown(name, seat) for seat, name in enumerate(summary.get("players", []))]
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


def match_ended(record: TableRecord, match_no: int) -> float | None:
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


def _minute(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(when))


def player_shown(name: object, seat: int) -> str:
    """A seat's player as history shows it: the name, or ``seat 1 (open)`` for a seat nobody
    took (the journal keeps no name for it), numbered as ``who`` numbers seats."""
    return str(name) if name else f"seat {seat} (open)"
