"""Transcripts of simulated matches verify; every kind of cheating or damage is caught by its
own check, with the error type that names it."""

from __future__ import annotations

import dataclasses
from functools import cache

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.fair.commitments import (
    ArrivalCheck,
    card_hash,
    card_salt,
    card_salts_and_hashes,
    joint_seed,
)
from scopa_net.fair.errors import (
    BadSignatureError,
    BrokenChainError,
    CardCheckError,
    CommitmentMismatchError,
    ExclusionMismatchError,
    FairnessError,
    HostSeedMismatchError,
    IllegalPlayRecordedError,
    MisroutedCardError,
    NotRevealedError,
    ReplayedRoundError,
    ScoreMismatchError,
    SwappedCardError,
    TranscriptFormatError,
    VoidMismatchError,
    WrongSaltError,
)
from scopa_net.fair.simulate import VOID_NO_REVEAL, SimulatedMatch, reseal, simulate_match
from scopa_net.fair.transcript import VOID_KINGS, Transcript, VoidNotice, decode
from scopa_net.fair.verifier import MatchVerdict, RoundByRoundVerifier, verify_transcript
from scopa_net.rules import RuleSet


@cache
def simulated(players: int = 2, seed: int = 7, variants: tuple[str, ...] = ()) -> SimulatedMatch:
    return simulate_match(RuleSet.of(players, 11, variants), seed)


def replace_round(t: Transcript, index: int, **changes: object) -> Transcript:
    rounds = list(t.rounds)
    rounds[index] = dataclasses.replace(rounds[index], **changes)
    return dataclasses.replace(t, rounds=tuple(rounds))


def only_failure(verdict: MatchVerdict, round_index: int, kind: type[FairnessError]) -> str:
    """Assert that the earlier rounds verified and this one failed with ``kind``."""
    assert all(v.ok for v in verdict.rounds[:round_index]), verdict.lines()
    error = verdict.rounds[round_index].error
    assert type(error) is kind, verdict.lines()
    assert not verdict.ok
    return str(error)


# --- honest matches verify ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "variants"),
    [
        (2, ()),
        (3, ("quindici",)),
        (4, ()),
        (4, ("scopone_scientifico", "asso_piglia_tutto", "napola")),
        (4, ("scopone", "re_bello")),
        (6, ("six_as_three_pairs", "cappotto")),
    ],
)
def test_every_seat_of_a_simulated_match_verifies(players: int, variants: tuple[str, ...]) -> None:
    sim = simulated(players, 11, variants)
    assert sim.match.over
    for seat, transcript in enumerate(sim.transcripts):
        assert transcript.seat == seat
        read = decode(transcript.encode())
        assert read == transcript
        verdict = verify_transcript(read)
        assert verdict.ok, verdict.lines()
        assert len(verdict.rounds) == len(transcript.rounds) == len(sim.match.results)
        assert verdict.lines()[-1].endswith(f"side {sim.match.winner} wins")


def test_a_seed_left_out_is_published_and_the_round_goes_on() -> None:
    sim = simulate_match(RuleSet.of(4), 3, no_reveal={1: 2, 3: 0})
    t = sim.transcripts[1]
    r = t.rounds[0]
    assert r.void is None
    assert r.plays
    assert r.excluded == (None, None, VOID_NO_REVEAL, None)
    assert r.seeds is not None
    assert r.seeds[2] is None
    assert r.commits is not None
    verdict = verify_transcript(t)
    assert verdict.ok, verdict.lines()
    assert "seeds left out: seat 2 committed but sent no seed in time" in verdict.rounds[0].note
    # An exclusion the record does not prove is refused: a seed that opens its commitment
    # cannot be "no_reveal", and a missing seed cannot pass as counted.
    seeds = list(r.seeds)
    seeds[2] = bytes(32)
    forged = reseal(replace_round(t, 0, seeds=tuple(seeds)), sim.host_private_key)
    assert not verify_transcript(forged).rounds[0].ok
    included = reseal(replace_round(t, 0, excluded=(None,) * 4), sim.host_private_key)
    only_failure(verify_transcript(included), 0, ExclusionMismatchError)


def test_a_void_deal_for_kings_verifies_and_cannot_be_faked() -> None:
    # Seed 513 happens to open round 1 with three kings on the table.
    sim = simulate_match(RuleSet.of(2, 1), 513)
    t = sim.transcripts[0]
    assert t.rounds[0].void == VoidNotice(VOID_KINGS, None)
    assert sum(c.card >= 36 for c in t.rounds[0].table) >= 3
    assert len(t.rounds[0].hand) == 3  # only the first deal happened
    assert verify_transcript(t).ok
    played = simulated().transcripts[0]
    faked = reseal(
        replace_round(played, 0, void=VoidNotice(VOID_KINGS, None), plays=(), score=None),
        simulated().host_private_key,
    )
    only_failure(verify_transcript(faked), 0, VoidMismatchError)


# --- the checks, one by one ---------------------------------------------------------------


def test_a_seat_catches_a_swapped_card_on_arrival() -> None:
    t = simulated().transcripts[0]
    r = t.rounds[0]
    assert r.seeds is not None
    check = ArrivalCheck(r.round_id, r.card_hashes, joint_seed(r.round_id, r.digest, r.seeds))
    good = r.hand[0]
    check.check(good.pos, good.card, good.salt)
    with pytest.raises(CardCheckError, match=f"deck position {good.pos}"):
        check.check(good.pos, (good.card + 1) % 40, good.salt)
    with pytest.raises(CardCheckError):
        check.check(good.pos, good.card, bytes(16))
    with pytest.raises(CardCheckError):
        check.check(r.hand[1].pos, good.card, good.salt)  # the right card at the wrong place


def test_tampered_host_seed() -> None:
    sim = simulated()
    t = replace_round(sim.transcripts[0], 1, host_seed=bytes(32))
    message = only_failure(
        verify_transcript(reseal(t, sim.host_private_key)), 1, HostSeedMismatchError
    )
    assert "revealed host seed 0000" in message


def test_swapped_hand_card() -> None:
    t = simulated().transcripts[0]
    hand = list(t.rounds[2].hand)
    hand[1] = dataclasses.replace(hand[1], card=(hand[1].card + 5) % 40)
    message = only_failure(
        verify_transcript(replace_round(t, 2, hand=tuple(hand))), 2, SwappedCardError
    )
    assert f"deck position {hand[1].pos}" in message


def test_swapped_table_card_signed_by_a_dishonest_host() -> None:
    sim = simulated()
    t = sim.transcripts[1]
    table = list(t.rounds[0].table)
    table[0] = dataclasses.replace(table[0], card=(table[0].card + 1) % 40)
    verdict = verify_transcript(
        reseal(replace_round(t, 0, table=tuple(table)), sim.host_private_key)
    )
    only_failure(verdict, 0, SwappedCardError)


def test_wrong_salt() -> None:
    t = simulated().transcripts[1]
    hand = list(t.rounds[0].hand)
    hand[0] = dataclasses.replace(hand[0], salt=bytes(16))
    only_failure(verify_transcript(replace_round(t, 0, hand=tuple(hand))), 0, WrongSaltError)


def test_misrouted_card() -> None:
    t = simulated().transcripts[0]
    other = simulated().transcripts[1].rounds[0].hand[0]
    hand = (*t.rounds[0].hand, other)  # a real card, with its real salt, but not this seat's
    verdict = verify_transcript(replace_round(t, 0, hand=hand))
    only_failure(verdict, 0, MisroutedCardError)


def test_altered_player_seed() -> None:
    sim = simulated()
    t = sim.transcripts[0]
    seeds = list(t.rounds[1].seeds or ())
    seeds[1] = bytes(32)
    verdict = verify_transcript(
        reseal(replace_round(t, 1, seeds=tuple(seeds)), sim.host_private_key)
    )
    assert "seat 1's revealed seed" in only_failure(verdict, 1, CommitmentMismatchError)


def test_replayed_round_id() -> None:
    sim = simulated()
    t = sim.transcripts[0]
    replayed = replace_round(t, 2, round_id=t.rounds[0].round_id)
    only_failure(verify_transcript(reseal(replayed, sim.host_private_key)), 2, ReplayedRoundError)


def test_broken_chain() -> None:
    t = simulated().transcripts[0]
    only_failure(verify_transcript(replace_round(t, 1, prev=bytes(32))), 1, BrokenChainError)
    dropped = dataclasses.replace(t, rounds=t.rounds[:1] + t.rounds[2:])
    assert "round number 3 where 2 was due" in only_failure(
        verify_transcript(dropped), 1, BrokenChainError
    )


def test_bad_signature() -> None:
    sim = simulated()
    t = sim.transcripts[0]
    sig = bytearray(t.rounds[1].sig)
    sig[10] ^= 0x40
    only_failure(verify_transcript(replace_round(t, 1, sig=bytes(sig))), 1, BadSignatureError)
    forged = reseal(t, Ed25519PrivateKey.from_private_bytes(bytes(32)))
    forged = dataclasses.replace(forged, host_key=t.host_key)  # signed by someone else
    only_failure(verify_transcript(forged), 0, BadSignatureError)


def test_plays_swapped_after_the_fact_are_caught() -> None:
    """Two plays swapped in a saved transcript: the replay refuses the first out of turn, and
    the next round's link to this one breaks (the chain hash covers the plays)."""
    t = simulated().transcripts[0]
    plays = list(t.rounds[0].plays)
    plays[0], plays[1] = plays[1], plays[0]
    verdict = verify_transcript(replace_round(t, 0, plays=tuple(plays)))
    message = only_failure(verdict, 0, IllegalPlayRecordedError)
    assert message.startswith(f"play 1 by seat {plays[0].seat}: ")
    assert message.endswith(f": it is not the turn of seat {plays[0].seat}")
    assert type(verdict.rounds[1].error) is BrokenChainError, verdict.lines()


def test_illegal_play() -> None:
    sim = simulated()
    t = sim.transcripts[0]
    plays = list(t.rounds[0].plays)
    plays[0] = dataclasses.replace(plays[0], seat=(plays[0].seat + 1) % 2)
    verdict = verify_transcript(
        reseal(replace_round(t, 0, plays=tuple(plays)), sim.host_private_key)
    )
    message = only_failure(verdict, 0, IllegalPlayRecordedError)
    assert message.startswith(f"play 1 by seat {plays[0].seat}: illegal play: ")
    assert message.endswith(f": it is not the turn of seat {plays[0].seat}")


def test_wrong_scores() -> None:
    sim = simulated()
    t = sim.transcripts[0]
    score = t.rounds[0].score or ()
    wrong = replace_round(t, 0, score=(score[0] + 1, *score[1:]))
    only_failure(verify_transcript(wrong), 0, ScoreMismatchError)
    result = dataclasses.replace(t.result, winner=1 - (t.result.winner or 0))
    verdict = verify_transcript(dataclasses.replace(t, result=result))
    assert all(v.ok for v in verdict.rounds)
    assert isinstance(verdict.result_error, BadSignatureError)  # the end is signed
    # Re-signed by the host itself, the end still has to be what the plays give.
    resigned = reseal(dataclasses.replace(t, result=result), sim.host_private_key)
    verdict = verify_transcript(resigned)
    assert all(v.ok for v in verdict.rounds)
    assert isinstance(verdict.result_error, ScoreMismatchError)


def test_an_unrevealed_round() -> None:
    t = simulated().transcripts[0]
    last = len(t.rounds) - 1
    verdict = verify_transcript(replace_round(t, last, host_seed=None, reveal_sig=None))
    only_failure(verdict, last, NotRevealedError)


def test_a_failed_round_does_not_hide_later_ones() -> None:
    t = simulated().transcripts[0]
    hand = (dataclasses.replace(t.rounds[0].hand[0], salt=bytes(16)), *t.rounds[0].hand[1:])
    verdict = verify_transcript(replace_round(t, 0, hand=hand))
    assert [v.ok for v in verdict.rounds] == [False] + [True] * (len(t.rounds) - 1)
    assert "play not replayed (round 1 failed)" in verdict.rounds[1].note


@pytest.mark.parametrize("damaged", [None, 0, 1])
def test_checking_round_by_round_gives_the_whole_transcripts_verdicts(damaged: int | None) -> None:
    """The witness checks each round once as it ends; each verdict is the one the whole
    transcript up to that round gets (a damaged round included, and the rounds after it)."""
    t = simulated(4, 3).transcripts[2]
    if damaged is not None:
        hand = t.rounds[damaged].hand
        t = replace_round(
            t, damaged, hand=(dataclasses.replace(hand[0], salt=bytes(16)), *hand[1:])
        )
    assert len(t.rounds) >= 3
    checker = RoundByRoundVerifier(t.rules, t.host_key, t.seat)
    for n, record in enumerate(t.rounds, 1):
        whole = verify_transcript(dataclasses.replace(t, rounds=t.rounds[:n])).rounds[-1]
        one = checker.add(record)
        assert (one.text(), one.fair_checked, type(one.error)) == (
            whole.text(),
            whole.fair_checked,
            type(whole.error),
        )
    assert checker.checked == len(t.rounds)


# --- the file -----------------------------------------------------------------------------


@cache
def small_file() -> bytes:
    sim = simulate_match(RuleSet.of(2, 1), 21, no_reveal={1: 0})
    return sim.transcripts[1].encode()


def test_the_small_file_verifies() -> None:
    assert verify_transcript(decode(small_file())).ok


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_changing_any_byte_of_a_saved_transcript_fails(data: st.DataObject) -> None:
    original = small_file()
    at = data.draw(st.integers(0, len(original) - 1), label="byte")
    delta = data.draw(st.integers(1, 255), label="xor")
    altered = original[:at] + bytes([original[at] ^ delta]) + original[at + 1 :]
    try:
        verdict = verify_transcript(decode(altered))
    except FairnessError:
        return
    assert not verdict.ok, f"byte {at} ^ {delta:#x} went unnoticed"


def test_truncated_padded_and_non_canonical_files_are_refused() -> None:
    data = small_file()
    for bad in (data[:-1], data + b"\x00", b"", b"\xc1"):
        with pytest.raises(TranscriptFormatError):
            decode(bad)
    # The same value spelt with a wider integer is refused, too: "version": 5 as uint8.
    wide = data.replace(b"\xa7version\x05", b"\xa7version\xcc\x05", 1)
    assert wide != data
    with pytest.raises(TranscriptFormatError, match="canonical"):
        decode(wide)


def test_decoding_names_the_bad_field() -> None:
    t = simulated().transcripts[0]
    wire = t.to_wire()
    wire["rounds"][0]["hand"][0][0] = 40

    with pytest.raises(TranscriptFormatError, match=r"rounds\[0\]\.hand\[0\]: expected an integer"):
        decode(msgpack.packb(wire, use_bin_type=True))


@settings(max_examples=50, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.binary(min_size=16, max_size=16),
    st.permutations(range(40)),
)
def test_the_hosts_40_salts_and_hashes_at_once_are_the_documents_one_by_one(
    host_seed: bytes, round_id: bytes, order: list[int]
) -> None:
    """HostDeck.derive hashes the start the 40 salts (and the 40 card hashes) share once;
    each must still be protocol.md's H(card-salt, ...) and H(card-hash, ...) of its place."""
    salts, hashes = card_salts_and_hashes(host_seed, round_id, order)
    assert salts == tuple(card_salt(host_seed, round_id, place) for place in range(40))
    assert hashes == tuple(card_hash(round_id, c, s) for c, s in zip(order, salts, strict=True))
