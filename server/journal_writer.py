"""One task that writes every table's journal entries, many tables per durable commit.

A table task awaits :meth:`JournalWriter.append` and goes on only once its entries are on disk.
The writer gathers whatever has queued up meanwhile from all tables into one transaction, so
an fsync is shared by every table that was waiting for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import trio

from scopa_net.server.journal import Journal


@dataclass
class _Job:
    entries: list[tuple[str, str, dict]] = field(default_factory=list)
    other: Callable[[Journal], object] | None = None
    done: trio.Event = field(default_factory=trio.Event)
    error: BaseException | None = None


class JournalWriter:
    def __init__(self, journal: Journal, *, threaded: bool = True) -> None:
        """``threaded``: write in a worker thread (a file on disk, whose fsync may take a
        while); an in-memory journal is written inline."""
        self.journal = journal
        self.threaded = threaded
        self._send, self._receive = trio.open_memory_channel[_Job](math.inf)

    async def append(self, table_id: int, entries: list[tuple[str, dict]]) -> None:
        """Write a table's entries durably, in order."""
        if entries:
            key = str(table_id)
            await self._run(_Job(entries=[(key, kind, payload) for kind, payload in entries]))

    async def call(self, fn: Callable[[Journal], object]) -> None:
        """Run ``fn(journal)`` in turn with the writes (table creation, finishing)."""
        await self._run(_Job(other=fn))

    async def _run(self, job: _Job) -> None:
        self._send.send_nowait(job)
        await job.done.wait()
        if job.error is not None:
            raise job.error

    async def run(self) -> None:
        async with self._receive:
            async for job in self._receive:
                jobs = [job]
                while True:
                    try:
                        jobs.append(self._receive.receive_nowait())
                    except trio.WouldBlock:
                        break
                if self.threaded:
                    await trio.to_thread.run_sync(self._write, jobs)
                else:
                    self._write(jobs)
                for j in jobs:
                    j.done.set()

    def _write(self, jobs: list[_Job]) -> None:
        """Run the jobs in order; consecutive appends share one transaction."""
        run: list[_Job] = []
        for j in [*jobs, None]:
            if j is not None and j.other is None:
                run.append(j)
                continue
            if run:
                self._append(run)
                run = []
            if j is not None and j.other is not None:
                try:
                    j.other(self.journal)
                except Exception as exc:
                    j.error = exc

    def _append(self, jobs: list[_Job]) -> None:
        try:
            self.journal.append_many([e for j in jobs for e in j.entries])
        except Exception as exc:  # the host cannot go on without its journal
            for j in jobs:
                j.error = exc
