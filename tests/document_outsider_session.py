"""An outsider's session client and transcript verifier, written from protocol.md, RULES.md and
README.md alone (nothing of scopa_net, server or client). Besides the standard library it uses
msgpack (section 1), ``cryptography`` for Ed25519 (5.3), and the earlier outsiders' section 5
hashes (``document_hashes``), RULES.md referee (``document_referee``) and own-play checker
(``document_own_plays``), themselves written from the documents alone.

``OutsiderSeat`` joins a table over TCP, takes part in every fair deal (5.4), plays legal
cards, and lives through what a person's network and host do to it: a cut connection (it
resumes, 3.3, and sends again a ``play`` still unanswered, 3.5: ``ack {duplicate: true}``), a
``stale`` resume (it rewinds its record to ``current_seq`` and resumes from there, 3.3, 3.8),
``storage`` and ``rate_limited`` (the move goes again, the same, after a pause, 3.5, 3.6), and a
catch-up by ``snapshot`` (3.4, 5.10: the match before it the host's word). It keeps its
record as a fold of the events it read, so a rewind is the fold again up to ``current_seq``.
Every round it followed is checked at its reveal as 6.2 checks a transcript's round
(``check_round``), and it saves its transcript (6.1: version 5, 7 or 9 as it was caught up),
which ``verify_transcript`` checks as 6.2 says.

Where protocol.md left its writer to guess (each now said there):

- 3.3: after `error stale`, which `last_seq` to resume from when a snapshot read stands above
  `current_seq` (the newest event still held: the last read before that snapshot);
- 5.4: whether to commit to a `round_commit` read in a replay whose `seed_commits` may follow
  in it (yes; `wrong_phase` then means only that), and when while `syncing` (after the
  snapshot);
- 5.4: which seed to commit to a round id told again after a rewind (the same seed, never a
  fresh one: a host that lost a revealed seed would otherwise choose between two deals);
- 5.4, 3.6: what a seed message refused `storage` or `rate_limited` means (not taken; it may
  go again, the same; this client sends it again after half a second);
- 3.6: whether a `play` sent just after the unasked `error storage` is refused at once (only
  as the host reads it: behind 32 answers owed it is read once the host can save);
- 6.1: whether a round cut short by a catch-up stays in a version 7 or 9 file (it does not).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from itertools import pairwise

import msgpack
import trio
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from document_hashes import below, h, lp, shuffle, u8, u32, u64, words
from document_own_plays import OwnPlays
from document_referee import (
    IllegalPlayError,
    RoundReplay,
    Table,
    deal_targets,
    legal_takes,
    match_winner,
)

VERSION = 5
MAX_PAYLOAD = 65536  # section 1
EXCLUDED = {None: 0, "no_commit": 1, "no_reveal": 2, "bad_reveal": 3}  # 5.7
NOT_NOW = ("storage", "rate_limited")  # 3.5: no answer to the move
FIRST_PAUSE, LONGEST_PAUSE = 0.5, 5.0  # 3.5: the pause before a `play` goes again


class CheckFailedError(Exception):
    """A check of 5.10 or 6.2 failed: ``check`` is its name in 6.2's words."""

    def __init__(self, round_no: int, check: str, detail: str = "") -> None:
        super().__init__(f"round {round_no}: {check}: {detail}")
        self.round_no, self.check, self.detail = round_no, check, detail


class HostMisbehavedError(Exception):
    """Something no honest host sends (a refusal of ours that ends the connection)."""


class ConnectionLostError(Exception):
    """The connection ended: closed, cut, or ended by the host's `bye`."""


# --- 5.1 to 5.9: the round from its public record -------------------------------------------------


def signed(key: bytes, sig: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def signed_message(tag: str, *fields: bytes) -> bytes:
    """5.2, 5.4, 5.7, 5.9, 5.3: the tag and every field, each length-prefixed."""
    return lp(tag.encode()) + b"".join(lp(f) for f in fields)


def rules_hash(rules: Table) -> bytes:
    names = sorted(v.encode() for v in rules.variants)
    return h("scopa-net/v1/rules", u8(rules.players), u8(rules.target), *names)


def seat_commit(round_id: bytes, seat: int, seed: bytes) -> bytes:
    return h("scopa-net/v1/seat-commit", round_id, u8(seat), seed)


def card_hash(round_id: bytes, card: int, salt: bytes) -> bytes:
    return h("scopa-net/v1/card-hash", round_id, u8(card), salt)


def slots(values: list) -> bytes:
    return u8(len(values)) + b"".join(b"\x00" if v is None else b"\x01" + v for v in values)


def counting_seeds(r: dict) -> list[bytes]:
    """5.4: the seeds that open their commitment, in seat order."""
    return [
        s
        for seat, (c, s) in enumerate(zip(r["commits"], r["seeds"], strict=True))
        if c is not None and s is not None and seat_commit(r["round_id"], seat, s) == c
    ]


def joint_seed(r: dict) -> bytes:
    return h("scopa-net/v1/joint-seed", r["round_id"], r["digest"], *counting_seeds(r))


def first_dealer(r: dict, players: int) -> int:
    """5.6: the first draw of the first-dealer stream of round 1's joint seed."""
    return below(words(joint_seed(r), "scopa-net/v1/first-dealer", r["round_id"]), players)


def chain_hash(r: dict) -> bytes:
    """5.7: the twelve fields, each length-prefixed once."""
    excluded = b"" if r["excluded"] is None else bytes(EXCLUDED[x] for x in r["excluded"])
    table = b"".join(u8(pos) + u8(card) + salt for pos, card, salt in r["table"])
    plays = b"".join(u8(s) + u64(code) + u8(pos) + salt for s, code, pos, salt in r["plays"])
    return h(
        "scopa-net/v1/round-chain",
        r["round_id"],
        u32(r["round_no"]),
        r["prev"],
        r["digest"],
        b"" if r["commits"] is None else slots(r["commits"]),
        b"" if r["seeds"] is None else slots(r["seeds"]),
        excluded,
        table,
        plays,
        b"kings" if r["void"] else b"",
        b"",
        r["host_seed"],
    )


def commit_ok(key: bytes, rules: Table, r: dict) -> bool:
    """5.2: the commit signature and the digest over the card hashes."""
    message = signed_message(
        "scopa-net/v1/round-commit-signature",
        r["round_id"],
        u32(r["round_no"]),
        r["prev"],
        r["digest"],
        rules_hash(rules),
    )
    digest = h("scopa-net/v1/deck-digest", r["round_id"], *r["card_hashes"])
    return signed(key, r["sig"], message) and digest == r["digest"]


def deck_of(r: dict) -> list[int] | None:
    """5.6: the deck the joint seed gives, as the positions' committed places; None before
    the seeds were relayed."""
    if r["commits"] is None or r["seeds"] is None:
        return None
    return shuffle(joint_seed(r), "scopa-net/v1/deck-shuffle", r["round_id"])


def card_fits(r: dict, perm: list[int], pos: int, card: int, salt: bytes) -> bool:
    """5.7: a card in transit against the commitment of its deck position."""
    return card_hash(r["round_id"], card, salt) == r["card_hashes"][perm[pos]]


@dataclass
class Checked:
    """A round that passed ``check_round``: what the match carries on from it."""

    chain: bytes
    dealer: int
    next_dealer: int
    scores: list[int]
    fair: bool  # some seed counted (6.2: else *not fair-checked: no player seed*)


def check_round(
    key: bytes,
    rules: Table,
    seat: int,
    r: dict,
    *,
    prev: bytes | None,
    dealer: int | None,
    scores: list[int],
) -> Checked:
    """6.2 steps 2 to 10 for one round of a transcript (step 1's numbering is the caller's;
    ``prev`` None: taken as it came). ``dealer`` None: the one whose deal plan gives this seat
    exactly the positions of its hand (the host's word, 6.2), or 5.6's first dealer for round
    1. ``scores``: the match points before the round."""
    no = r["round_no"]

    def fail(check: str, detail: str = "") -> CheckFailedError:
        return CheckFailedError(no, check, detail)

    if prev is not None and r["prev"] != prev:
        raise fail("broken chain", "prev is not the chain hash of the round before")
    if not commit_ok(key, rules, r):
        raise fail("bad signature", "round_commit")
    if r["void"] not in (None, {"reason": "kings", "offender": None}):
        raise fail("void mismatch", repr(r["void"]))
    for s, entry in enumerate(r["seated"] or []):
        if entry != "person" and r["commits"][s] is not None:
            raise fail("computer seed" if entry == "computer" else "absent seat seed", f"seat {s}")
    perm = deck_of(r)
    if perm is None or r["excluded"] is None:
        raise fail("not revealed", "the seeds were never relayed")
    for s, (c, sd, x) in enumerate(zip(r["commits"], r["seeds"], r["excluded"], strict=True)):
        opens = c is not None and sd is not None and seat_commit(r["round_id"], s, sd) == c
        if sd is not None and c is not None and not opens and x != "bad_reveal":
            raise fail("commitment mismatch", f"seat {s}")
        proven = (
            None
            if opens
            else "no_commit"
            if c is None
            else "no_reveal"
            if sd is None
            else ("bad_reveal")
        )
        if x != proven and not (c is None and sd is None and x is None):
            raise fail("exclusion mismatch", f"seat {s}: {x}, the record says {proven}")
    receipt = r["receipt"]
    if receipt is not None:
        message = signed_message(
            "scopa-net/v1/seed-receipt-signature", r["round_id"], u8(seat), receipt["seed_hash"]
        )
        if not signed(key, receipt["sig"], message):
            raise fail("bad signature", "seed receipt")
        if r["commits"][seat] is None:
            raise fail("bad receipt", "a receipt for a commitment never relayed")
        mine = receipt["seed_hash"] == r["commits"][seat]
        sd = r["seeds"][seat]
        lied = (
            r["excluded"][seat] is not None
            if mine
            else not (
                r["excluded"][seat] == "bad_reveal"
                and sd is not None
                and seat_commit(r["round_id"], seat, sd) == receipt["seed_hash"]
            )
        )
        if lied:
            raise fail("host lied", "the receipt names a seed the record leaves out")
    if r["host_seed"] is None:
        raise fail("not revealed", "no host seed")
    order = shuffle(r["host_seed"], "scopa-net/v1/host-order", r["round_id"])
    salts = [
        h("scopa-net/v1/card-salt", r["round_id"], r["host_seed"], u8(i))[:16] for i in range(40)
    ]
    if [card_hash(r["round_id"], order[i], salts[i]) for i in range(40)] != r["card_hashes"]:
        raise fail("host seed mismatch")
    deck = [order[perm[pos]] for pos in range(40)]
    seen = [(p, c, s) for p, c, s in r["hand"] + r["table"]]
    seen += [(p, code & 63, s) for _, code, p, s in r["plays"]]
    for pos, card, salt in seen:
        if deck[pos] != card:
            raise fail("swapped card", f"position {pos}")
        if salts[perm[pos]] != salt:
            raise fail("wrong salt", f"position {pos}")
    if dealer is None and no == 1:
        dealer = first_dealer(r, rules.players)
    candidates = [dealer] if dealer is not None else list(range(rules.players))
    fitting = [d for d in candidates if _hand_fits(rules, seat, d, deck, r)]
    if not fitting:
        raise fail("misrouted card", "the hand is not what the deal plan gives this seat")
    dealer = fitting[0]
    replay = RoundReplay(rules, dealer, deck)
    if replay.void != (r["void"] is not None):
        raise fail("void mismatch")
    for s, code, _, _ in r["plays"]:
        try:
            replay.play(s, code)
        except IllegalPlayError:
            raise fail("illegal play", f"seat {s}, code {code}") from None
    if not replay.over:
        raise fail("incomplete round")
    points = (
        [0] * rules.sides
        if replay.void
        else [sum(line.points[side] for line in replay.score()) for side in range(rules.sides)]
    )
    if (None if replay.void else points) != r["score"]:
        raise fail("score mismatch", f"the round gives {points}, the record {r['score']}")
    chain = chain_hash(r)
    message = signed_message(
        "scopa-net/v1/round-reveal-signature", r["round_id"], r["host_seed"], chain
    )
    if not signed(key, r["reveal_sig"], message):
        raise fail("bad signature", "round_reveal")
    return Checked(
        chain,
        dealer,
        dealer if replay.void else (dealer + 1) % rules.players,
        [a + b for a, b in zip(scores, points, strict=True)],
        bool(counting_seeds(r)),
    )


def _hand_fits(rules: Table, seat: int, dealer: int, deck: list[int], r: dict) -> bool:
    """6.2 step 8: the hand holds exactly this seat's positions (every deal, or the first
    alone when the opening table holds three or more kings), the table the opening ones."""
    deals = deal_targets(rules, dealer)
    first, opening = deals[0], [i for i, t in enumerate(deals[0]) if t is None]
    kings = sum(deck[p] // 4 == 9 for p in opening) >= 3
    plan = [t for deal in deals for t in deal]
    mine = [p for p, t in enumerate(first if kings else plan) if t == seat]
    return [p for p, _, _ in r["hand"]] == mine and [p for p, _, _ in r["table"]] == opening


def match_end_ok(
    key: bytes, chain: bytes, scores: list[int], winner: int | None, sig: bytes
) -> bool:
    scored = b"".join(u32(s) for s in scores)
    message = signed_message(
        "scopa-net/v1/match-end-signature", chain, scored, b"" if winner is None else u8(winner)
    )
    return signed(key, sig, message)


# --- 6.1 and 6.2: the transcript file -------------------------------------------------------------

ROUND_KEYS = [
    "round_id",
    "round_no",
    "prev",
    "card_hashes",
    "digest",
    "sig",
    "seated",
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
]


def verify_transcript(data: bytes, key: bytes) -> list[str]:
    """6.2 for a file of version 5, 7 or 9 of an ordinary table, by its bytes: a line for each
    round (and each catch-up), then the last line as 6.3 words it. ``key``: the host key the
    reader trusts. CheckFailedError for a file that is not a transcript (6.1)."""
    try:
        t = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except (ValueError, msgpack.UnpackException) as broken:  # ExtraData, a cut file, ...
        raise CheckFailedError(0, "not a transcript", str(broken)) from None
    if not isinstance(t, dict) or msgpack.packb(t, use_bin_type=True) != data:
        raise CheckFailedError(0, "not a transcript", "not in canonical encoding")
    version, entries = t.get("version"), t.get("caught_up")
    top = ["format", "version", "rules", "host_key", "seat", "rounds", "result", "stopped"]
    shapes = {
        5: entries is None,
        7: isinstance(entries, dict),
        9: isinstance(entries, list) and len(entries) >= 2,
    }
    if version in (7, 9):
        top.append("caught_up")
    if list(t) != top or t["format"] != "scopa-net transcript" or not shapes.get(version):
        raise CheckFailedError(0, "not a transcript", "its keys, version or caught_up")
    entries = [] if version == 5 else [entries] if version == 7 else entries
    if any(b["round_no"] <= a["round_no"] for a, b in pairwise(entries)):
        raise CheckFailedError(0, "not a transcript", "caught_up's round numbers do not go up")
    if t["host_key"] != key:
        raise CheckFailedError(0, "untrusted key", "the file is signed under another key")
    rules = Table(t["rules"]["players"], t["rules"]["target"], frozenset(t["rules"]["variants"]))
    lines: list[str] = []
    scores, dealer, chain, last_no = [0] * rules.sides, None, bytes(32), 0
    tied = True  # the match end can be tied to the last round checked (6.2)
    failed = False
    crossed = 0

    def cross(up_to: int | None) -> bool:
        """Take up every entry below ``up_to`` (None: all): True if the replay goes on from
        the snapshot's word, False if it goes on from the round this file checked."""
        nonlocal crossed, scores, dealer, failed
        taken = None
        while crossed < len(entries) and (up_to is None or up_to > entries[crossed]["round_no"]):
            e = entries[crossed]
            if last_no == e["round_no"] and (scores, dealer) != (list(e["scores"]), e["dealer"]):
                lines.append(
                    f"caught up: FAILED: score mismatch: the rounds give {scores}, "
                    f"seat {dealer} dealing; the snapshot {list(e['scores'])}, "
                    f"seat {e['dealer']}"
                )
                failed = True
            lines.append(
                f"not checked: the rounds up to {e['round_no']} this seat did not see; "
                f"the next replayed on {list(e['scores'])}, seat {e['dealer']} dealing"
            )
            taken, crossed = e, crossed + 1
        if taken is None:
            return False
        if up_to is not None and last_no == taken["round_no"] and up_to == last_no + 1:
            return False
        scores, dealer = list(taken["scores"]), taken["dealer"]
        return True

    for r in t["rounds"]:
        if list(r) != ROUND_KEYS:
            raise CheckFailedError(0, "not a transcript", "a round's keys")
        no = r["round_no"]
        if cross(no):
            prev = bytes(32) if no == 1 else None
        elif no == last_no + 1:
            prev = chain
        else:
            lines.append(f"round {no}: FAILED: broken chain: it follows round {last_no}")
            failed = True
            continue
        if failed:
            lines.append(f"round {no}: not replayed: a round before it failed")
            continue
        try:
            done = check_round(key, rules, t["seat"], r, prev=prev, dealer=dealer, scores=scores)
        except CheckFailedError as error:
            lines.append(f"round {no}: FAILED: {error.check}: {error.detail}")
            failed = True
            continue
        chain, dealer, scores, last_no = done.chain, done.next_dealer, done.scores, no
        lines.append(
            f"round {no}: " + ("verified" if done.fair else "not fair-checked: no player seed")
        )
    if cross(None):
        tied = False  # no round after the last catch-up: its signature cannot be tied
    result = t["result"]
    if result["sig"] is None:
        return [*lines, "UNFINISHED"]
    sig_ok = not tied or match_end_ok(
        key, chain, list(result["scores"]), result["winner"], result["sig"]
    )
    if (
        failed
        or not sig_ok
        or list(result["scores"]) != scores
        or (result["winner"] != match_winner(rules, scores))
    ):
        return [*lines, "match end: FAILED", "NOT VERIFIED"]
    last = "VERIFIED" if version == 5 else "VERIFIED as far as this seat saw the match"
    return [*lines, f"match: {list(result['scores'])}, side {result['winner']} won", last]


# --- sections 1 and 3: the wire -------------------------------------------------------------------


class Wire:
    """One connection's frames (section 1): a 4-byte big-endian length, then one msgpack map."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.buffer = bytearray()

    async def send(self, message: dict) -> None:
        payload = msgpack.packb(message, use_bin_type=True)
        try:
            await self.stream.send_all(len(payload).to_bytes(4, "big") + payload)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as lost:
            raise ConnectionLostError(str(lost)) from None

    async def _fill(self, n: int) -> None:
        while len(self.buffer) < n:
            try:
                data = await self.stream.receive_some(MAX_PAYLOAD)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as lost:
                raise ConnectionLostError(str(lost)) from None
            if not data:
                raise ConnectionLostError("closed")
            self.buffer += data

    async def receive(self) -> dict:
        await self._fill(4)
        length = int.from_bytes(self.buffer[:4], "big")
        if not 1 <= length <= MAX_PAYLOAD:
            raise HostMisbehavedError(f"bad_frame: length {length}")
        await self._fill(4 + length)
        payload, self.buffer = bytes(self.buffer[4 : 4 + length]), self.buffer[4 + length :]
        message = msgpack.unpackb(payload, raw=False, strict_map_key=True)
        if not isinstance(message, dict) or not isinstance(message.get("t"), str):
            raise HostMisbehavedError("bad_frame: not a map with a str t")
        return message

    async def close(self) -> None:
        await trio.aclose_forcefully(self.stream)


async def handshake(stream: trio.abc.Stream, pinned: bytes | None) -> tuple[Wire, bytes]:
    """3.2, 5.3: `hello` with a fresh challenge; the `welcome`'s proof checked, and its key
    against the one pinned, before anything secret is sent."""
    wire = Wire(stream)
    challenge = os.urandom(32)
    await wire.send(
        {"t": "hello", "version": VERSION, "client": "outsider", "challenge": challenge}
    )
    welcome = await wire.receive()
    if welcome["t"] != "welcome" or welcome["version"] != VERSION:
        raise HostMisbehavedError(f"no welcome in {VERSION}: {welcome}")
    key = welcome["host_key"]
    proof = signed_message("scopa-net/v1/welcome-key-proof", u32(VERSION), challenge, key)
    if not signed(key, welcome.get("key_proof", b""), proof):
        raise HostMisbehavedError("the host could not prove it holds its key")
    if pinned is not None and key != pinned:
        raise HostMisbehavedError("another key than the one pinned")
    return wire, key


# --- the seat's record: a fold of the events it read ----------------------------------------------


@dataclass
class Record:
    """What one seat knows of its match, from its events in order (a snapshot among them): the
    board it plays on, the rounds it follows for its transcript (6.1's round maps), and the
    catch-ups (6.1's ``caught_up``). Pure: built again from the events after a rewind."""

    key: bytes
    rules: Table
    seat: int
    rounds: list[dict] = field(default_factory=list)  # followed and checked, in order
    round: dict | None = None  # the round followed now
    perm: list[int] | None = None
    entries: list[dict] = field(default_factory=list)  # 6.1 caught_up, one a catch-up
    pending_entry: dict | None = None  # a catch-up no followed round has taken up yet
    scores: list[int] = field(default_factory=list)
    dealer: int | None = None  # of the round in play, or the next one's
    chain: bytes | None = bytes(32)  # of the last round checked; None: not held
    last_no: int = 0  # the newest round opened in this seat's sight, or a snapshot's
    revealed_no: int = 0  # the last round checked (its chain hash is ``chain``)
    seen_opened: set[int] = field(default_factory=set)
    seats: list[dict] = field(default_factory=list)  # kind, connected, by seat
    back_since_commit: set[int] = field(default_factory=set)
    at_commit: list[dict] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    on_table: list[int] = field(default_factory=list)
    to_move: int | None = None
    stand_in: bool = False  # a computer plays for this seat's person now (3.5 watched)
    result: dict | None = None
    verdicts: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.scores = [0] * self.rules.sides

    def take(self, e: dict) -> None:
        getattr(self, "_" + e["t"], lambda e: None)(e)

    def fail(self, check: str, detail: str = "") -> CheckFailedError:
        return CheckFailedError(
            self.round["round_no"] if self.round else self.last_no, check, detail
        )

    def _snapshot(self, s: dict) -> None:
        """3.4, 5.10: the match before it is the snapshot's word."""
        self.seats = [{"kind": x["kind"], "connected": x["connected"]} for x in s["seats"]]
        self.hand, self.on_table, self.to_move = list(s["hand"]), list(s["table"]), s["to_move"]
        self.stand_in = self.seat in s.get("stand_ins", [])
        n, over = s["round_no"], s["round_over"]
        points = [
            sum(line["points"][side] for line in s["round_score"] or [])
            for side in range(self.rules.sides)
        ]
        scores = [a + (b if over else 0) for a, b in zip(s["scores"], points, strict=True)]
        dealer = None if n == 0 else (s["dealer"] + 1) % self.rules.players if over else s["dealer"]
        self.round, self.perm = None, None
        self.last_no = max(self.last_no, n)
        if n == self.revealed_no and self.chain is not None:
            # 5.10: at the last round this seat saw revealed (or none dealt): nothing new.
            if (scores, dealer if n else None) != (self.scores, self.dealer if n else None):
                raise self.fail("score mismatch", f"the snapshot gives {scores}, seat {dealer}")
            return
        self.pending_entry = {"round_no": n, "scores": scores, "dealer": dealer}
        self.scores, self.dealer, self.chain = scores, dealer, None

    def _seat_status(self, e: dict) -> None:
        while len(self.seats) <= e["seat"]:
            self.seats.append({"kind": "open", "connected": False})
        self.seats[e["seat"]] = {"kind": e["kind"], "connected": e["connected"]}
        if e["connected"]:
            self.back_since_commit.add(e["seat"])
        if e["seat"] == self.seat:
            self.stand_in = e["stand_in"]

    def _round_commit(self, e: dict) -> None:
        no = e["round_no"]
        if no in self.seen_opened or no <= self.last_no:
            raise self.fail("re-rolled round", f"round {no} opened again")
        r = {k: None for k in ROUND_KEYS} | {
            k: e[k] for k in ("round_id", "round_no", "prev", "card_hashes", "digest", "sig")
        }
        r.update(hand=[], table=[], plays=[])
        if not commit_ok(self.key, self.rules, r):
            raise CheckFailedError(no, "bad signature", "round_commit")
        if self.chain is not None and (no != self.revealed_no + 1 or e["prev"] != self.chain):
            raise CheckFailedError(
                no, "broken chain", "round_commit does not follow the last round"
            )
        if self.pending_entry is not None:  # the first round followed after a catch-up
            self.entries.append(self.pending_entry)
            self.pending_entry = None
        self.round, self.perm, self.last_no = r, None, no
        self.seen_opened.add(no)
        self.at_commit = [dict(s) for s in self.seats]
        self.back_since_commit = set()

    def _seed_commits(self, e: dict) -> None:
        if self.round is None:
            return
        self.round["commits"] = list(e["commits"])
        self.round["seated"] = [
            "person"
            if s == self.seat
            else "computer"
            if x["kind"] == "bot"
            else "absent"
            if not x["connected"] and s not in self.back_since_commit
            else "person"
            for s, x in enumerate(self.at_commit)
        ]

    def _seed_receipt(self, e: dict) -> None:
        if self.round is not None:
            self.round["receipt"] = {"seed_hash": e["seed_hash"], "sig": e["sig"]}

    def _seed_reveals(self, e: dict) -> None:
        if self.round is None:
            return
        self.round["seeds"], self.round["excluded"] = list(e["seeds"]), list(e["excluded"])
        self.perm = deck_of(self.round)
        if self.dealer is None and self.round["round_no"] == 1:
            self.dealer = first_dealer(self.round, self.rules.players)

    def _card(self, pos: int, card: int, salt: bytes) -> None:
        r, perm = self.round, self.perm
        if r is not None and perm is not None and not card_fits(r, perm, pos, card, salt):
            raise self.fail("swapped card", f"position {pos} is not card {card}")

    def _deal(self, e: dict) -> None:
        for c in e["hand"] + e["table"]:
            self._card(c["pos"], c["card"], c["salt"])
        self.hand = sorted(c["card"] for c in e["hand"])
        if e["table"]:
            self.on_table = sorted(c["card"] for c in e["table"])
        if self.round is not None:
            self.round["hand"] += [[c["pos"], c["card"], c["salt"]] for c in e["hand"]]
            self.round["table"] += [[c["pos"], c["card"], c["salt"]] for c in e["table"]]
        if self.dealer is not None and e["table"]:
            self.to_move = (self.dealer + 1) % self.rules.players

    def _played(self, e: dict) -> None:
        self._card(e["pos"], e["card"], e["salt"])
        if e["seat"] == self.seat and e["card"] in self.hand:
            self.hand.remove(e["card"])
        taken = e["captured"]
        self.on_table = [c for c in self.on_table if not taken >> c & 1]
        if not taken:
            self.on_table.append(e["card"])
        self.to_move = (e["seat"] + 1) % self.rules.players
        if self.round is not None:
            code = e["card"] | taken << 6
            self.round["plays"].append([e["seat"], code, e["pos"], e["salt"]])

    def _round_void(self, e: dict) -> None:
        self.to_move = None
        if self.round is not None:
            self.round["void"] = {"reason": "kings", "offender": None}

    def _round_end(self, e: dict) -> None:
        self.to_move = None
        points = [
            sum(line["points"][side] for line in e["lines"]) for side in range(self.rules.sides)
        ]
        self.result = {"scores": list(e["scores"]), "winner": None, "sig": None}
        if self.round is not None:
            self.round["score"] = points
        elif self.pending_entry is not None:  # 5.10: a round not followed ends in sight
            self.pending_entry["round_no"] = e["round_no"]
            self.pending_entry["scores"] = [
                a + b for a, b in zip(self.pending_entry["scores"], points, strict=True)
            ]
            if self.pending_entry["dealer"] is not None:
                self.pending_entry["dealer"] = (
                    self.pending_entry["dealer"] + 1
                ) % self.rules.players
            self.scores, self.dealer = self.pending_entry["scores"], self.pending_entry["dealer"]

    def _round_reveal(self, e: dict) -> None:
        r = self.round
        if r is None:
            return
        r["host_seed"], r["reveal_sig"] = e["host_seed"], e["sig"]
        taken_up = self.chain is None
        prev = bytes(32) if r["round_no"] == 1 else None if taken_up else self.chain
        done = check_round(
            self.key, self.rules, self.seat, r, prev=prev, dealer=self.dealer, scores=self.scores
        )
        self.verdicts[r["round_no"]] = "verified" if done.fair else "not fair-checked"
        self.rounds.append(r)
        self.round, self.chain, self.dealer, self.scores = (
            None,
            done.chain,
            done.next_dealer,
            done.scores,
        )
        self.revealed_no = r["round_no"]

    def _match_end(self, e: dict) -> None:
        if self.chain is None or not match_end_ok(
            self.key, self.chain, list(e["scores"]), e["winner"], e["sig"]
        ):
            raise self.fail("bad signature", "match_end")
        if list(e["scores"]) != self.scores or e["winner"] != match_winner(self.rules, self.scores):
            raise self.fail(
                "score mismatch", f"match_end says {e['scores']}, the rounds {self.scores}"
            )
        self.result = {"scores": list(e["scores"]), "winner": e["winner"], "sig": e["sig"]}

    def transcript(self) -> bytes:
        """6.1: version 5, or 7 with one catch-up, 9 with two or more."""
        rules = {
            "players": self.rules.players,
            "target": self.rules.target,
            "variants": sorted(self.rules.variants),
        }
        result = self.result or {"scores": [0] * self.rules.sides, "winner": None, "sig": None}
        version = {0: 5, 1: 7}.get(len(self.entries), 9)
        t = {
            "format": "scopa-net transcript",
            "version": version,
            "rules": rules,
            "host_key": self.key,
            "seat": self.seat,
            "rounds": self.rounds,
            "result": result,
            "stopped": None,
        }
        if version != 5:
            t["caught_up"] = self.entries[0] if version == 7 else self.entries
        return msgpack.packb(t, use_bin_type=True)


# --- the session: 3.3 to 3.6 ----------------------------------------------------------------------


class SeatLostError(Exception):
    """A `resume` refused for good (3.3: `bad_token` with every token, or `no_such_table`)."""


Hook = Callable[["OutsiderSeat", dict], Awaitable[None]]


async def no_hook(seat: OutsiderSeat, message: dict) -> None:
    return None


class OutsiderSeat:
    """One person's seat at a table of our host's, kept through cut connections and a host that
    restarts. ``connect`` opens a new connection to the host wherever it is now; ``hook`` is
    called after every message handled (and after every `play` sent, with that `play`)."""

    def __init__(
        self, name: str, connect: Callable[[], Awaitable[trio.abc.Stream]], hook: Hook = no_hook
    ) -> None:
        self.name, self.connect, self.hook = name, connect, hook
        self.key: bytes | None = None
        self.wire: Wire | None = None
        self.table_id = self.seat = 0
        self.tokens: list[bytes] = []  # newest last (3.3: try the next after bad_token)
        self.items: list[dict] = []  # the events read, snapshots included, in order
        self.last_seq = 0
        self.record: Record | None = None
        self.own = OwnPlays()
        self.unanswered: dict[int, dict] = {}  # move_id: the `play` as first sent
        self.acked_to_come: set[int] = set()  # seqs an `ack` named, not yet read
        self.next_move = 1
        self.resend_at: float | None = None
        self.pause = FIRST_PAUSE
        self.seeds: dict[bytes, bytes] = {}  # round_id: this seat's seed, kept across rewinds
        self.seeded: dict[int, bytes] = {}  # 5.2: round_no: round_id whose seed_commits came
        self.sent_here: set[tuple[str, bytes]] = set()  # seed messages sent on this connection
        self.syncing = False
        self.log: list[str] = []  # what happened, in order: for a test to read
        self.plays_sent = 0
        self.thinking = False  # a person not ready to move: no new `play` goes out meanwhile
        self.seeds_paused_until = float("inf")  # when seed messages refused "not now" go again

    # -- connecting ---------------------------------------------------------------------------

    async def _open(self) -> Wire:
        while True:
            try:
                stream = await self.connect()
            except OSError:
                await trio.sleep(0.1)  # the network or the host is down: try again
                continue
            try:
                wire, key = await handshake(stream, self.key)
            except ConnectionLostError:
                await trio.sleep(0.1)
                continue
            self.key = key
            self.sent_here = set()
            return wire

    async def _reply(self) -> dict:
        """The next message that is not a heartbeat (3.6: a `ping` is answered at once)."""
        assert self.wire is not None
        while True:
            message = await self.wire.receive()
            if message["t"] == "ping":
                await self.wire.send({"t": "pong", "nonce": message["nonce"]})
            elif message["t"] == "bye":
                raise ConnectionLostError(f"bye {message['reason']}: {message['message']}")
            elif message["t"] != "pong":
                return message

    async def sit(self, *, players: int = 2, target: int = 11, bots: int = 1) -> None:
        """A new table with ``bots`` computer players (3.3), and its lowest open seat."""
        self.wire = await self._open()
        rules = {"players": players, "target": target, "variants": []}
        await self.wire.send(
            {
                "t": "create_table",
                "name": f"{self.name}'s table",
                "rules": rules,
                "password": None,
                "bots": bots,
                "bot_level": 1,
            }
        )
        created = await self._reply()
        if created["t"] != "table_created":
            raise HostMisbehavedError(f"create_table answered {created}")
        self.table_id = created["table"]["id"]
        await self.wire.send(
            {
                "t": "join",
                "table_id": self.table_id,
                "seat": None,
                "name": self.name,
                "password": None,
            }
        )
        joined = await self._reply()
        if joined["t"] != "joined":
            raise HostMisbehavedError(f"join answered {joined}")
        self.seat, self.tokens = joined["seat"], [joined["token"]]
        assert self.key is not None
        self.record = Record(self.key, Table(players, target, frozenset()), self.seat)
        self.syncing = True  # 3.1: a snapshot comes next

    async def _resume(self) -> None:
        """3.3: the newest token first; `stale` rewinds and resumes from `current_seq`."""
        tokens = list(self.tokens)
        while True:
            self.wire = await self._open()
            await self.wire.send(
                {
                    "t": "resume",
                    "table_id": self.table_id,
                    "seat": self.seat,
                    "token": tokens[-1],
                    "last_seq": self.last_seq,
                }
            )
            answer = await self._reply()
            if answer["t"] == "resumed":
                break
            code = answer.get("code")
            if answer["t"] != "error":
                raise HostMisbehavedError(f"resume answered {answer}")
            if code == "stale":
                self._rewind(answer.get("current_seq"))
            elif code in NOT_NOW:
                await trio.sleep(self.pause)
            elif code == "bad_token" and len(tokens) > 1:
                tokens.pop()
            else:
                raise SeatLostError(f"{code}: {answer['message']}")
            await self.wire.close()
        self.tokens.append(answer["token"])
        self.log.append(f"resumed by {answer['catch_up']} after {self.last_seq}")
        self.syncing = answer["catch_up"] == "snapshot"
        if not self.syncing:
            await self._send_again()

    def _rewind(self, current_seq: int | None) -> None:
        """3.3: the host lost what came after ``current_seq``; none said (a host of 4): from 0."""
        to = current_seq or 0
        self.log.append(f"stale: the host has up to {current_seq}; this seat read {self.last_seq}")
        self.items = [e for e in self.items if e["seq"] <= to]
        # 3.3: resume from the newest event still held; below ``to`` when a snapshot above it
        # stood for events this seat never read (they went with the snapshot).
        self.last_seq = max((e["seq"] for e in self.items), default=0)
        assert self.key is not None
        assert self.record is not None
        self.record = Record(self.key, self.record.rules, self.seat)
        for e in self.items:
            self.record.take(e)
        dropped = set()
        for move_id, play in list(self.unanswered.items()):
            if current_seq is None or play["after"] > to:  # chosen on events the host lost
                del self.unanswered[move_id]
                dropped.add(move_id)
                self.log.append(f"move {move_id} not sent again: chosen after event {to}")
        self.own.rewound(current_seq, dropped)
        self.acked_to_come = {s for s in self.acked_to_come if s <= to}

    async def _send_again(self) -> None:
        """3.5: every move unanswered goes again exactly as it was first sent; 5.4: seeds."""
        assert self.wire is not None
        for play in self.unanswered.values():
            self.own.sending(play["move_id"], play["card"], play["captured"])
            await self.wire.send(play)
            self.log.append(f"move {play['move_id']} sent again")
        await self._seeds()

    # -- playing ------------------------------------------------------------------------------

    async def play_match(self) -> bytes:
        """Play until `match_end`, resuming whenever the connection is lost; the transcript."""
        assert self.record is not None
        while self.record.result is None or self.record.result["sig"] is None:
            try:
                if self.wire is None:
                    await self._resume()
                await self._step()
            except ConnectionLostError as lost:
                self.log.append(f"connection lost: {lost}")
                if self.wire is not None:
                    await self.wire.close()
                self.wire = None
        return self.record.transcript()

    async def quit(self) -> None:
        if self.wire is not None:
            await self.wire.send({"t": "bye", "reason": "quit", "message": ""})
            await self.wire.close()
            self.wire = None

    async def _step(self) -> None:
        assert self.wire is not None
        play_at = self.resend_at if self.resend_at is not None else float("inf")
        with trio.move_on_at(min(play_at, self.seeds_paused_until)):
            message = await self._reply()
            await self._handle(message)
            await self.hook(self, message)
            await self._act()
            return
        if trio.current_time() >= self.seeds_paused_until:
            self.seeds_paused_until = float("inf")
            await self._seeds()  # a seed message refused "not now": again, the same
        if self.resend_at is None or trio.current_time() < self.resend_at:
            return
        self.resend_at = None  # a move refused `storage` or `rate_limited`: again, the same
        for play in self.unanswered.values():
            self.own.sending(play["move_id"], play["card"], play["captured"])
            await self.wire.send(play)
            self.log.append(f"move {play['move_id']} sent again after a pause")

    async def _handle(self, m: dict) -> None:
        t = m["t"]
        assert self.record is not None
        if t in ("ack", "reject"):
            if m["move_id"] not in self.unanswered:
                await self._bye("out_of_order", f"{t} of a move never sent")
            return await getattr(self, "_on_" + t)(m)
        if t == "error":
            self.log.append(f"error {m['code']} ({m['ref']})")
            if m["code"] in NOT_NOW and m["ref"] in ("seed_commit", "seed_reveal"):
                # Not taken (5.4, 3.6): the same message goes again after a pause.
                self.sent_here = {x for x in self.sent_here if x[0] != m["ref"]}
                self.seeds_paused_until = trio.current_time() + FIRST_PAUSE
            return None
        if t == "left":
            raise SeatLostError("the table closed")
        if t == "snapshot":
            if not self.syncing and self.items:
                raise HostMisbehavedError("a snapshot nobody asked for")
            self.syncing = False
            self.items.append(m)
            self.last_seq = m["seq"]
            self.record.take(m)
            self.own.caught_up_by_snapshot(m["seq"])
            self.acked_to_come = {s for s in self.acked_to_come if s > m["seq"]}
            if len(self.items) > 1:
                self.log.append(f"caught up by snapshot at {m['seq']} (round {m['round_no']})")
            return await self._send_again()
        if "seq" not in m:
            raise HostMisbehavedError(f"unexpected {t}")
        if m["seq"] != self.last_seq + 1:
            await self._bye("bad_seq", f"event {m['seq']} after {self.last_seq}")
        self.items.append(m)
        self.last_seq = m["seq"]
        self.acked_to_come.discard(m["seq"])
        if t == "round_commit" and self.seeded.get(m["round_no"], m["round_id"]) != m["round_id"]:
            raise CheckFailedError(m["round_no"], "re-rolled round", "its seeds were out already")
        try:
            self.record.take(m)
        except CheckFailedError as failed:
            await self._stop(failed)
        if t == "seed_commits" and self.record.round is not None:
            self.seeded[m.get("round_no", self.record.round["round_no"])] = m["round_id"]
        seat = self.record.seats[self.seat] if self.seat < len(self.record.seats) else {}
        watched = seat.get("kind") == "human" and not self.record.stand_in
        wrong = self.own.event(m, self.seat, watched)
        if wrong is not None:
            await self._stop(CheckFailedError(self.record.last_no, "changed play", wrong))

    async def _on_ack(self, m: dict) -> None:
        self.unanswered.pop(m["move_id"])
        self.resend_at, self.pause = None, FIRST_PAUSE
        if m["duplicate"]:
            self.log.append(f"move {m['move_id']} acknowledged as a duplicate (event {m['seq']})")
        if m["seq"] > self.last_seq:
            self.acked_to_come.add(m["seq"])
        wrong = self.own.ack(m, self.last_seq)
        if wrong is not None:
            await self._stop(
                CheckFailedError(self.record.last_no if self.record else 0, "changed play", wrong)
            )

    async def _on_reject(self, m: dict) -> None:
        if m["code"] in NOT_NOW:  # 3.5: no answer to the move; it goes again, the same
            self.log.append(
                f"move {m['move_id']} refused {m['code']}: sent again in {self.pause} s"
            )
            self.resend_at = trio.current_time() + self.pause
            self.pause = min(self.pause * 2, LONGEST_PAUSE)
            return
        self.unanswered.pop(m["move_id"])
        self.log.append(
            f"move {m['move_id']} refused {m['code']} {m['current_seq'] or ''}".rstrip()
        )
        if m["code"] not in ("stale", "wrong_phase", "not_your_turn"):
            raise HostMisbehavedError(f"a legal move refused: {m}")
        wrong = self.own.reject(m)
        if wrong is not None:
            await self._stop(
                CheckFailedError(self.record.last_no if self.record else 0, "changed play", wrong)
            )

    async def _act(self) -> None:
        if self.syncing or self.wire is None:
            return
        await self._seeds()
        if self.thinking:
            return
        r = self.record
        assert r is not None
        if (
            self.unanswered
            or self.acked_to_come
            or r.to_move != self.seat
            or not r.hand
            or r.round is None
            or r.round["void"] is not None
            or r.round["score"] is not None
        ):
            return
        card = r.hand[0]
        captured = legal_takes(card, r.on_table, r.rules.variants)[0]
        play = {
            "t": "play",
            "move_id": self.next_move,
            "after": self.last_seq,
            "card": card,
            "captured": captured,
        }
        self.next_move += 1
        self.unanswered[play["move_id"]] = play
        self.own.sending(play["move_id"], card, captured)
        self.plays_sent += 1
        await self.wire.send(play)
        await self.hook(self, play)

    async def _seeds(self) -> None:
        """5.4: commit after `round_commit`, reveal once the commitment was relayed; each once
        a connection (the resending rule: judged by the events held, sent at once)."""
        r = self.record.round if self.record else None
        if r is None or self.wire is None or r["seeds"] is not None:
            return
        if self.seeds_paused_until != float("inf"):
            return  # refused "not now" a moment ago: it goes again after the pause
        seed = self.seeds.setdefault(r["round_id"], os.urandom(32))
        if r["commits"] is None and ("seed_commit", r["round_id"]) not in self.sent_here:
            self.sent_here.add(("seed_commit", r["round_id"]))
            commit = seat_commit(r["round_id"], self.seat, seed)
            await self.wire.send({"t": "seed_commit", "round_id": r["round_id"], "commit": commit})
        elif (
            r["commits"] is not None
            and r["commits"][self.seat] is not None
            and r["receipt"] is None
            and ("seed_reveal", r["round_id"]) not in self.sent_here
        ):
            self.sent_here.add(("seed_reveal", r["round_id"]))
            await self.wire.send({"t": "seed_reveal", "round_id": r["round_id"], "seed": seed})

    async def _bye(self, reason: str, why: str) -> None:
        if self.wire is not None:
            await self.wire.send({"t": "bye", "reason": reason, "message": why[:200]})
            await self.wire.close()
            self.wire = None
        raise HostMisbehavedError(f"{reason}: {why}")

    async def _stop(self, failed: CheckFailedError) -> None:
        """5.10: `bye deal_failed` naming the round and the check, and stop."""
        if self.wire is not None:
            await self.wire.send(
                {"t": "bye", "reason": "deal_failed", "message": str(failed)[:200]}
            )
            await self.wire.close()
            self.wire = None
        raise failed
