"""The host's committed deck, the seats' seed commitments, the joint seed and signatures.

Host side: :meth:`HostDeck.derive` turns a 32-byte host seed and a round id into the secret
order of the 40 cards, one 16-byte salt per place in that order, the salted hash of each card
and the digest over the list. The host signs the digest with its long-lived Ed25519 key, bound
to the round id, the round number, the previous round's chain hash and the rule set.

Seat side: :func:`seat_commitment` before the reveal, :func:`joint_seed` after it, and
:class:`ArrivalCheck` to check each card against the committed hashes the moment it arrives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from scopa_net.cards import CARDS
from scopa_net.fair.errors import (
    BadSignatureError,
    CardCheckError,
    CommitmentMismatchError,
    ExclusionMismatchError,
)
from scopa_net.fair.hashing import (
    HASH_SIZE,
    PUBLIC_KEY_SIZE,
    ROUND_ID_SIZE,
    SALT_SIZE,
    SEED_SIZE,
    SIGNATURE_SIZE,
    TAG_CARD,
    TAG_COMMIT_SIG,
    TAG_DIGEST,
    TAG_END_SIG,
    TAG_FINGERPRINT,
    TAG_JOINT_SEED,
    TAG_RECEIPT_SIG,
    TAG_REVEAL_SIG,
    TAG_RULES,
    TAG_SALT,
    TAG_SEAT_COMMIT,
    TAG_WELCOME_SIG,
    length_prefixed,
    same_bytes,
    tagged_hash,
    tagged_hasher,
    u8,
    u32,
)
from scopa_net.fair.shuffle import deck_permutation, host_order
from scopa_net.rules import RuleSet

ZERO_CHAIN = bytes(HASH_SIZE)
"""The ``prev`` of the first round of a match."""


def _check_size(name: str, value: bytes, size: int) -> None:
    if not isinstance(value, bytes) or len(value) != size:
        raise ValueError(f"{name} must be {size} bytes, not {value!r}")


# --- the host's deck ----------------------------------------------------------------------


def card_salt(host_seed: bytes, round_id: bytes, place: int) -> bytes:
    """The salt of place ``place`` (0..39) of the host's committed list."""
    return tagged_hash(TAG_SALT, round_id, host_seed, u8(place))[:SALT_SIZE]


def card_hash(round_id: bytes, card: int, salt: bytes) -> bytes:
    """The salted hash the host commits for one card."""
    return tagged_hash(TAG_CARD, round_id, u8(card), salt)


def card_salts_and_hashes(
    host_seed: bytes, round_id: bytes, order: Sequence[int]
) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """Every place's :func:`card_salt` and :func:`card_hash` for the host's ``order``: the
    same hashes, with the start they share (tag, round id, seed) hashed once, not 40 times."""
    salt_start = tagged_hasher(TAG_SALT, round_id, host_seed)
    card_start = tagged_hasher(TAG_CARD, round_id)
    one_byte, salt_size = u32(1), u32(SALT_SIZE)
    salts, hashes = [], []
    for place, card in enumerate(order):
        hasher = salt_start.copy()
        hasher.update(one_byte + u8(place))
        salt = hasher.digest()[:SALT_SIZE]
        hasher = card_start.copy()
        hasher.update(one_byte + u8(card) + salt_size + salt)
        salts.append(salt)
        hashes.append(hasher.digest())
    return tuple(salts), tuple(hashes)


def deck_digest(round_id: bytes, card_hashes: Sequence[bytes]) -> bytes:
    """One hash over the 40 committed card hashes, in list order."""
    return tagged_hash(TAG_DIGEST, round_id, *card_hashes)


@dataclass(frozen=True, slots=True)
class HostDeck:
    """Everything the host derives from its seed for one round (secret until the reveal)."""

    round_id: bytes
    host_seed: bytes
    order: tuple[int, ...]
    """``order[place]``: the card index at that place of the committed list."""
    salts: tuple[bytes, ...]
    card_hashes: tuple[bytes, ...]
    digest: bytes

    @classmethod
    def derive(cls, host_seed: bytes, round_id: bytes) -> HostDeck:
        _check_size("host seed", host_seed, SEED_SIZE)
        _check_size("round id", round_id, ROUND_ID_SIZE)
        order = host_order(host_seed, round_id)
        salts, hashes = card_salts_and_hashes(host_seed, round_id, order)
        return cls(round_id, host_seed, order, salts, hashes, deck_digest(round_id, hashes))

    def deck(self, perm: Sequence[int]) -> tuple[int, ...]:
        """The deck order (card indices by position) that a public permutation gives."""
        return tuple(self.order[place] for place in perm)

    def dealt(self, perm: Sequence[int], pos: int) -> tuple[int, bytes]:
        """The card and salt the host sends for deck position ``pos``."""
        place = perm[pos]
        return self.order[place], self.salts[place]


# --- seats --------------------------------------------------------------------------------


def seat_commitment(round_id: bytes, seat: int, seed: bytes) -> bytes:
    """What a seat sends before revealing its seed."""
    _check_size("seat seed", seed, SEED_SIZE)
    return tagged_hash(TAG_SEAT_COMMIT, round_id, u8(seat), seed)


def check_reveals(round_id: bytes, commits: Sequence[bytes], seeds: Sequence[bytes]) -> None:
    """Raise :class:`CommitmentMismatchError` naming the first seat whose seed does not match
    its commitment."""
    if len(commits) != len(seeds):
        raise CommitmentMismatchError(
            f"{len(commits)} seed commitments but {len(seeds)} revealed seeds"
        )
    for seat, (commit, seed) in enumerate(zip(commits, seeds, strict=True)):
        if len(seed) != SEED_SIZE or not same_bytes(seat_commitment(round_id, seat, seed), commit):
            raise CommitmentMismatchError(
                f"seat {seat}'s revealed seed {seed.hex()} does not match its commitment "
                f"{commit.hex()}"
            )


def joint_seed(round_id: bytes, digest: bytes, seeds: Sequence[bytes]) -> bytes:
    """The seed of the public shuffle: the seeds that count (those of the seats not excluded),
    in seat order, mixed by hashing. No seeds at all is allowed: the round is then dealt from
    the host's list alone and is not fair-checked."""
    return tagged_hash(TAG_JOINT_SEED, round_id, digest, *seeds)


NO_COMMIT = "no_commit"
"""A person's seat that sent no seed commitment in time (left out before any seed was seen)."""
NO_REVEAL = "no_reveal"
"""A seat that committed but whose seed did not reach the host in time."""
BAD_REVEAL = "bad_reveal"
"""A seat that revealed a seed that does not open its commitment (published, so anyone can
check)."""
EXCLUSION_REASONS = (NO_COMMIT, NO_REVEAL, BAD_REVEAL)
EXCLUSION_CODES = {None: 0, NO_COMMIT: 1, NO_REVEAL: 2, BAD_REVEAL: 3}
"""How the chain hash writes each seat's exclusion (protocol.md section 5.7)."""
LEFT_OUT_WORDS = {
    NO_COMMIT: "sent no commitment (away, or too late)",
    NO_REVEAL: "committed but sent no seed in time",
    BAD_REVEAL: "sent a seed that does not match the commitment",
}
"""Why a seat's seed was left out, as a verifier's note says it after the seat ("seat 1 sent
no commitment (away, or too late)"; a screen puts the seat's name, or "you", in its place)."""


def counted_seats(
    round_id: bytes,
    commits: Sequence[bytes | None],
    seeds: Sequence[bytes | None],
    excluded: Sequence[str | None],
) -> tuple[int, ...]:
    """The seats whose seeds count in the joint seed, after checking that every exclusion is
    the one the public record proves. Raises :class:`ExclusionMismatchError` (or
    :class:`CommitmentMismatchError` for a counted seed that does not open its commitment).

    Per seat: no commitment and no seed: not counted (a computer player, or ``no_commit``);
    a commitment and no seed: ``no_reveal``; a seed that opens the commitment: counted, never
    excluded; a seed that does not: ``bad_reveal``.
    """
    if not len(commits) == len(seeds) == len(excluded):
        raise ExclusionMismatchError(
            f"{len(commits)} commitments, {len(seeds)} seeds and {len(excluded)} exclusion "
            "entries: one of each per seat is due"
        )
    counted = []
    for seat, (commit, seed, reason) in enumerate(zip(commits, seeds, excluded, strict=True)):
        if reason is not None and reason not in EXCLUSION_REASONS:
            raise ExclusionMismatchError(f"seat {seat}: no such exclusion reason {reason!r}")
        if commit is None:
            if seed is not None or reason not in (None, NO_COMMIT):
                raise ExclusionMismatchError(
                    f"seat {seat} sent no commitment, yet the record shows a seed or the "
                    f"exclusion {reason!r}"
                )
            continue
        if seed is None:
            if reason != NO_REVEAL:
                raise ExclusionMismatchError(
                    f"seat {seat} committed and no seed is published, so it must be excluded "
                    f"as no_reveal, not {reason!r}"
                )
            continue
        opens = len(seed) == SEED_SIZE and same_bytes(seat_commitment(round_id, seat, seed), commit)
        if opens and reason is not None:
            raise ExclusionMismatchError(
                f"seat {seat}'s published seed opens its commitment, yet it is excluded ({reason})"
            )
        if not opens:
            if reason != BAD_REVEAL:
                raise CommitmentMismatchError(
                    f"seat {seat}'s revealed seed {seed.hex()} does not match its commitment "
                    f"{commit.hex()}"
                )
            continue
        counted.append(seat)
    return tuple(counted)


def receipt_message(round_id: bytes, seat: int, seed_hash: bytes) -> bytes:
    """The bytes the host signs in ``seed_receipt``. ``seed_hash`` is the commitment that the
    seed it received opens (:func:`seat_commitment` of that seed)."""
    return length_prefixed(TAG_RECEIPT_SIG, round_id, u8(seat), seed_hash)


def end_message(chain: bytes, scores: Sequence[int], winner: int | None) -> bytes:
    """The bytes the host signs in ``match_end``: the chain hash of the last round, the final
    match points by side (4 bytes each) and the winning side (1 byte, or nothing)."""
    return length_prefixed(
        TAG_END_SIG,
        chain,
        b"".join(u32(s) for s in scores),
        b"" if winner is None else u8(winner),
    )


# --- the rule set and the host's identity -------------------------------------------------


def rules_hash(rules: RuleSet) -> bytes:
    """The rule set as one hash: players, target, then the variant names in byte order."""
    names = sorted(v.value.encode("ascii") for v in rules.variants)
    return tagged_hash(TAG_RULES, u8(rules.players), u8(rules.target), *names)


def public_key_bytes(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


def fingerprint(public_key: bytes) -> str:
    """The host key as people compare it: the first 10 bytes of its tagged hash, in hex,
    in five groups of four digits (``1a2b-3c4d-...``)."""
    _check_size("host public key", public_key, PUBLIC_KEY_SIZE)
    text = tagged_hash(TAG_FINGERPRINT, public_key)[:10].hex()
    return "-".join(text[i : i + 4] for i in range(0, 20, 4))


def commit_message(
    round_id: bytes, round_no: int, prev: bytes, digest: bytes, rules_digest: bytes
) -> bytes:
    """The bytes the host signs in ``round_commit``."""
    return length_prefixed(TAG_COMMIT_SIG, round_id, u32(round_no), prev, digest, rules_digest)


def reveal_message(round_id: bytes, host_seed: bytes, chain: bytes) -> bytes:
    """The bytes the host signs in ``round_reveal``: its seed and the whole public round."""
    return length_prefixed(TAG_REVEAL_SIG, round_id, host_seed, chain)


def welcome_message(version: int, challenge: bytes, host_key: bytes) -> bytes:
    """The bytes the host signs in ``welcome``'s ``key_proof`` (protocol.md 5.3): the
    connection's protocol version (4 bytes), the client's challenge for this connection and
    the host's public key, so that a proof answers one challenge, in one version, for one key."""
    return length_prefixed(TAG_WELCOME_SIG, u32(version), challenge, host_key)


def sign(private_key: Ed25519PrivateKey, message: bytes) -> bytes:
    return private_key.sign(message)


def check_signature(public_key: bytes, signature: bytes, message: bytes, what: str) -> None:
    """Raise :class:`BadSignatureError` (saying which signature) unless it verifies."""
    try:
        if len(public_key) != PUBLIC_KEY_SIZE or len(signature) != SIGNATURE_SIZE:
            raise InvalidSignature
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        raise BadSignatureError(
            f"the host's signature on {what} does not verify under key "
            f"{fingerprint(public_key) if len(public_key) == PUBLIC_KEY_SIZE else public_key!r}"
        ) from None


# --- checking cards on arrival ------------------------------------------------------------


class ArrivalCheck:
    """A seat's check of every card it receives, from the moment the joint seed is known."""

    def __init__(self, round_id: bytes, card_hashes: Sequence[bytes], joint: bytes) -> None:
        self.round_id = round_id
        self.card_hashes = tuple(card_hashes)
        self.perm = deck_permutation(joint, round_id)

    def check(self, pos: int, card: int, salt: bytes) -> None:
        """Raise :class:`CardCheckError` unless ``card`` with ``salt`` is the card committed
        at the place of the list that the shuffle puts at deck position ``pos``."""
        if not 0 <= pos < 40 or not 0 <= card < 40:
            raise CardCheckError(f"no such deck position or card: pos {pos!r}, card {card!r}")
        place = self.perm[pos]
        if not same_bytes(card_hash(self.round_id, card, salt), self.card_hashes[place]):
            raise CardCheckError(
                f"deck position {pos}: {CARDS[card]} with salt {salt.hex()} does not match "
                f"committed hash {place} ({self.card_hashes[place].hex()})"
            )
