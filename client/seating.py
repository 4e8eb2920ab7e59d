"""Who holds each seat of a table, as one seat's client knows it: each seat's kind (a person's,
the host's computer player's, open), its name, whether a computer stands in for its person,
who stepped away, who gave a seat up during the round in play, who held each seat round by
round (the names saved beside the transcript follow them), and whether a computer plays a
person's seat this round."""

from __future__ import annotations

from typing import Any

from scopa_net.blind_witness import BlindWitness
from scopa_net.names import clean_name
from scopa_net.seat_holders import Holder, SeatHolders
from scopa_net.view import SeatView
from scopa_net.wire import messages as m


class Seating:
    """The seats of a session's table (see the module docstring); its session's ``seat_status``
    words (:mod:`~scopa_net.client.table_words`) change them as the host says."""

    def __init__(self, session: Any) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session
        self.names: list[str] = []
        """Each seat's name on this screen, by seat."""
        self.seats: list[m.SeatInfo] = []
        """Each seat's kind, name and connection, by seat (protocol.md 3.3)."""
        self.stand_ins: dict[int, bool] = {}
        """Seats where a computer plays for the person now."""
        self.stepped_away: set[int] = set()
        """Seats whose person stepped away (``seat_status`` with ``away``) and is not back."""
        self.away_names: dict[int, str] = {}
        """Seats given up during the round in play (until the next round begins), by the name
        of the person who gave them up: the round's void and its deal check name that person,
        not the computer player now in the seat."""
        self.holders: SeatHolders | None = None
        """Who held each seat of the match, round by round: the names saved beside its
        transcript follow them (a seat can change hands)."""

    def players_awaited(self) -> int:
        """How many open seats the match waits for before its first deal (0 once dealt, or
        when the seats are not known)."""
        session = self.session
        me = session._seat
        if session.view is not None or session._match_ended or me >= len(self.seats):
            return 0
        if self.seats[me].kind == "open":
            return 0  # the seats were not said (this seat is taken): not known
        return sum(1 for info in self.seats if info.kind == "open")

    def stand_in(self, seat: int) -> bool:
        """Whether a computer plays for ``seat``'s person now (away, or stepped away)."""
        return self.stand_ins.get(seat, False)

    def take_seats(self, seats: tuple[m.SeatInfo, ...], stand_ins: tuple[int, ...] = ()) -> None:
        """Who holds each seat, and where a computer stands in (``stand_ins``), from a
        snapshot. A person at the table has no stand-in whatever was believed before (their
        coming back may be among the events the snapshot stands for); a seat away that the
        snapshot does not list keeps what this client knew (a host that does not say them)."""
        session = self.session
        if session.rules is None or len(seats) != session.rules.players:
            if session.rules is not None and not self.seats:
                self.seats = [
                    m.SeatInfo(kind="open", name=None, connected=False)
                    for _ in range(session.rules.players)
                ]
            return
        self.seats = list(seats)
        for seat, info in enumerate(seats):
            if seat in stand_ins:
                self.stand_ins[seat] = True
            elif info.connected or info.kind == "bot":
                self.stand_ins[seat] = False
            if info.connected:
                self.stepped_away.discard(seat)
            if info.name is not None:
                self.names[seat] = clean_name(info.name) or f"seat {seat}"
            elif info.kind == "open":  # as a seat_status for a seat left says it
                self.names[seat] = f"bot {seat}" if self.stand_in(seat) else f"seat {seat}"

    def computer_seats(self) -> frozenset[int]:
        """The computer players' seats (``kind`` bot): the host plays them, and they send no
        seed (protocol.md 5.4)."""
        return frozenset(s for s, info in enumerate(self.seats) if info.kind == "bot")

    def computer_held(self) -> frozenset[int]:
        """The seats no person holds now: a computer player's, or an open seat (never a party
        of a blind round, protocol.md 9.5.1). A seat a computer stands in for is left out: a
        snapshot of a round's start says who stands in now, not then (9.7)."""
        return frozenset(s for s, info in enumerate(self.seats) if info.kind != "human")

    def absent_seats(self) -> set[int]:
        """The seats a person holds, or held, whose player is not connected now (``open``
        seats too: nobody's client is there to send a seed)."""
        return {s for s, info in enumerate(self.seats) if info.kind != "bot" and not info.connected}

    def holder(self, seat: int) -> Holder:
        """Who holds ``seat`` now: its name, and whether a person's."""
        person = seat < len(self.seats) and self.seats[seat].kind == "human"
        return self.names[seat], person

    def follow_holders(self, e: m.Message) -> None:
        """Follow who holds each seat through event ``e``, round by round."""
        h = self.holders
        if h is None:
            return
        if isinstance(e, m.RoundCommit | m.BlindRound):
            h.round_opened(e.round_no, [self.holder(s) for s in range(h.players)])
        elif isinstance(e, m.RoundVoid | m.RoundEnd):
            h.round_closed()
        elif isinstance(e, m.MatchEnd):
            h.match_over()
        elif isinstance(e, m.SeatStatus) and e.seat < h.players:
            h.seated(e.seat, self.holder(e.seat))

    def notes(self) -> tuple[str, ...]:
        """A few words on each seat for ``who``: away, a computer standing in..."""
        session = self.session
        notes = []
        for seat, info in enumerate(self.seats):
            if info.kind == "bot":
                notes.append("computer player")
            elif info.kind == "open":
                playing = session.match_begun  # an open seat is played once the match begins
                notes.append("open seat, a computer plays it" if playing else "open seat")
            elif not info.connected and seat != session._seat:
                playing = self.stand_in(seat) and session.match_begun  # not while it waits
                notes.append("away, a computer plays for them" if playing else "away")
            elif self.sits_out(seat):
                notes.append("a computer plays the seat this round")
            else:
                notes.append("")
        return tuple(notes)

    def sits_out(self, seat: int) -> bool:
        """Whether a computer plays this person's seat in the blind round in play, which its
        person has no part in (9.7): taken during the round, or counted away."""
        session = self.session
        view = session.view
        if view is None or view.round_over:
            return False
        if seat == session._seat:
            return view.sitting_out
        w = session.witness
        return isinstance(w, BlindWitness) and w.current is not None and seat not in w.people

    def sat_out_while_here(self, e: m.BlindRound) -> bool:
        """Whether this seat sits the blind round ``e`` out although its person neither went
        away nor stepped away: the host counted them away for a deadline their client missed
        while connected (9.7), and takes them back only once the seat is resumed. A seat away
        when the round began is not: its resume since then (this replay) already counts."""
        session = self.session
        me = session.seat
        if me in e.people or session._replaying or session._stop or me >= len(self.seats):
            return False
        start = session._start
        if start is not None and e.seq == start.seq + 1:
            return False  # begun just as this seat's view starts: before its person sat down
        here = self.seats[me]
        return (
            here.kind == "human"
            and here.connected
            and not self.stand_in(me)
            and me not in self.stepped_away
        )

    def played_by_computer(self, seat: int, view: SeatView) -> bool:
        """Whether the play just made at ``seat``, a person's, was a computer's for them: a
        computer stands in (away past the grace period, or stepped away), or the person sits
        this blind round out (a round that began without them, 9.7)."""
        session = self.session
        if seat >= len(self.seats) or self.seats[seat].kind != "human":
            return False  # a computer player's own seat, under its own name
        if self.stand_in(seat):
            return True
        if seat == session._seat:
            return view.sitting_out
        w = session.witness
        return isinstance(w, BlindWitness) and w.current is not None and seat not in w.people
