"""A restart and the tables whose match was over: one that had closed (its rematch vote over)
stays closed, and one still in its rematch window comes back quietly (protocol.md 3.11), its
match kept in the journal for ``history`` either way."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
import trio
from hosting import play_one_match, start_host

from scopa_net.commands.host import finished_matches, resumed_line
from scopa_net.rules import RuleSet
from scopa_net.server import table_task
from scopa_net.server.journal import Journal


def host_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "scopa_net.host" and r.levelno >= logging.INFO
    ]


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
    monkeypatch.setattr(table_task, "LINGER", 0.6)
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
    assert [line for line in said if line.startswith("table 1")] == ["table 1 closed"]
