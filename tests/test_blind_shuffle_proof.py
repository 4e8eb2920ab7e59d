"""The proof of a shuffle (protocol.md 9.4): an honest shuffle proves, nothing else does."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.fair.blind.cards import CARD_POINTS
from scopa_net.fair.blind.deck import Ciphertext, Deck, joint_key, open_deck, shuffle_deck
from scopa_net.fair.blind.group import ORDER, add, base_mul, hash_to_scalar, is_valid_point, mul
from scopa_net.fair.blind.party_secrets import PartySecrets
from scopa_net.fair.blind.shuffle_proof import (
    GENERATORS,
    SHUFFLE_PROOF_SIZE,
    ShuffleClaim,
    check_shuffle_proof,
    prove_shuffle,
)

ROUND = bytes(range(16))


@cache
def two_shuffles() -> tuple[PartySecrets, PartySecrets, bytes, Deck, Deck]:
    """The host's shuffle of the open deck, then one person's shuffle of that."""
    host = PartySecrets(bytes(range(32, 64)), ROUND, 0)
    person = PartySecrets(bytes(range(64, 96)), ROUND, 1)
    joint = joint_key([host.public, person.public])
    first = shuffle_deck(None, host, joint)
    return host, person, joint, first, shuffle_deck(first, person, joint)


@cache
def person_proof() -> bytes:
    _, person, joint, first, second = two_shuffles()
    return prove_shuffle(person, ShuffleClaim(ROUND, 1, joint, first, second))


def fresh_deck(joint: bytes, order: list[int]) -> Deck:
    """A deck of the prover's own making: every card encrypted afresh, in an order it knows."""
    out = []
    for k, card in enumerate(order):
        r = hash_to_scalar(b"test/fresh", bytes([k]))
        out.append(Ciphertext(base_mul(r), add(CARD_POINTS[card], mul(r, joint))))
    return tuple(out)


def test_generators_are_41_distinct_points_of_the_group() -> None:
    assert len(set(GENERATORS)) == 41
    assert all(is_valid_point(g) for g in GENERATORS)
    assert not set(GENERATORS) & set(CARD_POINTS)


def test_each_honest_shuffle_proves_its_deck() -> None:
    host, _, joint, first, second = two_shuffles()
    host_proof = prove_shuffle(host, ShuffleClaim(ROUND, 0, joint, open_deck(joint), first))
    assert len(host_proof) == SHUFFLE_PROOF_SIZE == 5280
    assert check_shuffle_proof(ShuffleClaim(ROUND, 0, joint, open_deck(joint), first), host_proof)
    assert check_shuffle_proof(ShuffleClaim(ROUND, 1, joint, first, second), person_proof())


def test_the_proof_is_a_function_of_seed_and_input() -> None:
    _, person, joint, first, second = two_shuffles()
    assert prove_shuffle(person, ShuffleClaim(ROUND, 1, joint, first, second)) == person_proof()
    # Another input deck: the same permutation, but every nonce differs, so no value of
    # one proof can be combined with the other's to learn the permutation.
    other_in = open_deck(joint)
    other = prove_shuffle(
        person, ShuffleClaim(ROUND, 1, joint, other_in, shuffle_deck(other_in, person, joint))
    )
    words = {person_proof()[k : k + 32] for k in range(0, SHUFFLE_PROOF_SIZE, 32)}
    assert not words & {other[k : k + 32] for k in range(0, SHUFFLE_PROOF_SIZE, 32)}


def test_a_deck_of_the_provers_own_making_cannot_be_proved() -> None:
    """The attack the proof exists for: the last shuffler sends a fresh deck it knows."""
    _, person, joint, first, _ = two_shuffles()
    made = fresh_deck(joint, list(range(40)))
    assert not check_shuffle_proof(ShuffleClaim(ROUND, 1, joint, first, made), person_proof())
    assert not check_shuffle_proof(
        ShuffleClaim(ROUND, 1, joint, first, made),
        prove_shuffle(person, ShuffleClaim(ROUND, 1, joint, first, made)),
    )


def test_a_card_replaced_or_two_cards_swapped_breaks_the_proof() -> None:
    _, _, joint, first, second = two_shuffles()
    swapped = list(second)
    swapped[0], swapped[39] = swapped[39], swapped[0]
    assert not check_shuffle_proof(
        ShuffleClaim(ROUND, 1, joint, first, tuple(swapped)), person_proof()
    )
    replaced = list(second)
    replaced[7] = fresh_deck(joint, [7])[0]
    assert not check_shuffle_proof(
        ShuffleClaim(ROUND, 1, joint, first, tuple(replaced)), person_proof()
    )


def test_the_proof_is_bound_to_round_party_key_and_input() -> None:
    _, _, joint, first, second = two_shuffles()
    proof = person_proof()
    assert not check_shuffle_proof(ShuffleClaim(bytes(16), 1, joint, first, second), proof)
    assert not check_shuffle_proof(ShuffleClaim(ROUND, 2, joint, first, second), proof)
    other_key = base_mul(hash_to_scalar(b"test/other-key"))
    assert not check_shuffle_proof(ShuffleClaim(ROUND, 1, other_key, first, second), proof)
    assert not check_shuffle_proof(ShuffleClaim(ROUND, 1, joint, open_deck(joint), second), proof)


@pytest.mark.parametrize("size", [0, 32, SHUFFLE_PROOF_SIZE - 1, SHUFFLE_PROOF_SIZE + 1])
def test_a_proof_of_the_wrong_size_fails(size: int) -> None:
    _, _, joint, first, second = two_shuffles()
    assert not check_shuffle_proof(
        ShuffleClaim(ROUND, 1, joint, first, second), (person_proof() + b"\x00")[:size]
    )


def test_a_scalar_not_below_l_fails_so_a_proof_has_one_encoding() -> None:
    """``s + l`` would satisfy every equation: the proof must be refused, not re-encoded."""
    _, _, joint, first, second = two_shuffles()
    proof = person_proof()
    at = 80 * 32 + 32  # s1
    s1 = int.from_bytes(proof[at : at + 32], "little")
    if s1 + ORDER < 2**256:
        bigger = proof[:at] + (s1 + ORDER).to_bytes(32, "little") + proof[at + 32 :]
        assert not check_shuffle_proof(ShuffleClaim(ROUND, 1, joint, first, second), bigger)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, SHUFFLE_PROOF_SIZE * 8 - 1))
def test_any_bit_of_the_proof_flipped_breaks_it(bit: int) -> None:
    _, _, joint, first, second = two_shuffles()
    proof = bytearray(person_proof())
    proof[bit // 8] ^= 1 << (bit % 8)
    assert not check_shuffle_proof(ShuffleClaim(ROUND, 1, joint, first, second), bytes(proof))
