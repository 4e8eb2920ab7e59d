"""Run ``scopa-net`` with one move's stages timed: a diagnostic for ``load.py --stages``.

    python benchmarks/stage_probe.py LOG host --port ...

Its first line names the stages (``stages NAME,NAME,...``). Then for each move (a ``play`` a
seated player sends) it writes one line: the wall time (``time.time()``) and seven durations
in microseconds, from the moment the host's read of the move's bytes returns:

1. ``decode``: to the session handing the request to its table (the frame decoded, checked);
2. ``to table``: to the table starting on it: at once when the table takes the move in the
   reader's turn (:meth:`TableTask.take_now`), else a turn of the trio loop to its task;
3. ``table``: to its journal entries reaching the writer (the move checked and applied);
4. ``to thread``: to the journal's thread beginning the transaction;
5. ``commit``: the transaction, fsync included;
6. ``back``: from the thread's end to the table hearing of the commit (the journal's answer
   in the loop, or the table's task waking with it);
7. ``first write``: to the first connection's bytes being handed to the kernel (the mover's).

It wraps a few of the host's own methods and keeps one move's times at once, so it is meant
for one table (``load.py --stages`` runs one). The host is otherwise the ordinary one.
"""

from __future__ import annotations

import runpy
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from typing import TextIO

from scopa_net.server import journal_writer, session, table_task
from scopa_net.wire import messages as m

#: The moments of one move, in order; each logged duration is from one to the next.
MOMENTS = ("read", "to_table", "handle", "journal", "thread0", "thread1", "released", "written")
STAGES = ("decode", "to table", "table", "to thread", "commit", "back", "first write")


def watch(log: TextIO) -> None:
    """Wrap the host's methods so that each move's moments are written to ``log``."""
    now = time.perf_counter_ns
    move: dict[str, int] = {}

    receive = session.PlayerSession._receive

    async def timed_receive(self: session.PlayerSession) -> bytes:
        data = await receive(self)
        if "handle" not in move:  # a move in flight keeps its own read
            move["read"] = now()
        return data

    to_table = session.PlayerSession._to_table

    async def timed_to_table(
        self: session.PlayerSession, task: table_task.TableTask, msg: m.Message
    ) -> None:
        if isinstance(msg, m.Play) and "read" in move and "handle" not in move:
            move["to_table"] = now()
        await to_table(self, task, msg)

    handle = table_task.TableTask._handle

    async def timed_handle(self: table_task.TableTask, request: table_task.Request) -> None:
        if not isinstance(request.msg, m.Play):
            await handle(self, request)
            return
        if "to_table" in move:
            move["handle"] = now()
        try:
            await handle(self, request)
        finally:
            move.clear()  # written by now, or refused (nothing journaled): the next one

    take_now = table_task.TableTask.take_now

    def timed_take_now(self: table_task.TableTask, outbox: object, msg: m.Message) -> bool:
        timing = isinstance(msg, m.Play) and "to_table" in move and "handle" not in move
        if timing:
            move["handle"] = now()
        taken = take_now(self, outbox, msg)  # type: ignore[arg-type]
        if timing and not taken:
            del move["handle"]  # to the task's inbox: timed there
        elif timing and self._in_hand is None:
            move.clear()  # refused: nothing journaled
        return taken

    append_soon = journal_writer.JournalWriter.append_soon

    def timed_append_soon(
        self: journal_writer.JournalWriter, table_id: int, entries: list, then: Callable
    ) -> None:
        timing = "handle" in move and "journal" not in move
        if timing:
            move["journal"] = now()

        def timed_then(error: BaseException | None) -> None:
            if timing:
                move["released"] = now()
            then(error)

        append_soon(self, table_id, entries, timed_then if timing else then)

    run = journal_writer.JournalWriter._run

    async def timed_run(self: journal_writer.JournalWriter, job: journal_writer._Job) -> None:
        timing = "handle" in move and "journal" not in move
        if timing:
            move["journal"] = now()
        await run(self, job)
        if timing:
            move["released"] = now()

    write = journal_writer.JournalWriter._write

    def timed_write(
        self: journal_writer.JournalWriter, jobs: list[journal_writer._Job]
    ) -> tuple[int, BaseException | None]:
        timing = "journal" in move and "thread0" not in move
        if timing:
            move["thread0"] = now()
        try:
            return write(self, jobs)
        finally:
            if timing:
                move["thread1"] = now()

    write_now = session.PlayerSession._write_now

    def timed_write_now(self: session.PlayerSession, batch: list, frames: object) -> None:
        if "released" in move:
            move["written"] = now()
            if all(k in move for k in MOMENTS):
                times = [move[k] for k in MOMENTS]
                stages = " ".join(f"{(b - a) / 1000:.1f}" for a, b in pairwise(times))
                log.write(f"{time.time():.3f} {stages}\n")
            move.clear()
        write_now(self, batch, frames)  # type: ignore[arg-type]

    session.PlayerSession._receive = timed_receive  # type: ignore[method-assign]
    session.PlayerSession._to_table = timed_to_table  # type: ignore[method-assign]
    table_task.TableTask._handle = timed_handle  # type: ignore[method-assign]
    table_task.TableTask.take_now = timed_take_now  # type: ignore[method-assign]
    journal_writer.JournalWriter.append_soon = timed_append_soon  # type: ignore[method-assign]
    journal_writer.JournalWriter._run = timed_run  # type: ignore[method-assign]
    journal_writer.JournalWriter._write = timed_write  # type: ignore[method-assign]
    session.PlayerSession._write_now = timed_write_now  # type: ignore[method-assign]


def main() -> None:
    log = open(sys.argv[1], "w", buffering=1)  # noqa: SIM115 (open for the process's life)
    log.write("stages " + ",".join(STAGES) + "\n")
    watch(log)
    sys.argv = ["scopa-net", *sys.argv[2:]]
    runpy.run_module("scopa_net", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
