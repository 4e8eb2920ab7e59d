"""The two zero-knowledge proofs of blind tables (protocol.md 9.4), Fiat–Shamir, 64 bytes each.

- :func:`prove_key` / :func:`check_key_proof`: Schnorr proof that a party knows the secret of its
  public key, bound to the round, the party and its signing key (stops a party from choosing
  its key to cancel the others').
- :func:`prove_dleq` / :func:`check_dleq`: Chaum–Pedersen proof that ``log_B X = log_U D``
  (the same secret turns ``B`` into ``X`` and ``U`` into ``D``), bound to a context. A play uses
  it to show that the card it names is the one its position holds.

Nonces are derived from the secret and the statement (as in Ed25519), so a proof is a pure
function of its inputs and has test vectors.
"""

from __future__ import annotations

from scopa_net.fair.blind.group import (
    ORDER,
    SCALAR_SIZE,
    GroupError,
    base_mul,
    hash_to_scalar,
    mul,
    scalar_add,
    scalar_mul,
    sub,
)
from scopa_net.fair.blind.tags import TAG_DLEQ, TAG_DLEQ_NONCE, TAG_KEY_PROOF, TAG_KEY_PROOF_NONCE
from scopa_net.fair.hashing import same_bytes

PROOF_SIZE = 64


def _split(proof: bytes) -> tuple[bytes, bytes] | None:
    """``e`` and ``z`` of a 64-byte proof, or None when it is malformed.

    Both must be canonical scalars, below l (9.2): ``z + l`` would prove the same statement
    with other bytes, so anyone relaying a proof could change it and keep it valid.
    """
    if not isinstance(proof, bytes) or len(proof) != PROOF_SIZE:
        return None
    e, z = proof[:SCALAR_SIZE], proof[SCALAR_SIZE:]
    if not (is_canonical_scalar(e) and is_canonical_scalar(z)):
        return None
    return e, z


def is_canonical_scalar(scalar: bytes) -> bool:
    """A 32-byte little-endian scalar below l, the only encoding 9.2 accepts."""
    return int.from_bytes(scalar, "little") < ORDER


def prove_key(secret: bytes, public: bytes, context: bytes) -> bytes:
    """Schnorr proof of knowledge of ``secret`` with ``public = secret * B``."""
    nonce = hash_to_scalar(TAG_KEY_PROOF_NONCE, secret, context)
    commitment = base_mul(nonce)
    e = hash_to_scalar(TAG_KEY_PROOF, context, public, commitment)
    return e + scalar_add(nonce, scalar_mul(e, secret))


def check_key_proof(public: bytes, proof: bytes, context: bytes) -> bool:
    parts = _split(proof)
    if parts is None:
        return False
    e, z = parts
    try:
        commitment = sub(base_mul(z), mul(e, public))
    except GroupError:
        return False
    return same_bytes(e, hash_to_scalar(TAG_KEY_PROOF, context, public, commitment))


def prove_dleq(secret: bytes, public: bytes, u: bytes, d: bytes, context: bytes) -> bytes:
    """Proof that ``public = secret * B`` and ``d = secret * u``."""
    nonce = hash_to_scalar(TAG_DLEQ_NONCE, secret, context, u, d)
    a1, a2 = base_mul(nonce), mul(nonce, u)
    e = hash_to_scalar(TAG_DLEQ, context, public, u, d, a1, a2)
    return e + scalar_add(nonce, scalar_mul(e, secret))


def check_dleq(public: bytes, u: bytes, d: bytes, proof: bytes, context: bytes) -> bool:
    """Whether ``proof`` shows ``log_B public == log_u d`` for ``context``."""
    parts = _split(proof)
    if parts is None:
        return False
    e, z = parts
    try:
        a1 = sub(base_mul(z), mul(e, public))
        a2 = sub(mul(z, u), mul(e, d))
    except GroupError:
        return False
    return same_bytes(e, hash_to_scalar(TAG_DLEQ, context, public, u, d, a1, a2))
