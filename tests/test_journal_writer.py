"""The journal writer's group commit: one fsync shared by the tables that queued meanwhile,
and no wait at all for a write that finds the writer idle."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import trio
import trio.testing

from scopa_net.server.journal import Journal
from scopa_net.server.journal_writer import GROUP_COMMIT, RETRY_FIRST, JournalWriter


class GatedJournal(Journal):
    """A journal on disk whose first transaction waits for ``gate`` (a slow fsync, held
    open until the test has queued more work behind it)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        for table_id in "1234":
            self.create_table(table_id, 0.0, {"players": 2})
        self.gate = threading.Event()
        self.batches: list[list[str]] = []

    def append_many(self, entries):  # type: ignore[override]
        entries = list(entries)
        if not self.batches:
            assert self.gate.wait(timeout=10), "the test never opened the gate"
        self.batches.append([table_id for table_id, _, _ in entries])
        return super().append_many(entries)


def run_virtual(fn) -> None:
    """Run ``fn`` on a clock that stands still unless every task waits for a timer: a write
    that sleeps shows up as time gone by, one that does not leaves the clock at 0."""
    trio.run(fn, clock=trio.testing.MockClock(rate=0, autojump_threshold=0))


def test_a_write_that_finds_the_writer_idle_begins_at_once(tmp_path: Path) -> None:
    with GatedJournal(tmp_path / "j.db") as journal:
        journal.gate.set()
        writer = JournalWriter(journal)

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(writer.run)
                await writer.append(1, [("move", {"n": 1})])
                # Right after the last commit, but nothing was waiting when it ended: no pause.
                await writer.append(1, [("move", {"n": 2})])
                assert trio.current_time() == 0
                nursery.cancel_scope.cancel()

        run_virtual(main)
        assert journal.batches == [["1"], ["1"]]
        assert writer.commits == 2


def test_writes_handed_before_the_writer_starts_and_as_it_starts_are_all_written(
    tmp_path: Path,
) -> None:
    """A restarted host's tables hand the writer their first entries before its task runs.
    The task used to take itself for idle as it started, with those entries still queued, so
    the next table began its write on the thread itself (a write the task did not know of)
    and the task then met it among the queued jobs: the host stopped on an AttributeError
    (seen in CI as a restarted host failing to start)."""
    with GatedJournal(tmp_path / "j.db") as journal:
        journal.gate.set()
        writer = JournalWriter(journal)
        told: list[BaseException | None] = []

        async def main() -> None:
            both = trio.Event()

            def written(error: BaseException | None) -> None:
                told.append(error)
                if len(told) == 2:
                    both.set()

            async with trio.open_nursery() as nursery:
                writer.append_soon(1, [("move", {"n": 1})], written)  # before it runs
                nursery.start_soon(writer.run)
                for _ in range(20):  # the moment the task has begun and taken the first
                    await trio.lowlevel.checkpoint()
                    if writer.commits or writer._idle:
                        break
                writer.append_soon(2, [("move", {"n": 2})], written)
                await both.wait()
                nursery.cancel_scope.cancel()

        run_virtual(main)
        assert told == [None, None]
        assert sorted(t for batch in journal.batches for t in batch) == ["1", "2"]


def test_writes_queued_during_a_commit_share_the_next_one(tmp_path: Path) -> None:
    with GatedJournal(tmp_path / "j.db") as journal:
        writer = JournalWriter(journal)
        finished: dict[int, float] = {}

        async def table(table_id: int) -> None:
            await writer.append(table_id, [("move", {"table": table_id})])
            finished[table_id] = trio.current_time()

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(writer.run)
                async with trio.open_nursery() as tables:
                    tables.start_soon(table, 1)
                    await trio.testing.wait_all_tasks_blocked()
                    for table_id in (2, 3, 4):  # they queue while table 1's commit is on disk
                        tables.start_soon(table, table_id)
                    await trio.testing.wait_all_tasks_blocked()
                    journal.gate.set()
                nursery.cancel_scope.cancel()

        run_virtual(main)
        assert journal.batches[0] == ["1"]
        assert sorted(journal.batches[1]) == ["2", "3", "4"]  # trio starts tasks in any order
        assert len(journal.batches) == 2
        assert writer.commits == 2
        assert finished[1] == 0
        assert all(finished[t] >= GROUP_COMMIT for t in (2, 3, 4))
        assert [e.payload for e in journal.entries("3")] == [{"table": 3}]


async def two_tables_then_the_writer(nursery: trio.Nursery, writer: JournalWriter) -> None:
    """Tables 1 and 2 hand the writer an entry each before it starts (in ``nursery``), and
    both are written, in one commit."""
    async with trio.open_nursery() as tables:
        for table_id in (1, 2):
            tables.start_soon(writer.append, table_id, [("move", {})])
        await trio.testing.wait_all_tasks_blocked()
        nursery.start_soon(writer.run)


def test_after_a_commit_shared_by_several_tables_the_next_one_waits(tmp_path: Path) -> None:
    with GatedJournal(tmp_path / "j.db") as journal:
        journal.gate.set()
        writer = JournalWriter(journal)

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                await two_tables_then_the_writer(nursery, writer)
                assert trio.current_time() == 0
                # Nothing waits now, but busy tables write again soon: the next commit waits to
                # take what they add meanwhile.
                await writer.append(3, [("move", {})])
                assert trio.current_time() >= GROUP_COMMIT
                nursery.cancel_scope.cancel()

        run_virtual(main)
        assert [sorted(b) for b in journal.batches] == [["1", "2"], ["3"]]


class WriterSteps(trio.abc.Instrument):
    """Counts the steps of the journal writer's task (each a wake-up of it)."""

    def __init__(self) -> None:
        self.steps = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        if "JournalWriter.run" in task.name:
            self.steps += 1


def test_entries_that_come_while_the_next_commit_waits_do_not_wake_the_writer(
    tmp_path: Path,
) -> None:
    """While commits come back to back, the writer sleeps until the next may begin and takes
    what queued meanwhile then: a table's entries arriving during that wait wake nobody."""
    steps = WriterSteps()
    with GatedJournal(tmp_path / "j.db") as journal:
        journal.gate.set()
        writer = JournalWriter(journal)

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                await two_tables_then_the_writer(nursery, writer)  # back to back
                await trio.testing.wait_all_tasks_blocked()
                trio.lowlevel.add_instrument(steps)
                async with trio.open_nursery() as tables:
                    for table_id in (3, 4):  # within the wait, one after the other
                        tables.start_soon(writer.append, table_id, [("move", {})])
                        await trio.testing.wait_all_tasks_blocked()
                await trio.testing.wait_all_tasks_blocked()
                assert trio.current_time() >= GROUP_COMMIT
                woken.append(steps.steps)
                nursery.cancel_scope.cancel()

        woken: list[int] = []
        run_virtual(main)
    assert [sorted(b) for b in journal.batches] == [["1", "2"], ["3", "4"]]
    # Woken when the wait is over (the commit begins), and by the thread's answer; not by
    # either table's entries, nor to take what was queued.
    assert woken == [2]


class RefusingJournal(GatedJournal):
    """A journal on disk whose first transaction the disk refuses (full), as a table's own
    hand-off to the idle writer thread meets it."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate.set()
        self.refused = 0

    def append_many(self, entries):  # type: ignore[override]
        if not self.refused:
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")
        return super().append_many(entries)


def test_a_write_a_table_began_itself_is_retried_when_the_disk_refuses_it(
    tmp_path: Path,
) -> None:
    with RefusingJournal(tmp_path / "j.db") as journal:
        troubles: list[str | None] = []
        writer = JournalWriter(
            journal, on_trouble=lambda e: troubles.append(None if e is None else str(e))
        )

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(writer.run)
                await trio.testing.wait_all_tasks_blocked()  # the writer waits, idle
                await writer.append(1, [("move", {"n": 1})])
                # Refused once, written at the first retry, and the table went on only then.
                assert trio.current_time() == RETRY_FIRST
                await writer.append(1, [("move", {"n": 2})])
                nursery.cancel_scope.cancel()

        run_virtual(main)
        assert journal.refused == 1
        assert troubles == ["database or disk is full", None]
        assert [e.payload for e in journal.entries("1")] == [{"n": 1}, {"n": 2}]
        assert writer.commits == 3
        assert writer.outages == 1
