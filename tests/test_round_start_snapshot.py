"""The snapshot a seat caught up by snapshot is sent from as the latest round began (protocol.md
3.4) is made only when asked for, and is the table as it stood then, however much was played
since: the same message a snapshot made at that moment was."""

from __future__ import annotations

import pytest
from table_driver import Driver, fill, new_table

from scopa_net.rules import RuleSet
from scopa_net.server import table as table_module
from scopa_net.server.round_start import RoundStart
from scopa_net.wire import messages as m


def test_a_round_start_snapshot_is_made_when_asked_and_shows_the_round_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = new_table(RuleSet.of(4, 99))
    fill(table)
    driver = Driver(table, seed=3)
    driver.run_until_round_over(1)
    then = [table.snapshot(seat) for seat in range(4)]  # just before round 2 opens
    made: list[int] = []
    snapshot_of = table_module.snapshot_of

    def counted(*args: object, **kwargs: object) -> m.Snapshot:
        made.append(1)
        return snapshot_of(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(table_module, "snapshot_of", counted)
    table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    assert made == []  # nothing made as the round opens
    driver.run_until_round_over(2)  # round 2 dealt, played out and scored meanwhile
    made.clear()  # (the driver's seats make snapshots of their own as they play)
    for seat in range(4):
        start = table.round_start[seat]
        assert start.seq == then[seat].seq
        assert start.snapshot == then[seat]
        assert table.catch_up_point(seat) == (then[seat].seq, then[seat])
    assert len(made) == 4  # once a seat, however often asked


def test_a_round_start_takes_its_snapshot_or_a_way_to_make_it() -> None:
    table = new_table(RuleSet.of(2, 11))
    snapshot = table.snapshot(0)
    assert RoundStart(3, snapshot).snapshot is snapshot
    assert RoundStart(3, make=lambda: snapshot) == RoundStart(3, snapshot)
    assert RoundStart(3, snapshot) != RoundStart(4, snapshot)
    with pytest.raises(ValueError, match="its snapshot or a way to make it"):
        RoundStart(3)
    with pytest.raises(ValueError, match="its snapshot or a way to make it"):
        RoundStart(3, snapshot, make=lambda: snapshot)
