"""What ``scopa-net tally`` leaves on disk when nothing was scored, and its status when
nothing can be saved.

Found by hand: ``scopa-net tally Ada Bruno < /dev/null`` saved an empty tally at every run
(``tally --list`` filled up with them, and ``--resume`` took the last empty one); and
"cannot save in FOLDER" ended with status 2, a bad flag's, where README's table gives 5 for
what this machine cannot do.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_scopa_net

from scopa_net.client.tally_store import TallyStore
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_LOCAL


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


def test_a_folder_the_tally_cannot_use_is_status_5_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As Path.exists raises for a folder one may not search (mode 000, not root)."""

    def denied(*_: object) -> str:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(TallyStore, "new_id", denied)
    assert main(["tally", "Ada", "Bruno"]) == EXIT_LOCAL  # README: 5, this machine cannot
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"scopa-net: cannot save in {tmp_path}/scopa-net/tallies: Permission denied\n"


def test_resume_with_no_tally_saved_says_how_to_start_one(tmp_path: Path) -> None:
    """A newcomer quit a tally before any hand ("Nothing saved: no hand was entered."), ran
    `scopa-net tally --resume` and read "no unfinished tally to resume; `scopa-net tally
    --list` shows all": the list said "No saved tallies". With none saved, the line says
    how to start one."""
    first = run_scopa_net("tally", "Ada", "Bruno", home=tmp_path, input="quit\n")
    assert first.returncode == 0, first.stderr
    done = run_scopa_net("tally", "--resume", home=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "scopa-net: no tally to resume: none is saved on this machine; start one with the "
        "players' names, such as `scopa-net tally Ada Bruno`\n"
    )
