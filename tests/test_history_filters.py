"""`scopa-net history` after a month of club nights: narrowed by table, name and time, a
person's record, and --export's --seat by name. A tester with 363 matches had a 370-line
list and no way to narrow it, and read a seat's number out of a `.names` file."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import trio
from hosting import play_one_match

from scopa_net.commands.main import main
from scopa_net.server.journal import Journal

TWO = "2 players"


def at(day: int, hh: int, mm: int) -> float:
    return time.mktime((2026, 12, day, hh, mm, 0, 0, 0, -1))


def played(players: list[str], winner: int, began: float, ended: float, **more: object) -> dict:
    scores = [11 if side == winner else 4 for side in range(2)]
    return {
        "players": players,
        "scores": scores,
        "winner": winner,
        "rules": TWO,
        "began": began,
        "finished": ended,
        **more,
    }


@pytest.fixture
def club(tmp_path: Path) -> str:
    """Two evenings: Nicolò plays three matches (wins two), Ada two, and the host restarts
    between the evenings; a table waits for players at the end."""
    db = str(tmp_path / "host.db")
    journal = Journal(db)
    journal.host_started(at(5, 20, 0))
    journal.create_table("1", at(5, 20, 1), {"name": "Club", "players": 2})
    journal.finish_table(
        "1", at(5, 20, 30), played(["Nicolò", "Ada"], 0, at(5, 20, 2), at(5, 20, 30))
    )
    journal.create_table("2", at(5, 20, 5), {"name": "Garden", "players": 2})
    journal.finish_table(
        "2", at(5, 20, 40), played(["Bruno", "Carla"], 1, at(5, 20, 6), at(5, 20, 40))
    )
    journal.host_started(at(6, 20, 0))
    journal.reopen_table("1")
    journal.finish_table(
        "1",
        at(6, 20, 50),
        played(
            ["bot 1", "Ada"], 1, at(6, 20, 10), at(6, 20, 50), holders=["NICOLO, then Dino", "Ada"]
        ),
    )
    journal.create_table("3", at(6, 20, 20), {"name": "Back room", "players": 2})
    journal.finish_table(
        "3", at(6, 21, 0), played(["Bruno", "Nicolo"], 1, at(6, 20, 21), at(6, 21, 0))
    )
    journal.create_table("4", at(6, 21, 5), {"name": "Porch", "players": 2})
    journal.close()
    return db


def listed(capsys: pytest.CaptureFixture[str], *flags: str) -> list[str]:
    capsys.readouterr()
    assert main(["history", *flags]) == 0
    return capsys.readouterr().out.splitlines()


def test_table_name_and_since_narrow_the_list_and_combine(
    club: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each filter narrows the list; given together a match must pass each."""
    table_1 = listed(capsys, "--db", club, "--table", "1")
    assert [line.split(":")[0] for line in table_1] == [
        "table 1 'Club', match 1",
        "host restarted 2026-12-06 20",
        "table 1 'Club', match 2",
    ]
    since = listed(capsys, "--db", club, "--since", "2026-12-06")
    assert [line.split(":")[0] for line in since] == [
        "table 1 'Club', match 2",
        "table 3 'Back room'",
        "table 4 'Porch'",
    ]
    assert listed(capsys, "--db", club, "--since", "2026-12-06 20:15", "--table", "3") == [
        "table 3 'Back room': started 2026-12-06 20:21, ended 21:00: Bruno 4 - Nicolo 11; "
        "Nicolo won (2 players)",
    ]


def test_name_finds_a_person_whatever_the_case_and_accents_and_ends_with_their_record(
    club: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "nicolo" finds Nicolò, NICOLO (who left for Dino half way) and Nicolo; the last line
    is the record over those matches: won 2 of 3 (the match Dino finished was lost)."""
    lines = listed(capsys, "--db", club, "--name", "nicolo")
    assert [line.split(":")[0] for line in lines[:-1]] == [
        "table 1 'Club', match 1",
        "host restarted 2026-12-06 20",
        "table 1 'Club', match 2",
        "table 3 'Back room'",
    ]
    assert lines[-1] == "Nicolo: 3 matches, won 2"
    assert listed(capsys, "--db", club, "--name", "ADA", "--since", "start")[-2:] == [
        "table 1 'Club', match 2: started 2026-12-06 20:10, ended 20:50: NICOLO, then Dino 4 "
        "- Ada 11; Ada won (2 players)",
        "Ada: 1 match, won 1",
    ]


def test_a_filter_that_matches_nothing_says_so_in_one_line(
    club: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert listed(capsys, "--db", club, "--name", "Ada", "--since", "2026-12-07") == [
        "no match of Ada since 2026-12-07 in this journal"
    ]
    assert listed(capsys, "--db", club, "--table", "2", "--since", "start") == [
        "no match at table 2 since the host last started (2026-12-06 20:00) in this journal"
    ]
    assert listed(capsys, "--db", club, "--name", "Zed") == ["no match of Zed in this journal"]
    older = str(tmp_path / "older.db")  # a host that kept no starts: nothing is "since"
    journal = Journal(older)
    journal.create_table("1", at(5, 20, 1), {"name": "Club", "players": 2})
    journal.finish_table("1", at(5, 20, 30), played(["Ada", "Bo"], 0, at(5, 20, 2), at(5, 20, 30)))
    journal.close()
    assert listed(capsys, "--db", older, "--since", "start") == [
        "no match since the host last started (this journal does not say when it did) in this "
        "journal"
    ]


def test_a_bad_since_or_a_filter_with_export_is_one_line(
    club: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "--db", club, "--since", "yesterday"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "scopa-net: --since: 'yesterday' is not a date: give YYYY-MM-DD, 'YYYY-MM-DD HH:MM' "
        "(local time), or start (since the host last started) (see `scopa-net history "
        "--help`)\n"
    )
    assert main(["history", "--db", club, "--export", "1", "--name", "Ada"]) == 2
    assert capsys.readouterr().err == (
        "scopa-net: --name narrows the list; --export TABLE writes one transcript (its --seat "
        "takes a name): give one or the other, or --export with no table to write every match "
        "they keep\n"
    )
    assert main(["history", "--db", club, "--export", "1", "--table", "1", "--since", "start"]) == 2
    assert capsys.readouterr().err.startswith("scopa-net: --table and --since narrow the list; ")


def test_export_takes_the_name_of_who_held_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--seat took a number only, read out of a `.names` file: a name held at the table in
    that match writes that seat's transcript, and a name not there names who was."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = str(tmp_path / "host.db")
    trio.run(play_one_match, db)
    out = tmp_path / "bot.scopa"
    assert main(["history", "--db", db, "--export", "1", "--seat", "BOT 1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out} (")
    assert main(["verify", str(out)]) == 0
    assert capsys.readouterr().out.startswith("bot 1 (seat 1, this file's seat)")
    assert main(["history", "--db", db, "--export", "1", "--seat", "Zed"]) == 2
    assert capsys.readouterr().err == (
        "scopa-net: nobody called Zed held a seat at table 1 (seat 0 ann, seat 1 bot 1); give "
        "--seat one of those names or a seat number\n"
    )


def test_since_start_keeps_a_match_the_restart_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An organiser stopped the host with Ctrl-C half way through a match and started it
    again, as the README says is safe; `history --name Dora --since start` then said "no
    match of Dora since the host last started", the line above it showing her match of that
    evening. A match in play when the host started is one of its evening's; one over before
    is not."""
    db = str(tmp_path / "host.db")
    journal = Journal(db)
    journal.host_started(at(7, 20, 0))
    journal.create_table("1", at(7, 20, 1), {"name": "Thursday", "players": 2})
    journal.create_table("2", at(7, 20, 3), {"name": "Early", "players": 2})
    journal.finish_table("2", at(7, 20, 20), played(["Ugo", "Vi"], 0, at(7, 20, 4), at(7, 20, 20)))
    journal.host_started(at(7, 20, 30))  # Ctrl-C, then the same command again
    journal.reopen_table("1")
    journal.finish_table(
        "1", at(7, 20, 45), played(["Carlo", "Dora"], 1, at(7, 20, 2), at(7, 20, 45))
    )
    journal.close()
    assert listed(capsys, "--db", db, "--name", "Dora", "--since", "start") == [
        "table 1 'Thursday': started 2026-12-07 20:02, ended 20:45: Carlo 4 - Dora 11; Dora "
        "won (2 players)",
        "Dora: 1 match, won 1",
    ]
    assert listed(capsys, "--db", db, "--name", "Ugo", "--since", "start") == [
        "no match of Ugo since the host last started (2026-12-07 20:30) in this journal"
    ]


def test_history_on_a_machine_that_never_hosted_says_there_is_none_yet_and_is_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A newcomer typed `scopa-net history` on a machine that had never run a host: "no
    journal at ...; give that host's --db", status 2, a usage error though they typed
    nothing wrong. Now one line says there is no history yet, where it looked and what keeps
    one, status 0 as for a list the filters leave empty (docs/stopping.md: nothing to show);
    an export of a table says there is no such table (2), and a --db that is not there is
    still the person's mistake (2)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / ".local" / "share"))
    none_yet = (
        "no match history on this machine yet (no journal at "
        "~/.local/share/scopa-net/host.db): a host keeps one, `scopa-net host` or "
        "`scopa-net play --lan` run here; a game of `play` without --lan keeps only its "
        "transcripts (`scopa-net verify` reads them)"
    )
    for flags in ([], ["--name", "Ada", "--since", "start"], ["--export", "--out", "x"]):
        assert listed(capsys, *flags) == [none_yet], flags
    assert not (tmp_path / "x").exists()
    assert main(["history", "--export", "1"]) == 2
    assert capsys.readouterr().err == f"scopa-net: no table 1: {none_yet}\n"
    assert main(["history", "--export", "--seat", "0"]) == 2  # a usage error all the same
    assert capsys.readouterr().err.startswith("scopa-net: --seat chooses in one table's export")
    assert main(["history", "--db", str(tmp_path / "gone.db")]) == 2
    assert capsys.readouterr().err.startswith(f"scopa-net: no journal at {tmp_path}/gone.db: ")
