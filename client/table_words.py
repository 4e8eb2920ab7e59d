"""The lines people read about the table, from its events: who sat down, left, lost the
connection or came back, why a blind round is void, the rematch vote, and what a deal check
means; each seat called by the name on this screen ("you" for one's own).

:class:`TableWords` reads the seats and names its session keeps (it changes them only as a
``seat_status`` says), and owns what it held back or already said.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import replace
from typing import Any

import trio

from scopa_net.blind_witness import BlindWitness
from scopa_net.client import deal_words
from scopa_net.client.render import more_players
from scopa_net.client.session import Message
from scopa_net.fair.commitments import LEFT_OUT_WORDS, counted_seats
from scopa_net.fair.transcript import VOID_KINGS
from scopa_net.names import clean_name
from scopa_net.wire import messages as m

BLIND_STAGE_SECONDS = 30
"""How long a blind round waits on the people for each stage (keys, shuffles, shares, seeds)
before the host counts a silent one absent (protocol.md 9.7)."""
SAT_OUT_SILENT = (
    f"The host says you missed its deadline ({BLIND_STAGE_SECONDS} s), so a computer plays your "
    "seat this round; you play again from the next one. Once may be a slow network or a laptop "
    "asleep; if it happens round after round, stop playing at this host (it plays your seat "
    "meanwhile)."
)
"""What a person reads whose client, connected, sits a blind round out for a deadline it
missed (the laptop slept, the terminal was suspended); the client takes the seat back. It is
the host's word: a host can sit a person out without cause and play their seat itself."""


LEFT_OUT = "|".join(map(re.escape, LEFT_OUT_WORDS.values()))
"""What a verifier's note says after a seat whose seed it left out (a pattern)."""


def computer_plays_for(who: str) -> str:
    """What the table reads once a computer plays for ``who``, a person away."""
    return f"a computer is playing for {who} until they are back"


def in_a_sentence(names: list[str]) -> str:
    """Names as a sentence lists them: "Ada", "Ada and you", "Ada, Bruno and you"."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


NOT_FULL_YET = "the match begins when every seat is taken"


def waiting_for(count: int) -> str:
    """``waiting for 2 more players: the match begins when every seat is taken``."""
    return f"waiting for {more_players(count)}: {NOT_FULL_YET}"


def waiting_line(count: int) -> str:
    """What a person who sat down at a table not yet full reads: how many it waits for."""
    return f"W{waiting_for(count)[1:]}."


class TableWords:
    """Turns a seat's table events into the lines its person reads (see the module docstring).

    ``loss_said_after`` and ``loss_held_for`` are how long a friend's lost connection is held
    back (the session's LOSS_SAID_AFTER and LOSS_HELD_FOR)."""

    def __init__(self, session: Any, *, loss_said_after: float, loss_held_for: float) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session
        self.loss_said_after = loss_said_after
        self.loss_held_for = loss_held_for
        self._held_losses: dict[int, tuple[float, int, float, bool]] = {}
        """Seats that lost the connection, not said yet: seat -> (when it was held, the grace
        period it had then, when it is said, whether it came in this client's catch-up)."""
        self.losses_due = math.inf
        """When the held losses still true are said (inf: none held)."""
        self.told_this_match: set[str] = set()
        """What the deal check means, as said this match (each meaning once a match), and
        "table" once the start of the match said the host sees every hand."""
        self.closed: set[int] = set()
        """Seats whose player's client was closed in order (``seat_status`` ``closed``): said
        so, not as a lost connection, until they are back."""
        self.lost_in_restart: set[int] = set()
        """Seats the host's catch-up said were lost as it came back from a restart (the
        session's ``host_restarted``): their person's way back is said with the restart."""
        self._back_after_restart: dict[int, float] = {}
        """Seat -> the ``_resumed_at`` of this client's way back after which that seat's person
        was said back from the restart: a later loss in the same catch-up window is theirs."""
        self._taken_over: set[int] = set()
        """Seats a newcomer is taking from a player away past the host's limit: the host's
        own line says who took whose seat and why, so this says nothing of it."""
        self.awaited_until: dict[int, float] = {}
        """Seats whose person lost the connection at a blind table with a match begun: seat ->
        when (``time.time()``) their grace period ends. The round in play waits for them
        (protocol.md 9.7) and is void if they are not back by then."""
        self._rematch_shown: tuple[int, int] | None = None
        """The match (its number) whose rematch countdown was shown last, and the seconds it
        said: a later status never shows more (one sent earlier, or by a restarted host)."""
        self._rematch_said: tuple[int, str] | None = None
        """The match (its number) and the last rematch line said of it: a status that would
        say the same again says nothing (each answer sends one to every seat)."""

    def new_match(self) -> None:
        """A rematch begins: what the deal check means is said again, once."""
        self.told_this_match.clear()

    def seat_status(self, e: m.SeatStatus) -> None:
        """Take a seat's new state (``seat_status``, protocol.md 3.3) and say what changed,
        where it is news to this screen."""
        session = self.session
        if e.seat >= len(session._seating.names):
            return
        before = session._seating.seats[e.seat] if e.seat < len(session._seating.seats) else None
        was = session._seating.names[e.seat]
        info = m.SeatInfo(kind=e.kind, name=e.name, connected=e.connected)
        was_away = before is not None and before.kind == "human" and not before.connected
        if e.seat < len(session._seating.seats):
            session._seating.seats[e.seat] = info
        session._seating.stand_ins[e.seat] = e.stand_in
        if e.closed:
            self.closed.add(e.seat)
        else:
            self.closed.discard(e.seat)
        if e.away:
            session._seating.stepped_away.add(e.seat)
        else:
            session._seating.stepped_away.discard(e.seat)
        if before is not None and before.kind == "human" and e.kind != "human":
            session._seating.away_names[e.seat] = was
        elif e.kind == "human":
            session._seating.away_names.pop(e.seat, None)
        lost = e.kind == "human" and not (e.connected or e.away or e.stand_in) and e.grace
        if lost and session.match_begun and isinstance(session.witness, BlindWitness):
            self.awaited_until[e.seat] = time.time() + e.grace
        else:
            self.awaited_until.pop(e.seat, None)
        if e.name is not None:
            session._seating.names[e.seat] = clean_name(e.name) or f"seat {e.seat}"
        elif e.kind == "open":  # the person left: their name goes with them
            session._seating.names[e.seat] = f"bot {e.seat}" if e.stand_in else f"seat {e.seat}"
        who = session._seating.names[e.seat]
        renamed = before is not None and before.kind == e.kind == "human" and before.name != e.name
        if renamed:  # the same person's plays, under the name they go by now
            for i, maker in session.play_makers.items():
                if maker == was and session.mirror is not None and session.mirror.view is not None:
                    plays = session.mirror.view.plays
                    if i < len(plays) and plays[i].seat == e.seat:
                        session.play_makers[i] = who
        if e.seat == session._seat:
            if before is not None and before.kind == "human" and e.kind == "bot":
                session._end.forfeit()
                return
            if renamed:
                session.name = who
                if session._kept.record is not None:
                    session._kept.record = replace(session._kept.record, name=who)
                session._emit(Message(seat=None, text=f"you are now called {who}", table=True))
            session._kept.save_record()
            return
        session._kept.save_record()
        held = self._held_losses.pop(e.seat, None)  # whatever this says follows it, and is true
        if self._taken_over_quietly(e, was_away):
            return
        still_lost = e.kind == "human" and not (e.connected or e.away or e.stand_in)
        if held is not None and (renamed or still_lost):
            self._held_losses[e.seat] = held  # still lost (under the new name): held as it was
            if not renamed:
                return
        if renamed:
            text = f"{was} is now called {who}"
        elif e.kind == "open":
            if before is not None and before.kind == "human":
                if e.stand_in:
                    text = f"{was} left the table; a computer player takes the seat"
                else:
                    text = f"{was} left the table"
            else:
                return
        elif e.kind == "bot" and before is not None and before.kind == "human":
            text = f"{was} gave up the seat; a computer player takes it"
        elif e.kind != "human":
            return
        elif e.away and not session.match_begun:  # a table still waiting for players
            text = (
                f"{who} stepped away; their seat is kept, and a computer plays for them if the "
                "match begins before they are back"
            )
        elif e.away:
            text = f"{who} stepped away; a computer plays for them until they are back"
        elif not e.connected and e.grace:
            if self.hold_loss(e.seat, e.grace, closed=e.closed):
                return
            text = self.lost_line(who, e.grace, e.seat)
        elif not e.connected and not e.stand_in and session._match_ended:
            if not was_away and self.hold_loss(e.seat, e.grace, closed=e.closed):
                return  # this client is just back (the host restarted?): they may be too
            text = self.kept_for_the_vote(who, e.seat, still_away=was_away)
        elif not e.connected and e.stand_in and not session.match_begun:
            text = (  # past the grace period, at a table still waiting for players
                f"{who} is not back yet; a computer plays for them once the match begins, "
                "until they are back"
            )
        elif not e.connected and e.stand_in:
            text = computer_plays_for(who)
        elif e.connected and before is not None and before.kind == "human":
            if held is not None and not held[3]:
                return  # back before anyone was told they were gone
            text = f"{who} is back at the table{self.after_restart(e.seat)}"
            text += self.finished_for_them(e.seat)
        elif e.connected:
            text = f"{who} sat down at the table{self.finished_for_them(e.seat)}"
            waiting = session._seating.players_awaited()
            if waiting:
                text += f"; waiting for {more_players(waiting)}"
        else:
            return
        session._emit(Message(seat=None, text=text, table=True))

    def after_restart(self, seat: int) -> str:
        """What follows "Ada is back at the table" when the host's restart lost her (not her
        own connection): " (the host was restarted)", once; else nothing."""
        if seat not in self.lost_in_restart:
            return ""
        self.lost_in_restart.discard(seat)
        self._back_after_restart[seat] = self.session._resumed_at
        return " (the host was restarted)"

    def finished_for_them(self, seat: int) -> str:
        """What follows "Ada is back at the table" (or "sat down") when a computer plays the
        rest of the blind round in play for that seat, which its person has no part in (9.7):
        else the computer's plays after the line read as if the line were untrue."""
        if not self.session._seating.sits_out(seat):
            return ""
        return "; a computer finishes this round for them"

    def awaited(self) -> tuple[int, str, float] | None:
        """The person a blind round in play waits for, lost within their grace period: their
        seat, name and when (``time.time()``) the round is void if they are not back; None
        when it waits for nobody gone (the first seat lost, when several are)."""
        session = self.session
        if not isinstance(session.witness, BlindWitness):
            return None
        for seat, until in sorted(self.awaited_until.items(), key=lambda item: item[1]):
            sits_out = session._seating.sits_out(seat)
            if seat != session._seat and not sits_out and self._round_waits_on(seat):
                return seat, session._seating.names[seat], until
        return None

    def _round_waits_on(self, seat: int | None) -> bool:
        """Whether the blind round under way needs ``seat``'s person: in play, or its deal
        being built (each party's part of the shuffle, protocol.md 9.7) with them a party.
        Gone past their grace period, it is void either way."""
        session = self.session
        view = session.view
        if view is not None and not view.round_over:
            return True
        witness = session.witness
        current = witness.current if isinstance(witness, BlindWitness) else None
        if current is None or current.over:
            return False
        return seat is None or seat in current.people

    def _taken_over_quietly(self, e: m.SeatStatus, was_away: bool) -> bool:
        """Whether ``e`` is half of a seat changing hands, said by the host's own line.

        A seat whose player is away (not connected: a person leaves connected) opens only
        when a newcomer takes it, its player away past the host's limit with a computer
        playing for them (protocol.md 3.3): the newcomer's ``seat_status`` follows, then the
        host's chat saying who took whose seat and why. "Dino left the table" would be
        untrue, and "Eve sat down at the table" says less than the host's line."""
        if e.kind == "open" and was_away:
            self._taken_over.add(e.seat)
            return True
        if e.seat not in self._taken_over:
            return False
        self._taken_over.discard(e.seat)
        return e.kind == "human" and e.connected

    def gone(self, who: str, seat: int | None) -> str:
        """How ``who`` (at ``seat``) went: their client was closed in order, or (all this
        client can tell otherwise) they lost the connection."""
        if seat is not None and seat in self.closed:
            return f"{who}'s client was closed"
        return f"{who} lost the connection"

    def kept_for_the_vote(self, who: str, seat: int, *, still_away: bool = False) -> str:
        """What the table reads at "Play again?" of ``who``, gone: their seat waits for the
        vote. ``still_away``: they were gone before the match ended (a computer played for
        them), and "lost the connection" now would be news that is not."""
        gone = f"{who} is still away" if still_away else self.gone(who, seat)
        return f"{gone}; their seat is kept until the rematch vote closes"

    def lost_line(
        self, who: str, grace: int, seat: int | None = None, *, of: int | None = None
    ) -> str:
        """What the table reads when ``who`` (at ``seat``) lost the connection with ``grace``
        seconds to come back. Before the match begins the seat is only kept (protocol.md 3.3).
        At a blind table nobody else can open their cards: a round in play is void when the
        grace period ends (protocol.md 9.7), and a computer plays for them from the next;
        unless a computer plays their seat this round already (they came back during a round
        that began without them), which goes on. ``of``: the seconds the host gave them when it
        lost them, when ``grace`` is what is left of it (the line was held back meanwhile): a
        bare "in 55 s" read as a grace period of 55 s, not 60."""
        session = self.session
        gone = self.gone(who, seat)
        since = "their client closed" if seat in self.closed else "it lost them"
        within = (
            f"in {grace} s"
            if of is None or of <= grace
            else (f"in {grace} s (the host waits {of} s from when {since})")
        )
        if not session.match_begun:  # the table waits for players: nothing to play for them
            return (
                f"{gone}; their seat is kept, and a computer plays for them "
                "if the match begins before they are back"
            )
        if not isinstance(session.witness, BlindWitness):
            return f"{gone}; a computer plays for them {within}"
        if seat is not None and session._seating.sits_out(seat):
            # A computer plays the seat this round already: nothing of it waits on them.
            return (
                f"{gone}; a computer plays their seat this round already "
                "(the round goes on) and plays for them until they are back"
            )
        if self._round_waits_on(seat):
            # Its deal being built, the board still shows the round before, just over.
            view = session.view
            which = (
                "this round"
                if view is not None and not view.round_over
                else "the round being dealt"
            )
            return (
                f"{gone}; if they are not back {within} {which} is "
                "void (nobody else can open their cards) and a computer plays for them from "
                "the next round"
            )
        return (
            f"{gone}; if they are not back {within} a computer plays for them from the next round"
        )

    def hold_loss(self, seat: int, grace: int, *, closed: bool = False) -> bool:
        """Hold back that ``seat`` lost the connection for LOSS_SAID_AFTER, or longer if this
        client is just back at the host (see LOSS_HELD_FOR); True when held. A client that was
        closed (``closed``) is no network's blip, said at once unless this one is catching up."""
        session = self.session
        now = trio.current_time()
        catching_up = now - session._resumed_at < self.loss_held_for
        already_back = self._back_after_restart.get(seat) == session._resumed_at
        if catching_up and session.host_restarted and not closed and not already_back:
            self.lost_in_restart.add(seat)  # (a client closed is its person's doing)
        else:
            self.lost_in_restart.discard(seat)
        if not catching_up and (closed or grace <= 2 * self.loss_said_after):
            return False  # closed, or a grace period this short: the wait would take most of it
        due = now + self.loss_said_after
        if catching_up:
            due = max(due, session._resumed_at + self.loss_held_for)
        self._held_losses[seat] = (now, grace, due, catching_up)
        self.losses_due = min(self.losses_due, due)
        return True

    def say_held_losses(self) -> None:
        """The losses held back whose time has come and that are still true (the seat did not
        come back meanwhile), with the grace period left."""
        session = self.session
        now = trio.current_time()
        due = {seat: held for seat, held in self._held_losses.items() if held[2] <= now}
        for seat in due:
            del self._held_losses[seat]
        self.losses_due = min((held[2] for held in self._held_losses.values()), default=math.inf)
        for seat, (when, grace, _, _) in due.items():
            left = max(0, round(grace - (now - when)))
            who = session._seating.names[seat]
            if session._match_ended and not grace:  # held back at the rematch vote
                text = self.kept_for_the_vote(who, seat)
            else:
                text = self.lost_line(who, left, seat, of=grace)
            session._emit(Message(seat=None, text=text, table=True))

    def void_line(self, e: m.RoundVoid) -> str:
        """What a blind round's void (not ``kings``) says: who stopped it, and why."""
        session = self.session
        assert session.witness is not None
        void = f"Round {session.witness.round_no} is void"
        offender = e.offender
        here = offender is not None and offender < len(session._seating.seats)
        you = here and offender == session._seat  # read on their own screen
        if you and e.reason == "absent" and session._seating.seats[session._seat].connected:
            # This client, connected, was silent past the deadline: so the host says. It may
            # also be a host calling off a deal it dislikes (9.10): said as its word, and what
            # to do.
            dealt = self.dealt_in_round()
            return (
                f"{void}: the host says {self.what_was_due('your')} did not reach it within its "
                f"deadline ({BLIND_STAGE_SECONDS} s). Nobody saw your cards; the same dealer "
                "deals again. Once may be a slow network"
                + (
                    "; but a host can say so to call off a deal it dislikes once it has seen "
                    "its first cards: if it happens again, stop playing at this host."
                    if dealt
                    else "."
                )
            )
        who = "the host" if offender is None else "you" if you else self.person(offender)
        them, their, was = ("you", "your", "were") if you else ("them", "their", "was")
        if e.reason != "absent":
            why = "stopped on a failed deal check (the reveal names who was at fault)"
        elif offender in session._seating.stepped_away:
            why = f"stepped away, and a blind round cannot go on without {them}"
        elif here and session._seating.seats[offender].kind != "human":
            why = f"left the table, and a blind round cannot go on without {them}"
        elif here and session._seating.seats[offender].connected:
            why = (
                f"did not send {self.what_was_due()} in time (a computer plays their "
                "seat until their client shows they are back)"
            )
        else:
            why = f"{was} away past {their} grace period"
        return f"{void}: {who} {why}. Nobody saw {their} cards; the same dealer deals again."

    def dealt_in_round(self) -> bool:
        """Cards of the blind round in progress were dealt (the host has seen some)."""
        session = self.session
        cur = session.witness.current if isinstance(session.witness, BlindWitness) else None
        return cur is not None and cur.party is not None and bool(cur.party.deals)

    def what_was_due(self, whose: str = "their") -> str:
        """What the blind round in progress waited on from the people when it was voided."""
        session = self.session
        cur = session.witness.current if isinstance(session.witness, BlindWitness) else None
        if cur is None or cur.party is None:
            return f"{whose} part of the round"
        if cur.party.keys is None:
            return f"{whose} key"
        if cur.relayed_decks < cur.party.parties:
            return f"{whose} shuffle"
        return f"{whose} shares"

    def gone_at_reveal(self, e: m.BlindReveals) -> None:
        """Say who the round's reveal counts absent (9.7: gone before their seed came), and
        what that does to the round, in plain words."""
        session = self.session
        assert isinstance(session.witness, BlindWitness)
        gone, reason, offender = session.witness.gone_at_reveal(e)
        if not gone:
            return
        names = [self.person(s) if s < len(session._seating.names) else f"seat {s}" for s in gone]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        were = "was" if len(names) == 1 else "were"
        # A seat no longer a person's: its person left (as _void_line reads it too).
        left = all(
            s < len(session._seating.seats) and session._seating.seats[s].kind != "human"
            for s in gone
        )
        how = (
            "left the table before their seed came"
            if left
            else f"{were} gone before their seed came (away past their grace period, or too slow)"
        )
        text = (
            f"Round {session.witness.round_no}: {who} {how}, so the round's reveal "
            "counts them absent. "
        )
        if reason is None:
            text += "The round counts all the same: every card of it was played in the open."
        elif reason == VOID_KINGS:
            text += "The deal stays void for the kings; their cards stay secret."
        elif reason == "failed_check":
            stopper = "the host" if offender is None else session._seating.names[offender]
            text += (
                f"Their part of the round cannot be checked, so whether {stopper} was right "
                "to stop cannot be told; the round stays void and the match goes on."
            )
        else:
            text += "They are counted absent too; their cards stay secret."
        session._emit(Message(seat=None, text=text, local=True))

    def say_the_host_sees_every_hand(self) -> None:
        """At the start of a match at an ordinary table with more than one person (and a
        host not this process's own), say once that the host sees every hand."""
        session = self.session
        people = sum(1 for info in session._seating.seats if info.kind == "human")
        if not session.pin_host or people < 2 or "table" in self.told_this_match:
            return
        self.told_this_match.add("table")
        session._emit(Message(seat=None, text=deal_words.ORDINARY_TABLE, local=True))

    def say_what_the_check_means(self, party: object) -> None:
        """Once a match for each meaning, after a round verified: what was checked and what
        it protects this person from (at this process's own host, what it shows all the same;
        nothing for a void).
        ``party`` is the blind round's party for this seat as it was before the reveal."""
        session = self.session
        assert session.witness is not None
        record = session.witness.rounds[-1] if session.witness.rounds else None
        if record is None or record.void is not None:
            return
        if not session.pin_host:  # this process's own host: said to a person alone only
            people = sum(1 for info in session._seating.seats if info.kind == "human")
            if people == 1 and "own" not in self.told_this_match:
                self.told_this_match.add("own")
                session._emit(Message(seat=None, text=deal_words.OWN_HOST, local=True))
            return
        bots = any(info.kind == "bot" for info in session._seating.seats)
        replayed = session.witness.replays_plays  # (after a catch-up too: 5.10, 9.7)
        if isinstance(session.witness, BlindWitness):
            took_part = party is not None and not getattr(party, "observer", True)
            key, text = deal_words.blind_meaning(took_part, bots, replayed)
        else:
            commits, seeds, excluded = record.commits, record.seeds, record.excluded
            if commits is None or seeds is None or excluded is None:
                return
            counted = counted_seats(record.round_id, commits, seeds, excluded)
            others = [
                self.person(s)
                for s, why in enumerate(excluded)
                if why is not None and s != session.seat and self.is_person(s)
            ]
            key, text = deal_words.ordinary_meaning(
                excluded[session.seat], bool(counted), others, replayed
            )
        if key not in self.told_this_match:
            self.told_this_match.add(key)
            session._emit(Message(seat=None, text=text, local=True))

    def is_person(self, seat: int) -> bool:
        """Whether a person holds ``seat`` now."""
        session = self.session
        return seat < len(session._seating.seats) and session._seating.seats[seat].kind == "human"

    def named(self, note: str) -> str:
        """A verifier's note with the seats it names called by the names on this screen
        ("dealer seat 0" -> "dealer Ada", or "dealer you" on Ada's own screen, as her side is
        "you & Carla" there; "seat 2 absent" -> "Carla was absent", or "you were absent" on
        Carla's own screen, "Carla left the table" once she left for good; "seat 2 sent no
        commitment" -> "you sent no commitment" there too):
        the note itself, shared with `scopa-net verify`, knows seats only."""
        session = self.session

        def absent(found: re.Match[str]) -> str:
            seat = int(found[1])
            if seat == session._seat:
                return "you were absent"
            if seat >= len(session._seating.names):
                return found[0]
            if not self.is_person(seat):  # its person left for good (as _void_line says)
                return f"{name(found)} left the table"
            return f"{name(found)} was absent"

        def name(found: re.Match[str]) -> str:
            seat = int(found[1])
            return self.person(seat) if seat < len(session._seating.names) else found[0]

        def own(found: re.Match[str]) -> str:
            return "you " if int(found[1]) == session._seat else found[0]

        def dealer(found: re.Match[str]) -> str:
            return "dealer you" if int(found[1]) == session._seat else found[0]

        # The verdict's "(dealer seat 0, ..." and ", dealer seat 0;", not an error's words.
        note = re.sub(r"(?:(?<=\()|(?<=, ))dealer seat (\d)(?=[,;])", dealer, note)
        note = re.sub(r"\bseat (\d) absent\b(?! at| too)", absent, note)
        note = re.sub(rf"\bseat (\d) (?={LEFT_OUT})", own, note)
        return re.sub(r"\bseat (\d)\b", name, note)

    def person(self, seat: int) -> str:
        """Who played ``seat`` in the round in play: the person who gave it up during the
        round, else the seat's name now."""
        session = self.session
        return session._seating.away_names.get(seat, session._seating.names[seat])

    def who(self, seat: int) -> str:
        """A seat's name in a line this seat's person reads: "you" for their own."""
        session = self.session
        return "you" if seat == session._seat else session._seating.names[seat]

    def voters(self, seats: list[int]) -> list[str]:
        """Seats a rematch vote waits for, by name, this person's own last ("you"); one whose
        person is away marked so: the vote waits for their own answer all the same."""
        session = self.session
        seating = session._seating
        names = []
        for seat in sorted(seats, key=lambda s: s == session._seat):
            name = self.who(seat)
            info = seating.seats[seat] if seat < len(seating.seats) else None
            away = (
                info is not None
                and info.kind == "human"
                and (not info.connected or seat in seating.stepped_away)
            )
            names.append(f"{name} (away)" if away and seat != session._seat else name)
        return names

    def no_rematch_line(self, e: m.RematchStatus) -> str:
        """Why a rematch vote ended without a rematch (``declined``), in one line."""
        gone = {s for s, seat in enumerate(self.session._seating.seats) if seat.kind == "open"}
        said_no = [self.who(s) for s, v in enumerate(e.votes) if v == "no" and s not in gone]
        left = [self.person(s) for s, v in enumerate(e.votes) if v == "no" and s in gone]
        silent = self.voters([s for s, v in enumerate(e.votes) if v == "waiting"])
        if said_no or left:
            why = " and ".join(
                part
                for part in (
                    f"{in_a_sentence(said_no)} said no" if said_no else "",
                    f"{in_a_sentence(left)} left" if left else "",
                )
                if part
            )
        elif silent:
            why = f"{in_a_sentence(silent)} did not answer in time"
        else:
            why = "the vote closed"
        return f"no rematch ({why}): the table is closing"

    def rematch_waiting(self, e: m.RematchStatus) -> None:
        """Say whom a rematch vote still waits for, and for how long."""
        session = self.session
        # A status the host sent before this seat's answer reached it still waits for it:
        # this person is not told so after answering (a slow network).
        answered = session._rematch_answered == e.match_no
        waiting = self.voters(
            [
                s
                for s, v in enumerate(e.votes)
                if v == "waiting" and not (answered and s == session._seat)
            ]
        )
        if not waiting:
            return  # only this seat's answer, on its way: the next status says more
        seconds = e.seconds
        if self._rematch_shown is not None and self._rematch_shown[0] == e.match_no:
            seconds = min(seconds, self._rematch_shown[1])  # a countdown never goes up
        self._rematch_shown = (e.match_no, seconds)
        # "; N s": a name the host numbered ends in brackets ("Fabio (2) (57 s left...)").
        text = f"rematch: waiting for {in_a_sentence(waiting)}; {seconds} s left to answer"
        if self._rematch_said == (e.match_no, text):
            return
        self._rematch_said = (e.match_no, text)
        session._emit(Message(seat=None, text=text, table=True))
