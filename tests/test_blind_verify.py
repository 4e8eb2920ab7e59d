"""``scopa-net verify`` on blind transcripts (version 3): whole matches verify, every kind of
tampering is refused with the check that catches it, and two seats shown different tables
are reported."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from scopa_net.commands.verify import verify_files
from scopa_net.fair.blind.record import BlindPlay, BlindRound
from scopa_net.fair.blind.simulate import reseal_blind, simulate_blind_match
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.errors import TranscriptFormatError
from scopa_net.fair.transcript import Transcript, decode
from scopa_net.rules import RuleSet


@pytest.fixture(scope="module")
def match():
    """A whole blind match to 1 point between two people and the host."""
    return simulate_blind_match(RuleSet.of(2, 1), 5)


@pytest.fixture(scope="module")
def bots_match():
    """Two rounds at a 4-player table: seats 0 and 2 people, 1 and 3 computer players."""
    return simulate_blind_match(RuleSet.of(4), 8, people=(0, 2), max_rounds=2)


def test_a_blind_match_verifies_for_every_seat(match) -> None:
    assert match.match.over
    for t in match.transcripts:
        assert t.blind
        data = t.encode()
        assert decode_any(data) == t
        verdict = verify_any(t)
        assert verdict.ok, verdict.lines()
        assert all("blind: 3 parties" in r.note for r in verdict.rounds)


def test_a_version_2_reader_refuses_a_blind_file_by_name(match) -> None:
    with pytest.raises(TranscriptFormatError, match="expected version 2"):
        decode(match.transcripts[0].encode())


def test_computer_players_seats_are_owned_by_the_host(bots_match) -> None:
    for t in bots_match.transcripts:
        assert [r.people for r in t.rounds] == [(0, 2), (0, 2)]
        verdict = verify_any(t)
        assert all(r.ok for r in verdict.rounds), verdict.lines()
        assert not verdict.finished


def altered(t: Transcript, key, **changes) -> Transcript:
    first = dataclasses.replace(t.rounds[0], **changes)
    return reseal_blind(dataclasses.replace(t, rounds=(first, *t.rounds[1:])), key)


def first_failure(t: Transcript) -> str:
    verdict = verify_any(t)
    assert not verdict.ok
    return verdict.failures[0].args[0]


def test_tampered_blind_transcripts_are_refused_naming_the_fault(match) -> None:
    t, key = match.transcripts[0], match.host_private_key
    r: BlindRound = t.rounds[0]
    play = r.plays[0]
    other = next(c for c in range(40) if c != play.code & 63)
    lie = BlindPlay(play.seat, other, play.pos, play.proof)
    assert first_failure(altered(t, key, plays=(lie, *r.plays[1:]))).startswith("bad play proof")
    decks = list(r.decks)
    decks[1] = (decks[1][1], decks[1][0], *decks[1][2:])
    assert "bad party signature (party 1)" in first_failure(altered(t, key, decks=tuple(decks)))
    seeds = (r.seeds[0], bytes(32), *r.seeds[2:])
    assert "wrong secret (party 1)" in first_failure(altered(t, key, seeds=seeds))
    table = (dataclasses.replace(r.table[0], card=(r.table[0].card + 1) % 40), *r.table[1:])
    assert first_failure(altered(t, key, table=table)).startswith("no card")
    assert "score" in first_failure(altered(t, key, score=(9, 9)))
    # Not resealed: the host's commit signature catches a changed host key.
    keys = (r.keys[1], *r.keys[1:])
    unsigned = dataclasses.replace(t, rounds=(dataclasses.replace(r, keys=keys), *t.rounds[1:]))
    assert "signature on round 1's commitment" in first_failure(unsigned)


def test_a_changed_byte_is_refused(match, tmp_path: Path) -> None:
    data = bytearray(match.transcripts[0].encode())
    data[len(data) // 2] ^= 1
    path = tmp_path / "t.msgpack"
    path.write_bytes(bytes(data))
    lines: list[str] = []
    assert verify_files([path], lines.append) == 1
    assert lines[-1] == "NOT VERIFIED" or "invalid transcript" in lines[-1]


def test_the_command_verifies_blind_files_and_reports_two_tables(match, tmp_path: Path) -> None:
    a, b = (tmp_path / f"seat{s}.msgpack" for s in (0, 1))
    a.write_bytes(match.transcripts[0].encode())
    b.write_bytes(match.transcripts[1].encode())
    pin = fingerprint(match.transcripts[0].host_key)
    lines: list[str] = []
    assert verify_files([a, b], lines.append, pins={pin.replace("-", "")}) == 0, lines
    assert lines.count("VERIFIED") == 2
    assert not any("EQUIVOCATED" in line for line in lines)
    # The host shows seat 1 a round 1 without its first play, and signs that record too.
    t1 = match.transcripts[1]
    r = t1.rounds[0]
    t1 = altered(t1, match.host_private_key, score=r.score)  # same record, re-signed
    assert t1.rounds[0].chain_hash() == match.transcripts[0].rounds[0].chain_hash()
    other = dataclasses.replace(r, plays=r.plays[:1] + r.plays[2:])
    split = reseal_blind(
        dataclasses.replace(t1, rounds=(other, *t1.rounds[1:])), match.host_private_key
    )
    b.write_bytes(split.encode())
    lines = []
    assert verify_files([a, b], lines.append, pins={pin.replace("-", "")}) == 1
    assert any(line.startswith("HOST EQUIVOCATED: round ") for line in lines), lines
