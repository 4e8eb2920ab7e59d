"""The host's commands: history lists finished matches; an exported transcript verifies."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
import trio
from helpers import free_port, require_multicast, unique_name, unwritable
from hosting import HostThread, host_command, play_one_match, play_one_round

from scopa_net.client.network_session import KnownHosts
from scopa_net.commands.main import main
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


def test_history_lists_the_match_and_its_export_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # no real pinned keys
    db = tmp_path / "host.db"
    trio.run(play_one_match, str(db))
    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    when = r"\d{4}-\d\d-\d\d \d\d:\d\d"
    assert re.search(
        rf"table 1 'test table': started {when}, ended \d\d:\d\d: ann: \d+ - bot 1: \d+; .* won",
        out,
    )
    target = tmp_path / "t1.scopa"
    assert (
        main(["history", "--db", str(db), "--export", "1", "--seat", "0", "--out", str(target)])
        == 0
    )
    assert target.exists()
    wrote = capsys.readouterr().out
    names = tmp_path / "t1.names"
    assert re.match(
        rf"wrote {re.escape(str(target))} \((1 round|[2-9] rounds), the seats' names in "
        rf"{re.escape(str(names))}\); check it",
        wrote,
    )
    assert names.read_text(encoding="utf-8") == "ann\nbot 1\n"
    assert main(["verify", str(target)]) == 0
    out = capsys.readouterr().out
    assert "verified" in out
    # The names the host knew, from beside the file (it said "seat 1", "seat 0 (this file's
    # seat)"). An export may be anyone's seat: it said "seat 0 (you)" to whoever ran verify.
    assert out.startswith("ann (seat 0, this file's seat), 2 players"), out
    assert "bot 1 (seat 1)" in out, out
    assert "you" not in out
    assert main(["history", "--db", str(db), "--export", "9"]) == 2
    assert main(["history", "--db", str(tmp_path / "none.db")]) == 2
    capsys.readouterr()
    # A bad --out is one line (it was a FileNotFoundError traceback), status 5.
    nowhere = tmp_path / "no" / "such" / "t.scopa"
    assert main(["history", "--db", str(db), "--export", "1", "--out", str(nowhere)]) == 5
    assert capsys.readouterr().err == (
        f"scopa-net: cannot write {nowhere}: No such file or directory; give --out a file in a "
        "folder that exists\n"
    )


def test_history_export_into_a_folder_it_cannot_write_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`history --export 1` writes into the current folder: run in one that cannot be
    written, it said "cannot write table1-seat0.scopa: Read-only file system; give --out a
    file in a folder that exists", and the folder exists."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = tmp_path / "host.db"
    trio.run(play_one_round, str(db))
    folder = tmp_path / "read-only"
    folder.mkdir()
    monkeypatch.chdir(folder)
    with unwritable(folder):
        status = main(["history", "--db", str(db), "--export", "1"])
    err = capsys.readouterr().err
    assert status == 5, err
    assert err.startswith("scopa-net: cannot write table1-seat0.scopa: ")
    assert err.endswith("; give --out a file in a folder you can write\n")
    assert len(err.splitlines()) == 1
    assert list(folder.iterdir()) == []


def test_history_export_refuses_an_out_named_like_the_names_file_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--export 1 --out two.names` wrote the transcript into two.names, where verify looks
    for the seats' names, and said to verify two.names: one line instead, nothing written."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = tmp_path / "host.db"
    trio.run(play_one_round, str(db))
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "two.names"
    assert main(["history", "--db", str(db), "--export", "1", "--out", str(target)]) == 2
    assert capsys.readouterr().err == (
        f"scopa-net: --out {target}: a .names file holds the seats' names, written beside the "
        f"transcript; give --out the transcript's own name, such as {folder / 'two.scopa'}\n"
    )
    assert list(folder.iterdir()) == []


def test_history_export_of_a_match_still_in_play_says_it_is_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said "wrote table1-seat0.scopa (1 round)" as for a finished match, and only
    verify then said UNFINISHED: the line that writes the file says so."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = tmp_path / "host.db"
    trio.run(play_one_round, str(db))
    target = tmp_path / "t1.scopa"
    command = ["history", "--db", str(db), "--export", "1", "--out", str(target)]
    assert main(command) == 0
    wrote = capsys.readouterr().out
    # (The round may be a void deal: "0 rounds and 1 void round".)
    assert re.fullmatch(
        rf"wrote {re.escape(str(target))} \(\d rounds?( and 1 void round)?, the seats' names in "
        rf"{re.escape(str(target.with_suffix('.names')))}; match still in play: unfinished\); "
        rf"check it with `scopa-net verify --pin [0-9a-f-]+ {re.escape(str(target))}`\n",
        wrote,
    ), wrote
    main(["verify", str(target)])
    assert "UNFINISHED" in capsys.readouterr().out


def test_history_says_each_match_alike_named_numbered_started_and_ended_or_in_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "ended 21:50" for one table and "started 21:46" for others, named no table,
    listed no match in play, and a table's first match had no number while its second did
    (and was missing). Every line now says the same things in the same order."""
    from scopa_net.server.journal import Journal

    def at(hh: int, mm: int) -> float:
        return time.mktime((2026, 12, 6, hh, mm, 0, 0, 0, -1))

    played = {"players": ["Ada", "Bruno"], "scores": [11, 7], "winner": 0, "rules": "2 players"}
    db = tmp_path / "host.db"
    journal = Journal(str(db))
    journal.create_table("1", at(21, 40), {"name": "Kitchen", "players": 2})
    journal.finish_table("1", at(21, 50), {**played, "finished": at(21, 50)})
    journal.reopen_table("1")  # a rematch, in play
    journal.create_table("2", at(21, 46), {"name": "Garden", "players": 2})
    journal.finish_table("2", at(22, 5), {**played, "winner": 1, "scores": [3, 11]})
    journal.create_table("3", at(21, 55), {"name": "Bruno's table", "players": 2})
    journal.close()
    assert main(["history", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines() == [  # in the order they began
        "table 1 'Kitchen', match 1: started 2026-12-06 21:40, ended 21:50: Ada 11 - Bruno 7; "
        "Ada won (2 players)",
        "table 2 'Garden': started 2026-12-06 21:46, ended 22:05: Ada 3 - Bruno 11; Bruno won "
        "(2 players)",
        "table 1 'Kitchen', match 2: started 2026-12-06 21:50, in play",
        'table 3 "Bruno\'s table": waiting for players since 2026-12-06 21:55',  # never dealt
    ]


def test_history_lists_matches_in_the_order_played_and_marks_a_restart_of_the_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """After two evenings, history went table by table: table 1's third match (evening two)
    sat among evening one's lines, and nothing said the host had stopped and started again
    between them. The matches now go in the order they began, each with its date, and a line
    says when the host restarted."""
    from scopa_net.server.journal import Journal

    def at(day: int, hh: int, mm: int) -> float:
        return time.mktime((2026, 12, day, hh, mm, 0, 0, 0, -1))

    def played(began: float, ended: float) -> dict:
        won = {"players": ["Ada", "Bruno"], "scores": [1, 0], "winner": 0, "rules": "2 players"}
        return {**won, "began": began, "finished": ended}

    journal = Journal(str(tmp_path / "host.db"))
    journal.host_started(at(6, 20, 55))
    journal.create_table("1", at(6, 21, 0), {"name": "Club", "players": 2})
    journal.finish_table("1", at(6, 21, 10), played(at(6, 21, 0), at(6, 21, 10)))
    journal.reopen_table("1")
    journal.finish_table("1", at(6, 21, 30), played(at(6, 21, 12), at(6, 21, 30)))
    journal.create_table("2", at(6, 21, 5), {"name": "Garden", "players": 2})
    journal.finish_table("2", at(6, 21, 40), played(at(6, 21, 6), at(6, 21, 40)))
    journal.host_started(at(7, 20, 0))  # evening two
    journal.reopen_table("1")
    journal.finish_table("1", at(7, 20, 20), played(at(7, 20, 5), at(7, 20, 20)))
    journal.create_table("3", at(7, 20, 1), {"name": "Club", "players": 2})
    journal.finish_table("3", at(7, 20, 30), played(at(7, 20, 2), at(7, 20, 30)))
    journal.close()
    assert main(["history", "--db", str(tmp_path / "host.db")]) == 0
    won = "Ada 1 - Bruno 0; Ada won (2 players)"
    assert capsys.readouterr().out.splitlines() == [
        f"table 1 'Club', match 1: started 2026-12-06 21:00, ended 21:10: {won}",
        f"table 2 'Garden': started 2026-12-06 21:06, ended 21:40: {won}",
        f"table 1 'Club', match 2: started 2026-12-06 21:12, ended 21:30: {won}",
        "host restarted 2026-12-07 20:00",
        f"table 3 'Club': started 2026-12-07 20:02, ended 20:30: {won}",
        f"table 1 'Club', match 3: started 2026-12-07 20:05, ended 20:20: {won}",
    ]


async def test_a_host_started_again_is_marked_between_the_matches_history_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real host: a match, the host stopped and started again, a match: history says where
    the host restarted."""
    db = str(tmp_path / "host.db")
    await play_one_match(db, RuleSet.of(2, 1), bot_delay=0.0)
    await play_one_match(db, RuleSet.of(2, 1), bot_delay=0.0)
    assert main(["history", "--db", db]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == [
        "table 1 'test table'",
        out[1].split(":")[0],
        "table 2 'test table (2)'",  # table 1 came back in its minute to play again
    ], out
    assert re.fullmatch(r"host restarted \d{4}-\d\d-\d\d \d\d:\d\d", out[1]), out


def test_history_without_db_lists_the_host_and_play_lan_journals_under_their_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """README offers plain `scopa-net history` for a `play --lan` table: it said "no journal
    at .../host.db" (status 2). Each journal kept is listed under a heading naming it, and
    --export of a table number both hold says which --db to give."""
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    lan = data / "scopa-net" / "play-lan" / "host.db"
    lan.parent.mkdir(parents=True)
    trio.run(play_one_match, str(lan))
    assert main(["history"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"play --lan (--db {lan}):"
    assert re.match(r"  table 1 .*: started .*: ann: \d+ - bot 1: \d+; .* won", out[1])
    assert len(out) == 2
    monkeypatch.chdir(tmp_path)
    assert main(["history", "--export", "1"]) == 0  # the one journal that has a table 1
    assert "wrote table1-seat0.scopa" in capsys.readouterr().out

    host = data / "scopa-net" / "host.db"
    trio.run(play_one_match, str(host))
    assert main(["history"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"scopa-net host (--db {host}):"
    assert out[2] == f"play --lan (--db {lan}):"
    assert len(out) == 4
    assert main(["history", "--export", "1"]) == 2
    assert capsys.readouterr().err == (
        f"scopa-net: table 1 is in both journals: give --db {host} (scopa-net host) or "
        f"--db {lan} (play --lan)\n"
    )
    assert main(["history", "--export", "2"]) == 2
    assert capsys.readouterr().err == (
        f"scopa-net: no table 2 in either journal (--db {host} (scopa-net host) or "
        f"--db {lan} (play --lan))\n"
    )


def test_a_changed_host_key_is_a_loud_warning(tmp_path: Path) -> None:
    known = KnownHosts(tmp_path / "known_hosts")
    first, second = bytes(range(32)), bytes(range(1, 33))
    assert known.check("host:7311", first) is None  # pinned on first use
    assert known.check("host:7311", first) is None
    warning = known.check("host:7311", second)
    assert warning is not None
    assert "WARNING" in warning
    assert fingerprint(second) in warning
    assert fingerprint(first) in warning
    assert known.check("other:7311", second) is None


def test_pinning_a_changed_key_cut_short_by_a_crash_loses_no_pin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pin`` (the person accepts a host's new key) rewrote known_hosts in place: a crash in
    the middle left it cut short, and every host past the cut was then met as new. Until the
    new file is renamed over it, the old one stays whole."""
    known = KnownHosts(tmp_path / "known_hosts")
    first, second = bytes(range(32)), bytes(range(1, 33))
    for n in range(3):
        assert known.check(f"host{n}:7311", first) is None
    before = known.path.read_text()

    def crash_before_the_rename(*args: object) -> None:
        raise OSError("the machine went down")

    monkeypatch.setattr(os, "replace", crash_before_the_rename)
    with pytest.raises(OSError, match="went down"):
        known.pin("host1:7311", second)
    monkeypatch.undo()
    assert known.path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["known_hosts"]  # nothing replaced yet
    known.pin("host1:7311", second)
    assert [known.pinned(f"host{n}:7311") for n in range(3)] == [first, second, first]
    # The new one renamed over the old, and the key it replaced kept for verify.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["known_hosts", "replaced_hosts"]
    assert (tmp_path / "replaced_hosts").read_text() == f"host1:7311 {first.hex()}\n"


def test_host_refuses_five_players_and_bad_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["host", "--players", "5", "--db", ":memory:", "--no-advertise"]) == 2
    assert "5 players cannot play" in capsys.readouterr().err
    assert main(["host", "--players", "2", "--bots", "2", "--db", ":memory:"]) == 2
    assert "--bots must leave a seat" in capsys.readouterr().err


def test_join_parses_addresses() -> None:
    from scopa_net.commands.join import parse_address

    assert parse_address("kitchen") == ("kitchen", 7311)
    assert parse_address("10.0.0.2:9000") == ("10.0.0.2", 9000)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    for bad in (":9000", "host:0", "host:99999", "host:x"):
        with pytest.raises(ValueError, match="in"):
            parse_address(bad)


def test_join_lists_tables_and_takes_the_number_typed(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    threaded_host: HostThread,
) -> None:
    import argparse

    from scopa_net.commands.join_tables import table_choice

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    host = threaded_host.host
    threaded_host.call(host.create_table, "one", RuleSet.of(2), None, 1, 1)
    threaded_host.call(host.create_table, "two", RuleSet.of(4), "pw", 2, 1)
    args = argparse.Namespace(
        create=False, table=None, seat=None, password="pw", accept_new_key=False
    )
    answers = iter(["9", "2"])
    choice = table_choice(args, "127.0.0.1", host.port, lambda _: next(answers))
    assert choice is not None
    assert choice.table_id == 2
    assert choice.password == "pw"
    out = capsys.readouterr().out
    assert "table 1 'one'" in out
    assert "[password]" in out
    assert "type one of the table numbers listed (1, 2), or press Enter to stop" in out


@pytest.mark.xdist_group("mdns")  # real mDNS: the same worker as test_server_discovery.py
def test_join_finds_an_announced_host_on_the_lan(capsys: pytest.CaptureFixture[str]) -> None:
    from scopa_net.commands.join_lan import choose_lan_host
    from scopa_net.server.discovery import HostAdvert, LanAdvertiser

    require_multicast()
    name, port = unique_name("lan table"), free_port()
    old_name, old_port = unique_name("older host"), free_port()
    advertiser = LanAdvertiser(
        HostAdvert(name, port, m.PROTOCOL_VERSION, 2, True, key=bytes(32), password_open=2),
        "127.0.0.1",
        addresses=["127.0.0.1"],
    )
    older = LanAdvertiser(
        HostAdvert(old_name, old_port, 2, 1, False), "127.0.0.1", addresses=["127.0.0.1"]
    )
    try:
        listed: list[str] = []

        def ask(prompt: str) -> str:
            listed.append(capsys.readouterr().out)
            lines = [x for x in listed[-1].splitlines() if name in x]
            assert lines, f"{name!r} was advertised but not listed: {listed[-1]}"
            return lines[0].split(".")[0]

        picked = choose_lan_host(ask, seconds=3.0, interfaces=["127.0.0.1"])  # loopback only
        assert picked == ("127.0.0.1", port)
        short = "-".join(fingerprint(bytes(32)).split("-")[:2])
        assert f"{name} at 127.0.0.1:{port}, key {short} (2 open seats, password)" in listed[-1]
        # A host of another version (an older scopa-net) is listed, saying it cannot be joined
        # (picking it would only end in bad_version).
        assert (
            f"{old_name} at 127.0.0.1:{old_port} (1 open seat; another version: its scopa-net "
            f"is older than yours (protocol 2, this one {m.PROTOCOL_VERSION}), so it cannot be "
            "joined until its organiser updates it)"
        ) in listed[-1], listed[-1]
    finally:
        advertiser.close()
        older.close()


def test_the_host_tells_on_stdout_how_to_join(tmp_path: Path) -> None:
    """ "players join with: scopa-net join ..." went to stderr with the log, so a host run
    with `2>/dev/null` (or its log sent to a file) showed a person nothing."""
    import selectors
    import signal
    import subprocess

    proc = subprocess.Popen(
        host_command(tmp_path / "host.db", 0), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        assert proc.stdout is not None
        with selectors.DefaultSelector() as ready:
            ready.register(proc.stdout, selectors.EVENT_READ)
            assert ready.select(timeout=30), "nothing on stdout"
        key = proc.stdout.readline().decode()
        first = proc.stdout.readline().decode()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)  # waits, and closes the pipe
    assert key.startswith("host key ")
    assert first.startswith("scopa-net host listening on 127.0.0.1:")


def test_a_listed_table_names_its_seats_in_plain_words() -> None:
    """`join`'s list of tables: the seats after their count read "1 open seat ((open), bot
    1)", a parenthesis in a parenthesis."""
    from scopa_net.commands.join_tables import describe_table
    from scopa_net.wire import messages as m

    table = m.TableInfo(
        id=1,
        name="kitchen",
        rules=m.RulesInfo.of(RuleSet.of(2, 11)),
        password=False,
        seats=(
            m.SeatInfo(kind="open", name=None, connected=False),
            m.SeatInfo(kind="bot", name="bot 1", connected=True),
        ),
        bot_level=2,
        started=False,
    )
    listed = (
        "table 1 'kitchen': 2 players, playing to 11, no variants; 1 open seat (seats: open, bot 1)"
    )
    assert describe_table(table) == f"{listed}; waiting"


def test_an_export_is_private_and_dated_when_its_match_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`verify` says when an exported match was played, not when it was exported, and the
    files are its owner's only (0600), as the client's own transcripts are."""
    from scopa_net.server.journal import Journal

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = tmp_path / "host.db"
    trio.run(play_one_match, str(db))
    ended = time.mktime((2026, 3, 1, 4, 12, 0, 0, 0, -1))  # the match ended at 04:12
    journal = Journal(str(db))
    (record,) = journal.tables()
    journal.finish_table(record.table_id, ended, {**record.summary, "finished": ended})
    journal.close()
    old = os.umask(0o022)  # a usual umask: a file made 0644 would show it
    try:
        target = tmp_path / "t1.scopa"
        assert main(["history", "--db", str(db), "--export", "1", "--out", str(target)]) == 0
    finally:
        os.umask(old)
    for written in (target, tmp_path / "t1.names"):
        assert written.stat().st_mode & 0o777 == 0o600, written
        assert written.stat().st_mtime == ended, written
    capsys.readouterr()
    main(["verify", str(target)])
    assert "saved 2026-03-01 04:12 (the file's time" in capsys.readouterr().out


def test_a_listed_table_of_partners_says_who_plays_with_whom() -> None:
    """Two friends joining a four-player table saw "(seats: Nicolò, open, bot 2, bot 3)":
    nothing said the open seat partners bot 3, not Nicolò (partners sit opposite). Each side
    is said as the game's "Partners:" line says it, an open seat in words."""
    from scopa_net.commands.join_tables import describe_table
    from scopa_net.wire import messages as m

    def table(players: int, variants: tuple[str, ...], *names: str | None) -> m.TableInfo:
        seats = tuple(
            m.SeatInfo(kind="open", name=None, connected=False)
            if name is None
            else m.SeatInfo(kind="human", name=name, connected=True)
            for name in names
        )
        rules = m.RulesInfo.of(RuleSet.of(players, 11, variants))
        return m.TableInfo(
            id=1, name="club", rules=rules, password=False, seats=seats, bot_level=2, started=False
        )

    four = describe_table(table(4, (), "Nicolò", None, "bot 2", "bot 3"))
    assert (
        "(seats: Nicolò, open, bot 2, bot 3; partners: Nicolò and bot 2 against bot 3 and an "
        "open seat)"
    ) in four
    # "partners: open & open v open & bot 3" read as players called "open", and "v" as a name.
    empty = describe_table(table(4, (), None, None, None, "bot 3"))
    assert (
        "(seats: open, open, open, bot 3; partners: two open seats against bot 3 and an open seat)"
    ) in empty
    pairs = describe_table(
        table(6, ("six_as_three_pairs",), "Ada", "Bruno", None, "Dino", None, "Fede")
    )
    assert (
        "; partners: Ada and Dino against Bruno and an open seat against Fede and an open seat)"
    ) in pairs
    teams = describe_table(table(6, (), "Ada", None, "Carla", None, None, "Fede"))
    assert "; partners: Ada, Carla and an open seat against Fede and two open seats)" in teams
    assert "partners" not in describe_table(table(3, (), "Ada", None, "Carla"))
