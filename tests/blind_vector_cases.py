"""protocol.md 9.11's ``deal-relayed`` and ``void-chain`` cases, computed with scopa_net from
9.11's fixed inputs.

``tests/test_blind_vectors.py`` checks that the document holds exactly these values. To write
the cases again (after a change to the transcript format, say), print their blocks and paste
each over its own in protocol.md::

    python tests/blind_vector_cases.py

The other cases of 9.11 are checked value by value by ``test_blind_vectors.py``; they have no
generator of their own.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import msgpack

from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.party import BlindParty, SignedShares
from scopa_net.fair.blind.record import (
    VOID_ABSENT,
    VOID_FAILED_CHECK,
    BlindRound,
    DealShares,
    blind_first_dealer,
    shares_message,
)
from scopa_net.fair.blind.verifier import check_relayed
from scopa_net.fair.hashing import u8
from scopa_net.fair.transcript import VoidNotice, slots_bytes
from scopa_net.rules import RuleSet

ROUND_ID = bytes(range(16))
"""9.11's round id, ``00 01 ... 0f``."""
PEOPLE = (1,)
"""blind-2: seat 1 a person (party 1), seat 0 a computer player (the host's, party 0)."""
DEAL = 1

HEX_LINE = 64
"""Hex digits per line of a value too long for one (as 8.1 writes its frames)."""


def party_seed(p: int) -> bytes:
    """9.11: party ``p``'s seed, the 32 bytes counting up from ``0x20 * (p + 1)``."""
    return bytes(range(0x20 * (p + 1), 0x20 * (p + 1) + 32))


def blind_2_parties() -> list[BlindParty]:
    """blind-2's two parties, keys exchanged and every deck shuffled, ready to deal."""
    rules = RuleSet.of(2)
    parties = [
        BlindParty(rules, ROUND_ID, p, PEOPLE, party_seed(p)) for p in range(len(PEOPLE) + 1)
    ]
    keys = [p.key for p in parties]
    keys_taken_and_decks_shuffled(parties, blind_first_dealer(ROUND_ID, keys, rules.players))
    return parties


def keys_taken_and_decks_shuffled(parties: list[BlindParty], dealer: int) -> None:
    """Every party takes every key and starts the round dealt by ``dealer``; then each
    shuffles in turn, every other party taking its signed deck (9.3, 9.4)."""
    keys = [p.key for p in parties]
    for p in parties:
        p.take_keys(keys)
        p.start(dealer)
    for q in parties:
        signed = q.my_deck()
        for p in parties:
            if p is not q:
                p.take_deck(q.party, signed.deck, signed.proof, signed.sig)


def verdict(error: BlindCheckError) -> str:
    """A verdict as 9.11 writes it: the check, then the party it names, or ``no party``."""
    named = "no party" if error.party is None else f"party {error.party}"
    return f"{error.check}, {named}"


def relayed_verdict(parties: list[BlindParty], deal: DealShares) -> str:
    """What 9.9 step 5 concludes from ``deal``'s ``relayed`` in seat 1's record."""
    record = parties[1].public_round()
    due = len(deal.shares[0] or ())
    try:
        check_relayed(record, DEAL, deal, due)
    except BlindCheckError as exc:
        return verdict(exc)
    raise AssertionError("a deal with relayed shares always fails 9.9 step 5")


def host_relays_other_shares() -> tuple[list[BlindParty], SignedShares, str]:
    """blind-2's parties once the host's ``blind_deal`` of deal 1 relayed other shares of its
    own (its ``blind_open`` ones with the first two swapped, signed again) than its
    ``blind_open`` carried; the ``blind_open`` shares; and seat 1's verdict on arrival."""
    parties = blind_2_parties()
    host, seat = parties
    opened = host.open_deal(DEAL)
    other = (opened.shares[1], opened.shares[0], *opened.shares[2:])
    other_sig = host.secrets.sign(shares_message(ROUND_ID, 0, DEAL, other))
    mine = seat.open_deal(DEAL)
    seat.take_open(DEAL, opened.shares, opened.sig)
    relay = [SignedShares(other, other_sig), mine]
    try:
        seat.take_deal(DEAL, [s.shares for s in relay], [s.sig for s in relay])
    except BlindCheckError as exc:
        stopped = verdict(exc)
    else:
        raise AssertionError("seat 1 took the host's other shares without stopping")
    assert seat.deals[DEAL - 1].relayed == (other, other_sig), "seat 1 keeps the other shares"
    return parties, opened, stopped


def deal_relayed_case() -> dict[str, str]:
    """Deal 1 of :func:`host_relays_other_shares` as seat 1 records it: the deal's map (9.8),
    field 8 of the chain hash, seat 1's verdict on arrival and 9.9's on the deal; and 9.9's
    on the same map whose ``relayed`` is the ``blind_open`` shares."""
    parties, opened, stopped = host_relays_other_shares()
    deal = parties[1].deals[DEAL - 1]
    assert deal.relayed is not None
    unchanged = DealShares(deal.shares, deal.sigs, (opened.shares, opened.sig))
    return {
        "case": "deal-relayed",
        "deal": str(DEAL),
        "relayed.sig": deal.relayed[1].hex(),
        "deal_map": msgpack.packb(deal.to_wire(), use_bin_type=True).hex(),
        "deals_field_hash": hashlib.sha256(deal.chain_bytes()).hexdigest(),
        "stopped": stopped,
        "verdict": relayed_verdict(parties, deal),
        "verdict.unchanged": relayed_verdict(parties, unchanged),
    }


def dealt_round(parties: list[BlindParty]) -> BlindRound:
    """blind-2's round 1 as the host's party records it once deal 1 is relayed (every party's
    shares, the table opened) and nothing played: ``prev`` the zero hash, no void, no seeds."""
    signed = [p.open_deal(DEAL) for p in parties]
    parties[1].take_open(DEAL, signed[0].shares, signed[0].sig)
    for p in parties:
        p.take_deal(DEAL, [s.shares for s in signed], [s.sig for s in signed])
    return parties[0].public_round(round_no=1, prev=bytes(32))


def void_chain_case() -> dict[str, str]:
    """Three void rounds of blind-2, round 1, their chain hashes (9.8): void ``absent`` naming
    seat 1 before every key came (the host's key alone, no dealer, nothing dealt); the same
    once deal 1 was relayed; and void ``failed_check`` by the host's own party (offender nil)
    once deal 1 was relayed, every seed revealed. Fields 11 to 13 of the first are given apart."""
    parties = blind_2_parties()
    dealt = dealt_round(parties)
    seed0, seed1 = party_seed(0), party_seed(1)
    absent = replace(dealt, void=VoidNotice(VOID_ABSENT, 1), seeds=(seed0, None))
    before_keys = replace(
        absent,
        dealer=None,
        keys=absent.keys[:1],
        decks=(),
        deck_proofs=(),
        deck_sigs=(),
        deals=(),
        hand=(),
        table=(),
        plays=(),
    )
    host_stopped = replace(dealt, void=VoidNotice(VOID_FAILED_CHECK, None), seeds=(seed0, seed1))
    assert absent.void is not None
    return {
        "case": "void-chain",
        "field_11.absent": absent.void.reason.encode("utf-8").hex(),
        "field_12.absent": u8(1).hex(),
        "field_13.absent": slots_bytes(absent.seeds).hex(),
        "chain.absent_before_keys": before_keys.chain_hash().hex(),
        "chain.absent_after_deal_1": absent.chain_hash().hex(),
        "chain.failed_check_host_after_deal_1": host_stopped.chain_hash().hex(),
    }


def vectors_block(case: dict[str, str]) -> str:
    """``case`` as a block of 9.11: one ``key: value`` a line, a value longer than two lines'
    worth of hex broken every 64 digits, each further line indented under the first."""
    lines = []
    for key, value in case.items():
        head = f"{key}: "
        if len(value) <= 2 * HEX_LINE:
            lines.append(head + value)
            continue
        chunks = [value[i : i + HEX_LINE] for i in range(0, len(value), HEX_LINE)]
        lines.append(head + chunks[0])
        lines += [" " * len(head) + chunk for chunk in chunks[1:]]
    return "```vectors\n" + "\n".join(lines) + "\n```"


if __name__ == "__main__":
    print(vectors_block(deal_relayed_case()))
    print()
    print(vectors_block(void_chain_case()))
