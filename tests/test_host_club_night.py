"""A busy club night as its organiser follows it in the host's log: every person turned
away from a table, every table closed and every match over says who, which table and why."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest
import trio
from hosting import create, start_host
from rawseat import RawSeat

from scopa_net.commands.history_matches import finished_matches
from scopa_net.commands.host import resumed_line
from scopa_net.rules import RuleSet
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The host's lines at INFO and above (what the organiser sees by default)."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "scopa_net.host" and r.levelno >= logging.INFO
    ]


async def refused(seat: RawSeat, join: m.Join) -> m.Error:
    await seat.send(join)
    error = await seat.until(lambda msg: isinstance(msg, m.Error))
    assert isinstance(error, m.Error)
    return error


async def test_every_person_turned_away_from_a_table_is_one_line_with_who_and_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A wrong password, a seat lost to someone quicker and a full table logged nothing at
    INFO: the organiser could not tell why Ivo, Dino and Lea were not playing."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=1.0, bot_delay=0.0)
        assert host.port is not None
        ada = await RawSeat.connect(host.port)
        asked = dataclasses.replace(create(RuleSet.of(2, 11), password="pw"), name="Bruno's table")
        table_id = await ada.create(asked)
        others = [await RawSeat.connect(host.port) for _ in range(4)]
        ivo, dino, bea, lea = others
        await refused(ivo, m.Join(table_id=table_id, seat=None, name="Ivo", password="nope"))
        await ada.send(m.Join(table_id=table_id, seat=0, name="Ada", password="pw"))
        await ada.until(lambda msg: isinstance(msg, m.Snapshot))
        await refused(dino, m.Join(table_id=table_id, seat=0, name="Dino", password="pw"))
        await bea.send(m.Join(table_id=table_id, seat=None, name="Bea", password="pw"))
        await bea.until(lambda msg: isinstance(msg, m.Snapshot))
        await refused(lea, m.Join(table_id=table_id, seat=None, name="Lea", password="pw"))
        for seat in [ada, *others]:
            await seat.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    table = f'table {table_id} "Bruno\'s table"'
    assert [line for line in said(caplog) if "turned away" in line] == [
        f"{table}: Ivo was turned away: wrong password",
        f"{table}: Dino was turned away: seat 0 is taken (by Ada)",
        f"{table}: Lea was turned away: the table is full",
    ]


async def bruno_sits_at_his_table_and_goes(db: str) -> None:
    """A host on ``db`` opens "Bruno's table"; Bruno sits down there and his connection
    closes (the seat waits for him); the host stops."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=db)
        assert host.port is not None
        own = await host.create_table("Bruno's table", RuleSet.of(2, 11))
        bruno = await RawSeat.connect(host.port)
        await bruno.join(own.table.table_id, name="Bruno")
        await bruno.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()


async def test_a_restart_quotes_a_table_name_with_an_apostrophe_as_every_other_line(
    tmp_path: Path,
) -> None:
    """The restart's summary read "table 1 'Bruno's table' (Bruno)" where history and the
    other lines say "Bruno's table" in double quotes: one quoting everywhere."""
    db = str(tmp_path / "host.db")
    await bruno_sits_at_his_table_and_goes(db)
    async with trio.open_nursery() as nursery:
        again = await start_host(nursery, db=db)
        assert resumed_line(again) == (
            'resumed 1 table (1 waiting for players): table 1 "Bruno\'s table" (Bruno)'
        )
        await again.shutdown()
        nursery.cancel_scope.cancel()
    again.journal.close()
    journal = Journal(db)
    try:
        (record,) = journal.tables()
        assert finished_matches(record)[0].startswith('table 1 "Bruno\'s table": waiting')
    finally:
        journal.close()


async def test_history_says_who_plays_a_match_in_play_and_its_score_and_who_waits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match in play read only "table 1 'test table': started ..., in play", and a table
    waiting for players did not say who sat at it waiting."""
    import re

    from hosting import play_one_round

    from scopa_net.commands.main import main

    db = str(tmp_path / "host.db")
    await play_one_round(db)
    await bruno_sits_at_his_table_and_goes(db)
    assert main(["history", "--db", db]) == 0
    out = capsys.readouterr().out
    played, waiting = [line for line in out.splitlines() if not line.startswith("host ")]
    found = re.fullmatch(
        r"table 1 'test table': started [-\d :]+, in play: ann: \d+ - bot 1: \d+ "
        r"after (\d+) rounds?(?: \((\d+) of them void\))?",
        played,
    )
    assert found, played
    # One round played out: "after 1 round"; a deal void for its kings before it (about 1 in
    # 600) is counted as the table counts it, "after 2 rounds (1 of them void)".
    dealt, voids = int(found[1]), int(found[2] or 0)
    assert dealt - voids == 1, played
    assert re.fullmatch(
        r'table 2 "Bruno\'s table": waiting for players since [-\d :]+: Bruno waits', waiting
    ), waiting
    # --name finds who plays a match in play (counted apart in the record), not who waits.
    assert main(["history", "--db", db, "--name", "ANN"]) == 0
    record = "ann: 1 in play, no match over yet"
    assert capsys.readouterr().out.splitlines()[-2:] == [played, record]
    assert main(["history", "--db", db, "--name", "bruno"]) == 0
    assert capsys.readouterr().out == "no match of bruno in this journal\n"
