"""Ciphertexts, the open deck, one party's shuffle, and the signature over a deck.

A ciphertext ``(U, V)`` holds card ``c`` under the joint key ``Y`` when ``U = r*B`` and
``V = P[c] + r*Y``. The open deck holds card ``c`` at position ``c`` with ``r = 1``. A party's
shuffle sends input position ``perm[i]`` to output position ``i`` and adds ``r[i]*B`` and
``r[i]*Y``: the card stays, its encoding changes beyond recognition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from scopa_net.fair.blind.cards import CARD_POINTS, DECK_SIZE
from scopa_net.fair.blind.group import (
    BASE,
    ONE,
    POINT_SIZE,
    add,
    base_mul,
    is_valid_point,
    mul,
    scalar_add,
)
from scopa_net.fair.blind.party_secrets import PartySecrets
from scopa_net.fair.blind.tags import TAG_DECK_SIG
from scopa_net.fair.hashing import length_prefixed, u8

CIPHERTEXT_SIZE = 2 * POINT_SIZE


class Ciphertext(NamedTuple):
    u: bytes
    v: bytes

    def to_bytes(self) -> bytes:
        return self.u + self.v

    @classmethod
    def from_bytes(cls, data: bytes) -> Ciphertext:
        if not isinstance(data, bytes) or len(data) != CIPHERTEXT_SIZE:
            raise ValueError(f"a ciphertext is {CIPHERTEXT_SIZE} bytes")
        return cls(data[:POINT_SIZE], data[POINT_SIZE:])

    def valid(self) -> bool:
        return is_valid_point(self.u) and is_valid_point(self.v)


Deck = tuple[Ciphertext, ...]


def joint_key(points: Sequence[bytes]) -> bytes:
    """``Y``: the sum of every party's public key."""
    total = points[0]
    for point in points[1:]:
        total = add(total, point)
    return total


def open_deck(joint: bytes) -> Deck:
    """The input of the first shuffle: card ``c`` at position ``c``, encrypted with ``r = 1``."""
    return tuple(Ciphertext(BASE, add(CARD_POINTS[c], joint)) for c in range(DECK_SIZE))


def shuffle_deck(deck: Deck | None, secrets: PartySecrets, joint: bytes) -> Deck:
    """One party's shuffle: permute by its ``perm``, re-randomize every card with its ``r[i]``.
    ``deck`` None is the open deck, shuffled with one operation less a card: there
    ``U + r*B = (1 + r)*B`` and ``V + r*Y = P[c] + (1 + r)*Y``."""
    out = []
    for i, j in enumerate(secrets.perm):
        r = secrets.rerandomizer(i)
        if deck is None:
            r1 = scalar_add(r, ONE)
            out.append(Ciphertext(base_mul(r1), add(CARD_POINTS[j], mul(r1, joint))))
        else:
            u, v = deck[j]
            out.append(Ciphertext(add(u, base_mul(r)), add(v, mul(r, joint))))
    return tuple(out)


def deck_bytes(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(c.u + c.v for c in deck)


def deck_message(
    round_id: bytes, party: int, deck: Sequence[Ciphertext], proof: bytes | None
) -> bytes:
    """What a party signs over its shuffled deck and the proof that it is a shuffle (9.5.4),
    so that no one relaying the deck can change either. ``proof`` None: a version 3
    transcript's deck, from before shuffles carried proofs."""
    fields = (round_id, u8(party), deck_bytes(deck))
    return length_prefixed(TAG_DECK_SIG, *fields, *(() if proof is None else (proof,)))


def parse_deck(items: Sequence[bytes]) -> Deck:
    if len(items) != DECK_SIZE:
        raise ValueError(f"a deck holds {DECK_SIZE} ciphertexts, not {len(items)}")
    if not all(isinstance(item, bytes) and len(item) == CIPHERTEXT_SIZE for item in items):
        raise ValueError(f"a ciphertext is {CIPHERTEXT_SIZE} bytes")
    return tuple(Ciphertext(item[:POINT_SIZE], item[POINT_SIZE:]) for item in items)
