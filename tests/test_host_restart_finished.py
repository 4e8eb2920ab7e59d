"""A restart and the tables whose match was over: one that had closed (its rematch vote over)
stays closed, and one still in its rematch window comes back quietly (protocol.md 3.11), its
match kept in the journal for ``history`` either way."""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
import time
from pathlib import Path

import pytest
import trio
from hosting import create, play_one_match, start_host
from rawseat import RawSeat

from scopa_net.commands.history_matches import finished_matches
from scopa_net.commands.host import resumed_line
from scopa_net.rules import RuleSet
from scopa_net.server import table_task
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m


def host_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "scopa_net.host" and r.levelno >= logging.INFO
    ]


async def restart_resuming_no_table(db: str) -> None:
    """Start the host again on ``db``, check it resumes no table, and stop it."""
    async with trio.open_nursery() as nursery:
        again = await start_host(nursery, db=db)
        assert resumed_line(again) == "resumed 0 tables"
        await again.shutdown()
        nursery.cancel_scope.cancel()
    again.journal.close()


async def test_a_table_closed_before_a_restart_does_not_come_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It came back ("resumed 8 tables (..., 3 just finished)") and a minute later the log
    said "table 1 seat 0: a bot stands in" and "table 1 closed" once more."""
    monkeypatch.setattr(table_task, "LINGER", 0.2)
    db = str(tmp_path / "host.db")
    await play_one_match(db, RuleSet.of(2, 1), bot_delay=0.0, linger_out=True)
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        again = await start_host(nursery, db=db, grace=0.1)
        await trio.sleep(0.5)  # past the grace time and the linger time
        assert again.tables == {}
        assert resumed_line(again) == "resumed 0 tables"
        await again.shutdown()
        nursery.cancel_scope.cancel()
    again.journal.close()
    assert [line for line in host_lines(caplog) if line.startswith("table 1")] == []
    journal = Journal(db)
    try:
        (record,) = journal.tables()
        (match,) = finished_matches(record)  # history still lists it
    finally:
        journal.close()
    assert re.match(r"table 1( '[^']*')?: started ", match), match


async def test_a_match_over_in_its_rematch_window_comes_back_without_a_bot_standing_in(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its player is away after the restart, but nothing is left to play: no grace period
    and no "a bot stands in" for a finished match."""
    monkeypatch.setattr(table_task, "LINGER", 1.5)  # the restart comes well within it
    db = str(tmp_path / "host.db")
    await play_one_match(db, RuleSet.of(2, 1), bot_delay=0.0)  # stopped as the match ended
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        again = await start_host(nursery, db=db, grace=0.1)
        assert resumed_line(again) == (
            "resumed 1 table (1 just finished): table 1 'test table' (ann)"
        )
        (task,) = again.tables.values()
        assert [s.grace for s in task.table.seats] == [0, 0]
        with trio.fail_after(5):
            while again.tables:  # until it closes, at the end of its linger time
                await trio.sleep(0.05)
        await again.shutdown()
        nursery.cancel_scope.cancel()
    again.journal.close()
    said = [line for line in host_lines(caplog) if "restored at" not in line]  # (no --quiet)
    assert [line for line in said if line.startswith("table 1")] == [
        "table 1 closed: the minute to play again ran out with no rematch agreed"
    ]


async def test_a_no_to_a_rematch_closes_the_table_for_good_at_once_and_a_restart_leaves_it_closed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Paolo answered n and read "no rematch (you said no): the table is closing"; the host,
    stopped 4 s later, had not said "table 2 closed", and after the restart table 2 came back
    "just finished", again at each restart within the minute."""
    from scopa_net.bots.levels import make_player
    from scopa_net.client.bot_client import play_as_bot
    from scopa_net.client.network_session import TableChoice, open_network_session
    from scopa_net.client.session import Message

    db = str(tmp_path / "host.db")
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=db, bot_delay=0)
        choice = TableChoice(create=create(RuleSet.of(2, 1), bots=1))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="paolo", offer_rematch=True
        ) as paolo:
            await play_as_bot(paolo, make_player("random", 1))
            await paolo.rematch(False)
            read = []
            with trio.fail_after(10):
                async for event in paolo.events:
                    if isinstance(event, Message):
                        read.append(event.text)
                        if "the table is closing" in event.text:
                            break
            assert read[-1] == "no rematch (you said no): the table is closing", read
        with trio.fail_after(2):  # not at the end of the minute: at once
            while "table 1 closed: no rematch (paolo (seat 0) said no)" not in host_lines(caplog):
                await trio.sleep(0.02)
        assert host.tables  # it lingers the rest of its minute, for a player to read the end
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    caplog.clear()
    await restart_resuming_no_table(db)
    assert [line for line in host_lines(caplog) if line.startswith("table 1")] == []


async def test_a_table_whose_vote_ran_out_while_the_host_was_stopped_closes_at_the_restart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The host stopped as the match ended; started again the next evening, it revived the
    table in "Play again?" for another minute, and a "y" from yesterday's command started a
    match there. The minute is counted from the match's end, by the wall clock: over, the
    table closes at the restart, said once in the log, and stays closed."""
    db = str(tmp_path / "host.db")
    await play_one_match(db, RuleSet.of(2, 1), bot_delay=0.0)  # stopped as the match ended
    yesterday = time.time() - 20 * 3600
    # the evening went by while the host was stopped
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("UPDATE tables SET finished = ?", (yesterday,))
    ended = time.strftime("%Y-%m-%d %H:%M", time.localtime(yesterday))
    caplog.set_level(logging.INFO, logger="scopa_net")
    for _ in range(2):  # the next restart says nothing of it
        await restart_resuming_no_table(db)
    assert [line for line in host_lines(caplog) if line.startswith("table 1")] == [
        # True also of a table an older host closed without journaling it ("ran out while
        # the host was stopped" was not: it had run out while that host ran).
        f"table 1 closed: its match ended at {ended} and its minute to play again is over"
    ]


async def test_a_table_opened_beside_one_revived_in_its_rematch_window_gets_a_name_of_its_own(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next evening, `host --table-name Club` opened "table 3 'Club'" beside the revived
    table 1 'Club', whose rematch then put both in play under one name."""
    monkeypatch.setattr(table_task, "LINGER", 5.0)
    db = str(tmp_path / "host.db")
    await play_one_match(db, RuleSet.of(2, 1), bot_delay=0.0)  # stopped as the match ended
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        again = await start_host(nursery, db=db)
        assert resumed_line(again).startswith("resumed 1 table (1 just finished): table 1 ")
        raw = await RawSeat.connect(again.port)
        await raw.send(create(RuleSet.of(2, 1), bots=1))  # named 'test table', as table 1
        created = await raw.until(lambda msg: isinstance(msg, m.TableCreated))
        assert isinstance(created, m.TableCreated)
        assert created.table.name == "test table (2)"
        await raw.aclose()
        await again.shutdown()
        nursery.cancel_scope.cancel()
    again.journal.close()
    assert "table 2 created: 'test table (2)', 2 players, target 1, variants: none" in (
        host_lines(caplog)
    )
