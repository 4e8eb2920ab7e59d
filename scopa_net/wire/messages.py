"""The message catalogue: every message of the scopa-net protocol, with its fields.

Each class is a frozen, keyword-only dataclass; building one checks every field and raises
:class:`~scopa_net.wire.errors.LocalProtocolError` on a bad value. protocol.md section 3 lists
the same messages in words. Cards are ints 0..39 (``Card.index``), sets of cards are masks.
"""

from __future__ import annotations

from scopa_net.errors import IllegalReason, RuleSetError
from scopa_net.protocol_versions import OLDEST_VERSION, PROTOCOL_VERSION  # noqa: F401 (m.*)
from scopa_net.rules import PLAYER_COUNTS, RuleSet, Variant
from scopa_net.scoring import (
    CARDS_LINE,
    COINS_LINE,
    NAPOLA_LINE,
    PRIMIERA_LINE,
    RE_BELLO_LINE,
    SETTEBELLO_LINE,
    SWEEPS_LINE,
)
from scopa_net.text_limits import HOST_NAME_LEN, NAME_LEN, PASSWORD_LEN, SAY_LEN
from scopa_net.wire.errors import REFUSAL_WHYS, REJECT_CODES, ErrorCode, RefusalWhy
from scopa_net.wire.fields import (
    Absent,
    Array,
    Bin,
    Bool,
    Choice,
    FieldError,
    Int,
    Nested,
    Nil,
    Spec,
    Str,
)
from scopa_net.wire.records import Message, Record, Sender, message, record, wire

# PROTOCOL_VERSION (the newest spoken) and OLDEST_VERSION, read as this module's: defined
# apart (scopa_net.protocol_versions) so that --version names them without the codec.
WHY_SINCE = 5
"""The version whose ``error`` first carries the optional keys ``why`` and ``current_seq``."""
CLOSED_SINCE = 5
"""The version whose ``seat_status`` first carries the optional key ``closed``."""
KEY_PROOF_SINCE = 5
"""The version whose ``hello`` and ``welcome`` first carry ``challenge`` and ``key_proof``: a
host of it proves it holds the key it gives (protocol.md 5.3)."""
CHALLENGE_SIZE = 32
"""Bytes of the client's ``challenge``."""
NEWER_KEYS: dict[str, dict[str, int]] = {
    "hello": {"challenge": KEY_PROOF_SINCE},
    "welcome": {"key_proof": KEY_PROOF_SINCE},
    "error": {"why": WHY_SINCE, "current_seq": WHY_SINCE},
    "seat_status": {"closed": CLOSED_SINCE},
    "snapshot": {"stand_ins": 5, "redeal": 5, "makers": 5},
}
"""Optional keys added after :data:`OLDEST_VERSION`, by message type, with the version that
added each (protocol.md 3): never sent on a connection of an older version, and refused
(``bad_field``) when one arrives there."""

U32 = (1 << 32) - 1
MAX_SEAT = max(PLAYER_COUNTS) - 1
MAX_SIDE = 2
ALL_CARDS = (1 << 40) - 1
TEXT_LEN = 200
"""Longest human-readable message (error texts, chat as relayed)."""
MAX_TABLES_LISTED = 64
GRACE_MAX = 3600

SEAT = Int(0, MAX_SEAT)
SIDE = Int(0, MAX_SIDE)
CARD = Int(0, 39)
POS = Int(0, 39)
MASK = Int(0, ALL_CARDS)
SEQ = Int(1, U32)
TABLE_ID = Int(1, U32)
MOVE_ID = Int(1, U32)
NONCE = Int(0, U32)
ROUND_ID = Bin(16, 16)
HASH = Bin(32, 32)
SIG = Bin(64, 64)
SALT = Bin(16, 16)
TOKEN = Bin(16, 32)
NAME = Str(1, NAME_LEN)
TEXT = Str(0, TEXT_LEN)
PASSWORD = Str(1, PASSWORD_LEN)
SCORE = Int(0, 10_000)
PER_SIDE = (2, MAX_SIDE + 1)
PER_SEAT = (2, MAX_SEAT + 1)
SEAT_KINDS = ("open", "human", "bot")
LINE_NAMES = (
    CARDS_LINE,
    COINS_LINE,
    SETTEBELLO_LINE,
    PRIMIERA_LINE,
    SWEEPS_LINE,
    RE_BELLO_LINE,
    NAPOLA_LINE,
)
ALL_CODES = tuple(c.value for c in ErrorCode)
NOT_FATAL = tuple(c.value for c in ErrorCode if not c.fatal)
WHYS = tuple(w.value for w in RefusalWhy)
REJECTS = tuple(c.value for c in ErrorCode if c in REJECT_CODES)
ILLEGAL_REASONS = tuple(r.name.lower() for r in IllegalReason)
EXCLUSIONS = ("no_commit", "no_reveal", "bad_reveal")
VOID_REASONS = ("kings", "absent", "failed_check")
"""``absent`` and ``failed_check`` happen only at blind tables (protocol.md 9.7, 9.6)."""
PLAYER_REQUESTS = (
    "list_tables",
    "create_table",
    "join",
    "resume",
    "leave",
    "say",
    "rename",
    "seed_commit",
    "seed_reveal",
    "rematch",
    "blind_key",
    "blind_shuffle",
    "blind_shares",
    "blind_reveal",
)
REMATCH_STATES = ("open", "agreed", "declined")
REMATCH_VOTES = ("yes", "no", "waiting")


POINT = Bin(32, 32)
PROOF = Bin(64, 64)
CIPHERTEXT = Bin(64, 64)
SHUFFLE_PROOF = Bin(5280, 5280)
MAX_PARTIES = MAX_SEAT + 2
"""The host's party and one per seat: blind tables (protocol.md 9.1)."""
PER_PARTY = (2, MAX_PARTIES)
DEAL_NO = Int(1, 40)


def optional(spec: Spec, default: object, doc: str) -> object:
    """A field whose key is left out when it holds ``default`` (blind-table fields)."""
    return wire(Absent(spec, default), doc, default=default)


def _cards(lo: int, hi: int) -> Array:
    return Array(CARD, lo, hi, unique=True)


# --- nested records --------------------------------------------------------------------------


@record
class RulesInfo(Record):
    """A rule set: the same three things as :class:`scopa_net.rules.RuleSet`."""

    players: int = wire(Int(2, MAX_SEAT + 1), "2, 3, 4 or 6")
    target: int = wire(Int(1, 99), "points that win the match")
    variants: tuple[str, ...] = wire(
        Array(Choice(tuple(v.value for v in Variant)), 0, len(Variant), unique=True),
        "variant names (the values of `scopa_net.rules.Variant`)",
    )

    def check_fields(self) -> None:
        try:
            RuleSet.of(self.players, self.target, self.variants)
        except RuleSetError as e:
            raise FieldError("rules", str(e)) from None

    @classmethod
    def of(cls, rules: RuleSet) -> RulesInfo:
        return cls(
            players=rules.players,
            target=rules.target,
            variants=tuple(sorted(v.value for v in rules.variants)),
        )

    def to_rules(self) -> RuleSet:
        return RuleSet.of(self.players, self.target, self.variants)


@record
class SeatInfo(Record):
    kind: str = wire(Choice(SEAT_KINDS), "who holds the seat")
    name: str | None = wire(Nil(NAME), "the player's or bot's name; nil when open")
    connected: bool = wire(Bool(), "false while a person is away (and always for open seats)")

    def check_fields(self) -> None:
        if (self.kind == "open") != (self.name is None):
            raise FieldError("name", f"{self.name!r} does not fit a seat that is {self.kind}")


@record
class TableInfo(Record):
    id: int = wire(TABLE_ID, "table id, chosen by the host")
    name: str = wire(NAME, "table name")
    rules: RulesInfo = wire(Nested(RulesInfo), "the rule set")
    password: bool = wire(Bool(), "whether joining needs a password")
    seats: tuple[SeatInfo, ...] = wire(Array(Nested(SeatInfo), *PER_SEAT), "by seat number")
    bot_level: int | None = wire(Nil(Int(1, 5)), "strength of the table's bots, nil if none")
    started: bool = wire(Bool(), "whether the match has begun")
    blind: bool = optional(Bool(), False, "a blind table: not even the host sees the cards (9)")

    def check_fields(self) -> None:
        if len(self.seats) != self.rules.players:
            raise FieldError("seats", f"{len(self.seats)} seats for {self.rules.players} players")


@record
class DealtCard(Record):
    pos: int = wire(POS, "the card's position in the deck order")
    card: int = wire(CARD, "the card")
    salt: bytes = wire(SALT, "its salt from the host's commitment")


@record
class PlayInfo(Record):
    seat: int = wire(SEAT, "who played")
    card: int = wire(CARD, "the card played")
    captured: int = wire(MASK, "mask of the table cards taken, 0 if none")
    sweep: bool = wire(
        Bool(),
        "whether it is a sweep that scores (not on the last play, but in scopone_scientifico)",
    )


@record
class ScoreLineInfo(Record):
    """One line of a score sheet, as :class:`scopa_net.scoring.ScoreLine`."""

    name: str = wire(Choice(LINE_NAMES), "the line")
    figures: tuple[int, ...] = wire(Array(Int(0, 1000), *PER_SIDE), "what each side showed")
    points: tuple[int, ...] = wire(Array(Int(0, 40), *PER_SIDE), "what each side scored")
    winner: int | None = wire(Nil(SIDE), "the side that took the line, or nil")

    def check_fields(self) -> None:
        if len(self.points) != len(self.figures):
            raise FieldError("points", f"{self.points!r} and {self.figures!r} differ in length")


def _check_dealt(cards: tuple[DealtCard, ...], path: str) -> None:
    if len({c.pos for c in cards}) != len(cards) or len({c.card for c in cards}) != len(cards):
        raise FieldError(path, "a deck position or a card appears twice")


def _check_sheet(lines: tuple[ScoreLineInfo, ...], scores: tuple[int, ...], path: str) -> None:
    """Every line of a score sheet covers as many sides as the scores do, each line once."""
    if any(len(line.points) != len(scores) for line in lines):
        raise FieldError(path, f"a line does not have one entry per side ({len(scores)})")
    if len({line.name for line in lines}) != len(lines):
        raise FieldError(path, "a line appears twice")


def _check_play(card: int, captured: int) -> None:
    if captured >> card & 1:
        raise FieldError("captured", f"mask {captured:#x} holds the played card {card}")


# --- handshake and connection ----------------------------------------------------------------


@message("hello", Sender.PLAYER)
class Hello(Message):
    version: int = wire(Int(1, 0xFFFF), "protocol version the client speaks")
    client: str = wire(Str(1, 64), "client software name, for the host's log")
    challenge: bytes | None = optional(
        Nil(Bin(CHALLENGE_SIZE, CHALLENGE_SIZE)),
        None,
        "protocol 5: random bytes for this connection, for the host to sign (5.3)",
    )


@message("welcome", Sender.HOST)
class Welcome(Message):
    version: int = wire(Int(1, 0xFFFF), "protocol version, equal to the client's")
    host_name: str = wire(Str(1, HOST_NAME_LEN), "the host's name")
    host_key: bytes = wire(Bin(32, 32), "the host's Ed25519 public key")
    key_proof: bytes | None = optional(
        Nil(Bin(64, 64)),
        None,
        "protocol 5: the host's signature over the `challenge` (5.3), exactly when one came",
    )


@message("ping", Sender.EITHER)
class Ping(Message):
    nonce: int = wire(NONCE, "echoed in the `pong`")


@message("pong", Sender.EITHER)
class Pong(Message):
    nonce: int = wire(NONCE, "the nonce of an unanswered `ping`")


@message("error", Sender.HOST)
class Error(Message):
    code: str = wire(Choice(NOT_FATAL), "a code that leaves the connection open")
    message: str = wire(TEXT, "for people")
    ref: str | None = wire(Nil(Choice(PLAYER_REQUESTS)), "type of the request refused, or nil")
    why: str | None = optional(
        Nil(Choice(WHYS)), None, "protocol 5: why, where a client acts on it (3.8)"
    )
    current_seq: int | None = optional(
        Nil(Int(0, U32)),
        None,
        "protocol 5: with `stale`: the host's newest seq for this seat (3.8)",
    )

    def check_fields(self) -> None:
        if self.why is not None and REFUSAL_WHYS[RefusalWhy(self.why)].value != self.code:
            raise FieldError("why", f"{self.why!r} goes with another code than {self.code!r}")
        if self.current_seq is not None and self.code != ErrorCode.STALE.value:
            raise FieldError("current_seq", f"{self.current_seq!r} does not fit {self.code!r}")


@message("bye", Sender.EITHER)
class Bye(Message):
    reason: str = wire(Choice(ALL_CODES), "why the connection ends")
    message: str = wire(TEXT, "for people")


# --- lobby -----------------------------------------------------------------------------------


@message("list_tables", Sender.PLAYER)
class ListTables(Message):
    pass


@message("tables", Sender.HOST)
class Tables(Message):
    tables: tuple[TableInfo, ...] = wire(
        Array(Nested(TableInfo), 0, MAX_TABLES_LISTED), "open tables, at most 64"
    )


@message("create_table", Sender.PLAYER)
class CreateTable(Message):
    name: str = wire(NAME, "table name")
    rules: RulesInfo = wire(Nested(RulesInfo), "the rule set")
    password: str | None = wire(Nil(PASSWORD), "needed to join, or nil for none")
    bots: int = wire(Int(0, MAX_SEAT), "seats given to bots at once (the highest numbers)")
    bot_level: int = wire(Int(1, 5), "bot strength")
    blind: bool = optional(Bool(), False, "a blind table (protocol.md 9)")

    def check_fields(self) -> None:
        if self.bots >= self.rules.players:
            raise FieldError("bots", f"{self.bots} bots leave no seat of {self.rules.players}")


@message("table_created", Sender.HOST)
class TableCreated(Message):
    table: TableInfo = wire(Nested(TableInfo), "the new table")


@message("join", Sender.PLAYER)
class Join(Message):
    table_id: int = wire(TABLE_ID, "table to join")
    seat: int | None = wire(Nil(SEAT), "seat wanted, or nil for any open seat")
    name: str = wire(NAME, "the player's name")
    password: str | None = wire(Nil(PASSWORD), "the table's password, or nil")


@message("joined", Sender.HOST)
class Joined(Message):
    table_id: int = wire(TABLE_ID, "the table")
    seat: int = wire(SEAT, "the seat given")
    token: bytes = wire(TOKEN, "seat token for `resume`; keep it secret")
    epoch: int = wire(Int(1, U32), "the seat's epoch, one more at every join or resume")


@message("resume", Sender.PLAYER)
class Resume(Message):
    table_id: int = wire(TABLE_ID, "the table")
    seat: int = wire(SEAT, "the seat held")
    token: bytes = wire(TOKEN, "the newest token the host gave for this seat")
    last_seq: int = wire(Int(0, U32), "the last seq received, 0 if none")


@message("resumed", Sender.HOST)
class Resumed(Message):
    table_id: int = wire(TABLE_ID, "the table")
    seat: int = wire(SEAT, "the seat")
    token: bytes = wire(TOKEN, "a fresh token; the old one is dead")
    epoch: int = wire(Int(1, U32), "the seat's new epoch")
    catch_up: str = wire(Choice(("replay", "snapshot")), "how missed events follow")


@message("leave", Sender.PLAYER)
class Leave(Message):
    away: bool = wire(
        Bool(),
        "true: step away, the seat is held; false: give the seat up for good",
        default=False,
    )


@message("left", Sender.HOST)
class Left(Message):
    table_id: int = wire(TABLE_ID, "the table")
    seat: int = wire(SEAT, "the seat given up")


# --- moves and chat (player -> host) ---------------------------------------------------------


@message("play", Sender.PLAYER)
class Play(Message):
    move_id: int = wire(MOVE_ID, "chosen by the client, new for each move")
    after: int = wire(Int(0, U32), "the last seq the client had when it chose the move")
    card: int = wire(CARD, "the card played")
    captured: int = wire(MASK, "mask of the table cards taken, 0 to lay the card")
    pos: int | None = optional(Nil(POS), None, "blind tables: the card's deck position")
    proof: bytes | None = optional(Nil(PROOF), None, "blind tables: the play proof (9.4)")

    def check_fields(self) -> None:
        _check_play(self.card, self.captured)
        if (self.pos is None) != (self.proof is None):
            raise FieldError("proof", "a blind play has both pos and proof, any other neither")


@message("say", Sender.PLAYER)
class Say(Message):
    text: str = wire(Str(1, SAY_LEN), "chat text; the host refuses over 200 characters")


@message("rename", Sender.PLAYER)
class Rename(Message):
    name: str = wire(NAME, "the name wanted; the host makes it safe and tells every seat")


@message("ack", Sender.HOST)
class Ack(Message):
    move_id: int = wire(MOVE_ID, "the move accepted")
    seq: int = wire(SEQ, "seq of the `played` event it produced")
    duplicate: bool = wire(Bool(), "true if this move id had already been applied")


@message("reject", Sender.HOST)
class Reject(Message):
    move_id: int = wire(MOVE_ID, "the move refused")
    code: str = wire(Choice(REJECTS), "why")
    reason: str | None = wire(
        Nil(Choice(ILLEGAL_REASONS)), "with `illegal_play`: which rule, else nil"
    )
    message: str = wire(TEXT, "for people")
    current_seq: int | None = wire(
        Nil(Int(0, U32)), "with `stale`: the host's newest seq for this seat, else nil"
    )

    def check_fields(self) -> None:
        if (self.code == ErrorCode.ILLEGAL_PLAY.value) != (self.reason is not None):
            raise FieldError("reason", f"{self.reason!r} does not fit code {self.code!r}")
        if (self.code == ErrorCode.STALE.value) != (self.current_seq is not None):
            raise FieldError("current_seq", f"{self.current_seq!r} does not fit {self.code!r}")


# --- fair deals (player -> host) -------------------------------------------------------------


@message("seed_commit", Sender.PLAYER)
class SeedCommit(Message):
    round_id: bytes = wire(ROUND_ID, "the round")
    commit: bytes = wire(HASH, "commitment to the seat's seed")


@message("seed_reveal", Sender.PLAYER)
class SeedReveal(Message):
    round_id: bytes = wire(ROUND_ID, "the round")
    seed: bytes = wire(HASH, "the seat's seed")


@message("rematch", Sender.PLAYER)
class Rematch(Message):
    agree: bool = wire(Bool(), "true to play again with the same seats and rules, false to decline")


# --- table events (host -> seat, numbered) ---------------------------------------------------


@message("seat_status", Sender.HOST, sequenced=True)
class SeatStatus(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    seat: int = wire(SEAT, "the seat described")
    kind: str = wire(Choice(SEAT_KINDS), "who holds it now")
    name: str | None = wire(Nil(NAME), "nil when open")
    connected: bool = wire(Bool(), "false while its player is away")
    grace: int = wire(Int(0, GRACE_MAX), "seconds left before a bot stands in (0 if none)")
    stand_in: bool = wire(Bool(), "whether a bot is playing for the absent player")
    away: bool = wire(
        Bool(), "the player stepped away on purpose (not a dropped connection)", default=False
    )
    closed: bool = optional(
        Bool(), False, "version 5 on: the player's client said bye as it closed (not a drop)"
    )

    def check_fields(self) -> None:
        if (self.kind == "open") != (self.name is None):
            raise FieldError("name", f"{self.name!r} does not fit a seat that is {self.kind}")
        if self.closed and (self.connected or self.away or self.kind != "human"):
            raise FieldError("closed", "only a person's seat left without `leave` is closed")


@message("chat", Sender.HOST, sequenced=True)
class Chat(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    seat: int | None = wire(Nil(SEAT), "who spoke; nil for the host itself")
    text: str = wire(Str(1, TEXT_LEN), "what was said")


@message("round_commit", Sender.HOST, sequenced=True)
class RoundCommit(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "fresh for every deal attempt")
    round_no: int = wire(Int(1, U32), "round number in the match, from 1")
    prev: bytes = wire(HASH, "link to the previous round's transcript")
    card_hashes: tuple[bytes, ...] = wire(Array(HASH, 40, 40), "salted hash of each card")
    digest: bytes = wire(HASH, "digest over the card hashes")
    sig: bytes = wire(SIG, "the host's Ed25519 signature")


@message("seed_commits", Sender.HOST, sequenced=True)
class SeedCommits(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    commits: tuple[bytes | None, ...] = wire(
        Array(Nil(HASH), *PER_SEAT), "by seat: its commitment, nil if it sent none (5.4)"
    )


@message("seed_reveals", Sender.HOST, sequenced=True)
class SeedReveals(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    seeds: tuple[bytes | None, ...] = wire(
        Array(Nil(HASH), *PER_SEAT), "by seat: the seed the host received, or nil"
    )
    excluded: tuple[str | None, ...] = wire(
        Array(Nil(Choice(EXCLUSIONS)), *PER_SEAT),
        "by seat: why its seed does not count, or nil (5.4)",
    )

    def check_fields(self) -> None:
        if len(self.excluded) != len(self.seeds):
            raise FieldError("excluded", f"{len(self.excluded)} entries for {len(self.seeds)}")


@message("seed_receipt", Sender.HOST, sequenced=True)
class SeedReceipt(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    seat: int = wire(SEAT, "the seat whose seed arrived (the receiving seat)")
    seed_hash: bytes = wire(HASH, "the commitment the seed received opens (5.4)")
    sig: bytes = wire(SIG, "the host's signature on the receipt")


@message("round_void", Sender.HOST, sequenced=True)
class RoundVoid(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round abandoned")
    reason: str = wire(
        Choice(VOID_REASONS), "why: kings on the opening table; blind tables also 9.6, 9.7"
    )
    offender: int | None = optional(Nil(SEAT), None, "the seat absent, or that stopped")


@message("deal", Sender.HOST, sequenced=True)
class Deal(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    hand: tuple[DealtCard, ...] = wire(Array(Nested(DealtCard), 0, 10), "the seat's own cards")
    table: tuple[DealtCard, ...] = wire(
        Array(Nested(DealtCard), 0, 4), "cards laid face up (first deal only)"
    )
    stock: int = wire(Int(0, 40), "cards left undealt after this deal")

    def check_fields(self) -> None:
        _check_dealt(self.hand + self.table, "hand")


@message("played", Sender.HOST, sequenced=True)
class Played(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    seat: int = wire(SEAT, "who played")
    card: int = wire(CARD, "the card")
    captured: int = wire(MASK, "mask of the table cards taken")
    sweep: bool = wire(
        Bool(),
        "whether it is a sweep that scores (not on the last play, but in scopone_scientifico)",
    )
    pos: int = wire(POS, "the card's deck position")
    salt: bytes | None = wire(Nil(SALT), "its salt; nil at a blind table")
    proof: bytes | None = optional(Nil(PROOF), None, "blind tables: the play proof (9.4)")

    def check_fields(self) -> None:
        _check_play(self.card, self.captured)
        if (self.salt is None) == (self.proof is None):
            raise FieldError("proof", "a play has a salt, or at a blind table a proof")


@message("round_reveal", Sender.HOST, sequenced=True)
class RoundReveal(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    host_seed: bytes = wire(HASH, "the host's secret seed")
    sig: bytes = wire(SIG, "the host's signature")


@message("round_end", Sender.HOST, sequenced=True)
class RoundEnd(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_no: int = wire(Int(1, U32), "the round scored")
    lines: tuple[ScoreLineInfo, ...] = wire(
        Array(Nested(ScoreLineInfo), 1, len(LINE_NAMES)), "the score sheet"
    )
    leftover: tuple[int, ...] = wire(_cards(0, 40), "table cards the last capturer took")
    scores: tuple[int, ...] = wire(Array(SCORE, *PER_SIDE), "match points by side, after it")

    def check_fields(self) -> None:
        _check_sheet(self.lines, self.scores, "lines")


@message("match_end", Sender.HOST, sequenced=True)
class MatchEnd(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    scores: tuple[int, ...] = wire(Array(SCORE, *PER_SIDE), "final match points by side")
    winner: int | None = wire(Nil(SIDE), "the winning side, nil if the match was abandoned")
    sig: bytes = wire(SIG, "the host's signature on the end (5.9)")


@message("rematch_status", Sender.HOST, sequenced=True)
class RematchStatus(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    match_no: int = wire(Int(1, U32), "the match just over, counting from 1 at this table")
    state: str = wire(Choice(REMATCH_STATES), "where the vote stands")
    votes: tuple[str, ...] = wire(Array(Choice(REMATCH_VOTES), *PER_SEAT), "each seat's answer")
    seconds: int = wire(Int(0, GRACE_MAX), "seconds left to answer while open, else 0")


@message("snapshot", Sender.HOST, sequenced=True)
class Snapshot(Message):
    """Everything in :class:`scopa_net.view.SeatView`; it stands for every event up to seq."""

    seq: int = wire(Int(0, U32), "the last event it includes; the next event is seq + 1")
    table_id: int = wire(TABLE_ID, "the table")
    seat: int = wire(SEAT, "the seat it is for")
    side: int = wire(SIDE, "that seat's side")
    rules: RulesInfo = wire(Nested(RulesInfo), "the rule set")
    dealer: int = wire(SEAT, "dealer of the round in play or just over; 0 while round_no is 0")
    round_no: int = wire(Int(0, U32), "round number, 0 before the first deal")
    to_move: int | None = wire(Nil(SEAT), "seat to play, or nil")
    hand: tuple[int, ...] = wire(_cards(0, 10), "the seat's own cards")
    table: tuple[int, ...] = wire(_cards(0, 40), "cards face up on the table")
    hand_counts: tuple[int, ...] = wire(Array(Int(0, 10), *PER_SEAT), "cards in hand by seat")
    stock: int = wire(Int(0, 40), "cards not yet dealt")
    pile_counts: tuple[int, ...] = wire(Array(Int(0, 40), *PER_SIDE), "cards taken, by side")
    sweeps: tuple[int, ...] = wire(Array(Int(0, 40), *PER_SIDE), "sweeps this round, by side")
    scores: tuple[int, ...] = wire(
        Array(SCORE, *PER_SIDE), "match points before this round, even once it is over"
    )
    plays: tuple[PlayInfo, ...] = wire(Array(Nested(PlayInfo), 0, 40), "this round's plays")
    void_deal: bool = wire(Bool(), "the opening table was void (three or more kings)")
    round_over: bool = wire(Bool(), "the round has been scored")
    leftover: tuple[int, ...] = wire(_cards(0, 40), "at round end, cards the last capturer took")
    round_score: tuple[ScoreLineInfo, ...] | None = wire(
        Nil(Array(Nested(ScoreLineInfo), 1, len(LINE_NAMES))), "the sheet once the round is over"
    )
    winner: int | None = wire(Nil(SIDE), "the side that won the match, or nil")
    seats: tuple[SeatInfo, ...] = wire(
        Array(Nested(SeatInfo), 0, MAX_SEAT + 1),
        "who holds each seat, by seat (names included); empty if the host does not say",
        default=(),
    )
    voids: int = optional(Int(0, U32), 0, "rounds of this match void so far, kings included")
    computer_plays: tuple[int, ...] = optional(
        Array(Int(0, 39), 0, 40, unique=True),
        (),
        "this round's plays (by index in plays) a computer made for a person's seat",
    )
    people: tuple[int, ...] = optional(
        Array(SEAT, 0, MAX_SEAT + 1, unique=True),
        (),
        "at a blind table, the seats people play this round, as its blind_round says",
    )
    stand_ins: tuple[int, ...] = optional(
        Array(SEAT, 0, MAX_SEAT + 1, unique=True),
        (),
        "the seats a computer plays for their absent person, as their last seat_status says",
    )
    redeal: bool = optional(Bool(), False, "round round_no deals again round_no - 1, void")
    makers: tuple[str, ...] = optional(
        Array(NAME, 0, 40), (), "by play, the name of whoever held its seat when it was made"
    )

    def check_fields(self) -> None:
        rules = self.rules.to_rules()
        if any(i >= len(self.plays) for i in self.computer_plays):
            raise FieldError("computer_plays", f"{self.computer_plays!r} are not all plays")
        if self.makers and len(self.makers) != len(self.plays):
            raise FieldError("makers", f"{len(self.makers)} names for {len(self.plays)} plays")
        if list(self.people) != sorted(self.people):
            raise FieldError("people", f"{self.people!r} is not in seat order")
        if any(s >= rules.players for s in self.people):
            raise FieldError("people", f"{self.people!r} are not all seats")
        if list(self.stand_ins) != sorted(self.stand_ins):
            raise FieldError("stand_ins", f"{self.stand_ins!r} is not in seat order")
        if any(s >= rules.players for s in self.stand_ins):
            raise FieldError("stand_ins", f"{self.stand_ins!r} are not all seats")
        if self.redeal and self.round_no < 2:
            raise FieldError("redeal", f"round {self.round_no} cannot deal a void round again")
        if self.seats and len(self.seats) != rules.players:
            raise FieldError("seats", f"{len(self.seats)} entries for {rules.players} seats")
        if self.seat >= rules.players:
            raise FieldError("seat", f"{self.seat} is not a seat at a {rules.players} table")
        if self.side != rules.side_of(self.seat):
            raise FieldError("side", f"seat {self.seat} is on side {rules.side_of(self.seat)}")
        seats = [self.dealer, *(p.seat for p in self.plays)]
        if self.to_move is not None:
            seats.append(self.to_move)
        if max(seats) >= rules.players:
            raise FieldError("seat", f"{max(seats)} is not a seat at a {rules.players} table")
        if self.winner is not None and self.winner >= rules.side_count:
            raise FieldError("winner", f"{self.winner} is not a side of {rules.side_count}")
        if len(self.hand_counts) != rules.players:
            raise FieldError("hand_counts", f"{self.hand_counts!r} is not one count per seat")
        for name in ("pile_counts", "sweeps", "scores"):
            if len(getattr(self, name)) != rules.side_count:
                raise FieldError(name, f"{getattr(self, name)!r} is not one entry per side")
        _check_sheet(self.round_score or (), self.scores, "round_score")


# --- blind tables (protocol.md 9.5) ----------------------------------------------------------


@record
class KeyInfo(Record):
    """A party's public key for one blind round (protocol.md 9.3, 9.4)."""

    point: bytes = wire(POINT, "its public key X = x·B")
    proof: bytes = wire(PROOF, "the key proof, e || z")
    sign_key: bytes = wire(POINT, "the Ed25519 key that signs its decks and shares")


@message("blind_round", Sender.HOST, sequenced=True)
class BlindRound(Message):
    """A blind table's ``round_commit`` (9.5.1)."""

    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "fresh for every round")
    round_no: int = wire(Int(1, U32), "round number in the match, from 1")
    prev: bytes = wire(HASH, "link to the previous round's chain hash")
    people: tuple[int, ...] = wire(
        Array(SEAT, 1, MAX_SEAT + 1, unique=True), "the seats people play, in order: parties 1.."
    )
    key: KeyInfo = wire(Nested(KeyInfo), "the host party's key")
    sig: bytes = wire(SIG, "the host's signature over the commit message with blind_digest")

    def check_fields(self) -> None:
        if list(self.people) != sorted(self.people):
            raise FieldError("people", f"{self.people!r} is not in seat order")


@message("blind_key", Sender.PLAYER)
class BlindKey(Message):
    round_id: bytes = wire(ROUND_ID, "the round")
    key: KeyInfo = wire(Nested(KeyInfo), "this seat's party key")


@message("blind_keys", Sender.HOST, sequenced=True)
class BlindKeys(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    keys: tuple[KeyInfo, ...] = wire(Array(Nested(KeyInfo), *PER_PARTY), "by party")
    dealer: int = wire(SEAT, "the round's dealer (the match's first deal: from the keys, 9.5.5)")


@message("blind_deck", Sender.HOST, sequenced=True)
class BlindDeck(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    party: int = wire(Int(0, MAX_PARTIES - 1), "whose shuffle this is")
    deck: tuple[bytes, ...] = wire(Array(CIPHERTEXT, 40, 40), "its output, U || V by position")
    proof: bytes = wire(SHUFFLE_PROOF, "the proof that it is a shuffle of the deck before it")
    sig: bytes = wire(SIG, "that party's signature over the deck and the proof")


@message("blind_shuffle", Sender.PLAYER)
class BlindShuffle(Message):
    round_id: bytes = wire(ROUND_ID, "the round")
    deck: tuple[bytes, ...] = wire(Array(CIPHERTEXT, 40, 40), "this seat's shuffle")
    proof: bytes = wire(SHUFFLE_PROOF, "the proof that it is a shuffle of the deck before it")
    sig: bytes = wire(SIG, "its party signature over the deck and the proof")


@message("blind_open", Sender.HOST, sequenced=True)
class BlindOpen(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    deal: int = wire(DEAL_NO, "the deal to open, from 1")
    shares: tuple[bytes, ...] = wire(
        Array(POINT, 0, 40), "the host party's shares of the deal, x·U per position, in order"
    )
    sig: bytes = wire(SIG, "the host party's signature over them")


@message("blind_shares", Sender.PLAYER)
class BlindShares(Message):
    round_id: bytes = wire(ROUND_ID, "the round")
    deal: int = wire(DEAL_NO, "the deal")
    shares: tuple[bytes, ...] = wire(Array(POINT, 0, 40), "x·U per position shared, in order")
    sig: bytes = wire(SIG, "its party signature")


@message("blind_deal", Sender.HOST, sequenced=True)
class BlindDeal(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    deal: int = wire(DEAL_NO, "the deal")
    shares: tuple[tuple[bytes, ...], ...] = wire(
        Array(Array(POINT, 0, 40), *PER_PARTY), "by party: its shares"
    )
    sigs: tuple[bytes, ...] = wire(Array(SIG, *PER_PARTY), "by party: its signature")
    stock: int = wire(Int(0, 40), "cards left undealt after this deal")

    def check_fields(self) -> None:
        if len(self.sigs) != len(self.shares):
            raise FieldError("sigs", f"{len(self.sigs)} signatures for {len(self.shares)}")


@message("blind_reveal", Sender.PLAYER)
class BlindReveal(Message):
    round_id: bytes = wire(ROUND_ID, "the round, over")
    seed: bytes = wire(HASH, "this seat's party seed")


@message("blind_reveals", Sender.HOST, sequenced=True)
class BlindReveals(Message):
    seq: int = wire(SEQ, "per-seat sequence number")
    round_id: bytes = wire(ROUND_ID, "the round")
    seeds: tuple[bytes | None, ...] = wire(
        Array(Nil(HASH), *PER_PARTY), "by party: its seed, nil if it never came"
    )
