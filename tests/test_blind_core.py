"""Blind tables, the building blocks: the group, card points, the proofs, shares and shuffles."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.fair.blind.cards import CARD_POINTS, card_of
from scopa_net.fair.blind.deck import joint_key, open_deck, shuffle_deck
from scopa_net.fair.blind.group import (
    BASE,
    ORDER,
    GroupError,
    add,
    base_mul,
    hash_to_scalar,
    is_valid_point,
    mul,
    scalar_add,
    sub,
)
from scopa_net.fair.blind.party_secrets import PartySecrets, key_proof_ok
from scopa_net.fair.blind.proofs import check_dleq, check_key_proof, prove_dleq, prove_key

SMALL_ORDER_POINT = bytes(32)
"""The all-zero encoding: y = 0, a point of order 4."""
IDENTITY = (1).to_bytes(32, "little")
"""y = 1: the neutral element."""


def scalar(n: int) -> bytes:
    return hash_to_scalar(b"test", n.to_bytes(4, "big"))


def test_card_points_are_forty_distinct_valid_points() -> None:
    assert len(set(CARD_POINTS)) == 40
    assert all(is_valid_point(p) for p in CARD_POINTS)
    assert [card_of(p) for p in CARD_POINTS] == list(range(40))
    assert card_of(BASE) is None


def test_libsodium_refuses_points_outside_the_subgroup() -> None:
    for bad in (SMALL_ORDER_POINT, IDENTITY, b"\xff" * 32):
        assert not is_valid_point(bad)
        with pytest.raises(GroupError):
            mul(scalar(1), bad)
    with pytest.raises(GroupError):
        base_mul(bytes(32))


def test_key_proof_binds_key_and_context() -> None:
    x = scalar(1)
    public = base_mul(x)
    proof = prove_key(x, public, b"round|party|signing key")
    assert check_key_proof(public, proof, b"round|party|signing key")
    assert not check_key_proof(public, proof, b"another context")
    assert not check_key_proof(base_mul(scalar(2)), proof, b"round|party|signing key")
    assert not check_key_proof(public, proof[:63], b"round|party|signing key")


def test_dleq_proof_accepts_the_truth_only() -> None:
    x = scalar(3)
    public = base_mul(x)
    u = CARD_POINTS[7]
    d = mul(x, u)
    proof = prove_dleq(x, public, u, d, b"ctx")
    assert check_dleq(public, u, d, proof, b"ctx")
    assert not check_dleq(public, u, CARD_POINTS[8], proof, b"ctx")
    assert not check_dleq(public, u, d, proof, b"ctx2")
    # A proof made for a wrong D (a party claiming another card) never verifies.
    wrong = mul(scalar(4), u)
    assert not check_dleq(public, u, wrong, prove_dleq(x, public, u, wrong, b"ctx"), b"ctx")
    assert not check_dleq(public, u, SMALL_ORDER_POINT, proof, b"ctx")


def plus_l(proof: bytes, half: int, times: int) -> bytes:
    """``proof`` with its ``e`` (half 0) or ``z`` (half 1) raised by ``times * l``."""
    scalars = [proof[:32], proof[32:]]
    scalars[half] = (int.from_bytes(scalars[half], "little") + times * ORDER).to_bytes(32, "little")
    return b"".join(scalars)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 1]), st.integers(1, 15))
def test_a_proof_with_a_scalar_not_below_l_fails(n: int, half: int, times: int) -> None:
    """9.2: ``e`` and ``z`` are below l. ``z + l`` (or ``e + l``) proves the same statement in
    other bytes, so both proofs refuse it: no one relaying a proof can change its bytes."""
    x = scalar(n)
    public = base_mul(x)
    key_proof = prove_key(x, public, b"kctx")
    if int.from_bytes(key_proof[32 * half :][:32], "little") + times * ORDER < 2**256:
        assert not check_key_proof(public, plus_l(key_proof, half, times), b"kctx")
    u = CARD_POINTS[n % 40]
    d = mul(x, u)
    dleq = prove_dleq(x, public, u, d, b"ctx")
    if int.from_bytes(dleq[32 * half :][:32], "little") + times * ORDER < 2**256:
        assert not check_dleq(public, u, d, plus_l(dleq, half, times), b"ctx")
    assert check_key_proof(public, key_proof, b"kctx")
    assert check_dleq(public, u, d, dleq, b"ctx")


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=6),
    st.randoms(use_true_random=False),
)
def test_shares_open_a_card_in_any_order(secrets: list[int], rnd: random.Random) -> None:
    """Opening is additive: every party's share comes off in any order, and one share
    missing leaves no card."""
    xs = [scalar(s) for s in secrets]
    joint = joint_key([base_mul(x) for x in xs])
    card = rnd.randrange(40)
    r = scalar(rnd.randrange(1 << 30))
    u, v = base_mul(r), add(CARD_POINTS[card], mul(r, joint))
    shares = [mul(x, u) for x in xs]
    rnd.shuffle(shares)
    point = v
    for share in shares:
        point = sub(point, share)
    assert card_of(point) == card
    if len(set(secrets)) > 1:
        partial = v
        for share in shares[1:]:
            partial = sub(partial, share)
        assert card_of(partial) is None


@settings(max_examples=6, deadline=None)
@given(st.integers(1, 4), st.randoms(use_true_random=False))
def test_every_card_appears_once_after_any_number_of_shuffles(
    parties: int, rnd: random.Random
) -> None:
    round_id = rnd.randbytes(16)
    secrets = [PartySecrets(rnd.randbytes(32), round_id, p) for p in range(parties)]
    joint = joint_key([s.public for s in secrets])
    deck = open_deck(joint)
    for s in secrets:
        deck = shuffle_deck(deck, s, joint)
    x_total = secrets[0].x
    for s in secrets[1:]:
        x_total = scalar_add(x_total, s.x)
    cards = [card_of(sub(v, mul(x_total, u))) for u, v in deck]
    assert sorted(cards) == list(range(40))
    assert len({c.u for c in deck}) == 40


def test_party_secrets_are_a_function_of_seed_round_and_party() -> None:
    a = PartySecrets(bytes(range(32)), bytes(16), 1)
    assert a.key == PartySecrets(bytes(range(32)), bytes(16), 1).key
    assert a.key != PartySecrets(bytes(range(32)), bytes(16), 2).key
    assert a.key != PartySecrets(bytes(range(32)), b"\x01" * 16, 1).key
    assert sorted(a.perm) == list(range(40))
    assert key_proof_ok(bytes(16), 1, a.key)
    assert not key_proof_ok(bytes(16), 2, a.key)
    with pytest.raises(ValueError, match="32 bytes"):
        PartySecrets(bytes(31), bytes(16), 0)
