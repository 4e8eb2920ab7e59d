"""The proof that a party's deck is a shuffle of the deck before it (protocol.md 9.4).

A party's output holds the same 40 cards as its input, each re-encrypted, in an order only it
knows: ``out[i] = in[perm[i]] + r[i]*(B, Y)``. Without a proof, the last party to shuffle could
send a deck of its own making instead (every card encrypted afresh, in an order it chose) and
so know every hand. This is the Terelius–Wikström proof of a shuffle, as CHVote and
Verificatum implement it, made non-interactive with Fiat–Shamir and written for our group:

1. the prover commits to its permutation: ``c[j] = rho[j]*B + G[inv[j]]`` for every input
   position ``j`` (``inv[j]`` the output position it went to; ``G`` fixed generators whose
   logarithms nobody knows);
2. challenges ``u[j]`` are hashed from both decks and the commitments; ``u'[i] = u[perm[i]]``;
3. a commitment chain ``chat[i] = rhat[i]*B + u'[i]*chat[i-1]`` shows that the ``u'`` are the
   ``u`` permuted (their product is the same);
4. four Schnorr-style equations tie the commitments, the chain and the two decks together, so
   that ``sum u'[i]*out[i] - sum u[j]*in[j]`` is a re-encryption of nothing.

Every random value of the proof is derived from the party's seed and its input deck, so the
proof is a pure function of them (it has test vectors, and a seed revealed at the round's end
re-derives it); a different input deck gives different values, so no two proofs share one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from scopa_net.fair.blind.cards import DECK_SIZE
from scopa_net.fair.blind.deck import Ciphertext, deck_bytes
from scopa_net.fair.blind.group import (
    ORDER,
    POINT_SIZE,
    SCALAR_SIZE,
    GroupError,
    add,
    base_mul,
    from_uniform,
    hash_to_scalar,
    mul,
    sub,
)
from scopa_net.fair.blind.party_secrets import PartySecrets
from scopa_net.fair.blind.tags import (
    TAG_SHUFFLE_CHALLENGE,
    TAG_SHUFFLE_GENERATOR,
    TAG_SHUFFLE_NONCE,
    TAG_SHUFFLE_PROOF,
    TAG_SHUFFLE_STATEMENT,
)
from scopa_net.fair.hashing import same_bytes, tagged_hash, u8

N = DECK_SIZE
SHUFFLE_PROOF_SIZE = (2 * N) * POINT_SIZE + (5 + 2 * N) * SCALAR_SIZE
"""5,280 bytes: ``c[40] || chat[40] || e || s1 || s2 || s3 || s4 || shat[40] || sp[40]``."""

GENERATORS: tuple[bytes, ...] = tuple(
    from_uniform(tagged_hash(TAG_SHUFFLE_GENERATOR, u8(k))) for k in range(N + 1)
)
"""``G[0..39]`` for the permutation's commitments, ``G[40]`` where the chain starts."""
_CHAIN_START = GENERATORS[N]


def _scalar(n: int) -> bytes:
    return (n % ORDER).to_bytes(SCALAR_SIZE, "little")


def _int(scalar: bytes) -> int:
    return int.from_bytes(scalar, "little")


def _sum(points: Sequence[bytes]) -> bytes:
    total = points[0]
    for point in points[1:]:
        total = add(total, point)
    return total


def _weighted(scalars: Sequence[bytes], points: Sequence[bytes]) -> bytes:
    """``sum scalars[k] * points[k]``."""
    return _sum([mul(s, p) for s, p in zip(scalars, points, strict=True)])


@dataclass(frozen=True, slots=True)
class ShuffleClaim:
    """What a shuffle proof proves: that party ``party`` of round ``round_id`` turned
    ``deck_in`` into ``deck_out`` by a permutation and re-encryption under ``joint``."""

    round_id: bytes
    party: int
    joint: bytes
    deck_in: Sequence[Ciphertext]
    deck_out: Sequence[Ciphertext]

    def __post_init__(self) -> None:
        # Tuples, so that a claim is hashable (check_shuffle_proof remembers its answers).
        object.__setattr__(self, "deck_in", tuple(self.deck_in))
        object.__setattr__(self, "deck_out", tuple(self.deck_out))

    def statement(self, commitments: Sequence[bytes]) -> bytes:
        """What the challenges are drawn from: the claim and the commitments to the
        permutation."""
        return tagged_hash(
            TAG_SHUFFLE_STATEMENT,
            self.round_id + u8(self.party),
            self.joint,
            deck_bytes(self.deck_in),
            deck_bytes(self.deck_out),
            b"".join(commitments),
        )


def _challenges(statement: bytes) -> list[bytes]:
    return [hash_to_scalar(TAG_SHUFFLE_CHALLENGE, statement, u8(j)) for j in range(N)]


def _final_challenge(
    statement: bytes, chain: Sequence[bytes], t: Sequence[bytes], that: Sequence[bytes]
) -> bytes:
    """``e``, over the statement, the chain, ``t = (T1, T2, T3, T4.U, T4.V)`` and every
    ``That[i]`` (eight fields: the chain and the ``That`` each one field)."""
    return hash_to_scalar(TAG_SHUFFLE_PROOF, statement, b"".join(chain), *t, b"".join(that))


def prove_shuffle(secrets: PartySecrets, claim: ShuffleClaim) -> bytes:
    """The proof of ``claim``, made with the shuffle ``secrets`` derives (its ``perm`` and
    re-randomizers, 9.3)."""
    if (claim.round_id, claim.party) != (secrets.round_id, secrets.party):
        raise ValueError("these secrets are another party's, or another round's")
    joint, deck_in, deck_out = claim.joint, claim.deck_in, claim.deck_out
    perm = secrets.perm
    inv = [0] * N
    for i, j in enumerate(perm):
        inv[j] = i
    input_bytes = deck_bytes(deck_in)

    def nonce(label: bytes, k: int) -> bytes:
        return hash_to_scalar(
            TAG_SHUFFLE_NONCE,
            secrets.round_id,
            u8(secrets.party),
            secrets.seed,
            input_bytes,
            label,
            u8(k),
        )

    rho = [nonce(b"rho", j) for j in range(N)]
    c = [add(base_mul(rho[j]), GENERATORS[inv[j]]) for j in range(N)]
    statement = claim.statement(c)
    u = _challenges(statement)
    u_out = [u[perm[i]] for i in range(N)]

    rhat = [nonce(b"rhat", i) for i in range(N)]
    chain = []
    prev = _CHAIN_START
    for i in range(N):
        prev = add(base_mul(rhat[i]), mul(u_out[i], prev))
        chain.append(prev)

    w1, w2, w3, w4 = (nonce(b"w", k) for k in range(1, 5))
    what = [nonce(b"what", i) for i in range(N)]
    wp = [nonce(b"wprime", i) for i in range(N)]
    t1 = base_mul(w1)
    t2 = base_mul(w2)
    t3 = add(base_mul(w3), _weighted(wp, GENERATORS[:N]))
    t4u = sub(_weighted(wp, [o.u for o in deck_out]), base_mul(w4))
    t4v = sub(_weighted(wp, [o.v for o in deck_out]), mul(w4, joint))
    that = [
        add(base_mul(what[i]), mul(wp[i], chain[i - 1] if i else _CHAIN_START)) for i in range(N)
    ]
    e = _int(_final_challenge(statement, chain, (t1, t2, t3, t4u, t4v), that))

    chain_secret = 0  # sum rhat[i] * prod_{k > i} u'[k]
    tail = 1
    for i in reversed(range(N)):
        chain_secret += _int(rhat[i]) * tail
        tail = tail * _int(u_out[i]) % ORDER
    s1 = _int(w1) + e * sum(_int(x) for x in rho)
    s2 = _int(w2) + e * chain_secret
    s3 = _int(w3) + e * sum(_int(u[j]) * _int(rho[j]) for j in range(N))
    s4 = _int(w4) + e * sum(_int(u_out[i]) * _int(secrets.rerandomizer(i)) for i in range(N))
    shat = [_scalar(_int(what[i]) + e * _int(rhat[i])) for i in range(N)]
    sp = [_scalar(_int(wp[i]) + e * _int(u_out[i])) for i in range(N)]
    return b"".join(
        [*c, *chain, _scalar(e), _scalar(s1), _scalar(s2), _scalar(s3), _scalar(s4), *shat, *sp]
    )


def _split(proof: bytes) -> tuple[list[bytes], list[bytes], list[bytes]] | None:
    """The proof's points (``c``, ``chat``) and scalars, or None when it is malformed or a
    scalar is not below l (9.2: a proof has one encoding)."""
    if not isinstance(proof, bytes) or len(proof) != SHUFFLE_PROOF_SIZE:
        return None
    words = [proof[k : k + 32] for k in range(0, SHUFFLE_PROOF_SIZE, 32)]
    scalars = words[2 * N :]
    if any(_int(s) >= ORDER for s in scalars):
        return None
    return words[:N], words[N : 2 * N], scalars


@lru_cache(maxsize=256)
def check_shuffle_proof(claim: ShuffleClaim, proof: bytes) -> bool:
    """Whether ``proof`` proves ``claim``. Remembered for the last 256 claims: a seat checks
    each deck's proof as it comes and its round-end check (9.9) meets the same bytes again,
    as does every party of a simulated table; some 50 ms each, a few per round."""
    joint, deck_in, deck_out = claim.joint, claim.deck_in, claim.deck_out
    parts = _split(proof)
    if parts is None or len(deck_in) != N or len(deck_out) != N:
        return False
    c, chain, scalars = parts
    e, s1, s2, s3, s4 = scalars[:5]
    shat, sp = scalars[5 : 5 + N], scalars[5 + N :]
    statement = claim.statement(c)
    u = _challenges(statement)
    product = 1
    for x in u:
        product = product * _int(x) % ORDER
    try:
        t1 = sub(base_mul(s1), mul(e, sub(_sum(c), _sum(GENERATORS[:N]))))
        t2 = sub(base_mul(s2), mul(e, sub(chain[-1], mul(_scalar(product), _CHAIN_START))))
        t3 = sub(add(base_mul(s3), _weighted(sp, GENERATORS[:N])), mul(e, _weighted(u, c)))
        t4u = sub(
            sub(_weighted(sp, [o.u for o in deck_out]), base_mul(s4)),
            mul(e, _weighted(u, [i.u for i in deck_in])),
        )
        t4v = sub(
            sub(_weighted(sp, [o.v for o in deck_out]), mul(s4, joint)),
            mul(e, _weighted(u, [i.v for i in deck_in])),
        )
        that = [
            sub(
                add(base_mul(shat[i]), mul(sp[i], chain[i - 1] if i else _CHAIN_START)),
                mul(e, chain[i]),
            )
            for i in range(N)
        ]
    except GroupError:
        return False
    return same_bytes(e, _final_challenge(statement, chain, (t1, t2, t3, t4u, t4v), that))


__all__ = [
    "GENERATORS",
    "SHUFFLE_PROOF_SIZE",
    "ShuffleClaim",
    "check_shuffle_proof",
    "prove_shuffle",
]
