"""A move costs the host few wake-ups: it is handled in the turn of the loop that read it.

A person's move at a table whose task is idle is applied by the connection's reader, and its
ack and events leave from the journal's answer: the table's own task is not woken for it (it
used to be woken twice a move: once to take the move from its inbox, once when its commit was
on disk). The move is answered all the same: the mover's ack first, then the events, and only
once they are on disk. Real host, real loopback TCP, a journal on disk (its own thread).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import trio
from hosting import create, start_host
from rawseat import RawSeat

from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m

TABLE_TASK = "Host._run_table"
"""The name trio gives a table's task (its function, :meth:`Host._run_table`)."""


def plays_on_disk(db: Path, table_id: int) -> int:
    """The moves of the table in the journal file, as another process would read them."""
    with contextlib.closing(sqlite3.connect(db)) as reader:
        query = "SELECT count(*) FROM entries WHERE table_id = ? AND kind = 'play'"
        return reader.execute(query, (str(table_id),)).fetchone()[0]


class Steps(trio.abc.Instrument):
    """Counts the steps each host task takes (a step: one wake-up, run until it waits)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self.counts[task.name] = self.counts.get(task.name, 0) + 1

    def of(self, part: str) -> int:
        return sum(n for name, n in self.counts.items() if part in name)


async def test_a_move_does_not_wake_the_table_task(tmp_path: Path) -> None:
    moves = 4  # (within the first deal: a person is to move after each)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            db = tmp_path / "host.db"
            host = await start_host(nursery, db=str(db))
            assert host.writer.threaded  # the journal on disk, as a real host's
            ann = await RawSeat.connect(host.port)
            table_id = await ann.create(create(RuleSet.of(2, 11)))
            await ann.join(table_id, name="Ann")
            bea = await RawSeat.connect(host.port)
            await bea.join(table_id, name="Bea")
            seats = {0: ann, 1: bea} if ann.seat == 0 else {0: bea, 1: ann}
            async with trio.open_nursery() as dealing:  # (each sends its seeds as it reads)
                for raw in seats.values():
                    dealing.start_soon(raw.dealt)
            # Each side reads everything of the move before the next one: the table's task
            # has nothing due meanwhile (a person is always to move), so it sleeps through.
            steps = Steps()
            trio.lowlevel.add_instrument(steps)
            try:
                for move_id in range(1, moves + 1):
                    mover = seats[ann.view.to_move]  # type: ignore[index]
                    other = bea if mover is ann else ann
                    answer = await mover.play(move_id, mover.my_plays()[0])
                    assert isinstance(answer, m.Ack)
                    assert plays_on_disk(db, table_id) == move_id  # before anyone heard of it
                    played = await mover.until(lambda msg: isinstance(msg, m.Played))
                    assert mover.received.index(answer) < mover.received.index(played)
                    await other.until(lambda msg: isinstance(msg, m.Played))
            finally:
                trio.lowlevel.remove_instrument(steps)
            assert steps.of(TABLE_TASK) == 0, steps.counts
            await ann.aclose()
            await bea.aclose()
            await host.shutdown()
            nursery.cancel_scope.cancel()
