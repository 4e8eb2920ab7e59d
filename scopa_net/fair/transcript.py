"""One seat's record of a whole match, its file format, and the chain from round to round.

A transcript holds what the seat saw: the rule set, the host's public key, and for every round
the public commit-reveal data, the seat's own hand cards with their salts, the opening table,
every play, the void notice if any, the host's claimed score, and the host's reveal. The file is
the canonical msgpack encoding of :meth:`Transcript.to_wire` (protocol.md section 6); a file
that is not exactly that encoding is refused.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from typing import Any

import msgpack

from scopa_net.errors import RuleSetError
from scopa_net.fair.commitments import EXCLUSION_CODES, EXCLUSION_REASONS
from scopa_net.fair.errors import (
    CutShortError,
    NotATranscriptError,
    OtherVersionError,
    TranscriptFormatError,
)
from scopa_net.fair.hashing import (
    HASH_SIZE,
    PUBLIC_KEY_SIZE,
    ROUND_ID_SIZE,
    SALT_SIZE,
    SEED_SIZE,
    SIGNATURE_SIZE,
    TAG_CHAIN,
    tagged_hash,
    u8,
    u32,
)
from scopa_net.rules import RuleSet
from scopa_net.wire.codec import msgpack_failure

FORMAT_NAME = "scopa-net transcript"
FORMAT_VERSION = 2
"""A transcript of an ordinary table that does not say who could send each seat's seed: what
clients wrote before version 5, and what a host's export writes (protocol.md 6.1)."""
SEATED_FORMAT_VERSION = 5
"""A seat's transcript of an ordinary table whose rounds record, by seat, who could send its
seed as the seat's client knew it (``seated``, protocol.md 6.1): what clients write now."""
CAUGHT_UP_FORMAT_VERSION = 7
"""A seat's transcript of an ordinary table, rounds as version 5's, whose seat was caught up by
snapshot and did not take its own chain up again: a ``caught_up`` key says what the snapshot
told of the match before the rounds the seat followed since (protocol.md 6.1)."""
BLIND_CAUGHT_UP_FORMAT_VERSION = 8
"""A seat's transcript of a blind table, rounds as version 6's, whose seat was caught up by
snapshot and did not take its own chain up again: version 7's ``caught_up`` key (protocol.md
9.8)."""
CAUGHT_UP_AGAIN_FORMAT_VERSION = 9
"""Version 7 whose seat was caught up more than once, following rounds between: its
``caught_up`` an array of two or more maps (protocol.md 6.1). A version of its own, so that a
reader of version 7's one map says it cannot read this file, not that it is damaged."""
BLIND_CAUGHT_UP_AGAIN_FORMAT_VERSION = 10
"""Version 8 with version 9's array ``caught_up`` (protocol.md 9.8)."""
CAUGHT_UP_FORMAT_VERSIONS = (
    CAUGHT_UP_FORMAT_VERSION,
    BLIND_CAUGHT_UP_FORMAT_VERSION,
    CAUGHT_UP_AGAIN_FORMAT_VERSION,
    BLIND_CAUGHT_UP_AGAIN_FORMAT_VERSION,
)
"""The versions whose file has a ``caught_up`` key: an ordinary table's, a blind table's, with
one map or (9 and 10) an array."""
CAUGHT_UP_AGAIN_FORMAT_VERSIONS = (
    CAUGHT_UP_AGAIN_FORMAT_VERSION,
    BLIND_CAUGHT_UP_AGAIN_FORMAT_VERSION,
)
"""The versions whose ``caught_up`` is an array of two or more maps."""
PLAIN_FORMAT_VERSIONS = (
    FORMAT_VERSION,
    SEATED_FORMAT_VERSION,
    CAUGHT_UP_FORMAT_VERSION,
    CAUGHT_UP_AGAIN_FORMAT_VERSION,
)
SEATED_PERSON = "person"
SEATED_COMPUTER = "computer"
SEATED_ABSENT = "absent"
SEATED_KINDS = (SEATED_PERSON, SEATED_COMPUTER, SEATED_ABSENT)
"""A round's ``seated`` entries: a seat a person's client held since the round began, a
computer player's seat, a person's seat nobody's client held since the round began."""
BLIND_FORMAT_VERSION = 4
"""The version of a blind table's transcript (protocol.md 9.8): same file, blind rounds. What
a host's export writes, and clients before version 6."""
BLIND_SEATED_FORMAT_VERSION = 6
"""A seat's blind transcript whose rounds record, by seat, whether a person or a computer held
it as the seat's client knew it at ``blind_round`` (``seated``, 9.8): what clients write now."""
BLIND_FORMAT_VERSIONS = (
    3,
    BLIND_FORMAT_VERSION,
    BLIND_SEATED_FORMAT_VERSION,
    BLIND_CAUGHT_UP_FORMAT_VERSION,
    BLIND_CAUGHT_UP_AGAIN_FORMAT_VERSION,
)
"""Blind transcripts a verifier reads: version 3 was written before decks carried proofs."""
MAX_FILE_SIZE = 4 << 20
VOID_KINGS = "kings"
"""The void reason for three or more kings among the opening table cards."""
PLAY_HEAD = struct.Struct(">BQB")
"""A play in the chain hash before its salt: ``u8(seat) || u64(code) || u8(pos)``."""


@dataclass(frozen=True, slots=True)
class DealtCard:
    """A card as it arrived: deck position, card index, salt."""

    pos: int
    card: int
    salt: bytes


@dataclass(frozen=True, slots=True)
class PlayEntry:
    """A play as it was announced: the seat, the play code, and the played card's position and
    salt."""

    seat: int
    code: int
    pos: int
    salt: bytes


@dataclass(frozen=True, slots=True)
class VoidNotice:
    reason: str
    offender: int | None


@dataclass(frozen=True, slots=True)
class Receipt:
    """The host's signed acknowledgement of a seat's seed: the commitment the seed it received
    opens, and its signature (protocol.md section 5.4)."""

    seed_hash: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class Stopped:
    """Why a client stopped playing: the failed check, saved with the transcript as evidence."""

    round_no: int
    check: str
    detail: str


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """What the last snapshot that caught a seat up told it of the match (the host's word: a
    snapshot is not signed), as the seat carried it on over the rounds that ended unfollowed
    (protocol.md 5.10, 6.1): the last round dealt, the match points before the next round the
    seat follows, and that round's dealer (None: no round dealt)."""

    round_no: int
    scores: tuple[int, ...]
    dealer: int | None

    def to_wire(self) -> dict[str, Any]:
        return {"round_no": self.round_no, "scores": list(self.scores), "dealer": self.dealer}


@dataclass(frozen=True, slots=True)
class RoundRecord:
    round_id: bytes
    round_no: int
    prev: bytes
    card_hashes: tuple[bytes, ...]
    digest: bytes
    sig: bytes
    commits: tuple[bytes | None, ...] | None
    seeds: tuple[bytes | None, ...] | None
    excluded: tuple[str | None, ...] | None
    """By seat: why its seed does not count (``no_commit``, ``no_reveal``, ``bad_reveal``), or
    None; from ``seed_reveals``."""
    receipt: Receipt | None
    """This seat's receipt for its own seed, if the host sent one."""
    hand: tuple[DealtCard, ...]
    table: tuple[DealtCard, ...]
    plays: tuple[PlayEntry, ...]
    void: VoidNotice | None
    score: tuple[int, ...] | None
    host_seed: bytes | None
    reveal_sig: bytes | None
    seated: tuple[str, ...] | None = None
    """By seat, who could send its seed (:data:`SEATED_KINDS`) as this seat's client knew it
    when the commitments were relayed; None before that, and in a version 2 file."""

    @classmethod
    def opened(
        cls,
        *,
        round_id: bytes,
        round_no: int,
        prev: bytes,
        card_hashes: tuple[bytes, ...],
        digest: bytes,
        sig: bytes,
    ) -> RoundRecord:
        """A round as its ``round_commit`` announces it, before anything else is known."""
        return cls(
            round_id=round_id,
            round_no=round_no,
            prev=prev,
            card_hashes=tuple(card_hashes),
            digest=digest,
            sig=sig,
            commits=None,
            seeds=None,
            excluded=None,
            receipt=None,
            hand=(),
            table=(),
            plays=(),
            void=None,
            score=None,
            host_seed=None,
            reveal_sig=None,
        )

    def chain_hash(self) -> bytes:
        """The hash of the public record of this round: the next round's ``prev``, and what
        the host signs (with its seed) in ``round_reveal``. Hand cards are private and left
        out, so every seat computes the same value."""
        table = b"".join([bytes((c.pos, c.card)) + c.salt for c in self.table])
        plays = b"".join([PLAY_HEAD.pack(p.seat, p.code, p.pos) + p.salt for p in self.plays])
        return tagged_hash(
            TAG_CHAIN,
            self.round_id,
            u32(self.round_no),
            self.prev,
            self.digest,
            slots_bytes(self.commits),
            slots_bytes(self.seeds),
            b""
            if self.excluded is None
            else b"".join(u8(EXCLUSION_CODES[x]) for x in self.excluded),
            table,
            plays,
            b"" if self.void is None else self.void.reason.encode("utf-8"),
            b"" if self.void is None or self.void.offender is None else u8(self.void.offender),
            self.host_seed or b"",
        )

    def to_wire(self, *, seated: bool = False) -> dict[str, Any]:
        """The round as a file of version 5 (``seated``) or 2 writes it."""
        head = {
            "round_id": self.round_id,
            "round_no": self.round_no,
            "prev": self.prev,
            "card_hashes": list(self.card_hashes),
            "digest": self.digest,
            "sig": self.sig,
        }
        if seated:
            head["seated"] = None if self.seated is None else list(self.seated)
        return head | {
            "commits": None if self.commits is None else list(self.commits),
            "seeds": None if self.seeds is None else list(self.seeds),
            "excluded": None if self.excluded is None else list(self.excluded),
            "receipt": None
            if self.receipt is None
            else {"seed_hash": self.receipt.seed_hash, "sig": self.receipt.sig},
            "hand": [[c.pos, c.card, c.salt] for c in self.hand],
            "table": [[c.pos, c.card, c.salt] for c in self.table],
            "plays": [[p.seat, p.code, p.pos, p.salt] for p in self.plays],
            "void": None
            if self.void is None
            else {"reason": self.void.reason, "offender": self.void.offender},
            "score": None if self.score is None else list(self.score),
            "host_seed": self.host_seed,
            "reveal_sig": self.reveal_sig,
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    """What the host announced last: match points by side, and the winning side if any."""

    scores: tuple[int, ...]
    winner: int | None
    sig: bytes | None = None
    """The host's signature from ``match_end``; None until the match has ended."""


@dataclass(frozen=True, slots=True)
class Transcript:
    rules: RuleSet
    host_key: bytes
    seat: int
    rounds: tuple[RoundRecord, ...]
    """In order; :class:`~scopa_net.fair.blind.record.BlindRound` records when ``blind``."""
    result: MatchResult
    stopped: Stopped | None = None
    """Set when the client stopped on a failed check and saved this as evidence."""
    blind: bool = False
    """A blind table's transcript (version 6; 4 or 3 read from an older file): its rounds are
    :class:`~scopa_net.fair.blind.record.BlindRound` records."""
    blind_version: int = BLIND_FORMAT_VERSION
    plain_version: int = FORMAT_VERSION
    """An ordinary table's transcript: version 5 records each round's ``seated``, 2 does not."""
    caught_up: CaughtUp | None = None
    """A seat caught up by snapshot that did not take its own chain up again (written as
    version 7, its rounds version 5's; at a blind table version 8, its rounds version 6's):
    what the snapshot told. The rounds
    numbered up to its ``round_no`` are those the seat followed from the match's start; the
    rest, those it followed since the snapshot."""
    caught_up_again: tuple[CaughtUp, ...] = ()
    """The later catch-ups of a seat caught up more than once that followed rounds between
    them, in order (``caught_up`` is then an array, 6.1): each entry's rounds are those
    numbered above it and up to the next entry's ``round_no``."""

    @property
    def caught_ups(self) -> tuple[CaughtUp, ...]:
        """Every ``caught_up`` entry, in order (none in a file of the whole chain)."""
        return () if self.caught_up is None else (self.caught_up, *self.caught_up_again)

    @property
    def records_seated(self) -> bool:
        """Whether each round says who could send each seat's seed (version 5), or, at a blind
        table, who held each seat as the round's parties were fixed (version 6)."""
        if self.blind:
            return self.blind_version == BLIND_SEATED_FORMAT_VERSION
        return self.plain_version == SEATED_FORMAT_VERSION

    @property
    def version(self) -> int:
        """The ``version`` the file says."""
        if self.caught_up_again:
            return (
                BLIND_CAUGHT_UP_AGAIN_FORMAT_VERSION
                if self.blind
                else CAUGHT_UP_AGAIN_FORMAT_VERSION
            )
        if self.blind:
            return (
                BLIND_CAUGHT_UP_FORMAT_VERSION if self.caught_up is not None else self.blind_version
            )
        return CAUGHT_UP_FORMAT_VERSION if self.caught_up is not None else self.plain_version

    def to_wire(self) -> dict[str, Any]:
        seated = self.records_seated
        wire = {
            "format": FORMAT_NAME,
            "version": self.version,
            "rules": {
                "players": self.rules.players,
                "target": self.rules.target,
                "variants": sorted(v.value for v in self.rules.variants),
            },
            "host_key": self.host_key,
            "seat": self.seat,
            "rounds": [r.to_wire(seated=True) if seated else r.to_wire() for r in self.rounds],
            "result": {
                "scores": list(self.result.scores),
                "winner": self.result.winner,
                "sig": self.result.sig,
            },
            "stopped": None
            if self.stopped is None
            else {
                "round_no": self.stopped.round_no,
                "check": self.stopped.check,
                "detail": self.stopped.detail,
            },
        }
        if self.caught_up_again:
            wire["caught_up"] = [told.to_wire() for told in self.caught_ups]
        elif self.caught_up is not None:
            wire["caught_up"] = self.caught_up.to_wire()
        return wire

    def encode(self) -> bytes:
        return _pack(self.to_wire())


def _pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


# --- reading ------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    """A value as an error line names it: a byte string by its size (a shuffle proof is 5280
    bytes, not a line to print), anything else as Python writes it, cut at 80 characters."""
    if isinstance(value, bytes):
        return f"{len(value)} bytes"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _keys_amiss(value: dict[Any, Any], keys: tuple[str, ...]) -> str:
    """What is wrong with a map's keys, naming the keys at fault (not every key expected)."""
    got = tuple(value)
    extra = [k for k in got if k not in keys]
    missing = [k for k in keys if k not in got]

    def listed(found: list[Any]) -> str:
        shown = ", ".join(_shown(k) for k in found[:3])
        return shown + (f" and {len(found) - 3} more" if len(found) > 3 else "")

    if extra and missing:
        return f"unexpected key {listed(extra)} where {listed(missing)} was due"
    if extra:
        return f"unexpected key {listed(extra)}"
    if missing:
        return f"missing key {listed(missing)}"
    first = next(i for i, (a, b) in enumerate(zip(got, keys, strict=True)) if a != b)
    return f"key {_shown(got[first])} where {_shown(keys[first])} was due (keys out of order)"


class _Reader:
    """Strict field access that names the path of whatever is wrong."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, what: str, value: Any) -> TranscriptFormatError:
        return TranscriptFormatError(
            f"invalid transcript: {self.path}: {what}, got {_shown(value)}"
        )

    def map(self, value: Any, keys: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"expected a map of {len(keys)} keys", value)
        if tuple(value) != keys:
            raise TranscriptFormatError(
                f"invalid transcript: {self.path}: {_keys_amiss(value, keys)}"
            )
        return value

    def at(self, key: str | int) -> _Reader:
        return _Reader(f"{self.path}.{key}" if isinstance(key, str) else f"{self.path}[{key}]")

    def int(self, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(f"expected an integer {low}..{high}", value)
        return value

    def opt_int(self, value: Any, low: int, high: int) -> int | None:
        return None if value is None else self.int(value, low, high)

    def bin(self, value: Any, size: int) -> bytes:
        if not isinstance(value, bytes) or len(value) != size:
            raise self.fail(f"expected {size} bytes", value)
        return value

    def opt_bin(self, value: Any, size: int) -> bytes | None:
        return None if value is None else self.bin(value, size)

    def array(self, value: Any, length: int | None = None) -> list[Any]:
        if not isinstance(value, list) or (length is not None and len(value) != length):
            raise self.fail(f"expected an array of {length or 'any number of'} items", value)
        return value

    def bins(self, value: Any, size: int, length: int | None = None) -> tuple[bytes, ...]:
        items = self.array(value, length)
        return tuple(self.at(i).bin(v, size) for i, v in enumerate(items))

    def choice(self, value: Any, choices: tuple[str, ...]) -> str:
        if value not in choices:
            raise self.fail(f"expected one of {choices}", value)
        return value

    def str(self, value: Any) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail("expected a non-empty string", value)
        return value


_TOP_KEYS = ("format", "version", "rules", "host_key", "seat", "rounds", "result", "stopped")
_CAUGHT_UP_TOP_KEYS = (*_TOP_KEYS, "caught_up")
"""A version 7, 8, 9 or 10 file's keys: ``caught_up`` last."""
_TOP_HEADER = bytes([0x80 | len(_TOP_KEYS)])
"""The first byte of every transcript but version 7's and 8's: msgpack's header of a map of
that many keys."""
_CAUGHT_UP_STARTS = tuple(
    bytes([0x80 | len(_CAUGHT_UP_TOP_KEYS)])
    + _pack({"format": FORMAT_NAME, "version": version})[1:]
    for version in CAUGHT_UP_FORMAT_VERSIONS
)
"""How every version 7 (8, 9, 10) file begins: its map's header (one key more), then its format
and version."""
_RULES_KEYS = ("players", "target", "variants")
_ROUND_KEYS = (
    "round_id",
    "round_no",
    "prev",
    "card_hashes",
    "digest",
    "sig",
    "commits",
    "seeds",
    "excluded",
    "receipt",
    "hand",
    "table",
    "plays",
    "void",
    "score",
    "host_seed",
    "reveal_sig",
)
_SEATED_ROUND_KEYS = (*_ROUND_KEYS[:6], "seated", *_ROUND_KEYS[6:])
"""A version 5 round's keys: ``seated`` before ``commits``."""
MAX_CODE = (1 << 46) - 1


def _slots_of(r: _Reader, value: Any, size: int, players: int) -> tuple[bytes | None, ...] | None:
    """An array by seat of byte strings or nil, or nil."""
    if value is None:
        return None
    return tuple(
        None if v is None else r.at(i).bin(v, size) for i, v in enumerate(r.array(value, players))
    )


def slots_bytes(values: Sequence[bytes | None] | None) -> bytes:
    """Commitments or seeds by seat as the chain hash writes them: nothing when the list was
    never sent; else the number of seats, then per seat a 0 byte (nil) or a 1 byte and the
    32 bytes."""
    if values is None:
        return b""
    return u8(len(values)) + b"".join(b"\x00" if v is None else b"\x01" + v for v in values)


def _dealt(r: _Reader, value: Any) -> tuple[DealtCard, ...]:
    out = []
    for i, item in enumerate(r.array(value)):
        ri = r.at(i)
        pos, card, salt = ri.array(item, 3)
        out.append(DealtCard(ri.int(pos, 0, 39), ri.int(card, 0, 39), ri.bin(salt, SALT_SIZE)))
    return tuple(out)


def read_plays(
    r: _Reader, value: Any, players: int, last_size: int
) -> list[tuple[int, int, int, bytes]]:
    """A round's ``plays`` (``r`` at the round): per play its seat, play code, deck position
    and a byte string of ``last_size`` bytes (the card's salt, or at a blind table its proof)."""
    rp = r.at("plays")
    out = []
    for i, item in enumerate(rp.array(value)):
        ri = rp.at(i)
        seat, code, pos, last = ri.array(item, 4)
        out.append(
            (
                ri.int(seat, 0, players - 1),
                ri.int(code, 0, MAX_CODE),
                ri.int(pos, 0, 39),
                ri.bin(last, last_size),
            )
        )
    return out


def read_void(r: _Reader, value: Any, players: int) -> VoidNotice | None:
    """A round's ``void`` (``r`` at the round): nil, or its reason and offender."""
    if value is None:
        return None
    rv = r.at("void")
    v = rv.map(value, ("reason", "offender"))
    return VoidNotice(rv.str(v["reason"]), rv.opt_int(v["offender"], 0, players - 1))


def read_score(r: _Reader, value: Any) -> tuple[int, ...] | None:
    """A round's ``score`` (``r`` at the round): nil, or the points by side."""
    if value is None:
        return None
    rs = r.at("score")
    return tuple(rs.int(s, 0, 1 << 16) for s in rs.array(value))


def _seated(r: _Reader, m: dict[str, Any], players: int) -> tuple[str, ...] | None:
    """A version 5 round's ``seated``: nil exactly when ``commits`` is nil, else one of
    :data:`SEATED_KINDS` by seat."""
    rs = r.at("seated")
    value = m["seated"]
    if (value is None) != (m["commits"] is None):
        raise rs.fail("expected nil exactly when commits is nil", value)
    if value is None:
        return None
    return tuple(rs.at(i).choice(x, SEATED_KINDS) for i, x in enumerate(rs.array(value, players)))


def _round(r: _Reader, value: Any, players: int, *, version: int = FORMAT_VERSION) -> RoundRecord:
    seated_file = version == SEATED_FORMAT_VERSION
    m = r.map(value, _SEATED_ROUND_KEYS if seated_file else _ROUND_KEYS)
    seated = _seated(r, m, players) if seated_file else None
    plays = [PlayEntry(*p) for p in read_plays(r, m["plays"], players, SALT_SIZE)]
    void = read_void(r, m["void"], players)
    commits = _slots_of(r.at("commits"), m["commits"], HASH_SIZE, players)
    seeds = _slots_of(r.at("seeds"), m["seeds"], SEED_SIZE, players)
    excluded = None
    if m["excluded"] is not None:
        rx = r.at("excluded")
        excluded = tuple(
            None if x is None else rx.at(i).choice(x, EXCLUSION_REASONS)
            for i, x in enumerate(rx.array(m["excluded"], players))
        )
    receipt = None
    if m["receipt"] is not None:
        rr = r.at("receipt")
        rm = rr.map(m["receipt"], ("seed_hash", "sig"))
        receipt = Receipt(
            rr.at("seed_hash").bin(rm["seed_hash"], HASH_SIZE),
            rr.at("sig").bin(rm["sig"], SIGNATURE_SIZE),
        )
    score = read_score(r, m["score"])
    return RoundRecord(
        round_id=r.at("round_id").bin(m["round_id"], ROUND_ID_SIZE),
        round_no=r.at("round_no").int(m["round_no"], 1, (1 << 32) - 1),
        prev=r.at("prev").bin(m["prev"], HASH_SIZE),
        card_hashes=r.at("card_hashes").bins(m["card_hashes"], HASH_SIZE, 40),
        digest=r.at("digest").bin(m["digest"], HASH_SIZE),
        sig=r.at("sig").bin(m["sig"], SIGNATURE_SIZE),
        commits=commits,
        seeds=seeds,
        excluded=excluded,
        receipt=receipt,
        hand=_dealt(r.at("hand"), m["hand"]),
        table=_dealt(r.at("table"), m["table"]),
        plays=tuple(plays),
        void=void,
        score=score,
        host_seed=r.at("host_seed").opt_bin(m["host_seed"], SEED_SIZE),
        reveal_sig=r.at("reveal_sig").opt_bin(m["reveal_sig"], SIGNATURE_SIZE),
        seated=seated,
    )


def encode_round(record: RoundRecord) -> bytes:
    """One round as a version 5 file writes it (what a client keeps on disk of the last round
    whose commitments reached it: :func:`decode_round` reads it back)."""
    return _pack(record.to_wire(seated=True))


def decode_round(data: bytes, players: int) -> RoundRecord:
    """A round written by :func:`encode_round`; :class:`TranscriptFormatError` if it is not."""
    try:
        value = msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True)
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise TranscriptFormatError(f"invalid round: {msgpack_failure(exc)}") from None
    return _round(_Reader("round"), value, players, version=SEATED_FORMAT_VERSION)


def _caught_up(r: _Reader, value: Any, rules: RuleSet) -> CaughtUp:
    """A version 7 or 8 file's ``caught_up``: a round number, match points by side, a dealer."""
    m = r.map(value, ("round_no", "scores", "dealer"))
    rs = r.at("scores")
    return CaughtUp(
        r.at("round_no").int(m["round_no"], 0, (1 << 32) - 1),
        tuple(rs.int(x, 0, 10000) for x in rs.array(m["scores"], rules.side_count)),
        r.at("dealer").opt_int(m["dealer"], 0, rules.players - 1),
    )


def _caught_ups(r: _Reader, value: Any, rules: RuleSet, *, again: bool) -> tuple[CaughtUp, ...]:
    """A version 7 or 8 file's ``caught_up``, one map; with ``again`` (version 9 or 10), an
    array of two or more, their ``round_no`` going up (a seat caught up more than once, 6.1)."""
    if not again:
        return (_caught_up(r, value, rules),)
    if not isinstance(value, list) or len(value) < 2:
        raise r.fail("expected an array of two or more", value)
    told = tuple(_caught_up(r.at(i), v, rules) for i, v in enumerate(value))
    if any(a.round_no >= b.round_no for a, b in pairwise(told)):
        raise r.fail("expected each entry's round_no above the one before", value)
    return told


def decode(
    data: bytes, *, read_blind_round: Callable[[Any, Any, int, int], Any] | None = None
) -> Transcript:
    """Read a transcript file; :class:`TranscriptFormatError` saying what is wrong if it is
    not exactly the canonical encoding of a well-formed transcript (version 2 or 5). Versions
    3 and 4 (a blind table's) only with ``read_blind_round`` (given the file's version too): use
    :func:`scopa_net.fair.blind.wire.decode_any`."""
    if len(data) > MAX_FILE_SIZE:
        raise TranscriptFormatError(f"invalid transcript: {len(data)} bytes is over the limit")
    if not data:
        raise CutShortError("invalid transcript: an empty file (0 bytes)")
    try:
        obj = msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True)
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        why = msgpack_failure(exc)
        begins = data[:1] == _TOP_HEADER or data.startswith(_CAUGHT_UP_STARTS)
        if "incomplete input" in str(exc) and not begins:
            # Every transcript begins with the header of its map of eight keys: a file that
            # does not is damaged at its start (a count changed reads on past the end).
            raise NotATranscriptError(
                "invalid transcript: not a scopa-net transcript file (it does not begin as "
                "one: damaged at its start, or another kind of file)"
            ) from None
        if "incomplete input" in str(exc):
            raise CutShortError(
                f"invalid transcript: cut short: the file ends inside its value after "
                f"{len(data)} bytes"
            ) from None
        raise NotATranscriptError(
            f"invalid transcript: not a scopa-net transcript file (not one msgpack value: {why})"
        ) from None
    r = _Reader("transcript")
    caught_up_file = isinstance(obj, dict) and obj.get("version") in CAUGHT_UP_FORMAT_VERSIONS
    top = r.map(obj, _CAUGHT_UP_TOP_KEYS if caught_up_file else _TOP_KEYS)
    if top["format"] != FORMAT_NAME:
        raise r.at("format").fail(f"expected {FORMAT_NAME!r}", top["format"])
    versions = PLAIN_FORMAT_VERSIONS
    if read_blind_round is not None:
        versions = tuple(sorted(versions + BLIND_FORMAT_VERSIONS))
    version = top["version"]
    if version not in versions or isinstance(version, bool):
        *others, last = versions
        wanted = f"{', '.join(map(str, others))} or {last}" if others else str(last)
        if isinstance(version, int) and not isinstance(version, bool):
            raise OtherVersionError(
                f"invalid transcript: transcript.version: expected version {wanted}, got {version}"
            )
        raise r.at("version").fail(f"expected version {wanted}", version)
    blind = version in BLIND_FORMAT_VERSIONS
    if caught_up_file:  # (its rounds are version 5's, or at a blind table version 6's)
        version = BLIND_SEATED_FORMAT_VERSION if blind else SEATED_FORMAT_VERSION
    read_round: Callable[[_Reader, Any, int], Any] = partial(_round, version=version)
    if blind and read_blind_round is not None:
        read_round = partial(read_blind_round, version=version)
    rr = r.at("rules")
    rules_map = rr.map(top["rules"], _RULES_KEYS)
    variants = rr.at("variants").array(rules_map["variants"])
    try:
        rules = RuleSet.of(
            rr.at("players").int(rules_map["players"], 0, 255),
            rr.at("target").int(rules_map["target"], 0, 255),
            [rr.at("variants").str(v) for v in variants],
        )
    except RuleSetError as exc:
        raise TranscriptFormatError(f"invalid transcript: rules: {exc}") from None
    result_map = r.at("result").map(top["result"], ("scores", "winner", "sig"))
    rres = r.at("result")
    result = MatchResult(
        tuple(rres.int(s, 0, 1 << 16) for s in rres.array(result_map["scores"])),
        rres.opt_int(result_map["winner"], 0, rules.side_count - 1),
        rres.at("sig").opt_bin(result_map["sig"], SIGNATURE_SIZE),
    )
    stopped = None
    if top["stopped"] is not None:
        rst = r.at("stopped")
        sm = rst.map(top["stopped"], ("round_no", "check", "detail"))
        stopped = Stopped(
            rst.at("round_no").int(sm["round_no"], 0, (1 << 32) - 1),
            rst.at("check").str(sm["check"]),
            rst.at("detail").str(sm["detail"]),
        )
    rounds = tuple(
        read_round(r.at("rounds").at(i), v, rules.players)
        for i, v in enumerate(r.at("rounds").array(top["rounds"]))
    )
    again = top["version"] in CAUGHT_UP_AGAIN_FORMAT_VERSIONS
    caught_ups = (
        _caught_ups(r.at("caught_up"), top["caught_up"], rules, again=again)
        if caught_up_file
        else ()
    )
    transcript = Transcript(
        rules=rules,
        host_key=r.at("host_key").bin(top["host_key"], PUBLIC_KEY_SIZE),
        seat=r.at("seat").int(top["seat"], 0, rules.players - 1),
        rounds=rounds,
        result=result,
        stopped=stopped,
        blind=blind,
        blind_version=version if blind else BLIND_FORMAT_VERSION,
        plain_version=FORMAT_VERSION if blind else version,
        caught_up=caught_ups[0] if caught_ups else None,
        caught_up_again=caught_ups[1:],
    )
    if transcript.encode() != data:
        raise TranscriptFormatError(
            "invalid transcript: the file is not the canonical encoding of what it holds "
            "(re-encoding it gives different bytes)"
        )
    return transcript
