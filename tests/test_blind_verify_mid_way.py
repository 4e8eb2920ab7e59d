"""``scopa-net verify`` on a blind file that begins mid-match: its seat was caught up by
snapshot, and a blind file records nothing of what the snapshot told (protocol.md 9.8). Its
first round links to a round the file does not hold: not a sign the file was changed, and said
so; its rounds must still link among themselves."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from blind_document_verifier import verify as outsiders_verify

from scopa_net.commands.main import main
from scopa_net.fair.blind.simulate import BlindMatch, simulate_blind_match
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet

CHANGED = "the record was changed after the round (or the file is damaged)"


@pytest.fixture(scope="module")
def four_rounds() -> BlindMatch:
    """Four rounds of a blind match between two people and the host, not finished."""
    return simulate_blind_match(RuleSet.of(2, 61), 3, max_rounds=4)


def _verify(
    match: BlindMatch, keep: tuple[int, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str]]:
    """Seat 0's file holding only the rounds numbered ``keep``, as verify reads it out."""
    t = match.transcripts[0]
    assert [r.round_no for r in t.rounds] == [1, 2, 3, 4]
    path = tmp_path / "seat0.scopa"
    kept = tuple(r for r in t.rounds if r.round_no in keep)
    data = dataclasses.replace(t, rounds=kept).encode()
    path.write_bytes(data)
    # An outsider's verifier, written from protocol.md 9.9 alone, agrees round by round.
    outsiders = outsiders_verify(data)
    assert [v.ok for v in outsiders.rounds] == [n != 4 or 3 in keep for n in keep]
    assert not outsiders.ok
    pin = fingerprint(match.host_private_key.public_key().public_bytes_raw())
    capsys.readouterr()
    status = main(["verify", "--pin", pin, str(path)])
    return status, capsys.readouterr().out.splitlines()


def test_a_blind_file_that_begins_after_a_catch_up_says_what_it_is(
    four_rounds: BlindMatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, round 2 read "the record was changed ... as if a round was taken out, added or
    altered", and every round after it failed as out of number."""
    status, out = _verify(four_rounds, (2, 3, 4), tmp_path, capsys)
    text = "\n".join(out)
    assert CHANGED not in text, text
    assert (
        "not checked: round 1: this seat did not see it (caught up by snapshot mid-match; a "
        "blind file does not record what the snapshot told), so this file's chain starts "
        "mid-way: round 2 links to a round the file does not hold, which is not a sign the "
        "file was changed; round 2 on is checked, dealt by the seat the host says, each "
        "round's points but not the match's total"
    ) in out, text
    for n in (2, 3, 4):
        assert any(line.startswith(f"round {n}: verified (dealer ") for line in out), text
    assert (
        "match result: not checked: the points before round 2, which this file does not "
        "hold, are not known here"
    ) in out, text
    # Four rounds of a match still in play: unfinished, not refused.
    assert out[-1].startswith("UNFINISHED: this file ends before the match's end"), text
    assert status == 1, text


def test_a_blind_file_that_begins_mid_way_must_still_link_among_its_rounds(
    four_rounds: BlindMatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Round 3 taken out of such a file: round 4 does not follow on from round 2, which the
    file holds, and that is a record changed."""
    status, out = _verify(four_rounds, (2, 4), tmp_path, capsys)
    text = "\n".join(out)
    assert f"round 4: {CHANGED}: this round does not follow on from the round before it" in (
        text
    ), text
    assert out[-1] == "NOT VERIFIED", text
    assert status == 1, text
