"""What one seat of an ordinary table checks on arrival (protocol.md 5.10), written from
protocol.md and RULES.md alone: it imports nothing from scopa_net.

``Seat`` takes the table events of one seat, in order, as decoded maps (``seat.take(event)``),
and raises ``CheckFailedError`` naming the round and the check the moment one fails. It keeps
what the seat may know: its hand, the cards face up, whose turn it is, and the seed it commits
to, so that ``document_client`` can play from it. No I/O, no clock: randomness comes in as
seed bytes.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from document_hashes import below, h, lp, shuffle, u8, u32, u64, words
from document_referee import IllegalPlayError, RoundReplay, Table, deal_targets, match_winner

ZERO = bytes(32)
EXCLUSIONS = {None: 0, "no_commit": 1, "no_reveal": 2, "bad_reveal": 3}
KING = 10


class CheckFailedError(Exception):
    """A check of 5.10 failed: the seat stops and leaves with ``bye deal_failed``."""

    def __init__(self, round_no: int, check: str) -> None:
        super().__init__(f"round {round_no}: {check}")
        self.round_no = round_no
        self.check = check


def signed(key: bytes, sig: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def rules_hash(table: Table) -> bytes:
    """5.2: the rule set, variant names sorted bytewise."""
    names = sorted(v.encode() for v in table.variants)
    return h("scopa-net/v1/rules", u8(table.players), u8(table.target), *names)


def commit_message(
    round_id: bytes, round_no: int, prev: bytes, digest: bytes, rules: bytes
) -> bytes:
    tag = b"scopa-net/v1/round-commit-signature"
    return b"".join(lp(x) for x in (tag, round_id, u32(round_no), prev, digest, rules))


def seat_commit(round_id: bytes, seat: int, seed: bytes) -> bytes:
    return h("scopa-net/v1/seat-commit", round_id, u8(seat), seed)


def card_hash(round_id: bytes, card: int, salt: bytes) -> bytes:
    return h("scopa-net/v1/card-hash", round_id, u8(card), salt)


def host_list(round_id: bytes, host_seed: bytes) -> tuple[list[int], list[bytes], list[bytes]]:
    """5.2: the host's order, salts and card hashes, from its seed."""
    order = shuffle(host_seed, "scopa-net/v1/host-order", round_id)
    salts = [h("scopa-net/v1/card-salt", round_id, host_seed, u8(i))[:16] for i in range(40)]
    hashes = [card_hash(round_id, order[i], salts[i]) for i in range(40)]
    return order, salts, hashes


def slots(values: Sequence[bytes | None]) -> bytes:
    """5.7: commitments or seeds by seat."""
    return u8(len(values)) + b"".join(b"\x00" if v is None else b"\x01" + v for v in values)


def compare(a: bytes, b: bytes) -> bool:
    return hmac.compare_digest(a, b)


@dataclass
class Round:
    """One round (one `round_commit`) as the seat saw it."""

    round_id: bytes
    round_no: int
    prev: bytes
    card_hashes: list[bytes]
    digest: bytes
    dealer: int | None = None
    seed: bytes = b""
    commit: bytes | None = None
    commits: list[bytes | None] | None = None
    seeds: list[bytes | None] | None = None
    excluded: list[str | None] | None = None
    receipt: bytes | None = None
    revealed: bool = False
    perm: list[int] = field(default_factory=list)
    deals: int = 0
    dealt_to: dict[int, int | None] = field(default_factory=dict)  # position: seat, None table
    seen: dict[int, tuple[int, bytes]] = field(default_factory=dict)  # position: card, salt
    opening: list[int] = field(default_factory=list)  # positions
    plays: list[tuple[int, int, int, bool]] = field(default_factory=list)  # seat, code, pos, sweep
    void: bool = False
    end: dict | None = None


class Seat:
    """One seat's view of an ordinary table, checked event by event (5.10)."""

    def __init__(self, host_key: bytes, table: Table, seat: int) -> None:
        self.host_key = host_key
        self.table = table
        self.seat = seat
        self.last_round_no = 0
        self.chain = ZERO
        self.round_ids: set[bytes] = set()
        self.round: Round | None = None
        self.rounds: list[Round] = []  # every round committed, the one in play last
        self.next_dealer: int | None = None
        self.scores = [0] * table.sides
        self.hand: dict[int, int] = {}  # card: position
        self.on_table: list[int] = []
        self.to_move: int | None = None
        self.match_over = False
        self.rounds_checked = 0
        self.loose = False  # a match joined under way: its round in play passes unchecked
        self.trust_prev = False  # 5.10: the next round_commit's prev and round_no, as they come

    def midway(self, snapshot: dict) -> None:
        """Start from a ``snapshot`` of a match under way (5.10, "A seat that did not see the
        match from its start"): the round in play passes unchecked, its cards and turn taken
        from the snapshot and the events after it; the next ``round_commit``'s ``prev`` and
        ``round_no`` are taken as they come, and every round from there is checked. The match
        score is taken from the unchecked round's ``round_end`` (or the snapshot)."""
        self.loose = self.trust_prev = True
        self.round = None  # what it knew of a round is over: caught up past it
        self.hand = dict.fromkeys(snapshot["hand"], -1)
        self.on_table = list(snapshot["table"])
        self.to_move = snapshot["to_move"]
        self.last_round_no = snapshot["round_no"]
        self.scores = list(snapshot["scores"])
        if snapshot["round_over"] and snapshot["round_score"] is not None:
            self.scores = [
                s + sum(line["points"][side] for line in snapshot["round_score"])
                for side, s in enumerate(self.scores)
            ]
        if snapshot["round_no"]:
            over = snapshot["round_over"]
            self.next_dealer = (snapshot["dealer"] + over) % self.table.players

    # --- what the client asks -----------------------------------------------------------------

    def fail(self, check: str) -> CheckFailedError:
        return CheckFailedError(self.round.round_no if self.round else self.last_round_no, check)

    @property
    def my_turn(self) -> bool:
        if self.loose:
            return self.to_move == self.seat and bool(self.hand)
        r = self.round
        return bool(r and r.end is None and not r.void and self.to_move == self.seat and self.hand)

    def seed_to_commit(self, seed: bytes) -> bytes:
        """Draw this round's seed (given by the caller) and return its commitment (5.4 step 1)."""
        r = self._need_round()
        if r.commit is None:
            r.seed, r.commit = seed, seat_commit(r.round_id, self.seat, seed)
        return r.commit

    def _need_round(self) -> Round:
        if self.round is None:
            raise self.fail("an event of a round before its round_commit")
        return self.round

    def take(self, event: dict) -> None:
        """Check one table event as it arrives; raise CheckFailedError if a check fails."""
        if self.loose and event["t"] != "round_commit":
            self._loose(event)
            return
        handler = getattr(self, "_on_" + event["t"], None)
        if handler is not None:
            handler(event)

    def _loose(self, e: dict) -> None:
        """An event of the round under way when the seat was taken: followed, not checked."""
        if e["t"] == "deal":
            self.hand.update({c["card"]: c["pos"] for c in e["hand"]})
            self.on_table += [c["card"] for c in e["table"]]
        elif e["t"] == "played":
            self.hand.pop(e["card"], None)
            self.on_table = [c for c in self.on_table if not e["captured"] >> c & 1]
            if not e["captured"]:
                self.on_table.append(e["card"])
            self.to_move = (e["seat"] + 1) % self.table.players
        elif e["t"] == "round_end":
            self.scores, self.to_move = list(e["scores"]), None
            if self.next_dealer is not None:
                self.next_dealer = (self.next_dealer + 1) % self.table.players
        elif e["t"] == "match_end":
            self.match_over = True  # its signature is over a chain this seat never held

    # --- 5.2 ------------------------------------------------------------------------------------

    def _on_round_commit(self, e: dict) -> None:
        if self.round is not None and not self.round.revealed:
            raise self.fail("a round_commit before the last round was revealed")
        r = Round(e["round_id"], e["round_no"], e["prev"], list(e["card_hashes"]), e["digest"])
        self.round = r
        self.rounds.append(r)
        if len(r.card_hashes) != 40:
            raise self.fail("round_commit without 40 card hashes")
        if not compare(h("scopa-net/v1/deck-digest", r.round_id, *r.card_hashes), r.digest):
            raise self.fail("round_commit digest is not the hash of its card hashes")
        message = commit_message(r.round_id, r.round_no, r.prev, r.digest, rules_hash(self.table))
        if not signed(self.host_key, e["sig"], message):
            raise self.fail("round_commit signature")
        if self.trust_prev:  # 5.10: a seat that did not see the match from its start
            self.loose = self.trust_prev = False
        elif r.round_no != self.last_round_no + 1:
            raise self.fail(f"round_commit numbered {r.round_no} after round {self.last_round_no}")
        elif not compare(r.prev, self.chain):
            raise self.fail("round_commit prev is not the last round's chain hash")
        if r.round_id in self.round_ids:
            raise self.fail("round_commit with a round id seen before")
        self.round_ids.add(r.round_id)
        self.last_round_no = r.round_no
        self.hand, self.on_table, self.to_move = {}, [], None

    # --- 5.4 ------------------------------------------------------------------------------------

    def _same_round(self, e: dict) -> Round:
        r = self._need_round()
        if not compare(e["round_id"], r.round_id):
            raise self.fail(f"{e['t']} for another round")
        return r

    def _on_seed_commits(self, e: dict) -> None:
        r = self._same_round(e)
        commits = list(e["commits"])
        if len(commits) != self.table.players:
            raise self.fail("seed_commits without one entry per seat")
        mine = commits[self.seat]
        if mine is not None and (r.commit is None or not compare(mine, r.commit)):
            raise self.fail("seed_commits changed this seat's commitment")
        r.commits = commits

    def _on_seed_receipt(self, e: dict) -> None:
        r = self._same_round(e)
        message = b"".join(
            lp(x)
            for x in (
                b"scopa-net/v1/seed-receipt-signature",
                r.round_id,
                u8(e["seat"]),
                e["seed_hash"],
            )
        )
        if e["seat"] != self.seat or not signed(self.host_key, e["sig"], message):
            raise self.fail("seed_receipt signature")
        if r.commit is None or not compare(e["seed_hash"], r.commit):
            raise self.fail("seed_receipt names another commitment than this seat's")
        r.receipt = e["sig"]

    def _on_seed_reveals(self, e: dict) -> None:
        r = self._same_round(e)
        n = self.table.players
        seeds, excluded = list(e["seeds"]), list(e["excluded"])
        commits = r.commits if r.commits is not None else [None] * n
        if len(seeds) != n or len(excluded) != n:
            raise self.fail("seed_reveals without one entry per seat")
        mine = seeds[self.seat]
        if mine is not None and not compare(mine, r.seed):
            raise self.fail("seed_reveals changed this seat's seed")
        for seat, (commit, seed, why) in enumerate(zip(commits, seeds, excluded, strict=True)):
            if commit is None:
                proven: set[str | None] = {None, "no_commit"} if seed is None else set()
            elif seed is None:
                proven = {"no_reveal"}
            elif compare(seat_commit(r.round_id, seat, seed), commit):
                proven = {None}
            else:
                proven = {"bad_reveal"}
            if why not in proven:
                raise self.fail(f"seed_reveals excludes seat {seat} as {why}, not as its record")
        if r.receipt is not None and excluded[self.seat] is not None:
            raise self.fail("seed_reveals left out a seed the host signed a receipt for")
        r.seeds, r.excluded = seeds, excluded
        counted = [
            s for s, why in zip(seeds, excluded, strict=True) if s is not None and why is None
        ]
        joint = h("scopa-net/v1/joint-seed", r.round_id, r.digest, *counted)
        r.perm = shuffle(joint, "scopa-net/v1/deck-shuffle", r.round_id)
        if self.next_dealer is None:  # 5.6: the first round of the match draws the dealer
            first = words(joint, "scopa-net/v1/first-dealer", r.round_id)
            self.next_dealer = below(first, self.table.players)
        r.dealer = self.next_dealer

    # --- 4, 5.7: cards ----------------------------------------------------------------------------

    def _card(self, r: Round, pos: int, card: int, salt: bytes) -> None:
        """A card in transit: its hash against the commitment, and one card per position."""
        if not r.perm:
            raise self.fail("a card before the seeds were revealed")
        if not compare(card_hash(r.round_id, card, salt), r.card_hashes[r.perm[pos]]):
            raise self.fail(f"card {card} at position {pos} does not match its committed hash")
        for other, (seen, _) in r.seen.items():
            if seen == card and other != pos:
                raise self.fail(f"card {card} seen at positions {other} and {pos}")
        r.seen[pos] = (card, salt)

    def _on_deal(self, e: dict) -> None:
        r = self._need_round()
        if r.dealer is None or r.void or r.end is not None:
            raise self.fail("a deal out of its place in the round")
        plan = deal_targets(self.table, r.dealer)
        if r.deals >= len(plan):
            raise self.fail("more deals than the round has")
        start = sum(len(d) for d in plan[: r.deals])
        targets = plan[r.deals]
        r.deals += 1
        for offset, target in enumerate(targets):
            r.dealt_to[start + offset] = target
        mine = {start + i for i, t in enumerate(targets) if t == self.seat}
        opening = {start + i for i, t in enumerate(targets) if t is None}
        hand = [(c["pos"], c["card"], c["salt"]) for c in e["hand"]]
        table = [(c["pos"], c["card"], c["salt"]) for c in e["table"]]
        if {p for p, _, _ in hand} != mine or len(hand) != len(mine):
            raise self.fail(f"deal {r.deals}: the hand is not the positions dealt to this seat")
        if {p for p, _, _ in table} != opening or len(table) != len(opening):
            raise self.fail(f"deal {r.deals}: the table is not the opening positions")
        for pos, card, salt in hand + table:
            if pos in r.seen:
                raise self.fail(f"deck position {pos} dealt twice")
            self._card(r, pos, card, salt)
        self.hand.update({card: pos for pos, card, _ in hand})
        r.opening += sorted(p for p, _, _ in table)
        self.on_table += [card for _, card, _ in table]
        if r.deals == 1:
            self.to_move = (r.dealer + 1) % self.table.players

    def _on_played(self, e: dict) -> None:
        r = self._need_round()
        seat, card, pos, captured = e["seat"], e["card"], e["pos"], e["captured"]
        if r.dealer is None or r.void or r.end is not None or e["salt"] is None:
            raise self.fail("a play out of its place in the round")
        if r.dealt_to.get(pos, -1) != seat:
            raise self.fail(f"seat {seat} played position {pos}, not dealt to it")
        if any(p == pos for _, _, p, _ in r.plays):
            raise self.fail(f"position {pos} played twice")
        if pos in r.seen and r.seen[pos][0] != card:
            raise self.fail(f"position {pos} held card {r.seen[pos][0]}, played as {card}")
        self._card(r, pos, card, e["salt"])
        r.plays.append((seat, card | captured << 6, pos, e["sweep"]))
        if seat == self.seat:
            self.hand.pop(card, None)
        self.on_table = [c for c in self.on_table if not captured >> c & 1]
        if not captured:
            self.on_table.append(card)
        self.to_move = (seat + 1) % self.table.players

    # --- 5.8, round end, reveal -----------------------------------------------------------------

    def _on_round_void(self, e: dict) -> None:
        r = self._same_round(e)
        kings = sum(card // 4 + 1 == KING for card in self.on_table)
        if e["reason"] != "kings" or r.deals != 1 or r.plays or kings < 3:
            raise self.fail(f"round_void ({e['reason']}) without three kings on the opening table")
        r.void = True

    def _on_round_end(self, e: dict) -> None:
        r = self._need_round()
        if e["round_no"] != r.round_no:
            raise self.fail(f"round_end scores round {e['round_no']}, not the round in play")
        r.end = e

    def _on_round_reveal(self, e: dict) -> None:
        r = self._same_round(e)
        if r.end is None and not r.void:
            raise self.fail("round_reveal before the round ended")
        host_seed = e["host_seed"]
        order, salts, hashes = host_list(r.round_id, host_seed)
        if not all(compare(a, b) for a, b in zip(hashes, r.card_hashes, strict=True)):
            raise self.fail("the host seed does not give the committed card hashes")
        deck = [order[p] for p in r.perm]
        for pos, (card, salt) in r.seen.items():
            if deck[pos] != card or not compare(salts[r.perm[pos]], salt):
                raise self.fail(f"position {pos} is not the card the revealed deck holds there")
        self._replay(r, deck)
        chain = self._chain(r, host_seed)
        message = b"".join(
            lp(x) for x in (b"scopa-net/v1/round-reveal-signature", r.round_id, host_seed, chain)
        )
        if not signed(self.host_key, e["sig"], message):
            raise self.fail("round_reveal signature")
        self.chain, r.revealed = chain, True
        self.rounds_checked += 1

    def _replay(self, r: Round, deck: list[int]) -> None:
        """Re-deal the revealed deck (section 4) and replay every play by the rules."""
        assert r.dealer is not None
        replay = RoundReplay(self.table, r.dealer, deck)
        if replay.void != r.void:
            raise self.fail("void or not, against the opening table")
        if r.void:
            return
        for seat, code, _, sweep in r.plays:
            try:
                swept = replay.play(seat, code)
            except IllegalPlayError:
                raise self.fail(f"seat {seat} made an illegal play (code {code})") from None
            if swept != sweep:
                raise self.fail(f"seat {seat}'s play says sweep {sweep}, the rules say {swept}")
        if not replay.over:
            raise self.fail("round_end before the last play")
        assert r.end is not None
        lines = [(x.name, x.figures, x.points, x.winner) for x in replay.score()]
        sent = [
            (x["name"], list(x["figures"]), list(x["points"]), x["winner"]) for x in r.end["lines"]
        ]
        if sent != lines or list(r.end["leftover"]) != replay.leftover:
            raise self.fail("round_end's score sheet is not the rules' score of the round")
        totals = [s + sum(line[2][side] for line in lines) for side, s in enumerate(self.scores)]
        if list(r.end["scores"]) != totals:
            raise self.fail("round_end's match scores do not add up")
        self.scores = totals
        self.next_dealer = (r.dealer + 1) % self.table.players

    def _chain(self, r: Round, host_seed: bytes) -> bytes:
        """5.7: the chain hash of the round, from its public record."""
        excluded = b"" if r.excluded is None else bytes(EXCLUSIONS[x] for x in r.excluded)
        table = b"".join(u8(p) + u8(r.seen[p][0]) + r.seen[p][1] for p in r.opening)
        plays = b"".join(
            u8(seat) + u64(code) + u8(pos) + r.seen[pos][1] for seat, code, pos, _ in r.plays
        )
        return h(
            "scopa-net/v1/round-chain",
            r.round_id,
            u32(r.round_no),
            r.prev,
            r.digest,
            b"" if r.commits is None else slots(r.commits),
            b"" if r.seeds is None else slots(r.seeds),
            excluded,
            table,
            plays,
            b"kings" if r.void else b"",
            b"",
            host_seed,
        )

    # --- 5.9 ------------------------------------------------------------------------------------

    def _on_match_end(self, e: dict) -> None:
        if self.round is None or not self.round.revealed:
            raise self.fail("match_end before the last round was revealed")
        scores, winner = list(e["scores"]), e["winner"]
        message = b"".join(
            lp(x)
            for x in (
                b"scopa-net/v1/match-end-signature",
                self.chain,
                b"".join(u32(s) for s in scores),
                b"" if winner is None else u8(winner),
            )
        )
        if not signed(self.host_key, e["sig"], message):
            raise self.fail("match_end signature")
        if scores != self.scores or winner != match_winner(self.table, scores):
            raise self.fail("match_end's scores or winner are not the rounds' total")
        self.match_over = True
