"""What the subcommands promise in their help, run from the command line: the host's table and
limits flags, SIGINT, history's empty journal, seat range and default file name, demo --rounds
and arena --variant; join --create; play --seed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
import trio
from cheats import leave_out_after_its_receipt
from helpers import free_port
from hosting import HostThread, host_command, host_in_thread, play_one_match
from rawseat import RawSeat
from reading_screen import FirstDeal, reading_screen

from scopa_net.client.network_session import (
    SessionError,
    TableChoice,
    list_tables,
    open_network_session,
)
from scopa_net.commands.main import main
from scopa_net.commands.options import (
    EXIT_CANCELLED,
    EXIT_FAILED,
    EXIT_REFUSED,
    LEVEL_WIRE_NUMBERS,
    player_for,
)
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m


async def wait_until_listed(port: int) -> tuple:
    with trio.fail_after(30):
        while True:
            try:
                tables = await list_tables("127.0.0.1", port)
            except (OSError, SessionError, trio.BrokenResourceError):
                await trio.sleep(0.05)
                continue
            if tables:
                return tables
            await trio.sleep(0.05)


async def test_host_flags_open_the_table_and_set_the_limits_and_sigint_stops_it(
    tmp_path: Path,
) -> None:
    port = free_port()
    flags = ["--players", "3", "--bots", "1", "--bot-level", "hard", "--target", "5"]
    flags += ["--variant", "napola", "--password", "pw", "--table-name", "kitchen"]
    flags += ["--grace", "7", "--bot-delay", "0"]
    err = tmp_path / "stderr.txt"
    with err.open("wb") as stderr:
        proc = await trio.lowlevel.open_process(
            host_command(tmp_path / "host.db", port, *flags), stderr=stderr
        )
    try:
        (table,) = await wait_until_listed(port)
        assert table.name == "kitchen"
        assert table.password
        assert table.rules.to_rules() == RuleSet.of(3, 5, ["napola"])
        assert sorted(s.kind for s in table.seats) == ["bot", "open", "open"]
        # --password: a wrong one is refused; the right one seats the player.
        with trio.fail_after(30):
            with pytest.raises(SessionError, match="bad_password"):
                async with open_network_session(
                    "127.0.0.1", port, TableChoice(table_id=table.id, password="no"), name="x"
                ):
                    pass
            async with open_network_session(
                "127.0.0.1", port, TableChoice(table_id=table.id, password="pw"), name="ann"
            ) as session:
                assert session.seat is not None
        # SIGINT (Ctrl-C in the host's terminal) shuts it down cleanly.
        proc.send_signal(signal.SIGINT)
        with trio.fail_after(30):
            code = await proc.wait()
        assert code == 0, err.read_text()
        assert "Traceback" not in err.read_text()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    journal = Journal(str(tmp_path / "host.db"))
    try:
        (record,) = journal.tables()
        assert record.settings["name"] == "kitchen"
        assert record.settings["variants"] == ["napola"]
    finally:
        journal.close()


async def welcomed(port: int) -> RawSeat:
    """A raw client past ``welcome``; a connection the host is still closing may count against
    the per-address limit for a moment, so a refusal is tried again (for 10 s)."""
    with trio.fail_after(10):
        while True:
            try:
                return await RawSeat.connect(port)
            except EOFError:
                await trio.sleep(0.05)


async def seated(port: int, table_id: int, name: str) -> RawSeat:
    seat = await welcomed(port)
    await seat.join(table_id, name=name)
    return seat


async def test_host_grace_and_max_per_address_take_effect_from_the_command_line(
    tmp_path: Path,
) -> None:
    """``--max-per-address 2``: with two players seated from 127.0.0.1 a third connection is
    told why it is refused, and is let in once one has gone. ``--grace 2``: the seat of the
    player who dropped waits 2 s (its status says so), then a bot stands in."""
    port = free_port()
    flags = ["--players", "2", "--grace", "2", "--max-per-address", "2", "--bot-delay", "0"]
    err = tmp_path / "stderr.txt"
    with err.open("wb") as stderr:
        proc = await trio.lowlevel.open_process(
            host_command(tmp_path / "host.db", port, *flags), stderr=stderr
        )
    try:
        (table,) = await wait_until_listed(port)
        ann = await seated(port, table.id, "ann")
        bob = await seated(port, table.id, "bob")
        with trio.fail_after(10):
            third = RawSeat(await trio.open_tcp_stream("127.0.0.1", port))
            await third.send(m.Hello(version=m.PROTOCOL_VERSION, client="third"))
            bye = await third.until(lambda msg: isinstance(msg, m.Bye))
        assert bye == m.Bye(
            reason="too_many_connections", message="at most 2 connections from one address"
        )
        await third.aclose()

        await bob.aclose()
        dropped = await ann.until(
            lambda msg: isinstance(msg, m.SeatStatus) and msg.seat == bob.seat and not msg.connected
        )
        started = trio.current_time()
        assert isinstance(dropped, m.SeatStatus)
        assert (dropped.connected, dropped.grace, dropped.stand_in) == (False, 2, False)
        stood_in = await ann.until(
            lambda msg: isinstance(msg, m.SeatStatus) and msg.seat == bob.seat and msg.stand_in
        )
        assert trio.current_time() - started >= 1.5  # a lower bound: load only lengthens it
        assert isinstance(stood_in, m.SeatStatus)
        assert not stood_in.connected
        # One connection of two has gone: a new one is welcomed again.
        await (await welcomed(port)).aclose()
        await ann.aclose()
    finally:
        proc.kill()
        await proc.wait()
    assert "Traceback" not in err.read_text()


def test_history_of_an_empty_journal_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scopa-net history`` reads the journal in the data folder, as the host keeps it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    (tmp_path / "scopa-net").mkdir()
    Journal(str(tmp_path / "scopa-net" / "host.db")).close()
    assert main(["history"]) == 0
    assert capsys.readouterr().out == "no matches yet\n"


def test_history_names_a_seat_nobody_took_by_its_number_not_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table closed before its second seat was taken: history read "None 0 - bruno 0"."""
    db = tmp_path / "host.db"
    journal = Journal(str(db))
    journal.create_table("1", 1.0, {"players": 2})
    # The summary as the host records a table closed unfinished (an open seat has no name).
    summary = {"players": [None, "bruno"], "scores": [0, 0], "winner": None, "abandoned": True}
    journal.finish_table("1", 2.0, {**summary, "closed": "its owner left it for good"})
    journal.close()
    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "None" not in out
    assert re.search(
        r": seat 0 \(open\) 0 - bruno 0; closed unfinished: its owner left it for good\n", out
    ), out


def test_history_export_checks_the_seat_and_names_the_file_as_its_help_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "host.db"
    trio.run(partial(play_one_match, str(db), RuleSet.of(2, 1), bot_delay=0))
    base = ["history", "--db", str(db), "--export", "1"]
    assert main([*base, "--seat", "2"]) == 2
    # It named no valid seat.
    assert capsys.readouterr().err == (
        "scopa-net: seat 2 is not a seat at table 1: give --seat 0 to 1, or the name of "
        "someone who held one\n"
    )
    assert main([*base, "--seat", "-1"]) == 2
    assert "seat -1 is not a seat at table 1" in capsys.readouterr().err
    # Without --out: tableT-seatS.scopa in the current folder, as --help says.
    monkeypatch.chdir(tmp_path)
    assert main([*base, "--seat", "1"]) == 0
    assert "wrote table1-seat1.scopa" in capsys.readouterr().out
    assert (tmp_path / "table1-seat1.scopa").is_file()
    assert main(["history", "--help"]) == 0
    assert "tableT-seatS.scopa" in capsys.readouterr().out
    assert main(["verify", "table1-seat1.scopa"]) == 0


def test_demo_rounds_shows_that_many_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--rounds", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^Round (\d+), dealer seat \d", out, re.MULTILINE) == ["1", "2"]


def test_arena_plays_the_variant_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "easy", "medium", "--matches", "2", "--variant", "quindici", "--quiet"]
    argv += ["--jobs", "1"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "2 players, target 11, variants: quindici" in captured.out + captured.err


async def test_join_create_asks_the_host_for_the_table_the_flags_describe(
    host: Host, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scopa_net.commands.join_tables import table_choice
    from scopa_net.commands.main import build_parser

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    argv = ["join", f"127.0.0.1:{host.port}", "--create", "--players", "4", "--target", "5"]
    argv += ["--variant", "scopone", "--bots", "2", "--bot-level", "hard"]
    argv += ["--password", "pw", "--name", "Ada"]
    args = build_parser().parse_args(argv)

    def never_asked(prompt: str) -> str:
        raise AssertionError(f"--create asked {prompt!r}")

    with trio.fail_after(30):
        choice = await trio.to_thread.run_sync(
            table_choice, args, "127.0.0.1", host.port, never_asked
        )
    assert choice is not None
    assert choice.create is not None
    create = choice.create
    assert create.name == "Ada's table"
    assert create.password == "pw"
    assert create.rules.to_rules() == RuleSet.of(4, 5, ["scopone"])
    assert create.bots == 2
    assert create.bot_level == LEVEL_WIRE_NUMBERS["hard"]
    # The host takes that request as it is: the table is opened as described.
    async with open_network_session("127.0.0.1", host.port, choice, name="Ada") as session:
        (listed,) = await list_tables("127.0.0.1", host.port)
        assert listed.id == session.table_id
        assert listed.name == "Ada's table"
        assert listed.password
        assert listed.rules.to_rules() == RuleSet.of(4, 5, ["scopone"])
        assert sorted(s.kind for s in listed.seats) == ["bot", "bot", "human", "open"]
        # Friends are told the table asks for a password (it said only `--table N`; then
        # "--password PASSWORD", a command line other users of their machine read), and
        # never the password itself (said once the host's LAN address is looked for).
        with trio.fail_after(10):
            while not session.where_to_join:
                await trio.sleep(0.01)
        assert session.where_to_join == (
            f"Table {session.table_id} is yours. Friends join it with `scopa-net join "
            f"127.0.0.1:{host.port} --table {session.table_id}` (use the host machine's LAN "
            "address, not 127.0.0.1), which asks them for the password you chose (tell them "
            "yourself: it is not shown here); the match begins when every seat is taken.",
        )


def first_deal_of_play(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[str, ...]:
    """Run ``scopa-net play ARGV`` with the screen replaced by a reader of the first deal:
    the session is the real one the command opens; returns the hand and table dealt."""
    from scopa_net.client import launch

    seen: list[FirstDeal] = []
    monkeypatch.setattr(launch, "run_game_screen", reading_screen(seen))
    assert main(["play", "--bot-delay", "0", *argv]) == 0
    (dealt,) = seen
    return (*dealt.hand, "|", *dealt.table)


def test_play_seed_repeats_the_deal_offline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    first = first_deal_of_play(["--seed", "5"], monkeypatch)
    assert first == first_deal_of_play(["--seed", "5"], monkeypatch)
    assert first != first_deal_of_play(["--seed", "6"], monkeypatch)
    assert len(first) == 3 + 1 + 4  # three cards in hand, four on the table


def bots_seated(out: str) -> list[int]:
    """The seats the ``bots`` command says its bots sat down at, in order."""
    return [int(n) for n in re.findall(r"^bot-\d+: seated at table \d+ seat (\d)$", out, re.M)]


def test_bots_take_the_open_seats_at_the_level_asked_for(
    threaded_host: HostThread,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """The README's ``scopa-net bots HOST --count 3 --bot-level hard``, at a 4-seat table to 1
    point with a bot of the host's: three bots take the three open seats, each plays as the
    hard computer player, and all three see the match to its end. Asked for more bots than
    there are open seats, the command says so and sends as many as fit."""
    from scopa_net.server import thinking

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    made: list[str] = []
    real_table_player = thinking.table_player

    def recording_table_player(level: str, seed: int, think: float) -> object:
        made.append(level)
        return real_table_player(level, seed, think)

    monkeypatch.setattr(thinking, "table_player", recording_table_player)
    host = threaded_host.host
    threaded_host.call(host.create_table, "kitchen", RuleSet.of(4, 1), None, 1, 1)
    (listed,) = trio.run(list_tables, "127.0.0.1", host.port)
    open_seats = [n for n, seat in enumerate(listed.seats) if seat.kind == "open"]
    assert len(open_seats) == 3
    assert main(["bots", threaded_host.address, "--count", "3", "--bot-level", "hard"]) == 0
    out = capsys.readouterr().out
    assert sorted(bots_seated(out)) == open_seats
    assert made == [player_for("hard")] * 3
    assert len(re.findall(r"^bot-\d+ \(table 1 seat \d\): match over after", out, re.M)) == 3
    assert "3 bots sent, 1 match finished, in " in out

    threaded_host.call(host.create_table, "two", RuleSet.of(2, 1), None, 1, 1)
    made.clear()
    assert main(["bots", threaded_host.address, "--count", "3", "--bot-level", "easy"]) == 0
    out = capsys.readouterr().out
    # Before: "sending 1 bots" and "3 bots: 1 matches finished", for the one bot sent.
    assert f"1 open seat at {threaded_host.address}; sending 1 bot\n" in out
    assert len(bots_seated(out)) == 1
    # A match to 1 point is usually one round, but a tie above the target plays another, and
    # a deal void for its kings (about 1 in 600) is counted apart.
    over = re.search(
        r"^bot-\d+ \(table 2 seat \d\): match over after (\d+) (rounds?)"
        r"(?: \(\d+ of them void\))?, ",
        out,
        re.M,
    )
    assert over is not None, out
    assert over[2] == ("round" if over[1] == "1" else "rounds")
    assert "\n1 bot sent, 1 match finished, in " in out
    assert made == [player_for("easy")]


def test_bots_create_open_tables_of_the_size_asked_for_and_wait_between_moves(
    threaded_host: HostThread, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``--create --players 4 --target 1 --count 3``: the bots open one 4-seat table to 1
    point, take three seats and leave the fourth to a host bot. ``--bot-delay``: each move
    waits at least half the delay (a lower bound on the time, so load cannot break it)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    argv = ["bots", threaded_host.address, "--create", "--players", "4", "--target", "1"]
    assert main([*argv, "--count", "3", "--bot-level", "easy"]) == 0
    out = capsys.readouterr().out
    assert sorted(bots_seated(out)) == [0, 1, 2]

    async def tables() -> list[dict]:
        return [record.settings for record in threaded_host.host.journal.tables()]

    (settings,) = threaded_host.call(tables)
    assert (settings["players"], settings["target"], settings["bots"]) == (4, 1, 1)

    delay = 0.05
    argv = ["bots", threaded_host.address, "--create", "--count", "2", "--target", "1"]
    started = time.perf_counter()
    assert main([*argv, "--bot-delay", str(delay), "--stats", "--quiet"]) == 0
    elapsed = time.perf_counter() - started
    out = capsys.readouterr().out
    moves = int(re.search(r"^(\d+) moves$", out, re.M)[1])  # type: ignore[index]
    assert moves >= 36  # at least one whole round of two players: 40 cards less 4 on the table
    assert elapsed >= moves * delay / 2


def test_bots_check_every_deal_unless_told_not_to(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A host that deals round 1 without a seed it signed a receipt for: the bots catch it,
    the command lists the failure in one line per bot and ends with status 1 (no traceback);
    with ``--no-check`` the same bots play the match through and end with 0."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    leave_out_after_its_receipt(monkeypatch, seat=0)
    argv = ["bots", "", "--create", "--count", "2", "--target", "1"]
    with host_in_thread(grace=0.2) as running:
        argv[1] = running.address
        assert main(argv) == EXIT_FAILED
        err = capfd.readouterr().err
        assert "Traceback" not in err
        # One line per bot: before, a failed check came twice, once unnamed and once with
        # the banner's second line ("The game stops here: ...") broken onto a line of its own.
        failures = [line for line in err.splitlines() if line.strip()]
        assert failures[0].startswith("failure: bot-1: DEAL CHECK FAILED in round 1: host lied")
        assert all(line.startswith("failure: bot-") for line in failures)
        assert len(failures) == len({line.split(":")[1] for line in failures})
    with host_in_thread(grace=0.2) as running:
        argv[1] = running.address
        assert main([*argv, "--no-check"]) == 0
        captured = capfd.readouterr()
        assert "2 bots sent, 1 match finished, in " in captured.out
        assert "failure" not in captured.err


def run_bots_command(address: str, data: Path, *argv: str) -> subprocess.Popen[str]:
    """`scopa-net bots ADDRESS ARGV` in a process of its own, as a person runs it.

    A terminal starts a command with Ctrl-C at its default. A suite started in the background
    by a script (``pytest ... &``) has SIGINT ignored, a child would inherit that, and Python
    then turns no Ctrl-C into KeyboardInterrupt: so the child is started while this process
    catches SIGINT, which exec resets to the default."""
    command = [sys.executable, "-m", "scopa_net", "bots", address, *argv]
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            command, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    finally:
        signal.signal(signal.SIGINT, before)


def bots_refused(address: str, tmp_path: Path) -> str:
    """What `scopa-net bots ADDRESS` printed on its way out, refused (status 4)."""
    bots = run_bots_command(address, tmp_path)
    _, err = bots.communicate(timeout=60)
    assert bots.returncode == EXIT_REFUSED, err
    return err


def test_bots_with_no_open_seat_are_refused_in_one_line(
    threaded_host: HostThread, tmp_path: Path
) -> None:
    """`bots HOST` with no open seat said "0 open seats ...; sending 0 bots" and "0 bots sent"
    with status 0; it is now refused in one line, with status 4 and the way on."""
    assert bots_refused(threaded_host.address, tmp_path) == (
        f"scopa-net: no table at {threaded_host.address} has an open seat; "
        f"`scopa-net bots {threaded_host.address} --create` opens tables for the bots\n"
    )


def test_bots_leave_the_seats_of_a_table_with_a_password_alone(
    threaded_host: HostThread, tmp_path: Path
) -> None:
    """Without --password: with open seats only at a table that has one, `bots HOST` sent a
    bot there, which failed ("bot-1: bad_password: ..."), status 1. It is now refused in one
    line that says why, with status 4 and the ways on (the flag that gives the password,
    --create); with another table's seat open as well, the bot goes there."""
    host = threaded_host.host
    threaded_host.call(host.create_table, "locked", RuleSet.of(2, 1), "pw", 0, 1)
    assert bots_refused(threaded_host.address, tmp_path) == (
        f"scopa-net: no table at {threaded_host.address} has an open seat without a password; "
        "give the table's --password (and --table N), or "
        f"`scopa-net bots {threaded_host.address} --create` opens tables for the bots\n"
    )
    threaded_host.call(host.create_table, "open", RuleSet.of(2, 1), None, 1, 1)
    sent = run_bots_command(threaded_host.address, tmp_path)
    out, err = sent.communicate(timeout=60)
    assert sent.returncode == 0, err
    assert re.findall(r"^bot-1: seated at table (\d+) seat \d$", out, re.M) == ["2"]


def test_ctrl_c_stops_the_bots_in_one_line(threaded_host: HostThread, tmp_path: Path) -> None:
    """Ctrl-C while the bots wait at a table printed a traceback of trio's exception group;
    now "scopa-net: stopped" and status 130."""
    host = threaded_host.host
    threaded_host.call(host.create_table, "two people", RuleSet.of(2, 1), None, 0, 1)
    waiting = run_bots_command(threaded_host.address, tmp_path, "--count", "1")
    assert waiting.stdout is not None
    assert waiting.stdout.readline().startswith("bot-1: seated at table")  # waits for a second
    waiting.send_signal(signal.SIGINT)
    try:
        _, err = waiting.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        # Stop the process (a leftover one fails later tests on its unclosed pipes) and
        # show what it had said.
        waiting.kill()
        out, err = waiting.communicate()
        pytest.fail(f"the bots did not stop within 60 s of Ctrl-C:\n{out}\n{err}")
    assert waiting.returncode == EXIT_CANCELLED
    assert "Traceback" not in err
    assert err.strip() == "scopa-net: stopped"


def test_history_of_two_empty_journals_says_so_under_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """History lists matches in play too: an empty journal has "no matches yet" (it said
    "no finished matches", as if some were in play), under each journal's heading."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    host = tmp_path / "scopa-net" / "host.db"
    lan = tmp_path / "scopa-net" / "play-lan" / "host.db"
    lan.parent.mkdir(parents=True)
    Journal(str(host)).close()
    Journal(str(lan)).close()
    assert main(["history"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"scopa-net host (--db {host}):",
        "  no matches yet",
        f"play --lan (--db {lan}):",
        "  no matches yet",
    ]
