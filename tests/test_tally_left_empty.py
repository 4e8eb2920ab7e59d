"""What ``scopa-net tally`` leaves on disk when nothing was scored.

Found by hand: ``scopa-net tally Ada Bruno < /dev/null`` saved an empty tally at every run
(``tally --list`` filled up with them, and ``--resume`` took the last empty one).
"""

from __future__ import annotations

from pathlib import Path

from helpers import run_scopa_net


def test_a_tally_begun_with_no_input_leaves_no_file_and_says_so(tmp_path: Path) -> None:
    done = run_scopa_net("tally", "Ada", "Bruno", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.splitlines()[-1] == "Nothing saved: no hand was entered."
    assert list((tmp_path / "scopa-net").rglob("*")) in ([], [tmp_path / "scopa-net" / "tallies"])
    listed = run_scopa_net("tally", "--list", home=tmp_path)
    assert listed.stdout.startswith("No saved tallies")


def test_a_tally_with_an_entry_is_saved_as_before(tmp_path: Path) -> None:
    done = run_scopa_net("tally", "Ada", "Bruno", home=tmp_path, input="+2 Ada\ndone\ny\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("Saved as ")
    assert len(list((tmp_path / "scopa-net" / "tallies").glob("*.json"))) == 1
