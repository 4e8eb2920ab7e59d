"""`history --export` of a journal whose tables' settings lack what a replay needs (an older
or hand-edited journal: name and players only): one line, as for a journal an older
scopa-net wrote, where it ended in a KeyError traceback. The list reads it all the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_FAILED
from scopa_net.server.host import load_host_key
from scopa_net.server.journal import Journal

BEGAN, ENDED = 1_765_000_000.0, 1_765_001_800.0


@pytest.fixture
def hand_made(tmp_path: Path) -> Path:
    """One match over at table 1, its settings only a name and the number of players, and
    the host's key beside the journal."""
    db = tmp_path / "host.db"
    journal = Journal(db)
    load_host_key(journal)
    journal.create_table("1", BEGAN, {"name": "Club", "players": 2})
    summary = {
        "players": ["Ada", "Bo"],
        "scores": [11, 4],
        "winner": 0,
        "rules": "2 players",
        "began": BEGAN,
        "finished": ENDED,
    }
    journal.finish_table("1", ENDED, summary)
    journal.close()
    return db


@pytest.mark.parametrize(
    "export", [["--export", "1"], ["--export", "1", "--seat", "Bo"], ["--export", "--out", "x"]]
)
def test_an_export_says_in_one_line_what_the_settings_lack(
    hand_made: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    export: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["history", "--db", str(hand_made), *export]) == EXIT_FAILED
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err == (
        "scopa-net: cannot export table 1: its settings in the journal lack target, variants "
        "and bots (an older or hand-edited journal), which this scopa-net cannot replay; each "
        "player's own transcript, saved by their client (transcripts/ in its data folder), is "
        "the one to check with `scopa-net verify`\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["host.db", "host.key"]
    assert main(["history", "--db", str(hand_made)]) == 0
    assert capsys.readouterr().out.endswith("Ada 11 - Bo 4; Ada won (2 players)\n")
