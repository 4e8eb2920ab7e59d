"""A seat caught up by snapshot twice, that followed rounds between the two catch-ups (protocol.md
6.1: ``caught_up`` an array, one entry a catch-up), at an ordinary table and a blind one: its
file keeps those rounds with what the first snapshot told, so ``scopa-net verify`` checks them
too. Before, the file kept only the rounds before the first catch-up and after the last, and
a seat that stopped before the next round opened had only its rounds from the match's start
checked."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path

import msgpack
import pytest
from blind_document_verifier import verify as outsiders_verify
from blind_driver import BlindDriver, new_blind_table
from caught_up_files import ada_and_the_computer
from table_driver import CatchesUp

from scopa_net.blind_witness import BlindWitness
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.errors import TranscriptFormatError
from scopa_net.rules import RuleSet
from scopa_net.witness import DealWitness


def caught_up_twice(driver: CatchesUp) -> DealWitness | BlindWitness:
    """Ada's witness (seat 0) caught up by a snapshot of the present while round 2 is played,
    then again while round 4 is played, reading her seat's events between; the match closes
    as round 4 ends, before another round opens. (At a blind table a copy of her witness is
    caught up, her party's seeds kept as a client keeps them: the driver's plays the seat.)"""
    seeds: dict[bytes, bytes] = {}
    if isinstance(driver, BlindDriver):
        driver.witnesses[0].on_seed = seeds.__setitem__
    driver.open_into_play(2)
    first = driver.table.snapshot(0)
    witness = copy.deepcopy(driver.witnesses[0])
    if isinstance(witness, BlindWitness):
        witness.seed_for = seeds.get
    witness.resynced(first)
    driver.open_into_play(4)
    second = driver.table.snapshot(0)
    for event in driver.table.seats[0].log:
        if first.seq < event.seq <= second.seq:
            witness.observe(event)
    witness.resynced(second)
    driver.run_until_round_over(4)
    driver.read_after(0, witness, second)
    return witness


@pytest.mark.parametrize("blind", [False, True], ids=["ordinary", "blind"])
def test_the_rounds_between_two_catch_ups_are_kept_and_checked(blind: bool) -> None:
    if blind:
        driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    else:
        driver = ada_and_the_computer()
    witness = caught_up_twice(driver)
    assert witness.keeps_transcript
    data = witness.transcript().encode()
    transcript = decode_any(data)
    assert transcript.version == (10 if blind else 9)  # (7 and 8 hold one map, 6.1)
    assert [r.round_no for r in transcript.rounds] == [1, 3]
    assert [told.round_no for told in transcript.caught_ups] == [2, 4]
    verdict = verify_any(transcript)
    assert [(r.round_no, r.ok) for r in verdict.rounds] == [(1, True), (3, True)], verdict.lines()
    assert verdict.rounds[1].note.startswith("verified (dealer seat"), verdict.lines()
    unseen = verdict.unseen.splitlines()
    assert unseen[0].startswith(
        "not checked: round 2: this seat did not see it (caught up by snapshot after round 2); "
        "round 3 on is replayed on the match as the snapshot told it"
    ), unseen
    assert unseen[1] == (
        "not checked: round 4 and any after: this seat was caught up by snapshot after round 4 "
        "and followed no round since"
    ), unseen
    assert verdict.result_error is None, verdict.lines()
    assert not verdict.finished  # (the match closed: no signed end)
    if blind:
        outsiders = outsiders_verify(data)
        assert [(v.round_no, v.ok) for v in outsiders.rounds] == [(1, True), (3, True)]
        assert outsiders.result == "unfinished", outsiders


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the JavaScript verifier cannot run")
@pytest.mark.parametrize(
    "blind",
    [False, pytest.param(True, marks=pytest.mark.slow)],
    ids=["ordinary", "blind (slow: run with --runslow)"],
)
def test_the_javascript_verifier_reads_a_file_caught_up_twice_alike(
    blind: bool, tmp_path: Path
) -> None:
    """The outsiders' JavaScript verifier (interop/js-verifier, from protocol.md alone) checks
    round 3, between the two catch-ups, and finds the file unfinished, as ours does."""
    if blind:
        driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    else:
        driver = ada_and_the_computer()
    path = tmp_path / "twice.scopa"
    path.write_bytes(caught_up_twice(driver).transcript().encode())
    verifier = Path(__file__).resolve().parent.parent / "interop" / "js-verifier" / "verify.mjs"
    done = subprocess.run(
        [NODE, verifier, "--json", path], check=False, capture_output=True, text=True, timeout=300
    )
    (report,) = map(json.loads, done.stdout.splitlines())
    assert report["status"] == "unfinished", (report, done.stderr)
    assert [(r["round_no"], r["verdict"]) for r in report["rounds"]] == [
        (1, "verified"),
        (3, "verified"),
    ], report


@pytest.mark.parametrize("blind", [False, True], ids=["ordinary", "blind"])
def test_an_array_caught_up_has_a_version_of_its_own(blind: bool) -> None:
    """protocol.md 6.1: ``caught_up`` is one map in versions 7 and 8, an array of two or more
    in 9 and 10, so that a reader of 7 and 8 alone says a file of two catch-ups is another
    version's, not that it is damaged. Each form under the other's version is not a
    transcript."""
    if blind:
        driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    else:
        driver = ada_and_the_computer()
    data = caught_up_twice(driver).transcript().encode()
    twice, once = (10, 8) if blind else (9, 7)
    head = b"\xa7version"
    assert head + bytes([twice]) in data
    with pytest.raises(TranscriptFormatError, match="caught_up: expected a map"):
        decode_any(data.replace(head + bytes([twice]), head + bytes([once]), 1))
    value = msgpack.unpackb(data, raw=False)
    value["caught_up"], value["version"] = value["caught_up"][-1], once
    one = msgpack.packb(value, use_bin_type=True)
    assert decode_any(one).version == once
    with pytest.raises(TranscriptFormatError, match="caught_up: expected an array of two"):
        decode_any(one.replace(head + bytes([once]), head + bytes([twice]), 1))
