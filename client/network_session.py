"""A seat at a table on a host, over TCP: the network implementation of the client's Session.

It speaks the protocol through a sans-IO :class:`~scopa_net.wire.PlayerConnection`, takes part
in every fair deal (commits and reveals a fresh seed), checks each card on arrival with a
:class:`~scopa_net.witness.DealWitness`, keeps the seat's view with a
:class:`~scopa_net.mirror.SeatMirror`, and saves the transcript after every round. When the
connection drops it says so, reconnects with backoff and resumes with its seat token, resending
any move the host had not acknowledged; the player loses nothing but time.

:class:`NetworkSession` reads the host's messages, takes each table event, sends the player's
moves, and hands each other job to a small class it holds, in a module of its own:

- :mod:`~scopa_net.client.sitting_down`: meeting the host (its key) and taking the seat;
- :mod:`~scopa_net.client.reconnection`: getting back to the host and the seat, catching up;
- :mod:`~scopa_net.client.seating`: who holds each seat, by what name;
- :mod:`~scopa_net.client.table_words`: the lines people read about the table's events;
- :mod:`~scopa_net.client.seat_seeds`: this seat's commitments and seeds (sent again when the host
  refuses them for now), and their receipts;
- :mod:`~scopa_net.client.end_of_match`: the match's end, the rematch vote, the table closing;
- :mod:`~scopa_net.client.deal_check_stop`: stopping the seat when a deal check fails;
- :mod:`~scopa_net.client.kept_seat`: the seat kept on disk;
- :mod:`~scopa_net.client.transcript_files`: the transcripts saved.

One connection is :mod:`~scopa_net.client.host_link`'s, the host keys pinned are
:mod:`~scopa_net.client.known_hosts`', and the errors :mod:`~scopa_net.client.session_errors`';
every name they had here is still importable from here.
"""

from __future__ import annotations

import itertools
import logging
import math
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path

import trio

from scopa_net.blind_witness import BlindWitness, ToldRound
from scopa_net.client.addresses import shown_address
from scopa_net.client.blind_not_now import BLIND_SENDS
from scopa_net.client.deal_check_stop import REVEAL_WAIT, DealCheckStop
from scopa_net.client.end_of_match import FORFEIT, EndOfMatch
from scopa_net.client.files import why_not_written
from scopa_net.client.held_screen import HeldScreen
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
from scopa_net.client.host_search import HostSearch
from scopa_net.client.kept_seat import KeptSeat
from scopa_net.client.known_hosts import OWN_HOSTS, KnownHosts, remember_own_host
from scopa_net.client.leave_again import LEAVE_PATIENCE, leave_goes_again, leave_held
from scopa_net.client.not_now import SAID_AFTER, NotNow, goes_again
from scopa_net.client.own_plays import (
    AFTER_IT_WAS_PUT_OFF,
    AS_THE_CONNECTION_CAME_BACK,
    OwnPlays,
    taken_otherwise,
)
from scopa_net.client.reconnection import (
    BACKOFF,
    CATCH_UP_QUIET,
    CATCH_UP_WINDOW,
    CAUGHT_UP_AT_ROUNDS_YOU_SAW,
    CAUGHT_UP_BEFORE_THE_FIRST_DEAL,
    CAUGHT_UP_BETWEEN_ROUNDS,
    CAUGHT_UP_BY_SNAPSHOT,
    MOVE_LOST_WITH_THE_HOST,
    RECONNECT_FOR,
    REPORT_AFTER,
    Reconnection,
)
from scopa_net.client.seat_seeds import SeatSeeds
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.client.seating import Seating
from scopa_net.client.seeds_not_now import SEED_SENDS
from scopa_net.client.session import (
    ConnectionChanged,
    ConnectionState,
    Event,
    MatchOver,
    Message,
    MoveQueued,
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
    HostUnprovenError,
    KeptSeatGoneError,
    MoveUnansweredError,
    OwnProtocolError,
    PlayRefusedError,
    RefusedError,
    ResumeDeferredError,
    SeatLostError,
    SessionError,
    TableClosedError,
    UnexpectedReplyError,
    VersionMismatchError,
    refused_play,
)
from scopa_net.client.sitting_down import SittingDown
from scopa_net.client.table_words import (
    BLIND_STAGE_SECONDS,
    SAT_OUT_SILENT,
    TableWords,
    computer_plays_for,
)
from scopa_net.client.transcript_files import (
    CHECK_IT,
    NO_TRANSCRIPT,
    VERIFY,
    TranscriptFiles,
    transcript_path,
)
from scopa_net.fair.commitments import seat_commitment
from scopa_net.fair.errors import ChangedPlayError, FairnessError
from scopa_net.fair.transcript import VOID_KINGS
from scopa_net.mirror import SeatMirror
from scopa_net.names import clean_name
from scopa_net.plays import Play, PlayRecord
from scopa_net.rules import RuleSet
from scopa_net.seat_holders import computer_words
from scopa_net.view import SeatView
from scopa_net.wire import messages as m
from scopa_net.wire.connection import State
from scopa_net.wire.errors import ErrorCode, ProtocolError
from scopa_net.witness import TOLD_BEFORE_A_FRESH_CLIENT, DealWitness

log = logging.getLogger("scopa_net.client")

__all__ = [  # with what the modules split from this one hold, importable from here as before
    "BACKOFF",
    "BLIND_STAGE_SECONDS",
    "CATCH_UP_QUIET",
    "CATCH_UP_WINDOW",
    "CAUGHT_UP_AT_ROUNDS_YOU_SAW",
    "CAUGHT_UP_BEFORE_THE_FIRST_DEAL",
    "CAUGHT_UP_BETWEEN_ROUNDS",
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
    "REPORT_AFTER",
    "REQUEST_TIMEOUT",
    "RESENT_REFUSALS",
    "REVEAL_WAIT",
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
    "HostUnprovenError",
    "KeptSeatGoneError",
    "KnownHosts",
    "MoveUnansweredError",
    "NetworkSession",
    "OwnProtocolError",
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
    "connect",
    "list_tables",
    "open_network_session",
    "refused_play",
    "remember_own_host",
]

# The session's timing, given to the classes it holds as it starts (TableWords, SeatSeeds).
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

REMATCH_SECONDS = 60
"""How long a table stays after its match for a rematch vote (protocol.md 3.11)."""
OWN_RECORDS_KEPT = 64
"""How many of this seat's latest plays :meth:`NetworkSession.submit` can find by the seq its
move's ``ack`` names (it looks at once, or as soon as that event is read)."""


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
        lan_search: HostSearch | None = None,
    ) -> None:
        """``check_deals=False`` skips checking cards and verifying rounds (a load generator
        with thousands of seats in one process); a person's client always checks.
        ``pin_host=False`` does not pin the host's key (a throwaway host in this process).
        ``offer_rematch``: after the match, stay for a vote on playing again (:meth:`rematch`;
        a person's game screen asks); otherwise decline at once and end the session.

        ``store`` keeps the seat on disk so that it outlives this process
        (:mod:`~scopa_net.client.seat_store`); ``resume_from`` takes back a seat kept there
        instead of sitting down anew.

        ``lan_search``: while the host cannot be reached where it was, look for its key on
        the LAN and take the seat back where it is announced
        (:mod:`~scopa_net.client.host_search`)."""
        self.host, self.port = host, port
        self.lan_search = lan_search
        self.connector = connector
        self.check_deals = check_deals
        self.pin_host = pin_host
        self.offer_rematch = offer_rematch
        self.choice = choice
        self.name = name
        self.data_dir = data_dir
        self.on_transcript = on_transcript
        self.store = store
        # The jobs the session hands out, each to a small class holding the state it owns.
        self._seating = Seating(self)
        """Who holds each seat, by what name."""
        self._words = TableWords(self, loss_said_after=LOSS_SAID_AFTER, loss_held_for=LOSS_HELD_FOR)
        """The lines people read about the table's events."""
        self._kept = KeptSeat(self, store, resume_from)
        """The seat on disk (``store``): its record, saved as it changes."""
        self._transcripts = TranscriptFiles(self)
        """The match's transcripts on disk."""
        self._sitting = SittingDown(self)
        """Meets the host and takes the seat."""
        self._reconnection = Reconnection(self)
        """Gets back to the host when the connection is lost, and takes the seat back."""
        self._deal_check = DealCheckStop(self)
        """Stops the seat when a fair-deal check fails."""
        self._seeds = SeatSeeds(self, receipt_wait=RECEIPT_WAIT)
        """Sends this seat's commitments and seeds, and waits for their receipts."""
        self._end = EndOfMatch(self)
        """Says the match's end, takes the rematch vote, and ends the table."""
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
        self._move_ids = itertools.count(secrets.randbelow(2**30) + 1)
        self._unacked: dict[int, tuple[m.Play, trio.Event]] = {}
        self._exempt_up_to = 0
        """Where the plays of this seat the host acknowledged are not known one by one (a seat
        record kept before they were, or a ``stale`` resume that did not say the host's newest
        event): every play of the seat up to this seq is taken as its person's, unchecked
        (:meth:`_mine`). Taken back from disk, the newest play an earlier client of the seat
        had acknowledged; after a ``stale`` resume, the host's newest event then (what it
        acknowledged after that, it lost: :meth:`Reconnection.rewind`; not said, where the
        seat's match began here, at most). Where they are known,
        :class:`~scopa_net.client.own_plays.OwnPlays` checks each against them instead."""
        self._awaited: set[int] = set()
        """Moves whose :meth:`submit` waits for the host's answer (not those taken back)."""
        self._resent: set[int] = set()
        """Moves sent again after the connection came back, not answered yet."""
        self._answers: dict[int, m.Ack | m.Reject] = {}
        self._own_records: dict[int, PlayRecord] = {}
        """This seat's plays read lately (the last :data:`OWN_RECORDS_KEPT`), by their event's
        seq: :meth:`submit` returns the one its move's ``ack`` names (never another play of
        the seat with the same card, a computer's that stood in for its person, say)."""
        self._lost_moves: set[int] = set()
        """Moves awaited that the host never saw and never will: chosen on events it lost
        (its journal put back, :meth:`Reconnection.drop_moves_the_host_lost`)."""
        self._own_plays = OwnPlays()
        """This seat's moves as the host records them (protocol.md 3.5), and the one owner of
        the plays it acknowledged (the seat's record is written from it)."""
        if resume_from is not None:  # (which ones: each play of them replayed is checked)
            self._own_plays.known(resume_from.acked, resume_from.last_played)
        self._held_screen = HeldScreen()
        """The screen's events from a play of this seat held for judgement on (3.5)."""
        self._not_now: NotNow[int] = NotNow()
        """Moves the host refused for now (its disk, a rate limit): they go again."""
        self._changed_play: ChangedPlayError | None = None
        """An ``ack`` that named another play than the move it answered: the seat stops."""
        self._seed: bytes | None = None
        """This seat's seed for the round in play (an ordinary table's, protocol.md 5)."""
        self._stop = False
        self.connected = trio.Event()
        self._seq_changed = trio.Event()
        self.verdict_failures: list[str] = []
        self.deal_failure: DealCheckFailedError | None = None
        """Set when a fair-deal check failed and the seat stopped."""
        self.rounds_verified = 0
        self.void_rounds_verified = 0
        """Of :attr:`rounds_verified`, the void rounds (not played out): said apart."""
        self._host_stopped = False  # the last connection ended with the host's shutting_down
        self.host_restarted = False
        """This seat's latest way back followed the host's ``bye shutting_down``: the host
        was restarted, and what its catch-up says of the other seats (every one lost) is its
        restart's doing."""
        self.left_for_good = False
        """The player gave the seat up for good (``leave``), rather than stepping away."""
        self._seed_due = False
        """The round in play may wait for this seat's commitment or seed (sent once every
        message that arrived is handled: :meth:`SeatSeeds.send_seed_if_due`)."""
        self._resumed_at = -math.inf
        self._come_back_due = False
        """This seat sits a blind round out for a deadline its client missed while connected:
        resume the seat, so that the host counts its person again from the next round."""
        self._left = trio.Event()
        self._leave_answered = trio.Event()
        """Set when the host answers this seat's latest ``leave``: ``left``, or a refusal."""
        self._leave_refused: str | None = None
        """The code of the host's refusal "not now" of the latest ``leave`` (3.1), if any."""
        self.leave_held = ""
        """The line to say once the host refused the person's leave to the end: the seat is
        still held there ("" when it was not refused)."""
        self._queued: set[int] = set()
        """Moves typed while there was no connection, not sent yet (the toolbar says so)."""
        self._end_lines: list[Message] = []
        """What the match's end said before its result (the transcript saved, and how to
        check it): said again where a replay that held the end is over
        (:meth:`Reconnection.caught_up`)."""
        self._match_ended = False
        """The match played now has ended (until a rematch begins)."""
        self._host_said: str | None = None
        """The host's last notice at the table (why it closed, when it closes early)."""
        self._replaying = False
        """The host replays the seat's events (a seat taken back from disk, or after a
        ``stale`` resume, :meth:`Reconnection.rewind`): show only where they end."""
        self._exempt_replay = False
        """The replay under way may hold plays of this seat that an earlier client had
        answered (a seat taken back from disk, or after a ``stale`` resume that did not say the
        host's newest event): where those plays are not known one by one, every play of the
        seat in it is taken as its person's, unchecked (:meth:`_mine`, protocol.md 3.5). After
        a ``stale`` whose host said its newest event, the plays up to it are below
        :attr:`_exempt_up_to`, and one after it is checked even in the replay."""
        self._catch_up_due = False
        """Resumed: :class:`CaughtUp` is due once what the host sends after it is read."""
        self.end_note: str | None = None
        """The last line for the player when the session ends on its own (host gone...)."""
        self._start: m.Snapshot | None = None
        """Where this seat's match began for this client (the snapshot it sat down with, or
        the agreed rematch's opening): a host that lost events goes on from there
        (:meth:`Reconnection.rewind`)."""
        self._start_mid_match = False
        """Whether the match was under way at :attr:`_start` (the seat taken mid-match): the
        deal checks rebuilt from there carry that snapshot on (:meth:`Reconnection.rewind`)."""
        self._verified_before = 0
        """The rounds checked before that start (in matches before it)."""
        self._void_verified_before = 0
        """Of :attr:`_verified_before`, the void rounds."""
        self._where_to_join: tuple[str, ...] = ()
        self._join_command: str | None = None
        """The command friends type to join the table this seat opened (``join --create``)."""
        self.match_no = 1
        """Which match at this table the seat plays (one more after each agreed rematch)."""
        self.sat_out_said = 0
        """The blind round this seat was told it sits out, for a deadline its client missed
        (``SAT_OUT_SILENT``, which says the computer plays it and when the person plays again)."""
        self._rematch_answered: int | None = None
        """The match (its number) whose "play again?" this client has answered."""
        self.computer_plays: set[int] = set()
        """The plays of the round in play (indexes in its view's ``plays``) that a computer
        made for a person: away with a computer standing in, or sitting a blind round out."""
        self.play_makers: dict[int, str] = {}
        """Who made each play of the round in play (index in its view's ``plays`` -> the name
        of the seat's holder then), where it is not the seat's name now: a seat may change
        hands during the round. A snapshot's plays are named by its ``makers`` (a host that
        does not send them leaves the seat's name now standing for them)."""
        self._voids = 0
        """Rounds of this match seen void (``round_void``), or skipped (see
        :meth:`_count_skipped`): the host numbers them as rounds, but they were not played
        out."""
        self._rounds_counted = 0
        """The rounds of this match up to which ``_voids`` counts every void one."""
        self._round_opened = 0
        """The number of the last ``blind_round`` read since the last snapshot (or the
        snapshot's round): a void of it is seen here, so it is no skipped number."""
        self._sheet_shown: tuple[int, int] | None = None
        """The round (match number, round number) whose score sheet this screen was shown last
        (a :class:`RoundOver` not hidden in a replay): a snapshot of that round over does not
        show it again (:meth:`say_round_over`)."""
        self._void_news: Event | None = None
        """How the round in play was voided (its void line, or the kings' void deal), while it
        is the last round dealt: a seat taken back says it rather than show that round."""
        self._last_void: Event | None = None
        """How the last round voided in this match was, kept once the next is dealt: a seat
        taken back in that redeal says why its round was dealt again (:meth:`caught_up`)."""
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
        return tuple(self._seating.names)

    @property
    def match_names(self) -> tuple[str, ...]:
        """Each seat as a match's end names it: everyone who held it (``Carla, then a
        computer`` for a seat its person left to the host's computer, as the host's log and
        ``history`` say), else its name now."""
        now = self._seating.names
        held = self._seating.holders
        over = held.match_names() if held is not None else []
        return tuple((over[s] if s < len(over) and over[s] else name) for s, name in enumerate(now))

    @property
    def computer_played(self) -> str:
        """Where a computer played for a person this match (``a computer played for Nina in
        round 2``, as `verify` and `history` say it; ``for you`` for this seat's person), or
        ""."""
        held = self._seating.holders
        if held is None:
            return ""
        names = self._seating.names
        you = names[self.seat] if self.seat < len(names) else ""
        rounds, people = held.computer_rounds(), held.computer_people()
        return computer_words(self.match_names, rounds, people, you=you)

    @property
    def where_to_join(self) -> tuple[str, ...]:
        """For the player who opened the table (``join --create``, ``play --lan``): how
        friends join; ``who`` shows it. The table opened with ``join --create`` is told of
        only while a seat is open for a friend (``play --lan`` sets its own lines)."""
        if self._join_command is None:
            return self._where_to_join
        if not any(info.kind == "open" for info in self._seating.seats):
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
        return self._seating.notes()

    @property
    def seat_kinds(self) -> tuple[str, ...]:
        """Each seat's kind now, by seat (protocol.md 3.3): ``human`` (a client plays it),
        ``bot`` (the host's computer player) or ``open``."""
        return tuple(info.kind for info in self._seating.seats)

    @property
    def going_voids_round(self) -> bool:
        """Leaving or stepping away now would void the round in play for everyone: a blind
        round this seat's person is a party of, not yet played out (protocol.md 9.7)."""
        return isinstance(self.witness, BlindWitness) and self.witness.needs_me

    @property
    def table_waits_for_me(self) -> bool:
        """Whether the table would wait for this seat's person if they stepped away: at a
        blind table a round is dealt by the people who play there (protocol.md 9.1), and no
        other person does now (every other seat a computer's, or a computer's for its person),
        so the host deals none and nothing is played until one comes back."""
        if not isinstance(self.witness, BlindWitness):
            return False
        seating = self._seating
        return not any(
            info.kind == "human" and not seating.stand_in(seat)
            for seat, info in enumerate(seating.seats)
            if seat != self._seat
        )

    @property
    def address(self) -> str:
        return shown_address(self.host, self.port)

    @property
    def players_awaited(self) -> int:
        """How many more players the match waits for before its first deal (0 when dealt,
        or not known)."""
        return self._seating.players_awaited()

    @property
    def awaited_away(self) -> tuple[int, str, float] | None:
        """The person lost at a blind table whom the round in play waits for: seat, name and
        when (``time.time()``) the round is void unless they are back (protocol.md 9.7)."""
        return self._words.awaited()

    @property
    def view(self) -> SeatView | None:
        if self.mirror is None or self.mirror.view.round_number == 0:
            return None
        return self.mirror.view

    @property
    def match_begun(self) -> bool:
        """Whether this table's match has begun (a round opened, perhaps with nothing dealt
        yet): until then the table waits for players."""
        return self.mirror is not None and self.mirror.match_begun

    @property
    def connection(self) -> ConnectionState:
        return self._state

    @property
    def events(self) -> trio.MemoryReceiveChannel[Event]:
        return self._events

    async def submit(self, play: Play) -> PlayRecord:
        assert self.mirror is not None
        if self._state is ConnectionState.CLOSED:
            # Ended (run() released every move then waiting): a screen that takes the events
            # late may still show this seat's turn. Held now, the move waited for ever.
            await trio.lowlevel.checkpoint()  # (a cancel of the caller's comes first, as ever)
            raise MoveUnansweredError(MOVE_AFTER_THE_END)
        # The same move on the same board, not answered yet and nobody waiting for it (its
        # typing ended before the answer, or an earlier client's, kept with the seat), is this
        # move: a second would be a second answer, two lines for one card typed, or "not
        # played" for a card the first one played.
        move_id = self._unawaited_move(play)
        if move_id is None:
            move_id = self._new_move(play)
        msg, done = self._unacked[move_id]
        self._awaited.add(move_id)
        try:  # (from here: a typing that ends while its move is sent leaves none "awaited")
            if self._link is None:
                self._emit(
                    Message(
                        seat=None,
                        text=f"queued: {play.text()} goes to the host as soon as the "
                        "connection is back",
                        local=True,
                    )
                )
                self._queued.add(move_id)
                self._emit(MoveQueued(queued=True))
            await self._send_quietly(msg)  # (again, if taken up: a repeat is acknowledged once)
            return await self._answer_to(move_id, done, play)
        finally:
            self._awaited.discard(move_id)

    def _unawaited_move(self, play: Play) -> int | None:
        """The unanswered move nobody waits for that is ``play`` chosen on the board this
        seat sees now (the same ``after``), if any."""
        assert self.mirror is not None
        alike = (self.mirror.seq, play.card.index, play.captured_mask)
        for move_id, (msg, _) in self._unacked.items():
            if (msg.after, msg.card, msg.captured) == alike and move_id not in self._awaited:
                return move_id
        return None

    def _new_move(self, play: Play) -> int:
        """Number ``play`` as a new move on the board this seat sees now, unanswered (kept
        with the seat on disk); its number."""
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
        self._unacked[move_id] = (msg, trio.Event())
        self._kept.save_record()
        return move_id

    async def _answer_to(self, move_id: int, done: trio.Event, play: Play) -> PlayRecord:
        """Wait for the host's answer to move ``move_id`` (``play``): the play as recorded,
        or the error that says why it was not played."""
        assert self.mirror is not None
        await done.wait()
        resent = move_id in self._resent
        self._resent.discard(move_id)
        answer = self._answers.pop(move_id, None)
        if move_id in self._lost_moves:
            self._lost_moves.discard(move_id)
            raise PlayRefusedError(play.text(), MOVE_LOST_WITH_THE_HOST, resent=True)
        if answer is None:
            # The session ended before the host answered: nothing says which play, if any,
            # was this move (a play of the same card at this seat in the events read may be
            # a computer's that stood in for its person while the move was on its way).
            raise MoveUnansweredError("the session ended before the host answered that move")
        if isinstance(answer, m.Reject):
            raise refused_play(answer, play.text(), resent=resent)
        # The ack can arrive before the event it acknowledges: wait for that event.
        while self.mirror.seq < answer.seq and self._state is not ConnectionState.CLOSED:
            await self._seq_changed.wait()
        record = self._own_records.get(answer.seq)  # (the event the ack named)
        return record if record is not None else PlayRecord(self.seat, play, False)

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
        even while a seat taken back from disk is being replayed, or a play is held."""
        self._show(Message(seat=None, text=text, local=True))

    async def rematch(self, agree: bool) -> None:
        """Answer, after the match, whether to play again with the same seats and rules."""
        self._rematch_answered = self.match_no
        self._end.answered(agree)
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

        Waits briefly for the host's ``left``; a ``leave`` the host refuses for now goes again
        (:mod:`~scopa_net.client.leave_again`). Stepping away keeps the seat on disk for
        ``scopa-net join`` to take back; leaving for good forgets it. Still refused at the
        end, the seat stays on disk as it was, and :attr:`leave_held` says so."""
        self._stop = True
        self.left_for_good = not away
        # The host's ``left`` ends the session, and the screen stops everything when it ends:
        # that must not cut this short before the seat on disk is dealt with (shielded, and
        # bounded in time).
        with trio.CancelScope(shield=True):
            refused = await self._send_leave(away)
        if refused is not None:
            self.left_for_good = False
            self.leave_held = leave_held(refused, self.resume_command, away)
            return
        if self._kept.record is not None:
            if away or self._link is None:
                self._kept.record = replace(self._kept.record, away=True)
                self._kept.save_record()
            else:
                self._kept.forget_record()

    async def _send_leave(self, away: bool) -> str | None:
        """Send ``leave`` until the host answers it other than "not now", each time waiting
        briefly for its answer; the code of its last refusal when it refused for
        :data:`LEAVE_PATIENCE` (the seat still the player's), else None."""
        pauses: NotNow[str] = NotNow()
        said = False
        while self._link is not None and self._state is ConnectionState.CONNECTED:
            self._leave_refused = None
            self._leave_answered = trio.Event()
            await self._send_quietly(m.Leave(away=away))
            with trio.move_on_after(REQUEST_TIMEOUT / 3):
                await self._leave_answered.wait()
            code = self._leave_refused
            if code is None:
                return None  # left (or no answer: as a connection lost)
            now = trio.current_time()
            pauses.refused("leave", now)
            if pauses.next_due - now + pauses.waited("leave", now) > LEAVE_PATIENCE:
                return code
            if not said and pauses.waited("leave", now) >= SAID_AFTER:
                said = True
                self._emit(Message(seat=None, text=leave_goes_again(code), local=True))
            await trio.sleep_until(pauses.next_due)
        return None

    # --- running ------------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, sit down, and keep the seat until the match ends or we are stopped."""
        self._kept.playing = True
        try:
            if self._kept.record is not None:
                await self._reconnection.take_back()
            else:
                await self._sitting.sit_down()
            await self._reconnection.serve_until_over()
        finally:
            self._kept.playing = False
            if self.store is not None and self._kept.record is not None:
                self.store.release(self._kept.record)  # the seat is kept, free to take back
            self._release_held()  # (never judged: its move went unanswered, 3.5)
            self._set_state(ConnectionState.CLOSED)
            for _, done in self._unacked.values():
                done.set()  # no answer will come now
            self._seq_changed.set()
            self._send_events.close()
            if self._link is not None:
                with trio.CancelScope(shield=True):
                    await self._say_goodbye()
                    await self._link.aclose()

    async def _say_goodbye(self) -> None:
        """The client closes (stopped, its window closed) with the seat still held: ``bye``
        (reason ``quit``) first, so that the host tells the others the client was closed, not
        that the connection was lost (protocol.md 3.3). Briefly: a host that takes no bytes
        gets none."""
        link = self._link
        if link is None or link.conn.state is not State.SEATED:
            return
        if self._stop and not self.leave_held:  # (a leave refused to the end holds the seat)
            return
        bye = m.Bye(reason=ErrorCode.QUIT.value, message="the client was closed")
        with trio.move_on_after(GOODBYE_WAIT), suppress(*LINK_ERRORS, ProtocolError):
            await link.send(bye)

    def seat_kept_hint(self) -> str:
        """How to come back to this seat once this client is gone ("" when none is kept)."""
        return self._reconnection.seat_kept_hint()

    @property
    def resume_command(self) -> str:
        """The command that takes this seat back once this client is gone."""
        return self.take_back_with or f"`scopa-net join {self.address}`"

    def _keep_token(self, token: bytes, epoch: int) -> None:
        """Keep the seat's new token on disk before it is used (a subclass may lose it, as a
        client killed between the host's answer and the write does)."""
        self._kept.keep_token(token, epoch)

    def _rematch_status(self, e: m.RematchStatus) -> bool:
        """Take the state of a rematch vote; True when there will be none (:class:`MatchEnd`)."""
        return self._end.rematch_status(e)

    def _new_seed(self) -> bytes:
        """A fresh secret seed for this seat's part in a round's deal."""
        return secrets.token_bytes(32)

    async def _pump(self) -> None:
        """Handle messages until the match is over (returns) or the connection fails."""
        assert self._link is not None
        link = self._link
        while True:
            if self._come_back_due:
                link = await self._reconnection.come_back(link)
            if self._reconnection.to_resend:
                await self._reconnection.resend_caught_up(link)
            await self._reconnection.resend_not_now(link)
            await self._reconnection.send_seed_when_quiet(link)
            due = min(self._seeds.receipt_due, self._words.losses_due)
            if link.conn.state is State.SEATED:  # (else nothing is sent: no wake-up for it)
                due = min(due, self._not_now.next_due, self._seeds.next_due)
            with trio.move_on_at(due) as waiting:
                msg = await link.receive()  # cancel-safe: bytes read stay in the codec
            if waiting.cancelled_caught:
                if trio.current_time() >= self._words.losses_due:
                    self._words.say_held_losses()
                if trio.current_time() >= self._seeds.receipt_due:
                    self._seeds.receipt_overdue()
                continue
            if isinstance(msg, m.Ping):
                await link.send(m.Pong(nonce=msg.nonce))
            elif isinstance(msg, m.Ack | m.Reject):
                self._answer(msg)
                if self._changed_play is not None:
                    await self._deal_check.deal_failed(self._changed_play)
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
                if await self._reconnection.caught_up_by_snapshot(msg):
                    return  # it showed the match over, and no rematch is offered
            elif isinstance(msg, m.Left):
                self._left.set()
                self._leave_answered.set()
                if not self._stop:
                    self._end.table_closed()
                return
            elif isinstance(msg, m.Error):
                if msg.ref == "leave" and msg.code in PASSING_REFUSALS:
                    # Refused for now: the connection is seated again, the seat still ours
                    # (protocol.md 3.1); :meth:`leave` sends it again.
                    log.info("host refused leave: %s", msg.message)
                    self._leave_refused = msg.code
                    self._leave_answered.set()
                elif msg.ref in SEED_SENDS:
                    # Refused for now, it goes again; else a seed sent again after a resume
                    # that the host already had, or one the round no longer waits for.
                    log.info("host refused %s: %s", msg.ref, msg.message)
                    self._seeds.refused(msg, trio.current_time())
                elif msg.ref in BLIND_SENDS:
                    # Refused for now, it goes again, the same (9.5); else one sent again
                    # after a resume that the host had, or one whose stage is over.
                    log.info("host refused %s: %s", msg.ref, msg.message)
                    self._seeds.blind_refused(msg, trio.current_time())
                elif msg.ref is None:
                    # Sent unasked (a disk refusing the journal's writes, protocol.md 3.6):
                    # the host's news, shown as its notices are, not a refusal of anything.
                    self._emit(Message(seat=None, text=msg.message))
                else:
                    text = f"the host refused: {msg.message}"
                    self._emit(Message(seat=None, text=text, local=True))
            elif msg.SEQUENCED and await self._table_event(msg):
                return

    def _from_snapshot(self, msg: m.Snapshot, *, sat_down: bool = False) -> None:
        """What a snapshot says beside the view: the voids of the match (a host that does not
        say them leaves those counted here) and the computer's plays for people this round
        (``sat_down``: the snapshot this seat sat down with, see :meth:`_before_me`)."""
        self._voids = max(self._voids, msg.voids)
        # Its voids count the rounds up to its own; one opened here after it and not seen
        # void (this seat was cut first) is counted when the next is opened, if skipped.
        self._rounds_counted = max(self._rounds_counted, msg.round_no)
        self._round_opened = msg.round_no
        self.computer_plays = set(msg.computer_plays)
        self.play_makers = {}
        view = None if self.mirror is None else self.mirror.view
        if view is not None and len(msg.makers) == len(view.plays):
            names = self._seating.names
            for i, (name, record) in enumerate(zip(msg.makers, view.plays, strict=True)):
                shown = clean_name(name) or f"seat {record.seat}"
                if record.seat < len(names) and shown != names[record.seat]:
                    self.play_makers[i] = shown
        if view is not None and view.sitting_out:
            # A round this seat sits out: none of its plays at this seat were its person's.
            mine = (i for i, record in enumerate(view.plays) if record.seat == view.seat)
            self.computer_plays.update(mine)
        if sat_down and view is not None:
            self._before_me(view)

    def _before_me(self, view: SeatView) -> None:
        """The plays made in this seat before its person sat down in a round under way: not
        theirs. Named as the snapshot's ``makers`` name them (the person who left it, or
        ``bot N``), as a seat that saw them reads them; where it does not say (an older
        host), a computer's for a person is said as a computer's, any other as the seat's
        before this person, never under their name."""
        for i, record in enumerate(view.plays):
            if record.seat != view.seat or i in self.play_makers:
                continue
            if i in self.computer_plays:
                self.play_makers[i] = "a computer"
                self.computer_plays.discard(i)
            else:
                self.play_makers[i] = f"seat {view.seat} (before you)"

    def _count_skipped(self, round_no: int) -> None:
        """A ``blind_round`` numbered ``round_no``: a number skipped before it, above the
        rounds counted, was a round void before its first deal that this seat never saw (a
        snapshot's ``voids`` leaves it out until a later round is dealt, protocol.md 3.9),
        counted void here as the host counts it."""
        skipped = round_no - 1 - max(self._rounds_counted, self._round_opened)
        if skipped > 0:
            self._voids += skipped
        self._rounds_counted = max(self._rounds_counted, round_no - 1)
        self._round_opened = round_no

    def _mine(self, e: m.Message) -> bool:
        """Whether a ``played`` for this seat is its person's to make (protocol.md 3.5): no
        computer plays for them as the events have it (a stand-in, a blind round sat out), and,
        where the plays an earlier client of the seat had answered are not known one by one (a
        record kept before they were), it is not one of them (:attr:`_exempt_up_to`), nor in a
        replay that may hold them (:attr:`_exempt_replay`). Where they are known,
        :class:`OwnPlays` takes each replayed as it was acknowledged for the person's."""
        if not isinstance(e, m.Played) or e.seat != self.seat:
            return False
        if self.mirror is None:
            return False
        exempt = self._exempt_replay or e.seq <= self._exempt_up_to
        if exempt and not self._own_plays.knows_earlier:
            return False  # (an earlier client's moves, perhaps: a replay in pieces)
        seats = self._seating.seats
        if self.seat >= len(seats) or seats[self.seat].kind != "human":
            return False
        return not self._seating.played_by_computer(self.seat, self.mirror.view)

    def _answer(self, msg: m.Ack | m.Reject) -> None:
        put_off = isinstance(msg, m.Reject) and msg.code in PASSING_REFUSALS
        if put_off and msg.move_id in self._unacked:
            # Given before the host looks at the move (protocol.md 3.5): no answer to it, even
            # to one it applied. It stays unanswered, judging no play held, and goes again.
            if self._not_now.refused(msg.move_id, trio.current_time()):
                sent = self._unacked[msg.move_id][0]
                play = Play.from_wire(sent.card, sent.captured)
                self.notice(goes_again(msg.code, play.text()))
            return
        again = self._not_now.went_again(msg.move_id)
        self._not_now.answered(msg.move_id)
        pending = self._unacked.pop(msg.move_id, None)
        if pending is None:
            return
        if isinstance(msg, m.Ack) and self.check_deals and self.mirror is not None:
            self._changed_play = self._own_plays.acknowledged(
                pending[0], msg, seat=self.seat, newest=self.mirror.seq
            )
        elif isinstance(msg, m.Ack):  # unchecked, but a client taking the seat back knows it
            self._own_plays.kept(msg.seq, pending[0])
        taken = isinstance(msg, m.Reject) and msg.code == ErrorCode.MOVE_ID_TAKEN.value
        if taken and (again or msg.move_id in self._resent) and self.check_deals:
            # Sent again exactly as before under its own id: the host applied it otherwise.
            resumed = msg.move_id in self._resent
            when = AS_THE_CONNECTION_CAME_BACK if resumed else AFTER_IT_WAS_PUT_OFF
            self._changed_play = taken_otherwise(pending[0], when)
        if not self._unacked and self.check_deals and self._changed_play is None:
            closing = isinstance(msg, m.Reject) and msg.code == ErrorCode.WRONG_PHASE.value
            self._changed_play = self._own_plays.all_answered(closing=closing)
        if self._changed_play is None and not self._own_plays.holding:
            self._release_held()  # every play held is judged the person's
        if msg.move_id in self._awaited:
            self._answers[msg.move_id] = msg
        elif isinstance(msg, m.Reject):
            # Typed in an earlier client, kept with the seat and sent again on taking it
            # back: nobody waits for its answer here, so say it was not played.
            play = Play.from_wire(pending[0].card, pending[0].captured)
            refused = refused_play(msg, play.text(), resent=True)
            if self._changed_play is None:  # (else the banner says what became of it)
                self.notice(str(refused))  # shown even while the match is replayed to this client
            self._resent.discard(msg.move_id)
        pending[1].set()
        self._kept.save_record()

    def _say_who_a_computer_plays_for(self) -> None:
        """As the match begins: the people away whom a computer plays for from now (told, while
        the table waited, that one would only if the match began before they were back)."""
        seating = self._seating
        for seat, info in enumerate(seating.seats):
            if seat != self._seat and info.kind == "human" and seating.stand_in(seat):
                text = computer_plays_for(seating.names[seat])
                self._emit(Message(seat=None, text=text, table=True))

    async def _table_event(self, e: m.Message) -> bool:
        """Take one numbered event; True when the match is over."""
        assert self.mirror is not None and self.witness is not None and self._link is not None
        if e.seq <= self.mirror.seq:  # type: ignore[attr-defined]
            return False  # already seen (a replay overlapping what we had)
        self._seeds.moved_on(e)  # a message refused for now waits no more past its stage
        # Every check comes before the event is shown: a card that fails never reaches the
        # screen, and nothing ("Your turn.") follows a failed check.
        if isinstance(e, m.RoundCommit) and not isinstance(self.witness, BlindWitness):
            self._words.say_the_host_sees_every_hand()
            self.witness.computer_seats = self._seating.computer_seats()
            self.witness.absent_seats = self._seating.absent_seats()
        if isinstance(e, m.BlindRound) and not isinstance(self.witness, BlindWitness):
            ordinary = self.witness
            self.witness = self._blind_witness(ordinary.mid_match)
            if ordinary.caught_up or ordinary.so_far is not None:
                # The match so far, as the snapshot told it (caught up, or sat down mid-match
                # with it) and the rounds since: checked on, and its transcript kept (9.8).
                self.witness.resynced(so_far=ordinary.so_far)
                self.witness.caught_up = ordinary.caught_up
            self._emit(
                Message(
                    seat=None,
                    text="A blind table: your cards are opened only here, with your own key; "
                    "not even the host sees them before you play them.",
                    local=True,
                )
            )
        if isinstance(e, m.BlindRound) and isinstance(self.witness, BlindWitness):
            self.witness.computer_seats = self._seating.computer_held()
        party = getattr(self.witness.current, "party", None)  # (before the reveal closes it)
        try:
            if isinstance(e, m.RematchStatus) and (
                self.check_deals or isinstance(self.witness, BlindWitness)
            ):
                self._end.check_rematch_after_end(e)  # a new match thrown in mid-match
            if isinstance(self.witness, BlindWitness):
                # At a blind table the seat takes part in every round (check_deals or not):
                # a blind_deal opens its cards, shown as the deal they are.
                verdict, opened = self.witness.observe(e)
                e = opened or e
            else:
                verdict = self.witness.observe(e) if self.check_deals else None
        except FairnessError as exc:
            await self._deal_check.deal_failed(exc, e)
        if isinstance(self.witness, BlindWitness) and isinstance(e, m.Deal | m.BlindDeal):
            dealt = self.witness.dealt_round()
            if dealt is not None:  # on disk: a client taking the seat back holds the host to it
                self._kept.keep_blind_dealt(*dealt)
        for notice in self.witness.take_notices():  # the witness knows seats, not names
            self._emit(Message(seat=None, text=self._words.named(notice), local=True))
        if self.check_deals:
            changed = self._own_plays.read(
                e, seat=self.seat, mine=self._mine(e), pending=bool(self._unacked)
            )
            if changed is not None:
                await self._deal_check.deal_failed(changed, e)
            if self._own_plays.holding:
                self._held_screen.hold()  # (this play, and what follows, until judged)
        if isinstance(self.witness, BlindWitness):
            for out in self.witness.take_outgoing():
                await self._seeds.send_blind(out)
        begun = self.match_begun
        view = self.mirror.apply(e)
        if not begun and self.match_begun:
            self._say_who_a_computer_plays_for()
        if not isinstance(e, m.SeatStatus):  # followed once its name is taken, below
            self._seating.follow_holders(e)
        self._seq_changed.set()
        self._seq_changed = trio.Event()
        if verdict is not None:
            self.rounds_verified += 1
            if self.witness.rounds and self.witness.rounds[-1].void is not None:
                self.void_rounds_verified += 1
            self._emit(
                Message(
                    seat=None, text=f"Deal check: {self._words.named(verdict.note)}", local=True
                )
            )
            self._words.say_what_the_check_means(party)
            self._transcripts.save_transcript()
        if isinstance(e, m.RoundCommit | m.BlindRound):
            self._seating.away_names.clear()  # a new round: whoever holds a seat now plays it
            self.computer_plays.clear()
            self.play_makers.clear()
            self._void_news = None
        if isinstance(e, m.BlindRound) and self._seating.sat_out_while_here(e):
            self.sat_out_said = e.round_no  # (its board need not say it again)
            self._emit(Message(seat=None, text=SAT_OUT_SILENT, local=True))
            self._come_back_due = True
        if isinstance(e, m.Played) and e.seat == self.seat:
            self._own_records[e.seq] = view.plays[-1]
            if len(self._own_records) > OWN_RECORDS_KEPT:
                del self._own_records[min(self._own_records)]
        if isinstance(e, m.Played) and e.seat < len(self._seating.names):
            self.play_makers[len(view.plays) - 1] = self._seating.names[e.seat]
        if isinstance(e, m.Played) and self._seating.played_by_computer(e.seat, view):
            self.computer_plays.add(len(view.plays) - 1)
            if self._seating.holders is not None:  # for the names beside the transcript, for verify
                self._seating.holders.computer_played(e.seat)
        if isinstance(e, m.BlindRound):
            self._count_skipped(e.round_no)
        if isinstance(e, m.RoundVoid):
            self._voids += 1
            self._rounds_counted = max(self._rounds_counted, self._round_opened)
        if isinstance(e, m.RoundCommit) and not self.check_deals:
            self._seed = secrets.token_bytes(32)
            commit = seat_commitment(e.round_id, self.seat, self._seed)
            await self._seeds.send(m.SeedCommit(round_id=e.round_id, commit=commit))
        elif isinstance(e, m.SeedCommits) and not self.check_deals and self._seed is not None:
            if e.commits[self.seat] is None:
                return False
            await self._seeds.send(m.SeedReveal(round_id=e.round_id, seed=self._seed))
        elif isinstance(e, m.RoundCommit):
            # A seed chosen for this round before (by this client or one that died) is the
            # one to use: the host may already hold its commitment.
            self._seed = self._kept.kept_seed(e.round_id)
            if self._seed is not None and self.witness.current is not None:
                self.witness.my_commitment(self._seed)
            self._seed_due = True
        elif isinstance(e, m.SeedCommits):
            self._seed_due = True
            if isinstance(self.witness, DealWitness) and self.witness.current is not None:
                self._kept.keep_seeds_out(self.witness.current)  # on disk before our seed leaves
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
            self._last_void = self._void_news
            self._emit(self._void_news)
        elif isinstance(e, m.BlindReveals) and isinstance(self.witness, BlindWitness):
            self._words.gone_at_reveal(e)
        elif isinstance(e, m.RoundEnd):
            assert view.round_score is not None
            self._emit(RoundOver(view=view, score=view.round_score, match_scores=tuple(e.scores)))
            if not self._replaying:
                self._sheet_shown = (self.match_no, view.round_number)
        elif isinstance(e, m.MatchEnd):
            return await self._end.match_over(e, view)
        elif isinstance(e, m.RematchStatus):
            if e.state == "agreed" and not self._end.agreed_here(e):
                await self._end.leave_unagreed_match(e)
                return True
            await self._end.answer_again_if_lost(e)
            return self._rematch_status(e)
        elif isinstance(e, m.Chat):
            if e.seat is None:
                self._host_said = e.text
            self._emit(Message(seat=e.seat, text=e.text))
        elif isinstance(e, m.SeatStatus):
            self._words.seat_status(e)
            self._seating.follow_holders(e)
            if e.connected and isinstance(self.witness, DealWitness):
                self.witness.absent_seats.discard(e.seat)  # back: its client may commit
        return False

    def say_round_over(self, view: SeatView) -> bool:
        """Show the end of a round this seat did not see end (a snapshot of it over, or the
        end of a replay): its leftover and score sheet, as a seat that saw its ``round_end``
        was shown them, once. False when ``view`` is not a round over, or its sheet was
        shown already."""
        if not view.round_over or view.round_score is None:
            return False
        if self._sheet_shown == (self.match_no, view.round_number):
            return False
        self._emit(RoundOver(view=view, score=view.round_score, match_scores=view.scores_now))
        if not self._replaying:
            self._sheet_shown = (self.match_no, view.round_number)
        return True

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
        dealt = self._kept.blind_dealt_round()
        if dealt is not None:  # kept by the client before this one (taken back from disk)
            round_no, round_id = dealt
            w.told_before = {round_no: ToldRound(round_id, True, None)}
            w.told_since = TOLD_BEFORE_A_FRESH_CLIENT
        return w

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
        if self._held_screen.takes(event):
            return  # shown once the play held is judged the person's (_release_held)
        self._show(event)

    def _release_held(self) -> None:
        """Show what waited for a play of this seat held for judgement (:class:`HeldScreen`):
        it is judged the person's, or the session ends with it never judged."""
        for event in self._held_screen.release():
            self._show(event)

    def _show(self, event: Event) -> None:
        """Hand ``event`` to the screen."""
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
        """Send if connected; a lost connection is the reconnect loop's business. A seat
        taken back by snapshot is ``syncing`` until the pump reads it (protocol.md 3.3):
        what is sent waits for that (for up to REQUEST_TIMEOUT), since sent before, our own
        state machine refused it and it was dropped unsaid (a move never answered)."""
        link = self._link
        if link is None:
            return
        with trio.move_on_after(REQUEST_TIMEOUT):
            while link.conn.state is State.SYNCING and link is self._link:
                await trio.sleep(SYNCING_POLL)
        if link is not self._link:
            return  # a new connection: a move goes again with the resume (_unacked)
        with suppress(OSError, trio.BrokenResourceError, trio.ClosedResourceError, ProtocolError):
            await link.send(msg)


MOVE_AFTER_THE_END = "the session had ended before that move was made: it was not sent"
"""Why :meth:`NetworkSession.submit` refuses a move made once the session is over (the
screen still showed this seat's turn): the session's own last line says why it ended."""
GOODBYE_WAIT = 1.0
"""How long a closing client tries to say ``bye`` to its host (seconds)."""
SYNCING_POLL = 0.02
"""How often a message waiting for a resume's snapshot looks whether it was read (seconds)."""


def _hidden_in_replay(event: Event) -> bool:
    """What a client taking its seat back does not show again while the match is replayed
    to it (alarms, what goes unchecked, and the end of the match are always shown)."""
    if isinstance(event, Message):
        return not event.text.startswith(
            (
                "DEAL CHECK FAILED",
                "This seat's seed",
                CAUGHT_UP_BY_SNAPSHOT,
                CAUGHT_UP_BETWEEN_ROUNDS,
                CAUGHT_UP_AT_ROUNDS_YOU_SAW,
                CAUGHT_UP_BEFORE_THE_FIRST_DEAL,
            )
        )
    return isinstance(event, ViewChanged | RoundStarted | RoundOver | VoidDeal | MatchOver)


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
