"""Who holds each seat of a table, as one seat's client knows it: each seat's kind (a person's,
the host's computer player's, open), its name, whether a computer stands in for its person,
who stepped away, who gave a seat up during the round in play, and who held each seat round
by round (the names saved beside the transcript follow them)."""

from __future__ import annotations

from typing import Any

from scopa_net.names import clean_name
from scopa_net.seat_holders import Holder, SeatHolders
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

    def stand_in(self, seat: int) -> bool:
        """Whether a computer plays for ``seat``'s person now (away, or stepped away)."""
        return self.stand_ins.get(seat, False)

    def take_seats(self, seats: tuple[m.SeatInfo, ...]) -> None:
        """Who holds each seat, from a snapshot."""
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
            if info.name is not None:
                self.names[seat] = clean_name(info.name) or f"seat {seat}"

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
