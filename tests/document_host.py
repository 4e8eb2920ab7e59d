"""A host for ordinary tables written from protocol.md and RULES.md alone: it imports nothing
from scopa_net, server or client (only the outsider modules ``document_hashes`` and
``document_referee``, written from the documents too).

It speaks protocol versions 5 and 4 over msgpack/TCP on trio (3.2: a `hello` in either gets a
`welcome` in it, and a connection in 4 never carries `why` nor the snapshot's `stand_ins`,
`redeal` and `makers`): the handshake with its host key, list,
create and join tables, seats, tokens and resume (replay), the fair deal of section 5
(commitment, seat seeds, receipts, reveal, chain, signed match end), plays answered by ``ack``
or ``reject``, ``played``/``round_end``/``match_end`` scored by ``document_referee``, and a
simple rematch. A seat whose person leaves for good during a match is played by a computer
standing in (its first legal play) until a newcomer joins it, and agrees to a rematch (3.3,
3.11). A person who steps away (``leave {away: true}``) is played for by a computer too, and
with ``away_limit`` set, once away that long their seat is open to a newcomer (3.3); their
tokens then get ``bad_token`` with ``why: "seat_taken_while_away"`` (3.8). The snapshot after
``joined`` says who made each play of the round (``makers``), where a computer stands in
(``stand_ins``, ``computer_plays``), the rounds void (``voids``) and a redeal (``redeal``).
It is not complete: no password rate limits, no grace periods and no stand-in for a dropped
connection, no snapshot catch-up on resume, no blind tables (refused, see ``_create``).

``cheat`` makes it dishonest in one named way, for tests of what a client refuses:
``"swap_hand"`` deals seat 0, as its first card, the deck's last card instead of the one
committed at that position; ``"double_card"`` deals seat 0 one card twice, a ``deal`` that
breaks 3.9 (``bad_field``); ``"why_wrong_code"`` gives a ``no_such_table`` the ``why`` of
``bad_token``; ``"v5_keys_in_4"`` sends ``why`` (with every ``no_such_table``) and the
snapshot's keys of version 5 on a connection in version 4; ``"welcome_in_another"`` answers
every ``hello`` with a ``welcome`` in its oldest version.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import struct
from dataclasses import dataclass, field
from functools import partial
from itertools import count

import msgpack
import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from document_hashes import below, h, lp, shuffle, u8, u32, u64, words
from document_referee import (
    IllegalPlayError,
    RoundReplay,
    Table,
    legal_takes,
    mask,
    match_winner,
    value,
)

VERSIONS = (4, 5)  # 3.2: oldest and newest spoken; a `bye bad_version` names the newest
SEED_DEADLINE = 30.0  # 5.4: seconds for the commitments, then for the reveals
MAX_FRAME = 65536

# 3.9: what a player may send, with exactly these fields ("pos"/"proof" are blind only).
FIELDS: dict[str, set[str]] = {
    "hello": {"version", "client"},
    "ping": {"nonce"},
    "pong": {"nonce"},
    "bye": {"reason", "message"},
    "list_tables": set(),
    "create_table": {"name", "rules", "password", "bots", "bot_level"},
    "join": {"table_id", "seat", "name", "password"},
    "resume": {"table_id", "seat", "token", "last_seq"},
    "leave": {"away"},
    "play": {"move_id", "after", "card", "captured"},
    "say": {"text"},
    "rename": {"name"},
    "seed_commit": {"round_id", "commit"},
    "seed_reveal": {"round_id", "seed"},
    "rematch": {"agree"},
}
OPTIONAL = {"create_table": {"blind"}, "hello": {"challenge"}}  # challenge: version 5 on
BLIND_ONLY = {"blind_key", "blind_shuffle", "blind_shares", "blind_reveal"}
LOBBY = {"list_tables", "create_table", "join", "resume"}
SEATED = {"play", "say", "rename", "seed_commit", "seed_reveal", "rematch", "leave"}
# 3.5 step 2: the events that make a move stale.
POSITION_EVENTS = {
    "round_commit", "seed_commits", "seed_reveals", "deal", "played", "round_void",
    "round_reveal", "round_end", "match_end",
}  # fmt: skip
EXCLUDED_CODE = {None: 0, "no_commit": 1, "no_reveal": 2, "bad_reveal": 3}


class ProtocolError(Exception):
    """A fault of the peer that ends its connection with ``bye {reason}``."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason
        self.message = message


def frame(message: dict) -> bytes:
    payload = msgpack.packb(message, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def _no_ext(code: int, data: bytes) -> None:
    raise ValueError("ext type")


def seat_commitment(round_id: bytes, seat: int, seed: bytes) -> bytes:
    return h("scopa-net/v1/seat-commit", round_id, u8(seat), seed)


def slots(values: list[bytes | None]) -> bytes:
    """5.7: ``u8(n)``, then ``00`` or ``01 || 32 bytes`` per seat."""
    return u8(len(values)) + b"".join(b"\x00" if v is None else b"\x01" + v for v in values)


def rules_info(table: Table) -> dict:
    return {"players": table.players, "target": table.target, "variants": sorted(table.variants)}


# --- connections ----------------------------------------------------------------------------


@dataclass(eq=False)
class Connection:
    stream: trio.SocketStream
    send: trio.MemorySendChannel
    state: str = "hello"
    table: Match | None = None
    seat: int | None = None
    epoch: int = 0
    sent_seq: int = 0  # the newest seq this connection carried (3.1)
    version: int = 0  # the version its `hello` was answered in (3.2)

    def put(self, message: dict) -> None:
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self.send.send_nowait(message)


# --- tables ---------------------------------------------------------------------------------


@dataclass(eq=False)
class Holding:
    """Who holds a seat, from taking it to leaving it: the name ``makers`` gives their plays
    (3.9), renamed with them."""

    name: str


@dataclass(eq=False)
class SeatState:
    kind: str = "open"  # open, human, bot
    name: str | None = None
    conn: Connection | None = None
    tokens: list[bytes] = field(default_factory=list)  # good tokens, oldest first
    presented: int = 0  # index in tokens of the last one presented
    epoch: int = 0
    log: list[dict] = field(default_factory=list)
    moves: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # id: card, mask, seq
    away: bool = False
    stand_in: bool = False  # a computer plays it: its person stepped away, or left mid-match
    holding: Holding | None = None
    away_since: float = 0.0
    taken: dict[bytes, str] = field(default_factory=dict)  # dead token: the host's words

    @property
    def automatic(self) -> bool:
        """Whether the host plays this seat: a computer player's, or one standing in."""
        return self.kind == "bot" or self.stand_in


@dataclass(eq=False)
class Round:
    round_id: bytes
    round_no: int
    prev: bytes
    host_seed: bytes
    order: list[int]
    salts: list[bytes]
    card_hashes: list[bytes]
    digest: bytes
    dealer: int
    stage: str = "commit"  # commit, reveal, play, over
    commits: list[bytes | None] = field(default_factory=list)
    seeds: list[bytes | None] = field(default_factory=list)
    excluded: list[str | None] = field(default_factory=list)
    relayed_commits: bool = False
    relayed_seeds: bool = False
    perm: list[int] = field(default_factory=list)
    replay: RoundReplay | None = None
    dealt: int = 0  # deals sent
    plays: list[tuple[int, int, int, bytes]] = field(default_factory=list)  # seat, code, pos, salt
    swept: list[bool] = field(default_factory=list)  # by play
    positions: list[list[int]] = field(default_factory=list)  # by seat: positions in hand
    table_positions: list[int] = field(default_factory=list)
    void: bool = False
    redeal: bool = False  # deals the round before again, which was void (5.8)
    makers: list[Holding] = field(default_factory=list)  # by play
    computer_plays: list[int] = field(default_factory=list)  # for a person's seat


@dataclass(eq=False)
class Match:
    id: int
    name: str
    rules: Table
    password: str | None
    bot_level: int | None
    host: DocumentHost
    seats: list[SeatState] = field(default_factory=list)
    match_no: int = 1
    started: bool = False
    over: bool = False
    scores: list[int] = field(default_factory=list)
    winner: int | None = None
    round: Round | None = None
    dealt: Round | None = None  # the last round whose cards were dealt: what snapshots show
    scores_before: list[int] = field(default_factory=list)  # match points before ``dealt``
    round_no: int = 0
    chain: bytes = bytes(32)
    dealer: int | None = None
    seen_ids: set[bytes] = field(default_factory=set)
    votes: list[str] | None = None
    last_sheet: list | None = None
    leftover: list[int] = field(default_factory=list)
    voids: int = 0

    def __post_init__(self) -> None:
        self.seats = [SeatState() for _ in range(self.rules.players)]
        self.scores = [0] * self.rules.sides

    # --- what the lobby sees

    def info(self, *, listing: bool = False) -> dict:
        """``TableInfo``; in a ``tables`` listing (``listing``) a seat away past the away limit
        is named ``Ivo <away>`` (3.3), the whole cut to 32 characters."""
        seats = [self.seat_info(s) for s in self.seats]
        for info, s in zip(seats, self.seats, strict=True):
            if listing and self.host._away_past_limit(s):
                info["name"] = f"{s.name[: 32 - len(' <away>')]} <away>"
        return {
            "id": self.id,
            "name": self.name,
            "rules": rules_info(self.rules),
            "password": self.password is not None,
            "seats": seats,
            "bot_level": self.bot_level,
            "started": self.started,
        }

    def seat_info(self, s: SeatState) -> dict:
        return {"kind": s.kind, "name": s.name, "connected": s.kind == "bot" or s.conn is not None}

    # --- events

    def event(self, seat: int, message: dict) -> None:
        """Log ``message`` for ``seat`` with its next seq and send it if connected."""
        s = self.seats[seat]
        event = {"t": message["t"], "seq": len(s.log) + 1, **message}
        s.log.append(event)
        if s.conn is not None:
            s.conn.sent_seq = event["seq"]
            s.conn.put(event)

    def broadcast(self, message: dict) -> None:
        for seat in range(len(self.seats)):
            self.event(seat, message)

    def seat_status(self, seat: int, *, skip: int | None = None) -> None:
        s = self.seats[seat]
        status = {
            "t": "seat_status",
            "seat": seat,
            "kind": s.kind,
            "name": s.name,
            "connected": s.kind == "bot" or s.conn is not None,
            "grace": 0,
            "stand_in": s.stand_in,
            "away": s.away,
        }
        for other in range(len(self.seats)):
            if other != skip:
                self.event(other, status)

    def snapshot(self, seat: int, version: int = VERSIONS[-1]) -> dict:
        """3.9 ``snapshot``: the seat's view after every event of its log. It shows the last
        round dealt: a round whose seeds are being exchanged has no cards yet."""
        r, n, sides = self.dealt, self.rules.players, self.rules.sides
        rp = r.replay if r is not None else None
        in_play = rp is not None and not rp.over and r.stage == "play"
        snapshot = {
            "t": "snapshot",
            "seq": len(self.seats[seat].log),
            "table_id": self.id,
            "seat": seat,
            "side": seat % sides,
            "rules": rules_info(self.rules),
            "dealer": r.dealer if r is not None else 0,
            "round_no": r.round_no if r is not None else 0,
            "to_move": rp.turn if in_play else None,
            "hand": sorted(rp.hands[seat]) if rp else [],
            "table": sorted(rp.on_table) if rp else [],
            "hand_counts": [len(rp.hands[i]) if rp else 0 for i in range(n)],
            "stock": 40 - rp.position if rp else 0,
            "pile_counts": [len(p) for p in rp.piles] if rp else [0] * sides,
            "sweeps": list(rp.sweeps) if rp else [0] * sides,
            "scores": list(self.scores_before if r is not None else self.scores),
            "plays": [
                {"seat": s, "card": c & 63, "captured": c >> 6, "sweep": w}
                for (s, c, _, _), w in zip(r.plays if r else [], r.swept if r else [], strict=False)
            ],
            "void_deal": bool(r and r.void),
            "round_over": bool(r and r.stage == "over"),
            "leftover": list(self.leftover),
            "round_score": self.last_sheet if r and r.stage == "over" else None,
            "winner": self.winner,
            "seats": [self.seat_info(s) for s in self.seats],
        }
        optional = {  # 3.9: version 4's optional keys, then version 5's (3.2)
            "voids": self.voids,
            "computer_plays": list(r.computer_plays) if r else [],
        }
        if version >= 5 or self.host.cheat == "v5_keys_in_4":
            optional["stand_ins"] = [i for i, s in enumerate(self.seats) if s.stand_in]
            optional["redeal"] = bool(r and r.redeal)
            optional["makers"] = [m.name for m in r.makers] if r else []
        if version < 5 and self.host.cheat != "v5_keys_in_4":
            assert not {"stand_ins", "redeal", "makers"} & set(optional)
        return {**snapshot, **{k: v for k, v in optional.items() if v}}

    # --- seating

    def full(self) -> bool:
        return all(s.kind != "open" for s in self.seats)

    def maybe_start(self) -> None:
        if not self.started and self.full():
            self.started = True
            self.open_round()

    # --- the fair deal (section 5)

    def open_round(self) -> None:
        self.round_no += 1
        while True:
            round_id = os.urandom(16)
            host_seed = os.urandom(32)
            order = shuffle(host_seed, "scopa-net/v1/host-order", round_id)
            salts = [
                h("scopa-net/v1/card-salt", round_id, host_seed, u8(i))[:16] for i in range(40)
            ]
            hashes = [
                h("scopa-net/v1/card-hash", round_id, u8(order[i]), salts[i]) for i in range(40)
            ]
            digest = h("scopa-net/v1/deck-digest", round_id, *hashes)
            if self.round_no != 1 or self.host.void_first_round is None:
                break
            if self._voids_with(round_id, order, digest, self.host.void_first_round):
                break  # a rigged host: round 1 void (kings), for tests of a redeal
        n = self.rules.players
        r = Round(
            round_id, self.round_no, self.chain, host_seed, order, salts, hashes, digest,
            dealer=self.dealer if self.dealer is not None else 0,
            commits=[None] * n, seeds=[None] * n, excluded=[None] * n,
            redeal=self.round is not None and self.round.void,
        )  # fmt: skip
        self.round = r
        self.seen_ids.add(round_id)
        rules_hash = h(
            "scopa-net/v1/rules",
            u8(self.rules.players),
            u8(self.rules.target),
            *sorted(v.encode() for v in self.rules.variants),
        )
        commit_msg = (
            lp(b"scopa-net/v1/round-commit-signature") + lp(round_id) + lp(u32(r.round_no))
            + lp(r.prev) + lp(digest) + lp(rules_hash)
        )  # fmt: skip
        self.broadcast({
            "t": "round_commit", "round_id": round_id, "round_no": r.round_no, "prev": r.prev,
            "card_hashes": hashes, "digest": digest, "sig": self.host.sign(commit_msg),
        })  # fmt: skip
        self.host.later(SEED_DEADLINE, self._commit_deadline, r)
        self.check_seeds()

    def _voids_with(self, round_id: bytes, order: list[int], digest: bytes, seeds: list) -> bool:
        """Whether the deck, shuffled with these seat seeds, opens with three kings (5.8)."""
        joint = h("scopa-net/v1/joint-seed", round_id, digest, *seeds)
        perm = shuffle(joint, "scopa-net/v1/deck-shuffle", round_id)
        dealer = self.dealer
        if dealer is None:
            dealer = below(words(joint, "scopa-net/v1/first-dealer", round_id), self.rules.players)
        return RoundReplay(self.rules, dealer, [order[perm[p]] for p in range(40)]).void

    def people(self) -> list[int]:
        """The seats a person plays: they send seeds, and the host waits on them, dropped or
        not, until the deadline (this host has no stand-ins)."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def _commit_deadline(self, r: Round) -> None:
        if self.round is r and r.stage == "commit":
            self.relay_commits()

    def _reveal_deadline(self, r: Round) -> None:
        if self.round is r and r.stage == "reveal":
            self.relay_seeds()

    def check_seeds(self) -> None:
        r = self.round
        if r is None:
            return
        if r.stage == "commit" and all(r.commits[i] is not None for i in self.people()):
            self.relay_commits()
        if r.stage == "reveal" and all(
            r.seeds[i] is not None for i in self.people() if r.commits[i] is not None
        ):
            self.relay_seeds()

    def relay_commits(self) -> None:
        r = self.round
        r.stage = "reveal"
        self.broadcast({"t": "seed_commits", "round_id": r.round_id, "commits": list(r.commits)})
        self.host.later(SEED_DEADLINE, self._reveal_deadline, r)
        self.check_seeds()

    def relay_seeds(self) -> None:
        r = self.round
        counted = []
        for i, s in enumerate(self.seats):
            commit, seed = r.commits[i], r.seeds[i]
            if commit is None:
                r.excluded[i] = "no_commit" if s.kind == "human" else None
            elif seed is None:
                r.excluded[i] = "no_reveal"
            elif not hmac.compare_digest(seat_commitment(r.round_id, i, seed), commit):
                r.excluded[i] = "bad_reveal"
            else:
                counted.append(seed)
        self.broadcast({
            "t": "seed_reveals", "round_id": r.round_id, "seeds": list(r.seeds),
            "excluded": list(r.excluded),
        })  # fmt: skip
        joint = h("scopa-net/v1/joint-seed", r.round_id, r.digest, *counted)
        r.perm = shuffle(joint, "scopa-net/v1/deck-shuffle", r.round_id)
        if self.dealer is None:  # 5.6: the first dealer, from the first joint seed
            stream = words(joint, "scopa-net/v1/first-dealer", r.round_id)
            self.dealer = below(stream, self.rules.players)
        r.dealer = self.dealer
        deck = [r.order[r.perm[pos]] for pos in range(40)]
        r.replay = RoundReplay(self.rules, r.dealer, deck)
        r.positions = [[] for _ in self.seats]
        r.stage = "play"
        self.dealt, self.scores_before = r, list(self.scores)
        self.send_deal()
        if r.replay.void:
            self.void_round()
        else:
            self.host.bot_turn(self)

    def dealt_card(self, pos: int) -> dict:
        r = self.round
        return {"pos": pos, "card": r.order[r.perm[pos]], "salt": r.salts[r.perm[pos]]}

    def send_deal(self) -> None:
        """Send the deal the replay has just made (its targets from section 4)."""
        r = self.round
        rp = r.replay
        targets = rp.deals[r.dealt]
        start = sum(len(t) for t in rp.deals[: r.dealt])
        r.dealt += 1
        hands: list[list[dict]] = [[] for _ in self.seats]
        table = []
        for k, target in enumerate(targets):
            pos = start + k
            if target is None:
                table.append(self.dealt_card(pos))
                r.table_positions.append(pos)
            else:
                hands[target].append(self.dealt_card(pos))
                r.positions[target].append(pos)
        if self.host.cheat == "swap_hand" and hands[0]:
            # The deck's last card, which this deal does not hand out: a well-formed deal
            # (no card twice) holding a card the commitment does not put at that position.
            hands[0][0] = {**hands[0][0], "card": r.order[r.perm[39]]}
        if self.host.cheat == "double_card" and len(hands[0]) > 1:
            hands[0][1] = {**hands[0][1], "card": hands[0][0]["card"]}  # bad_field (3.9)
        stock = 40 - start - len(targets)
        for seat in range(len(self.seats)):
            self.event(seat, {"t": "deal", "hand": hands[seat], "table": table, "stock": stock})

    def void_round(self) -> None:
        r = self.round
        r.void = True
        self.voids += 1
        self.broadcast({"t": "round_void", "round_id": r.round_id, "reason": "kings"})
        self.reveal(void=True)
        self.open_round()  # 5.8: the same dealer deals again

    def reveal(self, *, void: bool = False) -> None:
        r = self.round
        r.stage = "over"
        table = b"".join(
            u8(p) + u8(r.order[r.perm[p]]) + r.salts[r.perm[p]] for p in r.table_positions
        )
        plays = b"".join(u8(s) + u64(code) + u8(p) + salt for s, code, p, salt in r.plays)
        self.chain = h(
            "scopa-net/v1/round-chain", r.round_id, u32(r.round_no), r.prev, r.digest,
            slots(r.commits), slots(r.seeds), bytes(EXCLUDED_CODE[e] for e in r.excluded),
            table, plays, b"kings" if void else b"", b"", r.host_seed,
        )  # fmt: skip
        msg = (
            lp(b"scopa-net/v1/round-reveal-signature") + lp(r.round_id) + lp(r.host_seed)
            + lp(self.chain)
        )  # fmt: skip
        self.broadcast({
            "t": "round_reveal", "round_id": r.round_id, "host_seed": r.host_seed,
            "sig": self.host.sign(msg),
        })  # fmt: skip

    # --- plays

    def apply(self, seat: int, card: int, captured: int, *, computer: bool = False) -> int:
        """Apply a legal play (``computer``: made by the host for the seat); the seq of its
        ``played`` event."""
        r = self.round
        rp = r.replay
        deals_before = rp.next_deal
        code = card | captured << 6
        swept = rp.play(seat, code)
        pos = next(p for p in r.positions[seat] if r.order[r.perm[p]] == card)
        r.positions[seat].remove(pos)
        salt = r.salts[r.perm[pos]]
        r.plays.append((seat, code, pos, salt))
        r.swept.append(swept)
        s = self.seats[seat]
        r.makers.append(s.holding or Holding(f"bot {seat}"))
        if computer and s.kind == "human":  # 3.9: standing in for a person of the seat
            r.computer_plays.append(len(r.plays) - 1)
        self.broadcast({
            "t": "played", "seat": seat, "card": card, "captured": captured, "sweep": swept,
            "pos": pos, "salt": salt,
        })  # fmt: skip
        seq = len(self.seats[seat].log)
        if rp.next_deal > deals_before:
            self.send_deal()
        if rp.over:
            self.end_round()
        else:
            self.host.bot_turn(self)
        return seq

    def end_round(self) -> None:
        r = self.round
        rp = r.replay
        lines = rp.score()
        for line in lines:
            for side, points in enumerate(line.points):
                self.scores[side] += points
        sheet = [
            {"name": x.name, "figures": x.figures, "points": x.points, "winner": x.winner}
            for x in lines
        ]
        self.last_sheet, self.leftover = sheet, list(rp.leftover)
        self.broadcast({
            "t": "round_end", "round_no": r.round_no, "lines": sheet,
            "leftover": list(rp.leftover), "scores": list(self.scores),
        })  # fmt: skip
        self.reveal()
        self.winner = match_winner(self.rules, self.scores)
        if self.winner is None:
            self.dealer = (self.dealer + 1) % self.rules.players
            self.open_round()
            return
        self.over = True
        scores = b"".join(u32(s) for s in self.scores)
        msg = (
            lp(b"scopa-net/v1/match-end-signature") + lp(self.chain) + lp(scores)
            + lp(u8(self.winner))
        )  # fmt: skip
        self.broadcast({
            "t": "match_end", "scores": list(self.scores), "winner": self.winner,
            "sig": self.host.sign(msg),
        })  # fmt: skip

    def refusal(self, seat: int, msg: dict) -> tuple[str, str | None, str] | None:
        """3.5 steps 2..5 for a new move id: (code, reason, message), or None to apply."""
        s, r = self.seats[seat], self.round
        if any(e["seq"] > msg["after"] and e["t"] in POSITION_EVENTS for e in s.log):
            return "stale", None, "the table moved on before this play was chosen"
        if r is None or r.stage != "play" or r.replay.over or self.over:
            return "wrong_phase", None, "no round is being played"
        rp = r.replay
        if rp.turn != seat:
            return "not_your_turn", None, "it is not your turn"
        card, take = msg["card"], msg["captured"]
        reason = illegal_reason(card, take, rp.hands[seat], rp.on_table, self.rules.variants)
        if reason is not None:
            return "illegal_play", reason, f"that play breaks the rules ({reason})"
        return None

    # --- rematch (3.11)

    def vote(self, seat: int, agree: bool) -> None:
        if self.votes is None:
            self.votes = [first_vote(s) for s in self.seats]
        self.votes[seat] = "yes" if agree else "no"
        state = (
            "declined" if "no" in self.votes else "agreed" if set(self.votes) == {"yes"} else "open"
        )
        self.broadcast({
            "t": "rematch_status", "match_no": self.match_no, "state": state,
            "votes": list(self.votes), "seconds": 60 if state == "open" else 0,
        })  # fmt: skip
        if state == "agreed":  # a seat standing in stays open, its computer playing (3.11)
            self.match_no += 1
            self.votes, self.over, self.winner = None, False, None
            self.scores = [0] * self.rules.sides
            self.round_no, self.chain, self.dealer = 0, bytes(32), None
            self.round = self.dealt = None
            self.voids = 0
            self.open_round()


def first_vote(s: SeatState) -> str:
    """3.11: a seat's answer before its person gives one. A computer player and a computer
    standing in for a seat left during the match agree; a seat left after ``match_end``
    declines; a person, here or not, is waited for."""
    if s.kind == "bot" or (s.kind == "open" and s.stand_in):
        return "yes"
    return "no" if s.kind == "open" else "waiting"


def illegal_reason(
    card: int, take: int, hand: list[int], on_table: list[int], variants: frozenset[str]
) -> str | None:
    """3.5's ``illegal_play`` reasons, in their order; None for a legal play."""
    if card not in hand:
        return "not_in_hand"
    legal = legal_takes(card, on_table, variants)
    if take in legal:
        return None
    if take == 0:
        return "must_capture"
    if take & ~mask(on_table):
        return "not_on_table"
    if "asso_piglia_tutto" in variants and value(card) == 1 and legal == [mask(on_table)]:
        return "ace_takes_all"
    taken = [c for c in on_table if take >> c & 1]
    same = any(value(c) == value(card) for c in on_table)
    if len(taken) >= 2 and same and "quindici" not in variants:
        return "single_card_matches"
    return "wrong_sum"


# --- the host -------------------------------------------------------------------------------


class DocumentHost:
    """Serve ``tables`` on ``port`` (0: any); ``cheat`` names one dishonesty (module doc)."""

    def __init__(
        self,
        name: str = "document host",
        *,
        cheat: str | None = None,
        versions: tuple[int, ...] = VERSIONS,
        away_limit: float | None = None,
    ) -> None:
        self.name = name
        self.cheat = cheat
        self.versions = versions
        self.away_limit = away_limit  # 3.3: seconds; None, never open to a newcomer
        # A rigged host, for tests only: the seat seeds its players will reveal in round 1,
        # from which it picks a deck that opens with three kings (void, then dealt again).
        self.void_first_round: list[bytes] | None = None
        self._key = Ed25519PrivateKey.generate()
        self.key = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.tables: dict[int, Match] = {}
        self._ids = count(1)
        self.port = 0
        self.bot_delay = 0.0
        self._nursery: trio.Nursery | None = None
        self.connections: list[Connection] = []
        self.byes: list[tuple[int | None, str, str]] = []  # (seat, reason, message) received

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)

    def later(self, seconds: float, fn, *args) -> None:
        async def run() -> None:
            await trio.sleep(seconds)
            fn(*args)

        self._nursery.start_soon(run)

    async def start(self, nursery: trio.Nursery, port: int = 0) -> None:
        self._nursery = nursery
        listeners = await nursery.start(
            partial(trio.serve_tcp, self._serve, port, host="127.0.0.1")
        )
        self.port = listeners[0].socket.getsockname()[1]

    def open_table(self, rules: Table, name: str = "house table", bots: int = 0) -> Match:
        """A table the host opens itself, as with ``--players``; its highest seats to bots."""
        table = Match(next(self._ids), name, rules, None, 1 if bots else None, self)
        for seat in range(rules.players - bots, rules.players):
            table.seats[seat].kind, table.seats[seat].name = "bot", f"bot {seat}"
            table.seats[seat].holding = Holding(f"bot {seat}")
        self.tables[table.id] = table
        return table

    def drop(self, table: Match, seat: int) -> None:
        """Cut the seat's connection without a word, as a failing network would."""
        conn = table.seats[seat].conn
        if conn is not None:
            conn.send.close()

    # --- computer players: the first legal play, at once

    def bot_turn(self, table: Match) -> None:
        r = table.round
        if r is None or r.replay is None or r.replay.over:
            return
        seat = r.replay.turn
        if table.seats[seat].automatic:
            self.later(self.bot_delay, self._bot_play, table, r, len(r.plays))

    def _bot_play(self, table: Match, r: Round, plays: int) -> None:
        if table.round is not r or len(r.plays) != plays or r.replay.over:
            return
        if not table.seats[r.replay.turn].automatic:
            return  # a newcomer took the seat meanwhile: the play is theirs
        code = r.replay.legal()[0]
        table.apply(r.replay.turn, code & 63, code >> 6, computer=True)

    # --- one connection

    async def _serve(self, stream: trio.SocketStream) -> None:
        send, receive = trio.open_memory_channel(float("inf"))
        conn = Connection(stream, send)
        self.connections.append(conn)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._writer, conn, receive, nursery.cancel_scope)
            try:
                await self._reader(conn)
            except ProtocolError as exc:
                conn.put({"t": "bye", "reason": exc.reason, "message": exc.message[:200]})
                conn.send.close()
                self._gone(conn)
                return
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            self._gone(conn)
            nursery.cancel_scope.cancel()

    async def _writer(self, conn: Connection, receive, scope: trio.CancelScope) -> None:
        try:
            async for message in receive:
                await conn.stream.send_all(frame(message))
                if message["t"] == "bye":
                    break
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        self._gone(conn)
        await conn.stream.aclose()
        scope.cancel()

    def _gone(self, conn: Connection) -> None:
        table, seat = conn.table, conn.seat
        conn.table = conn.seat = None
        if table is None or seat is None:
            return
        s = table.seats[seat]
        if s.conn is conn:
            s.conn = None
            if s.kind == "human":
                table.seat_status(seat)
                table.check_seeds()

    async def _reader(self, conn: Connection) -> None:
        buffer = b""
        while True:
            while len(buffer) < 4 or len(buffer) < 4 + int.from_bytes(buffer[:4], "big"):
                if len(buffer) >= 4 and not 1 <= int.from_bytes(buffer[:4], "big") <= MAX_FRAME:
                    raise ProtocolError("bad_frame", "frame length out of bounds")
                data = await conn.stream.receive_some(65540)
                if not data:
                    if buffer:
                        raise ProtocolError("bad_frame", "connection closed inside a frame")
                    return
                buffer += data
            size = int.from_bytes(buffer[:4], "big")
            payload, buffer = buffer[4 : 4 + size], buffer[4 + size :]
            try:
                msg = msgpack.unpackb(payload, raw=False, strict_map_key=True, ext_hook=_no_ext)
            except Exception as exc:
                raise ProtocolError("bad_frame", "payload is not one msgpack map") from exc
            if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
                raise ProtocolError("bad_frame", "payload is not a map with a str t")
            if msg["t"] == "bye":
                self.byes.append((conn.seat, msg.get("reason"), msg.get("message")))
                return
            self._check_fields(msg)
            self._handle(conn, msg)

    def _check_fields(self, msg: dict) -> None:
        kind = msg["t"]
        if kind not in FIELDS and kind not in BLIND_ONLY:
            raise ProtocolError("unknown_type", f"no message {kind!r}")
        keys = set(msg) - {"t"}
        if kind in BLIND_ONLY:
            return  # refused whole at an ordinary table (_handle)
        if not FIELDS[kind] <= keys <= FIELDS[kind] | OPTIONAL.get(kind, set()):
            raise ProtocolError("bad_field", f"{kind} has fields {sorted(keys)}")

    # --- messages by state (3.1)

    def _handle(self, conn: Connection, msg: dict) -> None:
        kind = msg["t"]
        if kind == "ping" and conn.state != "hello":
            conn.put({"t": "pong", "nonce": msg["nonce"]})
            return
        if kind == "pong" and conn.state != "hello":
            return
        if conn.state == "seated" and kind in BLIND_ONLY:
            self._error(conn, "wrong_phase", kind, f"{kind} is for blind tables")
        elif conn.state == "hello" and kind == "hello":
            self._hello(conn, msg)
        elif (conn.state == "lobby" and kind in LOBBY) or (
            conn.state == "seated" and kind in SEATED
        ):
            getattr(self, "_" + kind)(conn, msg)
        else:
            raise ProtocolError("out_of_order", f"{kind} in state {conn.state}")

    def _hello(self, conn: Connection, msg: dict) -> None:
        if msg["version"] not in self.versions:  # 3.2: H is the newest version it speaks
            raise ProtocolError(
                "bad_version",
                f"client speaks protocol version {msg['version']}; "
                f"this end speaks version {max(self.versions)}",
            )
        challenge = msg.get("challenge")
        if challenge is not None and (msg["version"] < 5 or not isinstance(challenge, bytes)
                                      or len(challenge) != 32):  # fmt: skip
            raise ProtocolError("bad_field", "hello: challenge is 32 bytes, in version 5 on")
        conn.state, conn.version = "lobby", msg["version"]
        answered = min(self.versions) if self.cheat == "welcome_in_another" else conn.version
        welcome = {
            "t": "welcome",
            "version": answered,
            "host_name": self.name,
            "host_key": self.key,
        }
        if challenge is not None:  # 5.3: the host proves it holds its key
            welcome["key_proof"] = self.sign(
                lp(b"scopa-net/v1/welcome-key-proof") + lp(u32(answered)) + lp(challenge)
                + lp(self.key)
            )  # fmt: skip
        conn.put(welcome)

    def _error(
        self,
        conn: Connection,
        code: str,
        ref: str | None,
        message: str,
        why: str | None = None,
        *,
        current_seq: int | None = None,
    ) -> None:
        error = {"t": "error", "code": code, "message": message, "ref": ref}
        if self.cheat == "why_wrong_code" and code == "no_such_table":
            why = "seat_taken_while_away"  # 3.9: goes with bad_token only
        if self.cheat == "v5_keys_in_4" and code == "no_such_table":
            why = "table_closed_on_restart"  # the right code, in a version without the key
        if why is not None and (conn.version >= 5 or self.cheat == "v5_keys_in_4"):
            error["why"] = why  # 3.8: never on a connection in version 4
        if current_seq is not None and conn.version >= 5:
            error["current_seq"] = current_seq  # 3.8: with `stale`; never in version 4
        conn.put(error)

    def _away_past_limit(self, s: SeatState) -> bool:
        """3.3: a person away, a computer playing for them, for longer than the away limit."""
        return (
            self.away_limit is not None and s.kind == "human" and s.conn is None and s.away
            and s.stand_in and trio.current_time() - s.away_since > self.away_limit
        )  # fmt: skip

    def _list_tables(self, conn: Connection, msg: dict) -> None:
        open_tables = [
            t.info(listing=True)
            for t in self.tables.values()
            if not t.over and (not t.full() or any(self._away_past_limit(s) for s in t.seats))
        ]  # 3.3: not over, at least one open seat (or one open to a newcomer)
        conn.put({"t": "tables", "tables": open_tables[:64]})

    def _create_table(self, conn: Connection, msg: dict) -> None:
        if msg.get("blind"):
            # protocol.md does not say how a host without blind tables refuses one (a
            # finding): an error that leaves the connection open, as for a refused request.
            self._error(conn, "wrong_phase", "create_table", "this host has no blind tables")
            return
        rules = msg["rules"]
        table = Table(rules["players"], rules["target"], frozenset(rules["variants"]))
        bots = msg["bots"]
        match = Match(
            next(self._ids), msg["name"], table, msg["password"],
            msg["bot_level"] if bots else None, self,
        )  # fmt: skip
        for seat in range(table.players - bots, table.players):
            match.seats[seat].kind, match.seats[seat].name = "bot", f"bot {seat}"
            match.seats[seat].holding = Holding(f"bot {seat}")
        self.tables[match.id] = match
        conn.put({"t": "table_created", "table": match.info()})

    def _join(self, conn: Connection, msg: dict) -> None:
        table = self.tables.get(msg["table_id"])
        if table is None:
            self._error(conn, "no_such_table", "join", "no such table")
            return
        if table.over:
            self._error(conn, "table_full", "join", "the match at this table is over")
            return
        if table.password is not None and msg["password"] != table.password:
            self._error(conn, "bad_password", "join", "wrong password")
            return
        seat = msg["seat"]
        if seat is None:  # 3.3: a seat open for good first, then one left long
            seat = next((i for i, s in enumerate(table.seats) if s.kind == "open"), None)
            if seat is None:
                seat = next(
                    (i for i, s in enumerate(table.seats) if self._away_past_limit(s)), None
                )
            if seat is None:
                self._error(conn, "table_full", "join", "no open seat")
                return
        elif seat >= len(table.seats) or (
            table.seats[seat].kind != "open" and not self._away_past_limit(table.seats[seat])
        ):
            self._error(conn, "seat_taken", "join", f"seat {seat} is not open")
            return
        s = table.seats[seat]
        absent = s.name if s.kind == "human" else None
        names = {o.name.casefold() for i, o in enumerate(table.seats) if o.name and i != seat}
        name, k = msg["name"], 2
        while name.casefold() in names:
            name, k = f"{msg['name']} ({k})", k + 1
        if absent is not None:  # 3.3: the absent person leaves for good at this moment
            words = (
                f"your seat at table {table.id} was taken by {name} after you were away for "
                f"more than {self.away_limit:g} seconds"
            )
            s.taken.update(dict.fromkeys(s.tokens, words))
            s.kind, s.name, s.tokens, s.away, s.stand_in = "open", None, [], False, True
            s.holding = Holding(f"bot {seat}")
            table.seat_status(seat, skip=seat)
        s.kind, s.name, s.moves, s.away, s.stand_in = "human", name, {}, False, False
        s.holding = Holding(name)
        token = os.urandom(16)
        s.tokens, s.presented = [token], 0
        s.epoch += 1
        self._seat(conn, table, seat)
        conn.put({"t": "joined", "table_id": table.id, "seat": seat, "token": token,
                  "epoch": s.epoch})  # fmt: skip
        conn.put(table.snapshot(seat, conn.version))
        conn.sent_seq = len(s.log)
        table.seat_status(seat, skip=seat)
        if absent is not None:
            why = f"{absent} was away for more than {self.away_limit:g} seconds"
            table.broadcast(
                {"t": "chat", "seat": None, "text": f"{name} takes {absent}'s seat: {why}"}
            )
        table.maybe_start()

    def _seat(self, conn: Connection, table: Match, seat: int) -> None:
        conn.state, conn.table, conn.seat = "seated", table, seat
        table.seats[seat].conn = conn

    def _resume(self, conn: Connection, msg: dict) -> None:
        table = self.tables.get(msg["table_id"])
        if table is None:
            self._error(conn, "no_such_table", "resume", "no such table")
            return
        seat = msg["seat"]
        s = table.seats[seat] if seat < len(table.seats) else None
        good = -1
        if s is not None and s.kind == "human":
            good = next(
                (i for i, t in enumerate(s.tokens) if hmac.compare_digest(t, msg["token"])), -1
            )
        if good < 0:
            taken = next(
                (w for t, w in s.taken.items() if hmac.compare_digest(t, msg["token"])), None
            ) if s is not None else None  # fmt: skip
            if taken is not None:
                self._error(conn, "bad_token", "resume", taken, "seat_taken_while_away")
            else:
                self._error(conn, "bad_token", "resume", "that token does not hold the seat")
            return
        if msg["last_seq"] > len(s.log):
            newest = len(s.log)
            self._error(
                conn, "stale", "resume", f"the newest event is {newest}", current_seq=newest
            )
            return
        # 3.3's token rule: using token i kills every token issued before it.
        s.tokens = s.tokens[good:]
        token = os.urandom(16)
        s.tokens = ([*s.tokens, token])[-8:]
        s.epoch += 1
        old = s.conn
        changed = old is None or s.away  # a seat_status only when the seat comes back (3.3)
        if old is not None:
            old.table = old.seat = None
            old.put({"t": "bye", "reason": "superseded", "message": "resumed elsewhere"})
            old.send.close()
        s.away = s.stand_in = False  # 3.3: the stand-in gives the seat back
        self._seat(conn, table, seat)
        conn.put({"t": "resumed", "table_id": table.id, "seat": seat, "token": token,
                  "epoch": s.epoch, "catch_up": "replay"})  # fmt: skip
        for event in s.log[msg["last_seq"] :]:
            conn.put(event)
        conn.sent_seq = len(s.log)
        if changed:
            table.seat_status(seat)
        table.check_seeds()

    def _leave(self, conn: Connection, msg: dict) -> None:
        table, seat = conn.table, conn.seat
        s = table.seats[seat]
        s.conn = None
        conn.table = conn.seat = None
        if msg["away"] and not table.over:
            s.away, s.away_since = True, trio.current_time()
            s.stand_in = table.started  # 3.3: a bot plays for them at once
        else:
            s.kind, s.name, s.tokens, s.moves = "open", None, [], {}
            s.stand_in = table.started and not table.over  # 3.3: a computer plays it meanwhile
            s.holding = Holding(f"bot {seat}")  # 3.9 makers: the open seat's computer
            if table.votes is not None and table.votes[seat] == "waiting":
                table.vote(seat, False)
        conn.state = "lobby"
        conn.put({"t": "left", "table_id": table.id, "seat": seat})
        table.seat_status(seat)
        if s.stand_in:
            self.bot_turn(table)  # perhaps the seat's turn now

    def _play(self, conn: Connection, msg: dict) -> None:
        table, seat = conn.table, conn.seat
        if msg["after"] > conn.sent_seq:
            raise ProtocolError("out_of_order", "a play chosen after an event never sent")
        s = table.seats[seat]
        move_id, card, take = msg["move_id"], msg["card"], msg["captured"]
        if move_id in s.moves:
            was = s.moves[move_id]
            if was[:2] == (card, take):
                conn.put({"t": "ack", "move_id": move_id, "seq": was[2], "duplicate": True})
            else:
                conn.put({"t": "reject", "move_id": move_id, "code": "move_id_taken",
                          "reason": None, "message": "that move id was used",
                          "current_seq": None})  # fmt: skip
            return
        refused = table.refusal(seat, msg)
        if refused is not None:
            code, reason, text = refused
            conn.put({"t": "reject", "move_id": move_id, "code": code, "reason": reason,
                      "message": text,
                      "current_seq": len(s.log) if code == "stale" else None})  # fmt: skip
            return
        # 3.5 step 6: the ack goes before the events the move caused. The seq is known
        # before they are made: the played event is the seat's next one.
        seq = len(s.log) + 1
        s.moves[move_id] = (card, take, seq)
        conn.put({"t": "ack", "move_id": move_id, "seq": seq, "duplicate": False})
        try:
            table.apply(seat, card, take)
        except IllegalPlayError as exc:  # refusal() let through what the referee does not
            raise ProtocolError("internal", str(exc)) from exc

    def _say(self, conn: Connection, msg: dict) -> None:
        text = " ".join(msg["text"].split())
        if not text or len(text) > 200:
            self._error(conn, "chat_too_long", "say", "say something, in 200 characters")
            return
        conn.table.broadcast({"t": "chat", "seat": conn.seat, "text": text})

    def _rename(self, conn: Connection, msg: dict) -> None:
        s = conn.table.seats[conn.seat]
        if msg["name"] != s.name:
            s.name = msg["name"]
            if s.holding is not None:
                s.holding.name = s.name  # 3.9 makers: their plays renamed with them
            conn.table.seat_status(conn.seat)

    def _seed_commit(self, conn: Connection, msg: dict) -> None:
        table, seat = conn.table, conn.seat
        r = table.round
        if r is None or r.stage != "commit" or r.round_id != msg["round_id"] or r.commits[seat]:
            self._error(conn, "wrong_phase", "seed_commit", "not the time for a commitment")
            return
        r.commits[seat] = msg["commit"]
        table.check_seeds()

    def _seed_reveal(self, conn: Connection, msg: dict) -> None:
        table, seat = conn.table, conn.seat
        r = table.round
        if (
            r is None
            or r.stage != "reveal"
            or r.round_id != msg["round_id"]
            or r.commits[seat] is None
            or r.seeds[seat] is not None
        ):
            self._error(conn, "wrong_phase", "seed_reveal", "not the time for a seed")
            return
        r.seeds[seat] = msg["seed"]
        seed_hash = seat_commitment(r.round_id, seat, msg["seed"])
        receipt = (
            lp(b"scopa-net/v1/seed-receipt-signature") + lp(r.round_id) + lp(u8(seat))
            + lp(seed_hash)
        )  # fmt: skip
        table.event(seat, {"t": "seed_receipt", "round_id": r.round_id, "seat": seat,
                           "seed_hash": seed_hash, "sig": self.sign(receipt)})  # fmt: skip
        table.check_seeds()

    def _rematch(self, conn: Connection, msg: dict) -> None:
        table = conn.table
        if not table.over or (table.votes is not None and "no" in table.votes):
            self._error(conn, "wrong_phase", "rematch", "no vote is open")
            return
        table.vote(conn.seat, msg["agree"])
