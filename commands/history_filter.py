"""What ``scopa-net history`` lists: one match as a line and the facts a filter reads, the
filters (``--table``, ``--name``, ``--since``), and a person's record over the listed matches.

Names are compared as ``tally`` compares them (:func:`scopa_net.tally.folded`): no case, no
accents, so ``--name nicolo`` finds Nicolò. A seat's holders come from the journal's summary
(``Dino, then Ivo``: everyone who held it), so a person who left half way is found too.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from scopa_net.seat_holders import A_COMPUTER, THEN
from scopa_net.tally import folded

SINCE_START = "start"
"""``--since start``: the matches begun since the host last started, and those it resumed as
it started (in play then): a club's evening, a restart half way through a match included."""

Seats = tuple[tuple[str, ...], ...]
"""By seat, the names of everyone who held it in a match."""


@dataclass(frozen=True)
class Listed:
    """One match as ``history`` lists it, with what its filters read."""

    began: float
    line: str
    table_id: str
    seats: Seats = ()
    winners: tuple[int, ...] = ()
    """The seats of the side that won (none: in play, closed unfinished or a table waiting)."""
    over: bool = True
    number: int = 1
    """The match's number at its table (from 1, as ``--match`` counts)."""
    ended: float | None = None
    """When a match over ended (None: in play, or a journal that did not keep it)."""

    def in_play_at(self, moment: float) -> bool:
        """Whether the match had begun and was not over yet at ``moment`` (a host's start
        that resumed it)."""
        if self.began >= moment:
            return False
        return not self.over or (self.ended is not None and self.ended >= moment)

    def seats_of(self, name: str) -> list[int]:
        """The seats someone called ``name`` held (case and accents aside)."""
        plain = folded(name)
        return [s for s, names in enumerate(self.seats) if any(folded(n) == plain for n in names)]

    def spelled(self, name: str) -> str:
        """``name`` as this match wrote it (``Nicolò`` for ``nicolo``), else as given."""
        plain = folded(name)
        found = [n for names in self.seats for n in names if folded(n) == plain]
        return found[0] if found else name


def seat_names(words: str) -> tuple[str, ...]:
    """The people a seat's name in a summary holds: ``Dino, then Ivo`` -> Dino and Ivo (``a
    computer`` that finished the match for the last is nobody's name)."""
    return tuple(n for n in words.split(THEN) if n and n != A_COMPUTER)


def summary_seats(summary: dict) -> Seats:
    """By seat, who held it in a match over, read from its summary (``holders`` where kept,
    else the names the seats had at the end)."""
    players = [str(p or "") for p in summary.get("players") or []]
    holders = summary.get("holders")
    if isinstance(holders, list) and len(holders) == len(players):
        players = [str(h) if h else p for h, p in zip(holders, players, strict=True)]
    return tuple(seat_names(p) for p in players)


def winning_seats(summary: dict, seats: int) -> tuple[int, ...]:
    """The seats on the side that won the match a summary tells of (none if nobody won)."""
    scores, winner = summary.get("scores") or [], summary.get("winner")
    if summary.get("abandoned") or not isinstance(winner, int) or not 0 <= winner < len(scores):
        return ()
    return tuple(s for s in range(seats) if s % len(scores) == winner)


def parse_since(text: str) -> float | str:
    """``--since``'s value: a local date ``YYYY-MM-DD`` (its midnight) or date and time
    ``YYYY-MM-DD HH:MM`` as a time, or :data:`SINCE_START`; ValueError (a line for the
    person) for anything else."""
    if text.strip().lower() == SINCE_START:
        return SINCE_START
    said = " ".join(text.replace("T", " ").split())
    for shape in ("%Y-%m-%d", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"):
        try:
            return time.mktime(time.strptime(said, shape))
        except (ValueError, OverflowError):
            continue
    raise ValueError(
        f"{text!r} is not a date: give YYYY-MM-DD, 'YYYY-MM-DD HH:MM' (local time), or "
        f"{SINCE_START} (since the host last started)"
    )


@dataclass(frozen=True)
class MatchFilter:
    """``history``'s filters, each optional; a match is listed if it passes every one."""

    table: int | None = None
    name: str | None = None
    since: float | str | None = None

    def given(self) -> bool:
        return self.table is not None or self.name is not None or self.since is not None

    def start(self, host_starts: Sequence[float]) -> float | None:
        """When matches must have begun by (``--since start``: the host's last start; None
        where the journal kept no start, or no --since)."""
        if self.since == SINCE_START:
            return max(host_starts) if host_starts else None
        return self.since if isinstance(self.since, float) else None

    def keeps(self, match: Listed, start: float | None) -> bool:
        """Whether ``match`` is listed, ``start`` being :meth:`start`'s answer."""
        if self.table is not None and match.table_id != str(self.table):
            return False
        if self.name is not None and not match.seats_of(self.name):
            return False
        if self.since == SINCE_START and start is None:  # a journal that kept no start
            return False
        if start is not None and self.since == SINCE_START and match.in_play_at(start):
            return True  # the host resumed it as it started: one of tonight's
        return start is None or match.began >= start

    def nothing(
        self, start: float | None, where: str = "this journal", *, over: bool = False
    ) -> str:
        """The line when no match passes: ``no match of Ada since 2026-12-01 in this journal``;
        ``over``: some pass but none is over (for an export): ``no match of Ada is over yet:
        nothing exported``."""
        words = "no match"
        words += f" at table {self.table}" if self.table is not None else ""
        words += f" of {self.name}" if self.name is not None else ""
        if self.since == SINCE_START:
            words += (
                f" since the host last started ({_when(start)})"
                if start is not None
                else " since the host last started (this journal does not say when it did)"
            )
        elif start is not None:
            words += f" since {_when(start)}"
        return f"{words} is over yet: nothing exported" if over else f"{words} in {where}"


def _when(at: float) -> str:
    """A local time as history writes it, the time left out at midnight."""
    shown = time.strftime("%Y-%m-%d %H:%M", time.localtime(at))
    return shown[:10] if shown.endswith(" 00:00") else shown


def record_line(name: str, matches: Sequence[Listed]) -> str:
    """``Ada: 12 matches, won 7``: a person's record over the matches listed (those they
    held a seat in); a match still in play is counted apart."""
    theirs = [m for m in matches if m.seats_of(name)]
    over = [m for m in theirs if m.over]
    won = sum(any(s in m.winners for s in m.seats_of(name)) for m in over)
    spelled = theirs[-1].spelled(name) if theirs else name
    playing = len(theirs) - len(over)
    if not over:
        return f"{spelled}: {playing} in play, no match over yet"
    count = f"{len(over)} match" if len(over) == 1 else f"{len(over)} matches"
    return f"{spelled}: {count}, won {won}" + (f"; {playing} more in play" if playing else "")


def seat_named(name: str, seats: Sequence[str], where: str) -> int:
    """The seat that someone called ``name`` held, ``seats`` being each seat's name over the
    match (``Dino, then Ivo``) and ``where`` the match (``table 1``); ValueError (a line
    naming who was there) if nobody of that name was, or if they held two seats."""
    match = Listed(0.0, "", "", tuple(seat_names(s) for s in seats))
    held = match.seats_of(name)
    if len(held) == 1:
        return held[0]
    if held:
        numbers = " and ".join(map(str, held))
        raise ValueError(f"{name} held seats {numbers} at {where}; give --seat the seat's number")
    who = ", ".join(f"seat {s} {n or '(open)'}" for s, n in enumerate(seats))
    raise ValueError(
        f"nobody called {name} held a seat at {where} ({who}); give --seat one of those "
        "names or a seat number"
    )
