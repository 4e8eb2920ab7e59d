"""The transcript of a seat caught up by snapshot that could not take its own chain up again
(protocol.md 5.10, 6.1 version 7): it keeps the rounds it followed from the match's start, the
rounds it followed since the snapshot, and what the snapshot told of the match between
(``caught_up``, the host's word). ``verify`` checks the rounds held, says which it could not,
and refuses a file whose snapshot contradicts the rounds the seat checked itself."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from caught_up_files import (
    ada_and_the_computer,
    caught_up_after_the_end,
    caught_up_in_round_2,
    caught_up_in_the_last_round,
    caught_up_while_playing,
    stopped_by_5_points_added,
)
from table_driver import KEY

from scopa_net.commands.main import main
from scopa_net.commands.verify_verdict import PARTLY_VERIFIED, SNAPSHOT_CONTRADICTED
from scopa_net.fair.commitments import fingerprint, public_key_bytes
from scopa_net.fair.errors import ScoreMismatchError
from scopa_net.fair.transcript import CAUGHT_UP_FORMAT_VERSION, CaughtUp, decode
from scopa_net.fair.verifier import verify_transcript


def test_a_snapshot_that_contradicts_a_round_she_checked_is_refused_from_the_evidence() -> None:
    """Ada checked round 1; the host adds 5 points to its side and catches her up at round 2's
    start. Her witness stops on the snapshot (as before); her evidence now records what the
    snapshot told, so the file itself holds the contradiction and does not verify (before, it
    held round 1 alone, which verifies, and ``verify`` said UNFINISHED)."""
    witness, error, honest, dealer = stopped_by_5_points_added()
    evidence = decode(witness.evidence(error).encode())
    assert evidence.version == CAUGHT_UP_FORMAT_VERSION
    told = [honest[0], honest[1] + 5]
    assert evidence.caught_up == CaughtUp(1, tuple(told), dealer)
    verdict = verify_transcript(evidence)
    assert verdict.rounds[0].ok
    assert not verdict.ok
    assert str(verdict.caught_up_error) == (
        f"the snapshot this seat was caught up with gives, after round 1, scores {told} and "
        f"seat {dealer} the next deal; the rounds in this file, which the seat checked, give "
        f"scores {honest} and seat {dealer} the next deal"
    )


def test_a_seat_caught_up_in_a_round_under_way_keeps_a_transcript_that_verifies_from_there() -> (
    None
):
    """A snapshot of the present while round 2 is played: round 2 passes unfollowed, its sheet
    carried on. The seat's transcript holds round 3 on, with what the snapshot told, and
    ``verify`` checks each of those rounds and the signed end on it, saying which rounds it
    could not check (before, such a seat saved no transcript)."""
    witness = caught_up_in_round_2()
    assert witness.keeps_transcript
    transcript = decode(witness.transcript().encode())
    assert transcript.caught_up is not None
    assert transcript.caught_up.round_no == 2
    assert transcript.rounds[0].round_no == 3
    verdict = verify_transcript(transcript)
    assert verdict.ok, verdict.lines()
    assert not verdict.whole
    assert re.fullmatch(
        r"not checked: rounds 1 to 2: this seat did not see them \(it sat down in round 2, or "
        r"came back then having finished no round: the host's snapshot told it the match\); "
        r"round 3 on is replayed on the match as the snapshot told it \(scores "
        r"\[\d+, \d+\], seat \d dealing\): the host's word, not checked here",
        verdict.unseen,
    ), verdict.unseen
    assert all("verified (dealer seat" in v.note or "void" in v.note for v in verdict.rounds)


def test_points_changed_in_a_caught_up_file_are_refused() -> None:
    """The points the file says the snapshot told are what the rounds since are replayed on:
    a file whose ``caught_up`` points were changed no longer gives the signed end."""
    witness = caught_up_in_round_2()
    transcript = witness.transcript()
    assert transcript.caught_up is not None
    told = transcript.caught_up
    changed = CaughtUp(told.round_no, (told.scores[0] + 3, told.scores[1]), told.dealer)
    verdict = verify_transcript(dataclasses.replace(transcript, caught_up=changed))
    assert not verdict.ok
    assert isinstance(verdict.result_error, ScoreMismatchError)


def verify_words(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """``scopa-net verify`` on ``path``, the host's key pinned: its status and its lines."""
    capsys.readouterr()
    status = main(["verify", "--pin", fingerprint(public_key_bytes(KEY)), str(path)])
    return status, capsys.readouterr().out.splitlines()


def test_evidence_that_cannot_show_the_snapshot_says_why_it_cannot_decide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Evidence of a seat stopped by a snapshot, from a client that did not record what the
    snapshot told (version 5): every round in it verifies. ``verify`` says what the file
    shows and why it cannot decide, where it said a bare UNFINISHED (as of a match saved
    mid-way)."""
    witness, error, _, _ = stopped_by_5_points_added()
    older = dataclasses.replace(witness.evidence(error), caught_up=None)
    path = tmp_path / "evidence.scopa"
    path.write_bytes(older.encode())
    status, lines = verify_words(path, capsys)
    assert status == 1
    assert lines[-1] == (
        "UNFINISHED: the client stopped here on a check this file cannot repeat (round 1, "
        "score mismatch, said above): every round it holds verifies, and what failed is "
        "what the host told the seat outside them (such as a snapshot, which carries no "
        "signature), so this file alone cannot show whether the host lied"
    )
    # The same evidence as our client saves it now: the file holds the contradiction.
    path.write_bytes(witness.evidence(error).encode())
    status, lines = verify_words(path, capsys)
    assert status == 1
    assert lines[-1] == "NOT VERIFIED"
    assert f"caught up: {SNAPSHOT_CONTRADICTED}" in lines


def test_a_newcomer_s_file_says_it_sat_down_not_that_it_was_caught_up_after_a_drop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dino sat down in round 3 at a seat a computer had played (his client's first view of
    the match, a snapshot): `verify` said "caught up by snapshot after round 3", as if he had
    dropped. His file cannot tell that from a seat that finished no round before it came
    back, so it says both, sitting down first."""
    witness = caught_up_while_playing(ada_and_the_computer(), 3)
    path = tmp_path / "dino.scopa"
    path.write_bytes(witness.transcript().encode())
    _, lines = verify_words(path, capsys)
    (unseen,) = [line for line in lines if line.startswith("not checked: ")]
    assert unseen.startswith(
        "not checked: rounds 1 to 3: this seat did not see them (it sat down in round 3, or "
        "came back then having finished no round: the host's snapshot told it the match); "
        "round 4 on is replayed on the match as the snapshot told it (scores "
    ), lines
    assert "caught up by snapshot" not in "\n".join(lines), lines


def test_a_caught_up_file_says_which_rounds_it_could_not_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``verify`` of a seat's file from a catch-up in round 2 on: the rounds it checked, the
    line that says rounds 1 and 2 were not, and a last line that does not claim the whole
    match (status 1: the file does not verify completely)."""
    witness = caught_up_in_round_2()
    path = tmp_path / "caught-up.scopa"
    path.write_bytes(witness.transcript().encode())
    status, lines = verify_words(path, capsys)
    assert status == 1
    assert lines[-1] == PARTLY_VERIFIED
    (unseen,) = [n for n, line in enumerate(lines) if line.startswith("not checked: ")]
    assert lines[unseen].startswith("not checked: rounds 1 to 2: this seat did not see them")
    assert lines[unseen + 1].startswith("round 3: verified (dealer "), lines


def test_a_match_end_a_caught_up_seat_cannot_tie_to_a_round_is_checked_on_the_snapshot() -> None:
    """The seat's client checks that match end's scores against the snapshot's points, not
    its signature (no round it saw links to it, 5.10); ``verify`` does the same from the file,
    where it refused the signature as not over the zero hash."""
    transcript = caught_up_in_the_last_round()
    verdict = verify_transcript(decode(transcript.encode()))
    assert verdict.ok, verdict.lines()
    assert not verdict.whole
    told = transcript.caught_up
    assert told is not None
    changed = CaughtUp(told.round_no, (told.scores[0] + 1, told.scores[1]), told.dealer)
    verdict = verify_transcript(dataclasses.replace(transcript, caught_up=changed))
    assert isinstance(verdict.result_error, ScoreMismatchError)


def test_a_caught_up_file_in_a_brief_line_says_what_it_could_not_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``verify --brief`` gives a caught-up seat's file one line that does not point at lines
    it does not show, and says that rounds went unchecked."""
    witness = caught_up_in_round_2()
    path = tmp_path / "caught-up.scopa"
    path.write_bytes(witness.transcript().encode())
    capsys.readouterr()
    pin = fingerprint(public_key_bytes(KEY))
    assert main(["verify", "--brief", "--pin", pin, str(path)]) == 1
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith(str(path))]
    assert re.fullmatch(
        rf"{re.escape(str(path))}: VERIFIED as far as this seat saw the match: seat \d.* won "
        r"the match with \d+ points, against \d+ for seat \d.*; not checked: the rounds this "
        r"seat did not see \(caught up by snapshot, 6\.2\)",
        line,
    ), line


def test_a_seat_caught_up_after_the_match_ended_keeps_an_unfinished_file() -> None:
    """A client started afresh once the match is over is caught up with a snapshot that shows
    its end; it never saw ``match_end``. The transcript its person is shown at that end holds
    no round and no signed end: ``verify`` finds nothing wrong in it and says UNFINISHED
    (before, no transcript was saved, and a file without the snapshot's points would read
    as a score mismatch)."""
    witness, snapshot = caught_up_after_the_end()
    assert snapshot.winner is not None
    assert witness.keeps_transcript
    verdict = verify_transcript(decode(witness.transcript().encode()))
    assert verdict.failures == ()
    assert not verdict.finished
