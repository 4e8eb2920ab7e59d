"""An independent verifier of blind rounds, written from protocol.md section 9 alone.

It imports nothing from scopa_net. The group arithmetic is libsodium's (through
``nacl.bindings``), as 9.2 names it; signatures are Ed25519 from ``cryptography``; hashes,
the random stream and the shuffle are section 5's, from ``document_hashes``;
replaying the plays and scoring a round is ``document_referee``'s, written from RULES.md and
protocol.md. A version 6 or 4 transcript (9.8; or a version 3 one, whose decks carry no shuffle
proofs; or a version 8 or 10 one, a version 6 file with 6.1's ``caught_up``) is read as plain
msgpack, checked for its canonical encoding (6.1), and every round is checked in 9.9's order.
``test_blind_from_the_document.py`` runs this against 9.11's vectors and against transcripts
our own host and clients make.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from document_hashes import below, h, lp, shuffle, u8, u32, u64, words
from document_referee import IllegalPlayError, RoundReplay, Table, deal_targets, match_winner
from nacl import bindings as na
from nacl.exceptions import RuntimeError as SodiumError

# --- 9.2: group, encodings, hashes -------------------------------------------------------------

L = 2**252 + 27742317777372353535851937790883648493
B = bytes([0x58]) + bytes([0x66]) * 31
TAG = "scopa-net/blind/v1/"


def hs(tag: str, *fields: bytes) -> bytes:
    """``Hs``: SHA-512 over the length-prefixed fields, read little-endian, mod l."""
    digest = hashlib.sha512(lp(tag.encode()) + b"".join(lp(f) for f in fields)).digest()
    return na.crypto_core_ed25519_scalar_reduce(digest)


def scalar(n: int) -> bytes:
    return (n % L).to_bytes(32, "little")


def as_int(s: bytes) -> int:
    return int.from_bytes(s, "little")


def canonical(k: bytes) -> bool:
    """9.2: a scalar is 32 bytes little-endian, below ``l``."""
    return len(k) == 32 and as_int(k) < L


class RefusedError(Exception):
    """libsodium refused an operation (a zero scalar, a bad point): a failed check."""


def mul(k: bytes, point: bytes) -> bytes:
    try:
        return na.crypto_scalarmult_ed25519_noclamp(k, point)
    except (SodiumError, ValueError, TypeError) as exc:
        raise RefusedError(str(exc)) from exc


def mul_b(k: bytes) -> bytes:
    try:
        return na.crypto_scalarmult_ed25519_base_noclamp(k)
    except (SodiumError, ValueError, TypeError) as exc:
        raise RefusedError(str(exc)) from exc


def add(a: bytes, b: bytes) -> bytes:
    return na.crypto_core_ed25519_add(a, b)


def sub(a: bytes, b: bytes) -> bytes:
    return na.crypto_core_ed25519_sub(a, b)


def valid(point: object) -> bool:
    return (
        isinstance(point, bytes)
        and len(point) == 32
        and bool(na.crypto_core_ed25519_is_valid_point(point))
    )


CARD_POINTS = [na.crypto_core_ed25519_from_uniform(h(TAG + "card-point", u8(c))) for c in range(40)]
CARD_OF = {p: c for c, p in enumerate(CARD_POINTS)}


# --- 9.3: a party's secrets ---------------------------------------------------------------------


@dataclass(frozen=True)
class Secrets:
    x: bytes
    point: bytes
    sign_seed: bytes
    sign_key: bytes
    perm: list[int]
    rerandomizers: list[bytes]


def secrets(round_id: bytes, party: int, seed: bytes) -> Secrets:
    x = hs(TAG + "key", round_id, u8(party), seed)
    sign_seed = h(TAG + "sign", round_id, u8(party), seed)
    sign_key = Ed25519PrivateKey.from_private_bytes(sign_seed).public_key().public_bytes_raw()
    perm = shuffle(seed, TAG + "shuffle", round_id)
    r = [hs(TAG + "rerandomize", round_id, u8(party), seed, u8(i)) for i in range(40)]
    return Secrets(x, mul_b(x), sign_seed, sign_key, perm, r)


# --- 9.4: proofs --------------------------------------------------------------------------------


def key_context(round_id: bytes, party: int, sign_key: bytes) -> bytes:
    """9.4: what a key proof is bound to, one field ``round_id || u8(p) || sign_key``."""
    return round_id + u8(party) + sign_key


def key_proof(s: Secrets, round_id: bytes, party: int) -> bytes:
    ctx = key_context(round_id, party, s.sign_key)
    w = hs(TAG + "key-proof-nonce", s.x, ctx)
    a = mul_b(w)
    e = hs(TAG + "key-proof", ctx, s.point, a)
    return e + scalar(as_int(w) + as_int(e) * as_int(s.x))


def key_proof_holds(
    round_id: bytes, party: int, point: bytes, proof: bytes, sign_key: bytes
) -> bool:
    e, z = proof[:32], proof[32:]
    if not canonical(e) or not canonical(z):
        return False
    try:
        a = sub(mul_b(z), mul(e, point))
    except RefusedError:
        return False
    return e == hs(TAG + "key-proof", key_context(round_id, party, sign_key), point, a)


def dleq_proof(x: bytes, point: bytes, ctx: bytes, u: bytes, d: bytes) -> bytes:
    w = hs(TAG + "dleq-nonce", x, ctx, u, d)
    a1, a2 = mul_b(w), mul(w, u)
    e = hs(TAG + "dleq", ctx, point, u, d, a1, a2)
    return e + scalar(as_int(w) + as_int(e) * as_int(x))


def dleq_holds(point: bytes, ctx: bytes, u: bytes, d: bytes, proof: bytes) -> bool:
    e, z = proof[:32], proof[32:]
    if not canonical(e) or not canonical(z):
        return False
    try:
        a1 = sub(mul_b(z), mul(e, point))
        a2 = sub(mul(z, u), mul(e, d))
    except RefusedError:
        return False
    return e == hs(TAG + "dleq", ctx, point, u, d, a1, a2)


def play_context(round_id: bytes, owner: int, pos: int, card: int) -> bytes:
    return round_id + u8(owner) + u8(pos) + u8(card)


# --- 9.4: the shuffle proof ---------------------------------------------------------------------

GENERATORS = [
    na.crypto_core_ed25519_from_uniform(h(TAG + "shuffle-generator", u8(k))) for k in range(41)
]
"""``G[0..40]``: ``G[0..39]`` take the permutation, ``G[40]`` starts the chain."""
PROOF_SIZE = 80 * 32 + 85 * 32


def point_sum(points: Sequence[bytes]) -> bytes:
    total = points[0]
    for point in points[1:]:
        total = add(total, point)
    return total


@dataclass(frozen=True)
class Shuffle:
    """What a shuffle proof is about: party ``party``'s ``out`` from ``before``, its input,
    under the joint key ``joint``."""

    round_id: bytes
    party: int
    joint: bytes
    before: Sequence[bytes]
    out: Sequence[bytes]

    def challenges(self, commitments: bytes) -> tuple[bytes, list[int]]:
        """``h``, SHA-256 over five fields, and the challenges ``u[j]`` from it."""
        digest = h(
            TAG + "shuffle-statement",
            self.round_id + u8(self.party),
            self.joint,
            b"".join(self.before),
            b"".join(self.out),
            commitments,
        )
        return digest, [as_int(hs(TAG + "shuffle-challenge", digest, u8(j))) for j in range(40)]


def shuffle_proof(claim: Shuffle, s: Secrets, seed: bytes) -> bytes:
    """9.4: the 5280-byte proof, from the party's seed and secrets, that ``claim.out`` is
    its shuffle of ``claim.before``."""
    inputs = b"".join(claim.before)

    def nonce(label: str, k: int) -> int:
        fields = (claim.round_id, u8(claim.party), seed, inputs, label.encode(), u8(k))
        return as_int(hs(TAG + "shuffle-proof-nonce", *fields))

    rho = [nonce("rho", j) for j in range(40)]
    rhat = [nonce("rhat", i) for i in range(40)]
    w1, w2, w3, w4 = (nonce("w", k) for k in range(1, 5))
    what = [nonce("what", i) for i in range(40)]
    wp = [nonce("wprime", i) for i in range(40)]
    inv = [0] * 40
    for i, j in enumerate(s.perm):
        inv[j] = i
    c = [add(mul_b(scalar(rho[j])), GENERATORS[inv[j]]) for j in range(40)]
    digest, u = claim.challenges(b"".join(c))
    up = [u[s.perm[i]] for i in range(40)]
    chat, that, prev = [], [], GENERATORS[40]
    for i in range(40):
        that.append(add(mul_b(scalar(what[i])), mul(scalar(wp[i]), prev)))
        prev = add(mul_b(scalar(rhat[i])), mul(scalar(up[i]), prev))
        chat.append(prev)
    out = claim.out
    t1, t2 = mul_b(scalar(w1)), mul_b(scalar(w2))
    t3 = add(mul_b(scalar(w3)), point_sum([mul(scalar(wp[i]), GENERATORS[i]) for i in range(40)]))
    t4u = sub(point_sum([mul(scalar(wp[i]), out[i][:32]) for i in range(40)]), mul_b(scalar(w4)))
    t4v = sub(
        point_sum([mul(scalar(wp[i]), out[i][32:]) for i in range(40)]),
        mul(scalar(w4), claim.joint),
    )
    e = as_int(
        hs(TAG + "shuffle-proof", digest, b"".join(chat), t1, t2, t3, t4u, t4v, b"".join(that))
    )
    r = [as_int(x) for x in s.rerandomizers]
    tail, chained = 1, 0
    for i in reversed(range(40)):  # rhat[i] times the product of u'[k] for k > i, summed
        chained += rhat[i] * tail
        tail = tail * up[i] % L
    responses = [
        e,
        w1 + e * sum(rho),
        w2 + e * chained,
        w3 + e * sum(u[j] * rho[j] for j in range(40)),
        w4 + e * sum(up[i] * r[i] for i in range(40)),
        *(what[i] + e * rhat[i] for i in range(40)),
        *(wp[i] + e * up[i] for i in range(40)),
    ]
    return b"".join(c) + b"".join(chat) + b"".join(scalar(x) for x in responses)


HELD: set[bytes] = set()
"""The digest of every statement and proof that held so far: a deck read again (in another
seat's transcript of the same round, or a copy changed elsewhere) is not checked again."""


def shuffle_proof_holds(claim: Shuffle, proof: object) -> bool:
    """9.4's check: ``claim.out`` holds exactly the cards of ``claim.before``, each
    re-encrypted under the joint key. Every ``a·P`` is one libsodium multiplication; one
    refused, or a refused sum, fails the proof. (About 70 ms: a proof that held is
    remembered by the digest of everything it was checked against.)"""
    if not isinstance(proof, bytes) or len(proof) != PROOF_SIZE:
        return False
    fields = (claim.round_id, u8(claim.party), claim.joint, *claim.before, *claim.out, proof)
    key = hashlib.sha256(b"".join(lp(f) for f in fields)).digest()
    if key in HELD:
        return True
    if not shuffle_proof_verifies(claim, proof):
        return False
    HELD.add(key)
    return True


def shuffle_proof_verifies(claim: Shuffle, proof: bytes) -> bool:
    """:func:`shuffle_proof_holds` without its memory."""
    c = [proof[32 * j : 32 * j + 32] for j in range(40)]
    chat = [proof[1280 + 32 * i : 1312 + 32 * i] for i in range(40)]
    scalars = [proof[2560 + 32 * k : 2592 + 32 * k] for k in range(85)]
    if not all(canonical(k) for k in scalars):
        return False
    e, s1, s2, s3, s4 = scalars[:5]
    shat, sp = scalars[5:45], scalars[45:]
    before, out = claim.before, claim.out
    digest, u = claim.challenges(proof[:1280])
    product = 1
    for uj in u:
        product = product * uj % L
    try:
        t1 = sub(mul_b(s1), mul(e, sub(point_sum(c), point_sum(GENERATORS[:40]))))
        t2 = sub(mul_b(s2), mul(e, sub(chat[39], mul(scalar(product), GENERATORS[40]))))
        t3 = sub(
            add(mul_b(s3), point_sum([mul(sp[i], GENERATORS[i]) for i in range(40)])),
            mul(e, point_sum([mul(scalar(u[j]), c[j]) for j in range(40)])),
        )
        t4 = []
        for half, masked in ((slice(0, 32), mul_b(s4)), (slice(32, 64), mul(s4, claim.joint))):
            moved = point_sum([mul(sp[i], out[i][half]) for i in range(40)])
            held = point_sum([mul(scalar(u[j]), before[j][half]) for j in range(40)])
            t4.append(sub(sub(moved, masked), mul(e, held)))
        that = []
        for i in range(40):
            prev = GENERATORS[40] if i == 0 else chat[i - 1]
            that.append(sub(add(mul_b(shat[i]), mul(sp[i], prev)), mul(e, chat[i])))
    except (RefusedError, SodiumError, ValueError, TypeError):
        return False
    chain = proof[1280:2560]
    return e == hs(TAG + "shuffle-proof", digest, chain, t1, t2, t3, *t4, b"".join(that))


# --- 9.5: the messages' bytes --------------------------------------------------------------------


def rules_hash(players: int, target: int, variants: Sequence[str]) -> bytes:
    names = sorted(v.encode() for v in variants)
    return h("scopa-net/v1/rules", u8(players), u8(target), *names)


def blind_digest(round_id: bytes, people: Sequence[int], key0: Sequence[bytes]) -> bytes:
    return h(TAG + "round", round_id, bytes(people), *key0)


def commit_message(
    round_id: bytes, round_no: int, prev: bytes, digest: bytes, rules: bytes
) -> bytes:
    return (
        lp(b"scopa-net/v1/round-commit-signature")
        + lp(round_id)
        + lp(u32(round_no))
        + lp(prev)
        + lp(digest)
        + lp(rules)
    )


def deck_message(
    round_id: bytes, party: int, deck: Sequence[bytes], proof: bytes | None = None
) -> bytes:
    """9.5.4: what a party signs over its deck and its shuffle proof; in a version 3 file
    (9.8, ``proof`` None) over its deck alone."""
    message = (
        lp(b"scopa-net/blind/v1/deck-signature") + lp(round_id) + lp(u8(party)) + lp(b"".join(deck))
    )
    return message if proof is None else message + lp(proof)


def shares_message(round_id: bytes, party: int, deal: int, shares: Sequence[bytes]) -> bytes:
    return (
        lp(b"scopa-net/blind/v1/shares-signature")
        + lp(round_id)
        + lp(u8(party))
        + lp(u8(deal))
        + lp(b"".join(shares))
    )


def reveal_message(round_id: bytes, host_seed: bytes, chain: bytes) -> bytes:
    return lp(b"scopa-net/v1/round-reveal-signature") + lp(round_id) + lp(host_seed) + lp(chain)


def open_deck(joint: bytes) -> list[bytes]:
    """9.5.4: party 0's input, ``(B, P[c] + Y)`` for every card."""
    return [B + add(CARD_POINTS[c], joint) for c in range(40)]


def shuffled(deck: Sequence[bytes], s: Secrets, joint: bytes) -> list[bytes]:
    """9.5.4: a party's output from its input."""
    out = []
    for i in range(40):
        src = deck[s.perm[i]]
        u, v = src[:32], src[32:]
        out.append(add(u, mul_b(s.rerandomizers[i])) + add(v, mul(s.rerandomizers[i], joint)))
    return out


def first_dealer(round_id: bytes, points: Sequence[bytes], players: int) -> int:
    """9.5.5: the first draw of ``below(players)`` from the keys' stream."""
    key = h(TAG + "first-dealer", round_id, *points)
    return below(words(key, "scopa-net/v1/first-dealer", round_id), players)


def sign(seed: bytes, message: bytes) -> bytes:
    return Ed25519PrivateKey.from_private_bytes(seed).sign(message)


def signed(key: bytes, sig: object, message: bytes) -> bool:
    if not isinstance(sig, bytes) or len(sig) != 64 or len(key) != 32:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, message)
    except (InvalidSignature, ValueError):
        return False
    return True


# --- 9.8: the blind chain hash -------------------------------------------------------------------


def slots(values: Sequence[bytes | None]) -> bytes:
    """5.7's way of writing seeds: the count, then ``00`` or ``01`` and the bytes."""
    return u8(len(values)) + b"".join(b"\x00" if v is None else b"\x01" + v for v in values)


def deals_field(deals: Sequence[dict]) -> bytes:
    """Field 8: per deal, then per party, ``00`` when its shares or its signature is nil, or
    ``01``, the shares and the signature. A deal's ``relayed`` is in no hash."""
    out = b""
    for deal in deals:
        for shares, sig in zip(deal["shares"], deal["sigs"], strict=True):
            nil = shares is None or sig is None
            out += b"\x00" if nil else b"\x01" + b"".join(shares) + sig
    return out


def chain_hash(r: dict, digest: bytes) -> bytes:
    """9.8's thirteen fields; field 7 holds each deck's proof in a version 4 round (one with
    ``deck_proofs``), not in a version 3 one."""
    dealer = b"" if r["dealer"] is None else u8(r["dealer"])
    keys = b"".join(b"".join(k) for k in r["keys"])
    proofs = r.get("deck_proofs", [b""] * len(r["decks"]))
    decks = b"".join(
        b"".join(d) + proof + s
        for d, proof, s in zip(r["decks"], proofs, r["deck_sigs"], strict=True)
    )
    deals = deals_field(r["deals"])
    table = b"".join(u8(pos) + u8(card) for pos, card in r["table"])
    plays = b"".join(u8(s) + u64(code) + u8(pos) + proof for s, code, pos, proof in r["plays"])
    void = r["void"]
    reason = b"" if void is None else void["reason"].encode()
    offender = b"" if void is None or void["offender"] is None else u8(void["offender"])
    seeds = b"" if r["seeds"] is None else slots(r["seeds"])
    return h(
        TAG + "round-chain",
        r["round_id"],
        u32(r["round_no"]),
        r["prev"],
        dealer,
        digest,
        keys,
        decks,
        deals,
        table,
        plays,
        reason,
        offender,
        seeds,
    )


# --- section 4 with 9.1's owners -----------------------------------------------------------------


def owner_of(seat: int | None, people: Sequence[int]) -> int | None:
    """9.1: the party owning a seat's cards (0 for a computer's); None for a table card."""
    if seat is None:
        return None
    return people.index(seat) + 1 if seat in people else 0


def plan(table: Table, dealer: int) -> list[list[tuple[int, int | None]]]:
    """Per deal, ``(pos, seat or None)`` in position order (section 4)."""
    out, pos = [], 0
    for targets in deal_targets(table, dealer):
        out.append([(pos + i, t) for i, t in enumerate(targets)])
        pos += len(targets)
    return out


# --- 9.9: the verifier --------------------------------------------------------------------------


class CheckFailedError(Exception):
    """A round that does not verify: ``check`` is 9.9's or 6.2's name, ``party`` if named."""

    def __init__(self, check: str, detail: str = "", party: int | None = None) -> None:
        super().__init__(f"{check}: {detail}" if detail else check)
        self.check, self.party = check, party


@dataclass
class RoundVerdict:
    round_no: int
    kind: str  # "verified", "kings", "absent", "absent-before-keys", "stopped",
    # "stopped-unjudged", "not revealed", "failed"
    note: str
    error: CheckFailedError | None = None

    @property
    def ok(self) -> bool:
        return self.kind in (
            "verified", "kings", "absent", "absent-before-keys", "stopped", "stopped-unjudged",
            "not replayed",
        )  # fmt: skip


@dataclass
class Verdict:
    rounds: list[RoundVerdict] = field(default_factory=list)
    result: str = ""
    ok: bool = False
    """Everything holds, the whole match (never for a version 8 file: 6.3)."""
    notes: list[str] = field(default_factory=list)
    partly: bool = False
    """A version 8 file whose every round held and match end verify: as far as the seat saw."""
    caught_up: str | None = None
    """A version 8 file whose ``caught_up`` the rounds it holds from round 1 contradict (6.2)."""


UNPROVEN = (
    "version 3: the shuffles carry no proof; the last party to shuffle could have sent a deck "
    "of its own making, which only the reveal catches, and the shuffle of a party absent at "
    "the reveal is unchecked"
)
"""9.8: what a verifier says of a version 3 file."""


@dataclass
class Match:
    """What carries from round to round: the chain, the ids seen and the dealer."""

    table: Table
    rules_hash: bytes
    host_key: bytes
    seat: int
    prev: bytes = bytes(32)
    round_no: int = 0
    """Rounds checked so far."""
    seen: set[bytes] = field(default_factory=set)
    dealer: int | None = None
    """The next round's dealer; None until the match's first deal."""
    scores: list[int] = field(default_factory=list)
    replay_ok: bool = True
    mid_way: bool = False
    """The file begins after round 1 (9.9): the first dealer is the round's, no result."""
    dealer_as_recorded: bool = False
    """Version 8 (9.9): taken up after ``caught_up`` with its dealer nil: the next round that
    records a dealer gives it (the host's word)."""
    version: int = 4
    """3: the decks carry no shuffle proofs (9.8)."""


ROUND_KEYS = [
    "round_id", "round_no", "prev", "dealer", "people", "keys", "sig", "decks", "deck_sigs",
    "deck_proofs", "deals", "hand", "table", "plays", "void", "score", "seeds", "reveal_sig",
]  # fmt: skip
ROUND_KEYS_V3 = [k for k in ROUND_KEYS if k != "deck_proofs"]
ROUND_KEYS_V6 = [*ROUND_KEYS[:5], "seated", *ROUND_KEYS[5:]]
"""9.8: a version 6 round has ``seated`` after ``people``."""
TOP_KEYS = ["format", "version", "rules", "host_key", "seat", "rounds", "result", "stopped"]
CAUGHT_UP = 8
"""9.8: version 6's rounds, and 6.1's ``caught_up`` after ``stopped``, one map."""
CAUGHT_UP_AGAIN = 10
"""9.8: version 8 whose ``caught_up`` is an array of two or more maps (6.1's version 9)."""
CAUGHT_UP_FILES = (CAUGHT_UP, CAUGHT_UP_AGAIN)


def deal_keys_hold(deal: object) -> bool:
    """9.8: a deal's map is ``shares`` and ``sigs``, then, only in a seat's evidence,
    ``relayed``: ``{"shares": [bin 32, ...], "sig": bin 64}``."""
    if not isinstance(deal, dict):
        return False
    if list(deal) == ["shares", "sigs"]:
        return True
    if list(deal) != ["shares", "sigs", "relayed"]:
        return False
    other = deal["relayed"]
    return (
        isinstance(other, dict)
        and list(other) == ["shares", "sig"]
        and isinstance(other["shares"], list)
        and all(isinstance(x, bytes) and len(x) == 32 for x in other["shares"])
        and isinstance(other["sig"], bytes)
        and len(other["sig"]) == 64
    )


def read(data: bytes) -> dict:
    """6.1 and 9.8: one canonical msgpack value with the listed keys in order."""
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (ValueError, msgpack.UnpackException) as exc:
        raise CheckFailedError("invalid transcript", f"not msgpack: {exc}") from None
    if msgpack.packb(value, use_bin_type=True) != data:
        raise CheckFailedError("invalid transcript", "not the canonical encoding")
    if not isinstance(value, dict):
        raise CheckFailedError("invalid transcript", "top-level keys")
    top = [*TOP_KEYS, "caught_up"] if value.get("version") in CAUGHT_UP_FILES else TOP_KEYS
    if list(value) != top:
        raise CheckFailedError("invalid transcript", "top-level keys")
    if value["format"] != "scopa-net transcript" or value["version"] not in (
        3,
        4,
        6,
        *CAUGHT_UP_FILES,
    ):
        raise CheckFailedError("invalid transcript", "not version 10, 8 or 6 (or 4, or 3)")
    seated_file = value["version"] in (6, *CAUGHT_UP_FILES)
    keys = {3: ROUND_KEYS_V3, 4: ROUND_KEYS}.get(value["version"], ROUND_KEYS_V6)
    players = value["rules"]["players"]
    if value["version"] == CAUGHT_UP:
        takes = [value["caught_up"]]  # (one map: a list is no map, refused below)
    if value["version"] == CAUGHT_UP_AGAIN:
        takes = value["caught_up"]
        if not isinstance(takes, list) or len(takes) < 2:
            raise CheckFailedError("invalid transcript", "caught_up: an array of two or more")
    if value["version"] in CAUGHT_UP_FILES:
        for told in takes:
            if (
                not isinstance(told, dict)
                or list(told) != ["round_no", "scores", "dealer"]
                or not isinstance(told["round_no"], int)
                or not isinstance(told["scores"], list)
                or not all(isinstance(x, int) for x in told["scores"])
                or not (told["dealer"] is None or 0 <= told["dealer"] < players)
            ):
                raise CheckFailedError("invalid transcript", "caught_up")
        if any(a["round_no"] >= b["round_no"] for a, b in pairwise(takes)):
            raise CheckFailedError("invalid transcript", "caught_up: round_no not going up")
    for r in value["rounds"]:
        if list(r) != keys:
            raise CheckFailedError("invalid transcript", f"round keys {list(r)}")
        seated = r.get("seated", [])
        if seated_file and (
            not isinstance(seated, list)
            or len(seated) != players
            or any(x not in ("person", "computer") for x in seated)
        ):
            raise CheckFailedError("invalid transcript", "seated: one person or computer a seat")
        for deal in r["deals"]:
            if not deal_keys_hold(deal):
                raise CheckFailedError("invalid transcript", "a deal's keys")
        if value["version"] != 3 and (
            len(r["deck_proofs"]) != len(r["decks"])
            or not all(isinstance(p, bytes) and len(p) == PROOF_SIZE for p in r["deck_proofs"])
        ):
            raise CheckFailedError("invalid transcript", "one 5280-byte proof per deck")
    return value


MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError, RefusedError)
"""What reading a field of the wrong shape raises (a short point, a list too short, ...)."""


def verify(data: bytes) -> Verdict:
    """Every round of a version 6 (or 4, or 3) transcript, then the match end; a file that is not
    one is :class:`CheckFailedError` ``invalid transcript``."""
    try:
        return verify_transcript(read(data))
    except MALFORMED as exc:
        raise CheckFailedError("invalid transcript", repr(exc)) from None


def verify_transcript(t: dict) -> Verdict:
    rules = t["rules"]
    table = Table(rules["players"], rules["target"], frozenset(rules["variants"]))
    match = Match(
        table, rules_hash(table.players, table.target, rules["variants"]), t["host_key"], t["seat"]
    )
    match.scores = [0] * table.sides
    match.version = t["version"]
    verdict = Verdict()
    if match.version == 3:
        verdict.notes.append(UNPROVEN)
    if match.version in CAUGHT_UP_FILES:
        return caught_up_file(match, t, verdict)
    if not t["rounds"]:
        verdict.result = "empty transcript"
        return verdict
    first = t["rounds"][0]
    if first["round_no"] > 1:  # 9.9: begins mid-match, its first link taken as it stands
        match.round_no, match.prev, match.mid_way = first["round_no"] - 1, first["prev"], True
    for r in t["rounds"]:
        verdict.rounds.append(verify_round(match, r))
    verdict.result, finished = verify_result(match, t["result"])
    verdict.ok = finished and all(v.ok for v in verdict.rounds)
    return verdict


def caught_up_file(match: Match, t: dict, verdict: Verdict) -> Verdict:
    """9.9 on a version 8 file, as 6.2 checks a version 7 one: the rounds up to the first
    ``caught_up`` entry's ``round_no`` from round 1; then, entry by entry (one map, or an
    array), the snapshot's word against the replay when the file holds the round at its
    ``round_no``, and the first round above it taken up as it came (unless it follows that
    round), on the entry's points and dealer (nil: the first one a round records); the match
    end as ever, or, with no round after the last entry and not that round held, the match
    end's scores and winner as the last entry's scores give them, its signature unchecked."""
    takes = t["caught_up"] if t["version"] == CAUGHT_UP_AGAIN else [t["caught_up"]]
    held: list[int] = []
    taken = 0

    def compare(told: dict) -> None:
        at = held and held[-1] == told["round_no"] and match.replay_ok
        if at and (match.scores != told["scores"] or match.dealer != told["dealer"]):
            verdict.caught_up = (
                f"score mismatch: the snapshot gives {told['scores']}, dealer "
                f"{told['dealer']}; the rounds give {match.scores}, dealer {match.dealer}"
            )

    for r in t["rounds"]:
        while taken < len(takes) and r["round_no"] > takes[taken]["round_no"]:
            told = takes[taken]
            taken += 1
            compare(told)
            if told["round_no"] == 0 and r["round_no"] == 1:
                continue  # (nothing dealt before it: checked as from the match's start)
            if not (held and held[-1] == told["round_no"] and r["round_no"] == held[-1] + 1):
                match.prev = r["prev"]
            match.round_no = r["round_no"] - 1
            match.scores = list(told["scores"])
            match.dealer = told["dealer"]
            match.dealer_as_recorded = told["dealer"] is None
            match.replay_ok = True
        held.append(r["round_no"])
        verdict.rounds.append(verify_round(match, r))
    finished = False
    last = takes[-1]
    if taken < len(takes):
        compare(takes[taken])
    if taken < len(takes) and not (held and held[-1] == last["round_no"]):
        result = t["result"]
        winner = match_winner(match.table, last["scores"])
        if result["sig"] is None:
            ok = result["winner"] is None and result["scores"] == last["scores"]
            verdict.result = "unfinished" if ok else "score mismatch: not the snapshot's points"
        elif result["scores"] != last["scores"] or result["winner"] != winner:
            verdict.result = "score mismatch: not what the snapshot's points give"
        else:
            verdict.result, finished = f"verified: scores {last['scores']}", True
    else:
        verdict.result, finished = verify_result(match, t["result"])
    verdict.partly = finished and verdict.caught_up is None and all(v.ok for v in verdict.rounds)
    return verdict


def verify_result(match: Match, result: dict) -> tuple[str, bool]:
    """5.9 and 6.2: the signed end over the last chain hash, the scores and the winner."""
    if result["sig"] is None:
        if result["winner"] is not None:
            return "unfinished match (a winner without a signature)", False
        return "unfinished", False
    scores = b"".join(u32(s) for s in result["scores"])
    winner = b"" if result["winner"] is None else u8(result["winner"])
    msg = lp(b"scopa-net/v1/match-end-signature") + lp(match.prev) + lp(scores) + lp(winner)
    if not signed(match.host_key, result["sig"], msg):
        return "bad signature on the match end", False
    if not match.replay_ok:
        return "not replayed", False
    if match.mid_way:
        return "not checked: the points before the file's first round are not known", False
    if list(result["scores"]) != match.scores:
        return f"score mismatch: {result['scores']} != {match.scores}", False
    if result["winner"] != match_winner(match.table, match.scores):
        return "score mismatch: winner", False
    return f"verified: scores {match.scores}", True


def verify_round(match: Match, r: dict) -> RoundVerdict:
    """One round; whatever its verdict, the next round links to its chain hash (6.2)."""
    no = r["round_no"]
    try:
        kind, note = RoundCheck(match, r).run()
        verdict = RoundVerdict(no, kind, note)
    except CheckFailedError as exc:
        verdict = RoundVerdict(
            no, "not revealed" if exc.check == "not revealed" else "failed", str(exc), exc
        )
    except MALFORMED as exc:
        error = CheckFailedError("invalid transcript", f"round {no}: {exc!r}")
        verdict = RoundVerdict(no, "failed", str(error), error)
    if not verdict.ok:
        match.replay_ok = False
    match.round_no += 1
    if r["keys"]:
        match.prev = chain_hash(r, blind_digest(r["round_id"], r["people"], r["keys"][0]))
    return verdict


def relayed_check(round_id: bytes, host_sign_key: bytes, k: int, deal: dict) -> None:
    """9.9 step 5 on deal ``k``'s ``relayed``, once its parties' shares checked out: as many
    shares as party 0's, other ones, signed by party 0 over 9.5.6's message prove that the
    host signed two sets (*bad shares*, party 0); anything else proves nothing (no party)."""
    other = deal["relayed"]
    if (
        len(other["shares"]) == len(deal["shares"][0])
        and other["shares"] != deal["shares"][0]
        and signed(host_sign_key, other["sig"], shares_message(round_id, 0, k, other["shares"]))
    ):
        raise CheckFailedError("bad shares", f"two signed sets of deal {k}", 0)
    raise CheckFailedError("bad shares", f"deal {k}'s relayed shares prove nothing")


class RoundCheck:
    """One round, in 9.9's order; each failure raises :class:`CheckFailedError`."""

    def __init__(self, match: Match, r: dict) -> None:
        self.m, self.r = match, r
        self.round_id: bytes = r["round_id"]
        self.people: list[int] = list(r["people"])
        self.parties = len(self.people) + 1
        self.void = r["void"]
        self.published: dict[int, list[bytes | None]] = {}

    def run(self) -> tuple[str, str]:
        r, void = self.r, self.void
        digest = self.commitment()  # step 1
        if r["dealer"] is None and len(r["keys"]) == 1 < self.parties and void is not None:
            return self.before_keys(digest)
        self.keys()  # step 2
        self.decks()  # step 3
        if r["dealer"] is None:
            raise CheckFailedError("not revealed", "the round never reached its deal")
        if self.m.replay_ok:  # step 4, before the deals read with its plan
            self.dealer()
        dealt = plan(self.m.table, r["dealer"])
        self.deals(dealt)  # step 5
        if r["seeds"] is None:  # step 6
            raise CheckFailedError("not revealed", "the seeds were never revealed")
        secrets = self.seeds()
        self.shuffles(secrets)
        self.shares(dealt, secrets)
        cards = self.opened(dealt, secrets)
        if void is not None and void["reason"] == "absent":  # step 7
            return self.absent()
        if r["seeds"][0] is None:  # steps 8 and 9: the host's seed is never left out
            raise CheckFailedError("not revealed", "the host's seed")
        gone = [self.people[p - 1] for p in range(1, self.parties) if r["seeds"][p] is None]
        absent = " absent at the reveal" if gone else ""
        absent = ", ".join(f"seat {s}" for s in gone) + absent
        if void is not None and void["reason"] == "failed_check":  # step 8
            who = self.stopper()
            offender = void["offender"]
            if offender is not None and r["seeds"][self.people.index(offender) + 1] is None:
                raise CheckFailedError("not revealed", f"seat {offender} stopped, seed nil")
            if r["score"] is not None:
                raise CheckFailedError("void mismatch", "a failed_check void with a score")
            self.hand_so_far()
            self.reveal()
            if gone:
                return "stopped-unjudged", f"void: {who} stopped, cause unknown; {absent}"
            if offender is None and r["deals"]:
                raise CheckFailedError("re-rolled round", "the host stopped without cause, dealt")
            return "stopped", f"void: {who} stopped without cause"
        if gone:  # step 9 without every seed: the cards from the public record
            cards = self.public_cards(dealt)
        if self.m.replay_ok:  # step 9
            kind, note = self.replay(dealt, cards, hand_optional=bool(gone))
        else:
            kind, note = "not replayed", "checked; not replayed after an earlier failure"
        self.reveal()  # step 10
        return kind, f"{note}; {absent}" if gone else note

    def public_cards(self, dealt: list[list[tuple[int, int | None]]]) -> list[int]:
        """Step 9, a person's seed nil: a kings void's deck is its opening table at the
        table positions and the other cards in card order at the rest (the hand as in step
        7); any other round's is what its table and plays opened, every position exactly
        once, 40 different cards, each hand card the one opened at its position."""
        r = self.r
        if self.void is not None and self.void["reason"] == "kings":
            table = dict((pos, card) for pos, card in r["table"])
            opening = [pos for pos, seat in dealt[0] if seat is None]
            if sorted(table) != opening or len(set(table.values())) != len(table):
                raise CheckFailedError("misrouted card", "the table of a kings void")
            self.hand_so_far()
            rest = iter(c for c in range(40) if c not in table.values())
            return [table[pos] if pos in table else next(rest) for pos in range(40)]
        opened: dict[int, int] = {}
        for pos, card in [*r["table"], *([pos, code & 63] for _, code, pos, _ in r["plays"])]:
            if pos in opened:
                raise CheckFailedError("incomplete round", f"position {pos} opened twice")
            opened[pos] = card
        if len(opened) != 40:
            raise CheckFailedError("incomplete round", "a seed left out, the round not played out")
        cards = [opened[pos] for pos in range(40)]
        if len(set(cards)) != 40:
            raise CheckFailedError("substituted card", "a card opened twice")
        for pos, card in r["hand"]:
            if cards[pos] != card:
                raise CheckFailedError("substituted card", f"hand position {pos}")
        return cards

    # step 1
    def commitment(self) -> bytes:
        m, r = self.m, self.r
        if r["round_no"] != m.round_no + 1 or r["prev"] != m.prev:
            raise CheckFailedError("broken chain", f"round {r['round_no']}")
        if self.round_id in m.seen:
            raise CheckFailedError("replayed round")
        m.seen.add(self.round_id)
        keys = r["keys"]
        if not keys:
            raise CheckFailedError("not revealed", "the round holds no host key")
        digest = blind_digest(self.round_id, self.people, keys[0])
        msg = commit_message(self.round_id, r["round_no"], r["prev"], digest, m.rules_hash)
        if not signed(m.host_key, r["sig"], msg):
            raise CheckFailedError("bad signature", "on the round's commitment")
        for seat in self.people if m.version == 6 else ():
            if r["seated"][seat] == "computer":
                raise CheckFailedError("computer party", f"seat {seat}, a computer held it")
        if self.void is not None and self.void["reason"] not in ("kings", "absent", "failed_check"):
            raise CheckFailedError("void mismatch", f"reason {self.void['reason']!r}")
        return digest

    # step 2
    def keys(self) -> None:
        keys = self.r["keys"]
        if len(keys) != self.parties:
            raise CheckFailedError("not revealed", "the parties' keys were never relayed")
        for p, (point, proof, sign_key) in enumerate(keys):
            if not valid(point) or not key_proof_holds(self.round_id, p, point, proof, sign_key):
                raise CheckFailedError("bad key", f"party {p}", p)
        self.points = [k[0] for k in keys]
        self.joint = self.points[0]
        for point in self.points[1:]:
            self.joint = add(self.joint, point)

    # step 3
    def decks(self) -> None:
        """Deck by deck, in party order: its ciphertexts, its signature, then (version 4) its
        shuffle proof against the deck before it, the open deck for party 0."""
        r = self.r
        decks, sigs = r["decks"], r["deck_sigs"]
        proofs = r["deck_proofs"] if self.m.version != 3 else [None] * len(decks)
        if len(decks) != len(sigs) or len(decks) != len(proofs):
            raise CheckFailedError("broken chain", "decks and their signatures")
        if len(decks) > self.parties:  # 9.9 step 3: at most one deck per party
            raise CheckFailedError("bad deck", f"{len(decks)} decks for {self.parties} parties")
        before = open_deck(self.joint)
        for p, (deck, sig, proof) in enumerate(zip(decks, sigs, proofs, strict=True)):
            if len(deck) != 40 or not all(
                isinstance(c, bytes) and len(c) == 64 and valid(c[:32]) and valid(c[32:])
                for c in deck
            ):
                raise CheckFailedError("bad deck", f"party {p}", p)
            if not signed(r["keys"][p][2], sig, deck_message(self.round_id, p, deck, proof)):
                raise CheckFailedError("bad party signature", f"party {p}'s deck", p)
            claim = Shuffle(self.round_id, p, self.joint, before, deck)
            if proof is not None and not shuffle_proof_holds(claim, proof):
                raise CheckFailedError("bad shuffle proof", f"party {p}", p)
            before = deck

    # step 5
    def deals(self, dealt: list[list[tuple[int, int | None]]]) -> None:
        """Signed shares; the table cards and every play proof against them."""
        r = self.r
        if len(r["deals"]) > len(dealt) or (r["deals"] and len(r["decks"]) != self.parties):
            raise CheckFailedError("bad shares", f"{len(r['deals'])} deals recorded")
        targets: dict[int, int | None] = {}
        for k, deal in enumerate(r["deals"], start=1):
            targets.update(dealt[k - 1])
            if len(deal["shares"]) != self.parties or len(deal["sigs"]) != self.parties:
                raise CheckFailedError("broken chain", f"deal {k} by party")
            for p in range(self.parties):
                shares, sig = deal["shares"][p], deal["sigs"][p]
                mine = [pos for pos, seat in dealt[k - 1] if owner_of(seat, self.people) != p]
                if shares is None or sig is None or len(shares) != len(mine):
                    raise CheckFailedError("bad shares", f"party {p}'s shares of deal {k}", p)
                if not signed(r["keys"][p][2], sig, shares_message(self.round_id, p, k, shares)):
                    raise CheckFailedError(
                        "bad party signature", f"party {p}'s shares of deal {k}", p
                    )
                for pos, share in zip(mine, shares, strict=True):
                    self.published.setdefault(pos, [None] * self.parties)[p] = share
            if "relayed" in deal:  # 9.8: only in a seat's evidence
                relayed_check(self.round_id, r["keys"][0][2], k, deal)
        self.targets = targets
        deck = r["decks"][-1] if r["decks"] else []
        for pos, card in r["table"]:
            if (
                pos not in targets
                or targets[pos] is not None
                or self.unshared(pos) != CARD_POINTS[card]
            ):
                raise CheckFailedError("no card", f"table position {pos}")
        for seat, code, pos, proof in r["plays"]:
            card, o = code & 63, owner_of(seat, self.people)
            assert o is not None
            ok = targets.get(pos, -1) == seat
            if ok:
                d = self.unshared(pos)
                ok = d is not None and dleq_holds(
                    self.points[o],
                    play_context(self.round_id, o, pos, card),
                    deck[pos][:32],
                    sub(d, CARD_POINTS[card]),
                    proof,
                )
            if not ok:
                raise CheckFailedError("bad play proof", f"seat {seat} at position {pos}", o)

    def unshared(self, pos: int) -> bytes | None:
        """``V`` less every share published for ``pos`` (None if a share is not a point)."""
        point = self.r["decks"][-1][pos][32:]
        for share in self.published.get(pos, []):
            if share is not None:
                if not valid(share):
                    return None
                point = sub(point, share)
        return point

    # step 4
    def dealer(self) -> None:
        m, r = self.m, self.r
        want = m.dealer
        if want is None and (m.mid_way or m.dealer_as_recorded):
            want = m.dealer = r["dealer"]  # (the host's word, 9.9)
            m.dealer_as_recorded = False
        elif want is None:
            want = first_dealer(self.round_id, self.points, m.table.players)
            m.dealer = want
        if r["dealer"] != want:
            raise CheckFailedError("broken chain", f"dealer {r['dealer']}, the match's is {want}")

    # step 6
    def seeds(self) -> list[Secrets | None]:
        seeds = self.r["seeds"]
        if len(seeds) != self.parties:
            raise CheckFailedError("wrong secret", f"{len(seeds)} seeds, {self.parties} parties")
        out: list[Secrets | None] = []
        for p, seed in enumerate(seeds):
            if seed is None:
                out.append(None)
                continue
            s = secrets(self.round_id, p, seed)
            if [s.point, key_proof(s, self.round_id, p), s.sign_key] != self.r["keys"][p]:
                raise CheckFailedError("wrong secret", f"party {p}", p)
            out.append(s)
        return out

    def shuffles(self, secrets: list[Secrets | None]) -> None:
        deck = open_deck(self.joint)
        for p, out in enumerate(self.r["decks"]):
            s = secrets[p]
            if s is not None:
                want = shuffled(deck, s, self.joint)
                bad = [i for i in range(40) if want[i] != out[i]]
                if bad:
                    raise CheckFailedError("substituted card", f"party {p}, positions {bad}", p)
            deck = out

    def shares(
        self, dealt: list[list[tuple[int, int | None]]], secrets: list[Secrets | None]
    ) -> None:
        r = self.r
        for k, deal in enumerate(r["deals"], start=1):
            for p, shares in enumerate(deal["shares"]):
                s = secrets[p]
                if s is None or shares is None:
                    continue
                mine = [pos for pos, seat in dealt[k - 1] if owner_of(seat, self.people) != p]
                for pos, share in zip(mine, shares, strict=True):
                    if mul(s.x, r["decks"][-1][pos][:32]) != share:
                        raise CheckFailedError("bad share", f"party {p}, position {pos}", p)

    def opened(
        self, dealt: list[list[tuple[int, int | None]]], secrets: list[Secrets | None]
    ) -> list[int]:
        """With every seed: the card at each position, traced back through the shuffles, and
        every card the record shows opened (hand, table, plays) is that card."""
        r = self.r
        if any(s is None for s in secrets) or len(r["decks"]) != self.parties:
            return []
        cards = []
        for pos in range(40):
            i = pos
            for s in reversed(secrets):
                assert s is not None
                i = s.perm[i]
            cards.append(i)
        shown = [*r["hand"], *r["table"], *([pos, code & 63] for _, code, pos, _ in r["plays"])]
        for pos, card in shown:
            if cards[pos] != card:
                raise CheckFailedError("substituted card", f"position {pos} holds {cards[pos]}")
        return cards

    def stopper(self) -> str:
        """Step 8: a failed_check void names a person's seat, or nil for the host."""
        offender = self.void["offender"]
        if offender is None:
            return "the host (party 0)"
        if offender not in self.people:
            raise CheckFailedError("void mismatch", f"seat {offender} was not a person's party")
        return f"seat {offender} (party {self.people.index(offender) + 1})"

    # step 7
    def absent(self) -> tuple[str, str]:
        r = self.r
        offender = self.void["offender"]
        if offender not in self.people:
            raise CheckFailedError("void mismatch", f"seat {offender} was not a person's party")
        note = self.absent_seeds(r["seeds"], offender)
        if r["score"] is not None:
            raise CheckFailedError("void mismatch", "an absent void with a score")
        self.hand_so_far()
        self.reveal()
        return "absent", note

    def absent_seeds(self, seeds: list, offender: int) -> str:
        """Step 7 (and *void before the keys* step 5): one seed per party, the named seat's
        party's nil, the host's not; another person's nil is reported absent too."""
        party = self.people.index(offender) + 1
        if len(seeds) != self.parties or seeds[party] is not None or seeds[0] is None:
            raise CheckFailedError("not revealed", f"an absent void naming seat {offender}")
        others = range(1, self.parties)
        also = [self.people[p - 1] for p in others if p != party and seeds[p] is None]
        note = f"void: seat {offender} absent"
        if also:
            note += " (" + ", ".join(f"seat {s}" for s in also) + " absent too)"
        return note

    def hand_so_far(self) -> None:
        """A void's hand (steps 7 and 8): empty (the host's export), or the seat's positions
        of the deals so far, each opening to its card with the seat's own seed; a position
        left out (9.8) must open to no card point, or to a card shown at another position."""
        r, m = self.r, self.m
        hand = r["hand"]
        if not hand:
            return
        own = owner_of(m.seat, self.people)
        assert own is not None
        seed = r["seeds"][own]
        positions = sorted(pos for pos, s in self.targets.items() if s == m.seat)
        held = [pos for pos, _ in hand]
        if held != sorted(set(held)) or not set(held) <= set(positions) or seed is None:
            raise CheckFailedError("misrouted card", "the hand of a void round")
        x = secrets(self.round_id, own, seed).x
        cards = dict((pos, card) for pos, card in hand)
        shown = [*r["table"], *hand, *([pos, code & 63] for _, code, pos, _ in r["plays"])]
        for pos in positions:
            point = self.unshared(pos)
            opened = None
            if point is not None:
                try:
                    point = sub(point, mul(x, r["decks"][-1][pos][:32]))
                    opened = CARD_POINTS.index(point) if point in CARD_POINTS else None
                except (RefusedError, SodiumError):
                    opened = None
            if pos in cards and opened != cards[pos]:
                raise CheckFailedError("substituted card", f"hand position {pos}")
            elsewhere = any(card == opened and q != pos for q, card in shown)
            if pos not in cards and opened is not None and not elsewhere:
                raise CheckFailedError("misrouted card", f"hand position {pos} left out")

    # step 9
    def replay(
        self,
        dealt: list[list[tuple[int, int | None]]],
        cards: list[int],
        *,
        hand_optional: bool = False,
    ) -> tuple[str, str]:
        r, m = self.r, self.m
        dealer = r["dealer"]
        so_far = [pos for deal in dealt[: len(r["deals"])] for pos, s in deal if s == m.seat]
        if hand_optional and not r["hand"]:
            so_far = []
        if [pos for pos, _ in r["hand"]] != so_far or [pos for pos, _ in r["table"]] != [
            pos for pos, s in dealt[0] if s is None
        ]:
            raise CheckFailedError("misrouted card", "hand or table positions")
        game = RoundReplay(m.table, dealer, cards)
        void = self.void
        if game.void:
            if void is None or void["offender"] is not None or r["plays"] or len(r["deals"]) != 1:
                raise CheckFailedError("void mismatch", "kings on the table, and no kings void")
            m.dealer = dealer  # 5.6: the same dealer deals again
            return "kings", "void: kings on the opening table"
        if void is not None:
            raise CheckFailedError("void mismatch", "a kings void without the kings")
        try:
            for s, code, _, _ in r["plays"]:
                game.play(s, code)
        except IllegalPlayError as exc:
            raise CheckFailedError("illegal play", str(exc)) from exc
        if not game.over:
            raise CheckFailedError("incomplete round")
        score = [sum(line.points[side] for line in game.score()) for side in range(m.table.sides)]
        if r["score"] != score:
            raise CheckFailedError("score mismatch", f"{r['score']} != {score}")
        m.scores = [a + b for a, b in zip(m.scores, score, strict=True)]
        m.dealer = (dealer + 1) % m.table.players
        return "verified", f"verified (dealer seat {dealer}, {len(r['plays'])} plays)"

    # step 10
    def reveal(self) -> None:
        r, m = self.r, self.m
        if r["seeds"][0] is None or r["reveal_sig"] is None:
            raise CheckFailedError("not revealed", "no reveal")
        chain = chain_hash(r, blind_digest(self.round_id, self.people, r["keys"][0]))
        if not signed(
            m.host_key, r["reveal_sig"], reveal_message(self.round_id, r["seeds"][0], chain)
        ):
            raise CheckFailedError("bad signature", "on the reveal")

    def before_keys(self, digest: bytes) -> tuple[str, str]:
        """9.9, *void before the keys*."""
        r, void = self.r, self.void
        if r["score"] is not None or any(
            r.get(k)
            for k in ("decks", "deck_sigs", "deck_proofs", "deals", "hand", "table", "plays")
        ):
            raise CheckFailedError("broken chain", "recorded past the keys")
        if void["reason"] == "kings":
            raise CheckFailedError("void mismatch", "a kings void before anything was dealt")
        seeds = r["seeds"]
        if seeds is None or len(seeds) != self.parties:
            raise CheckFailedError("not revealed", "seeds of a void before the keys")
        missing = [p for p, s in enumerate(seeds) if s is None]
        offender = void["offender"]
        if void["reason"] == "failed_check":
            who = self.stopper()
            if 0 in missing or (
                offender is not None and self.people.index(offender) + 1 in missing
            ):
                raise CheckFailedError("not revealed", f"parties {missing} kept their seeds")
            kind, note = "stopped", f"void: {who} stopped without cause"
        else:
            if offender not in self.people:
                raise CheckFailedError("void mismatch", f"seat {offender} was not a person's party")
            kind, note = "absent-before-keys", self.absent_seeds(seeds, offender)
        s = secrets(self.round_id, 0, seeds[0])
        if [s.point, key_proof(s, self.round_id, 0), s.sign_key] != r["keys"][0]:
            raise CheckFailedError("wrong secret", "party 0", 0)
        self.reveal()
        return kind, f"{note} before every key came; nothing dealt"
