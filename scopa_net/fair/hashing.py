"""Domain-separated SHA-256 hashing and the fixed-width integers fed into it.

Every hash in the fair-deal layer is ``H(tag, field_1, ..., field_k)``: SHA-256 over the tag and
each field, each preceded by its length as a 4-byte big-endian integer. The tag is a distinct
ASCII string per use, so a hash made for one purpose can never be passed off as another.
"""

from __future__ import annotations

import hashlib
import hmac

TAG_PREFIX = "scopa-net/v1/"

TAG_SALT = b"scopa-net/v1/card-salt"
TAG_CARD = b"scopa-net/v1/card-hash"
TAG_DIGEST = b"scopa-net/v1/deck-digest"
TAG_RULES = b"scopa-net/v1/rules"
TAG_SEAT_COMMIT = b"scopa-net/v1/seat-commit"
TAG_JOINT_SEED = b"scopa-net/v1/joint-seed"
TAG_CHAIN = b"scopa-net/v1/round-chain"
TAG_FINGERPRINT = b"scopa-net/v1/host-fingerprint"
TAG_COMMIT_SIG = b"scopa-net/v1/round-commit-signature"
TAG_REVEAL_SIG = b"scopa-net/v1/round-reveal-signature"
TAG_RECEIPT_SIG = b"scopa-net/v1/seed-receipt-signature"
TAG_END_SIG = b"scopa-net/v1/match-end-signature"
TAG_WELCOME_SIG = b"scopa-net/v1/welcome-key-proof"
# Labels of the HMAC-SHA256 random streams (see scopa_net.fair.shuffle).
LABEL_HOST_ORDER = b"scopa-net/v1/host-order"
LABEL_DECK_SHUFFLE = b"scopa-net/v1/deck-shuffle"
LABEL_FIRST_DEALER = b"scopa-net/v1/first-dealer"

ROUND_ID_SIZE = 16
SEED_SIZE = 32
HASH_SIZE = 32
SALT_SIZE = 16
SIGNATURE_SIZE = 64
PUBLIC_KEY_SIZE = 32


def length_prefixed(*fields: bytes) -> bytes:
    """Each field preceded by its length, 4 bytes big-endian: ``lp(f1) || lp(f2) || ...``."""
    return b"".join(len(f).to_bytes(4, "big") + f for f in fields)


def tagged_hash(tag: bytes, *fields: bytes) -> bytes:
    """``H(tag, fields...)``: SHA-256 of the length-prefixed tag and fields."""
    return tagged_hasher(tag, *fields).digest()


def tagged_hasher(tag: bytes, *fields: bytes) -> hashlib._Hash:
    """A SHA-256 that has taken in the length-prefixed tag and fields: ``H(tag, fields...)``
    once digested, or the common start of many such hashes, copied and fed the rest."""
    hasher = hashlib.sha256()
    for field in (tag, *fields):  # fed piece by piece: no joined copy of the input
        hasher.update(len(field).to_bytes(4, "big"))
        hasher.update(field)
    return hasher


def u8(n: int) -> bytes:
    return n.to_bytes(1, "big")


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def same_bytes(a: bytes, b: bytes) -> bool:
    """Constant-time equality, for every comparison of hashes, commitments and salts."""
    return hmac.compare_digest(a, b)
