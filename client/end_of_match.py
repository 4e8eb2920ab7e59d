"""The end of a match and of its table, for one seat: the result, with where the match's
transcript was saved (or why none was); the vote on playing again (a new match agreed, or the
table closing, protocol.md 3.11); a table closed before its match ended; a seat forfeit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NoReturn

from scopa_net.client.files import shown_path
from scopa_net.client.render import side_label
from scopa_net.client.scoresheet import rounds_taken
from scopa_net.client.seat_store import SeatRecord, seats_kept
from scopa_net.client.session import MatchOver, MatchStarted, Message, RematchClosed
from scopa_net.client.session_errors import TableClosedError
from scopa_net.client.transcript_files import CHECK_IT, VERIFY
from scopa_net.fair.errors import RerolledRoundError
from scopa_net.mirror import SeatMirror
from scopa_net.seat_holders import SeatHolders
from scopa_net.view import SeatView
from scopa_net.wire import messages as m
from scopa_net.wire.convert import opening_snapshot
from scopa_net.witness import DealWitness

FORFEIT = (
    "Your seat is forfeit: three of the seeds this client revealed did not match the "
    "commitments it sent, so a computer player plays the seat for the rest of the match. You "
    "are no longer at this table."
)
"""What a seat forfeit to a computer player (5.4 of protocol.md) tells its person."""


class EndOfMatch:
    """What a session does as its match or its table ends (see the module docstring)."""

    def __init__(self, session: Any) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session
        self.finished: SeatRecord | None = None
        """The seat's record while a match just ended (kept in memory for a rematch)."""
        self.agreed_after: int | None = None
        """The match after which this client answered ``yes`` to playing again (None: it
        answered no, or has not answered yet)."""
        self.answered_on: object = None
        """The connection this client's last answer to playing again went on (None: none)."""

    async def match_over(self, e: m.MatchEnd, view: SeatView) -> bool:
        """The match ended (``match_end``): save its transcript, say where it is and the
        result; True when the session ends now (no rematch is offered)."""
        session = self.session
        saved = session._transcripts.save_transcript()  # now with the match result
        if saved is not None:  # told first, so the match's result and the rematch question
            where = shown_path(saved)  # come last, just above the prompt
            # The command on a line of its own, whole, to copy (render.wrap_line).
            lines = [f"Transcript saved: {where}", CHECK_IT, f"{VERIFY}{where}"]
        elif not session.witness.keeps_transcript:
            lines = list(session._transcripts.no_transcript_lines())
        else:
            lines = []
        if e.winner is None:  # "the match was abandoned" (protocol.md 3.9): nobody won
            self.abandoned(e, view, lines)
        return await self._ended(view, lines, e.winner, tuple(e.scores))

    def abandoned(self, e: m.MatchEnd, view: SeatView, lines: list[str]) -> NoReturn:
        """The host ended the match with no winner: say so (never as anyone's win), with the
        transcript's lines, and stop (raised: the command ends with status 1)."""
        session = self.session
        session._match_ended = True
        session._kept.forget_record()
        for text in lines:
            session._emit(Message(seat=None, text=text, local=True))
        names = session._seating.names
        points = ", ".join(
            f"{side_label(side, view, names)}: {score}" for side, score in enumerate(e.scores)
        )
        played = view.round_number - session._voids  # the void rounds counted apart
        raise TableClosedError(
            f"the host ended the match with no winner (it says the match was abandoned), at "
            f"{points} after {rounds_taken(played, session._voids)}; no seat is kept for it"
        )

    async def ended_unseen(self, view: SeatView) -> bool:
        """A snapshot shows the match over, its ``match_end`` not seen here (protocol.md 3.4):
        its end said as :meth:`match_over` says it, with the transcript as far as this seat
        saw the match (without the signed end, which it did not see: ``verify`` says
        UNFINISHED), or, none kept (a blind table's), how to have the host write one. True
        when the session ends now (no rematch is offered)."""
        assert view.winner is not None
        saved = None
        if self.session.witness is not None and self.session.witness.keeps_transcript:
            saved = self.session._transcripts.save_transcript()
        if saved is not None:
            where = shown_path(saved)
            lines = [f"Transcript saved: {where}", CHECK_IT, f"{VERIFY}{where}"]
        else:
            lines = list(self.session._transcripts.no_transcript_lines())
        return await self._ended(view, lines, view.winner, view.scores_now)

    async def _ended(
        self, view: SeatView, lines: list[str], winner: int, scores: tuple[int, ...]
    ) -> bool:
        """The match's end for this seat: ``lines`` (its transcript), then the result."""
        session = self.session
        # The match is over, but the seat stays kept on disk while the rematch vote is
        # open (protocol.md 3.11): a client that stops now can be run again to answer.
        # The vote's end forgets it (declined, or the table closed); a rematch keeps it
        # again, for the new match.
        self.finished = session._kept.record
        session._match_ended = True
        if not session.offer_rematch:
            session._kept.forget_record()
        rounds = view.round_number - session._voids  # played out; the voids are said apart
        session._end_lines = [Message(seat=None, text=text, local=True) for text in lines]
        for said in session._end_lines:
            session._emit(said)
        session._emit(
            MatchOver(winner=winner, match_scores=scores, rounds=rounds, voids=session._voids)
        )
        if not session.offer_rematch:
            await session._send_quietly(m.Rematch(agree=False))  # say so: nobody waits for us
            return True
        return False

    def answered(self, agree: bool) -> None:
        """This seat's answer to playing again, sent now: a ``yes`` is kept with the seat, so
        that a client taking it back knows it agreed (:meth:`agreed_here`)."""
        session = self.session
        self.agreed_after = session.match_no if agree else None
        self.answered_on = session._link
        record = session._kept.record
        if record is not None:
            session._kept.record = replace(record, rematch_yes=session.match_no if agree else 0)
            session._kept.save_record()

    async def answer_again_if_lost(self, e: m.RematchStatus) -> None:
        """The vote ``e`` still waits for this seat, on a connection made since its person
        answered: the answer was sent as the host stopped, or while it was out of reach, and
        went with the connection; sent again now, once a connection (else the vote ran out
        on them: "you did not answer in time"). On the connection it went on, a status that
        still waits for it is one the host sent before the answer reached it."""
        session = self.session
        seat = session.seat
        if e.state != "open" or session._rematch_answered != e.match_no:
            return
        if seat is None or seat >= len(e.votes) or e.votes[seat] != "waiting":
            return
        if session._link is None or session._link is self.answered_on:
            return
        self.answered_on = session._link
        await session._send_quietly(m.Rematch(agree=self.agreed_after == e.match_no))

    def agreed_here(self, e: m.RematchStatus) -> bool:
        """Whether this seat answered ``yes`` to playing again after match ``e.match_no``
        (its last answer, from this client or kept with the seat by one before it)."""
        if self.agreed_after is not None:
            return self.agreed_after == e.match_no
        record = self.session._kept.record or self.finished
        return record is not None and record.rematch_yes == e.match_no

    async def leave_unagreed_match(self, e: m.RematchStatus) -> None:
        """The host says everyone agreed to play again, though this seat answered no or
        never answered (protocol.md 3.11: ``agreed`` only when every vote is ``yes``). Its
        person is not started on a match they did not agree to: one line says so, and the
        seat leaves the table; the match just ended stands."""
        session = self.session
        said = "answered no" if session._rematch_answered == e.match_no else "had not answered"
        text = (
            f"The host started a new match (match {e.match_no + 1}) that you did not agree to "
            f"(you {said}): you leave the table; match {e.match_no}'s result stands."
        )
        session._emit(Message(seat=None, text=text, local=True))
        session._emit(RematchClosed())
        session._stop = True
        session.left_for_good = True
        await session._send_quietly(m.Leave(away=False))
        session._kept.forget_record()

    def check_rematch_after_end(self, e: m.RematchStatus) -> None:
        """A vote on playing again comes only after the match's end (protocol.md 3.11). One
        in the middle of a match would, once ``agreed``, start a new match from nothing: the
        match so far thrown away, and the round in play with it, perhaps after its seeds were
        relayed (a re-roll). Raised as a failed check, before anything of it is taken."""
        session = self.session
        if session._match_ended:
            return
        witness = session.witness
        round_no = 0 if witness is None else witness.round_no
        current = getattr(witness, "current", None)
        if current is None or round_no == 0:
            where = "before its first round" if round_no == 0 else f"after round {round_no}"
        else:
            seeds_out = getattr(current, "commits", None) is not None  # (an ordinary table's)
            after = ", after its seeds were relayed" if seeds_out else ""
            where = f"while round {round_no} of match {session.match_no} was in play{after}"
        what = (
            f"started a new match (match {e.match_no + 1})"
            if e.state == "agreed"
            else f"sent a vote on playing again ({e.state})"
        )
        agreed = " and this seat never agreed to play again" if e.state == "agreed" else ""
        raise RerolledRoundError(
            f"the host {what} {where}, though no end of match {session.match_no} "
            f"came{agreed}: a rematch is voted on once a match has ended"
        )

    def rematch_status(self, e: m.RematchStatus) -> bool:
        """Take the state of a rematch vote; True when there will be none (the session ends)."""
        session = self.session
        assert session.rules is not None and session.host_key is not None
        if e.state == "declined":
            if session._replaying:
                # A seat taken back after the vote: the match's end first (its result, the
                # transcript saved), then why there is no rematch; not a bare "closed".
                session._reconnection.caught_up(vote_over=True)
            text = session._words.no_rematch_line(e)
            session._emit(Message(seat=None, text=text, table=True))
            session._emit(RematchClosed())
            session._kept.forget_record()  # nothing left to take back
            return True
        if e.state == "agreed":
            session._match_ended = False
            session._end_lines = []
            session._words.new_match()
            session.match_no = e.match_no + 1
            session._voids = session._rounds_counted = session._round_opened = 0
            assert session.table_id is not None
            start = opening_snapshot(
                session.rules, seat=session.seat, seq=e.seq, table_id=session.table_id
            )
            session._start, session._verified_before = start, session.rounds_verified
            session._void_verified_before = session.void_rounds_verified
            session._start_mid_match = False
            session.mirror = SeatMirror(start)
            session.witness = DealWitness(session.rules, session.host_key, session.seat)
            session._seating.holders = SeatHolders(session.rules.players)
            # The seat is kept on disk again, for the new match: a client taking it back
            # starts from this event (not the table's first: the host would replay the match
            # just played, whose end forgets the seat and whose rematch empties its seeds).
            session._own_plays.new_match()  # (the record keeps the plays it has)
            kept = session._kept.record if session._kept.record is not None else self.finished
            if kept is not None:
                session._kept.record = replace(
                    kept,
                    seeds={},
                    seeds_out="",
                    blind_dealt=(),
                    mid_match=False,
                    match_no=session.match_no,
                    match_seq=e.seq,
                    seats=seats_kept(session._seating.seats),
                    start="",
                )
                session._kept.save_record()
            text = "everyone agreed: a new match begins"
            session._emit(Message(seat=None, text=text, table=True))
            session._emit(MatchStarted(match_scores=session.mirror.view.scores))
            return False
        session._words.rematch_waiting(e)
        return False

    def table_closed(self) -> None:
        """The host sent ``left`` unasked: the table closed. Its seat is gone for good, so it is
        not kept on disk; a match that had not ended stopped (raised: the command says so
        and ends with status 1), and one that had ended closes after a rematch vote nobody
        answered (protocol.md 3.11: the table simply closes)."""
        session = self.session
        session._kept.forget_record()
        if session.end_note is not None:  # forfeit: said already
            return
        if session._match_ended:
            if session.offer_rematch:
                session._emit(
                    Message(
                        seat=None,
                        text="no rematch (nobody answered in time): the table is closing",
                        table=True,
                    )
                )
                session._emit(RematchClosed())
            return
        why = f" ({session._host_said.rstrip('.')})" if session._host_said else ""
        saved = session.unfinished_transcript
        where = (
            f"; its rounds so far are saved, UNFINISHED: `scopa-net verify {shown_path(saved)}` "
            "checks them"
            if saved is not None
            else ""
        )
        raise TableClosedError(
            f"the table closed before the match ended{why}; no seat is kept for it{where}"
        )

    def forfeit(self) -> None:
        """This seat was forfeit to a computer player (protocol.md 5.4): its token is dead and
        the host's ``left`` follows, which ends the session."""
        session = self.session
        session._kept.forget_record()
        session.end_note = FORFEIT
        session._emit(Message(seat=None, text=FORFEIT, local=True))
