"""protocol.md's test vectors, read from the document itself and checked against the code.

Only the fair-deal vectors (section 8.2) live here so far: each fenced ``vectors`` block is one
case of ``key: value`` lines, recomputed from its inputs.
"""

from __future__ import annotations

import dataclasses

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from document_hashes import cases as vector_cases
from helpers import protocol_section

from scopa_net.dealing import TABLE, seat_positions
from scopa_net.fair.commitments import (
    HostDeck,
    commit_message,
    counted_seats,
    end_message,
    fingerprint,
    joint_seed,
    public_key_bytes,
    receipt_message,
    rules_hash,
    seat_commitment,
)
from scopa_net.fair.hashing import LABEL_DECK_SHUFFLE, TAG_RULES, tagged_hash, u8
from scopa_net.fair.shuffle import RandomStream, deck_permutation, first_dealer
from scopa_net.fair.transcript import DealtCard, PlayEntry, RoundRecord
from scopa_net.rules import RuleSet


def fair_vector_cases() -> dict[str, dict[str, str]]:
    return vector_cases(protocol_section("### 8.2 Fair deals"))


CASES = fair_vector_cases()


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split()]


def test_the_document_has_the_fair_deal_cases() -> None:
    assert {
        "host",
        "signature",
        "deal-2",
        "deal-4",
        "receipt",
        "exclusion-3",
        "chain-plays",
        "end",
        "rules-sorted",
        "end-no-winner",
    } <= set(CASES)


def test_host_commitment_vectors() -> None:
    case = CASES["host"]
    deck = HostDeck.derive(bytes.fromhex(case["host_seed"]), bytes.fromhex(case["round_id"]))
    assert list(deck.order) == ints(case["host_order"])
    checked = 0
    for key, value in case.items():
        kind, _, place = key.partition(".")
        if kind == "salt":
            assert deck.salts[int(place)].hex() == value
            checked += 1
        elif kind == "card_hash":
            assert deck.card_hashes[int(place)].hex() == value
            checked += 1
    assert checked >= 4
    assert deck.digest.hex() == case["digest"]


def test_signature_vectors() -> None:
    case = CASES["signature"]
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(case["host_key_seed"]))
    public = public_key_bytes(key)
    assert public.hex() == case["host_public_key"]
    assert fingerprint(public) == case["fingerprint"]
    rules = RuleSet.of(int(case["players"]), int(case["target"]), case["variants"].split())
    assert rules_hash(rules).hex() == case["rules_hash"]
    message = commit_message(
        bytes.fromhex(case["round_id"]),
        int(case["round_no"]),
        bytes.fromhex(case["prev"]),
        bytes.fromhex(case["digest"]),
        rules_hash(rules),
    )
    # Ed25519 signatures are deterministic: the same key and message give the same bytes.
    assert key.sign(message).hex() == case["commit_sig"]


def test_rules_hash_sorts_the_variants_bytewise() -> None:
    case = CASES["rules-sorted"]
    given = case["variants"].split()
    assert sorted(v.encode("ascii") for v in given) == [v.encode() for v in case["sorted"].split()]
    rules = RuleSet.of(int(case["players"]), int(case["target"]), given)
    assert rules_hash(rules).hex() == case["rules_hash"]
    in_given_order = tagged_hash(TAG_RULES, u8(4), u8(21), *(v.encode("ascii") for v in given))
    assert in_given_order.hex() != case["rules_hash"]  # the order given is not the order hashed


@pytest.mark.parametrize("name", ["deal-2", "deal-4"])
def test_deal_vectors(name: str) -> None:
    case = CASES[name]
    players = int(case["players"])
    rules = RuleSet.of(players)
    round_id = bytes.fromhex(case["round_id"])
    host = HostDeck.derive(bytes.fromhex(case["host_seed"]), round_id)
    seeds = [bytes.fromhex(case[f"seed.{s}"]) for s in range(players)]
    for s, seed in enumerate(seeds):
        assert seat_commitment(round_id, s, seed).hex() == case[f"commit.{s}"]
    joint = joint_seed(round_id, host.digest, seeds)
    assert joint.hex() == case["joint_seed"]
    stream = RandomStream(joint, LABEL_DECK_SHUFFLE, round_id)
    words = case["stream_words"].split()
    assert [f"{stream.word():08x}" for _ in words] == words
    perm = deck_permutation(joint, round_id)
    assert list(perm) == ints(case["permutation"])
    deck = host.deck(perm)
    assert list(deck) == ints(case["deck"])
    dealer = first_dealer(joint, round_id, players)
    assert dealer == int(case["first_dealer"])
    for target, key in [*((s, f"hand.{s}") for s in range(players)), (TABLE, "table")]:
        positions = seat_positions(rules, dealer, target, first_deal_only=False)
        assert [deck[p] for p in positions] == ints(case[key])


def key_of(case: dict[str, str]) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(case["host_key_seed"]))


def test_receipt_vectors() -> None:
    case = CASES["receipt"]
    key = key_of(case)
    round_id, seat = bytes.fromhex(case["round_id"]), int(case["seat"])
    seed_hash = seat_commitment(round_id, seat, bytes.fromhex(case["seed"]))
    assert seed_hash.hex() == case["seed_hash"] == CASES["deal-2"]["commit.1"]
    message = receipt_message(round_id, seat, seed_hash)
    assert message.hex() == case["receipt_msg"]
    assert key.sign(message).hex() == case["receipt_sig"]
    bad_hash = seat_commitment(round_id, seat, bytes.fromhex(case["bad_seed"]))
    assert bad_hash.hex() == case["bad_seed_hash"]
    assert key.sign(receipt_message(round_id, seat, bad_hash)).hex() == case["bad_receipt_sig"]


def nil_or_hex(text: str) -> bytes | None:
    return None if text == "nil" else bytes.fromhex(text)


def test_exclusion_vectors() -> None:
    case = CASES["exclusion-3"]
    players = int(case["players"])
    rules = RuleSet.of(players)
    round_id = bytes.fromhex(case["round_id"])
    host = HostDeck.derive(bytes.fromhex(case["host_seed"]), round_id)
    commits = [bytes.fromhex(case[f"commit.{s}"]) for s in range(players)]
    seeds = [nil_or_hex(case[f"seed.{s}"]) for s in range(players)]
    excluded = [None if x == "-" else x for x in case["excluded"].split()]
    counted = counted_seats(round_id, commits, seeds, excluded)
    assert list(counted) == ints(case["counted"])
    joint = joint_seed(round_id, host.digest, [seeds[s] for s in counted])
    assert joint.hex() == case["joint_seed"]
    assert joint_seed(round_id, host.digest, []).hex() == case["joint_seed_no_player"]
    perm = deck_permutation(joint, round_id)
    assert list(perm) == ints(case["permutation"])
    deck = host.deck(perm)
    assert list(deck) == ints(case["deck"])
    dealer = first_dealer(joint, round_id, players)
    assert dealer == int(case["first_dealer"])
    for target, key in [*((s, f"hand.{s}") for s in range(players)), (TABLE, "table")]:
        assert [deck[p] for p in seat_positions(rules, dealer, target)] == ints(case[key])
    table = tuple(DealtCard(p, *host.dealt(perm, p)) for p in seat_positions(rules, dealer, TABLE))
    record = RoundRecord.opened(
        round_id=round_id,
        round_no=1,
        prev=bytes(32),
        card_hashes=host.card_hashes,
        digest=host.digest,
        sig=bytes(64),
    )
    record = dataclasses.replace(
        record,
        commits=tuple(commits),
        seeds=tuple(seeds),
        excluded=tuple(excluded),
        table=table,
        host_seed=host.host_seed,
    )
    assert record.chain_hash().hex() == case["chain"]
    # The same round after two plays: `plays` is one field of the chain hash (5.7).
    played = CASES["chain-plays"]
    plays = []
    for entry in played["plays"].split():
        seat, code, pos, salt = entry.split("/")
        card, committed_salt = host.dealt(perm, int(pos))
        assert int(code) & 63 == card  # each play's card and salt are the round's own
        assert salt == committed_salt.hex()
        plays.append(PlayEntry(int(seat), int(code), int(pos), bytes.fromhex(salt)))
    with_plays = dataclasses.replace(record, plays=tuple(plays))
    assert with_plays.chain_hash().hex() == played["chain"]


def test_end_vectors() -> None:
    case = CASES["end"]
    message = end_message(bytes.fromhex(case["chain"]), ints(case["scores"]), int(case["winner"]))
    assert message.hex() == case["end_msg"]
    assert key_of(case).sign(message).hex() == case["end_sig"]
    assert case["chain"] == CASES["exclusion-3"]["chain"]


def test_end_vector_without_a_winner() -> None:
    case = CASES["end-no-winner"]
    assert case["winner"] == "nil"
    message = end_message(bytes.fromhex(case["chain"]), ints(case["scores"]), None)
    assert message.hex() == case["end_msg"]
    assert message.endswith(bytes(4))  # lp() of nothing: the winner field is empty
    assert key_of(case).sign(message).hex() == case["end_sig"]
