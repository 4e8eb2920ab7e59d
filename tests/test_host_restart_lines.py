"""What an organiser reads from ``scopa-net host`` as README runs it: its key on stdout at
every log level, what a restart resumed in one line, the same table (not one more) for the
same command run again, and status 0 for Ctrl-C, a host's normal end."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import trio
from helpers import free_port
from hosting import host_command, host_process, play_one_match, start_host

from scopa_net.fair.commitments import fingerprint, public_key_bytes
from scopa_net.rules import RuleSet
from scopa_net.server.host import load_host_key
from scopa_net.server.journal import Journal

README_HOST = ("--players", "2", "--bots", "1")


def listed_tables(port: int) -> str:
    """What ``scopa-net join`` lists at the host, from a script (no table chosen)."""
    done = subprocess.run(
        [sys.executable, "-m", "scopa_net", "join", f"127.0.0.1:{port}", "--accept-new-key"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    return done.stdout + done.stderr


def test_a_host_whose_table_closed_says_there_is_nothing_to_resume(tmp_path: Path) -> None:
    """Stopped after its one table had closed for good (the computers said no to playing
    again), the host said "stopped; the tables are saved in ...: the same command resumes
    them": run again, it resumed nothing. It says there is nothing to resume."""
    env = dict(os.environ) | {"XDG_DATA_HOME": str(tmp_path / "data")}
    db, port = tmp_path / "host.db", free_port()
    argv = host_command(db, port)
    argv[argv.index("WARNING")] = "INFO"  # "table 1 closed: ..." in its log, on stderr
    host = host_process(argv, env)
    try:
        bots = [sys.executable, "-m", "scopa_net", "bots", f"127.0.0.1:{port}", "--create"]
        done = subprocess.run(
            [*bots, "--target", "1", "--quiet"],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert host.proc.stderr is not None
        watchdog = threading.Timer(60, host.proc.kill)  # (a log that never says it: no hang)
        watchdog.start()
        try:
            closed = any("table 1 closed" in line for line in host.proc.stderr)
        finally:
            watchdog.cancel()
        assert closed, "the host's log never said table 1 closed"
        status, rest, _ = host.stop()
    finally:
        host.proc.kill()
        host.proc.wait()
    assert (status, rest) == (0, "stopped; no table was open, so there is nothing to resume\n")


def test_a_restarted_host_says_what_it_resumed_and_keeps_its_one_table(tmp_path: Path) -> None:
    env = dict(os.environ) | {"XDG_DATA_HOME": str(tmp_path / "data")}
    db, port = tmp_path / "host.db", free_port()
    first = host_process(host_command(db, port, *README_HOST), env)
    status, rest, _ = first.stop()
    # Ctrl-C is a host's normal end: 0, with where the tables are kept (it was 0, silently,
    # or 130 when it came before the table was open).
    assert status == 0
    assert rest == f"stopped; the tables are saved in {db}: the same command resumes them\n"
    journal = Journal(db)
    key = fingerprint(public_key_bytes(load_host_key(journal)))
    journal.close()
    # The key was in an INFO log line only, hidden by --log-level WARNING (host_command's).
    assert first.out[0] == f"host key {key} (players see it when they join)"

    again = host_process(host_command(db, port, *README_HOST), env)
    try:
        assert again.out[1] == "resumed 1 table (1 waiting for players): table 1"
        assert again.out[2] == "table 1 is open again: 2 players, target 11, variants: none"
        listed = listed_tables(port)
    finally:
        status, rest, err = again.stop()
    assert status == 0
    assert "table 1" in listed
    assert "table 2" not in listed  # each restart opened one more 'table 1'
    assert "/s" not in err  # "restoring 1/1 tables 100% 134426.7/s took 0 s"
    assert "finished" not in err


async def test_a_match_over_before_a_restart_is_not_logged_again_as_news(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """It came back at INFO as "table 1 finished: scores [1, 2], ..." at every restart
    within ten minutes of the end, as if it had just been played."""
    db = str(tmp_path / "host.db")
    await play_one_match(db, RuleSet.of(2, 1), bot_delay=0.0)
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        again = await start_host(nursery, db=db)
        await again.shutdown()
        nursery.cancel_scope.cancel()
    again.journal.close()
    assert [r.message for r in caplog.records if "finished" in r.message] == []
    with Journal(db) as journal:
        assert [t.finished is not None for t in journal.tables()] == [True]  # kept all the same


async def test_a_match_just_over_is_logged_with_its_scores_by_name(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's line read "table 1 finished: scores [2, 0], ..." (a Python list), then
    "table 1 finished: scores ann 1 - bot 1 0, ...": it says the scores by the players' names,
    as history does, which match it was and who won."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    await play_one_match(str(tmp_path / "host.db"), RuleSet.of(2, 1), bot_delay=0.0)
    (line,) = [r.message for r in caplog.records if "finished" in r.message]
    assert re.fullmatch(
        r"table 1: match 1 finished: ann: \d+ - bot 1: \d+; (ann|bot 1) won "
        r"\(2 players, target 1, .*\)",
        line,
    ), line


def test_the_host_says_a_table_is_blind(tmp_path: Path) -> None:
    """Its console says which tables are blind, as ``join`` lists them ``[blind]``: a tester
    running a club host could not tell from it."""
    env = dict(os.environ) | {"XDG_DATA_HOME": str(tmp_path / "data")}
    host = host_process(host_command(tmp_path / "host.db", free_port(), "--players", "2"), env)
    try:
        opened = host.out[1]
    finally:
        host.stop()
    assert opened == "table 1 is open: 2 players, target 11, variants: none; blind"


def test_a_host_restarted_with_its_table_in_play_resumes_it_and_opens_no_other(
    tmp_path: Path,
) -> None:
    """README's host, Ada playing its computer: stopped, then run again to carry on, it
    resumed the match AND opened an empty 'table 1 (2)', which friends' join listed beside
    it. The same command resumes the table it opened, in play or waiting, and says so."""
    env = dict(os.environ) | {"XDG_DATA_HOME": str(tmp_path / "data")}
    db, port = tmp_path / "host.db", free_port()
    first = host_process(host_command(db, port, *README_HOST), env)

    async def ada_plays_then_the_host_stops() -> None:
        from rawseat import RawSeat

        ada = await RawSeat.connect(port)
        await ada.join(1, name="Ada")
        await ada.dealt()
        assert first.stop()[0] == 0
        await ada.aclose()

    trio.run(ada_plays_then_the_host_stops)
    for _ in range(2):  # each restart the same: one table, not one more
        again = host_process(host_command(db, port, *README_HOST), env)
        try:
            said = again.out[1:3]
            listed = listed_tables(port)
        finally:
            assert again.stop()[0] == 0
        assert said == [
            "resumed 1 table (1 in play): table 1 (Ada)",
            "table 1 is open again, its match going on: 2 players, target 11, variants: none",
        ]
        assert "table 2" not in listed, listed
        assert "(2)" not in listed, listed


def test_a_host_s_own_table_is_called_by_its_own_number(tmp_path: Path) -> None:
    """Started after a match had been played on table 1, ``scopa-net host --players 2 --bots
    1`` said "table 2 'table 1' is open" and ``join`` listed "table 2 'table 1'": a newcomer
    told to pick table 1 could not tell which. A table opened without --table-name is called
    by its own number, and the same command run again gives it back."""
    db, port = tmp_path / "host.db", free_port()
    trio.run(play_one_match, str(db))  # table 1: its match over
    env = dict(os.environ) | {"XDG_DATA_HOME": str(tmp_path / "data")}
    host = host_process(host_command(db, port, *README_HOST), env)
    try:
        said = [line for line in host.out if " is open" in line]
        listed = listed_tables(port)
    finally:
        host.stop()
    assert said == ["table 2 is open: 2 players, target 11, variants: none"]
    assert "table 2: 2 players" in listed, listed
    assert "'table 1'" not in listed, listed

    again = host_process(host_command(db, port, *README_HOST), env)
    try:
        said = [line for line in again.out if " is open" in line]
    finally:
        again.stop()
    assert said == ["table 2 is open again: 2 players, target 11, variants: none"]
