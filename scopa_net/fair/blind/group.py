"""The group: points and scalars of the prime-order subgroup of edwards25519.

Thin names over libsodium's ``crypto_core_ed25519_*`` and ``crypto_scalarmult_ed25519_*_noclamp``
(through :mod:`nacl.bindings`). A point is its 32-byte encoding, a scalar 32 bytes
little-endian below :data:`ORDER`. libsodium refuses to multiply a non-canonical point, one of
small order or one outside the subgroup, and a zero scalar: every such refusal comes out as
:class:`GroupError`.
"""

from __future__ import annotations

import hashlib

from nacl import bindings
from nacl.exceptions import CryptoError

from scopa_net.fair.hashing import length_prefixed

ORDER = 2**252 + 27742317777372353535851937790883648493
"""l, the order of the subgroup."""
POINT_SIZE = 32
SCALAR_SIZE = 32
ONE = (1).to_bytes(SCALAR_SIZE, "little")
BASE = bindings.crypto_scalarmult_ed25519_base_noclamp(ONE)
"""B, the standard base point."""


class GroupError(ValueError):
    """libsodium refused an operation: a bad point, or a zero scalar or result."""


def hash_to_scalar(tag: bytes, *fields: bytes) -> bytes:
    """``Hs(tag, fields...)``: SHA-512 of the length-prefixed tag and fields, mod l."""
    digest = hashlib.sha512(length_prefixed(tag, *fields)).digest()
    return bindings.crypto_core_ed25519_scalar_reduce(digest)


def is_zero(scalar: bytes) -> bool:
    return not any(scalar)


def mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point``; :class:`GroupError` for a bad point or a zero scalar."""
    try:
        return bindings.crypto_scalarmult_ed25519_noclamp(scalar, point)
    except (CryptoError, TypeError, ValueError) as exc:
        raise GroupError(f"scalar multiplication refused: {exc}") from None


def base_mul(scalar: bytes) -> bytes:
    """``scalar * B``."""
    try:
        return bindings.crypto_scalarmult_ed25519_base_noclamp(scalar)
    except (CryptoError, TypeError, ValueError) as exc:
        raise GroupError(f"scalar multiplication refused: {exc}") from None


def add(p: bytes, q: bytes) -> bytes:
    try:
        return bindings.crypto_core_ed25519_add(p, q)
    except (CryptoError, TypeError, ValueError) as exc:
        raise GroupError(f"point addition refused: {exc}") from None


def sub(p: bytes, q: bytes) -> bytes:
    try:
        return bindings.crypto_core_ed25519_sub(p, q)
    except (CryptoError, TypeError, ValueError) as exc:
        raise GroupError(f"point subtraction refused: {exc}") from None


def is_valid_point(point: object) -> bool:
    """A canonical encoding of a point of the subgroup, not of small order."""
    return (
        isinstance(point, bytes)
        and len(point) == POINT_SIZE
        and bool(bindings.crypto_core_ed25519_is_valid_point(point))
    )


def scalar_add(a: bytes, b: bytes) -> bytes:
    return bindings.crypto_core_ed25519_scalar_add(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return bindings.crypto_core_ed25519_scalar_mul(a, b)


def from_uniform(data: bytes) -> bytes:
    """libsodium's hash to the curve: Elligator 2 of 32 bytes, times the cofactor."""
    return bindings.crypto_core_ed25519_from_uniform(data)
