"""An independent verifier of blind rounds, written from protocol.md section 9 alone.

It imports nothing from scopa_net. The group arithmetic is libsodium's (through
``nacl.bindings``), as 9.2 names it; signatures are Ed25519 from ``cryptography``; hashes,
the random stream and the shuffle are section 5's, from ``document_hashes``;
replaying the plays and scoring a round is ``document_referee``'s, written from RULES.md and
protocol.md. A version 3 transcript (9.8) is read as plain msgpack, checked for its canonical
encoding (6.1), and every round is checked in 9.9's order. ``test_blind_from_the_document.py``
runs this against 9.11's vectors and against transcripts our own host and clients make.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from document_hashes import below, h, lp, shuffle, words
from document_referee import IllegalPlayError, RoundReplay, Table, deal_targets, match_winner
from nacl import bindings as na
from nacl.exceptions import RuntimeError as SodiumError

# --- 9.2: group, encodings, hashes -------------------------------------------------------------

L = 2**252 + 27742317777372353535851937790883648493
B = bytes([0x58]) + bytes([0x66]) * 31
TAG = "scopa-net/blind/v1/"


def u8(n: int) -> bytes:
    return bytes([n])


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def hs(tag: str, *fields: bytes) -> bytes:
    """``Hs``: SHA-512 over the length-prefixed fields, read little-endian, mod l."""
    digest = hashlib.sha512(lp(tag.encode()) + b"".join(lp(f) for f in fields)).digest()
    return na.crypto_core_ed25519_scalar_reduce(digest)


def scalar(n: int) -> bytes:
    return (n % L).to_bytes(32, "little")


def as_int(s: bytes) -> int:
    return int.from_bytes(s, "little")


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
    try:
        a1 = sub(mul_b(z), mul(e, point))
        a2 = sub(mul(z, u), mul(e, d))
    except RefusedError:
        return False
    return e == hs(TAG + "dleq", ctx, point, u, d, a1, a2)


def play_context(round_id: bytes, owner: int, pos: int, card: int) -> bytes:
    return round_id + u8(owner) + u8(pos) + u8(card)


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


def deck_message(round_id: bytes, party: int, deck: Sequence[bytes]) -> bytes:
    return (
        lp(b"scopa-net/blind/v1/deck-signature") + lp(round_id) + lp(u8(party)) + lp(b"".join(deck))
    )


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


def chain_hash(r: dict, digest: bytes) -> bytes:
    dealer = b"" if r["dealer"] is None else u8(r["dealer"])
    keys = b"".join(b"".join(k) for k in r["keys"])
    decks = b"".join(b"".join(d) + s for d, s in zip(r["decks"], r["deck_sigs"], strict=True))
    deals = b""
    for deal in r["deals"]:
        for shares, sig in zip(deal["shares"], deal["sigs"], strict=True):
            deals += b"\x00" if shares is None else b"\x01" + b"".join(shares) + sig
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
    kind: str  # "verified", "kings", "absent", "absent-before-keys", "not revealed", "failed"
    note: str
    error: CheckFailedError | None = None

    @property
    def ok(self) -> bool:
        return self.kind in ("verified", "kings", "absent", "absent-before-keys")


@dataclass
class Verdict:
    rounds: list[RoundVerdict] = field(default_factory=list)
    result: str = ""
    ok: bool = False


@dataclass
class Match:
    """What carries from round to round: the chain, the ids seen and the dealer."""

    table: Table
    rules_hash: bytes
    host_key: bytes
    seat: int
    prev: bytes = bytes(32)
    round_no: int = 0
    seen: set[bytes] = field(default_factory=set)
    dealer: int | None = None
    """The next round's dealer; None until the match's first deal."""
    scores: list[int] = field(default_factory=list)
    replay_ok: bool = True


ROUND_KEYS = [
    "round_id", "round_no", "prev", "dealer", "people", "keys", "sig", "decks", "deck_sigs",
    "deals", "hand", "table", "plays", "void", "score", "seeds", "reveal_sig",
]  # fmt: skip
TOP_KEYS = ["format", "version", "rules", "host_key", "seat", "rounds", "result", "stopped"]


def read(data: bytes) -> dict:
    """6.1 and 9.8: one canonical msgpack value with the listed keys in order."""
    value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    if msgpack.packb(value, use_bin_type=True) != data:
        raise CheckFailedError("invalid transcript", "not the canonical encoding")
    if not isinstance(value, dict) or list(value) != TOP_KEYS:
        raise CheckFailedError("invalid transcript", "top-level keys")
    if value["format"] != "scopa-net transcript" or value["version"] != 3:
        raise CheckFailedError("invalid transcript", "not version 3")
    for r in value["rounds"]:
        if list(r) != ROUND_KEYS:
            raise CheckFailedError("invalid transcript", f"round keys {list(r)}")
    return value


def verify(data: bytes) -> Verdict:
    """Every round of a version 3 transcript, then the match end."""
    t = read(data)
    rules = t["rules"]
    table = Table(rules["players"], rules["target"], frozenset(rules["variants"]))
    match = Match(
        table, rules_hash(table.players, table.target, rules["variants"]), t["host_key"], t["seat"]
    )
    match.scores = [0] * table.sides
    verdict = Verdict()
    if not t["rounds"]:
        verdict.result = "empty transcript"
        return verdict
    for r in t["rounds"]:
        verdict.rounds.append(verify_round(match, r))
    verdict.result, finished = verify_result(match, t["result"])
    verdict.ok = finished and all(v.ok for v in verdict.rounds)
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
    if list(result["scores"]) != match.scores:
        return f"score mismatch: {result['scores']} != {match.scores}", False
    if result["winner"] != match_winner(match.table, match.scores):
        return "score mismatch: winner", False
    return f"verified: scores {match.scores}", True


def verify_round(match: Match, r: dict) -> RoundVerdict:
    no = r["round_no"]
    try:
        kind, note = RoundCheck(match, r).run()
    except CheckFailedError as exc:
        match.replay_ok = False
        return RoundVerdict(no, "failed", str(exc), exc)
    if kind == "not revealed":
        match.replay_ok = False
    return RoundVerdict(no, kind, note)


class RoundCheck:
    """One round, in 9.9's order."""

    def __init__(self, match: Match, r: dict) -> None:
        self.m, self.r = match, r
        self.round_id: bytes = r["round_id"]
        self.people: list[int] = list(r["people"])
        self.parties = len(self.people) + 1
        self.void = r["void"]

    # 9.9 step 1
    def chain(self) -> bytes:
        m, r = self.m, self.r
        if r["round_no"] != m.round_no + 1 or r["prev"] != m.prev:
            raise CheckFailedError("broken chain", f"round {r['round_no']}")
        if self.round_id in m.seen:
            raise CheckFailedError("replayed round")
        m.seen.add(self.round_id)
        m.round_no = r["round_no"]
        keys = r["keys"]
        if not keys or len(keys[0]) != 3:
            raise CheckFailedError("broken chain", "no host key")
        digest = blind_digest(self.round_id, self.people, keys[0])
        msg = commit_message(self.round_id, r["round_no"], r["prev"], digest, m.rules_hash)
        if not signed(m.host_key, r["sig"], msg):
            raise CheckFailedError("bad signature", "on the round's commitment")
        return digest

    def keys(self) -> None:
        keys = self.r["keys"]
        if len(keys) != self.parties:
            raise CheckFailedError("broken chain", f"{len(keys)} keys for {self.parties} parties")
        for p, (point, proof, sign_key) in enumerate(keys):
            if not valid(point) or not key_proof_holds(self.round_id, p, point, proof, sign_key):
                raise CheckFailedError("bad key proof", f"party {p}", p)
        self.points = [k[0] for k in keys]
        self.joint = self.points[0]
        for point in self.points[1:]:
            self.joint = add(self.joint, point)

    def dealer(self) -> int:
        m, r = self.m, self.r
        want = m.dealer
        if want is None:
            want = first_dealer(self.round_id, self.points, m.table.players)
        if r["dealer"] != want:
            raise CheckFailedError("broken chain", f"dealer {r['dealer']}, the match's is {want}")
        return want

    # 9.9 step 2
    def decks(self) -> None:
        r = self.r
        decks, sigs = r["decks"], r["deck_sigs"]
        if len(decks) != len(sigs) or len(decks) > self.parties:
            raise CheckFailedError("broken chain", "decks and signatures")
        for p, (deck, sig) in enumerate(zip(decks, sigs, strict=True)):
            if len(deck) != 40 or not all(
                isinstance(c, bytes) and len(c) == 64 and valid(c[:32]) and valid(c[32:])
                for c in deck
            ):
                raise CheckFailedError("bad deck", f"party {p}", p)
            if not signed(r["keys"][p][2], sig, deck_message(self.round_id, p, deck)):
                raise CheckFailedError("bad party signature", f"party {p}'s deck", p)

    # 9.9 step 3
    def seeds(self) -> list[Secrets | None]:
        seeds = self.r["seeds"] or [None] * self.parties
        if len(seeds) != self.parties:
            raise CheckFailedError("broken chain", "seeds by party")
        out: list[Secrets | None] = []
        for p, seed in enumerate(seeds):
            if seed is None:
                out.append(None)
                continue
            s = secrets(self.round_id, p, seed)
            point, _, sign_key = self.r["keys"][p]
            if (s.point, s.sign_key) != (point, sign_key):
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

    # 9.9 step 4
    def deals(self, dealt: list[list[tuple[int, int | None]]], secrets: list[Secrets | None]):
        r = self.r
        deck = r["decks"][-1]
        published: dict[int, list[bytes | None]] = {}
        if len(r["deals"]) > len(dealt):
            raise CheckFailedError("broken chain", "more deals than the plan")
        for k, deal in enumerate(r["deals"], start=1):
            if len(deal["shares"]) != self.parties or len(deal["sigs"]) != self.parties:
                raise CheckFailedError("broken chain", f"deal {k} by party")
            for p in range(self.parties):
                shares, sig = deal["shares"][p], deal["sigs"][p]
                mine = [pos for pos, seat in dealt[k - 1] if owner_of(seat, self.people) != p]
                if shares is None:
                    if sig is not None:
                        raise CheckFailedError(
                            "broken chain", f"deal {k}: a signature without shares"
                        )
                    for pos in mine:
                        published.setdefault(pos, [None] * self.parties)
                    continue
                if len(shares) != len(mine) or not signed(
                    r["keys"][p][2], sig, shares_message(self.round_id, p, k, shares)
                ):
                    raise CheckFailedError(
                        "bad party signature", f"party {p}'s shares of deal {k}", p
                    )
                s = secrets[p]
                for pos, share in zip(mine, shares, strict=True):
                    if not valid(share):
                        raise CheckFailedError("bad share", f"party {p}, position {pos}", p)
                    if s is not None and mul(s.x, deck[pos][:32]) != share:
                        raise CheckFailedError("bad share", f"party {p}, position {pos}", p)
                    published.setdefault(pos, [None] * self.parties)[p] = share
        self.published = published

    def opened(self, pos: int, secrets: list[Secrets | None]) -> int | None:
        """The card at ``pos`` from the published shares and, for the owner's, its seed."""
        deck = self.r["decks"][-1]
        point = deck[pos][32:]
        shares = self.published.get(pos, [None] * self.parties)
        for p in range(self.parties):
            share = shares[p]
            if share is None:
                s = secrets[p]
                if s is None:
                    return None
                share = mul(s.x, deck[pos][:32])
            point = sub(point, share)
        return CARD_OF.get(point, -1)

    def run(self) -> tuple[str, str]:
        r, m = self.r, self.m
        digest = self.chain()
        void = self.void
        if void is not None and void["reason"] not in ("kings", "absent", "failed_check"):
            raise CheckFailedError("void mismatch", f"reason {void['reason']!r}")
        if len(r["keys"]) == 1 < self.parties and void is not None:
            return self.before_keys(digest)
        self.keys()
        dealer = self.dealer()
        self.decks()
        secrets = self.seeds()
        self.shuffles(secrets)
        dealt = plan(m.table, dealer)
        past_decks = r["deals"] or r["hand"] or r["table"] or r["plays"]
        if past_decks and len(r["decks"]) != self.parties:
            raise CheckFailedError("broken chain", "cards dealt before every deck came")
        self.published: dict[int, list[bytes | None]] = {}
        if r["decks"]:
            self.deals(dealt, secrets)
        revealed = r["seeds"] is not None and all(s is not None for s in r["seeds"])
        cards = self.cards(dealt, dealer, secrets, revealed)
        if void is not None and void["reason"] == "failed_check":
            offender = void["offender"]
            who = "the host's party" if offender is None else f"seat {offender}"
            raise CheckFailedError(
                "bad void",
                f"{who} stopped the round, and every part checks out",
                owner_of(offender, self.people),
            )
        if void is not None and void["reason"] == "absent":
            return self.absent(digest, dealer)
        if not revealed:
            return "not revealed", "not revealed: the round's seeds did not all come"
        note = self.replay(dealer, cards)
        self.reveal(digest)
        return note

    # 9.9 step 5
    def cards(self, dealt, dealer: int, secrets, revealed: bool) -> list[int | None]:
        r, m = self.r, self.m
        seat = m.seat
        so_far = [pos_seat for deal in dealt[: len(r["deals"])] for pos_seat in deal]
        targets = dict(so_far)
        hand_positions = [pos for pos, s in so_far if s == seat]
        table_positions = [pos for pos, s in dealt[0] if s is None] if r["deals"] else []
        hand = [p for p, _ in r["hand"]]
        if hand != hand_positions and (revealed or hand):
            raise CheckFailedError("misrouted card", f"hand positions {hand}, not {hand_positions}")
        if [p for p, _ in r["table"]] != table_positions:
            raise CheckFailedError("misrouted card", "table positions")
        deck = r["decks"][-1] if r["decks"] else None
        known: dict[int, int] = {}
        for pos, card in [*r["hand"], *r["table"]]:
            got = self.opened(pos, secrets)
            if got is None:
                raise CheckFailedError("not revealed", f"position {pos} cannot be opened")
            if got != card:
                raise CheckFailedError(
                    "no card" if got == -1 else "swapped card", f"position {pos}"
                )
            known[pos] = card
        played_at: set[int] = set()
        for s, code, pos, proof in r["plays"]:
            card = code & 63
            if targets.get(pos, -1) != s or pos in played_at:
                raise CheckFailedError("misrouted card", f"play at position {pos} by seat {s}")
            played_at.add(pos)
            o = owner_of(s, self.people)
            assert o is not None
            assert deck is not None
            u, v = deck[pos][:32], deck[pos][32:]
            others = self.published.get(pos, [None] * self.parties)
            total = v
            for p in range(self.parties):
                if p != o:
                    share = others[p]
                    if share is None:
                        raise CheckFailedError("bad play proof", f"position {pos} was never shared")
                    total = sub(total, share)
            d = sub(total, CARD_POINTS[card])
            ctx = play_context(self.round_id, o, pos, card)
            if not dleq_holds(self.points[o], ctx, u, d, proof):
                raise CheckFailedError("bad play proof", f"seat {s} at position {pos}", o)
            if known.get(pos, card) != card:
                raise CheckFailedError("swapped card", f"position {pos}")
            known[pos] = card
        if len(set(known.values())) != len(known):
            raise CheckFailedError("duplicated card", "a card seen twice")
        cards: list[int | None] = [None] * 40
        if revealed and deck is not None:
            for pos in range(40):
                got = self.opened(pos, secrets)
                if got is None or got == -1:
                    raise CheckFailedError("no card", f"position {pos}")
                cards[pos] = got
            if len(set(cards)) != 40:
                raise CheckFailedError("duplicated card", "the deck holds a card twice")
        return cards

    # 9.9 step 6
    def replay(self, dealer: int, cards: list[int | None]) -> tuple[str, str]:
        r, m = self.r, self.m
        if None in cards:
            raise CheckFailedError("not revealed")
        game = RoundReplay(m.table, dealer, [c for c in cards if c is not None])
        void = self.void
        if game.void != (void is not None):
            raise CheckFailedError("void mismatch", "kings")
        if void is not None:
            if void["offender"] is not None or r["plays"] or r["score"] is not None:
                raise CheckFailedError("void mismatch", "a kings void with more")
            if len(r["deals"]) != 1:
                raise CheckFailedError("broken chain", "a kings void past its first deal")
            m.dealer = dealer  # 5.6: the same dealer deals again
            return "kings", "void: kings on the opening table"
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

    # 9.9 step 7
    def reveal(self, digest: bytes) -> None:
        r, m = self.r, self.m
        seeds = r["seeds"]
        if seeds is None or r["reveal_sig"] is None:
            raise CheckFailedError("not revealed")
        chain = chain_hash(r, digest)
        if seeds[0] is None or not signed(
            m.host_key, r["reveal_sig"], reveal_message(self.round_id, seeds[0], chain)
        ):
            raise CheckFailedError("bad signature", "on the reveal")
        m.prev = chain

    def absent(self, digest: bytes, dealer: int) -> tuple[str, str]:
        r = self.r
        offender = self.void["offender"]
        if offender not in self.people:
            raise CheckFailedError("void mismatch", f"seat {offender} was not a person's party")
        party = self.people.index(offender) + 1
        seeds = r["seeds"]
        if seeds is None or [s is None for s in seeds] != [p == party for p in range(self.parties)]:
            raise CheckFailedError(
                "not revealed", f"the seeds of an absent void naming seat {offender}"
            )
        if r["score"] is not None:
            raise CheckFailedError("void mismatch", "an absent void with a score")
        self.reveal(digest)
        self.m.dealer = dealer
        return "absent", f"void: seat {offender} absent"

    def before_keys(self, digest: bytes) -> tuple[str, str]:
        """9.9, *void before the keys*."""
        r = self.r
        if r["dealer"] is not None or any(
            r[k] for k in ("decks", "deck_sigs", "deals", "hand", "table", "plays")
        ):
            raise CheckFailedError("broken chain", "recorded past the keys")
        if r["score"] is not None:
            raise CheckFailedError("broken chain", "a score before the keys")
        void = self.void
        if void["reason"] == "kings":
            raise CheckFailedError("void mismatch", "a kings void before anything was dealt")
        if void["reason"] == "failed_check":
            offender = void["offender"]
            raise CheckFailedError(
                "bad void",
                f"seat {offender} stopped the round, and nothing was wrong",
                owner_of(offender, self.people),
            )
        offender = void["offender"]
        if void["reason"] != "absent" or offender not in self.people:
            raise CheckFailedError("void mismatch", f"seat {offender}")
        party = self.people.index(offender) + 1
        seeds = r["seeds"]
        if (
            seeds is None
            or len(seeds) != self.parties
            or [s is None for s in seeds] != [p == party for p in range(self.parties)]
        ):
            raise CheckFailedError("not revealed", "seeds of a void before the keys")
        s = secrets(self.round_id, 0, seeds[0])
        if (s.point, s.sign_key) != (r["keys"][0][0], r["keys"][0][2]):
            raise CheckFailedError("wrong secret", "party 0", 0)
        self.reveal(digest)
        return "absent-before-keys", (
            f"void: seat {offender} absent before every key came; nothing dealt"
        )
