"""A seat at a table on a host, over TCP: the network implementation of the client's Session.

It speaks the protocol through a sans-IO :class:`~scopa_net.wire.PlayerConnection`, takes part
in every fair deal (commits and reveals a fresh seed), checks each card on arrival with a
:class:`~scopa_net.witness.DealWitness`, keeps the seat's view with a
:class:`~scopa_net.mirror.SeatMirror`, and saves the transcript after every round. When the
connection drops it says so, reconnects with backoff and resumes with its seat token, resending
any move the host had not acknowledged; the player loses nothing but time.
"""

from __future__ import annotations

import itertools
import logging
import math
import re
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path

import trio

from scopa_net.blind_witness import BlindWitness
from scopa_net.client.files import (
    shown_path,
    why_not_written,
)
from scopa_net.client.friend_address import friend_address
from scopa_net.client.host_link import (
    CLIENT_NAME,
    CONNECT_TIMEOUT,
    LINK_ERRORS,
    LOST_LINK,
    NO_PINGS,
    REQUEST_TIMEOUT,
    SILENCE_TIMEOUT,
    Connector,
    _Link,
    connect,
    list_tables,
)
from scopa_net.client.kept_seat import KeptSeat
from scopa_net.client.known_hosts import OWN_HOSTS, KnownHosts, remember_own_host
from scopa_net.client.render import NEW_SEAT_SITTING_OUT
from scopa_net.client.seat_store import (
    SeatRecord,
    SeatStore,
    seats_kept,
    starting_snapshot,
)
from scopa_net.client.session import (
    ConnectionChanged,
    ConnectionState,
    Event,
    MatchOver,
    MatchStarted,
    Message,
    MoveQueued,
    RematchClosed,
    RoundOver,
    RoundStarted,
    ViewChanged,
    VoidDeal,
)
from scopa_net.client.session_errors import (
    EXIT_DEAL_FAILED,
    PASSING_BYES,
    PASSING_REFUSALS,
    REFUSALS,
    RESENT_REFUSALS,
    ByeError,
    DealCheckFailedError,
    HelloHeldError,
    HostBrokeProtocolError,
    HostEndedError,
    HostKeyChangedError,
    HostLostError,
    KeptSeatGoneError,
    MoveUnansweredError,
    PlayRefusedError,
    RefusedError,
    ResumeDeferredError,
    SeatLostError,
    SessionError,
    TableClosedError,
    UnexpectedReplyError,
    VersionMismatchError,
    another_version,
    refused_play,
)
from scopa_net.client.table_words import BLIND_STAGE_SECONDS, SAT_OUT_SILENT, TableWords
from scopa_net.client.transcript_files import (
    CHECK_IT,
    NO_TRANSCRIPT,
    VERIFY,
    TranscriptFiles,
    transcript_path,
)
from scopa_net.fair.commitments import fingerprint, seat_commitment
from scopa_net.fair.errors import FairnessError
from scopa_net.fair.plain_words import what_failed
from scopa_net.fair.transcript import VOID_KINGS
from scopa_net.mirror import SeatMirror
from scopa_net.names import clean_name
from scopa_net.plays import Play, PlayRecord, play_code
from scopa_net.rules import RuleSet
from scopa_net.seat_holders import Holder, SeatHolders
from scopa_net.view import SeatView
from scopa_net.wire import messages as m
from scopa_net.wire.connection import bye_for
from scopa_net.wire.convert import opening_snapshot
from scopa_net.wire.errors import ErrorCode, ProtocolError, RemoteProtocolError
from scopa_net.witness import DealWitness

log = logging.getLogger("scopa_net.client")

__all__ = [  # with what the modules split from this one hold, importable from here as before
    "BACKOFF",
    "BLIND_STAGE_SECONDS",
    "CAUGHT_UP_BY_SNAPSHOT",
    "CHECK_IT",
    "CLIENT_NAME",
    "CONNECT_TIMEOUT",
    "EXIT_DEAL_FAILED",
    "FORFEIT",
    "LINK_ERRORS",
    "LOST_LINK",
    "NO_PINGS",
    "NO_TRANSCRIPT",
    "OWN_HOSTS",
    "PASSING_BYES",
    "PASSING_REFUSALS",
    "RECONNECT_FOR",
    "REFUSALS",
    "REQUEST_TIMEOUT",
    "RESENT_REFUSALS",
    "SAT_OUT_SILENT",
    "SILENCE_TIMEOUT",
    "VERIFY",
    "ByeError",
    "Connector",
    "DealCheckFailedError",
    "HelloHeldError",
    "HostBrokeProtocolError",
    "HostEndedError",
    "HostKeyChangedError",
    "HostLostError",
    "KeptSeatGoneError",
    "KnownHosts",
    "MoveUnansweredError",
    "NetworkSession",
    "PlayRefusedError",
    "RefusedError",
    "ResumeDeferredError",
    "SeatLostError",
    "SessionError",
    "TableChoice",
    "TableClosedError",
    "UnexpectedReplyError",
    "VersionMismatchError",
    "_Link",
    "another_version",
    "connect",
    "list_tables",
    "open_network_session",
    "refused_play",
    "remember_own_host",
]

BACKOFF = (0.2, 0.5, 1.0, 2.0, 4.0, 8.0)
RECONNECT_FOR = 300.0
"""How long to keep trying to get back to the host before giving up."""
REPORT_AFTER = (5.0, 15.0, 30.0, 60.0, 120.0, 240.0)
"""Seconds without the host at which the client says again that it is still trying."""
CATCH_UP_QUIET = 0.3
"""Just after a resume, how long the line must stay quiet before the client picks a new seed
for a round whose start it saw in the catch-up (the rest of the replay may still be coming)."""
CATCH_UP_WINDOW = 5.0
LOSS_HELD_FOR = 10.0
"""Just after this client got back to its host, how long it holds back that a friend "lost
the connection": a host that restarts has every seat lost (its catch-up says so), and each
friend's client is back within its reconnect backoff (8 s at most). One back by then was
never lost to anyone but the host, so the others read only that they are back."""
LOSS_SAID_AFTER = 5.0
"""How long this client holds back that a friend "lost the connection" at any time: on a
network that resets every minute, a friend back within a couple of seconds was said lost and
back each time, two lines for every player. Back by then, nothing is said; still gone, the line
comes with the grace period counted from the host's event."""
RECEIPT_WAIT = 10.0
"""How long after revealing its seed a seat waits for the host's signed receipt before it tells
its player that none came (the host signs one as soon as it takes the seed: protocol.md 5.4)."""

REVEAL_WAIT = 90.0
"""How long a seat that stopped on a failed blind check waits for the round's reveal, which
names the party at fault (protocol.md 9.6), before it leaves without it."""


REMATCH_SECONDS = 60
"""How long a table stays after its match for a rematch vote (protocol.md 3.11)."""


@dataclass(frozen=True, slots=True)
class TableChoice:
    """Which table to sit at: an existing one (``table_id``) or a new one (``create``)."""

    table_id: int | None = None
    seat: int | None = None
    password: str | None = None
    create: m.CreateTable | None = None
    accepted_key: bytes | None = None
    """A new key of the host that the person accepted (``join --accept-new-key``) but that
    could not be pinned, as they were told: met again, it is not warned of as changed."""


class NetworkSession:
    """A seat at a table on a host; see the module docstring."""

    def __init__(
        self,
        host: str,
        port: int,
        choice: TableChoice,
        *,
        name: str,
        data_dir: Path | None = None,
        on_transcript: Callable[[bytes], None] | None = None,
        connector: Connector | None = None,
        check_deals: bool = True,
        pin_host: bool = True,
        offer_rematch: bool = False,
        store: SeatStore | None = None,
        resume_from: SeatRecord | None = None,
    ) -> None:
        """``check_deals=False`` skips checking cards and verifying rounds (a load generator
        with thousands of seats in one process); a person's client always checks.
        ``pin_host=False`` does not pin the host's key (a throwaway host in this process).
        ``offer_rematch``: after the match, stay for a vote on playing again (:meth:`rematch`;
        a person's game screen asks); otherwise decline at once and end the session.

        ``store`` keeps the seat on disk so that it outlives this process
        (:mod:`~scopa_net.client.seat_store`); ``resume_from`` takes back a seat kept there
        instead of sitting down anew."""
        self.host, self.port = host, port
        self.connector = connector
        self.check_deals = check_deals
        self.pin_host = pin_host
        self.offer_rematch = offer_rematch
        self.choice = choice
        self.name = name
        self.data_dir = data_dir
        self.on_transcript = on_transcript
        self._words = TableWords(self, loss_said_after=LOSS_SAID_AFTER, loss_held_for=LOSS_HELD_FOR)
        """The lines people read about the table's events."""
        self._unsaved: set[str] = set()
        """What could not be saved, each told once (:meth:`_not_saved`)."""
        self._send_events, self._events = trio.open_memory_channel[Event](256)
        self._state = ConnectionState.CONNECTING
        self._link: _Link | None = None
        self.table_id: int | None = None
        self._seat: int | None = None
        self._token: bytes | None = None
        self.host_key: bytes | None = None
        self.mirror: SeatMirror | None = None
        self.witness: DealWitness | BlindWitness | None = None
        self.rules: RuleSet | None = None
        self._names: list[str] = []
        self._holders: SeatHolders | None = None
        """Who held each seat of the match, round by round: the names saved beside its
        transcript follow them (a seat can change hands)."""
        self._stand_ins: dict[int, bool] = {}
        self._move_ids = itertools.count(secrets.randbelow(2**30) + 1)
        self._unacked: dict[int, tuple[m.Play, trio.Event]] = {}
        self._awaited: set[int] = set()
        """Moves whose :meth:`submit` waits for the host's answer (not those taken back)."""
        self._resent: set[int] = set()
        """Moves sent again after the connection came back, not answered yet."""
        self._answers: dict[int, m.Ack | m.Reject] = {}
        self._seed: bytes | None = None
        self._receipt_due = math.inf
        """When the receipt for the seed this seat revealed is overdue (inf: none awaited)."""
        self._receipt_round: bytes | None = None
        """The round whose seed that receipt is for."""
        self._stop = False
        self.connected = trio.Event()
        self._seq_changed = trio.Event()
        self.verdict_failures: list[str] = []
        self.deal_failure: DealCheckFailedError | None = None
        """Set when a fair-deal check failed and the seat stopped."""
        self._last_break: tuple[ErrorCode, str, int] | None = None
        """The host's last protocol break (code, message, seq reached), to know it again."""
        self.rounds_verified = 0
        self.store = store
        self._kept = KeptSeat(self, store, resume_from)
        self._transcripts = TranscriptFiles(self)
        """The match's transcripts on disk."""
        """The seat on disk (``store``): its record, saved as it changes."""
        self._resume_tokens: tuple[bytes, ...] = ()
        self._seats: list[m.SeatInfo] = []
        self._away_names: dict[int, str] = {}
        """Seats given up during the round in play (until the next round begins), by the name
        of the person who gave them up: the round's void and its deal check name that person,
        not the computer player now in the seat."""
        self._stepped_away: set[int] = set()
        """Seats whose person stepped away (``seat_status`` with ``away``) and is not back."""
        self._host_stopped = False  # the last connection ended with the host's shutting_down
        self.left_for_good = False
        """The player gave the seat up for good (``leave``), rather than stepping away."""
        self._seed_due = False
        self._seed_lost_round: bytes | None = None
        self._resumed_at = -math.inf
        self._come_back_due = False
        """This seat sits a blind round out for a deadline its client missed while connected:
        resume the seat, so that the host counts its person again from the next round."""
        self._left = trio.Event()
        self._to_resend: list[int] = []
        """Unacknowledged moves to send again once the catch-up reaches their ``after``."""
        self._queued: set[int] = set()
        """Moves typed while there was no connection, not sent yet (the toolbar says so)."""
        self._finished: SeatRecord | None = None
        """The seat's record while a match just ended (kept in memory for a rematch)."""
        self._end_lines: list[Message] = []
        """What the match's end said before its result (the transcript saved, and how to
        check it): said again where a replay that held the end is over (:meth:`_caught_up`)."""
        self._match_ended = False
        """The match played now has ended (until a rematch begins)."""
        self._host_said: str | None = None
        """The host's last notice at the table (why it closed, when it closes early)."""
        self._replaying = False
        """Taking a seat back from disk: the host replays the match; show only the end."""
        self.end_note: str | None = None
        """The last line for the player when the session ends on its own (host gone...)."""
        self._start: m.Snapshot | None = None
        """Where this seat's match began for this client (the snapshot it sat down with, or
        the agreed rematch's opening): a host that lost events goes on from there (_rewind)."""
        self._verified_before = 0
        """The rounds checked before that start (in matches before it)."""
        self._where_to_join: tuple[str, ...] = ()
        self._join_command: str | None = None
        """The command friends type to join the table this seat opened (``join --create``)."""
        self.match_no = 1
        """Which match at this table the seat plays (one more after each agreed rematch)."""
        self._rematch_answered: int | None = None
        """The match (its number) whose "play again?" this client has answered."""
        self.computer_plays: set[int] = set()
        """The plays of the round in play (indexes in its view's ``plays``) that a computer
        made for a person: away with a computer standing in, or sitting a blind round out."""
        self.play_makers: dict[int, str] = {}
        """Who made each play of the round in play (index in its view's ``plays`` -> the name
        of the seat's holder then): a seat may change hands during the round. Plays that
        came in a snapshot are not in it (their seat's name now stands for them)."""
        self._voids = 0
        """Rounds of this match seen void (``round_void``): the host numbers them as rounds,
        but they were not played out."""
        self._void_news: Event | None = None
        """How the round in play was voided (its void line, or the kings' void deal), while it
        is the last round dealt: a seat taken back says it rather than show that round."""
        self.take_back_with: str | None = None
        """The command that takes the seat back, where it is not ``join`` (``play --lan``)."""
        self.take_back_note: str | None = None
        """What that command does besides, said with it on stepping away (its port...)."""

    # --- the Session protocol -----------------------------------------------------------

    @property
    def seat(self) -> int:
        assert self._seat is not None
        return self._seat

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._names)

    @property
    def where_to_join(self) -> tuple[str, ...]:
        """For the player who opened the table (``join --create``, ``play --lan``): how
        friends join; ``who`` shows it. The table opened with ``join --create`` is told of
        only while a seat is open for a friend (``play --lan`` sets its own lines)."""
        if self._join_command is None:
            return self._where_to_join
        if not any(info.kind == "open" for info in self._seats):
            return ()
        if self.view is not None:  # a person left a match under way: their seat is open
            return (
                f"Table {self.table_id} is yours. A friend can take its open seat with "
                f"{self._join_command}.",
            )
        return self._where_to_join

    @where_to_join.setter
    def where_to_join(self, lines: tuple[str, ...]) -> None:
        self._where_to_join = tuple(lines)

    @property
    def seat_notes(self) -> tuple[str, ...]:
        """A few words on each seat for ``who``: away, a computer standing in..."""
        notes = []
        for seat, info in enumerate(self._seats):
            if info.kind == "bot":
                notes.append("computer player")
            elif info.kind == "open":
                notes.append("open seat, a computer plays it" if self.view else "open seat")
            elif not info.connected and seat != self._seat:
                notes.append("away, a computer plays for them" if self._stand_in(seat) else "away")
            elif self._sits_out(seat):
                notes.append("a computer plays the seat this round")
            else:
                notes.append("")
        return tuple(notes)

    @property
    def seat_kinds(self) -> tuple[str, ...]:
        """Each seat's kind now, by seat (protocol.md 3.3): ``human`` (a client plays it),
        ``bot`` (the host's computer player) or ``open``."""
        return tuple(info.kind for info in self._seats)

    @property
    def going_voids_round(self) -> bool:
        """Leaving or stepping away now would void the round in play for everyone: a blind
        round this seat's person is a party of, not yet played out (protocol.md 9.7)."""
        return isinstance(self.witness, BlindWitness) and self.witness.needs_me

    def _sits_out(self, seat: int) -> bool:
        """Whether a computer plays this person's seat in the blind round in play, which its
        person has no part in (9.7): taken during the round, or counted away."""
        view = self.view
        if view is None or view.round_over:
            return False
        if seat == self._seat:
            return view.sitting_out
        w = self.witness
        return isinstance(w, BlindWitness) and w.current is not None and seat not in w.people

    def _stand_in(self, seat: int) -> bool:
        return self._stand_ins.get(seat, False)

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    @property
    def view(self) -> SeatView | None:
        if self.mirror is None or self.mirror.view.round_number == 0:
            return None
        return self.mirror.view

    @property
    def connection(self) -> ConnectionState:
        return self._state

    @property
    def events(self) -> trio.MemoryReceiveChannel[Event]:
        return self._events

    async def submit(self, play: Play) -> PlayRecord:
        assert self.mirror is not None
        move_id = next(self._move_ids)
        pos = proof = None
        if isinstance(self.witness, BlindWitness):
            # A blind table: the play carries its deck position and the proof (9.4).
            pos, proof = self.witness.play_proof(play.card.index)
        msg = m.Play(
            move_id=move_id,
            after=self.mirror.seq,
            card=play.card.index,
            captured=play.captured_mask,
            pos=pos,
            proof=proof,
        )
        done = trio.Event()
        self._unacked[move_id] = (msg, done)
        self._awaited.add(move_id)
        self._kept.save_record()
        if self._link is None:
            self._emit(
                Message(
                    seat=None,
                    text=f"queued: {play.text()} goes to the host as soon as the connection "
                    "is back",
                    local=True,
                )
            )
            self._queued.add(move_id)
            self._emit(MoveQueued(queued=True))
        await self._send_quietly(msg)
        try:
            await done.wait()
        finally:
            self._awaited.discard(move_id)
        resent = move_id in self._resent
        self._resent.discard(move_id)
        answer = self._answers.pop(move_id, None)
        if answer is None:
            # The session ended (the match is over) before the ack came back; the events
            # it caused may have arrived all the same.
            for record in reversed(self.mirror.view.plays):
                if record.seat == self.seat and record.play == play:
                    return record
            raise MoveUnansweredError("the session ended before the host answered that move")
        if isinstance(answer, m.Reject):
            raise refused_play(answer, play.text(), resent=resent)
        # The ack can arrive before the event it acknowledges: wait for that event.
        while self.mirror.seq < answer.seq and self._state is not ConnectionState.CLOSED:
            await self._seq_changed.wait()
        for record in reversed(self.mirror.view.plays):
            if record.seat == self.seat and record.play == play:
                return record
        return PlayRecord(self.seat, play, False)

    async def say(self, text: str) -> None:
        await self._send_quietly(m.Say(text=text))

    async def rename(self, name: str) -> bool:
        """Ask the host to call this seat ``name`` from now on (it tells every seat, this one
        included, with a ``seat_status``); False when not connected (nothing was sent)."""
        if self._link is None or self._state is not ConnectionState.CONNECTED:
            return False
        await self._send_quietly(m.Rename(name=name))
        return True

    def notice(self, text: str) -> None:
        """Show the player a line from this client (such as how friends can join), at once,
        even while a seat taken back from disk is being replayed."""
        replaying, self._replaying = self._replaying, False
        self._emit(Message(seat=None, text=text, local=True))
        self._replaying = replaying

    async def rematch(self, agree: bool) -> None:
        """Answer, after the match, whether to play again with the same seats and rules."""
        self._rematch_answered = self.match_no
        await self._send_quietly(m.Rematch(agree=agree))

    @property
    def rematch_seconds(self) -> int:
        """The time to answer "play again?" once the match ended: the host's linger time
        (protocol.md 3.11), after which a vote nobody answered closes the table."""
        return REMATCH_SECONDS

    @property
    def can_step_away(self) -> bool:
        """Whether this seat is kept on disk, so that stepping away can be undone by
        ``scopa-net join`` (a game against this process's own host keeps nothing)."""
        return self.store is not None

    async def leave(self, away: bool = False) -> None:
        """Give up the seat for good, or (``away``) step away and keep it; ends the session.

        Waits briefly for the host's ``left``. Stepping away keeps the seat on disk for
        ``scopa-net join`` to take back; leaving for good forgets it."""
        self._stop = True
        self.left_for_good = not away
        # The host's ``left`` ends the session, and the screen stops everything when it ends:
        # that must not cut this short before the seat on disk is dealt with (shielded, and
        # bounded in time).
        with trio.CancelScope(shield=True), trio.move_on_after(REQUEST_TIMEOUT / 3):
            if self._link is not None and self._state is ConnectionState.CONNECTED:
                await self._send_quietly(m.Leave(away=away))
                await self._left.wait()
        if self._kept.record is not None:
            if away or self._link is None:
                self._kept.record = replace(self._kept.record, away=True)
                self._kept.save_record()
            else:
                self._kept.forget_record()

    # --- running ------------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, sit down, and keep the seat until the match ends or we are stopped."""
        self._kept.playing = True
        try:
            if self._kept.record is not None:
                await self._take_back()
            else:
                await self._sit_down()
            await self._serve_until_over()
        finally:
            self._kept.playing = False
            if self.store is not None and self._kept.record is not None:
                self.store.release(self._kept.record)  # the seat is kept, free to take back
            self._set_state(ConnectionState.CLOSED)
            for _, done in self._unacked.values():
                done.set()  # no answer will come now
            self._seq_changed.set()
            self._send_events.close()
            if self._link is not None:
                with trio.CancelScope(shield=True):
                    await self._link.aclose()

    async def _sit_down(self) -> None:
        link, welcome = await connect(self.host, self.port, self.connector)
        self._link = link
        self._welcome(welcome)
        choice = self.choice
        table_id = choice.table_id
        password = choice.password
        info: m.TableInfo | None = None
        if choice.create is not None:
            password = password or choice.create.password
            created = await link.request(choice.create, m.TableCreated)
            assert isinstance(created, m.TableCreated)
            info = created.table
            table_id = info.id
        elif table_id is not None:
            listing = await link.request(m.ListTables(), m.Tables)
            assert isinstance(listing, m.Tables)
            info = next((t for t in listing.tables if t.id == table_id), None)
        if table_id is None:
            raise SessionError("no table chosen")
        joined = await link.request(
            m.Join(table_id=table_id, seat=choice.seat, name=self.name, password=password),
            m.Joined,
        )
        assert isinstance(joined, m.Joined)
        self.table_id, self._seat, self._token = joined.table_id, joined.seat, joined.token
        snapshot = await link.expect(m.Snapshot)
        assert isinstance(snapshot, m.Snapshot)
        # A match the lobby lists as begun is one under way, even before its first deal (a
        # blind round waiting for keys, say): this seat did not see its round begin.
        self._start_seat(snapshot, mid_match=True if info is not None and info.started else None)
        if info is not None and not snapshot.seats:
            for seat, seat_info in enumerate(info.seats):
                if seat_info.name is not None and seat < len(self._names):
                    self._names[seat] = clean_name(seat_info.name) or f"seat {seat}"
        if not snapshot.seats:
            self._names[joined.seat] = self.name
        self._kept.keep_seat(joined.token, joined.epoch, snapshot, info)
        self._set_state(ConnectionState.CONNECTED)
        if choice.create is not None and self.pin_host:  # (play --lan says it its own way)
            self._join_command = await self._join_words(table_id, bool(choice.create.password))
            self.where_to_join = (
                f"Table {table_id} is yours. Friends join it with {self._join_command}; the "
                "match begins when every seat is taken.",
            )
            for line in self.where_to_join:  # none when the computers took every other seat
                self.notice(line)

    async def _join_words(self, table_id: int, password: bool) -> str:
        """The command friends type to join the table this seat opened, quoted, at an
        address they can reach (never a loopback one without saying so), and never the
        password itself, on a screen others see."""
        assert self._link is not None
        friend = await friend_address(self.host, self.port, self._link.stream)
        command = f"`scopa-net join {friend.address} --table {table_id}"
        command += " --password PASSWORD`" if password else "`"
        if friend.note:
            command += f" ({friend.note})"
        if password:
            command += (
                ", PASSWORD being the one you chose (tell them yourself: it is not shown here)"
            )
        return command

    def _welcome(self, welcome: m.Welcome) -> None:
        if self.host_key is not None and welcome.host_key != self.host_key:
            raise HostKeyChangedError(self._key_changed(welcome.host_key))
        self.host_key = welcome.host_key
        if self.data_dir is not None and not self.pin_host:
            try:
                remember_own_host(self.data_dir, welcome.host_key)  # for `scopa-net verify`
            except OSError as exc:
                self._not_saved(
                    "Could not save this host's key",
                    exc,
                    self.data_dir / OWN_HOSTS,
                    "The game goes on, but `scopa-net verify` will not know its transcripts "
                    "as your own host's.",
                )
        pins = None if self.data_dir is None or not self.pin_host else self.data_dir / "known_hosts"
        if welcome.host_key == self.choice.accepted_key:
            pins = None  # accepted, and could not be pinned: said already
        known = KnownHosts(pins)
        try:
            warning = known.check(f"{self.host}:{self.port}", welcome.host_key)
        except OSError as exc:
            assert pins is not None
            warning = None
            self._not_saved(
                "Could not pin this host's key",
                exc,
                pins,
                "The game goes on, but the next `scopa-net join` to this host will meet it as new.",
            )
        if warning:
            self._emit(Message(seat=None, text=warning, local=True))

    def _key_changed(self, now: bytes) -> str:
        """What a person reads when the host at this address signs with another key than the
        one this seat is played with (a different host there now, or one that lost its
        journal): the seat is not taken to it."""
        assert self.host_key is not None
        where = f"{self.host}:{self.port}"
        keys = (
            f"the host at {where} now has key {fingerprint(now)}, not {fingerprint(self.host_key)}"
        )
        if self._kept.record is None:
            return f"{keys}, the one this match was played with: it may be a different host"
        seat = f"table {self.table_id}, seat {self._seat}, as {self._kept.record.name}"
        return (
            f"{keys}, the one your seat ({seat}) is kept at: it may be a different host, or "
            f"one that lost its journal. Your seat stays kept for that host; `scopa-net join "
            f"{where} --no-resume --accept-new-key` sits down anew with the new key."
        )

    def _start_seat(self, snapshot: m.Snapshot, *, mid_match: bool | None = None) -> None:
        self._start = snapshot
        self._verified_before = self.rounds_verified
        self.rules = snapshot.rules.to_rules()
        self.mirror = SeatMirror(snapshot)
        assert self.host_key is not None
        if mid_match is None:
            mid_match = snapshot.round_no > 0
        self.witness = DealWitness(self.rules, self.host_key, snapshot.seat, mid_match=mid_match)
        if snapshot.round_no > 0:
            self._emit(
                Message(
                    seat=None,
                    text="You took a seat in a match under way: each card is checked from "
                    "the next round on, and no transcript is saved for this match.",
                    local=True,
                )
            )
        if self.mirror.view.new_seat:  # a blind round begun without this seat (9.7)
            self._emit(Message(seat=None, text=NEW_SEAT_SITTING_OUT, local=True))
        self._names = [f"seat {s}" for s in range(self.rules.players)]
        self._holders = SeatHolders(self.rules.players)
        self._take_seats(snapshot.seats)
        self._from_snapshot(snapshot)
        if snapshot.round_no:
            self._emit(ViewChanged(view=self.mirror.view))

    async def _serve_until_over(self) -> None:
        attempt = 0
        while not self._stop:
            try:
                await self._pump()
                return
            except LOST_LINK as exc:  # not OSError: the link raises none (_stream_errors)
                if self._stop:
                    return
                log.info("connection lost: %r", exc)
                if isinstance(exc, RemoteProtocolError):
                    await self._host_broke_the_protocol(exc)
            if self._link is not None:
                await self._link.aclose()
                self._link = None
            lost_at = trio.current_time()
            reports = list(REPORT_AFTER)
            lost = (
                "the host was stopped; waiting for it to start again"
                if self._host_stopped
                else "the connection to the host was lost; trying to get back"
            )
            self._host_stopped = False
            self._set_state(
                ConnectionState.RECONNECTING,
                f"{lost}. Your seat is kept: type quit to stop trying",
            )
            while not self._stop:
                waited = trio.current_time() - lost_at
                if waited > RECONNECT_FOR:
                    # Said once, by the command as it ends (launch.session_failure).
                    why = (
                        f"the host at {self.address} was unreachable for {_duration(waited)}; "
                        "stopped trying"
                    )
                    self._give_up(why)
                    raise HostLostError(why, self._seat_kept_hint())
                if reports and waited >= reports[0]:
                    reports.pop(0)
                    self._emit(
                        ConnectionChanged(
                            state=ConnectionState.RECONNECTING,
                            detail=f"the host has been unreachable for {_duration(waited)}; still "
                            f"trying for up to {_duration(RECONNECT_FOR)}. Type quit to stop "
                            "(your seat is kept)",
                        )
                    )
                await trio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                attempt += 1
                try:
                    await self._resume()
                    attempt = 0
                    break
                except ResumeDeferredError as exc:
                    log.info("resume refused for now: %s", exc)
                    continue  # the seat is still there: the next try may get it back
                except SeatLostError as exc:
                    self._kept.forget_record()
                    self._emit(Message(seat=None, text=str(exc), local=True))
                    self.end_note = str(exc)
                    return
                except ByeError as exc:
                    if exc.reason in PASSING_BYES:
                        continue  # about that connection only: the next one may get through
                    why = (
                        f"the host at {self.address} ended the connection while this client "
                        f"was taking your seat back ({exc.reason}: {exc.message}); stopped trying"
                    )
                    self._give_up(why)
                    raise HostEndedError(why, self._seat_kept_hint()) from None
                except LINK_ERRORS:
                    if self._link is not None:  # it resumed, then broke at once
                        await self._link.aclose()
                        self._link = None
                    continue

    async def _host_broke_the_protocol(self, exc: RemoteProtocolError) -> None:
        """The host sent what the protocol forbids: say so in ``bye`` before closing
        (protocol.md 1), then take the seat back as after a lost connection, once. The same
        break again at the same point is the host's own doing (a resume replays the same
        event): stop trying, in one line, rather than resume for ever."""
        if self._link is not None:
            with suppress(*LINK_ERRORS), trio.move_on_after(2):
                await self._link.send(bye_for(exc))
        where = (exc.code, exc.message, 0 if self.mirror is None else self.mirror.seq)
        if where != self._last_break:
            self._last_break = where
            return
        why = (
            f"the host at {self.address} sent a message that breaks the protocol "
            f"({exc.code.value}: {exc.message}) again after the seat was taken back; stopped "
            "trying"
        )
        self._give_up(why)
        raise HostBrokeProtocolError(why, self._seat_kept_hint())

    def _seat_kept_hint(self) -> str:
        """How to come back to a seat kept on disk as this client stops trying, and what
        becomes of a move the host never answered ("" when nothing is kept)."""
        if self._kept.record is None:
            return ""
        hint = f"your seat is kept: {self.resume_command} takes it back"
        moves = [
            Play.from_code(play_code(p.card, p.captured)).text() for p, _ in self._unacked.values()
        ]
        if moves:
            hint += (
                f" (your move {', '.join(moves)} was not answered: it goes to the host again "
                "then, and you are told if it is not played)"
            )
        return hint

    def _give_up(self, why: str) -> None:
        """End the session without the host: the seat stays on disk to be taken back. Nothing
        is shown: the error raised next says it, once (the screen said it too, and then the
        command's last line said it again)."""
        self._stop = True
        if self._kept.record is not None:
            self._kept.save_record()
            note = f"{why} Your seat is saved: {self.resume_command} takes it back."
        else:
            note = why
        self.end_note = note

    @property
    def resume_command(self) -> str:
        """The command that takes this seat back once this client is gone."""
        return self.take_back_with or f"`scopa-net join {self.address}`"

    async def _take_back(self) -> None:
        """Sit down again in a seat kept on disk by an earlier client (see seat_store)."""
        record = self._kept.record
        assert record is not None
        self.table_id, self._seat = record.table_id, record.seat
        self.host_key = bytes.fromhex(record.host_key)
        self.match_no = record.match_no
        self._start_seat(starting_snapshot(record), mid_match=record.mid_match)
        for seat, name in enumerate(record.names[: len(self._names)]):
            self._names[seat] = clean_name(name) or self._names[seat]
        for p in record.pending:
            msg = m.Play(move_id=p.move_id, after=p.after, card=p.card, captured=p.captured)
            self._unacked[p.move_id] = (msg, trio.Event())
        for wait in (*BACKOFF, None):
            try:
                await self._resume()
                break
            except SeatLostError as exc:
                self._kept.forget_record()
                raise KeptSeatGoneError(str(exc)) from None
            except ResumeDeferredError as exc:
                if wait is None:
                    why = (
                        f"the host at {self.address} would not give your seat back just now "
                        f"({exc.message.rstrip('.')})"
                    )
                    raise HostEndedError(why, self._seat_kept_hint()) from None
                await trio.sleep(wait)  # the host asks for a moment (slow down, its disk)
        self._replaying = True

    def _export_hint(self) -> str:
        """Where the transcript of a match that ended without this client is: the host's
        journal keeps every match, and ``history --export`` writes a seat's, to verify."""
        match = "" if self.match_no == 1 else f" --match {self.match_no}"
        command = f"scopa-net history --export {self.table_id} --seat {self.seat}{match}"
        return (
            f" Its transcript is in the host's journal: whoever runs the host can write it "
            f"with `{command}`, for you to check with `scopa-net verify FILE`."
        )

    async def _resume(self, *, chosen: bool = False) -> None:
        """Take the seat back on a new connection with its token (protocol.md 3.3).

        ``chosen``: the old connection still works and this client resumes to show the host
        its person is back (:meth:`_come_back`); nothing is held back as after a lost one."""
        assert self.table_id is not None and self.mirror is not None
        link, welcome = await connect(self.host, self.port, self.connector)
        try:
            self._welcome(welcome)
            resumed = None
            refusal: RefusedError | None = None
            tokens = self._kept.tokens()
            while tokens:
                try:
                    resumed = await link.request(
                        m.Resume(
                            table_id=self.table_id,
                            seat=self.seat,
                            token=tokens[0],
                            last_seq=self.mirror.seq,
                        ),
                        m.Resumed,
                    )
                    break
                except RefusedError as exc:
                    refusal = exc
                    if exc.code == ErrorCode.STALE.value and self._rewind(exc.message):
                        continue  # the same token, from where this seat's match began here
                    if exc.code != ErrorCode.BAD_TOKEN.value:
                        break
                    tokens.pop(0)
            if resumed is None and refusal is not None and refusal.code in PASSING_REFUSALS:
                raise ResumeDeferredError(refusal.code, refusal.message)
            if resumed is None:
                over = refusal is not None and refusal.code in ("no_such_table",)
                why = (
                    "the match there is over"
                    if over
                    else "the seat was given up or the match ended"
                )
                raise SeatLostError(
                    f"The host at {self.address} no longer holds seat {self.seat} at table "
                    f"{self.table_id} for you ({why}).{self._export_hint() if over else ''}"
                )
        except BaseException:
            await link.aclose()
            raise
        assert isinstance(resumed, m.Resumed)
        self._token = resumed.token
        self._keep_token(resumed.token, resumed.epoch)
        self._link = link
        if not chosen:
            self._resumed_at = trio.current_time()
        self._seed_due = True
        self._set_state(ConnectionState.CONNECTED, "back at the table")
        # Whatever the host had not acknowledged goes again (a repeat is applied once), as
        # soon as this connection has caught up to the event each move was chosen after.
        self._to_resend = list(self._unacked)
        await self._resend_caught_up(link)

    def _keep_token(self, token: bytes, epoch: int) -> None:
        """Keep the seat's new token on disk before it is used (a subclass may lose it, as a
        client killed between the host's answer and the write does)."""
        self._kept.keep_token(token, epoch)

    def _rewind(self, refusal: str) -> bool:
        """The host refused a resume as ``stale``: it has fewer events for this seat than this
        client saw (its journal put back from an older copy). Say so, and go back to where
        this seat's match began here, to be caught up again from what the host has (protocol.md
        3.3): the board, the deal checks and the transcript are rebuilt from its events, the
        replay shown only where it ends. False when already there (nothing to go back to)."""
        start = self._start
        assert self.mirror is not None and self.witness is not None
        if start is None or self.rules is None or self.mirror.seq <= start.seq:
            return False
        assert self.host_key is not None
        found = re.search(r"newest event (\d+)", refusal)
        lost = f"what came after event {found[1]}" if found else "the last events"
        self.notice(
            f"The host at {self.address} has lost {lost} of your seat (this client saw "
            f"{self.mirror.seq}): it was started again from an older copy of its journal, it "
            "seems. The table goes on from what the host has; what you saw after that did not "
            "happen there."
        )
        mid_match = self.witness.mid_match
        self.mirror = SeatMirror(start)
        self.witness = DealWitness(self.rules, self.host_key, self.seat, mid_match=mid_match)
        self._holders = SeatHolders(self.rules.players)
        self._voids = 0
        self._void_news = None
        self.rounds_verified = self._verified_before
        self._from_snapshot(start)
        self._replaying = True  # shown where the host's events end (_caught_up)
        return True

    async def _come_back(self, old: _Link) -> _Link:
        """Resume the seat while its connection still works: at a blind table that is how a
        person sat out for a missed deadline shows they are back (protocol.md 9.7). The host
        closes the old connection (``bye superseded``), unread; nothing is lost, since the new
        one replays every event after the last one read. Returns the connection to read."""
        self._come_back_due = False
        try:
            await self._resume(chosen=True)
        except (SessionError, *LINK_ERRORS) as exc:
            # The old connection goes on; the next round sat out tries again.
            log.info("could not resume to come back: %r", exc)
            self._link = old
            return old
        with trio.CancelScope(shield=True):
            await old.aclose()
        assert self._link is not None
        return self._link

    async def _resend_caught_up(self, link: _Link) -> None:
        seq = 0 if self.mirror is None else self.mirror.seq
        for move_id in list(self._to_resend):
            pending = self._unacked.get(move_id)
            if pending is None:
                self._to_resend.remove(move_id)
            elif pending[0].after <= seq:
                self._to_resend.remove(move_id)
                self._resent.add(move_id)
                msg = pending[0]
                if msg.proof is None and isinstance(self.witness, BlindWitness):
                    # Kept on disk without its proof: the party, rebuilt, proves it again.
                    with suppress(FairnessError):
                        pos, proof = self.witness.play_proof(msg.card)
                        msg = replace(msg, pos=pos, proof=proof)
                        self._unacked[move_id] = (msg, pending[1])
                await link.send(msg)
                if move_id in self._queued:
                    self._queued.discard(move_id)
                    self._emit(MoveQueued(queued=False))  # on the wire at last

    async def _send_seed_if_due(self) -> None:
        """Give the host this seat's commitment or seed if the round in play waits for it.

        Called when every message that has arrived is handled, so that a catch-up replay
        is read to its end before the client decides what the host still waits for."""
        w = self.witness
        if not self._seed_due or w is None or self._link is None:
            return
        self._seed_due = False
        if isinstance(w, BlindWitness):
            if w.owed is not None:  # what the blind round waits on from us, once more
                await self._link.send(w.owed)
            return
        current = w.current
        if current is None:
            return
        if current.commits is None:
            if self._seed is None:
                self._seed = secrets.token_bytes(32)
                self._kept.keep_seed(current.round_id, self._seed)
            commit = w.my_commitment(self._seed)
            await self._link.send(m.SeedCommit(round_id=current.round_id, commit=commit))
        elif w.should_reveal():
            w.revealed = True
            await self._link.send(m.SeedReveal(round_id=current.round_id, seed=self._seed))
            self._await_receipt(current.round_id)
        elif (
            current.seeds is None
            and current.commits[self.seat] is not None
            and self._seed is None
            and not w.mid_match
        ):
            self._round_unchecked(current.round_id, current.round_no)

    def _round_unchecked(self, round_id: bytes, round_no: int) -> None:
        if self._seed_lost_round == round_id:
            return
        self._seed_lost_round = round_id
        self._emit(
            Message(
                seat=None,
                text=f"This seat's seed for round {round_no} was lost with the client that "
                "chose it, so this seat cannot check that round: its own seed cannot be "
                "confirmed among those the host relays. Every round after it is checked.",
                local=True,
            )
        )

    async def _pump(self) -> None:
        """Handle messages until the match is over (returns) or the connection fails."""
        assert self._link is not None
        link = self._link
        while True:
            if self._come_back_due:
                link = await self._come_back(link)
            if self._to_resend:
                await self._resend_caught_up(link)
            await self._send_seed_when_quiet(link)
            with trio.move_on_at(min(self._receipt_due, self._words.losses_due)) as waiting:
                msg = await link.receive()  # cancel-safe: bytes read stay in the codec
            if waiting.cancelled_caught:
                if trio.current_time() >= self._words.losses_due:
                    self._words.say_held_losses()
                if trio.current_time() >= self._receipt_due:
                    self._receipt_overdue()
                continue
            if isinstance(msg, m.Ping):
                await link.send(m.Pong(nonce=msg.nonce))
            elif isinstance(msg, m.Ack | m.Reject):
                self._answer(msg)
            elif isinstance(msg, m.Bye):
                if msg.reason == ErrorCode.SUPERSEDED.value:
                    # Our seat was resumed from another client: that one plays now.
                    self._stop = True
                    self._emit(Message(seat=None, text=f"disconnected: {msg.message}", local=True))
                    return
                if msg.reason == ErrorCode.SHUTTING_DOWN.value:
                    # Stopped by whoever runs it, most often to start it again: its journal
                    # keeps the table, so wait for it as for a lost connection.
                    self._host_stopped = True
                    raise trio.BrokenResourceError(f"the host shut down: {msg.message}")
                raise trio.BrokenResourceError(f"the host said goodbye: {msg.message}")
            elif isinstance(msg, m.Snapshot):
                self._caught_up_by_snapshot(msg)
            elif isinstance(msg, m.Left):
                self._left.set()
                if not self._stop:
                    self._table_closed()
                return
            elif isinstance(msg, m.Error):
                if msg.ref in ("seed_commit", "seed_reveal", *BLIND_SENDS):
                    # A seed sent again after a resume that the host already had.
                    log.info("host refused %s: %s", msg.ref, msg.message)
                else:
                    text = f"the host refused: {msg.message}"
                    self._emit(Message(seat=None, text=text, local=True))
            elif msg.SEQUENCED and await self._table_event(msg):
                return

    async def _send_seed_when_quiet(self, link: _Link) -> None:
        """Send a due seed once every message already here is handled (just after a resume,
        once the line has also been quiet for a moment: the replay may not be over)."""
        if not (self._seed_due or self._replaying) or link.has_more():
            return
        if trio.current_time() - self._resumed_at < CATCH_UP_WINDOW:
            with trio.move_on_after(CATCH_UP_QUIET):
                while not link.has_more():
                    data = await link.stream.receive_some(65536)
                    if not data:
                        break
                    link.conn.receive_data(data)
            if link.has_more():
                return
        if self._replaying:
            self._caught_up()
        await self._send_seed_if_due()

    def _caught_up(self, *, vote_over: bool = False) -> None:
        """The replay of a seat taken back from disk is over: show where the match stands
        (``vote_over``: its end, the vote on playing again over without a rematch)."""
        self._replaying = False
        assert self.mirror is not None
        view = self.mirror.view
        done = self.rounds_verified
        checked = f"; {done} round{'' if done == 1 else 's'} checked" if done else ""
        where = f"round {view.round_number}" if view.round_number else "waiting for the deal"
        self._emit(
            Message(
                seat=None,
                text=f"Back in your seat at table {self.table_id} ({self.address}), "
                f"{where}{checked}.",
                local=True,
            )
        )
        if self._void_news is not None:
            self._emit(self._void_news)  # the round there is void: not a board to play on
        elif view.round_number:
            self._emit(RoundStarted(view=view))
        if view.winner is not None:
            for said in self._end_lines:  # hidden in the replay, as the match's end was
                self._emit(said)
            self._emit(
                MatchOver(
                    winner=view.winner,
                    match_scores=view.scores_now,  # the last round counted (3.9 snapshot)
                    rounds=view.round_number - self._voids,
                    voids=self._voids,
                    vote_over=vote_over,
                )
            )

    def _caught_up_by_snapshot(self, msg: m.Snapshot) -> None:
        """A snapshot instead of the events: the board and who sits where, but not the round's
        fair-deal record."""
        assert self.mirror is not None
        if self.witness is not None and msg.seq > self.mirror.seq:
            # Caught up by snapshot: the events skipped (commitments, seeds, cards)
            # were never seen, so checking resumes with the next round.
            self.witness.resynced()
            self._emit(
                Message(
                    seat=None,
                    text=CAUGHT_UP_BY_SNAPSHOT,
                    local=True,
                )
            )
        self.mirror.apply(msg)
        self._from_snapshot(msg)
        self._void_news = None
        self._take_seats(msg.seats)
        self._seq_changed.set()
        self._seq_changed = trio.Event()
        self._kept.save_record()
        self._emit(ViewChanged(view=self.mirror.view))

    def _from_snapshot(self, msg: m.Snapshot) -> None:
        """What a snapshot says beside the view: the voids of the match (a host that does not
        say them leaves those counted here) and the computer's plays for people this round."""
        self._voids = max(self._voids, msg.voids)
        self.computer_plays = set(msg.computer_plays)
        self.play_makers = {}
        view = None if self.mirror is None else self.mirror.view
        if view is not None and view.sitting_out:
            # A round this seat sits out: none of its plays at this seat were its person's.
            mine = (i for i, record in enumerate(view.plays) if record.seat == view.seat)
            self.computer_plays.update(mine)

    def _await_receipt(self, round_id: bytes) -> None:
        self._receipt_due = trio.current_time() + RECEIPT_WAIT
        self._receipt_round = round_id

    def _receipt_overdue(self) -> None:
        """The seed went out RECEIPT_WAIT ago and neither its receipt nor the round's seeds
        came back: say so once (a host that later leaves the seed out cannot claim it never
        arrived, and a host that stalls is named)."""
        self._receipt_due = math.inf
        w = self.witness
        if w is None or w.current is None or w.current.round_id != self._receipt_round:
            return  # that round is over: its receipt (or the lack of one) was judged with it
        if w.current.receipt is not None or w.current.seeds is not None:
            return  # the receipt came, or the seeds are out and the witness judged them
        self._emit(
            Message(
                seat=None,
                text=f"You revealed your seed for round {w.current.round_no} "
                f"{RECEIPT_WAIT:g} s ago and the host has not signed a receipt for it; "
                "if your seed is left out of this round, the host is to blame",
                local=True,
            )
        )

    def _answer(self, msg: m.Ack | m.Reject) -> None:
        pending = self._unacked.pop(msg.move_id, None)
        if pending is None:
            return
        if msg.move_id in self._awaited:
            self._answers[msg.move_id] = msg
        elif isinstance(msg, m.Reject):
            # Typed in an earlier client, kept with the seat and sent again on taking it
            # back: nobody waits for its answer here, so say it was not played.
            play = Play.from_code(play_code(pending[0].card, pending[0].captured))
            refused = refused_play(msg, play.text(), resent=True)
            self.notice(str(refused))  # shown even while the match is replayed to this client
            self._resent.discard(msg.move_id)
        pending[1].set()
        self._kept.save_record()

    async def _table_event(self, e: m.Message) -> bool:
        """Take one numbered event; True when the match is over."""
        assert self.mirror is not None and self.witness is not None and self._link is not None
        if e.seq <= self.mirror.seq:  # type: ignore[attr-defined]
            return False  # already seen (a replay overlapping what we had)
        # Every check comes before the event is shown: a card that fails never reaches the
        # screen, and nothing ("Your turn.") follows a failed check.
        if isinstance(e, m.RoundCommit) and not isinstance(self.witness, BlindWitness):
            self._words.say_the_host_sees_every_hand()
        if isinstance(e, m.BlindRound) and not isinstance(self.witness, BlindWitness):
            self.witness = self._blind_witness(self.witness.mid_match)
            self._emit(
                Message(
                    seat=None,
                    text="A blind table: your cards are opened only here, with your own key; "
                    "not even the host sees them before you play them.",
                    local=True,
                )
            )
        party = getattr(self.witness.current, "party", None)  # (before the reveal closes it)
        try:
            if isinstance(self.witness, BlindWitness):
                # At a blind table the seat takes part in every round (check_deals or not):
                # a blind_deal opens its cards, shown as the deal they are.
                verdict, opened = self.witness.observe(e)
                e = opened or e
            else:
                verdict = self.witness.observe(e) if self.check_deals else None
        except FairnessError as exc:
            await self._deal_failed(exc, e)
        for notice in self.witness.take_notices():
            self._emit(Message(seat=None, text=notice, local=True))
        if isinstance(self.witness, BlindWitness):
            for out in self.witness.take_outgoing():
                await self._send_quietly(out)
        view = self.mirror.apply(e)
        if not isinstance(e, m.SeatStatus):  # followed once its name is taken, below
            self._follow_holders(e)
        self._seq_changed.set()
        self._seq_changed = trio.Event()
        if verdict is not None:
            self.rounds_verified += 1
            self._emit(
                Message(
                    seat=None, text=f"Deal check: {self._words.named(verdict.note)}", local=True
                )
            )
            self._words.say_what_the_check_means(party)
            self._transcripts.save_transcript()
        if isinstance(e, m.RoundCommit | m.BlindRound):
            self._away_names.clear()  # a new round: whoever holds a seat now plays it
            self.computer_plays.clear()
            self.play_makers.clear()
            self._void_news = None
        if isinstance(e, m.BlindRound) and self._sat_out_while_here(e):
            self._emit(Message(seat=None, text=SAT_OUT_SILENT, local=True))
            self._come_back_due = True
        if isinstance(e, m.Played) and e.seat < len(self._names):
            self.play_makers[len(view.plays) - 1] = self._names[e.seat]
        if isinstance(e, m.Played) and self._played_by_computer(e.seat, view):
            self.computer_plays.add(len(view.plays) - 1)
            if self._holders is not None:  # for the names beside the transcript, for verify
                self._holders.computer_played(e.seat)
        if isinstance(e, m.RoundVoid):
            self._voids += 1
        if isinstance(e, m.RoundCommit) and not self.check_deals:
            self._seed = secrets.token_bytes(32)
            commit = seat_commitment(e.round_id, self.seat, self._seed)
            await self._link.send(m.SeedCommit(round_id=e.round_id, commit=commit))
        elif isinstance(e, m.SeedCommits) and not self.check_deals and self._seed is not None:
            if e.commits[self.seat] is None:
                return False
            await self._link.send(m.SeedReveal(round_id=e.round_id, seed=self._seed))
            self._await_receipt(e.round_id)
        elif isinstance(e, m.RoundCommit):
            # A seed chosen for this round before (by this client or one that died) is the
            # one to use: the host may already hold its commitment.
            self._seed = self._kept.kept_seed(e.round_id)
            if self._seed is not None and self.witness.current is not None:
                self.witness.my_commitment(self._seed)
            self._seed_due = True
        elif isinstance(e, m.SeedCommits):
            self._seed_due = True
        elif isinstance(e, m.Deal):
            if self.mirror.started_round:
                self._emit(RoundStarted(view=view))
            else:
                self._emit(ViewChanged(view=view))
        elif isinstance(e, m.BlindDeal):  # not opened here: the seat sits the round out
            self._emit(ViewChanged(view=view))
        elif isinstance(e, m.Played):
            self._emit(ViewChanged(view=view, record=view.plays[-1]))
        elif isinstance(e, m.RoundVoid):
            if e.reason != VOID_KINGS:
                self._void_news = Message(seat=None, text=self._words.void_line(e), local=True)
            else:  # kings (any other void is a blind table's)
                self._void_news = VoidDeal(view=view)
            self._emit(self._void_news)
        elif isinstance(e, m.BlindReveals) and isinstance(self.witness, BlindWitness):
            self._words.gone_at_reveal(e)
        elif isinstance(e, m.RoundEnd):
            assert view.round_score is not None
            self._emit(RoundOver(view=view, score=view.round_score, match_scores=tuple(e.scores)))
        elif isinstance(e, m.MatchEnd):
            saved = self._transcripts.save_transcript()  # now with the match result
            # The match is over, but the seat stays kept on disk while the rematch vote is
            # open (protocol.md 3.11): a client that stops now can be run again to answer.
            # The vote's end forgets it (declined, or the table closed); a rematch keeps it
            # again, for the new match.
            self._finished = self._kept.record
            self._match_ended = True
            if not self.offer_rematch:
                self._kept.forget_record()
            rounds = view.round_number - self._voids  # played out; the voids are said apart
            if saved is not None:  # told first, so the match's result and the rematch question
                where = shown_path(saved)  # come last, just above the prompt
                # The command on a line of its own, whole, to copy (render.wrap_line).
                lines = [f"Transcript saved: {where}", CHECK_IT, f"{VERIFY}{where}"]
            elif self.witness.mid_match:
                lines = list(self._transcripts.no_transcript_lines())
            else:
                lines = []
            self._end_lines = [Message(seat=None, text=text, local=True) for text in lines]
            for said in self._end_lines:
                self._emit(said)
            self._emit(
                MatchOver(
                    winner=e.winner or 0,
                    match_scores=tuple(e.scores),
                    rounds=rounds,
                    voids=self._voids,
                )
            )
            if not self.offer_rematch:
                await self._send_quietly(m.Rematch(agree=False))  # say so: nobody waits for us
                return True
        elif isinstance(e, m.RematchStatus):
            return self._rematch_status(e)
        elif isinstance(e, m.Chat):
            if e.seat is None:
                self._host_said = e.text
            self._emit(Message(seat=e.seat, text=e.text))
        elif isinstance(e, m.SeatStatus):
            self._words.seat_status(e)
            self._follow_holders(e)
        return False

    def _follow_holders(self, e: m.Message) -> None:
        """Follow who holds each seat through event ``e``, round by round."""
        h = self._holders
        if h is None:
            return
        if isinstance(e, m.RoundCommit | m.BlindRound):
            h.round_opened(e.round_no, [self._holder(s) for s in range(h.players)])
        elif isinstance(e, m.RoundVoid | m.RoundEnd):
            h.round_closed()
        elif isinstance(e, m.MatchEnd):
            h.match_over()
        elif isinstance(e, m.SeatStatus) and e.seat < h.players:
            h.seated(e.seat, self._holder(e.seat))

    def _holder(self, seat: int) -> Holder:
        """Who holds ``seat`` now: its name, and whether a person's."""
        person = seat < len(self._seats) and self._seats[seat].kind == "human"
        return self._names[seat], person

    def _sat_out_while_here(self, e: m.BlindRound) -> bool:
        """Whether this seat sits the blind round ``e`` out although its person neither went
        away nor stepped away: the host counted them away for a deadline their client missed
        while connected (9.7), and takes them back only once the seat is resumed. A seat away
        when the round began is not: its resume since then (this replay) already counts."""
        me = self.seat
        if me in e.people or self._replaying or self._stop or me >= len(self._seats):
            return False
        here = self._seats[me]
        return (
            here.kind == "human"
            and here.connected
            and not self._stand_in(me)
            and me not in self._stepped_away
        )

    def _played_by_computer(self, seat: int, view: SeatView) -> bool:
        """Whether the play just made at ``seat``, a person's, was a computer's for them: a
        computer stands in (away past the grace period, or stepped away), or the person sits
        this blind round out (a round that began without them, 9.7)."""
        if seat >= len(self._seats) or self._seats[seat].kind != "human":
            return False  # a computer player's own seat, under its own name
        if self._stand_in(seat):
            return True
        if seat == self._seat:
            return view.sitting_out
        w = self.witness
        return isinstance(w, BlindWitness) and w.current is not None and seat not in w.people

    def _rematch_status(self, e: m.RematchStatus) -> bool:
        """Take the state of a rematch vote; True when there will be none (the session ends)."""
        assert self.rules is not None and self.host_key is not None
        if e.state == "declined":
            if self._replaying:
                # A seat taken back after the vote: the match's end first (its result, the
                # transcript saved), then why there is no rematch; not a bare "closed".
                self._caught_up(vote_over=True)
            text = self._words.no_rematch_line(e)
            self._emit(Message(seat=None, text=text, table=True))
            self._emit(RematchClosed())
            self._kept.forget_record()  # nothing left to take back
            return True
        if e.state == "agreed":
            self._match_ended = False
            self._end_lines = []
            self._words.new_match()
            self.match_no = e.match_no + 1
            self._voids = 0
            assert self.table_id is not None
            start = opening_snapshot(self.rules, seat=self.seat, seq=e.seq, table_id=self.table_id)
            self._start, self._verified_before = start, self.rounds_verified
            self.mirror = SeatMirror(start)
            self.witness = DealWitness(self.rules, self.host_key, self.seat)
            self._holders = SeatHolders(self.rules.players)
            # The seat is kept on disk again, for the new match: a client taking it back
            # starts from this event (not the table's first: the host would replay the match
            # just played, whose end forgets the seat and whose rematch empties its seeds).
            kept = self._kept.record if self._kept.record is not None else self._finished
            if kept is not None:
                self._kept.record = replace(
                    kept,
                    seeds={},
                    mid_match=False,
                    match_no=self.match_no,
                    match_seq=e.seq,
                    seats=seats_kept(self._seats),
                    start="",
                )
                self._kept.save_record()
            text = "everyone agreed: a new match begins"
            self._emit(Message(seat=None, text=text, table=True))
            self._emit(MatchStarted(match_scores=self.mirror.view.scores))
            return False
        self._words.rematch_waiting(e)
        return False

    def _forfeit(self) -> None:
        """This seat was forfeit to a computer player (protocol.md 5.4): its token is dead and
        the host's ``left`` follows, which ends the session."""
        self._kept.forget_record()
        self.end_note = FORFEIT
        self._emit(Message(seat=None, text=FORFEIT, local=True))

    def _take_seats(self, seats: tuple[m.SeatInfo, ...]) -> None:
        """Who holds each seat, from a snapshot."""
        if self.rules is None or len(seats) != self.rules.players:
            if self.rules is not None and not self._seats:
                self._seats = [
                    m.SeatInfo(kind="open", name=None, connected=False)
                    for _ in range(self.rules.players)
                ]
            return
        self._seats = list(seats)
        for seat, info in enumerate(seats):
            if info.name is not None:
                self._names[seat] = clean_name(info.name) or f"seat {seat}"

    def _table_closed(self) -> None:
        """The host sent ``left`` unasked: the table closed. Its seat is gone for good, so it is
        not kept on disk; a match that had not ended stopped (raised: the command says so
        and ends with status 1), and one that had ended closes after a rematch vote nobody
        answered (protocol.md 3.11: the table simply closes)."""
        self._kept.forget_record()
        if self.end_note is not None:  # forfeit: said already
            return
        if self._match_ended:
            if self.offer_rematch:
                self._emit(
                    Message(
                        seat=None,
                        text="no rematch (nobody answered in time): the table is closing",
                        table=True,
                    )
                )
                self._emit(RematchClosed())
            return
        why = f" ({self._host_said.rstrip('.')})" if self._host_said else ""
        raise TableClosedError(
            f"the table closed before the match ended{why}; no seat is kept for it"
        )

    async def _deal_failed(self, exc: FairnessError, event: m.Message | None = None) -> None:
        """Stop at once (on ``event``): keep the evidence, tell the host why we leave, end the
        session."""
        assert self.witness is not None
        round_no = self.witness.round_no
        check = type(exc).__name__
        self.verdict_failures.append(f"{check}: {exc}")
        named = exc
        if isinstance(self.witness, BlindWitness):
            named = await self._blind_stop(exc, round_no, event)
        evidence = self.witness.evidence(exc)
        unsaved = ""
        try:
            path = self._transcripts.save_file(evidence.encode(), "-FAILED")
        except OSError as err:
            path = None
            unsaved = why_not_written(err, self._transcripts.folder())
        culprit = self._blind_culprit(named) or self._blind_culprit(exc)
        person = culprit is not None and not culprit.startswith("the host")
        lines = [
            f"DEAL CHECK FAILED in round {round_no}: {check}: {exc}",
            # A person's part that failed is theirs: the host is not blamed for it.
            "The game stops here: this round's deal cannot be trusted."
            if person
            else "The game stops here: this host's deal cannot be trusted.",
        ]
        if named is not exc:
            lines.insert(1, f"The round's reveal: {type(named).__name__}: {named}")
        if culprit is not None:
            lines.insert(1, f"At fault: {culprit}.")
        # The check's own words are the evidence; this is what they mean to a player (a
        # party at fault by its seat: party p is the round's people[p - 1]).
        people = self.witness.people if isinstance(self.witness, BlindWitness) else ()
        # The reveal explains a failed check best when it names a party; when it names none
        # (the host's reveal signed another record than this seat's), the check that did.
        named_party = getattr(named, "party", None)
        meant = exc if named_party is None and getattr(exc, "party", None) is not None else named
        lines.insert(1, f"What this means: {what_failed(meant, people)}.")
        if path is not None:
            lines.append(f"Evidence saved to {path} (check it with: scopa-net verify {path})")
        elif unsaved:
            lines.append(f"Could not save the evidence: {unsaved}.")
        self._stop = True
        if self._link is not None:
            bye = m.Bye(
                reason=ErrorCode.DEAL_FAILED.value,
                message=f"round {round_no}: {check}"[: m.TEXT_LEN],
            )
            with suppress(*LINK_ERRORS), trio.move_on_after(2):
                await self._link.send(bye)
        self.deal_failure = DealCheckFailedError("\n".join(lines), path)
        raise self.deal_failure

    async def _blind_stop(
        self, exc: FairnessError, round_no: int, event: m.Message | None
    ) -> FairnessError:
        """Before a blind seat leaves (9.6): send its seed for the round under way, then read
        that round's void and reveal (at most :data:`REVEAL_WAIT` seconds) for the party at
        fault. Returns what names it: the reveal's finding, or ``exc`` itself."""
        w = self.witness
        assert isinstance(w, BlindWitness)
        out = w.stop(event)
        link = self._link
        if link is None:
            return exc
        self._emit(
            Message(
                seat=None,
                text=f"A deal check failed in round {round_no}: {type(exc).__name__}: {exc}. "
                "Your seed for the round goes to the host, so that the round's reveal names "
                f"the party at fault: waiting for it (at most {REVEAL_WAIT:g} s).",
                local=True,
            )
        )
        last = 0 if self.mirror is None else self.mirror.seq
        with suppress(*LINK_ERRORS), trio.move_on_after(REVEAL_WAIT):
            for msg in out:
                await link.send(msg)
            while w.awaits_reveal:
                msg = await link.receive()
                if isinstance(msg, m.Ping):
                    await link.send(m.Pong(nonce=msg.nonce))
                elif msg.SEQUENCED and msg.seq > last:  # type: ignore[attr-defined]
                    last = msg.seq  # type: ignore[attr-defined]
                    w.observe_stopped(msg)
        return w.named or exc

    def _blind_witness(self, mid_match: bool) -> BlindWitness:
        assert self.rules is not None and self.host_key is not None
        w = BlindWitness(
            self.rules,
            self.host_key,
            self.seat,
            new_seed=lambda: secrets.token_bytes(32),
            mid_match=mid_match,
            seed_for=self._kept.kept_seed,
        )
        w.on_seed = self._kept.keep_seed  # on disk before the key leaves: a new client goes on
        return w

    def _blind_culprit(self, exc: FairnessError) -> str | None:
        """Who a failed blind check names: the host, or a person's seat."""
        w = self.witness
        party = getattr(exc, "party", None)
        if not isinstance(w, BlindWitness) or party is None:
            return None
        if party == 0:
            return "the host (party 0)"
        people = w.people
        if not 0 < party <= len(people):
            return f"party {party}"
        seat = people[party - 1]
        return f"{self._names[seat]} (seat {seat}, party {party})"

    @property
    def unfinished_transcript(self) -> Path | None:
        """The transcript saved so far of the match in play, if a round of it was saved (a
        match over has told its own file)."""
        if (
            self._match_ended
            or self._transcripts.saved is None
            or self._transcripts.saved[0] != self.match_no
        ):
            return None
        return self._transcripts.saved[1]

    @property
    def transcripts_folder(self) -> Path:
        """Where this seat's transcripts are saved (the help names it)."""
        return self._transcripts.folder()

    def _transcript_path(self, folder: Path, data: bytes, suffix: str) -> Path:
        """Where this match's transcript goes (:func:`~scopa_net.client.transcript_files.
        transcript_path`): named by this seat's host, table, seat and match."""
        assert self.host_key is not None
        return transcript_path(
            folder,
            data,
            suffix,
            host_key=self.host_key,
            table_id=self.table_id,
            seat=self._seat,
            match_no=self.match_no,
        )

    def _not_saved(self, what: str, exc: OSError, place: Path, then: str) -> None:
        """Tell the person, once for each thing (``what``: "Could not save your seat"), that
        it could not be saved at ``place``, why, and what ``then`` follows; the game goes on."""
        if what in self._unsaved:
            return
        self._unsaved.add(what)
        text = f"{what}: {why_not_written(exc, place)}. {then}"
        self._emit(Message(seat=None, text=text, local=True))

    # --- helpers ------------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        if self._replaying and _hidden_in_replay(event):
            return
        try:
            self._send_events.send_nowait(event)
        except trio.WouldBlock:
            log.warning("client event queue full; dropping %s", type(event).__name__)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass

    def _set_state(self, state: ConnectionState, detail: str = "") -> None:
        if state is not self._state:
            self._state = state
            self._emit(ConnectionChanged(state=state, detail=detail))
        if state is ConnectionState.CONNECTED:
            self.connected.set()

    async def _send_quietly(self, msg: m.Message) -> None:
        """Send if connected; a lost connection is the reconnect loop's business."""
        if self._link is None:
            return
        with suppress(OSError, trio.BrokenResourceError, trio.ClosedResourceError, ProtocolError):
            await self._link.send(msg)


BLIND_SENDS = ("blind_key", "blind_shuffle", "blind_shares", "blind_reveal")
"""What a seat sends at a blind table; a repeat after a reconnection is refused quietly."""


CAUGHT_UP_BY_SNAPSHOT = (
    "You were away too long for the host to send every play you missed, so it sent the table "
    "as it stands: the deal of a round under way cannot be checked here; cards are checked again "
    "from the next round, and no transcript is saved for this match."
)
"""What a seat caught up by a snapshot (3.4 of protocol.md) tells its person."""

FORFEIT = (
    "Your seat is forfeit: three of the seeds this client revealed did not match the "
    "commitments it sent, so a computer player plays the seat for the rest of the match. You "
    "are no longer at this table."
)
"""What a seat forfeit to a computer player (5.4 of protocol.md) tells its person."""


def _hidden_in_replay(event: Event) -> bool:
    """What a client taking its seat back does not show again while the match is replayed
    to it (alarms, what goes unchecked, and the end of the match are always shown)."""
    if isinstance(event, Message):
        return not event.text.startswith(
            ("DEAL CHECK FAILED", "This seat's seed", CAUGHT_UP_BY_SNAPSHOT)
        )
    return isinstance(event, ViewChanged | RoundStarted | RoundOver | VoidDeal | MatchOver)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 90:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds % 60 else f"{seconds // 60} min"


@asynccontextmanager
async def open_network_session(
    host: str, port: int, choice: TableChoice, **options: object
) -> AsyncIterator[NetworkSession]:
    """A running :class:`NetworkSession`, seated; leaving the block ends it."""
    session = NetworkSession(host, port, choice, **options)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        failed: list[BaseException] = []

        async def run() -> None:
            try:
                await session.run()
            except DealCheckFailedError:
                # The seat stopped on a failed check: end the block; raised below, unwrapped.
                session.connected.set()
                nursery.cancel_scope.cancel()
            except Exception as exc:
                if session.connected.is_set():
                    raise
                failed.append(exc)
                session.connected.set()

        nursery.start_soon(run)
        await session.connected.wait()
        if not failed and session.deal_failure is None:
            try:
                yield session
            except Exception:
                # Whatever the block was doing when the seat stopped (waiting for an answer
                # that will not come) matters less than why it stopped.
                if session.deal_failure is None:
                    raise
            finally:
                nursery.cancel_scope.cancel()
    if session.deal_failure is not None:
        raise session.deal_failure
    if failed:
        raise failed[0]
