"""One task that writes every table's journal entries, many tables per durable commit.

A table task awaits :meth:`JournalWriter.append` and goes on only once its entries are on disk.
The writer gathers whatever has queued up meanwhile from all tables into one transaction, so
an fsync is shared by every table that was waiting for it. A journal on disk is written by one
thread of the writer's own (:class:`_WriterThread`), started and stopped with
:meth:`JournalWriter.run`, so that the trio loop goes on while the disk syncs.

When the disk refuses a write (full, read-only, an I/O error), nothing is dropped: the writer
keeps the jobs it could not write, in order, and tries them again with a growing pause until
the disk takes them; the tables wait meanwhile. It tells its owner once when the trouble starts
and once when it is over (``on_trouble``), and logs each of those once, not once per write.
"""

from __future__ import annotations

import logging
import math
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import trio

from scopa_net.server.journal import Journal

log = logging.getLogger("scopa_net.host")

GROUP_COMMIT = 0.020
"""While commits come back to back, the next begins at least this long (seconds) after the one
before began, and takes every table's entries that queued up meanwhile. Each commit costs the
host more than its fsync: two thread wake-ups (to the writer thread and back), about three
steps of the writer's task, SQLite's own work and its thread's switches for the GIL, whatever
it carries: 0.3-0.5 ms of the journal's thread and about 0.2 ms of the loop's at 500 busy
tables. There a 10 ms wait made a commit carry several moves instead of one or two, and the
host's CPU per move fell from 0.60 to 0.52 ms (4 ms: 0.60, no wait: 0.65), for about 5 ms more
latency; once the moves themselves cost less, 20 ms halved the commits again (0.155 a move to
0.073) and took 9-13% off the host's CPU per move (0.411 -> 0.358 and 0.436 -> 0.395 ms,
alternate runs of ``benchmarks/load.py --tables 500``, 2026-12-07), for about 7 ms more at the
median there (p50 12-14 -> 19-21 ms, p99 31-35 -> 43-48). "Back to back" means that the last
commit carried more than one table's entries, or that entries were already waiting when it
ended. When neither, the next commit begins at once, however soon it comes: one table's moves
wait for nothing but their own fsync (before, a move within 10 ms of the commit before it, as
at a round's start, waited out the rest of the 10 ms: a fifth of one table's commits), while
many busy tables keep sharing commits. Only for a journal on disk; PostgreSQL's
``commit_delay`` does the same for the same reason."""
COMMIT_TIMES_KEPT = 4096
"""How many of the last commits' durations :attr:`JournalWriter.commit_seconds` keeps."""
RETRY_FIRST = 0.25
RETRY_MAX = 5.0
"""The pause before the first retry of a refused write, doubling up to this."""
STORAGE_ERRORS = (
    "SQLITE_IOERR",
    "SQLITE_FULL",
    "SQLITE_READONLY",
    "SQLITE_CANTOPEN",
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
)


def storage_fault(exc: BaseException) -> bool:
    """Whether ``exc`` is the disk refusing a write (worth retrying), not a bug of ours."""
    if isinstance(exc, OSError):
        return True
    if isinstance(exc, sqlite3.OperationalError):
        name = getattr(exc, "sqlite_errorname", "") or ""
        text = str(exc)
        return name.startswith(STORAGE_ERRORS) or any(
            words in text for words in ("disk", "readonly", "read-only", "unable to open")
        )
    return False


@dataclass(slots=True)
class _Job:
    entries: list[tuple[str, str, dict]] = field(default_factory=list)
    other: Callable[[Journal], object] | None = None
    done: trio.Event | None = None
    """Set once the job is written (a job someone awaits, :meth:`JournalWriter._run`)."""
    then: Callable[[BaseException | None], None] | None = None
    """Called instead once the job is written (:meth:`JournalWriter.append_soon`)."""
    error: BaseException | None = None


@dataclass
class _Write:
    """A batch handed to the writer thread, and its answer once the thread is done."""

    done: trio.Event = field(default_factory=trio.Event)
    answer: list[object] = field(default_factory=list)

    async def wait(self) -> tuple[int, BaseException | None]:
        """The thread's answer: (jobs done, the disk's refusal or None). A write once begun
        is waited for to its end even if the caller is cancelled (as ``to_thread.run_sync``
        does)."""
        with trio.CancelScope(shield=True):
            await self.done.wait()
        if isinstance(self.answer[0], BaseException):
            raise self.answer[0]
        return self.answer[0]  # type: ignore[return-value]


@dataclass
class _Started:
    """Jobs a table handed to the writer thread itself, because the writer was idle; the
    writer's task takes over from there (the answer, retries) as for a write of its own."""

    jobs: list[_Job]
    write: _Write
    began: float


class _WriterThread:
    """The thread that runs a writer's batches, one at a time.

    Handing it a batch is a queue put, and its answer comes back through the trio token: what
    ``trio.to_thread.run_sync`` does per call, without picking a cached thread, naming it,
    and a capacity limiter each time (which cost about a tenth of the host's main thread
    under load)."""

    def __init__(
        self,
        write: Callable[[list[_Job]], tuple[int, BaseException | None]],
        release: Callable[[_Job], None] = lambda job: job.done.set(),  # type: ignore[union-attr]
    ) -> None:
        """``release(job)``: called for each job written, once the thread's answer is back."""
        self._write = write
        self._release = release
        self._token = trio.lowlevel.current_trio_token()
        self._batches: queue.SimpleQueue[tuple[list[_Job], Callable] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._loop, name="scopa-net journal", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while (item := self._batches.get()) is not None:
            jobs, deliver = item
            try:
                result: object = self._write(jobs)
            except BaseException as exc:  # handed to the trio side, raised there
                result = exc
            self._token.run_sync_soon(deliver, result)

    def start(self, jobs: list[_Job], before_release: Callable[[], None] | None = None) -> _Write:
        """Hand ``jobs`` to the thread now; the answer is awaited with :meth:`_Write.wait`.

        The jobs the write finished are released as soon as its answer is back, by the
        callback the thread schedules, so that their tables wake in the same turn of the trio
        loop as the writer's own task rather than in the turn after it: a table waits for its
        fsync and one wake-up, not two. ``before_release`` is called just before that (to look
        at the queue as the commit left it, before the released tables add to it)."""
        write = _Write()

        def deliver(result: object) -> None:
            write.answer.append(result)
            if isinstance(result, tuple):
                if before_release is not None:
                    before_release()
                for job in jobs[: result[0]]:
                    self._release(job)
            write.done.set()

        self._batches.put((jobs, deliver))
        return write

    async def write(
        self, jobs: list[_Job], before_release: Callable[[], None] | None = None
    ) -> tuple[int, BaseException | None]:
        """Run ``jobs`` on the thread and wait for them (see :meth:`start`)."""
        return await self.start(jobs, before_release).wait()

    def stop(self) -> None:
        """End the thread (it is idle: no write is under way once :meth:`write` returned)."""
        self._batches.put(None)
        self._thread.join(timeout=5.0)


class JournalWriter:
    def __init__(
        self,
        journal: Journal,
        *,
        threaded: bool = True,
        on_trouble: Callable[[BaseException | None], None] | None = None,
    ) -> None:
        """``threaded``: write in a worker thread (a file on disk, whose fsync may take a
        while); an in-memory journal is written inline. ``on_trouble(error)`` is called when
        writes start failing, and ``on_trouble(None)`` when they succeed again."""
        self.journal = journal
        self.threaded = threaded
        self.on_trouble = on_trouble
        self.failing: BaseException | None = None
        """The error that keeps the journal from being written, while it lasts."""
        self.failing_since: float | None = None
        """When (seconds since the epoch) the journal could no longer be written, while so."""
        self._waiting: dict[int, _Job] = {}
        """The jobs handed to the writer and not yet written, by their id."""
        self.writing = False
        """Whether a write is under way (in the worker thread, when threaded)."""
        self.outages = 0
        """How many times writes have failed and then recovered (or are failing now)."""
        self._send, self._receive = trio.open_memory_channel[_Job | _Started](math.inf)
        self._last_commit = -math.inf
        """When the last write began (trio time)."""
        self._back_to_back = False
        """Whether the last write carried several tables, or entries were waiting when it
        ended (see :data:`GROUP_COMMIT`)."""
        self._waiting_at_end = 0
        """How many jobs were waiting when the last write ended."""
        self._thread: _WriterThread | None = None
        self._idle = False
        """Whether the writer's task waits for work with none queued: then a table hands its
        job to the thread itself (:class:`_Started`), a turn of the loop sooner."""
        self._started_queued = False
        """Whether a :class:`_Started` is in the channel, not yet taken by the task."""
        self.commits = 0
        """Writes begun so far (transactions, retries included)."""
        self.commit_seconds: deque[float] = deque(maxlen=COMMIT_TIMES_KEPT)
        """How long the last transactions of entries took, each on its own, fsync included
        (seconds): the disk's share of a move's latency, logged when the writer stops."""

    async def append(self, table_id: int, entries: list[tuple[str, dict]]) -> None:
        """Write a table's entries durably, in order (waiting out a disk that refuses)."""
        if entries:
            key = str(table_id)
            await self._run(_Job(entries=[(key, kind, payload) for kind, payload in entries]))

    def append_soon(
        self,
        table_id: int,
        entries: list[tuple[str, dict]],
        then: Callable[[BaseException | None], None],
    ) -> None:
        """As :meth:`append`, without waiting: ``then(None)`` is called once the entries are on
        disk, in the turn of the loop that learns it (or ``then(error)`` for a fault that is
        not the disk's). No task waits meanwhile, so a table's move costs no wake-up of its
        own when its commit is back. ``then`` must not raise: it runs in the writer's thread's
        callback (or in the writer's task), where an error would stop the host."""
        key = str(table_id)
        job = _Job(entries=[(key, kind, payload) for kind, payload in entries], then=then)
        self._waiting[id(job)] = job
        self._hand(job)

    async def call(self, fn: Callable[[Journal], object]) -> None:
        """Run ``fn(journal)`` in turn with the writes (table creation, finishing)."""
        await self._run(_Job(other=fn))

    def unsaved_moves(self) -> int:
        """The moves handed to the writer that are not on disk yet (all of them waiting for
        the disk, while it refuses)."""
        return sum(kind == "play" for job in self._waiting.values() for _, kind, _ in job.entries)

    async def _run(self, job: _Job) -> None:
        job.done = trio.Event()
        self._waiting[id(job)] = job
        try:
            self._hand(job)
            await job.done.wait()
        finally:
            del self._waiting[id(job)]
        if job.error is not None:
            raise job.error

    def _hand(self, job: _Job) -> None:
        """Queue ``job`` for the writer's task, or start it on the thread at once when the
        writer is idle."""
        thread = self._thread
        if self._idle and thread is not None and not self._back_to_back:
            self._idle = False
            self.writing = True
            self._started_queued = True
            write = thread.start([job], self._note_queue)
            self._send.send_nowait(_Started([job], write, trio.current_time()))
        else:
            self._send.send_nowait(job)

    def _next(self) -> _Job | _Started:
        """The next item queued, taken without a checkpoint (a receive's own would cost this
        task a step of its own when entries are already waiting); ``trio.WouldBlock`` if
        none is."""
        return self._receive.receive_nowait()

    def _queued(self) -> list[_Job]:
        jobs: list[_Job] = []
        while True:
            try:
                jobs.append(self._receive.receive_nowait())  # type: ignore[arg-type]
            except trio.WouldBlock:
                return jobs

    async def run(self) -> None:
        thread = self._thread = _WriterThread(self._write, self._release) if self.threaded else None
        try:
            await self._serve(thread)
        finally:
            self._thread = None
            self._idle = False
            if thread is not None:
                thread.stop()
            if self.commit_seconds:
                times = sorted(self.commit_seconds)
                log.debug(  # figures for the benchmarks, not news for the organiser
                    "journal %s: %d commits; the last %d took %.3f ms at the median, "
                    "%.3f ms at the 99th percentile",
                    self.journal.path,
                    self.commits,
                    len(times),
                    times[len(times) // 2] * 1000,
                    times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
                )

    async def _serve(self, thread: _WriterThread | None) -> None:
        async with self._receive:
            # Idle only with nothing queued: a table may have handed its entries before
            # this task ran (a restarted host's tables), and a write a table began itself
            # must never be queued behind them.
            self._idle = self._receive.statistics().current_buffer_used == 0
            while True:
                due = self._last_commit + GROUP_COMMIT
                if thread is not None and self._back_to_back and trio.current_time() < due:
                    # Asleep until then, whenever the next table's entries come: they queue
                    # up meanwhile without waking this task (no table begins a write itself
                    # while commits come back to back).
                    await trio.sleep_until(due)
                try:
                    item = self._next()
                except trio.WouldBlock:
                    try:
                        item = await self._receive.receive()
                    except trio.EndOfChannel:
                        return
                except trio.EndOfChannel:
                    return
                self._idle = False
                started: _Started | None = None
                if isinstance(item, _Started):  # a table found us idle and began the write
                    self._started_queued = False
                    started, jobs = item, item.jobs
                else:
                    jobs = [item, *self._queued()]
                tables = len({j.entries[0][0] for j in jobs if j.entries})
                pause = RETRY_FIRST
                while jobs:
                    self.writing = True
                    self.commits += 1
                    self._last_commit = trio.current_time() if started is None else started.began
                    try:
                        if started is not None:
                            done, fault = await started.write.wait()
                            started = None
                        elif thread is not None:
                            done, fault = await thread.write(jobs, self._note_queue)
                        else:  # inline: released here (the thread's answer releases its own)
                            done, fault = self._write(jobs)
                            self._note_queue()
                            for j in jobs[:done]:
                                self._release(j)
                    finally:
                        self.writing = False
                    jobs = jobs[done:]
                    if fault is None:
                        break
                    self._trouble(fault)
                    await trio.sleep(pause)
                    pause = min(pause * 2, RETRY_MAX)
                    jobs += self._queued()
                if self.failing is not None:
                    self._trouble(None)
                self._back_to_back = tables > 1 or self._waiting_at_end > 0
                self._idle = self._receive.statistics().current_buffer_used == 0

    def _release(self, job: _Job) -> None:
        """``job`` is written (or failed with its error): tell whoever waits for it."""
        then = job.then
        if then is None:
            assert job.done is not None
            job.done.set()
            return
        del self._waiting[id(job)]
        then(job.error)

    def _note_queue(self) -> None:
        """Note how many jobs were waiting when a commit ended (see :data:`GROUP_COMMIT`)."""
        queued = self._receive.statistics().current_buffer_used
        self._waiting_at_end = queued - 1 if self._started_queued else queued

    def _trouble(self, fault: BaseException | None) -> None:
        if fault is None:
            log.warning("journal %s: writable again; the tables carry on", self.journal.path)
        elif self.failing is None:
            self.outages += 1
            self.failing_since = time.time()
            log.error(
                "journal %s: cannot write (%s); the tables wait, retrying every %.0f s at most",
                self.journal.path,
                fault,
                RETRY_MAX,
            )
        else:
            log.debug("journal %s: still cannot write (%s)", self.journal.path, fault)
            return
        self.failing = fault
        if fault is None:
            self.failing_since = None
        if self.on_trouble is not None:
            self.on_trouble(fault)

    def _write(self, jobs: list[_Job]) -> tuple[int, BaseException | None]:
        """Run the jobs in order, consecutive appends in one transaction. Returns how many
        are done (a job whose error is not the disk's is done, with its error) and, if the
        disk refused the next one, why."""
        done = 0
        while done < len(jobs):
            run = []
            for j in jobs[done:]:
                if j.other is not None:
                    break
                run.append(j)
            try:
                if run:
                    began = time.perf_counter()
                    self.journal.append_many([e for j in run for e in j.entries])
                    self.commit_seconds.append(time.perf_counter() - began)
                else:
                    jobs[done].other(self.journal)  # type: ignore[misc]
            except Exception as exc:
                if storage_fault(exc):
                    return done, exc
                for j in run or [jobs[done]]:
                    j.error = exc
            done += len(run) or 1
        return done, None
