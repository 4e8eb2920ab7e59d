"""One party of a blind round, sans-IO: the host's own layer, or one person's client.

A :class:`BlindParty` takes what arrives (keys, decks, shares, plays, seeds) and returns what
its party sends (its key, its shuffled deck, its shares, its play proofs, its seed), checking
everything on arrival as protocol.md 9.6 says. Every check that fails raises
:class:`~scopa_net.fair.blind.errors.BlindCheckError`, naming the party at fault when the record
shows it. The party never shares a position it owns, nor any position of a deal before that
deal is due, so nothing a host relays can make it open a card it must keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from scopa_net.cards import KINGS_MASK
from scopa_net.dealing import TABLE, Deal, deal_plan
from scopa_net.fair.blind import errors as checks
from scopa_net.fair.blind.cards import CARD_POINTS, DECK_SIZE, card_of
from scopa_net.fair.blind.deck import (
    Deck,
    deck_message,
    joint_key,
    open_deck,
    parse_deck,
    shuffle_deck,
)
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.group import GroupError, add, mul, sub
from scopa_net.fair.blind.party_secrets import PartyKey, PartySecrets, key_proof_ok
from scopa_net.fair.blind.plan import check_people, owner, read_positions, shared_positions
from scopa_net.fair.blind.proofs import check_dleq, prove_dleq
from scopa_net.fair.blind.record import (
    VOID_ABSENT,
    VOID_FAILED_CHECK,
    BlindPlay,
    BlindRound,
    DealShares,
    OpenCard,
    shares_message,
)
from scopa_net.fair.blind.reveal import check_revealed
from scopa_net.fair.blind.shuffle_proof import ShuffleClaim, check_shuffle_proof, prove_shuffle
from scopa_net.fair.hashing import u8
from scopa_net.fair.transcript import VOID_KINGS, VoidNotice
from scopa_net.plays import CARD_FIELD
from scopa_net.rules import RuleSet


@dataclass(frozen=True, slots=True)
class SignedDeck:
    deck: tuple[bytes, ...]
    """40 ciphertexts, 64 bytes each."""
    proof: bytes
    """The proof that the deck is a shuffle of the one before it (9.4)."""
    sig: bytes


@dataclass(frozen=True, slots=True)
class SignedShares:
    shares: tuple[bytes, ...]
    sig: bytes


@dataclass(frozen=True, slots=True)
class OpenedDeal:
    """What a party read in one deal: the cards of the seats it owns, and the table."""

    hand: tuple[OpenCard, ...]
    table: tuple[OpenCard, ...]


def play_context(round_id: bytes, party: int, pos: int, card: int) -> bytes:
    """What a play proof is bound to: ``round_id || u8(owner) || u8(pos) || u8(card)``."""
    return round_id + u8(party) + u8(pos) + u8(card)


def check_party_signature(key: PartyKey, sig: object, message: bytes) -> bool:
    if not isinstance(sig, bytes) or len(sig) != 64:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key.sign_key).verify(sig, message)
    except (InvalidSignature, ValueError):
        return False
    return True


class BlindParty:
    """One party's view of one blind round, and its secrets."""

    def __init__(
        self,
        rules: RuleSet,
        round_id: bytes,
        party: int,
        people: Sequence[int],
        seed: bytes,
        *,
        host_key: PartyKey | None = None,
    ) -> None:
        """``host_key``: the host party's key as the signed ``blind_round`` committed it (a
        seat's client passes it; ``blind_keys`` must then carry exactly that key for party 0).
        ``party`` one past the last (``len(people) + 1``): an *observer*, the client of a seat
        whose person sits the round out; it owns no card, sends nothing and checks what is
        relayed (the table's cards, every play's proof) as every party does."""
        self.rules = rules
        self.round_id = round_id
        self.people = check_people(people, rules.players)
        if not 0 <= party <= len(self.people) + 1:
            raise ValueError(f"party {party} is not one of the {len(self.people) + 1} parties")
        self.party = party
        self.observer = party == len(self.people) + 1
        self.secrets = PartySecrets(seed, round_id, party)
        self.host_key = self.secrets.key if party == 0 else host_key
        self.keys: tuple[PartyKey, ...] | None = None
        self.joint: bytes | None = None
        self.decks: list[Deck] = []
        self.deck_proofs: list[bytes] = []
        self.deck_sigs: list[bytes] = []
        self.dealer: int | None = None
        self.plan: tuple[Deal, ...] = ()
        self.deals: list[DealShares] = []
        self._sent: dict[int, tuple[bytes, ...]] = {}
        self._host_open: dict[int, tuple[tuple[bytes, ...], bytes]] = {}
        """deal -> the host party's shares and signature as ``blind_open`` carried them."""
        self._proofs: dict[int, bytes] = {}
        """deck position -> the proof this party made to play it."""
        self._published: dict[int, list[bytes]] = {}
        """deck position -> every share published for it so far."""
        self.owned: dict[int, int] = {}
        """deck position -> card, for the cards of the seats this party owns."""
        self.seen: dict[int, int] = {}
        """deck position -> card, for every card this party has read (owned, table, played)."""
        self.table: list[OpenCard] = []
        self.plays: list[BlindPlay] = []
        self.void_notice: VoidNotice | None = None
        self.seeds: tuple[bytes | None, ...] | None = None
        self.stopped = False
        """Whether this party stopped on a failed check (9.6): its seed is out early."""

    @classmethod
    def rebuild(cls, rules: RuleSet, record: BlindRound, party: int, seed: bytes) -> BlindParty:
        """This party as it stood at the end of ``record``, from its own seed and the public
        record: for a client or a host that restarts mid-round. Everything in the record is
        taken again through the same checks, in the order it happened."""
        if not record.keys:
            raise ValueError("a blind record without the host's key cannot be rebuilt")
        me = cls(rules, record.round_id, party, record.people, seed, host_key=record.keys[0])
        if len(record.keys) != me.parties:
            return me
        me.take_keys(record.keys)
        if record.dealer is not None:
            me.start(record.dealer)
        if record.deck_proofs is None:
            raise ValueError("a blind record without shuffle proofs (version 3) cannot be rebuilt")
        decks = zip(record.decks, record.deck_proofs, record.deck_sigs, strict=True)
        for p, (deck, proof, sig) in enumerate(decks):
            if p == party:
                if me.my_deck().deck != tuple(c.to_bytes() for c in deck):
                    raise BlindCheckError(checks.BAD_DECK, "the record holds another deck for it")
            else:
                me.take_deck(p, [c.to_bytes() for c in deck], proof, sig)
        plays = list(record.plays)
        for k, deal in enumerate(record.deals, 1):
            me.open_deal(k)
            me.take_deal(k, deal.shares, deal.sigs)
            laid = me.plan[k - 1]
            while plays and laid.start <= plays[0].pos < laid.stop:
                play = plays.pop(0)
                if owner(play.seat, me.people) == party:
                    me.prove_play(play.pos, play.code & CARD_FIELD)  # its own, made again
                me.take_play(play.seat, play.pos, play.code, play.proof)
        if plays:
            raise BlindCheckError(checks.MISROUTED, f"{len(plays)} plays of no deal relayed")
        if record.void is not None:
            me.void(record.void.reason, record.void.offender)
        if record.seeds is not None:
            me.take_reveals(record.seeds)
        return me

    # --- keys ---------------------------------------------------------------------------

    @property
    def parties(self) -> int:
        return len(self.people) + 1

    @property
    def key(self) -> PartyKey:
        return self.secrets.key

    def _not_observer(self, what: str) -> None:
        if self.observer:
            raise BlindCheckError(checks.OUT_OF_TURN, f"an observer does not {what}")

    def take_keys(self, keys: Sequence[PartyKey]) -> None:
        """``blind_keys``: one key per party, this party's own as it sent it, every proof."""
        keys = tuple(keys)
        if self.keys is not None:
            if keys != self.keys:
                raise BlindCheckError(checks.BAD_KEY, "the keys were sent again, changed")
            return
        if len(keys) != self.parties:
            raise BlindCheckError(checks.BAD_KEY, f"{len(keys)} keys for {self.parties} parties")
        if not self.observer and keys[self.party] != self.key:
            raise BlindCheckError(checks.BAD_KEY, "this party's own key was relayed altered")
        if self.host_key is not None and keys[0] != self.host_key:
            raise BlindCheckError(checks.BAD_KEY, "the host's key is not the one it committed", 0)
        for p, key in enumerate(keys):
            if p != self.party and not key_proof_ok(self.round_id, p, key):
                raise BlindCheckError(checks.BAD_KEY, "the key proof does not verify", p)
        self.keys = keys
        self.joint = joint_key([k.point for k in keys])

    def start(self, dealer: int) -> None:
        """The round's dealer (the first dealer of the match, then the rotation)."""
        self.dealer = dealer
        self.plan = deal_plan(self.rules, dealer)

    # --- the shuffle --------------------------------------------------------------------

    def _need_keys(self) -> tuple[tuple[PartyKey, ...], bytes]:
        if self.keys is None or self.joint is None:
            raise BlindCheckError(checks.OUT_OF_TURN, "the keys have not come yet")
        return self.keys, self.joint

    def my_deck(self) -> SignedDeck:
        """This party's shuffle of the deck before it: what it sends, signed."""
        self._not_observer("shuffle")
        _, joint = self._need_keys()
        if len(self.decks) != self.party:
            raise BlindCheckError(
                checks.OUT_OF_TURN,
                f"party {self.party} shuffles after {self.party} decks, not {len(self.decks)}",
            )
        deck = shuffle_deck(self.decks[-1] if self.decks else None, self.secrets, joint)
        proof = prove_shuffle(self.secrets, self.shuffle_claim(self.party, deck))
        sig = self.secrets.sign(deck_message(self.round_id, self.party, deck, proof))
        self.decks.append(deck)
        self.deck_proofs.append(proof)
        self.deck_sigs.append(sig)
        return SignedDeck(tuple(c.to_bytes() for c in deck), proof, sig)

    def shuffle_claim(self, party: int, deck: Deck) -> ShuffleClaim:
        """What party ``party``'s proof must show of ``deck``, its shuffle: that it is the
        deck before it (the last one taken; the open deck for party 0's) permuted and
        re-encrypted under the joint key."""
        _, joint = self._need_keys()
        before = self.decks[-1] if self.decks else open_deck(joint)
        return ShuffleClaim(self.round_id, party, joint, before, deck)

    def take_deck(
        self,
        party: int,
        deck: Sequence[bytes],
        proof: bytes,
        sig: bytes,
        *,
        proof_checked: bool = False,
    ) -> None:
        """Party ``party``'s shuffled deck, relayed: in party order, signed by that party, and
        proved a shuffle of the deck before it. ``proof_checked``: the caller has checked the
        proof already (the host does before it takes a shuffle in; 76 ms a proof)."""
        keys, _ = self._need_keys()
        if party < len(self.decks) and party == self.party:
            mine = (tuple(c.to_bytes() for c in self.decks[party]), self.deck_proofs[party])
            if mine != (tuple(deck), proof) or self.deck_sigs[party] != sig:
                raise BlindCheckError(checks.BAD_DECK, "this party's own deck was relayed altered")
            return
        if party != len(self.decks) or party >= self.parties:
            raise BlindCheckError(
                checks.OUT_OF_TURN,
                f"party {party}'s deck came when party {len(self.decks)}'s was due",
            )
        try:
            parsed = parse_deck(deck)
        except ValueError as exc:
            raise BlindCheckError(checks.BAD_DECK, str(exc), party) from None
        message = deck_message(self.round_id, party, parsed, proof)
        if not check_party_signature(keys[party], sig, message):
            raise BlindCheckError(checks.BAD_SIGNATURE, "its deck is not signed by its key", party)
        proved = proof_checked or check_shuffle_proof(self.shuffle_claim(party, parsed), proof)
        # Signed by its party, so in the record even when it fails: the record is then the
        # host's, whose reveal names that party (9.6), not a chain that differs.
        self.decks.append(parsed)
        self.deck_proofs.append(proof)
        self.deck_sigs.append(sig)
        if not proved:
            raise BlindCheckError(
                checks.BAD_SHUFFLE_PROOF,
                "its deck is not proved a shuffle of the deck before",
                party,
            )

    @property
    def deck(self) -> Deck:
        """The final deck: the last party's output."""
        if len(self.decks) != self.parties:
            raise BlindCheckError(checks.OUT_OF_TURN, "the deck is not shuffled by every party yet")
        return self.decks[-1]

    # --- deals ----------------------------------------------------------------------------

    def _targets_so_far(self, deals: int) -> dict[int, int]:
        return {d.start + i: t for d in self.plan[:deals] for i, t in enumerate(d.targets)}

    def hands_out(self) -> bool:
        """Every hand card of the deals opened so far has been played: the next deal is due
        (or, after the last deal, the round is played out)."""
        return self._hands_played_out(len(self.deals))

    def _hands_played_out(self, deals: int) -> bool:
        played = {p.pos for p in self.plays}
        return all(t == TABLE or pos in played for pos, t in self._targets_so_far(deals).items())

    def open_deal(self, k: int) -> SignedShares:
        """This party's shares for deal ``k`` (from 1): only once the deck is complete, deal
        ``k - 1`` has been relayed and its hands played out. Asked again, the same shares."""
        self._not_observer("open a deal")
        if k in self._sent:
            shares = self._sent[k]
        else:
            deck = self.deck
            if self.dealer is None:
                raise BlindCheckError(checks.OUT_OF_TURN, "the dealer is not known yet")
            if self.void_notice is not None:
                raise BlindCheckError(checks.OUT_OF_TURN, "the round is void")
            if not 1 <= k <= len(self.plan) or k != len(self.deals) + 1:
                raise BlindCheckError(
                    checks.OUT_OF_TURN, f"deal {k} is not due (deals opened: {len(self.deals)})"
                )
            if not self._hands_played_out(k - 1):
                raise BlindCheckError(
                    checks.OUT_OF_TURN, f"deal {k} asked before the hands are out"
                )
            positions = shared_positions(self.plan[k - 1], self.people, self.party)
            shares = tuple(mul(self.secrets.x, deck[pos].u) for pos in positions)
            self._sent[k] = shares
        sig = self.secrets.sign(shares_message(self.round_id, self.party, k, shares))
        return SignedShares(shares, sig)

    def _signed_shares(
        self, k: int, p: int, items: Sequence[bytes] | None, sig: bytes | None
    ) -> tuple[bytes, ...]:
        """Party ``p``'s shares of deal ``k``: as many as it shares, signed by its key."""
        keys, _ = self._need_keys()
        positions = shared_positions(self.plan[k - 1], self.people, p)
        if items is None or sig is None or len(items) != len(positions):
            raise BlindCheckError(
                checks.BAD_SHARES,
                f"deal {k}: {len(positions)} shares due, the relay has "
                f"{'none' if items is None else len(items)}",
                p,
            )
        items = tuple(items)
        if not check_party_signature(keys[p], sig, shares_message(self.round_id, p, k, items)):
            raise BlindCheckError(checks.BAD_SIGNATURE, f"deal {k}: its shares are not signed", p)
        return items

    def take_open(self, k: int, shares: Sequence[bytes], sig: bytes) -> None:
        """``blind_open``: the host party's signed shares of deal ``k``, which come before
        any person sends theirs (9.5.6). ``blind_deal`` must relay exactly these: so the host
        cannot choose its shares once it has read every person's, which would let it turn a
        table card into one of its choosing."""
        if self.party == 0:
            raise BlindCheckError(checks.OUT_OF_TURN, "the host party sends blind_open")
        if self.dealer is None or not 1 <= k <= len(self.plan) or k > len(self.deals) + 1:
            raise BlindCheckError(checks.OUT_OF_TURN, f"deal {k} opened out of turn")
        items = self._signed_shares(k, 0, shares, sig)
        before = self._host_open.get(k)
        if before is None and k <= len(self.deals):
            before = (self.deals[k - 1].shares[0], self.deals[k - 1].sigs[0])
        if before is not None and before[0] != items:
            raise BlindCheckError(
                checks.BAD_SHARES, f"deal {k}: the host opened it again with other shares", 0
            )
        self._host_open[k] = (items, sig)

    def take_deal(
        self, k: int, shares: Sequence[Sequence[bytes] | None], sigs: Sequence[bytes | None]
    ) -> OpenedDeal:
        """``blind_deal``: every party's signed shares of deal ``k``; opens the table and the
        cards of the seats this party owns, each checked to be a card not seen before.

        The host's shares must be the ones its ``blind_open`` carried, where this party took
        one. Other ones are a failed check naming the host; this party's record keeps the
        ones it was sent first (signed by the host: its record shows what the host did), and
        opens the deal's cards with them."""
        deck = self.deck
        if self.dealer is None or not 1 <= k <= len(self.plan) or k != len(self.deals) + 1:
            raise BlindCheckError(checks.OUT_OF_TURN, f"deal {k} relayed out of turn")
        if len(shares) != self.parties or len(sigs) != self.parties:
            raise BlindCheckError(
                checks.BAD_SHARES, f"shares of {len(shares)} parties, not {self.parties}"
            )
        deal = self.plan[k - 1]
        by_party = [
            self._signed_shares(k, p, items, sig)
            for p, (items, sig) in enumerate(zip(shares, sigs, strict=True))
        ]
        if not self.observer and by_party[self.party] != self._sent.get(k):
            raise BlindCheckError(checks.BAD_SHARES, "this party's own shares were relayed altered")
        sigs = tuple(sigs)
        changed: BlindCheckError | None = None
        relayed = None
        first = self._host_open.get(k)
        if first is not None and first[0] != by_party[0]:
            relayed = (by_party[0], sigs[0])
            changed = BlindCheckError(
                checks.BAD_SHARES,
                f"deal {k}: the host relayed other shares of its own than the ones it sent "
                "before any person's (blind_open)",
                0,
                signed_both=True,
            )
            by_party[0] = first[0]
            sigs = (first[1], *sigs[1:])
        self.deals.append(DealShares(tuple(by_party), sigs, relayed))
        for p, items in enumerate(by_party):
            for pos, share in zip(shared_positions(deal, self.people, p), items, strict=True):
                self._published.setdefault(pos, []).append(share)
        hand, table = [], []
        failed: BlindCheckError | None = None
        for pos in read_positions(deal, self.people, self.party):
            target = deal.targets[pos - deal.start]
            extra = () if target == TABLE else (mul(self.secrets.x, deck[pos].u),)
            try:
                card = self._open(pos, extra, f"deal {k}")
            except BlindCheckError as exc:
                # Every other card of the deal is still opened, so that the record (whose
                # table cards are in the chain hash) is the same at every party.
                failed = failed or exc
                continue
            if target == TABLE:
                table.append(OpenCard(pos, card))
            else:
                hand.append(OpenCard(pos, card))
                self.owned[pos] = card
        self.table.extend(table)
        if changed is not None:
            raise changed
        if failed is not None:
            raise failed
        return OpenedDeal(tuple(hand), tuple(table))

    def _share_sum(self, pos: int, extra: Sequence[bytes] = ()) -> bytes:
        shares = [*self._published.get(pos, ()), *extra]
        total = shares[0]
        for share in shares[1:]:
            total = add(total, share)
        return total

    def _open(self, pos: int, extra: Sequence[bytes], what: str) -> int:
        try:
            point = sub(self.deck[pos].v, self._share_sum(pos, extra))
        except GroupError:
            point = b""
        card = card_of(point)
        if card is None:
            raise BlindCheckError(
                checks.NO_CARD,
                f"{what}: deck position {pos} opens to no card (a share or a deck is "
                "wrong; the reveal names the party)",
            )
        self._see(pos, card, what)
        return card

    def _see(self, pos: int, card: int, what: str) -> None:
        self._check_unseen(pos, card, what)
        self.seen[pos] = card

    def _check_unseen(self, pos: int, card: int, what: str) -> None:
        for other, seen in self.seen.items():
            if seen == card and other != pos:
                raise BlindCheckError(
                    checks.DUPLICATED_CARD,
                    f"{what}: card {card} at deck position {pos} was already "
                    f"seen at position {other}",
                )

    # --- plays ----------------------------------------------------------------------------

    def prove_play(self, pos: int, card: int) -> bytes:
        """The proof that goes with playing ``card`` from ``pos``, a card this party owns."""
        if self.owned.get(pos) != card or any(p.pos == pos for p in self.plays):
            raise BlindCheckError(
                checks.BAD_PLAY, f"deck position {pos} is not an unplayed {card} here"
            )
        u = self.deck[pos].u
        context = play_context(self.round_id, self.party, pos, card)
        proof = prove_dleq(self.secrets.x, self.secrets.public, u, mul(self.secrets.x, u), context)
        self._proofs[pos] = proof
        return proof

    def take_play(self, seat: int, pos: int, code: int, proof: bytes) -> int:
        """A play, announced: checked as :meth:`check_play` says, then recorded. Returns the
        card."""
        card = self.check_play(seat, pos, code, proof)
        self._see(pos, card, f"seat {seat}'s play")
        self.plays.append(BlindPlay(seat, code, pos, proof))
        return card

    def record_play(self, seat: int, pos: int, code: int, proof: bytes) -> None:
        """A play relayed once this party has stopped (9.6), or the one it stopped at: kept in
        the record as relayed, so that the record is the one the host signs; the verifier
        checks it."""
        self.plays.append(BlindPlay(seat, code, pos, proof))

    def check_play(self, seat: int, pos: int, code: int, proof: bytes) -> int:
        """Check a play without recording it (the host, before it applies one): the position
        is one the plan dealt to ``seat`` so far and not played, the proof shows it holds the
        card named, and that card was not seen elsewhere. Returns the card."""
        keys, _ = self._need_keys()
        card = code & CARD_FIELD
        if card >= DECK_SIZE:
            raise BlindCheckError(checks.BAD_PLAY, f"play code {code} names no card")
        if self.void_notice is not None:
            raise BlindCheckError(checks.OUT_OF_TURN, "a play after the round was void")
        target = self._targets_so_far(len(self.deals)).get(pos)
        if target != seat or target == TABLE:
            raise BlindCheckError(
                checks.MISROUTED, f"seat {seat} played deck position {pos}, not a card dealt to it"
            )
        if any(p.pos == pos for p in self.plays):
            raise BlindCheckError(checks.DUPLICATED_CARD, f"deck position {pos} was played twice")
        by = owner(seat, self.people)
        if by == self.party:
            if self.owned.get(pos) != card:
                raise BlindCheckError(
                    checks.BAD_PLAY, f"position {pos} does not hold card {card}", by
                )
            if self._proofs.get(pos) != proof:
                raise BlindCheckError(
                    checks.BAD_PLAY, f"this party's own play of position {pos} came back altered"
                )
        else:
            u, v = self.deck[pos]
            try:
                d = sub(sub(v, self._share_sum(pos)), CARD_POINTS[card])
            except GroupError:
                d = b""
            context = play_context(self.round_id, by, pos, card)
            if not check_dleq(keys[by].point, u, d, proof, context):
                raise BlindCheckError(
                    checks.BAD_PLAY,
                    f"seat {seat} named card {card} at deck position {pos}; its "
                    "proof does not show that card there",
                    by,
                )
        self._check_unseen(pos, card, f"seat {seat}'s play")
        return card

    # --- the end --------------------------------------------------------------------------

    @property
    def played_out(self) -> bool:
        return len(self.deals) == len(self.plan) > 0 and self._hands_played_out(len(self.plan))

    def void(self, reason: str, offender: int | None = None) -> None:
        """``round_void``: kings on the opening table this party opened, an absent person, or
        a person's party (``offender``, its seat) or the host's (None) that stopped on a
        failed check."""
        if reason == VOID_KINGS:
            kings = sum(1 for c in self.table if (1 << c.card) & KINGS_MASK)
            if len(self.deals) != 1 or self.plays or kings < 3 or offender is not None:
                raise BlindCheckError(
                    checks.BAD_VOID, f"a kings void with {kings} kings on the table"
                )
        elif reason == VOID_ABSENT:
            if offender not in self.people or self.played_out:
                raise BlindCheckError(checks.BAD_VOID, f"seat {offender} cannot be void as absent")
        elif reason == VOID_FAILED_CHECK:
            if offender is not None and offender not in self.people:
                raise BlindCheckError(
                    checks.BAD_VOID, f"seat {offender} is no person's party: it cannot stop"
                )
            own = None if self.party == 0 or self.observer else self.people[self.party - 1]
            if self.stopped and offender not in (own, None):
                # (None: the host's own party stopped on the same fault, first)
                raise BlindCheckError(
                    checks.BAD_VOID, f"this party stopped, but the void names seat {offender}"
                )
        else:
            raise BlindCheckError(checks.BAD_VOID, f"no such void reason {reason!r}")
        self.void_notice = VoidNotice(reason, offender)

    @property
    def absent(self) -> bool:
        """Whether the round is void ``absent`` naming this party's own seat (9.7): its seed
        is then never revealed (the host takes none)."""
        v = self.void_notice
        return (
            v is not None
            and v.reason == VOID_ABSENT
            and 1 <= self.party <= len(self.people)
            and v.offender == self.people[self.party - 1]
        )

    @property
    def seed_left_out(self) -> bool:
        """Whether this person's party has no seed in the round's record: the round is void
        ``absent`` naming its seat, or the reveal left its seed out (9.7)."""
        if self.absent:
            return True
        return (
            self.seeds is not None
            and 1 <= self.party <= len(self.people)
            and len(self.seeds) == self.parties
            and self.seeds[self.party] is None
        )

    def reveal(self) -> bytes:
        """This party's seed, once the round is over (played out, or void), or once it has
        stopped on a failed check (:meth:`stop`)."""
        self._not_observer("reveal a seed")
        if self.void_notice is None and not self.played_out and not self.stopped:
            raise BlindCheckError(checks.OUT_OF_TURN, "the seed is revealed only after the round")
        return self.secrets.seed

    def stop(self) -> bytes:
        """A check failed here mid-round (9.6): the round is dead for this party, so it gives
        its seed at once, for the reveal to name the party at fault. Nothing more is sent."""
        self._not_observer("stop a round")
        self.stopped = True
        return self.reveal()

    def take_reveals(self, seeds: Sequence[bytes | None]) -> tuple[int, ...] | None:
        """``blind_reveals``: every party's seed. Checks the whole round against them (naming
        the party at fault) and returns the deck (card by position) when every seed came.

        This party's own seed must be relayed as it is, or nil (9.7): nil when the round is
        void ``absent`` naming this party's seat (the host takes none from it); nil or itself
        at any other round's end, for a person (one away past their grace period, or silent
        past the seed deadline, when the host revealed: the host counts them absent at the
        reveal), except a party that stopped on a failed check (:meth:`stop`: it sent its seed
        to stop, so the record must hold it). The host's party's seed is never nil. The seeds
        are kept even when this check fails, so that the round's reveal signature is checked
        over what the host relayed."""
        seeds = tuple(seeds)
        if len(seeds) == self.parties:
            self.seeds = seeds
        if self.observer:
            relayed_right = len(seeds) == self.parties
        else:
            mine = seeds[self.party] if len(seeds) == self.parties else b""
            if self.absent:
                allowed: tuple[bytes | None, ...] = (None,)
            elif self.party == 0 or self.stopped:
                allowed = (self.secrets.seed,)
            else:
                allowed = (None, self.secrets.seed)
            relayed_right = len(seeds) == self.parties and mine in allowed
        if not relayed_right:
            raise BlindCheckError(checks.WRONG_SECRET, "this party's own seed was relayed altered")
        if self.keys is None:
            return None  # void before every key came: nothing was dealt, nothing to check
        deck = check_revealed(self.public_round(), self.rules)
        if self.observer and deck is not None:
            # Every seed came: the cards dealt to the seats (the sitting-out seat's stand-in
            # included) are now public, and a seat's transcript records its own hand.
            dealt = self._targets_so_far(len(self.deals))
            self.owned = {pos: deck[pos] for pos, target in dealt.items() if target != TABLE}
        return deck

    # --- the record -----------------------------------------------------------------------

    def public_round(
        self,
        *,
        round_no: int = 0,
        prev: bytes = bytes(32),
        sig: bytes = bytes(64),
        score: Sequence[int] | None = None,
        reveal_sig: bytes | None = None,
        hand_seat: int | None = None,
    ) -> BlindRound:
        """The round as a transcript records it. ``hand_seat``: whose cards go in ``hand``
        (default: every seat this party owns). A round void ``absent`` whose reveal leaves
        this party's seed out (the seat named, or another person also away) records no hand:
        its seed is in no record, so nothing could check those cards (9.8)."""
        hand = tuple(
            OpenCard(pos, card)
            for pos, card in sorted(self.owned.items())
            if not self.seed_left_out
            and (hand_seat is None or self._targets_so_far(len(self.plan)).get(pos) == hand_seat)
        )
        return BlindRound(
            round_id=self.round_id,
            round_no=round_no,
            prev=prev,
            dealer=self.dealer,
            people=self.people,
            keys=self.keys
            if self.keys is not None
            else ()
            if self.host_key is None
            else (self.host_key,),
            sig=sig,
            decks=tuple(self.decks),
            deck_proofs=tuple(self.deck_proofs),
            deck_sigs=tuple(self.deck_sigs),
            deals=tuple(self.deals),
            hand=hand,
            table=tuple(self.table),
            plays=tuple(self.plays),
            void=self.void_notice,
            score=None if score is None else tuple(score),
            seeds=self.seeds,
            reveal_sig=reveal_sig,
        )
