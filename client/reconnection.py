"""Getting a seat back to its host: reconnecting with backoff when the connection is lost,
taking the seat back with its token (protocol.md 3.3), catching up on what was missed (events
replayed, or a snapshot), and sending again the moves the host had not answered. A seat kept
on disk by an earlier client is taken back the same way; what cannot be got back is said in
one line, with how to come back later."""

from __future__ import annotations

import logging
import re
from contextlib import suppress
from dataclasses import replace
from typing import Any, NoReturn

import trio

from scopa_net.blind_witness import BlindWitness
from scopa_net.client.addresses import shown_address
from scopa_net.client.files import shown_path
from scopa_net.client.hello_versions import HELLO_VERSIONS
from scopa_net.client.host_link import LINK_ERRORS, LOST_LINK, _Link, connect
from scopa_net.client.host_search import Address, HostSearch
from scopa_net.client.leaving_words import SEAT_KEPT_WHILE_OPEN
from scopa_net.client.proven_keys import ProvenKeys
from scopa_net.client.seat_store import starting_snapshot
from scopa_net.client.session import (
    CaughtUp,
    ConnectionChanged,
    ConnectionState,
    MatchOver,
    Message,
    MoveQueued,
    RoundStarted,
    ViewChanged,
)
from scopa_net.client.session_errors import (
    PASSING_BYES,
    PASSING_REFUSALS,
    ByeError,
    ClosedOnRestartError,
    HostBrokeProtocolError,
    HostEndedError,
    HostKeyChangedError,
    HostLostError,
    HostUnprovenError,
    HostWentBackError,
    KeptSeatGoneError,
    OwnProtocolError,
    RefusedError,
    ResumeDeferredError,
    SeatLostError,
    SessionError,
    TableClosedError,
    VersionMismatchError,
)
from scopa_net.client.table_words import waiting_for
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.errors import FairnessError
from scopa_net.mirror import SeatMirror
from scopa_net.names import clean_chat, clean_name, clean_text
from scopa_net.plays import Play
from scopa_net.seat_holders import SeatHolders
from scopa_net.wire import messages as m
from scopa_net.wire.connection import State, bye_for
from scopa_net.wire.errors import (
    ErrorCode,
    LocalProtocolError,
    RefusalWhy,
    RemoteProtocolError,
)
from scopa_net.witness import (
    TOLD_BEFORE_A_FRESH_CLIENT,
    TOLD_BEFORE_A_JOURNAL_PUT_BACK,
    DealWitness,
)

log = logging.getLogger("scopa_net.client")

HOST_MOVED = "The host moved to "
"""How the line begins that says the host was found at another address by its key."""
TAKEN_WHILE_AWAY = "your seat at table "
CLOSED_ON_RESTART = "the host closed table "
"""How our host's ``bad_token`` message begins when a newcomer took the seat while its
player was away past the host's limit (protocol.md 3.3): then it says who, and after how
long. Read only from a host of protocol 4, which says it in no ``why`` (:func:`refusal_why`)."""

BACKOFF = (0.2, 0.5, 1.0, 2.0, 4.0, 8.0)
RECONNECT_FOR = 300.0
"""How long to keep trying to get back to the host before giving up."""
REPORT_AFTER = (5.0, 15.0, 30.0, 60.0, 120.0, 240.0)
"""Seconds without the host at which the client says again that it is still trying."""
CATCH_UP_QUIET = 0.3
"""Just after a resume, how long the line must stay quiet before the client picks a new seed
for a round whose start it saw in the catch-up (the rest of the replay may still be coming)."""
CATCH_UP_WINDOW = 5.0
CAUGHT_UP_BY_SNAPSHOT = (
    "The host sent the table as it stands instead of the events you missed (a host does so when "
    "you missed many, or it no longer keeps them): the deal of a round under way cannot be "
    "checked here, so its cards are the host's word alone, as is the score so far; from the "
    "next round cards, plays and scores are checked again, on that score."
)
"""What a seat caught up by a snapshot of a round under way (3.4 of protocol.md: a host of
protocol 4, or one that keeps no more) tells its person."""
FEW_MISSED = 1000
"""Missed events a scopa-net host always replays (protocol.md 3.4): a snapshot for fewer is a
host's choice, not its need."""


def few_missed(count: int) -> str:
    """Said after :data:`CAUGHT_UP_BY_SNAPSHOT` when the seat missed only ``count`` events."""
    events = "event was" if count == 1 else "events were"
    return (
        f"Only {count} {events} missed, few enough to send (a scopa-net host sends up to "
        f"{FEW_MISSED}): a host that sends the table instead can change the cards of a round "
        "under way unseen; if it happens again, stop playing at this host."
    )


CAUGHT_UP_BETWEEN_ROUNDS = (
    "You were away too long for the host to send every play you missed, so it sent the table "
    "as it stood between two rounds, then what happened since: the deal of every round from "
    "there on is checked, not those of rounds you missed before it, whose score is the "
    "host's word."
)
"""What a seat caught up by a snapshot of no round under way tells its person: one taken as
the latest round began, its events then replayed (3.4 of protocol.md), or one of the present
between two rounds (or before the first)."""
NO_TRANSCRIPT_SINCE = "No transcript is saved for this match."
"""Said after :data:`CAUGHT_UP_BY_SNAPSHOT` or :data:`CAUGHT_UP_BETWEEN_ROUNDS` when the seat
does not know what the match was before (no snapshot told it)."""
TRANSCRIPT_SINCE = (
    "Your transcript of this match goes on from here, and says which rounds you did not see."
)
"""Said after :data:`CAUGHT_UP_BY_SNAPSHOT` or :data:`CAUGHT_UP_BETWEEN_ROUNDS`: the transcript
keeps what the snapshot told (protocol.md 6.1 version 7, at a blind table 9.8 version 8)."""
MOVE_LOST_WITH_THE_HOST = (
    "the host went back to an older copy of its journal, which lacks the table you chose it "
    "on; look again and play"
)
"""Why a move typed on events the host then lost (``stale``, protocol.md 3.3) was not played:
it is never sent (after "Your move ... was not played: ")."""
CAUGHT_UP_AT_ROUNDS_YOU_SAW = (
    "You were away too long for the host to send every event you missed, so it sent the table "
    "as it stood after the last round you saw, then what happened since: it agrees with the "
    "rounds you checked, and the next round is checked to follow on from them."
)
"""What a seat caught up by a snapshot that stands at the last round it saw revealed tells its
person: the next round, numbered next, must link to its own chain (5.10 and 9.7 of
protocol.md), at an ordinary table or a blind one; if a
round passed unseen instead, the witness's notice says so."""
CAUGHT_UP_BEFORE_THE_FIRST_DEAL = (
    "You were away too long for the host to send every event you missed, so it sent the table "
    "as it stood before the first deal, then what happened since: every round's deal is "
    "checked from round 1, as if you had seen every event."
)
"""What a seat caught up by a snapshot of no round dealt tells its person: round 1, if it comes
next, is checked as at a seat that saw every event (5.10 of protocol.md)."""


class Reconnection:
    """How a session gets back to its host and its seat (see the module docstring)."""

    def __init__(self, session: Any) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session
        self.to_resend: list[int] = []
        """Unacknowledged moves to send again once the catch-up reaches their ``after``."""
        self._last_break: tuple[ErrorCode, str, int] | None = None
        """The host's last protocol break (code, message, seq reached), to know it again."""
        self.lan: HostSearch | None = getattr(session, "lan_search", None)
        """Looks for the host's key on the LAN when it is not where it was (None: never)."""
        self._moved_from: Address | None = None
        """Where the host was before this client followed it to an address found on the LAN,
        until the seat is taken back there."""

    async def serve_until_over(self) -> None:
        """Play until the match is over or the session stops, getting back to the host
        each time the connection is lost (for up to RECONNECT_FOR)."""
        session = self.session
        attempt = 0
        while not session._stop:
            broken: RemoteProtocolError | None = None
            try:
                await session._pump()
                return
            except LocalProtocolError as exc:  # ours, not the link's: trying again repeats it
                if session._stop:
                    return  # leaving: something of ours raced the `leave` out (a due seed)
                await self.broke_it_ourselves(exc)
            except LOST_LINK as exc:  # not OSError: the link raises none (_stream_errors)
                if session._stop:
                    return
                log.info("connection lost: %r", exc)
                if isinstance(exc, RemoteProtocolError):
                    await self.host_broke_the_protocol(exc)
                    broken = exc
            if session._link is not None:
                await session._link.aclose()
                session._link = None
            lost_at = trio.current_time()
            reports = list(REPORT_AFTER)
            lost = (
                "the host was stopped; waiting for it to start again"
                if session._host_stopped
                else "the connection to the host was lost; trying to get back"
            )
            if broken is not None:  # not lost: closed here, the host having broken the protocol
                lost = (
                    f"the host sent a message that breaks the protocol ({broken.code.value}: "
                    f"{broken.message}), so this client closed the connection; taking the "
                    "seat back"
                )
            # The host may come back updated (stopped, or killed, and started again): the
            # newest version first, once, whatever the old connection spoke (protocol.md 3.2).
            HELLO_VERSIONS.forget(session.host, session.port)
            session.host_restarted = session._host_stopped
            session._host_stopped = False
            if self.lan is not None:
                self.lan.lost()
            session._set_state(
                ConnectionState.RECONNECTING,
                f"{lost}. Your seat is kept: type quit to stop trying",
            )
            told = ""  # the host's words for the last resume it put off, as shown
            while not session._stop:
                waited = trio.current_time() - lost_at
                if waited > RECONNECT_FOR:
                    # Said once, by the command as it ends (launch.session_failure).
                    lan = (
                        " and not found on the LAN by its key"
                        if self.lan is not None and self.lan.looked
                        else ""
                    )
                    why = (
                        f"the host at {session.address} was unreachable for {_duration(waited)}"
                        f"{lan}; stopped trying"
                    )
                    self.give_up(why)
                    raise HostLostError(why, self.seat_kept_hint())
                following = self._moved_from is not None  # found moved: try there at once
                if reports and waited >= reports[0] and not following:
                    reports.pop(0)
                    session._emit(
                        ConnectionChanged(
                            state=ConnectionState.RECONNECTING,
                            detail=f"the host has been unreachable for {_duration(waited)}; still "
                            f"trying for up to {_duration(RECONNECT_FOR)}. Type quit to stop; "
                            # (out of reach, its table may close meanwhile: as seat_kept_hint)
                            f"{SEAT_KEPT_WHILE_OPEN}",  # in brackets on the screen: none inside
                        )
                    )
                if not following:
                    await trio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                    attempt += 1
                try:
                    await self.resume()
                    attempt = 0
                    self._moved_from = None  # kept at the new address from now on
                    break
                except ResumeDeferredError as exc:
                    log.info("resume refused for now: %s", exc)
                    # The host answered: it is not unreachable, and its person reads why.
                    lost_at, reports = trio.current_time(), list(REPORT_AFTER)
                    if exc.code == ErrorCode.RATE_LIMITED.value and exc.message != told:
                        told = exc.message
                        session._emit(
                            ConnectionChanged(
                                state=ConnectionState.RECONNECTING,
                                detail=f"the host answered: {exc.message}; this client tries "
                                "again, type quit to stop",  # (in brackets: none inside)
                            )
                        )
                    continue  # the seat is still there: the next try may get it back
                except HostUnprovenError as exc:
                    if self.unproven(exc) is None:  # where the LAN said: back to the old one
                        continue
                    self.give_up(str(exc))  # at the seat's own address: stop, the seat kept
                    raise
                except HostKeyChangedError:
                    tried = self.back_from_moved()
                    if tried is not None:  # announced with the key, answered with another
                        session._emit(Message(seat=None, text=self.posing(tried), local=True))
                        continue
                    if await self.find_moved_host(now=True):
                        continue
                    raise
                except VersionMismatchError as exc:
                    # The host came back as another version: the seat stays kept, for when
                    # both run the same one.
                    self.give_up(str(exc))
                    exc.hint = self.seat_kept_hint()
                    raise
                except SeatLostError as exc:
                    session._kept.forget_record()
                    if isinstance(exc, ClosedOnRestartError) and not session._match_ended:
                        # A match stopped before its end: the command says so, status 1.
                        raise TableClosedError(str(exc)) from None
                    session._emit(Message(seat=None, text=str(exc), local=True))
                    session.end_note = str(exc)
                    return
                except ByeError as exc:
                    if exc.reason in PASSING_BYES:
                        continue  # about that connection only: the next one may get through
                    why = (
                        f"the host at {session.address} ended the connection while this client "
                        f"was taking your seat back ({exc.reason}: {exc.message}); stopped trying"
                    )
                    self.give_up(why)
                    raise HostEndedError(why, self.seat_kept_hint()) from None
                except LocalProtocolError as exc:
                    await self.broke_it_ourselves(exc)
                except LINK_ERRORS:
                    if session._link is not None:  # it resumed, then broke at once
                        await session._link.aclose()
                        session._link = None
                    if self.back_from_moved() is None:
                        await self.find_moved_host()
                    continue

    async def host_broke_the_protocol(self, exc: RemoteProtocolError) -> None:
        """The host sent what the protocol forbids: say so in ``bye`` before closing
        (protocol.md 1), then take the seat back as after a lost connection, once. The same
        break again at the same point is the host's own doing (a resume replays the same
        event): stop trying, in one line, rather than resume for ever."""
        session = self.session
        if session._link is not None:
            with suppress(*LINK_ERRORS), trio.move_on_after(2):
                await session._link.send(bye_for(exc))
        where = (
            exc.code,
            exc.message,
            0 if session.mirror is None else session.mirror.seq,
        )
        if where != self._last_break:
            self._last_break = where
            return
        why = (
            f"the host at {session.address} sent a message that breaks the protocol "
            f"({exc.code.value}: {exc.message}) again after the seat was taken back; stopped "
            "trying"
        )
        self.give_up(why)
        raise HostBrokeProtocolError(why, self.seat_kept_hint())

    async def broke_it_ourselves(self, exc: LocalProtocolError) -> NoReturn:
        """This client sent what its own protocol state machine refuses: a bug here, not a
        lost connection. Reconnecting would send it again (resumed about once a second, for
        ever): stop, in one line with the error's words, the seat kept on disk."""
        session = self.session
        if session._link is not None:
            with trio.CancelScope(shield=True):
                await session._link.aclose()
            session._link = None
        why = (
            f"this client broke the protocol itself ({exc.code.value}: {exc.message}): a bug "
            "in scopa-net, not the host's doing nor the network's; stopped rather than "
            "reconnect again and again"
        )
        log.error("our own protocol error: %r", exc)
        self.give_up(why)
        raise OwnProtocolError(why, self.seat_kept_hint()) from exc

    def seat_kept_hint(self) -> str:
        """How to come back to a seat kept on disk as this client stops trying, and what
        becomes of a move the host never answered ("" when nothing is kept). Said as the host
        may be out of reach, and its table closed meanwhile: the host keeps the seat only
        while the table is open (as ``join`` says when the host is not reached at all)."""
        session = self.session
        if session._kept.record is None:
            return ""
        hint = f"{SEAT_KEPT_WHILE_OPEN}: {session.resume_command} takes it back"
        moves = [Play.from_wire(p.card, p.captured).text() for p, _ in session._unacked.values()]
        if moves:
            hint += (
                f" (your move {', '.join(moves)} was not answered: it goes to the host again "
                "then, and you are told if it is not played)"
            )
        return hint

    def give_up(self, why: str) -> None:
        """End the session without the host: the seat stays on disk to be taken back. Nothing
        is shown: the error raised next says it, once (the screen said it too, and then the
        command's last line said it again)."""
        session = self.session
        session._stop = True
        if session._kept.record is not None:
            session._kept.save_record()
            note = f"{why} Your seat is saved: {session.resume_command} takes it back."
        else:
            note = why
        session.end_note = note

    async def take_back(self) -> None:
        """Sit down again in a seat kept on disk by an earlier client (see seat_store)."""
        session = self.session
        record = session._kept.record
        assert record is not None
        session.table_id, session._seat = record.table_id, record.seat
        session.host_key = bytes.fromhex(record.host_key)
        session.match_no = record.match_no
        session._sitting.start_seat(starting_snapshot(record), mid_match=record.mid_match)
        session._exempt_up_to = record.last_played  # the earlier client's moves, acknowledged
        told = session._kept.seeds_out_round()
        if told is not None and isinstance(session.witness, DealWitness):
            # The round whose commitments reached the client before this one: the host tells
            # the match again from its start, but does not open that round anew (5.2).
            session.witness.told_before = {told.round_no: told}
            session.witness.told_since = TOLD_BEFORE_A_FRESH_CLIENT
        for seat, name in enumerate(record.names[: len(session._seating.names)]):
            session._seating.names[seat] = clean_name(name) or session._seating.names[seat]
        for p in record.pending:
            msg = m.Play(move_id=p.move_id, after=p.after, card=p.card, captured=p.captured)
            session._unacked[p.move_id] = (msg, trio.Event())
        waits = list(BACKOFF)
        while True:
            try:
                await self.resume()
                break
            except SeatLostError as exc:
                session._kept.forget_record()
                raise KeptSeatGoneError(str(exc)) from None
            except ResumeDeferredError as exc:
                if not waits:
                    why = (
                        f"the host at {session.address} would not give your seat back just now "
                        f"({exc.message.rstrip('.')})"
                    )
                    raise HostEndedError(why, self.seat_kept_hint()) from None
                await trio.sleep(waits.pop(0))  # the host asks for a moment (slow down, its disk)
            except HostUnprovenError as exc:
                raise self.unproven(exc, stopping=True) or exc from None
            except HostKeyChangedError:
                tried = self.back_from_moved()
                if tried is not None:
                    raise HostKeyChangedError(self.posing(tried, stopping=True)) from None
                if not await self.find_moved_host(now=True):
                    raise
            except LocalProtocolError as exc:
                await self.broke_it_ourselves(exc)
            except LINK_ERRORS:
                # Not where it was: once, look for it on the LAN by its key.
                if self.back_from_moved() is not None or not await self.find_moved_host(now=True):
                    raise
        self._moved_from = None
        session._replaying = session._exempt_replay = True

    async def find_moved_host(self, *, now: bool = False) -> bool:
        """Look on the LAN for the host's key (when a look is due, or ``now``); where it is
        announced at another address, say so and make that the address the next try goes to.
        False when it is not found (or this client does not look)."""
        session = self.session
        if self.lan is None or session.host_key is None or session.connector is not None:
            return False
        found = await self.lan.look(session.host_key, (session.host, session.port), now=now)
        if found is None:
            return False
        self._moved_from = (session.host, session.port)
        session.host, session.port = found
        session._emit(
            Message(
                seat=None,
                text=f"{HOST_MOVED}{session.address} (found on the LAN by its key); "
                "taking your seat back there.",
                local=True,
            )
        )
        return True

    def back_from_moved(self) -> Address | None:
        """The address followed did not give the seat back: go back to where the host was.
        Returns the address given up (None: none was being followed)."""
        if self._moved_from is None:
            return None
        session = self.session
        tried = (session.host, session.port)
        session.host, session.port = self._moved_from
        self._moved_from = None
        return tried

    def cannot_prove(self, key: bytes, version: int) -> str:
        """What a person reads when the host at an address the LAN gave for their host's key
        speaks a ``version`` with no proof that it holds that key (4): the token is not sent."""
        session = self.session
        shown = fingerprint(key)
        return (
            f"the host at {session.address} is announced on the LAN with the key of your "
            f"seat's host ({shown}) but speaks protocol {version}, which cannot prove "
            "it holds that key: your seat was not taken there"
        )

    def posing(self, tried: Address, *, stopping: bool = False) -> str:
        """What a person reads when a host announced on the LAN with their host's key answers
        with another key: the seat's token was not sent there, and is never sent there.
        ``stopping``: the words of a client that stops here (taking a kept seat back, its
        host not at the old address either), rather than one that tries on."""
        session = self.session
        assert session.host_key is not None
        if self.lan is not None:
            self.lan.refused.add(tried)
        host, port = tried
        where = shown_address(host, port)
        said = (
            f"he host at {where} is announced on the LAN with the key of your seat's host "
            f"({fingerprint(session.host_key)}) but answered with another: your seat was not "
            "taken there (it may be another host posing as yours)"
        )
        if stopping:
            return (
                f"t{said}, nor is your host at {session.address}; your seat stays kept: "
                f"`scopa-net join {session.address}` tries again"
            )
        return f"T{said}; back to {session.address}."

    def unproven(
        self, exc: HostUnprovenError, *, stopping: bool = False
    ) -> HostUnprovenError | None:
        """A host that did not prove it holds the key (protocol.md 5.3). At an address the LAN
        gave: never tried again, and either said as this client goes back to the old address
        (None returned) or, ``stopping``, the error to end with, the seat kept. Elsewhere:
        ``exc``, with how to come back to the seat kept."""
        tried = self.back_from_moved()
        session = self.session
        if tried is None:
            exc.hint = self.seat_kept_hint()
            return exc
        if self.lan is not None:
            self.lan.refused.add(tried)
        said = str(exc)
        if not stopping:
            session._emit(
                Message(
                    seat=None,
                    text=f"{said[0].upper()}{said[1:]}; back to {session.address}.",
                    local=True,
                )
            )
            return None
        host, port = tried
        where = shown_address(host, port)
        return HostUnprovenError(
            f"{said}; nor is your host at {session.address}, and your seat stays kept: "
            f"`scopa-net join {session.address}` tries again (`scopa-net join {where}` goes "
            "there, if you know that host is yours)"
        )

    def export_hint(self) -> str:
        """Where the transcript of a match that is over is: the file this client saved at
        its end, if it saw the end; else the host's journal, which keeps every match, and
        whose ``history --export`` writes a seat's, to verify."""
        session = self.session
        match_no, path = session._transcripts.saved or (None, None)
        if session._match_ended and match_no == session.match_no and path is not None:
            where = shown_path(path)
            return f" Your transcript of it is {where}: `scopa-net verify {where}` checks it."
        match = "" if session.match_no == 1 else f" --match {session.match_no}"
        command = f"scopa-net history --export {session.table_id} --seat {session.seat}{match}"
        return (
            f" Its transcript is in the host's journal: whoever runs the host can write it "
            f"with `{command}`, for you to check with `scopa-net verify FILE`."
        )

    def abandoned_round_words(self) -> str:
        """For a match the host closed under way: the round it closed after its seeds were
        out (the host knew that deal, and never revealed it), kept in the transcript."""
        session = self.session
        w = getattr(session, "witness", None)
        rec = w.abandoned() if isinstance(w, DealWitness | BlindWitness) else None
        if rec is None or session.data_dir is None:
            return ""
        session._transcripts.save_transcript(abandoned=True)
        if isinstance(w, BlindWitness):  # the host cannot know a blind deal before it deals
            after, knew = "its first cards were dealt", "had seen some of that deal's cards"
        else:
            after, knew = "that round's seeds were out", "knew that deal"
        return (
            f" It closed the table in round {rec.round_no}, after {after}: the host {knew} "
            "and never finished or revealed it (a host that does this can throw away a deal it "
            "does not like), so verify reports that round as never revealed."
        )

    def transcript_so_far_hint(self) -> str:
        """Where this client kept the transcript of a match the host closed unfinished (it
        is rewritten at each round's end), for ``scopa-net verify``."""
        if self.session.data_dir is None:
            return ""
        return (
            f" Your transcript of its rounds played so far is in "
            f"{self.session.transcripts_folder}, to check with `scopa-net verify FILE`."
        )

    def seat_lost_words(self, refusal: RefusedError | None) -> str:
        """What a person reads when the host would not give the seat back: the host's own
        words where the host says why (a table it closed as it restarted, protocol.md 3.8; a
        seat a newcomer took while its player was away long, 3.3), else words true in every
        case."""
        session = self.session
        said = refusal.message if refusal is not None else ""
        why_code = refusal_why(refusal, session.table_id)
        if why_code is RefusalWhy.TABLE_CLOSED_ON_RESTART:
            why = f" (the host says: {clean_text(said).rstrip('.')})"
            hint = self.abandoned_round_words() + self.transcript_so_far_hint()
        elif refusal is not None and refusal.code == ErrorCode.NO_SUCH_TABLE.value:
            why, hint = " (the match there is over)", self.export_hint()
        elif why_code is RefusalWhy.SEAT_TAKEN_WHILE_AWAY:
            why, hint = f": {clean_chat(said)}", ""  # the host says who, and when
        else:
            why = (
                " (the seat was given up, the match ended, or someone took it after you were "
                "away long)"
            )
            hint = ""
        return (
            f"The host at {session.address} no longer holds seat {session.seat} at table "
            f"{session.table_id} for you{why}.{hint}"
        )

    async def resume(self, *, chosen: bool = False) -> None:
        """Take the seat back on a new connection with its token (protocol.md 3.3).

        ``chosen``: the old connection still works and this client resumes to show the host
        its person is back (:meth:`come_back`); nothing is held back as after a lost one."""
        session = self.session
        assert session.table_id is not None and session.mirror is not None
        try:
            link, welcome = await connect(
                session.host, session.port, session.connector, proven=ProvenKeys(session.data_dir)
            )
        except HostWentBackError as exc:
            if self._moved_from is None:
                raise
            raise HostUnprovenError(self.cannot_prove(exc.key, exc.version)) from None
        try:
            if self._moved_from is not None and welcome.version < m.KEY_PROOF_SINCE:
                raise HostUnprovenError(self.cannot_prove(welcome.host_key, welcome.version))
            session._sitting.welcome(welcome)
            resumed = None
            refusal: RefusedError | None = None
            tokens = session._kept.tokens()
            while tokens:
                try:
                    resumed = await link.request(
                        m.Resume(
                            table_id=session.table_id,
                            seat=session.seat,
                            token=tokens[0],
                            last_seq=session.mirror.seq,
                        ),
                        m.Resumed,
                    )
                    break
                except RefusedError as exc:
                    refusal = exc
                    if exc.code == ErrorCode.STALE.value and self.rewind(exc):
                        continue  # the same token, from where this seat's match began here
                    if exc.code != ErrorCode.BAD_TOKEN.value:
                        break
                    tokens.pop(0)
            if resumed is None and refusal is not None and refusal.code in PASSING_REFUSALS:
                raise ResumeDeferredError(refusal.code, refusal.message)
            if resumed is None:
                words = self.seat_lost_words(refusal)
                if refusal_why(refusal, session.table_id) is RefusalWhy.TABLE_CLOSED_ON_RESTART:
                    raise ClosedOnRestartError(words)
                raise SeatLostError(words)
        except BaseException:
            await link.aclose()
            raise
        assert isinstance(resumed, m.Resumed)
        session._token = resumed.token
        session._keep_token(resumed.token, resumed.epoch)
        session._link = link
        if not chosen:
            session._resumed_at = trio.current_time()
        session._seed_due = True
        session._catch_up_due = True
        session._set_state(ConnectionState.CONNECTED, back_at_the_table(session.host_restarted))
        # Whatever the host had not acknowledged goes again (a repeat is applied once), as
        # soon as this connection has caught up to the event each move was chosen after.
        self.to_resend = list(session._unacked)
        session._not_now.sent_again()  # (those refused for now go with the others)
        if session.check_deals:  # (the seed the round waits for goes as _seed_due says)
            session._seeds.not_now.forget_all()
        session._seeds.blind_not_now.forget_all()  # (so does a blind round's, as owed)
        await self.resend_caught_up(link)

    def rewind(self, refusal: RefusedError) -> bool:
        """The host refused a resume as ``stale``: it has fewer events for this seat than this
        client saw (its journal put back from an older copy). Say so, and go back to where
        this seat's match began here, to be caught up again from what the host has (protocol.md
        3.3): the board, the deal checks and the transcript are rebuilt from its events, the
        replay shown only where it ends. False when already there (nothing to go back to)."""
        session = self.session
        start = session._start
        assert session.mirror is not None and session.witness is not None
        if start is None or session.rules is None or session.mirror.seq <= start.seq:
            return False
        assert session.host_key is not None
        newest = host_newest_seq(refusal)
        lost = "the last events" if newest is None else f"what came after event {newest}"
        session.notice(
            f"The host at {session.address} has lost {lost} of your seat (this client saw "
            f"{session.mirror.seq}): it was started again from an older copy of its journal, it "
            "seems. The table goes on from what the host has; what you saw after that did not "
            "happen there."
        )
        self.drop_moves_the_host_lost(newest)
        # The plays of this seat the host acknowledged after its newest event were lost with
        # it: one recorded there now is checked as any other (3.5). Those up to it stand: a
        # play of the seat replayed there must be one of them, as it was acknowledged (where
        # they are not known one by one, every play of the seat up to it is taken as hers).
        session._exempt_up_to = min(session._exempt_up_to, start.seq) if newest is None else newest
        session._own_plays.forget(newest, start=start.seq)  # its numbers after `newest` too
        session._held_screen.drop()  # (what was held for judgement did not happen there)
        session._own_records.clear()  # (nor the plays read: those it has are replayed)
        session._kept.save_record()  # (for the next client)
        # As the seat began there: taken mid-match, it carries that snapshot on (5.10), so
        # that it checks the rounds from there and keeps its transcript (before, a newcomer
        # rebuilt here checked cards alone, and saved no transcript).
        mid_match = session._start_mid_match
        session.mirror = SeatMirror(start)
        if isinstance(session.witness, BlindWitness):
            blind_told = session.witness.opened_rounds()
            session.witness = session._blind_witness(mid_match)
            session.witness.told_before = blind_told  # a round dealt is not opened anew
            session.witness.told_since = TOLD_BEFORE_A_JOURNAL_PUT_BACK
            if mid_match:
                session.witness.resynced(start)
                session.witness.caught_up = False  # (its own words: a seat taken mid-match)
        else:
            told = session.witness.opened_rounds()
            session.witness = DealWitness(
                session.rules, session.host_key, session.seat, mid_match=mid_match
            )
            session.witness.told_before = told  # a round whose seeds were out is not opened anew
            if mid_match:
                session.witness.sat_down(start)
        session._seating.holders = SeatHolders(session.rules.players)
        session._voids = session._rounds_counted = session._round_opened = 0
        session._void_news = session._last_void = None
        session.rounds_verified = session._verified_before
        session.void_rounds_verified = session._void_verified_before
        session._from_snapshot(start, sat_down=True)
        session._replaying = True  # shown where the host's events end (caught_up)
        # Checked from the host's newest event on, the replay too: a host could play for the
        # person as she resumes (unless it did not say which: then as a seat taken back).
        session._exempt_replay = newest is None
        return True

    def drop_moves_the_host_lost(self, newest: int | None) -> None:
        """Refuse, here, each move not answered that was chosen after event ``newest``, the
        host's newest for this seat now (None: not said, so every such move): the board it
        was chosen on never happened at the host, so it is never sent (sent once the new
        events passed its ``after``, it would play a card typed on another board). Whoever
        typed it reads why it was not played; one kept from an earlier client is said so."""
        session = self.session
        for move_id, (msg, done) in list(session._unacked.items()):
            if newest is not None and msg.after <= newest:
                continue  # chosen on events the host still has: sent again as any
            del session._unacked[move_id]
            session._resent.discard(move_id)
            session._not_now.answered(move_id)
            if move_id in session._queued:
                session._queued.discard(move_id)
                session._emit(MoveQueued(queued=False))
            if move_id in session._awaited:
                session._lost_moves.add(move_id)
            else:  # typed in an earlier client, kept with the seat: nobody waits for it here
                play = Play.from_wire(msg.card, msg.captured)
                session.notice(
                    f"Your move {play.text()} was not played: {MOVE_LOST_WITH_THE_HOST}."
                )
            done.set()
        session._kept.save_record()

    async def come_back(self, old: _Link) -> _Link:
        """Resume the seat while its connection still works: at a blind table that is how a
        person sat out for a missed deadline shows they are back (protocol.md 9.7). The host
        closes the old connection (``bye superseded``), unread; nothing is lost, since the new
        one replays every event after the last one read. Returns the connection to read."""
        session = self.session
        session._come_back_due = False
        try:
            await self.resume(chosen=True)
        except (SessionError, *LINK_ERRORS) as exc:
            # The old connection goes on; the next round sat out tries again.
            log.info("could not resume to come back: %r", exc)
            session._link = old
            return old
        with trio.CancelScope(shield=True):
            await old.aclose()
        assert session._link is not None
        return session._link

    async def resend_caught_up(self, link: _Link) -> None:
        """Send again each move the host had not answered, once the catch-up has reached
        the event it was chosen after. Nothing goes before the seat is seated again: a
        resume by snapshot is ``syncing`` until its snapshot is read (protocol.md 3.3), and
        a move sent then broke the protocol, which read as a lost connection: the seat was
        resumed again, and again, until its table closed."""
        if link.conn.state is not State.SEATED:
            return  # the pump sends them once the snapshot is read
        session = self.session
        seq = 0 if session.mirror is None else session.mirror.seq
        for move_id in list(self.to_resend):
            pending = session._unacked.get(move_id)
            if pending is None:
                self.to_resend.remove(move_id)
            elif pending[0].after <= seq:
                self.to_resend.remove(move_id)
                session._resent.add(move_id)
                msg = pending[0]
                if msg.proof is None and isinstance(session.witness, BlindWitness):
                    # Kept on disk without its proof: the party, rebuilt, proves it again.
                    with suppress(FairnessError):
                        pos, proof = session.witness.play_proof(msg.card)
                        msg = replace(msg, pos=pos, proof=proof)
                        session._unacked[move_id] = (msg, pending[1])
                await link.send(msg)
                if move_id in session._queued:
                    session._queued.discard(move_id)
                    session._emit(MoveQueued(queued=False))  # on the wire at last

    async def resend_not_now(self, link: _Link) -> None:
        """Send again, exactly as before, each move the host refused for now (its disk, a
        rate limit: protocol.md 3.5) whose pause is over, and this seat's commitment or seed
        refused so (5.4). Only on a seated connection: a connection lost meanwhile sends them
        with the resume (:meth:`resume`)."""
        session = self.session
        if link.conn.state is not State.SEATED or link is not session._link:
            return
        for move_id in session._not_now.due(trio.current_time()):
            pending = session._unacked.get(move_id)
            if pending is not None:
                await link.send(pending[0])
        await session._seeds.send_again(link)

    async def send_seed_when_quiet(self, link: _Link) -> None:
        """Send a due seed once every message already here is handled (just after a resume,
        once the line has also been quiet for a moment: the replay may not be over), and then
        tell the screen the catch-up is over (:class:`CaughtUp`). Nothing
        goes before the seat is seated: a resume by snapshot is ``syncing`` until its snapshot
        is read (protocol.md 3.3), and a seed sent then broke the protocol (as a move did)."""
        session = self.session
        if not (session._seed_due or session._replaying or session._catch_up_due):
            return
        if link.has_more():
            return
        if link.conn.state is not State.SEATED:
            return  # the seed stays due: sent once the snapshot is read
        if trio.current_time() - session._resumed_at < CATCH_UP_WINDOW:
            with trio.move_on_after(CATCH_UP_QUIET):
                while not link.has_more():
                    data = await link.stream.receive_some(65536)
                    if not data:
                        break
                    link.conn.receive_data(data)
            if link.has_more():
                return
        if session._replaying:
            self.caught_up()
        if session._catch_up_due:
            session._catch_up_due = False
            session._emit(CaughtUp())
        if session._stop or link.conn.state is not State.SEATED:
            return  # the person left while the line was quiet: nothing more goes out
        await session._seeds.send_seed_if_due()

    def caught_up(self, *, vote_over: bool = False) -> None:
        """The replay of a seat taken back from disk is over: show where the match stands
        (``vote_over``: its end, the vote on playing again over without a rematch)."""
        session = self.session
        session._replaying = session._exempt_replay = False
        assert session.mirror is not None
        view = session.mirror.view
        checked = rounds_checked(session.rounds_verified, session.void_rounds_verified)
        awaited = session._seating.players_awaited()
        where = (
            f"round {view.round_number}"
            if view.round_number
            # as sitting down says it: "waiting for the deal" read as if it were about to come
            else waiting_for(awaited)
            if awaited
            else "waiting for the deal"
        )
        session._emit(
            Message(
                seat=None,
                text=f"Back in your seat at table {session.table_id} ({session.address}), "
                f"{where}{checked}.",
                local=True,
            )
        )
        if session._void_news is not None:
            session._emit(session._void_news)  # the round there is void: not a board to play on
        elif session.say_round_over(view):
            pass  # the round there is over, the next not dealt: its sheet, as it was shown
        elif view.round_number:
            if view.redeal and isinstance(session._last_void, Message):
                session._emit(session._last_void)  # why the round there was dealt again
            session._emit(RoundStarted(view=view))
        if view.winner is not None:
            for said in session._end_lines:  # hidden in the replay, as the match's end was
                session._emit(said)
            session._emit(
                MatchOver(
                    winner=view.winner,
                    match_scores=view.scores_now,  # the last round counted (3.9 snapshot)
                    rounds=view.round_number - session._voids,
                    voids=session._voids,
                    vote_over=vote_over,
                )
            )

    async def caught_up_by_snapshot(self, msg: m.Snapshot) -> bool:
        """A snapshot instead of the events: the board and who sits where, but not the round's
        fair-deal record. A round over in it (the next not dealt) is shown as it ended, its
        sheet, and a match over as it ended; True when the session ends with it (the match
        over, no rematch offered)."""
        session = self.session
        assert session.mirror is not None
        missed = msg.seq > session.mirror.seq
        if session.witness is not None and missed:
            # Caught up by snapshot: the events skipped (commitments, seeds, cards)
            # were never seen, so checking resumes with the next round_commit: the latest
            # round's, when the snapshot is of no round under way (between rounds, 3.4).
            if isinstance(session.witness, DealWitness):
                try:
                    session.witness.snapshot_skips_seeds(
                        msg.round_no, over=msg.round_over or msg.void_deal
                    )
                except FairnessError as exc:
                    await session._deal_check.deal_failed(exc, msg)
            try:
                session.witness.resynced(msg)  # the match so far, checked from here (5.10, 9.7)
            except FairnessError as exc:  # (a snapshot of a match this seat checked otherwise)
                await session._deal_check.deal_failed(exc, msg)
            between = msg.round_over or msg.void_deal or msg.round_no == 0
            text = CAUGHT_UP_BETWEEN_ROUNDS if between else CAUGHT_UP_BY_SNAPSHOT
            kept = session.witness.keeps_transcript  # (version 7, or at a blind table 8)
            text = f"{text} {TRANSCRIPT_SINCE if kept else NO_TRANSCRIPT_SINCE}"
            if session.witness.takes_chain_up:  # (an ordinary or a blind table's witness)
                text = (
                    CAUGHT_UP_BEFORE_THE_FIRST_DEAL
                    if msg.round_no == 0
                    else (CAUGHT_UP_AT_ROUNDS_YOU_SAW)
                )
            count = msg.seq - session.mirror.seq
            if not between and count <= FEW_MISSED:
                text = f"{text} {few_missed(count)}"
            session._emit(Message(seat=None, text=text, local=True))
        session.mirror.apply(msg)
        session._seating.take_seats(msg.seats, msg.stand_ins)  # (the names makers differ from)
        session._from_snapshot(msg)
        session._void_news = None
        session._seq_changed.set()
        session._seq_changed = trio.Event()
        session._kept.save_record()
        # Events were missed: the board is drawn (the turn or not), as the table stands, so
        # that "it sent the table as it stands" is followed by that table.
        view = session.mirror.view
        session._emit(ViewChanged(view=view, sat_down=missed))
        if not missed:
            return False
        # The round's end and the match's, as a seat that saw round_end and match_end was
        # shown them (once: a seat that saw the sheet before it was cut off is not shown it
        # again). Taking a seat back from disk, they are shown where the catch-up ends.
        session.say_round_over(view)
        if view.winner is not None and not session._match_ended:
            over = await session._end.ended_unseen(view)
            if over and session._replaying:
                self.caught_up()  # the session ends here: where it stands, shown now
            return over
        return False


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 90:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds % 60 else f"{seconds // 60} min"


def host_newest_seq(refusal: RefusedError) -> int | None:
    """The host's newest event for this seat, from a ``stale`` refusal of a resume: its
    ``current_seq`` (protocol.md 3.8, version 5 on); from a host that sends none (one of
    protocol 4), read from an older scopa-net's words (``... this seat's newest event N;
    ...``), the only way it said it. None when neither says."""
    if refusal.current_seq is not None:
        return refusal.current_seq
    found = re.search(r"newest event (\d+)", refusal.message)
    return int(found[1]) if found else None


def rounds_checked(checked: int, void: int) -> str:
    """What follows "Back in your seat ..., round 3" for the rounds this seat checked: the
    rounds played out and the void ones apart ("; 2 rounds checked, 1 void round (not
    played out)"), nothing when none."""
    played = checked - void
    parts = [f"{played} round{'' if played == 1 else 's'} checked"] if played else []
    if void:
        parts.append(f"{void} void round{'' if void == 1 else 's'} (not played out)")
    return "; " + ", ".join(parts) if parts else ""


def back_at_the_table(host_restarted: bool) -> str:
    """The connection's state as a seat is taken back: after the host's restart (it said it
    was stopping), said so."""
    return "the host was restarted; back at the table" if host_restarted else "back at the table"


def refusal_why(refusal: RefusedError | None, table_id: int | None) -> RefusalWhy | None:
    """Why the host refused to give a seat back, where this client acts on it: the ``error``'s
    ``why`` (protocol.md 3.8); from a host of protocol 4, which sends none, read from our
    host's words, the only way it said it (a ``no_such_table`` beginning
    :data:`CLOSED_ON_RESTART`; a ``bad_token`` beginning :data:`TAKEN_WHILE_AWAY`). Another
    host of 4 words a table that is not there as it likes (``no such table``): that is no
    table closed on restart."""
    if refusal is None:
        return None
    if refusal.why is not None:
        return RefusalWhy(refusal.why)
    if refusal.version is not None and refusal.version >= m.WHY_SINCE:
        return None  # a host that says why and did not: no reason this client acts on
    if refusal.code == ErrorCode.NO_SUCH_TABLE.value:
        if refusal.message.startswith(CLOSED_ON_RESTART):
            return RefusalWhy.TABLE_CLOSED_ON_RESTART
    elif refusal.code == ErrorCode.BAD_TOKEN.value and refusal.message.startswith(TAKEN_WHILE_AWAY):
        return RefusalWhy.SEAT_TAKEN_WHILE_AWAY
    return None
