"""One authoritative table: seats, the fair-deal flow, the match, and every seat's event log.

The table is a plain state machine with no I/O and no clock: the trio task that owns it
(:mod:`scopa_net.server.table_task`) feeds it inputs and sends what it appends to the seats'
logs. Every input that changes anything is an *entry* ``(kind, payload)``, collected in
:attr:`Table.pending` for the journal. Entries carry every random value they use (seeds, token
hashes), so a table rebuilt by :meth:`Table.replay` from its journal is the same table, with the
same logs and sequence numbers.

Public methods check an input and raise :class:`TableError` (changing nothing) or record and
apply it. A seat's log holds exactly the events that seat may see: its own dealt cards, the
public table and plays, never another hand.

The phases of a table::

    WAITING  seats are filling; when the last one fills the task starts a round
    COMMIT   round_commit sent; waiting for the seed commitment of every seat a person plays
    REVEAL   commitments relayed; waiting for the seed of every seat that committed
    PLAY     the round is dealt and played
    BETWEEN  a round ended (or was void for kings); the task starts the next one
    OVER     the match is over

No re-roll: once any seed has reached the host, the round is dealt. A seat whose seed did not
come in time, or did not open its commitment, is left out of the joint seed (and the record
says so); the only void left is three or more kings on the opening table, which anyone can
check. Computer players (bot seats, and bots standing in) send no seed: the host would choose
it. Every seed received is acknowledged to its seat alone with a signed ``seed_receipt``.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE, deal_plan, seat_positions
from scopa_net.errors import IllegalPlayError
from scopa_net.fair.commitments import (
    BAD_REVEAL,
    NO_COMMIT,
    NO_REVEAL,
    ZERO_CHAIN,
    HostDeck,
    commit_message,
    end_message,
    joint_seed,
    public_key_bytes,
    receipt_message,
    reveal_message,
    rules_hash,
    seat_commitment,
    sign,
)
from scopa_net.fair.hashing import same_bytes
from scopa_net.fair.shuffle import deck_permutation, first_dealer
from scopa_net.fair.transcript import (
    VOID_KINGS,
    DealtCard,
    MatchResult,
    PlayEntry,
    RoundRecord,
    Transcript,
    VoidNotice,
)
from scopa_net.match import Match
from scopa_net.names import away_name, clean_chat, clean_name, reads_as_computer, unique_name
from scopa_net.plays import Play, play_code
from scopa_net.rules import RuleSet
from scopa_net.seat_holders import Holder, SeatHolders
from scopa_net.server.round_start import RoundStart
from scopa_net.view import SeatView
from scopa_net.wire import messages as m
from scopa_net.wire.convert import opening_snapshot, score_lines, snapshot_of
from scopa_net.wire.errors import ErrorCode, RefusalWhy

MAX_OFFENCES = 3
"""Bad reveals (seeds that do not open their commitment: proven by the record) a seat may make
before a bot takes its seat for good. A seed that never came is shown, not counted."""
MAX_LIVE_TOKENS = 8
"""Tokens that may hold one seat at once (the newest issued and up to seven before it)."""
_ROUND_CLOSES = (m.RoundVoid, m.RoundEnd)
_ROUND_OPENS = (m.RoundCommit, m.BlindRound)
"""The events :meth:`Table._broadcast` follows a round's holders through (tuples made once,
not a union at every event)."""


class Phase(enum.Enum):
    WAITING = "waiting"
    COMMIT = "commit"
    REVEAL = "reveal"
    PLAY = "play"
    BETWEEN = "between"
    OVER = "over"
    # A blind table's phases (server/blind_table.py, protocol.md 9.5):
    KEYS = "keys"
    SHUFFLE = "shuffle"
    OPEN = "open"
    SEEDS = "seeds"


class SeatKind(enum.Enum):
    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"


OLDER_JOURNAL = "begun by an older scopa-net that this one cannot go on with"
"""Why a table whose journal an older scopa-net wrote is closed (``history``, the host's log)."""


class OlderJournalError(Exception):
    """A table's journal holds an entry an older scopa-net wrote, which this one cannot
    replay: the table is not restored, nor its transcript exported (the message says why)."""


class TableError(Exception):
    """An input the table refuses; nothing changed. ``code`` travels on the wire."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        reason: str | None = None,
        current_seq: int | None = None,
        why: RefusalWhy | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.reason = reason
        self.current_seq = current_seq
        self.why = why
        """Why, where a client acts on it (an ``error``'s ``why``, protocol.md 3.8)."""
        super().__init__(f"{code.value}: {message}")


def token_hash(token: bytes) -> bytes:
    """What the host keeps of a seat token: only its hash."""
    return hashlib.sha256(b"scopa-net/seat-token\x00" + token).digest()


@dataclass
class Seat:
    kind: SeatKind = SeatKind.OPEN
    name: str | None = None
    token_hash: bytes | None = None
    """The newest token issued for the seat (its hash)."""
    older_tokens: tuple[bytes, ...] = ()
    """Older tokens that still hold the seat, oldest first: the last one a ``resume``
    presented, then those issued after it. A token is good until its successor (the next one
    issued) has been used once, so a player whose ``resumed`` reply was lost can try again,
    and an old token replayed by someone else dies as soon as the player uses a newer one."""
    epoch: int = 0
    connected: bool = False
    stand_in: bool = False
    grace: int = 0
    away: bool = False
    """The player stepped away on purpose (``leave`` with ``away``); the seat is held."""
    closed: bool = False
    """The player's client said ``bye`` as it closed its connection (its window closed, it was
    stopped), not a dropped connection: told in ``seat_status`` (protocol.md 3.3). The host's
    own knowledge, as its clock is, not the journal's: a restarted host has every seat away."""
    open_to_newcomer: bool = False
    """The player has been away (a computer playing for them) past the host's away limit:
    still theirs, but a newcomer may take it (protocol.md 3.3). The host's clock says so, not
    the journal: a restarted host starts counting again."""
    offences: int = 0
    log: list[m.Message] = field(default_factory=list)
    """The seat's newest events: ``log[i]`` has seq ``base + i + 1``."""
    base: int = 0
    """Events trimmed from the front of the log (too old for a resume to ask for)."""
    state_seq: int = 0
    """Seq of the last event in the log that changed the game (a move chosen before it is
    stale)."""
    moves: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    """move id -> (seq of the ``played`` event it produced, its card, its captured mask): a
    repeat is judged by these, not by the log, which may have been trimmed past that event."""
    committed: int = 0
    """How much of the log is in the journal: only that much may be sent."""

    @property
    def seq(self) -> int:
        return self.base + len(self.log)

    def trim(self, keep: int) -> None:
        """Forget all but the newest ``keep`` events (only ones already in the journal)."""
        drop = min(len(self.log) - keep, self.committed - self.base)
        if drop > 0:
            del self.log[:drop]
            self.base += drop

    @property
    def automatic(self) -> bool:
        """Whether the host plays this seat (a bot seat, or a bot standing in)."""
        return self.kind is SeatKind.BOT or self.stand_in or self.kind is SeatKind.OPEN


@dataclass
class Holding:
    """One holder's time in a seat, named as the seat's ``seat_status`` said: a person's
    (their renames change the name in place: the same person) or a computer's or nobody's."""

    name: str
    person: bool


@dataclass
class RoundState:
    """The fair-deal record of the deal attempt in progress."""

    record: RoundRecord
    deck: HostDeck
    commits: list[bytes | None]
    seeds: list[bytes | None]
    """The seed each seat sent, as received (a bad one included, to be published)."""
    perm: tuple[int, ...] = ()
    where: dict[int, int] = field(default_factory=dict)
    """card index -> deck position, once the deck order is known."""
    plays: list[PlayEntry] = field(default_factory=list)
    """The round's plays so far (they join ``record`` when the round ends)."""


class Table:
    """The authoritative state of one table."""

    blind = False
    """A blind table (:class:`~scopa_net.server.blind_table.BlindTable`) says so."""

    def __init__(
        self,
        table_id: int,
        name: str,
        rules: RuleSet,
        host_key: Ed25519PrivateKey,
        *,
        password: bool = False,
        bots: int = 0,
        bot_level: int | None = None,
    ) -> None:
        self.table_id = table_id
        self.name = name
        self.rules = rules
        self.password = password
        self.bot_level = bot_level
        self._key = host_key
        self._rules_digest = rules_hash(rules)
        self.seats = [Seat() for _ in range(rules.players)]
        for seat in range(rules.players - bots, rules.players):
            self.seats[seat].kind = SeatKind.BOT
            self.seats[seat].name = f"bot {seat}"
            self.seats[seat].connected = True  # a computer player is always at the table
        self.phase = Phase.WAITING
        self.match: Match | None = None
        self.round: RoundState | None = None
        self.round_no = 0
        """The number of the last round opened (``round_commit``), kings voids included: the
        one round numbering of protocol.md section 5.2."""
        self.dealt_round_no = 0
        """The number of the last round dealt: what views and snapshots show."""
        self.last_void: m.RoundVoid | None = None
        """The last ``round_void`` (for the host's log)."""
        self.last_void_round = 0
        """The number of the round :attr:`last_void` voided (the log names it after the
        round dealt next may have begun)."""
        self.void_rounds: set[int] = set()
        """The numbers of this match's void rounds (``round_void``, kings included; a round
        number is opened once, so voided at most once): the round after each is its redeal
        (snapshots say it), and :attr:`voids` counts them."""
        self.computer_plays: list[int] = []
        """The plays of the last round dealt (by index) that a computer made for a person's
        seat (standing in, or a blind round the person sits out): snapshots say them."""
        self._plays_made = 0
        """Plays made in the last round dealt."""
        self._first_deal_due = False
        """A round is opened and not yet dealt: its first deal starts the plays anew (until
        then snapshots show the round before it, its plays and who made them)."""
        self.holdings = [Holding(*self.holder(seat)) for seat in range(rules.players)]
        """Each seat's holder now, by seat, as its last ``seat_status`` said."""
        self.play_makers: list[Holding] = []
        """By play of the last round dealt, who held its seat when it was made: snapshots name
        them (a seat may change hands during a round)."""
        self.end_sig: bytes | None = None
        self.chain = ZERO_CHAIN
        self.seen_round_ids: set[bytes] = set()
        self.round_start: dict[int, RoundStart] = {}
        """Seat -> its seq and snapshot just before the latest round of the match opened (its
        ``round_commit`` the next event): the seat's log is kept whole from there, and a seat
        caught up by snapshot starts there and has every event since replayed, so that its
        deal check covers that round (protocol.md 3.4). Empty before a match's first round."""
        self.last_played_seq = 0
        self.match_no = 1
        """Which match this is at the table: one more at every rematch."""
        self.votes: list[str] | None = None
        """After a match: each seat's answer to a rematch (``m.REMATCH_VOTES``), once asked."""
        self.rematch_state: str | None = None
        """None until someone answers; then ``open``, ``agreed`` or ``declined``."""
        self._info: m.TableInfo | None = None
        self.history: list[tuple[RoundRecord, HostDeck, tuple[int, ...], int | None]] = []
        """Every finished deal attempt: public record, the host's deck, the shuffle, dealer."""
        self.pending: list[tuple[str, dict]] = []
        """Entries applied since the owner last took them for the journal."""
        self.forfeits: list[tuple[int, int]] = []
        """Seats forfeit to a computer player since the owner last took them (5.4), each with
        the seq, in its own log, of the ``seat_status`` that says so: the last event its
        player's connection may read."""
        self.before_rematch: Callable[[], None] | None = None
        """Called as a rematch begins, while the match just over is still whole: how
        ``history --export --match`` keeps an earlier match's transcript through a replay."""
        self.holders = SeatHolders(rules.players)
        """Who held each seat of the match in play, and in each of its rounds: for
        ``history`` and the names ``history --export`` writes beside a transcript."""

    # --- reading ------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.phase is not Phase.WAITING

    @property
    def full(self) -> bool:
        """Whether no newcomer can sit here: no seat open, nor any left long by its player."""
        return not any(self.open_to(i) for i in range(len(self.seats)))

    @property
    def done_for_good(self) -> bool:
        """The match is over and no other will follow here (protocol.md 3.11): the vote on
        playing again was declined, or no person holds a seat to ask for one. The table only
        lingers for late readers; it counts against no limit on tables (3.3)."""
        return self.phase is Phase.OVER and (
            self.rematch_state == "declined"
            or not any(s.kind is SeatKind.HUMAN for s in self.seats)
        )

    def open_to(self, seat: int) -> bool:
        """Whether a newcomer may take ``seat``: it is open, or its player has been away
        past the host's limit (:meth:`open_to_newcomers`)."""
        s = self.seats[seat]
        return s.kind is SeatKind.OPEN or s.open_to_newcomer

    @property
    def all_played(self) -> bool:
        """Whether every seat has someone to play it: a person, a computer player, or a
        computer standing in for a person who left (the seat open to a newcomer meanwhile).
        Only a rematch starts a match with such a seat (3.11): before the first match an
        open seat waits for its player."""
        return all(s.kind is not SeatKind.OPEN or s.stand_in for s in self.seats)

    def info(self) -> m.TableInfo:
        """The table as the lobby lists it (kept until the next event changes it)."""
        if self._info is None:
            self._info = self._make_info()
        return self._info

    def seat_infos(self) -> tuple[m.SeatInfo, ...]:
        """The seats as the players at the table know them (a snapshot's ``seats``)."""
        return tuple(
            m.SeatInfo(kind=s.kind.value, name=s.name, connected=s.connected) for s in self.seats
        )

    def _make_info(self) -> m.TableInfo:
        seats = tuple(
            replace(info, name=away_name(info.name)) if s.open_to_newcomer and info.name else info
            for s, info in zip(self.seats, self.seat_infos(), strict=True)
        )
        return m.TableInfo(
            id=self.table_id,
            name=self.name,
            rules=m.RulesInfo.of(self.rules),
            password=self.password,
            seats=seats,
            bot_level=self.bot_level,
            started=self.started,
            blind=self.blind,
        )

    def view_for(self, seat: int) -> SeatView | None:
        if self.match is None:
            return None
        return replace(self.match.view_for(seat), round_number=self.dealt_round_no)

    def snapshot(self, seat: int) -> m.Snapshot:
        """The seat's whole view as one message, standing for its log so far."""
        return self._snapshot_maker(seat)()

    def _snapshot_maker(self, seat: int) -> Callable[[], m.Snapshot]:
        """What makes :meth:`snapshot` of now, called now or later: the seat's view and the
        table's facts are taken now (immutable values, so they stay as they are now), the
        message is built when it is called."""
        seq = self.seats[seat].seq
        view = self.view_for(seat)
        if view is not None:
            if view.round_number == 0:  # nothing dealt: no dealer yet (protocol.md 3.9)
                view = replace(view, dealer=0)
            return partial(
                snapshot_of,
                view,
                seq=seq,
                table_id=self.table_id,
                seats=self.seat_infos(),
                voids=self.voids_dealt(view.round_number),
                computer_plays=tuple(self.computer_plays),
                stand_ins=self.stand_ins(),
                redeal=view.round_number - 1 in self.void_rounds,
                makers=tuple(h.name for h in self.play_makers),
            )
        opening = opening_snapshot(
            self.rules, seat=seat, seq=seq, table_id=self.table_id, seats=self.seat_infos()
        )
        return partial(replace, opening, stand_ins=self.stand_ins())

    @property
    def voids(self) -> int:
        """Rounds of this match void so far (the host's log says each once)."""
        return len(self.void_rounds)

    def voids_dealt(self, round_no: int) -> int:
        """The void rounds numbered up to ``round_no`` (a snapshot's last round dealt): a
        blind round void before its first deal is counted once a later round is dealt, so
        that ``round_no`` less ``voids`` is the rounds played out (protocol.md 3.9)."""
        return sum(1 for void in self.void_rounds if void <= round_no)

    def stand_ins(self) -> tuple[int, ...]:
        """The seats a computer plays for their absent person (or for nobody, a seat left
        during the match), as each one's last ``seat_status`` said: snapshots say them."""
        return tuple(seat for seat, s in enumerate(self.seats) if s.stand_in)

    def catch_up_point(self, seat: int) -> tuple[int, m.Snapshot] | None:
        """Where a seat caught up by snapshot starts, when not now: as the latest round began
        (protocol.md 3.4; a blind table's round in play, 9.7). None: a snapshot of now (no
        round yet in this match, or the seat changed hands since that round began: the
        snapshot then would name another holder than the one coming back)."""
        start = self.round_start.get(seat)
        if start is None:
            return None
        s, then = self.seats[seat], start.snapshot.seats
        if seat >= len(then) or (then[seat].kind, then[seat].name) != (s.kind.value, s.name):
            return None
        since = s.log[max(start.seq - s.base, 0) :]
        if any(isinstance(e, m.SeatStatus) and e.seat == seat and e.kind != s.kind.value
               for e in since):  # fmt: skip
            return None  # left and taken again under the same name
        return start.seq, start.snapshot

    def join_point(self, seat: int) -> tuple[int, m.Snapshot] | None:
        """Where a newcomer who just took ``seat`` starts, when not now (a blind table's round
        being set up, 9.7). None: a snapshot of now."""
        return None

    def kept_from(self, seat: int) -> RoundStart | None:
        """The point from which ``seat``'s log is kept whole, besides the last events: as the
        latest round began (a blind table's round in play, for a seat caught up or taken during
        it). None: no such point."""
        return self.round_start.get(seat)

    def to_act(self) -> list[tuple[int, str]]:
        """(seat, what) for every seat the table waits on: 'commit', 'reveal' or 'play'.

        Only seats a person plays commit and reveal; a computer player sends no seed."""
        rnd = self.round
        if self.phase is Phase.COMMIT and rnd:
            return [
                (s, "commit") for s, c in enumerate(rnd.commits) if c is None and self._person(s)
            ]
        if self.phase is Phase.REVEAL and rnd:
            return [
                (s, "reveal")
                for s, (c, x) in enumerate(zip(rnd.commits, rnd.seeds, strict=True))
                if c is not None and x is None and self._person(s)
            ]
        if self.phase is Phase.PLAY and self.match and self.match.round:
            turn = self.match.round.to_move
            return [] if turn is None else [(turn, "play")]
        return []

    @property
    def waits_on_seats(self) -> bool:
        """Whether the table waits on seats' seeds (or a blind table's keys, decks, shares
        and seeds), under the seed deadline."""
        return self.phase in (Phase.COMMIT, Phase.REVEAL)

    @property
    def wait_stage(self) -> object:
        """A blind table's stage of waiting on seats (each new one gets a fresh deadline);
        None at an ordinary table, whose seed deadline runs from the round's start."""
        return None

    @property
    def needs_round(self) -> bool:
        """Whether the owner should start a deal attempt now (with fresh randomness)."""
        return (self.phase is Phase.WAITING and self.all_played) or self.phase is Phase.BETWEEN

    @property
    def pause_before_round(self) -> float:
        """Seconds the owner waits, once :attr:`needs_round`, before it starts the round."""
        return 0.0

    def check_token(self, seat: int, token: bytes) -> bytes:
        """Refuse a wrong, empty, expired or rotated token for ``seat``; returns its hash."""
        if not 0 <= seat < len(self.seats):
            raise TableError(ErrorCode.BAD_TOKEN, f"seat {seat} is not a seat at this table")
        held = self.seats[seat]
        if held.kind is not SeatKind.HUMAN or held.token_hash is None:
            raise TableError(ErrorCode.BAD_TOKEN, f"seat {seat} has no player to resume")
        presented = token_hash(token)
        live = (*held.older_tokens, held.token_hash)
        # Compare with every live hash (no early exit), in constant time each.
        if token and sum(same_bytes(presented, h) for h in live):
            return presented
        raise TableError(
            ErrorCode.BAD_TOKEN, f"that token does not hold seat {seat} (old or wrong)"
        )

    # --- inputs (checked, recorded, applied) --------------------------------------------

    def join(self, seat: int | None, name: str, new_token_hash: bytes) -> int:
        """Seat a new player; returns the seat number."""
        seat = self.seat_to_join(seat)
        name = self.seat_name(seat, name)
        if self.seats[seat].kind is SeatKind.HUMAN:
            # Its player was away too long: they leave for good now, as with ``leave``.
            self._commit("leave", {"seat": seat})
        self._commit("join", {"seat": seat, "name": name, "token_hash": new_token_hash})
        return seat

    def seat_to_join(self, seat: int | None) -> int:
        """The seat a ``join`` asking for ``seat`` (None: the first open) takes, or
        TableError saying why none (protocol.md 3.3)."""
        if self.phase is Phase.OVER:
            raise TableError(ErrorCode.TABLE_FULL, "the match at this table is over")
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.OPEN]
            free = free or [i for i in range(len(self.seats)) if self.open_to(i)]
            if not free:
                raise TableError(ErrorCode.TABLE_FULL, f"table {self.table_id} has no open seat")
            seat = free[0]
        elif not 0 <= seat < len(self.seats):
            raise TableError(ErrorCode.SEAT_TAKEN, f"seat {seat} is not a seat at this table")
        elif not self.open_to(seat):
            raise TableError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
        return seat

    def open_to_newcomers(self, seat: int) -> bool:
        """``seat``'s player has been away past the host's limit: from now on a newcomer may
        take the seat (the player, should they resume first, keeps it). Not an entry: the
        journal does not keep the host's clock. True if the seat is (now) open to them."""
        s = self.seats[seat]
        if s.kind is not SeatKind.HUMAN or s.connected or not s.stand_in:
            return False
        if self.phase is Phase.OVER:
            return False
        if not s.open_to_newcomer:
            s.open_to_newcomer = True
            self._info = None
        return True

    def seat_name(self, seat: int, wanted: str) -> str:
        """The name ``seat`` will show: ``wanted`` made safe (:mod:`scopa_net.names`), and
        told apart from the other seats' names."""
        name = clean_name(wanted)
        if reads_as_computer(name):
            name = ""  # a person never passes for a computer player
        name = name or f"Player {seat + 1}"
        others = [s.name for i, s in enumerate(self.seats) if i != seat and s.name is not None]
        return unique_name(name, others)

    def new_name(self, seat: int, wanted: str) -> str | None:
        """The name ``seat`` would take for ``wanted`` (made safe and told apart as at
        :meth:`join`), None if that changes nothing: the seat's own, or a computer's name."""
        s = self.seats[seat]
        if s.kind is not SeatKind.HUMAN:
            raise TableError(ErrorCode.WRONG_PHASE, f"seat {seat} is not played by a person")
        if reads_as_computer(wanted):
            return None  # refused as a name that settles on the seat's own: nothing changes
        name = self.seat_name(seat, wanted)
        return None if name == s.name else name

    def rename(self, seat: int, wanted: str) -> str | None:
        """The player at ``seat`` takes another name (:meth:`new_name`); returns the name
        settled on, None if nothing changed."""
        name = self.new_name(seat, wanted)
        if name is not None:
            self._commit("rename", {"seat": seat, "name": name})
        return name

    def resume(self, seat: int, new_token_hash: bytes, *, presented: bytes | None = None) -> int:
        """Issue a new token after :meth:`check_token`; returns the new epoch.

        ``presented``: the hash of the token the player showed (what check_token returned);
        None for the newest. Tokens issued before it are dead from now on.
        """
        s = self.seats[seat]
        presented = s.token_hash if presented is None else presented
        self._commit("resume", {"seat": seat, "token_hash": new_token_hash, "presented": presented})
        return s.epoch

    def leave(self, seat: int) -> None:
        """The player gives the seat up for good: it opens, and a bot plays it meanwhile."""
        self._commit("leave", {"seat": seat})

    def step_away(self, seat: int) -> None:
        """The player steps away: the seat stays theirs (their token still holds it) and a
        bot plays for them until they resume."""
        self._commit("away", {"seat": seat})

    def set_status(
        self, seat: int, *, connected: bool, stand_in: bool, grace: int, closed: bool = False
    ) -> None:
        """A seat's player went away or came back, or a bot started or stopped standing in;
        ``closed``: its connection ended with the player's ``bye`` (kept until they are back,
        and not journaled: see :attr:`Seat.closed`)."""
        s = self.seats[seat]
        if closed:
            s.closed = True
        if (s.connected, s.stand_in, s.grace) == (connected, stand_in, grace):
            return
        self._commit(
            "status", {"seat": seat, "connected": connected, "stand_in": stand_in, "grace": grace}
        )

    def start_round(self, round_id: bytes, host_seed: bytes) -> None:
        if not self.needs_round:
            raise TableError(ErrorCode.WRONG_PHASE, f"no round to start in phase {self.phase}")
        if round_id in self.seen_round_ids:
            raise ValueError(f"round id {round_id.hex()} was used before")
        self._commit("round", {"round_id": round_id, "host_seed": host_seed})

    def seed_commit(self, seat: int, round_id: bytes, commit: bytes) -> None:
        rnd = self._current(round_id, Phase.COMMIT, "commit a seed")
        if self.seats[seat].kind is not SeatKind.HUMAN:
            raise TableError(ErrorCode.WRONG_PHASE, f"seat {seat} is not played by a person")
        if rnd.commits[seat] is not None:
            raise TableError(ErrorCode.WRONG_PHASE, f"seat {seat} has already committed")
        self._commit("seed_commit", {"seat": seat, "commit": commit})

    def seed_reveal(self, seat: int, round_id: bytes, seed: bytes) -> None:
        rnd = self._current(round_id, Phase.REVEAL, "reveal a seed")
        if rnd.commits[seat] is None:
            raise TableError(ErrorCode.WRONG_PHASE, f"seat {seat} has no commitment this round")
        if rnd.seeds[seat] is not None:
            raise TableError(ErrorCode.WRONG_PHASE, f"seat {seat} has already revealed")
        self._commit("seed_reveal", {"seat": seat, "seed": seed})

    def close_seeds(self) -> None:
        """The deadline passed: relay the commitments that came (COMMIT), or deal with the
        seeds that came, leaving out the seats whose seed did not (REVEAL)."""
        if self.phase not in (Phase.COMMIT, Phase.REVEAL):
            raise TableError(ErrorCode.WRONG_PHASE, "no seeds are awaited")
        self._commit("close_seeds", {})

    def play(
        self, seat: int, move_id: int | None, after: int, card: int, captured: int
    ) -> tuple[int, bool]:
        """Apply a move; returns (seq of its ``played`` event, whether it was a duplicate).

        ``move_id`` is the client's id for the move (a repeat is acknowledged, not applied
        again); None for moves the host makes for a bot.
        """
        s = self.seats[seat]
        if move_id is not None and move_id in s.moves:
            return self._repeated_move(s, move_id, card, captured), True
        # The checks in the order protocol.md section 3.5 gives them.
        if after < s.state_seq:
            raise TableError(
                ErrorCode.STALE,
                f"the game moved on after seq {after}; catch up to {s.seq}",
                current_seq=s.seq,
            )
        rnd = self.match.round if self.match else None
        if self.phase is not Phase.PLAY or rnd is None:
            raise TableError(ErrorCode.WRONG_PHASE, "there is no round in play")
        if rnd.turn != seat:
            raise TableError(ErrorCode.NOT_YOUR_TURN, f"it is seat {rnd.turn}'s turn")
        try:
            rnd.resolve(Play.from_wire(card, captured), seat, exact=True)
        except IllegalPlayError as exc:
            raise TableError(
                ErrorCode.ILLEGAL_PLAY, str(exc), reason=exc.reason.name.lower()
            ) from None
        self._commit("play", {"seat": seat, "move_id": move_id, "card": card, "captured": captured})
        return self.last_played_seq, False

    @staticmethod
    def _repeated_move(s: Seat, move_id: int, card: int, captured: int) -> int:
        """The seq of the move already applied under ``move_id``, if it is the same play."""
        seq, played_card, played_captured = s.moves[move_id]
        if (played_card, played_captured) != (card, captured):
            raise TableError(
                ErrorCode.MOVE_ID_TAKEN,
                f"move {move_id} was a different play (seq {seq}); use a new move id",
            )
        return seq

    def rematch(self, seat: int, agree: bool, seconds: int) -> None:
        """A seat's answer to playing again; ``seconds`` left to answer (for the event)."""
        if self.phase is not Phase.OVER:
            raise TableError(ErrorCode.WRONG_PHASE, "a rematch comes after the match is over")
        if self.rematch_state not in (None, "open"):
            raise TableError(ErrorCode.WRONG_PHASE, f"the rematch was {self.rematch_state}")
        self._commit("rematch", {"seat": seat, "agree": agree, "seconds": seconds})

    def rematch_expire(self) -> None:
        """Time is up for an open rematch vote: it is declined."""
        if self.phase is Phase.OVER and self.rematch_state == "open":
            self._commit("rematch_expire", {})

    def say(self, seat: int | None, text: str) -> None:
        """A seat's chat line, or the host's notice (``seat`` None), as the table reads it:
        cleaned (protocol.md 3.7), then no longer than a chat event carries. Cleaning can
        lengthen a line (NFC makes three code points of some one): the limit counts after
        it. A notice too long is cut, and one with nothing left to show is dropped."""
        text = clean_chat(text)
        if seat is None:
            if text:
                self._commit("say", {"seat": None, "text": text[: m.TEXT_LEN]})
            return
        if not text:
            raise TableError(ErrorCode.CHAT_TOO_LONG, "say something")
        if len(text) > m.TEXT_LEN:
            raise TableError(ErrorCode.CHAT_TOO_LONG, f"chat is limited to {m.TEXT_LEN} characters")
        self._commit("say", {"seat": seat, "text": text})

    # --- replay -------------------------------------------------------------------------

    def replay(self, entries: Iterable[tuple[str, dict]]) -> None:
        """Re-apply journaled entries to a fresh table."""
        for kind, payload in entries:
            self._apply(kind, payload)
        self.pending.clear()
        self.forfeits.clear()  # no connection holds a seat of a table being rebuilt
        self.mark_committed()

    def mark_committed(self) -> None:
        """Everything applied so far is in the journal: every seat's log may be sent."""
        for s in self.seats:
            s.committed = s.seq

    def transcript_for(self, seat: int) -> Transcript:
        """What ``seat`` could have recorded of every finished deal attempt (for export)."""
        rounds = []
        for record, deck, perm, dealer in self.history:
            hand: tuple[DealtCard, ...] = ()
            if perm and dealer is not None:
                void = record.void is not None
                positions = seat_positions(self.rules, dealer, seat, first_deal_only=void)
                hand = tuple(DealtCard(p, *deck.dealt(perm, p)) for p in positions)
            rounds.append(replace(record, hand=hand))
        match = self.match
        result = MatchResult(
            tuple(match.scores) if match else (0,) * self.rules.side_count,
            match.winner if match else None,
            self.end_sig,
        )
        return Transcript(self.rules, public_key_bytes(self._key), seat, tuple(rounds), result)

    def take_pending(self) -> list[tuple[str, dict]]:
        taken, self.pending = self.pending, []
        return taken

    def take_forfeits(self) -> list[tuple[int, int]]:
        """The seats forfeit since the last call, with their last seq (:attr:`forfeits`)."""
        taken, self.forfeits = self.forfeits, []
        return taken

    # --- applying -----------------------------------------------------------------------

    def _commit(self, kind: str, payload: dict) -> None:
        self._apply(kind, payload)
        self.pending.append((kind, payload))

    def _apply(self, kind: str, payload: dict) -> None:
        getattr(self, f"_apply_{kind}")(**payload)

    def _apply_join(self, seat: int, name: str, token_hash: bytes) -> None:
        s = self.seats[seat]
        s.kind, s.name, s.token_hash = SeatKind.HUMAN, name, token_hash
        s.older_tokens = ()
        s.epoch += 1
        s.connected, s.stand_in, s.grace, s.offences = True, False, 0, 0
        s.away = s.closed = False
        s.moves.clear()  # move ids are the player's own: a newcomer may count from 1 again
        self._status_event(seat)

    def _apply_resume(
        self,
        seat: int,
        token_hash: bytes,
        presented: bytes | None = None,
        with_previous: bool = False,
    ) -> None:
        s = self.seats[seat]
        assert s.token_hash is not None
        live = [*s.older_tokens, s.token_hash]
        if presented is None:  # a journal entry from before presented tokens were recorded
            presented = live[0] if with_previous else s.token_hash
        start = next((i for i, h in enumerate(live) if h == presented), len(live) - 1)
        # The presented token has been used: every token issued before it is dead. It stays
        # good itself until the new one is used, as do those issued after it.
        kept = live[start:]
        if len(kept) >= MAX_LIVE_TOKENS:
            kept = [kept[0], *kept[len(kept) - MAX_LIVE_TOKENS + 2 :]]
        s.older_tokens = tuple(kept)
        s.token_hash = token_hash
        s.epoch += 1
        changed = not s.connected or s.stand_in or s.grace
        changed = changed or s.away
        s.connected, s.stand_in, s.grace, s.away = True, False, 0, False
        s.closed = False
        if changed:
            self._status_event(seat)

    def _apply_leave(self, seat: int) -> None:
        s = self.seats[seat]
        s.kind, s.name, s.token_hash, s.older_tokens = SeatKind.OPEN, None, None, ()
        s.connected, s.grace, s.away, s.closed = False, 0, False, False
        s.stand_in = self.started and self.phase is not Phase.OVER
        self._status_event(seat)
        self._advance_seeds()  # a seat nobody plays sends no seed

    def _apply_rename(self, seat: int, name: str) -> None:
        self.seats[seat].name = name
        self._status_event(seat)

    def _apply_away(self, seat: int) -> None:
        s = self.seats[seat]
        s.connected, s.grace, s.away, s.closed = False, 0, True, False
        s.stand_in = self.phase is not Phase.OVER
        self._status_event(seat)

    def _apply_status(self, seat: int, connected: bool, stand_in: bool, grace: int) -> None:
        s = self.seats[seat]
        s.connected, s.stand_in, s.grace = connected, stand_in, grace
        self._status_event(seat)
        self._advance_seeds()  # a seat a bot stands in for sends no seed

    def _apply_rematch(self, seat: int, agree: bool, seconds: int) -> None:
        if self.votes is None:
            self.votes = [self._first_vote(s) for s in self.seats]
        self.votes[seat] = "yes" if agree else "no"
        if "no" in self.votes:
            self._rematch_event("declined", 0)
        elif all(v == "yes" for v in self.votes):
            self._rematch_event("agreed", 0)
            self._new_match()
        else:
            self._rematch_event("open", seconds)

    @staticmethod
    def _first_vote(s: Seat) -> str:
        """A seat's answer as a rematch vote opens (3.11). A computer agrees: a computer
        player, or the one that stood in for a person who left during the match (the seat
        stays open to a newcomer in the new match). A seat left after the match declines;
        a person, away or not, is waited for."""
        if s.kind is SeatKind.BOT or (s.kind is SeatKind.OPEN and s.stand_in):
            return "yes"
        return "no" if s.kind is SeatKind.OPEN else "waiting"

    def _apply_rematch_expire(self) -> None:
        self._rematch_event("declined", 0)

    def _rematch_event(self, state: str, seconds: int) -> None:
        self.rematch_state = state
        votes, match_no = tuple(self.votes or ()), self.match_no
        self._broadcast(
            lambda seq, _: m.RematchStatus(
                seq=seq, match_no=match_no, state=state, votes=votes, seconds=seconds
            )
        )

    def _new_match(self) -> None:
        """Same seats and rules, a fresh match: scores, round numbers and the chain restart."""
        if self.before_rematch is not None:
            self.before_rematch()
        self.match_no += 1
        self.holders = SeatHolders(self.rules.players)
        self.match, self.round = None, None
        self.round_no, self.dealt_round_no, self.chain = 0, 0, ZERO_CHAIN
        self.void_rounds = set()
        self.computer_plays, self._plays_made, self.play_makers = [], 0, []
        self._first_deal_due = False
        self.end_sig = None
        self.history = []
        self.votes, self.rematch_state = None, None
        self.round_start = {}
        for s in self.seats:
            s.offences = 0
        self.phase = Phase.WAITING

    def _apply_say(self, seat: int | None, text: str) -> None:
        self._broadcast(lambda seq, _: m.Chat(seq=seq, seat=seat, text=text))

    def _apply_round(self, round_id: bytes, host_seed: bytes) -> None:
        self.seen_round_ids.add(round_id)
        self.round_start = {  # each snapshot made only if a seat is caught up from it
            s: RoundStart(self.seats[s].seq, make=self._snapshot_maker(s))
            for s in range(len(self.seats))
        }
        self.round_no += 1
        deck = HostDeck.derive(host_seed, round_id)
        sig = sign(
            self._key,
            commit_message(round_id, self.round_no, self.chain, deck.digest, self._rules_digest),
        )
        record = RoundRecord.opened(
            round_id=round_id,
            round_no=self.round_no,
            prev=self.chain,
            card_hashes=deck.card_hashes,
            digest=deck.digest,
            sig=sig,
        )
        n = self.rules.players
        self.round = RoundState(record, deck, [None] * n, [None] * n)
        self.phase = Phase.COMMIT
        self._broadcast(
            lambda seq, _: m.RoundCommit(
                seq=seq,
                round_id=round_id,
                round_no=self.round_no,
                prev=record.prev,
                card_hashes=deck.card_hashes,
                digest=deck.digest,
                sig=sig,
            ),
            state=True,
        )
        self._advance_seeds()

    def host_plays(self, seat: int) -> bool:
        """Whether the host plays this seat now: a computer's seat, an open one, or a
        person's seat a computer stands in for."""
        return self.seats[seat].automatic

    def _person(self, seat: int) -> bool:
        """Whether a person plays this seat now (and so sends seeds)."""
        s = self.seats[seat]
        return s.kind is SeatKind.HUMAN and not s.stand_in

    def _advance_seeds(self) -> None:
        """Move on as soon as no seat that sends seeds is still awaited."""
        if self.phase is Phase.COMMIT and not self.to_act():
            self._relay_commits()
        if self.phase is Phase.REVEAL and not self.to_act():
            self._deal_round()

    def _apply_seed_commit(self, seat: int, commit: bytes) -> None:
        rnd = self.round
        assert rnd is not None
        rnd.commits[seat] = commit
        self._advance_seeds()

    def _apply_seed_reveal(self, seat: int, seed: bytes) -> None:
        """Keep the seed as received and acknowledge it to its seat alone, good or bad."""
        rnd = self.round
        assert rnd is not None
        round_id = rnd.record.round_id
        rnd.seeds[seat] = seed
        seed_hash = seat_commitment(round_id, seat, seed)
        sig = sign(self._key, receipt_message(round_id, seat, seed_hash))
        s = self.seats[seat]
        s.log.append(
            m.SeedReceipt(seq=s.seq + 1, round_id=round_id, seat=seat, seed_hash=seed_hash, sig=sig)
        )
        self._advance_seeds()

    def _apply_close_seeds(self) -> None:
        if self.phase is Phase.COMMIT:
            self._relay_commits()
            self._advance_seeds()  # no seat committed: nothing to wait for
        elif self.phase is Phase.REVEAL:
            self._deal_round()

    def _relay_commits(self) -> None:
        rnd = self.round
        assert rnd is not None
        commits = tuple(rnd.commits)
        rnd.record = replace(rnd.record, commits=commits)
        self.phase = Phase.REVEAL
        round_id = rnd.record.round_id
        self._broadcast(
            lambda seq, _: m.SeedCommits(seq=seq, round_id=round_id, commits=commits), state=True
        )

    def _exclusion(self, seat: int) -> str | None:
        """Why ``seat``'s seed does not count this round, or None (counted, or a computer
        player that never sends one)."""
        rnd = self.round
        assert rnd is not None
        commit, seed = rnd.commits[seat], rnd.seeds[seat]
        if commit is None:
            return NO_COMMIT if self.seats[seat].kind is SeatKind.HUMAN else None
        if seed is None:
            return NO_REVEAL
        if not same_bytes(seat_commitment(rnd.record.round_id, seat, seed), commit):
            return BAD_REVEAL
        return None

    def _deal_round(self) -> None:
        """Publish every seed received and every exclusion, then shuffle and deal with the
        seeds that count. Nothing from here on can lead to a reshuffle but kings."""
        rnd = self.round
        assert rnd is not None
        round_id = rnd.record.round_id
        excluded = tuple(self._exclusion(seat) for seat in range(self.rules.players))
        seeds_shown = tuple(rnd.seeds)
        rnd.record = replace(rnd.record, seeds=seeds_shown, excluded=excluded)
        self._broadcast(
            lambda seq, _: m.SeedReveals(
                seq=seq, round_id=round_id, seeds=seeds_shown, excluded=excluded
            ),
            state=True,
        )
        for seat, reason in enumerate(excluded):
            if reason == BAD_REVEAL:
                self._offence(seat)
        seeds = [x for x, why in zip(rnd.seeds, excluded, strict=True) if x and why is None]
        joint = joint_seed(round_id, rnd.deck.digest, seeds)
        rnd.perm = deck_permutation(joint, round_id)
        order = rnd.deck.deck(rnd.perm)
        rnd.where = {card: pos for pos, card in enumerate(order)}
        if self.match is None:
            self.match = Match(self.rules, first_dealer(joint, round_id, self.rules.players))
        dealt = self.match.deal([CARDS[i] for i in order])
        self.dealt_round_no = self.round_no
        self.phase = Phase.PLAY
        self._deal_event(0, first=True)
        if dealt.void:
            rnd.record = replace(rnd.record, void=VoidNotice(VOID_KINGS, None))
            self._broadcast(
                lambda seq, _: m.RoundVoid(seq=seq, round_id=round_id, reason=VOID_KINGS),
                state=True,
            )
            self._reveal()
            self.phase = Phase.BETWEEN

    def _offence(self, seat: int) -> None:
        """A bad reveal, proven by the published record; the third forfeits the seat."""
        s = self.seats[seat]
        s.offences += 1
        if s.offences >= MAX_OFFENCES and s.kind is SeatKind.HUMAN:
            # The seat is forfeit: a bot plays it for the rest of the match.
            s.kind, s.name = SeatKind.BOT, f"bot {seat}"
            s.token_hash, s.older_tokens = None, ()
            s.connected, s.stand_in, s.grace, s.closed = True, False, 0, False
            self._status_event(seat)
            self.forfeits.append((seat, s.seq))

    def _apply_play(self, seat: int, move_id: int | None, card: int, captured: int) -> None:
        assert self.match is not None and self.match.round is not None and self.round
        rnd, fair = self.match.round, self.round
        deals_before = rnd.next_deal
        code = play_code(card, captured)
        sweep = self.match.push_code(code)
        pos = fair.where[card]
        salt = fair.deck.salts[fair.perm[pos]]
        fair.plays.append(PlayEntry(seat, code, pos, salt))
        self._broadcast(
            lambda seq, _: m.Played(
                seq=seq, seat=seat, card=card, captured=captured, sweep=sweep, pos=pos, salt=salt
            ),
            state=True,
        )
        played_seq = self.seats[seat].seq
        if move_id is not None:
            self.seats[seat].moves[move_id] = (played_seq, card, captured)
        self.last_played_seq = played_seq
        if rnd.finished:
            self._end_round()
        elif rnd.next_deal != deals_before:
            self._deal_event(rnd.next_deal - 1, first=False)

    # --- events -------------------------------------------------------------------------

    def _broadcast(
        self,
        make: Callable[[int, int], m.Message],
        *,
        state: bool = False,
        per_seat: bool = False,
    ) -> None:
        """Append an event to every seat's log. ``make(seq, seat)`` builds it: once, then
        renumbered for each seat whose seq differs, or (``per_seat``, for what differs by
        seat) once per seat."""
        first: m.Message | None = None
        dealt = False
        for seat, s in enumerate(self.seats):
            seq = s.seq + 1
            if per_seat:
                event = make(seq, seat)
                dealt = dealt or isinstance(event, m.Deal)
            elif first is None:
                event = first = make(seq, seat)
            elif first.seq == seq:  # type: ignore[attr-defined]
                event = first  # the same value: the seats share it
            else:
                event = first.with_seq(seq)
            s.log.append(event)
            if state:
                s.state_seq = seq
        self._info = None
        if type(first) is m.Played:  # the most common event, looked at first
            if self._played_for_a_person(first.seat):
                self.computer_plays.append(self._plays_made)
                self.holders.computer_played(first.seat)
            self._plays_made += 1
            self.play_makers.append(self.holdings[first.seat])
            return
        if isinstance(first, _ROUND_CLOSES):
            self.holders.round_closed()
        elif isinstance(first, m.MatchEnd):
            self.holders.match_over()
        elif isinstance(first, m.SeatStatus):
            self.holders.seated(first.seat, self.holder(first.seat))
            self._held(first.seat)
        if isinstance(first, m.RoundVoid):
            self.last_void, self.last_void_round = first, self.round_no
            self.void_rounds.add(self.round_no)
        elif isinstance(first, _ROUND_OPENS):
            self._first_deal_due = True
            now = [self.holder(seat) for seat in range(len(self.seats))]
            self.holders.round_opened(first.round_no, now)
        elif (dealt or isinstance(first, m.BlindDeal)) and self._first_deal_due:
            # The round opened is dealt: snapshots show it from now, not the one before.
            self._first_deal_due = False
            self.computer_plays, self._plays_made = [], 0
            self.play_makers = []

    def holder(self, seat: int) -> Holder:
        """Who holds ``seat`` now, as :class:`SeatHolders` follows it: a person's name (a
        computer standing in for them apart), else the computer's or the open seat's."""
        s = self.seats[seat]
        if s.kind is SeatKind.HUMAN and s.name:
            return s.name, True
        return s.name or (f"bot {seat}" if s.stand_in else f"seat {seat}"), False

    def _held(self, seat: int) -> None:
        """Follow ``seat``'s holder through a ``seat_status``: a person after a person is the
        same one (another takes a seat only once it is left: a computer or nobody between),
        renamed in place; anyone else starts a holding of their own."""
        name, person = self.holder(seat)
        now = self.holdings[seat]
        if person and now.person:
            now.name = name
        elif (name, person) != (now.name, now.person):
            self.holdings[seat] = Holding(name, person)

    def _played_for_a_person(self, seat: int) -> bool:
        """Whether a play at ``seat`` now is a computer's for its person (standing in)."""
        s = self.seats[seat]
        return s.kind is SeatKind.HUMAN and s.stand_in

    def _status_event(self, seat: int) -> None:
        s = self.seats[seat]
        s.open_to_newcomer = False  # back, gone, or taken: counted again from here
        self._broadcast(
            lambda seq, _: m.SeatStatus(
                seq=seq,
                seat=seat,
                kind=s.kind.value,
                name=s.name,
                connected=s.connected,
                grace=s.grace,
                stand_in=s.stand_in,
                away=s.away,
                closed=s.closed,
            )
        )

    def _deal_event(self, deal_index: int, *, first: bool) -> None:
        """Each seat gets its own cards of deal ``deal_index``, and everyone the table cards."""
        fair = self.round
        assert fair is not None and self.match is not None and self.match.round is not None
        deal = deal_plan(self.rules, self.match.round.dealer)[deal_index]

        def cards_for(target: int) -> tuple[m.DealtCard, ...]:
            out = []
            for i, t in enumerate(deal.targets):
                if t == target:
                    pos = deal.start + i
                    card, salt = fair.deck.dealt(fair.perm, pos)
                    out.append(m.DealtCard(pos=pos, card=card, salt=salt))
            return tuple(out)

        table = cards_for(TABLE) if first else ()
        if first:
            fair.record = replace(
                fair.record, table=tuple(DealtCard(c.pos, c.card, c.salt) for c in table)
            )
        stock = 40 - deal.stop
        self._broadcast(
            lambda seq, seat: m.Deal(seq=seq, hand=cards_for(seat), table=table, stock=stock),
            state=True,
            per_seat=True,
        )

    def _reveal(self) -> None:
        """The host reveals its seed: the round's record is complete and joins the chain."""
        fair = self.round
        assert fair is not None
        record = replace(fair.record, host_seed=fair.deck.host_seed)
        chain = record.chain_hash()
        sig = sign(self._key, reveal_message(record.round_id, record.host_seed, chain))
        fair.record = replace(record, reveal_sig=sig)
        self.chain = chain
        dealer = None
        if fair.perm and self.match is not None and self.match.round is not None:
            dealer = self.match.round.dealer
        self.history.append((fair.record, fair.deck, fair.perm, dealer))
        self._broadcast(
            lambda seq, _: m.RoundReveal(
                seq=seq, round_id=record.round_id, host_seed=fair.deck.host_seed, sig=sig
            ),
            state=True,
        )

    def _end_round(self) -> None:
        """Score sheet, then the host's reveal, then (if it is over) the match result."""
        assert self.match is not None and self.match.round is not None
        fair = self.round
        assert fair is not None
        totals = self.match.results[-1].totals
        fair.record = replace(fair.record, plays=tuple(fair.plays), score=totals)
        self._score_sheet()
        self._reveal()
        self._match_end_or_between()

    def _score_sheet(self) -> None:
        """``round_end`` for the round just played out (any table's, blind or not)."""
        assert self.match is not None and self.match.round is not None
        result = self.match.results[-1]
        lines = score_lines(result)
        leftover = tuple(c.index for c in self.match.round.leftover_cards)
        scores = tuple(self.match.scores)
        round_no = self.round_no
        self._broadcast(
            lambda seq, _: m.RoundEnd(
                seq=seq, round_no=round_no, lines=lines, leftover=leftover, scores=scores
            ),
            state=True,
        )

    def _match_end_or_between(self) -> None:
        """After a round's reveal: the signed match end if the match is over, else BETWEEN."""
        if self.match is not None and self.match.over:
            self.phase = Phase.OVER
            scores = tuple(self.match.scores)
            winner = self.match.winner
            end_sig = sign(self._key, end_message(self.chain, scores, winner))
            self.end_sig = end_sig
            self._broadcast(
                lambda seq, _: m.MatchEnd(seq=seq, scores=scores, winner=winner, sig=end_sig),
                state=True,
            )
        else:
            self.phase = Phase.BETWEEN

    def _current(self, round_id: bytes, phase: Phase, what: str) -> RoundState:
        if self.phase is not phase or self.round is None:
            raise TableError(ErrorCode.WRONG_PHASE, f"cannot {what} now ({self.phase.value})")
        if not same_bytes(round_id, self.round.record.round_id):
            raise TableError(
                ErrorCode.WRONG_PHASE, f"round {round_id.hex()} is not the round in progress"
            )
        return self.round


__all__ = [
    "MAX_OFFENCES",
    "Phase",
    "Seat",
    "SeatKind",
    "Table",
    "TableError",
    "token_hash",
]
