"""Blind transcripts of version 8 (protocol.md 9.8: version 6's rounds and 6.1's ``caught_up``),
what a seat caught up by snapshot mid-match keeps: ``scopa-net verify``, the outsiders' blind
verifier written from protocol.md alone and the JavaScript one read them alike. The rounds the
seat did not see are named and not checked, the rounds after are replayed on what the snapshot
told, and a snapshot the rounds contradict, or a chain rewritten after the catch-up, is refused
from the file itself."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from blind_document_verifier import verify as outsiders_verify

from scopa_net.commands.main import main
from scopa_net.fair.blind.simulate import BlindMatch, simulate_blind_match
from scopa_net.fair.blind.verifier import BlindRoundByRoundVerifier, verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.commitments import (
    commit_message,
    fingerprint,
    reveal_message,
    rules_hash,
    sign,
)
from scopa_net.fair.errors import BrokenChainError, ScoreMismatchError
from scopa_net.fair.transcript import CaughtUp, Transcript
from scopa_net.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
REWRITTEN = bytes(range(32))
PARTLY = (
    "VERIFIED as far as this seat saw the match: the rounds said above as not checked, and the "
    "points before the rounds it followed, are the host's word"
)


@pytest.fixture(scope="module")
def whole() -> BlindMatch:
    """A blind match to 11 between two people and the host, played to its end in 4 rounds."""
    match = simulate_blind_match(RuleSet.of(2, 11), 5)
    assert [r.round_no for r in match.transcripts[0].rounds] == [1, 2, 3, 4]
    assert match.transcripts[0].result.sig is not None
    return match


def told_after(t: Transcript, n: int, *, dealer: bool = True) -> CaughtUp:
    """What an honest snapshot taken after round ``n`` told (the points and the next dealer
    its replay gives; ``dealer`` False: no dealer named, as after a snapshot of nothing dealt)."""
    v = BlindRoundByRoundVerifier(t.rules, t.host_key, t.seat)
    for r in t.rounds[:n]:
        assert v.add(r).ok
    given = v.match_result
    assert given is not None
    return CaughtUp(n, given[0], v.next_dealer if dealer else None)


def caught_up_file(t: Transcript, keep: tuple[int, ...], told: CaughtUp) -> Transcript:
    """Seat 0's file of version 8 holding the rounds numbered ``keep`` and ``told`` (its rounds
    version 6's: both seats a person's, as the seat's client knew them)."""
    people = ("person",) * t.rules.players
    kept = tuple(dataclasses.replace(r, seated=people) for r in t.rounds if r.round_no in keep)
    caught_up = dataclasses.replace(t, rounds=kept, caught_up=told, blind_version=6)
    return decode_any(caught_up.encode())


def rewritten_after_the_catch_up(match: BlindMatch, t: Transcript) -> Transcript:
    """The host links round 4 to another chain hash than round 3's, and signs it so: the
    round's commitment and its reveal, as a host that rewrote the chain does."""
    key = match.host_private_key
    r4 = dataclasses.replace(t.rounds[-1], prev=REWRITTEN)
    msg = commit_message(r4.round_id, 4, REWRITTEN, r4.digest, rules_hash(t.rules))
    r4 = dataclasses.replace(r4, sig=sign(key, msg))
    assert r4.seeds is not None
    assert r4.seeds[0] is not None
    reveal = reveal_message(r4.round_id, r4.seeds[0], r4.chain_hash())
    r4 = dataclasses.replace(r4, reveal_sig=sign(key, reveal))
    return dataclasses.replace(t, rounds=(*t.rounds[:-1], r4))


def verify_out(
    path: Path, match: BlindMatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str]]:
    pin = fingerprint(match.host_private_key.public_key().public_bytes_raw())
    capsys.readouterr()
    status = main(["verify", "--pin", pin, str(path)])
    return status, capsys.readouterr().out.splitlines()


def test_a_seat_caught_up_after_round_2_is_checked_as_far_as_it_saw(
    whole: BlindMatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It held round 1, did not see round 2, and followed rounds 3 and 4: each verifies, round
    3 replayed on the snapshot's points and dealer, and the file is VERIFIED as far as it saw."""
    t = whole.transcripts[0]
    told = told_after(t, 2)
    kept = caught_up_file(t, (1, 3, 4), told)
    assert kept.version == 8
    path = tmp_path / "caught-up.scopa"
    path.write_bytes(kept.encode())
    status, out = verify_out(path, whole, capsys)
    text = "\n".join(out)
    assert status == 1, text
    mine = " (this file's seat)" if told.dealer == 0 else ""
    dealer = f"seat {told.dealer}{mine} dealing"
    assert (
        "not checked: round 2: this seat did not see it (caught up by snapshot after round 2); "
        f"round 3 on is replayed on the match as the snapshot told it (scores "
        f"{list(told.scores)}, {dealer}): the host's word, not checked here"
    ) in out, text
    for n in (1, 3, 4):
        assert any(line.startswith(f"round {n}: verified (dealer seat ") for line in out), text
    assert out[-1] == PARTLY, text
    outsiders = outsiders_verify(path.read_bytes())
    assert [v.ok for v in outsiders.rounds] == [True, True, True]
    assert outsiders.partly, outsiders
    assert not outsiders.ok, outsiders


def test_a_client_started_afresh_takes_the_dealer_its_first_round_records(
    whole: BlindMatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that holds no round from the match's start and a ``caught_up`` naming no dealer:
    round 3 is replayed from the dealer it records (the host's word), round 4 from the
    rotation."""
    t = whole.transcripts[0]
    told = told_after(t, 2, dealer=False)
    path = tmp_path / "afresh.scopa"
    path.write_bytes(caught_up_file(t, (3, 4), told).encode())
    status, out = verify_out(path, whole, capsys)
    text = "\n".join(out)
    assert status == 1, text
    assert (
        "not checked: rounds 1 to 2: this seat did not see them (it sat down in round 2, or "
        "came back then having finished no round: the host's snapshot told it the match); "
        "round 3 on is replayed on the match as the snapshot told it (scores "
        f"{list(told.scores)}, its dealer the one it records): the host's word, not checked here"
    ) in out, text
    assert out[-1] == PARTLY, text
    assert outsiders_verify(path.read_bytes()).partly


def test_a_snapshot_the_rounds_she_checked_contradict_is_refused_from_the_file(
    whole: BlindMatch,
) -> None:
    """Rounds 1 and 2 held, and a snapshot after round 2 that adds 3 points to seat 0's side:
    the file holds the contradiction."""
    t = whole.transcripts[0]
    honest = told_after(t, 2)
    lied = CaughtUp(2, (honest.scores[0] + 3, honest.scores[1]), honest.dealer)
    data = caught_up_file(t, (1, 2, 3, 4), lied).encode()
    verdict = verify_any(decode_any(data))
    assert isinstance(verdict.caught_up_error, ScoreMismatchError), verdict.lines()
    assert not verdict.ok
    outsiders = outsiders_verify(data)
    assert outsiders.caught_up is not None
    assert outsiders.caught_up.startswith("score mismatch"), outsiders.caught_up
    assert not outsiders.partly


def test_a_chain_rewritten_after_the_catch_up_is_not_verified(
    whole: BlindMatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host links round 4 to another chain than round 3's, after the seat was caught up
    (round 3 the first round it followed): round 4 fails, and the file is NOT VERIFIED."""
    t = whole.transcripts[0]
    cheat = rewritten_after_the_catch_up(whole, caught_up_file(t, (1, 3, 4), told_after(t, 2)))
    path = tmp_path / "rewritten.scopa"
    path.write_bytes(cheat.encode())
    verdict = verify_any(decode_any(path.read_bytes()))
    (failed,) = [r for r in verdict.rounds if r.error is not None]
    assert failed.round_no == 4
    assert isinstance(failed.error, BrokenChainError)
    status, out = verify_out(path, whole, capsys)
    text = "\n".join(out)
    assert status == 1, text
    assert any(
        line.startswith(f"  round 4: FAILED: broken chain: prev {REWRITTEN.hex()}") for line in out
    ), text
    assert out[-1] == "NOT VERIFIED", text
    outsiders = outsiders_verify(path.read_bytes())
    assert [(v.round_no, v.ok) for v in outsiders.rounds] == [(1, True), (3, True), (4, False)]
    assert outsiders.rounds[-1].error is not None
    assert outsiders.rounds[-1].error.check == "broken chain"


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the JavaScript verifier cannot run")
def test_the_javascript_verifier_reads_version_8_files_alike(
    whole: BlindMatch, tmp_path: Path
) -> None:
    """Slow (seconds of BigInt curve arithmetic a round): run with --runslow."""
    t = whole.transcripts[0]
    honest = told_after(t, 2)
    lied = CaughtUp(2, (honest.scores[0] + 3, honest.scores[1]), honest.dealer)
    files = {
        "caught-up.scopa": caught_up_file(t, (1, 3, 4), honest),
        "afresh.scopa": caught_up_file(t, (3, 4), told_after(t, 2, dealer=False)),
        "lied.scopa": caught_up_file(t, (1, 2, 3, 4), lied),
        "rewritten.scopa": rewritten_after_the_catch_up(
            whole, caught_up_file(t, (1, 3, 4), honest)
        ),
    }
    for name, transcript in files.items():
        (tmp_path / name).write_bytes(transcript.encode())
    done = subprocess.run(
        [NODE, ROOT / "interop" / "js-verifier" / "verify.mjs", "--json"]
        + [str(tmp_path / name) for name in files],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    reports = {Path(r["file"]).name: r for r in map(json.loads, done.stdout.splitlines())}
    assert {name: r["status"] for name, r in reports.items()} == {
        "caught-up.scopa": "partly",
        "afresh.scopa": "partly",
        "lied.scopa": "failed",
        "rewritten.scopa": "failed",
    }, done.stderr
    assert reports["lied.scopa"]["caught_up"], reports["lied.scopa"]
    assert (reports["rewritten.scopa"]["round_no"], reports["rewritten.scopa"]["check"]) == (
        4,
        "broken chain",
    )
