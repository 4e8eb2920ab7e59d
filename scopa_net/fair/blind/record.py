"""The public record of one blind round, as a transcript keeps it, and its chain hash.

Everything here is public: the keys, every deck, every share, the cards opened on the table and
in plays, the revealed seeds. The seat's own hand is in the record too (a transcript is one
seat's), but left out of the chain hash so every seat computes the same chain (protocol.md 9.8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scopa_net.fair.blind.deck import Deck, deck_bytes
from scopa_net.fair.blind.party_secrets import PartyKey
from scopa_net.fair.blind.tags import TAG_CHAIN, TAG_FIRST_DEALER, TAG_ROUND, TAG_SHARES_SIG
from scopa_net.fair.hashing import LABEL_FIRST_DEALER, length_prefixed, tagged_hash, u8, u32, u64
from scopa_net.fair.shuffle import RandomStream
from scopa_net.fair.transcript import VoidNotice, slots_bytes

ROUND_KEYS_V3 = (
    "round_id",
    "round_no",
    "prev",
    "dealer",
    "people",
    "keys",
    "sig",
    "decks",
    "deck_sigs",
    "deals",
    "hand",
    "table",
    "plays",
    "void",
    "score",
    "seeds",
    "reveal_sig",
)
"""A blind round's keys in a version 3 transcript, before shuffle proofs."""
ROUND_KEYS = (*ROUND_KEYS_V3[:9], "deck_proofs", *ROUND_KEYS_V3[9:])
"""A blind round's keys in a version 4 transcript: ``deck_proofs`` after ``deck_sigs``."""
ROUND_KEYS_V6 = (*ROUND_KEYS[:5], "seated", *ROUND_KEYS[5:])
"""A blind round's keys in a version 6 transcript: ``seated`` after ``people``."""

VOID_ABSENT = "absent"
"""The void of a round whose person stayed away past their grace period (protocol.md 9.7)."""
VOID_FAILED_CHECK = "failed_check"
"""The void of a round a seat stopped on a failed check (protocol.md 9.6); the reveal then names
the party at fault, or the seat that stopped without cause."""


@dataclass(frozen=True, slots=True)
class DealShares:
    """One deal's shares as the host relayed them: by party, its shares in position order and
    its signature (None for a party whose shares never came)."""

    shares: tuple[tuple[bytes, ...] | None, ...]
    sigs: tuple[bytes | None, ...]
    relayed: tuple[tuple[bytes, ...], bytes] | None = None
    """Only in the record of a seat that stopped on it (protocol.md 9.8): the other shares of
    the host's party, and their signature, that ``blind_deal`` relayed after ``blind_open``
    carried the ones in ``shares[0]``. Two sets signed by the host for one deal prove that it
    tried to change its part of the deal. Not part of the chain hash."""

    def to_wire(self) -> dict[str, Any]:
        """The deal's map in a transcript (9.8): ``shares`` and ``sigs``, then ``relayed``
        only where a seat kept the host's other shares."""
        wire: dict[str, Any] = {
            "shares": [None if s is None else list(s) for s in self.shares],
            "sigs": list(self.sigs),
        }
        if self.relayed is not None:
            wire["relayed"] = {"shares": list(self.relayed[0]), "sig": self.relayed[1]}
        return wire

    def chain_bytes(self) -> bytes:
        """The deal's part of field 8 of the chain hash (9.8): per party ``00``, or ``01``,
        its shares and its signature. ``relayed`` is in no hash."""
        return b"".join(
            b"\x00" if shares is None or sig is None else b"\x01" + b"".join(shares) + sig
            for shares, sig in zip(self.shares, self.sigs, strict=True)
        )


@dataclass(frozen=True, slots=True)
class OpenCard:
    pos: int
    card: int


@dataclass(frozen=True, slots=True)
class BlindPlay:
    """A play as announced: the seat, the play code, the deck position and the play proof."""

    seat: int
    code: int
    pos: int
    proof: bytes


@dataclass(frozen=True, slots=True)
class BlindRound:
    round_id: bytes
    round_no: int
    prev: bytes
    dealer: int | None
    people: tuple[int, ...]
    keys: tuple[PartyKey, ...]
    """By party; only the host's (party 0) until ``blind_keys`` came."""
    sig: bytes
    decks: tuple[Deck, ...]
    deck_proofs: tuple[bytes, ...] | None
    """One shuffle proof per deck; None in a version 3 transcript (before shuffle proofs)."""
    deck_sigs: tuple[bytes, ...]
    deals: tuple[DealShares, ...]
    hand: tuple[OpenCard, ...]
    table: tuple[OpenCard, ...]
    plays: tuple[BlindPlay, ...]
    void: VoidNotice | None
    score: tuple[int, ...] | None
    seeds: tuple[bytes | None, ...] | None
    reveal_sig: bytes | None
    seated: tuple[str, ...] | None = None
    """By seat, ``person`` or ``computer``: who held it, as this seat's client knew it when the
    round's ``blind_round`` came (9.8, version 6); None in a version 4 or 3 file."""

    @property
    def parties(self) -> int:
        return len(self.people) + 1

    @property
    def digest(self) -> bytes:
        return blind_digest(self.round_id, self.people, self.keys[0])

    @property
    def host_seed(self) -> bytes | None:
        return None if self.seeds is None else self.seeds[0]

    def to_wire(self, *, seated: bool = False) -> dict[str, Any]:
        """The round as a file of version 6 (``seated``) or 4 (3 without proofs) writes it."""
        head = {
            "round_id": self.round_id,
            "round_no": self.round_no,
            "prev": self.prev,
            "dealer": self.dealer,
            "people": list(self.people),
        }
        if seated:
            head["seated"] = None if self.seated is None else list(self.seated)
        return head | {
            "keys": [[k.point, k.proof, k.sign_key] for k in self.keys],
            "sig": self.sig,
            "decks": [[c.to_bytes() for c in deck] for deck in self.decks],
            "deck_sigs": list(self.deck_sigs),
            **({} if self.deck_proofs is None else {"deck_proofs": list(self.deck_proofs)}),
            "deals": [d.to_wire() for d in self.deals],
            "hand": [[c.pos, c.card] for c in self.hand],
            "table": [[c.pos, c.card] for c in self.table],
            "plays": [[p.seat, p.code, p.pos, p.proof] for p in self.plays],
            "void": None
            if self.void is None
            else {"reason": self.void.reason, "offender": self.void.offender},
            "score": None if self.score is None else list(self.score),
            "seeds": None if self.seeds is None else list(self.seeds),
            "reveal_sig": self.reveal_sig,
        }

    def _decks_field(self) -> bytes:
        """Field 7 of the chain hash: each deck, its proof (from version 4), its signature."""
        proofs = self.deck_proofs if self.deck_proofs is not None else [b""] * len(self.decks)
        return b"".join(
            deck_bytes(d) + p + s
            for d, p, s in zip(self.decks, proofs, self.deck_sigs, strict=True)
        )

    def chain_hash(self) -> bytes:
        return tagged_hash(
            TAG_CHAIN,
            self.round_id,
            u32(self.round_no),
            self.prev,
            b"" if self.dealer is None else u8(self.dealer),
            self.digest,
            b"".join(k.to_bytes() for k in self.keys),
            self._decks_field(),
            b"".join(d.chain_bytes() for d in self.deals),
            b"".join(u8(c.pos) + u8(c.card) for c in self.table),
            b"".join(u8(p.seat) + u64(p.code) + u8(p.pos) + p.proof for p in self.plays),
            b"" if self.void is None else self.void.reason.encode("utf-8"),
            b"" if self.void is None or self.void.offender is None else u8(self.void.offender),
            slots_bytes(self.seeds),
        )


def blind_digest(round_id: bytes, people: Sequence[int], host_key: PartyKey) -> bytes:
    """What the host's commit signature covers in place of 5.2's deck digest."""
    return tagged_hash(
        TAG_ROUND, round_id, bytes(people), host_key.point, host_key.proof, host_key.sign_key
    )


def shares_message(round_id: bytes, party: int, deal: int, shares: Sequence[bytes]) -> bytes:
    """What a party signs over its shares of deal ``deal`` (numbered from 1)."""
    return length_prefixed(TAG_SHARES_SIG, round_id, u8(party), u8(deal), b"".join(shares))


def blind_first_dealer(round_id: bytes, keys: Sequence[PartyKey], players: int) -> int:
    """The first dealer of a blind match, from round 1's keys."""
    seed = tagged_hash(TAG_FIRST_DEALER, round_id, *(k.point for k in keys))
    return RandomStream(seed, LABEL_FIRST_DEALER, round_id).below(players)
