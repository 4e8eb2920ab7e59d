"""`scopa-net history --export` without a table: an organiser exports every match of an
evening in one command. A tester exporting a month of club nights ran one command per seat
(300 tables, 300 commands), and `--export` wrote over a file of the same name without a word."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
import trio
from hosting import play_one_match

from scopa_net.commands import history_export
from scopa_net.commands.main import main


@pytest.fixture
def evening(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Two matches over, on a host started twice: Ada's at table 1, Bruno's at table 2, each
    against the host's computer."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # no real pinned keys
    db = str(tmp_path / "host.db")
    trio.run(lambda: play_one_match(db, name="Ada"))
    trio.run(lambda: play_one_match(db, name="Bruno"))
    return db


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    capsys.readouterr()
    status = main(list(argv))
    said = capsys.readouterr()
    return status, said.out.splitlines(), said.err


def test_export_without_a_table_writes_every_seat_of_every_match_into_a_folder(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One command writes every seat's transcript (names beside it) into the folder, says
    each file and whose it is, and the command that checks them all; each file verifies."""
    folder = tmp_path / "thursday"
    status, out, err = run(capsys, "history", "--db", evening, "--export", "--out", str(folder))
    assert (status, err) == (0, "")
    names = [
        "table1-match1-seat0-ada.scopa",
        "table1-match1-seat1-bot1.scopa",
        "table2-match1-seat0-bruno.scopa",
        "table2-match1-seat1-bot1.scopa",
    ]
    assert sorted(p.name for p in folder.glob("*.scopa")) == names
    assert sorted(p.name for p in folder.glob("*.names")) == [
        n.replace(".scopa", ".names") for n in names
    ]
    assert out[:4] == [
        f"wrote {folder / names[0]}: Ada (seat 0) of table 1 'test table', match 1",
        f"wrote {folder / names[1]}: bot 1 (seat 1) of table 1 'test table', match 1",
        f"wrote {folder / names[2]}: Bruno (seat 0) of table 2 'test table (2)', match 1",
        f"wrote {folder / names[3]}: bot 1 (seat 1) of table 2 'test table (2)', match 1",
    ]
    assert out[4] == (
        f"4 transcripts of 2 matches written into {folder}, each with its .names beside it"
    )
    check = re.fullmatch(r"check them with `scopa-net verify --pin ([0-9a-f-]+) (.+)`", out[5])
    assert check, out
    assert check[2] == str(folder)
    for name in names:
        assert main(["verify", "--pin", check[1], "--quiet", str(folder / name)]) == 0
    assert (folder / names[2]).with_suffix(".names").read_text(encoding="utf-8") == (
        "Bruno\nbot 1\n"
    )


def test_export_without_a_table_takes_the_lists_filters(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--name, --since (and --table) keep the same matches as the list does: Ada's match is
    not Bruno's, and was played before the host last started."""
    tonight = [
        "table2-match1-seat0-bruno.scopa",
        "table2-match1-seat1-bot1.scopa",
    ]
    for flags in (["--name", "bruno"], ["--since", "start"]):
        folder = tmp_path / flags[1]
        status, out, _ = run(
            capsys, "history", "--db", evening, "--export", *flags, "--out", str(folder)
        )
        assert status == 0
        assert sorted(p.name for p in folder.glob("*.scopa")) == tonight
        assert (
            out[2]
            == f"2 transcripts of 1 match written into {folder}, each with its .names beside it"
        )
    nothing = tmp_path / "nothing"
    status, out, _ = run(
        capsys,
        "history",
        "--db",
        evening,
        "--export",
        "--since",
        "2099-01-01",
        "--out",
        str(nothing),
    )
    assert (status, out) == (0, ["no match since 2099-01-01 in this journal"])
    assert not nothing.exists()


def test_export_again_writes_over_nothing(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same export again leaves the files as they are and says so; a file there that is
    not the export's stops it, in one line, before anything is written."""
    folder = tmp_path / "thursday"
    command = ["history", "--db", evening, "--export", "--out", str(folder)]
    assert run(capsys, *command)[0] == 0
    status, out, _ = run(capsys, *command)
    assert status == 0
    assert (
        out[0] == f"nothing new: the 4 transcripts of 2 matches are in {folder} already, the same"
    )
    names = folder / "table1-match1-seat1-bot1.names"
    names.unlink()  # a .names lost: the export writes it again
    assert run(capsys, *command)[:2] == (0, [out[0], out[1]])
    assert names.read_text(encoding="utf-8") == "Ada\nbot 1\n"
    mine = folder / "table2-match1-seat0-bruno.scopa"
    mine.write_bytes(b"someone else's file")
    gone = folder / "table1-match1-seat0-ada.scopa"
    gone.unlink()
    status, out, err = run(capsys, *command)
    assert (status, out) == (5, [])
    assert err == (
        f"scopa-net: {mine} is there already and is not this export's: nothing written; move "
        "it away or give --out another folder\n"
    )
    assert mine.read_bytes() == b"someone else's file"
    assert not gone.exists()


@pytest.mark.parametrize("by", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_ctrl_c_half_way_says_what_was_written_and_the_same_command_writes_the_rest(
    evening: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    by: str,
) -> None:
    """Ctrl-C during an export said "stopped": nothing of what was written, nor whether a
    file was left cut short (SIGTERM: only the shell's "Terminated"). It says how many are
    written, each whole, and the same command writes the rest. SIGHUP (its terminal closed:
    an SSH session dropped, the output going to a log) killed it with no word: it says the
    same, and 129."""
    if by == "SIGHUP" and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        pytest.skip("SIGHUP is ignored here (nohup)")
    folder = tmp_path / "thursday"
    command = ["history", "--db", evening, "--export", "--out", str(folder)]
    real_write = history_export.write_transcript
    transcripts: list[Path] = []

    def ctrl_c_at_the_second_transcript(path: Path, data: bytes, ended: float | None) -> None:
        if path.suffix == ".scopa":
            transcripts.append(path)
            if len(transcripts) == 2:
                signal.raise_signal(getattr(signal, by))  # as the terminal, or kill, sends it
        real_write(path, data, ended)

    monkeypatch.setattr(history_export, "write_transcript", ctrl_c_at_the_second_transcript)
    status, out, err = run(capsys, *command)
    assert (status, out) == ({"SIGINT": 130, "SIGTERM": 143, "SIGHUP": 129}[by], [])
    how = {
        "SIGINT": "stopped",
        "SIGTERM": "stopped by SIGTERM",
        "SIGHUP": "stopped by SIGHUP (the terminal closed)",
    }[by]
    assert err == (
        f"scopa-net: {how} after writing 1 transcript into {folder}, each whole with its "
        ".names; the same command writes the rest, leaving those as they are\n"
    )
    assert [p.name for p in folder.glob("*.scopa")] == ["table1-match1-seat0-ada.scopa"]
    assert not list(folder.glob(".*"))  # no half-written file
    monkeypatch.undo()
    status, out, _ = run(capsys, *command)
    assert status == 0
    assert out[3] == (
        f"3 transcripts of 2 matches written into {folder}, each with its .names beside it; "
        "1 already there, the same, left as they were"
    )


def test_export_without_a_table_refuses_what_it_cannot_do_in_one_line(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    assert run(capsys, "history", "--db", evening, "--export", "--out", str(a_file))[1:] == (
        [],
        f"scopa-net: {a_file} is a file: --out names the folder to write into when --export "
        "has no table\n",
    )
    status, _, err = run(capsys, "history", "--db", evening, "--export", "--seat", "Ada")
    assert status == 2
    assert err == (
        "scopa-net: --seat chooses in one table's export (--export TABLE); --export without a "
        "table writes every seat of every match the filters keep\n"
    )


def test_verify_of_the_exported_folder_checks_its_transcripts_and_sums_up_by_person(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`verify FOLDER` refused a folder ("give the transcripts in it"), `verify FOLDER/*`
    counted each .names as an unreadable transcript, and the luck of the deal was by seat
    number: "seat 0 (Ada or Bruno)". Now the folder's transcripts are checked, and the luck
    is by person, over every seat they held."""
    folder = tmp_path / "thursday"
    run(capsys, "history", "--db", evening, "--export", "--out", str(folder))
    status, out, _ = run(capsys, "verify", "--quiet", str(folder))
    assert status == 0
    assert out.count("VERIFIED") == 4
    summary = out[out.index("== summary") :]
    assert summary[1] == "files: 4 given: 4 verified"
    luck = [line.split(",")[0] for line in summary if line.startswith("  ") and "round" in line]
    assert luck == ["  Ada (seat 0)", "  bot 1 (seat 1)", "  Bruno (seat 0)"], summary
    assert not any(" or " in line for line in summary), summary
    empty = tmp_path / "empty"
    empty.mkdir()
    status, out, _ = run(capsys, "verify", str(empty))
    assert (status, out) == (
        1,
        [f"{empty}: a folder with no transcripts (.scopa files) in it", "NOT VERIFIED"],
    )


def test_export_of_one_table_writes_over_no_other_file(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`history --export 2` run twice wrote table2-seat0.scopa twice without a word, and over
    any file of that name. Now the same file again is said and left; a copy exported while
    the match was in play is replaced, and said; any other file stops it in one line."""
    import dataclasses

    from scopa_net.fair.blind.wire import decode_any
    from scopa_net.fair.transcript import MatchResult

    target = tmp_path / "t2.scopa"
    command = ["history", "--db", evening, "--export", "2", "--out", str(target)]
    status, out, _ = run(capsys, *command)
    assert status == 0
    assert out[0].startswith(f"wrote {target} (")
    whole = target.read_bytes()
    status, out, _ = run(capsys, *command)
    assert status == 0
    assert re.fullmatch(
        rf"{re.escape(str(target))} is there already, the same: nothing to write; check it "
        rf"with `scopa-net verify --pin [0-9a-f-]+ {re.escape(str(target))}`",
        out[0],
    ), out
    finished = decode_any(whole)
    first = finished.rounds[:1]
    in_play = dataclasses.replace(finished, rounds=first, result=MatchResult((0, 0), None))
    target.write_bytes(in_play.encode())  # as exported while the match was in play
    status, out, _ = run(capsys, *command)
    assert status == 0
    assert "; it replaces the copy exported before, of 1 round); check it with" in out[0], out
    assert target.read_bytes() == whole
    target.write_bytes(b"a member's notes")
    status, out, err = run(capsys, *command)
    assert (status, out) == (5, [])
    assert err == (
        f"scopa-net: {target} is there already and is not a copy of this transcript: nothing "
        "written; move it away or give --out another file\n"
    )
    assert target.read_bytes() == b"a member's notes"


def test_verify_brief_since_reads_a_season_one_line_a_file(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder of a season's exports was ten lines a file, and could not be narrowed to
    tonight's. `--since` (as history spells it) keeps the files saved since then, and says
    how many it left out; `--brief` says one line a file: its verdict and who won, and, as a
    host's export does not record who could send each seed, that this was not checked."""
    import os
    import time

    folder = tmp_path / "season"
    _, wrote, _ = run(capsys, "history", "--db", evening, "--export", "--out", str(folder))
    pin = wrote[-1].split("--pin ")[1].split()[0]
    week_ago = time.time() - 7 * 86400
    for old in folder.glob("table1-*"):
        os.utime(old, (week_ago, week_ago))  # Ada's match: last Thursday's
    since = time.strftime("%Y-%m-%d", time.localtime(week_ago + 3 * 86400))
    status, out, _ = run(
        capsys, "verify", "--brief", "--since", since, "--pin", pin, "--quiet", str(folder)
    )
    assert status == 0
    assert out[0] == f"left out: 2 files saved before {since} (--since)"
    bruno, computer = folder / "table2-match1-seat0-bruno.scopa", "table2-match1-seat1-bot1"
    winner = r"(Bruno|bot 1) \(seat \d(, this file's seat)?\)"
    assert re.fullmatch(
        rf"{re.escape(str(bruno))}: VERIFIED: {winner} won the match with \d+ points, "
        rf"against \d+ for {winner}; not checked: a seed slipped in for a computer player or a "
        r"seat away \(transcript version 2\)",
        out[1],
    ), out
    assert re.match(rf"{re.escape(str(folder / computer))}\.scopa: VERIFIED: {winner} ", out[2]), (
        out
    )
    assert out[3:5] == ["== summary", "files: 2 given: 2 verified"]
    status, out, _ = run(capsys, "verify", "--brief", "--quiet", str(bruno))  # nothing pinned
    assert status == 0
    assert re.fullmatch(
        rf"{re.escape(str(bruno))}: VERIFIED: .* \(host key [0-9a-f-]+, compared with none: "
        r"nothing pinned; check it, or --pin\)",
        out[0],
    ), out
    # "Verify everything since Monday" with nothing since then said "no file saved since"
    # and ended 0, success for nothing checked: now NOT VERIFIED in one line, status 1, as
    # for a folder with no transcripts in it.
    status, out, _ = run(capsys, "verify", "--since", "2999-01-01", str(folder))
    assert (status, out) == (
        1,
        [
            f"NOT VERIFIED: nothing checked: all 4 files in {folder} were saved before "
            "2999-01-01 (--since); give an earlier date, or leave --since out"
        ],
    )
    # A folder among the paths given: the files were found, not given one by one.
    status, out, _ = run(capsys, "verify", "--since", "2999-01-01", str(folder), str(bruno))
    assert out == [
        "NOT VERIFIED: nothing checked: all 5 files found were saved before 2999-01-01 "
        "(--since); give an earlier date, or leave --since out"
    ]
    status, out, _ = run(capsys, "verify", "--brief", "--since", "2999-01-01", str(bruno))
    assert (status, out) == (
        1,
        [
            "NOT VERIFIED: nothing checked: the file given was saved before 2999-01-01 "
            "(--since); give an earlier date, or leave --since out"
        ],
    )
    status, _, err = run(capsys, "verify", "--since", "start", str(folder))
    assert status == 2
    assert "start is for history (since the host last started); verify goes by the files'" in err


def test_a_journal_moved_away_from_its_key_is_refused_not_given_a_new_key(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An organiser archived last season's journal (`cp host.db archive/2026.db`) and
    exported from it: history made archive/2026.key, a new key, signed the export with it
    and printed its --pin, so the files verified under a key no member ever pinned (and their
    own pins refused them). Now it refuses in one line, and makes no key."""
    import shutil

    archive = tmp_path / "archive"
    archive.mkdir()
    old = archive / "2026.db"
    shutil.copy(evening, old)
    listed = run(capsys, "history", "--db", str(old))
    assert listed[0] == 0
    assert len(listed[1]) == 3, listed  # two matches and the restart between them
    for export in (["--export", "1"], ["--export"]):
        status, out, err = run(
            capsys, "history", "--db", str(old), *export, "--out", str(archive / "x")
        )
        assert (status, out) == (5, [])
        key = archive / "2026.key"
        assert err == (
            f"scopa-net: no host key beside the journal {old} (it would be {key}): what "
            "history exports is signed with the key of the host that kept this journal; copy "
            f"that host's key file (host.key, beside its journal) to {key}, then try again\n"
        )
    assert sorted(p.name for p in archive.iterdir()) == ["2026.db"]
    shutil.copy(Path(evening).with_suffix(".key"), archive / "2026.key")
    status, here, _ = run(
        capsys, "history", "--db", evening, "--export", "1", "--out", str(tmp_path / "a.scopa")
    )
    status, there, _ = run(
        capsys, "history", "--db", str(old), "--export", "1", "--out", str(archive / "a.scopa")
    )
    assert status == 0
    pin = re.compile(r"--pin ([0-9a-f-]+) ")
    assert pin.findall(there[0]) == pin.findall(here[0]), (here, there)


def test_a_match_in_play_is_left_out_and_said(
    evening: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match still in play has no signed end yet: it is not exported, and the line says
    which, so that the organiser exports it once it ends."""
    from hosting import play_one_round

    trio.run(play_one_round, evening)  # Ann's match at table 3: one round, then stopped
    folder = tmp_path / "tonight"
    status, out, _ = run(capsys, "history", "--db", evening, "--export", "--out", str(folder))
    assert status == 0
    assert out[-2] == "not exported, still in play: table 3, match 1 (export them when they end)"
    assert not list(folder.glob("table3-*"))
    assert len(list(folder.glob("*.scopa"))) == 4


def test_with_only_a_match_in_play_it_does_not_say_there_is_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one match, still in play, it said "no matches yet", then "not exported, still in
    play: table 1, match 1": there is a match, none is over yet."""
    from hosting import play_one_round

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = str(tmp_path / "host.db")
    trio.run(play_one_round, db)
    folder = tmp_path / "tonight"
    status, out, _ = run(capsys, "history", "--db", db, "--export", "--out", str(folder))
    assert status == 0
    assert out == [
        "no match is over yet: nothing exported",
        "not exported, still in play: table 1, match 1 (export them when they end)",
    ]
    status, out, _ = run(capsys, "history", "--db", db, "--export", "--name", "Ann")
    assert out[0] == "no match of Ann is over yet: nothing exported"


def test_a_host_started_on_a_journal_without_its_key_is_refused(
    evening: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`scopa-net host --db archive/2026.db` made archive/2026.key, a new key, and resumed
    the journal's tables under it: every member's client then refused the host (status 6)."""
    from helpers import free_port

    key = Path(evening).with_suffix(".key")
    key.unlink()  # the journal moved away from its key, as an archive is
    port = str(free_port())
    status, out, err = run(capsys, "host", "--db", evening, "--host", "127.0.0.1", "--port", port)
    assert (status, out) == (5, [])
    assert err == (
        f"scopa-net: the journal {evening} holds tables but no host key is beside it ({key}): "
        "they were dealt under the key of the host that kept them, the one players pinned; "
        f"copy that key file (host.key, beside its journal) to {key}, or give --db a new "
        "journal to start afresh under a new key\n"
    )
    assert not key.exists()


def test_matches_left_out_are_told_apart() -> None:
    """Three matches in play read "not exported, still in play: table 2, match 1, table 3,
    match 1, table 6, match 1": six things, or three? Each is now apart from the next."""
    from scopa_net.commands.history_export import left_out
    from scopa_net.commands.history_filter import Listed

    going = [Listed(began=0, line="", table_id=table, number=1) for table in ("2", "3", "6")]
    assert left_out(going) == (
        "not exported, still in play: table 2, match 1; table 3, match 1; table 6, match 1 "
        "(export them when they end)"
    )
