"""Everything one party derives from its 32-byte seed for one round (protocol.md 9.3).

Its secret key ``x`` and public key ``X = x*B``, its Ed25519 signing key, its shuffle and its 40
re-randomizers. Revealing the seed at the round's end lets anyone re-derive all of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net.fair.blind.group import base_mul, hash_to_scalar, is_zero
from scopa_net.fair.blind.proofs import check_key_proof, prove_key
from scopa_net.fair.blind.tags import LABEL_SHUFFLE, TAG_KEY, TAG_RERANDOMIZE, TAG_SIGN
from scopa_net.fair.commitments import public_key_bytes
from scopa_net.fair.hashing import ROUND_ID_SIZE, SEED_SIZE, tagged_hash, u8
from scopa_net.fair.shuffle import RandomStream, fisher_yates


@dataclass(frozen=True, slots=True)
class PartyKey:
    """What a party publishes before the shuffle: its public key, the proof that it knows the
    secret, and the public half of its round signing key."""

    point: bytes
    proof: bytes
    sign_key: bytes

    def to_bytes(self) -> bytes:
        return self.point + self.proof + self.sign_key


def key_context(round_id: bytes, party: int, sign_key: bytes) -> bytes:
    """What a key proof is bound to: ``round_id || u8(party) || sign_key``."""
    return round_id + u8(party) + sign_key


def key_proof_ok(round_id: bytes, party: int, key: PartyKey) -> bool:
    return check_key_proof(key.point, key.proof, key_context(round_id, party, key.sign_key))


def seed_gives_key(seed: bytes, round_id: bytes, party: int, key: PartyKey) -> bool:
    """Whether ``seed`` is the one behind the key ``party`` published for the round (9.3):
    the same public point and the same round signing key."""
    try:
        secrets = PartySecrets(seed, round_id, party)
    except ValueError:
        return False
    return secrets.public == key.point and public_key_bytes(secrets.signing) == key.sign_key


def secret_key(seed: bytes, round_id: bytes, party: int) -> bytes:
    return hash_to_scalar(TAG_KEY, round_id, u8(party), seed)


class PartySecrets:
    """One party's secrets for one round, all from its seed."""

    def __init__(self, seed: bytes, round_id: bytes, party: int) -> None:
        if not isinstance(seed, bytes) or len(seed) != SEED_SIZE:
            raise ValueError(f"a party seed must be {SEED_SIZE} bytes")
        if not isinstance(round_id, bytes) or len(round_id) != ROUND_ID_SIZE:
            raise ValueError(f"a round id must be {ROUND_ID_SIZE} bytes")
        self.seed = seed
        self.round_id = round_id
        self.party = party
        self.x = secret_key(seed, round_id, party)
        if is_zero(self.x):
            raise ValueError("this seed gives the secret key 0: draw another")
        self.signing = Ed25519PrivateKey.from_private_bytes(
            tagged_hash(TAG_SIGN, round_id, u8(party), seed)
        )

    @cached_property
    def public(self) -> bytes:
        return base_mul(self.x)

    @cached_property
    def key(self) -> PartyKey:
        sign_key = public_key_bytes(self.signing)
        context = key_context(self.round_id, self.party, sign_key)
        return PartyKey(self.public, prove_key(self.x, self.public, context), sign_key)

    @cached_property
    def perm(self) -> tuple[int, ...]:
        """Output position ``i`` of this party's shuffle takes input position ``perm[i]``."""
        return fisher_yates(RandomStream(self.seed, LABEL_SHUFFLE, self.round_id))

    def rerandomizer(self, i: int) -> bytes:
        return hash_to_scalar(TAG_RERANDOMIZE, self.round_id, u8(self.party), self.seed, u8(i))

    def sign(self, message: bytes) -> bytes:
        return self.signing.sign(message)
