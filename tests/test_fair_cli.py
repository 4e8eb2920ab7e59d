"""``scopa-net verify``: verdicts, exit status and the multi-file summary."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from helpers import run_scopa_net

from scopa_net.client.files import names_beside
from scopa_net.commands.main import main
from scopa_net.commands.verify_names import NAMES_UNSIGNED
from scopa_net.fair.simulate import simulate_match
from scopa_net.rules import RuleSet


@pytest.fixture(autouse=True)
def no_real_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """verify reads the client's pinned keys: never the real ones."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("transcripts")
    sim = simulate_match(RuleSet.of(2), 4)
    paths = []
    for t in sim.transcripts:
        path = folder / f"seat{t.seat}.sntr"
        path.write_bytes(t.encode())
        paths.append(path)
    # Seat 1's file, with one salt of round 2 changed.
    t = sim.transcripts[1]
    rounds = list(t.rounds)
    hand = list(rounds[1].hand)
    hand[0] = dataclasses.replace(hand[0], salt=bytes(16))
    rounds[1] = dataclasses.replace(rounds[1], hand=tuple(hand))
    bad = folder / "tampered.sntr"
    bad.write_bytes(dataclasses.replace(t, rounds=tuple(rounds)).encode())
    paths.append(bad)
    return paths


def test_a_good_file_verifies(saved: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(saved[0])]) == 0
    out = capsys.readouterr().out.splitlines()
    rounds = [line for line in out if line.startswith("round ")]
    assert rounds
    assert all(": verified" in line for line in rounds)
    assert out[0].startswith("seat 0 (this file's seat), 2 players")  # no names: not "you"
    assert out[-1] == "VERIFIED"


def test_seats_are_named_as_the_client_saved_them_beside_the_transcript(
    saved: list[Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Transcripts hold seats only (protocol.md 6.1): `verify` said "seat 1" where every
    screen of the game said "Bruno". With the names the client saved beside the file, each
    seat is named, and the file's own seat is "you"; without (an export, say), the file may be
    anyone's: its seat is "this file's seat". "You" only for the person the file was saved
    for: Carla verifying Bruno's file (copied into her folder) read "seat 1 (Bruno, you)"."""
    assert main(["verify", str(saved[1])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("seat 1 (this file's seat), 2 players"), out
    assert NAMES_UNSIGNED not in out  # no names, nothing to warn of
    assert any("dealer seat 1 (this file's seat)" in line for line in out), out
    copy = tmp_path / "transcripts" / "KEY-table1-seat1.scopa"
    copy.parent.mkdir()
    copy.write_bytes(saved[1].read_bytes())
    names_beside(copy).parent.mkdir()
    names_beside(copy).write_text("Ada\nBruno\n", encoding="utf-8")
    monkeypatch.setenv("SCOPA_NET_NAME", "Carla")
    assert main(["verify", str(copy)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Bruno (seat 1, this file's seat), 2 players"), out
    assert not any("you" in line for line in out), out
    # The names are notes beside the file, not signed: verify says so (an auditor changed
    # them by hand and read a VERIFIED result under swapped names).
    assert NAMES_UNSIGNED in out, out
    # From inside the transcripts folder, by a relative path, the names are found all the same.
    monkeypatch.chdir(copy.parent)
    assert main(["verify", copy.name]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Bruno (seat 1, this file's seat)")
    monkeypatch.setenv("SCOPA_NET_NAME", "bruno")
    assert main(["verify", str(copy)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Bruno (seat 1, you), 2 players"), out
    rounds = [line for line in out if line.startswith("round ")]
    assert any("dealer Ada (seat 0)" in line for line in rounds), rounds
    assert any("dealer Bruno (seat 1, you)" in line for line in rounds), rounds
    assert not any(re.search(r"(?<!\()seat \d", line) for line in out), out


def test_a_tampered_file_says_which_round_and_why(
    saved: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(saved[2])]) == 1
    out = capsys.readouterr().out
    assert "round 2: FAILED: wrong salt: deck position" in out
    assert "round 1: verified" in out
    assert out.splitlines()[-1] == "NOT VERIFIED"


def test_an_unreadable_or_damaged_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.sntr"
    junk.write_bytes(b"\x81\xa1a\x01")
    assert main(["verify", str(tmp_path / "missing.sntr")]) == 1
    assert main(["verify", str(junk)]) == 1
    out = capsys.readouterr().out
    assert "missing.sntr: cannot read" in out
    assert "invalid transcript" in out


def test_a_file_that_is_not_a_transcript_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: bread, milk\n")
    assert main(["verify", str(notes)]) == 1
    out = capsys.readouterr().out
    assert f"{notes}: not a scopa-net transcript (another kind of file, or one damaged" in out
    assert "  invalid transcript: not a scopa-net transcript file (" in out
    assert out.splitlines()[-1] == "NOT VERIFIED"


def test_several_files_end_with_a_summary(
    saved: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", *map(str, saved[:2])]) == 0
    out = capsys.readouterr().out
    summary = out.split("== summary\n")[1].splitlines()
    assert summary[0] == "files: 2 given: 2 verified"
    assert summary[1].startswith("rounds: ")
    assert summary[1].endswith(
        " verified, 0 void, 0 failed (a round in several files counted once)"
    )
    seat_lines = [line for line in summary if line.startswith("  seat ")]
    assert [line.split(",")[0] for line in seat_lines] == ["  seat 0", "  seat 1"]
    assert all("settebello" in line and "(expected " in line for line in seat_lines)
    assert main(["verify", *map(str, saved)]) == 1
    out = capsys.readouterr().out
    assert "files: 3 given: 2 verified, 1 failed\n" in out
    assert f"  failed: {saved[2]}\n" in out
    assert ", 1 failed\n" in out.split("== summary\n")[1]


def test_the_installed_command(saved: list[Path]) -> None:
    result = run_scopa_net("verify", str(saved[2]))
    assert result.returncode == 1
    assert "FAILED: wrong salt: " in result.stdout


def test_the_summary_counts_seeds_left_out_once_per_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate_match(RuleSet.of(3, 1), 8, no_reveal={1: 2})
    paths = []
    for t in sim.transcripts[:2]:
        path = tmp_path / f"seat{t.seat}.scopa"
        path.write_bytes(t.encode())
        paths.append(str(path))
    assert main(["verify", *paths]) == 0
    out = capsys.readouterr().out
    summary = out.split("== summary\n")[1]
    assert "seeds left out, in 1 round: no seed (1)" in summary  # two files, one round
    assert "  seat 2: no seed (1)" in summary
    assert re.search(r"^  seat 0, \d+ rounds?: settebello", summary, re.MULTILINE)
    assert "1 rounds" not in summary
    assert "rounds not fair-checked (no player seed): 0" in summary


def test_a_pin_is_compared_whatever_its_spelling(
    saved: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from scopa_net.fair.commitments import fingerprint
    from scopa_net.fair.transcript import decode

    fp = fingerprint(decode(saved[0].read_bytes()).host_key)
    assert main(["verify", "--pin", fp.upper().replace("-", ":"), str(saved[0])]) == 0
    assert main(["verify", "--pin", "0000-0000-0000-0000-0000", str(saved[0])]) == 1
    out = capsys.readouterr().out
    assert f"REFUSED: host key {fp} is not a key you trust: you gave --pin 0000-0000" in out


def test_a_summary_counts_an_unfinished_match(
    saved: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match that stopped (no signed end) is not verified: the status is 1, and the
    summary says why, where it said "failures: 0" alone."""
    from scopa_net.fair.transcript import MatchResult, decode

    t = decode(saved[0].read_bytes())
    stopped = tmp_path / "stopped.sntr"
    stopped.write_bytes(dataclasses.replace(t, result=MatchResult(t.result.scores, None)).encode())
    assert main(["verify", str(saved[1]), str(stopped)]) == 1
    summary = capsys.readouterr().out.split("== summary\n")[1].splitlines()
    assert summary[0] == "files: 2 given: 1 verified, 1 unfinished (no signed end)", summary
    assert summary[1] == f"  unfinished: {stopped}", summary
