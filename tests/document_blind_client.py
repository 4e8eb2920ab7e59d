"""A client for blind tables (protocol.md section 9) written from protocol.md and RULES.md
alone: it imports nothing from scopa_net, only the outsider's own earlier modules
(``document_client`` for the wire, ``blind_document_verifier`` for the group, the proofs and
the verifier's round check, ``document_referee`` for the rules).

``BlindSeat`` is one seat's part of a blind table with no I/O: it takes the table events in
order (``take``), checks each as 9.6 says a seat must, and queues what its party owes the host
(``outgoing``): its key, its shuffle with its proof, its shares of each deal, its seed at the
round's end. It opens the table and its own hand from the shares and makes the play proof of
a card it plays (``play``). At each round's reveal it checks the whole round with the
verifier's own round check (9.9), and at the match end the signed result.

``DocumentBlindClient`` seats it at a host over TCP, plays legal cards chosen with
``document_referee``, drops and resumes (3.3), sending again what the host may lack (9.7).

Where the document once left a choice to the implementer, the comment says where it now
says what to do (marked "once a GUESS").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import trio
from blind_document_verifier import (
    CARD_OF,
    CARD_POINTS,
    Match,
    RefusedError,
    Secrets,
    Shuffle,
    add,
    as_int,
    blind_digest,
    commit_message,
    deck_message,
    dleq_holds,
    dleq_proof,
    first_dealer,
    key_proof,
    key_proof_holds,
    mul,
    open_deck,
    owner_of,
    plan,
    play_context,
    rules_hash,
    secrets,
    shares_message,
    shuffle_proof,
    shuffle_proof_holds,
    shuffled,
    sign,
    signed,
    sub,
    valid,
    verify_result,
    verify_round,
)
from document_client import Connection, HostMisbehavedError
from document_referee import Table, legal_takes
from nacl.exceptions import RuntimeError as SodiumError

VERSION = 5  # 3.2: a host of 5 speaks 4 too; this client, written for 5, says 5
KING = 10
BLIND_EVENTS = {  # 3.4
    "seat_status", "chat", "played", "round_reveal", "round_void", "round_end", "match_end",
    "rematch_status", "snapshot", "blind_round", "blind_keys", "blind_deck", "blind_open",
    "blind_deal", "blind_reveals",
}  # fmt: skip


class BlindCheckFailedError(Exception):
    """A check of 9.6 failed: the seat stops (9.6 "When a check fails")."""

    def __init__(self, round_no: int, check: str) -> None:
        super().__init__(f"round {round_no}: {check}")
        self.round_no, self.check = round_no, check


@dataclass
class Party:
    """This seat's party in one round (9.3)."""

    number: int
    seed: bytes
    secrets: Secrets
    proof: bytes

    def key_info(self) -> dict:
        return {"point": self.secrets.point, "proof": self.proof, "sign_key": self.secrets.sign_key}


@dataclass
class BlindRound:
    """One round as this seat saw it: ``record`` is 9.8's round map, filled as events come."""

    record: dict
    party: Party | None  # None: an observer (9.7), or a party not yet drawn
    joint: bytes = b""
    dealt_to: dict[int, int | None] = field(default_factory=dict)  # position: seat, None table
    opened: dict[int, int] = field(default_factory=dict)  # position: card this seat read
    published: dict[int, list[bytes | None]] = field(default_factory=dict)  # position: shares
    played: set[int] = field(default_factory=set)
    opens: dict[int, tuple[list[bytes], bytes]] = field(default_factory=dict)  # deal: party 0's
    my_shares: dict[int, dict] = field(default_factory=dict)  # deal: the blind_shares sent
    my_deck: dict | None = None  # the blind_shuffle sent
    over: bool = False  # played out, or void: the seeds are due
    revealed: bool = False  # round_reveal checked

    @property
    def round_id(self) -> bytes:
        return self.record["round_id"]

    @property
    def deals_relayed(self) -> int:
        return len(self.record["deals"])


class BlindSeat:
    """One seat of a blind table, checked event by event (9.6); no I/O, no clock."""

    def __init__(
        self,
        host_key: bytes,
        table: Table,
        seat: int,
        variants: list[str],
        seeds: Callable[[], bytes] = lambda: os.urandom(32),
    ) -> None:
        self.table = table
        self.seat = seat
        self.seeds = seeds
        self.match = Match(table, rules_hash(table.players, table.target, variants), host_key, seat)
        self.match.scores = [0] * table.sides
        self.round_ids: set[bytes] = set()
        self.round: BlindRound | None = None
        self.rounds: list[BlindRound] = []
        self.verdicts: list[str] = []
        self.outgoing: list[dict] = []
        self.people_seen: set[int] = set()  # seats a person plays, not a stand-in (3.3)
        self.hand: dict[int, int] = {}  # card: position, this seat's cards not yet played
        self.on_table: list[int] = []
        self.to_move: int | None = None
        self.scores = [0] * table.sides
        self.match_over = False
        self.result: str = ""

    # --- what the client asks ------------------------------------------------------------------

    def fail(self, check: str) -> BlindCheckFailedError:
        r = self.round
        return BlindCheckFailedError(r.record["round_no"] if r else self.match.round_no, check)

    @property
    def my_turn(self) -> bool:
        r = self.round
        return bool(
            r
            and r.party is not None
            and not r.over
            and self.to_move == self.seat
            and self.hand
            and self.seat in r.record["people"]
        )

    def take_outgoing(self) -> list[dict]:
        out, self.outgoing = self.outgoing, []
        return out

    def play(self, card: int, captured: int) -> tuple[int, bytes]:
        """The deck position of ``card`` in this seat's hand and its play proof (9.4)."""
        r = self._need_round()
        assert r.party is not None
        pos = self.hand[card]
        u, v = self._deck()[pos][:32], self._deck()[pos][32:]
        others = self._sum_shares(pos, skip=r.party.number)
        d = sub(sub(v, others), CARD_POINTS[card]) if others else sub(v, CARD_POINTS[card])
        ctx = play_context(r.round_id, r.party.number, pos, card)
        return pos, dleq_proof(r.party.secrets.x, r.party.secrets.point, ctx, u, d)

    def owed(self) -> list[dict]:
        """What this seat's party may owe the host after a lost connection (9.7: its key, its
        shuffle, its shares of the open deal, its seed at the end); a repeat the host already
        has is refused ``wrong_phase`` and changes nothing (9.5.2)."""
        r = self.round
        if r is None or r.party is None or r.revealed:
            return []
        rec, out = r.record, []
        if len(rec["keys"]) == 1:
            out.append({"t": "blind_key", "round_id": r.round_id, "key": r.party.key_info()})
        if r.my_deck is not None and len(rec["decks"]) == r.party.number:
            out.append(r.my_deck)
        if r.opens and max(r.opens) > r.deals_relayed:
            out.append(r.my_shares[max(r.opens)])
        if r.over and rec["seeds"] is None and not self._absent_named(r):
            out.append(self._reveal(r))
        return out

    # --- events ----------------------------------------------------------------------------------

    def take(self, event: dict) -> None:
        """Check one table event as it arrives; raise BlindCheckFailedError if a check fails."""
        handler = getattr(self, "_on_" + event["t"], None)
        if handler is not None:
            handler(event)

    def _need_round(self) -> BlindRound:
        if self.round is None:
            raise self.fail("an event of a round before its blind_round")
        return self.round

    def _same_round(self, e: dict) -> BlindRound:
        r = self._need_round()
        if e["round_id"] != r.round_id:
            raise self.fail(f"{e['t']} for another round")
        return r

    def _deck(self) -> list[bytes]:
        return self._need_round().record["decks"][-1]

    def _sum_shares(self, pos: int, skip: int | None = None) -> bytes | None:
        total = None
        for p, share in enumerate(self._need_round().published.get(pos, [])):
            if share is None or p == skip:
                continue
            total = share if total is None else add(total, share)
        return total

    def _absent_named(self, r: BlindRound) -> bool:
        void = r.record["void"]
        return void is not None and void["reason"] == "absent" and void["offender"] == self.seat

    def _on_snapshot(self, e: dict) -> None:
        # A SeatInfo does not say whether a computer stands in (3.10); version 5's `stand_ins`
        # does (3.9): every person's seat but those.
        stand_ins = set(e.get("stand_ins", []))
        self.people_seen = {
            s for s, info in enumerate(e["seats"]) if info["kind"] == "human" and s not in stand_ins
        }

    def _on_seat_status(self, e: dict) -> None:
        # 9.5.1 "the seats it sees played by people": a person's seat, unless a computer
        # stands in for it or it is open; a person away within their grace period counts.
        if e["kind"] == "human" and not e["stand_in"]:
            self.people_seen.add(e["seat"])
        else:
            self.people_seen.discard(e["seat"])

    # 9.5.1
    def _on_blind_round(self, e: dict) -> None:
        m = self.match
        if self.round is not None and not self.round.revealed:
            raise self.fail("a blind_round before the last round was revealed")
        people = list(e["people"])
        key = [e["key"]["point"], e["key"]["proof"], e["key"]["sign_key"]]
        record = {
            "round_id": e["round_id"], "round_no": e["round_no"], "prev": e["prev"],
            "dealer": None, "people": people, "keys": [key], "sig": e["sig"], "decks": [],
            "deck_sigs": [], "deck_proofs": [], "deals": [], "hand": [], "table": [],
            "plays": [], "void": None, "score": None, "seeds": None, "reveal_sig": None,
        }  # fmt: skip
        r = BlindRound(record, None)
        self.round = r
        self.rounds.append(r)
        self.hand, self.on_table, self.to_move = {}, [], None
        digest = blind_digest(r.round_id, people, key)
        message = commit_message(r.round_id, e["round_no"], e["prev"], digest, m.rules_hash)
        if not signed(m.host_key, e["sig"], message):
            raise self.fail("blind_round signature")
        if e["round_no"] != m.round_no + 1 or e["prev"] != m.prev:
            raise self.fail("blind_round does not follow the last round's chain hash")
        if r.round_id in self.round_ids:
            raise self.fail("blind_round with a round id seen before")
        self.round_ids.add(r.round_id)
        # 9.5.1: `people` in ascending order, naming no seat a computer holds (its entry at
        # the opening); a person who sits a round out (9.6, 9.7) is left out with no event
        # saying so, this seat included, so no more can be checked; a seat left out observes
        # the round (9.7). (Once a GUESS, when 9.5.1 said "exactly the seats it sees played by
        # people"; the document now says this.)
        if people != sorted(set(people)) or not set(people) <= self.people_seen:
            raise self.fail(f"blind_round people {people}: a seat no person plays "
                            f"(people play {sorted(self.people_seen)})")  # fmt: skip
        if self.seat not in people:
            return  # an observer of this round (9.7): it sends nothing
        number = people.index(self.seat) + 1
        while True:  # 9.3: a seed giving x = 0 is drawn again
            seed = self.seeds()
            s = secrets(r.round_id, number, seed)
            if as_int(s.x) != 0:
                break
        r.party = Party(number, seed, s, key_proof(s, r.round_id, number))
        self.outgoing.append({"t": "blind_key", "round_id": r.round_id, "key": r.party.key_info()})

    # 9.5.3
    def _on_blind_keys(self, e: dict) -> None:
        r = self._same_round(e)
        rec = r.record
        if len(rec["keys"]) != 1 or r.over:
            raise self.fail("blind_keys out of its place in the round")
        keys = [[k["point"], k["proof"], k["sign_key"]] for k in e["keys"]]
        if len(keys) != len(rec["people"]) + 1:
            raise self.fail("blind_keys without one key per party")
        if keys[0] != rec["keys"][0]:
            raise self.fail("blind_keys changed the host party's committed key")
        if r.party is not None and keys[r.party.number] != list(r.party.key_info().values()):
            raise self.fail("blind_keys changed this seat's key")
        for p, (point, proof, sign_key) in enumerate(keys):
            if not valid(point) or not key_proof_holds(r.round_id, p, point, proof, sign_key):
                raise self.fail(f"bad key (party {p})")
        want = self.match.dealer
        if want is None:
            want = first_dealer(r.round_id, [k[0] for k in keys], self.table.players)
        if e["dealer"] != want:
            raise self.fail(f"blind_keys names dealer {e['dealer']}, the match's is {want}")
        rec["keys"], rec["dealer"] = keys, e["dealer"]
        r.joint = keys[0][0]
        for point, _, _ in keys[1:]:
            r.joint = add(r.joint, point)
        self._shuffle_if_due(r)

    # 9.5.4
    def _on_blind_deck(self, e: dict) -> None:
        r = self._same_round(e)
        rec = r.record
        p = len(rec["decks"])
        if rec["dealer"] is None or e["party"] != p or p > len(rec["people"]) or r.over:
            raise self.fail(f"blind_deck of party {e['party']} out of party order")
        deck, proof = list(e["deck"]), e["proof"]
        if len(deck) != 40 or not all(
            isinstance(c, bytes) and len(c) == 64 and valid(c[:32]) and valid(c[32:]) for c in deck
        ):
            raise self.fail(f"bad deck (party {p})")
        if not signed(rec["keys"][p][2], e["sig"], deck_message(r.round_id, p, deck, proof)):
            raise self.fail(f"bad party signature (party {p}'s deck)")
        before = rec["decks"][-1] if rec["decks"] else open_deck(r.joint)
        if not shuffle_proof_holds(Shuffle(r.round_id, p, r.joint, before, deck), proof):
            raise self.fail(f"bad shuffle proof (party {p})")
        if r.party is not None and p == r.party.number:
            assert r.my_deck is not None
            if deck != r.my_deck["deck"] or proof != r.my_deck["proof"]:
                raise self.fail("blind_deck relayed another deck than this seat's")
        rec["decks"].append(deck)
        rec["deck_sigs"].append(e["sig"])
        rec["deck_proofs"].append(proof)
        self._shuffle_if_due(r)

    def _shuffle_if_due(self, r: BlindRound) -> None:
        rec = r.record
        if r.party is None or len(rec["decks"]) != r.party.number or r.my_deck is not None:
            return
        before = rec["decks"][-1] if rec["decks"] else open_deck(r.joint)
        s, p = r.party.secrets, r.party.number
        out = shuffled(before, s, r.joint)
        proof = shuffle_proof(Shuffle(r.round_id, p, r.joint, before, out), s, r.party.seed)
        sig = sign(s.sign_seed, deck_message(r.round_id, p, out, proof))
        r.my_deck = {"t": "blind_shuffle", "round_id": r.round_id, "deck": out, "proof": proof,
                     "sig": sig}  # fmt: skip
        self.outgoing.append(r.my_deck)

    # 9.5.6
    def _positions(self, r: BlindRound, deal: int, party: int) -> list[int]:
        """The positions of ``deal`` (from 1) that ``party`` shares: those it does not own."""
        dealt = plan(self.table, r.record["dealer"])[deal - 1]
        return [pos for pos, seat in dealt if owner_of(seat, r.record["people"]) != party]

    def _on_blind_open(self, e: dict) -> None:
        r = self._same_round(e)
        rec, k = r.record, e["deal"]
        shares = list(e["shares"])
        if k in r.opens and k <= r.deals_relayed + 1:  # 9.6: sent again, the same shares
            if r.opens[k] != (shares, e["sig"]):
                raise self.fail(f"bad shares (party 0 sent deal {k} again, changed)")
            return
        if rec["dealer"] is None or len(rec["decks"]) != len(rec["people"]) + 1 or r.over:
            raise self.fail("blind_open before the whole deck was out")
        if k != r.deals_relayed + 1 or k > len(plan(self.table, rec["dealer"])) or r.opens.get(k):
            raise self.fail(f"blind_open of deal {k} after {r.deals_relayed} deals")
        unplayed = [p for p, s in r.dealt_to.items() if s is not None and p not in r.played]
        if unplayed:
            raise self.fail(f"blind_open of deal {k} before the hands of deal {k - 1} were played")
        if len(shares) != len(self._positions(r, k, 0)):
            raise self.fail(f"bad shares (party 0, deal {k}: {len(shares)} shares)")
        if not signed(rec["keys"][0][2], e["sig"], shares_message(r.round_id, 0, k, shares)):
            raise self.fail(f"bad party signature (party 0's shares of deal {k})")
        r.opens[k] = (shares, e["sig"])
        if r.party is None:
            return
        p, s = r.party.number, r.party.secrets
        mine = [mul(s.x, self._deck()[pos][:32]) for pos in self._positions(r, k, p)]
        sig = sign(s.sign_seed, shares_message(r.round_id, p, k, mine))
        r.my_shares[k] = {"t": "blind_shares", "round_id": r.round_id, "deal": k,
                          "shares": mine, "sig": sig}  # fmt: skip
        self.outgoing.append(r.my_shares[k])

    def _on_blind_deal(self, e: dict) -> None:
        r = self._same_round(e)
        rec, k = r.record, e["deal"]
        n = len(rec["people"]) + 1
        if k not in r.opens or k != r.deals_relayed + 1:
            raise self.fail(f"blind_deal of deal {k} without its blind_open")
        shares, sigs = [list(x) for x in e["shares"]], list(e["sigs"])
        if len(shares) != n or len(sigs) != n:
            raise self.fail(f"blind_deal of deal {k} without one entry per party")
        if (shares[0], sigs[0]) != r.opens[k]:
            raise self.fail(f"bad shares (party 0's shares of deal {k} are not its blind_open's)")
        if r.party is not None and shares[r.party.number] != r.my_shares[k]["shares"]:
            raise self.fail(f"blind_deal changed this seat's shares of deal {k}")
        for p in range(n):
            positions = self._positions(r, k, p)
            if len(shares[p]) != len(positions):
                raise self.fail(f"bad shares (party {p}, deal {k})")
            message = shares_message(r.round_id, p, k, shares[p])
            if not signed(rec["keys"][p][2], sigs[p], message):
                raise self.fail(f"bad party signature (party {p}'s shares of deal {k})")
            for pos, share in zip(positions, shares[p], strict=True):
                if not valid(share):
                    raise self.fail(f"bad shares (party {p}, position {pos}: not a point)")
                r.published.setdefault(pos, [None] * n)[p] = share
        rec["deals"].append({"shares": shares, "sigs": sigs})
        dealt = plan(self.table, rec["dealer"])[k - 1]
        for pos, seat in dealt:
            r.dealt_to[pos] = seat
            if seat is None:
                card = self._open(r, pos, None)
                rec["table"].append([pos, card])
                self.on_table.append(card)
            elif seat == self.seat and r.party is not None:
                card = self._open(r, pos, r.party)
                rec["hand"].append([pos, card])
                self.hand[card] = pos
        if k == 1:
            self.to_move = (rec["dealer"] + 1) % self.table.players

    def _open(self, r: BlindRound, pos: int, owner: Party | None) -> int:
        """``V`` less every share (the owner's own, made here): a card point, seen once."""
        total = self._sum_shares(pos)
        if total is None:  # 9.5.6 leaves no position without a share
            raise self.fail(f"position {pos} opened without a share")
        try:
            point = sub(self._deck()[pos][32:], total)
            if owner is not None:
                point = sub(point, mul(owner.secrets.x, self._deck()[pos][:32]))
        except (RefusedError, SodiumError) as exc:
            raise self.fail(f"position {pos} opens to no point: {exc}") from None
        card = CARD_OF.get(point)
        if card is None:
            raise self.fail(f"position {pos} opens to no card point")
        self._seen(r, pos, card)
        return card

    def _seen(self, r: BlindRound, pos: int, card: int) -> None:
        for other, seen in r.opened.items():
            if seen == card and other != pos:
                raise self.fail(f"card {card} seen at positions {other} and {pos}")
        r.opened[pos] = card

    # 9.5.7
    def _on_played(self, e: dict) -> None:
        r = self._need_round()
        rec = r.record
        seat, card, pos, captured = e["seat"], e["card"], e["pos"], e["captured"]
        if rec["dealer"] is None or r.over or e["salt"] is not None or "proof" not in e:
            raise self.fail("a play out of its place in the round")
        if r.dealt_to.get(pos, -1) != seat or seat is None:
            raise self.fail(f"seat {seat} played position {pos}, not dealt to it")
        if pos in r.played:
            raise self.fail(f"position {pos} played twice")
        if seat != self.to_move:
            raise self.fail(f"seat {seat} played out of turn")
        owner = owner_of(seat, rec["people"])
        assert owner is not None
        u, v = self._deck()[pos][:32], self._deck()[pos][32:]
        others = self._sum_shares(pos, skip=owner)
        try:
            d = sub(v if others is None else sub(v, others), CARD_POINTS[card])
            good = dleq_holds(
                rec["keys"][owner][0], play_context(r.round_id, owner, pos, card), u, d, e["proof"]
            )
        except (RefusedError, SodiumError):
            good = False
        if not good:
            raise self.fail(f"bad play proof (party {owner}, seat {seat} at position {pos})")
        self._seen(r, pos, card)
        if captured and captured not in legal_takes(card, self.on_table, self.table.variants):
            raise self.fail(f"seat {seat} took {captured:#x} with card {card}, against the rules")
        r.played.add(pos)
        rec["plays"].append([seat, card | captured << 6, pos, e["proof"]])
        if seat == self.seat:
            self.hand.pop(card, None)
        self.on_table = [c for c in self.on_table if not captured >> c & 1]
        if not captured:
            self.on_table.append(card)
        self.to_move = (seat + 1) % self.table.players

    # round end, 9.5.8
    def _reveal(self, r: BlindRound) -> dict:
        assert r.party is not None
        return {"t": "blind_reveal", "round_id": r.round_id, "seed": r.party.seed}

    def _end(self, r: BlindRound) -> None:
        r.over = True
        # 9.5.8: the seed goes once round_end (or round_void) is read; an `absent` void
        # naming this seat sends none (9.7). (Once a GUESS; the document now says so.)
        if r.party is not None and not self._absent_named(r):
            self.outgoing.append(self._reveal(r))

    def _on_round_void(self, e: dict) -> None:
        r = self._same_round(e)
        rec, reason, offender = r.record, e["reason"], e.get("offender")
        if r.over:
            raise self.fail("round_void after the round ended")
        if reason == "kings":
            kings = sum(c // 4 + 1 == KING for _, c in rec["table"])
            if r.deals_relayed != 1 or rec["plays"] or kings < 3 or offender is not None:
                raise self.fail("round_void (kings) without three kings on the opening table")
        elif reason == "absent":
            if offender not in rec["people"]:
                raise self.fail(f"round_void (absent) naming seat {offender}, not a person's")
        elif reason == "failed_check":
            if offender is not None and offender not in rec["people"]:
                raise self.fail(f"round_void (failed_check) naming seat {offender}")
        else:
            raise self.fail(f"round_void for {reason!r}")
        rec["void"] = {"reason": reason, "offender": offender}
        self._end(r)

    def _on_round_end(self, e: dict) -> None:
        r = self._need_round()
        rec = r.record
        if e["round_no"] != rec["round_no"] or r.over or len(r.played) != 40 - len(rec["table"]):
            raise self.fail("round_end before the last play, or for another round")
        points = [
            sum(line["points"][side] for line in e["lines"]) for side in range(len(self.scores))
        ]
        totals = [a + b for a, b in zip(self.scores, points, strict=True)]
        if list(e["scores"]) != totals:
            raise self.fail("round_end's match scores do not add up")
        rec["score"] = points
        self._end(r)

    def _on_blind_reveals(self, e: dict) -> None:
        r = self._same_round(e)
        rec, seeds = r.record, list(e["seeds"])
        if not r.over or rec["seeds"] is not None:
            raise self.fail("blind_reveals before the round ended")
        # One seed per party: the host and each of `people` (9.1), also in a round void
        # before the keys, whose record holds the host's key alone (9.9).
        if len(seeds) != 1 + len(rec["people"]) or seeds[0] is None:
            raise self.fail("blind_reveals without one seed per party, the host's included")
        if r.party is not None:
            mine = seeds[r.party.number]
            if mine is not None and mine != r.party.seed:
                raise self.fail("wrong secret (this seat's seed relayed altered)")
            if mine is None:  # 9.7: absent; its party's hand is in no record (9.8)
                rec["hand"] = []
        rec["seeds"] = seeds
        if (
            r.party is None
            and all(s is not None for s in seeds)
            and len(rec["decks"]) == len(seeds)
        ):  # an observer: the computer's cards of this seat, from the seeds (9.7)
            rec["hand"] = self._observed_hand(r, seeds)

    def _observed_hand(self, r: BlindRound, seeds: list[bytes]) -> list[list[int]]:
        parties = [secrets(r.round_id, p, s) for p, s in enumerate(seeds)]
        hand = []
        for pos, seat in sorted(r.dealt_to.items()):
            if seat == self.seat:
                i = pos
                for s in reversed(parties):
                    i = s.perm[i]
                hand.append([pos, i])
        return hand

    def _on_round_reveal(self, e: dict) -> None:
        r = self._same_round(e)
        rec = r.record
        if rec["seeds"] is None:
            raise self.fail("round_reveal before blind_reveals")
        if e["host_seed"] != rec["seeds"][0]:
            raise self.fail("round_reveal's host seed is not the one blind_reveals relayed")
        rec["reveal_sig"] = e["sig"]
        verdict = verify_round(self.match, rec)  # 9.6: the whole round, as the verifier does
        if not verdict.ok:
            raise self.fail(f"the round's reveal: {verdict.note}")
        self.verdicts.append(verdict.note)
        if rec["score"] is not None:
            self.scores = [a + b for a, b in zip(self.scores, rec["score"], strict=True)]
        r.revealed = True

    def _on_match_end(self, e: dict) -> None:
        if self.round is None or not self.round.revealed:
            raise self.fail("match_end before the last round was revealed")
        result = {"scores": list(e["scores"]), "winner": e["winner"], "sig": e["sig"]}
        self.result, finished = verify_result(self.match, result)
        if not finished:
            raise self.fail(f"match_end: {self.result}")
        self.match_over = True


def choose(hand: list[int], on_table: list[int], table: Table) -> tuple[int, int]:
    """A legal play (RULES.md "A turn"): the one taking most cards, the lowest card on a tie."""
    plays = [(c, t) for c in sorted(hand) for t in legal_takes(c, on_table, table.variants)]
    return max(plays, key=lambda p: (bin(p[1]).count("1"), -p[0]))


class DocumentBlindClient:
    """One person's seat at a blind table, played honestly over the wire."""

    def __init__(self, name: str, seeds: Callable[[], bytes] = lambda: os.urandom(32)) -> None:
        self.name = name
        self.seeds = seeds
        self.pinned: bytes | None = None
        self.conn: Connection | None = None
        self.seat: BlindSeat | None = None
        self.table_id = 0
        self.seat_no = 0
        self.token = b""
        self.last_seq = 0
        self.move_id = 0
        self.pending: dict | None = None
        self.acks: list[dict] = []
        self.sent: list[dict] = []  # every message sent, in order
        self.resent: set[str] = set()
        self.refused: list[dict] = []  # wrong_phase answers to what was sent again
        self.events: list[dict] = []

    async def connect(self, host: str, port: int) -> None:
        self.conn = Connection(await trio.open_tcp_stream(host, port))
        await self.conn.send({"t": "hello", "version": VERSION, "client": "document-blind"})
        welcome = await self._reply("welcome")
        if welcome["version"] != VERSION:
            raise HostMisbehavedError(f"welcome in version {welcome['version']}")
        if self.pinned is not None and welcome["host_key"] != self.pinned:
            raise HostMisbehavedError("the host's key is not the one pinned on first contact")
        self.pinned = welcome["host_key"]

    async def create_table(self, players: int, target: int, bots: int) -> int:
        rules = {"players": players, "target": target, "variants": []}
        await self._send({"t": "create_table", "name": "blind document", "rules": rules,
                          "password": None, "bots": bots, "bot_level": 1,
                          "blind": True})  # fmt: skip
        info = (await self._reply("table_created"))["table"]
        if not info.get("blind"):
            raise HostMisbehavedError("asked for a blind table, got one whose listing is not")
        return info["id"]

    async def join(self, table_id: int) -> None:
        await self._send(
            {"t": "join", "table_id": table_id, "seat": None, "name": self.name, "password": None}
        )
        joined = await self._reply("joined")
        self.table_id, self.seat_no, self.token = table_id, joined["seat"], joined["token"]
        snapshot = await self._reply("snapshot")
        if snapshot["round_no"] != 0:
            raise HostMisbehavedError("joined a match under way")
        assert self.pinned is not None
        info = snapshot["rules"]
        table = Table(info["players"], info["target"], frozenset(info["variants"]))
        self.seat = BlindSeat(self.pinned, table, self.seat_no, list(info["variants"]), self.seeds)
        self.seat.take(snapshot)
        self.events.append(snapshot)
        self.last_seq = snapshot["seq"]

    async def resume(self) -> None:
        """Take the seat back (3.3) and send again what the round may wait on (9.7)."""
        await self._send({"t": "resume", "table_id": self.table_id, "seat": self.seat_no,
                          "token": self.token, "last_seq": self.last_seq})  # fmt: skip
        resumed = await self._reply("resumed")
        self.token = resumed["token"]
        if resumed["catch_up"] != "replay":
            raise HostMisbehavedError("caught up by snapshot after a short drop")
        assert self.seat is not None
        self.seat.take_outgoing()  # never sent: owed() below holds all of it
        for message in self.seat.owed():
            self.resent.add(message["t"])
            await self._send(message)
        if self.pending is not None:
            await self._send(self.pending)

    async def drop(self) -> None:
        """Lose the connection without a word, as a cable pulled."""
        assert self.conn is not None
        await trio.aclose_forcefully(self.conn.stream)
        self.conn = None

    async def quit(self) -> None:
        if self.conn is not None:
            with trio.move_on_after(1):
                await self._send({"t": "bye", "reason": "quit", "message": ""})
            await trio.aclose_forcefully(self.conn.stream)
            self.conn = None

    async def play(self, stop: Callable[[DocumentBlindClient], bool] = lambda c: False) -> None:
        """Read and answer until the signed match end has been checked, or ``stop`` says so."""
        seat = self.seat
        assert seat is not None
        while not seat.match_over and not stop(self):
            await self._handle(await self._receive())
            if stop(self):
                return  # what the event asked for is left unsent: lost with the connection
            for message in seat.take_outgoing():
                await self._send(message)
            if seat.my_turn and self.pending is None:
                card, take = choose(list(seat.hand), seat.on_table, seat.table)
                pos, proof = seat.play(card, take)
                self.move_id += 1
                self.pending = {"t": "play", "move_id": self.move_id, "after": self.last_seq,
                                "card": card, "captured": take, "pos": pos,
                                "proof": proof}  # fmt: skip
                await self._send(self.pending)

    async def _handle(self, message: dict) -> None:
        kind = message["t"]
        if kind in BLIND_EVENTS:
            await self._event(message)
        elif kind == "ack":
            self.acks.append(message)
        elif kind == "reject" and message["code"] == "stale" and self.pending is not None:
            self.pending = None
        elif kind == "error" and message["code"] == "wrong_phase" and message["ref"] in self.resent:
            self.refused.append(message)
        else:
            raise HostMisbehavedError(f"unexpected {kind}: {message}")

    async def _event(self, event: dict) -> None:
        assert self.seat is not None
        self.events.append(event)
        if event["t"] == "snapshot":
            raise HostMisbehavedError("a snapshot in the middle of the match")
        if event["seq"] != self.last_seq + 1:
            raise HostMisbehavedError(f"event seq {event['seq']} after {self.last_seq}")
        try:
            self.seat.take(event)
        except BlindCheckFailedError as failed:
            await self._stop(failed)
            raise
        self.last_seq = event["seq"]
        if event["t"] == "played" and event["seat"] == self.seat_no:
            self.pending = None

    async def _stop(self, failed: BlindCheckFailedError) -> None:
        """9.6: the seed first (a party's), then ``bye``; the reveal is not awaited here."""
        r = self.seat.round if self.seat else None
        if r is not None and r.party is not None and r.record["seeds"] is None:
            with trio.move_on_after(1):
                await self._send(
                    {"t": "blind_reveal", "round_id": r.round_id, "seed": r.party.seed}
                )
        if self.conn is not None:
            with trio.move_on_after(1):
                await self._send(
                    {"t": "bye", "reason": "deal_failed", "message": str(failed)[:200]}
                )
            await trio.aclose_forcefully(self.conn.stream)
            self.conn = None

    async def _send(self, message: dict) -> None:
        assert self.conn is not None
        self.sent.append(message)
        await self.conn.send(message)

    async def _receive(self) -> dict:
        assert self.conn is not None
        return await self.conn.receive_past_heartbeats(self._send)

    async def _reply(self, kind: str) -> dict:
        message = await self._receive()
        if message["t"] != kind:
            raise HostMisbehavedError(f"{message['t']} where {kind} was due: {message}")
        return message
