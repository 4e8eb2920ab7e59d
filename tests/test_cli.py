"""The scopa-net command: --version, --help, the demo, and clear errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from helpers import run_scopa_net

from scopa_net import __version__
from scopa_net.commands.main import main


def test_version_through_python_dash_m() -> None:
    """It names the protocols too: at a club half upgraded, a scopa-net of protocol 4 and one
    of 5 both printed "scopa-net 0.1.0", and nobody could tell which one they ran."""
    from scopa_net.wire import messages as m

    result = run_scopa_net("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == (
        f"scopa-net {__version__} (protocol {m.PROTOCOL_VERSION}; plays with hosts and players "
        f"of protocol {m.OLDEST_VERSION} and {m.PROTOCOL_VERSION})"
    )


def test_help_lists_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "demo" in out
    assert "play" in out


def test_help_says_every_case_of_status_6(capsys: pytest.CaptureFixture[str]) -> None:
    """Status 6 is also a host that could not prove it holds its key, or one that proved it
    before and now speaks protocol 4 (README's table); --help said only that the key
    changed, which a person whose host went back to protocol 4 could not match."""
    assert main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "6 the host's key is not the one pinned, or it did not prove it holds it (it may be "
        "another host)" in out
    )


def test_demo_prints_a_whole_round(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Round 1" in out
    assert "settebello" in out
    assert "primiera" in out
    # Who took the last cards, and the score by seat ("side 0 2" read as one figure).
    assert re.search(r"^  seat [01] captured last and takes the table: ", out, re.M)
    assert re.search(r"^  match score: seat 0: \d+, seat 1: \d+$", out, re.M)


def test_a_demo_of_pairs_names_each_pair_by_its_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "4", "--rounds", "40", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  match score: seats 0 and 2: \d+, seats 1 and 3: \d+$", out, re.M)
    assert re.search(r"^Seats (0 and 2|1 and 3) win the match\.$", out, re.M)


def test_five_players_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "5"]) == 2
    err = capsys.readouterr().err
    assert "5 players cannot play" in err


def test_unknown_variant_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--variant", "briscola"]) == 2
    assert "unknown variant 'briscola'" in capsys.readouterr().err


def test_output_piped_into_head_ends_quietly() -> None:
    """`scopa-net demo | head -1` printed a BrokenPipeError traceback once head had gone."""
    demo = subprocess.Popen(
        [sys.executable, "-m", "scopa_net", "demo"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert demo.stdout is not None
    demo.stdout.close()  # the reader is gone before the first line, as head may be
    _, errors = demo.communicate(timeout=60)
    assert demo.returncode == 141
    assert errors == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_to_a_full_disk_is_one_line() -> None:
    """`scopa-net demo > /dev/full` ended in an OSError traceback (no space left on device)."""
    with open("/dev/full", "w") as full:
        demo = subprocess.run(
            [sys.executable, "-m", "scopa_net", "demo", "--rounds", "2"],
            check=False,
            stdout=full,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=60,
        )
    assert demo.returncode == 5
    assert demo.stderr == (
        "scopa-net: cannot write: no space left on device; free some space and try again\n"
    )


@pytest.mark.parametrize("command", [[], ["play"], ["host"], ["join"], ["tally"], ["verify"]])
def test_help_fits_a_60_column_terminal(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exit statuses and the variants, laid out by hand, ran past the terminal's edge.
    Only a usage line may not fit: argparse does not break inside a flag's brackets."""
    monkeypatch.setenv("COLUMNS", "60")
    assert main([*command, "--help"]) == 0
    text = capsys.readouterr().out
    usage = text.split("\n\n")[0]
    wide = [line for line in text[len(usage) :].splitlines() if len(line) > 60]
    assert wide == []
