"""Run ``scopa-net`` with what it does per move counted: a diagnostic for ``load.py --counts``.

    python benchmarks/count_probe.py LOG host --port ...

SIGUSR2 marks the start of a window; SIGUSR1 writes to ``LOG`` what was counted since, one
``NAME COUNT`` line each: moves played (``Table.play``), the trio loop's turns (epoll waits)
and task steps (by task), reads and writes of sockets (``os.read``, ``os.write``), readiness
waits (``wait_readable``, each an epoll registration), msgpack packs and unpacks, journal
commits and rows, signatures, callbacks from other threads into the loop
(``run_sync_soon``), and the garbage collector's young generation: with the host's
automatic collection off, it is switched back on here with a threshold of
:data:`GC_THRESHOLD` and counted (each young collection is that many container objects
made and not yet freed: a lower bound on what is allocated). ``load.py --counts`` divides by
the moves. With ``COUNT_PROBE_CPU=1`` it also measures the main thread's CPU time
(``time.thread_time_ns``, microseconds in the file) of each task kind's steps, of the loop's
turns, and of the host functions on a move's way (inclusive): where a move's CPU goes, without
a profiler's distortion (the clock calls cost a few microseconds a move). With
``COUNT_PROBE_PROFILE=FILE`` the main thread also runs under cProfile through the window
(slower), its stats written to FILE; with ``COUNT_PROBE_PROFILE_CLOCK=cpu`` as well, the
profile's times are the main thread's CPU time (``time.thread_time_ns``), not wall time, so a
thread preempted by the process it woke (a loopback write) does not show as busy. The host
is otherwise the ordinary one; counting costs it a little CPU.
"""

from __future__ import annotations

import cProfile
import gc
import os
import runpy
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import msgpack
import trio

GC_THRESHOLD = 1000
counts: Counter[str] = Counter()


cpu_ns: Counter[str] = Counter()
"""With ``COUNT_PROBE_CPU=1``: the main thread's CPU time (ns) in each task kind's steps, in
the loop outside task steps, and in each function :func:`timed` wraps (inclusive)."""
CPU = os.environ.get("COUNT_PROBE_CPU") == "1"
thread_ns = time.thread_time_ns


class Counting(trio.abc.Instrument):
    """Counts the loop's turns and each task's steps (and with :data:`CPU`, times them)."""

    def __init__(self) -> None:
        self._step_began = 0
        self._turn_began = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        counts["task steps"] += 1
        counts[f"  steps of {_task_kind(task)}"] += 1
        if CPU:
            self._step_began = thread_ns()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        if CPU:
            cpu_ns[f"cpu: steps of {_task_kind(task)}"] += thread_ns() - self._step_began

    def after_io_wait(self, timeout: float) -> None:
        counts["loop turns (epoll waits)"] += 1
        if CPU:
            self._turn_began = thread_ns()

    def before_io_wait(self, timeout: float) -> None:
        if CPU and self._turn_began:
            cpu_ns["cpu: main thread busy (epoll wait to epoll wait)"] += (
                thread_ns() - self._turn_began
            )


def timed(name: str, fn: Callable[..., Any]) -> Any:
    """``fn`` (synchronous), its main-thread CPU time added to ``cpu: NAME`` (inclusive)."""
    if not CPU:
        return fn

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        began = thread_ns()
        try:
            return fn(*args, **kwargs)
        finally:
            cpu_ns[f"cpu: {name}"] += thread_ns() - began

    return wrapper


def _task_kind(task: trio.lowlevel.Task) -> str:
    return ".".join(task.name.split(" ")[0].rsplit(".", 2)[-2:])


def counted(name: str, fn: Callable[..., Any], rows: Callable[..., int] | None = None) -> Any:
    """``fn``, counting its calls as ``name`` (and ``rows(*args)`` as ``name rows``)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        if rows is not None:
            counts[f"{name} rows"] += rows(*args)
        return fn(*args, **kwargs)

    return wrapper


def timed_async(name: str, fn: Callable[..., Any]) -> Any:
    """As :func:`timed` for a coroutine function that seldom suspends (a move's dispatch):
    what other tasks run while it waits is counted in too."""
    if not CPU:
        return fn

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        began = thread_ns()
        try:
            return await fn(*args, **kwargs)
        finally:
            cpu_ns[f"cpu: {name}"] += thread_ns() - began

    return wrapper


def watch(log_path: str) -> None:
    from scopa_net.server import journal, session, table
    from scopa_net.server import table_task as tt

    os.read = counted("os.read", timed("os.read", os.read))
    os.write = counted("os.write", os.write)
    msgpack.packb = counted("msgpack.packb", msgpack.packb)
    msgpack.unpackb = counted("msgpack.unpackb", msgpack.unpackb)
    trio.lowlevel.wait_readable = counted("wait_readable", trio.lowlevel.wait_readable)
    table.sign = counted("sign", table.sign)
    session.sign = counted("sign (welcome)", session.sign)
    table.Table.play = counted("moves (Table.play)", table.Table.play)
    journal.Journal.append_many = counted(
        "journal commits", journal.Journal.append_many, lambda self, entries: len(entries)
    )
    from scopa_net.server import journal_writer as jw
    from scopa_net.server import outbox
    from scopa_net.wire import connection

    tt.TableTask.take_now = counted(
        "take_now", timed("take_now (a move applied)", tt.TableTask.take_now)
    )
    tt.TableTask._done_in_hand = timed(
        "_done_in_hand (a move answered)", tt.TableTask._done_in_hand
    )
    tt.TableTask._deliver = timed("_deliver", tt.TableTask._deliver)
    table.Table.start_round = timed("Table.start_round", table.Table.start_round)
    table.Table.seed_commit = timed("Table.seed_commit", table.Table.seed_commit)
    table.Table.seed_reveal = timed("Table.seed_reveal", table.Table.seed_reveal)
    session.PlayerSession._write_now = timed("_write_now (sink)", session.PlayerSession._write_now)
    session.PlayerSession._encode = timed("  _encode", session.PlayerSession._encode)
    connection.HostConnection.next_event = timed(
        "next_event (decode)", connection.HostConnection.next_event
    )
    outbox.Outbox.push = timed("Outbox.push", outbox.Outbox.push)
    session.PlayerSession._dispatch = timed_async("_dispatch", session.PlayerSession._dispatch)
    connection.HostConnection.receive_data = timed(
        "receive_data", connection.HostConnection.receive_data
    )
    jw._WriterThread.start = timed("_WriterThread.start (hand to thread)", jw._WriterThread.start)
    tt.TableTask._handle = counted("table task _handle", tt.TableTask._handle)
    token_cls = trio.lowlevel.TrioToken
    token_cls.run_sync_soon = counted("run_sync_soon", token_cls.run_sync_soon)
    original_run = trio.run

    def run(*args: Any, **kwargs: Any) -> Any:
        kwargs["instruments"] = [*kwargs.get("instruments", ()), Counting()]
        return original_run(*args, **kwargs)

    trio.run = run

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            counts[f"gc gen{info['generation']} collections"] += 1

    def collector_on() -> None:
        gc.set_threshold(GC_THRESHOLD, 10, 10**9)  # young only, in effect
        gc.enable()

    from scopa_net.server import collector

    install = collector.install

    def install_then_count() -> None:
        install()
        collector_on()

    collector.install = install_then_count
    gc.callbacks.append(on_gc)

    profile_path = os.environ.get("COUNT_PROBE_PROFILE")
    profiler = None
    if profile_path and os.environ.get("COUNT_PROBE_PROFILE_CLOCK") == "cpu":
        profiler = cProfile.Profile(time.thread_time_ns, 1e-9)  # the main thread's CPU only
    elif profile_path:
        profiler = cProfile.Profile()

    def mark(signum: int, frame: object) -> None:
        counts.clear()
        cpu_ns.clear()
        if profiler is not None:
            profiler.enable()

    def write(signum: int, frame: object) -> None:
        snapshot = dict(counts)
        snapshot.update({name: ns // 1000 for name, ns in cpu_ns.items()})  # microseconds
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile_path)
        with open(log_path, "w") as log:
            for name in sorted(snapshot, key=lambda name: (name.startswith(" "), name)):
                count = snapshot[name]
                log.write(f"{name}\t{count}\n")

    signal.signal(signal.SIGUSR2, mark)
    signal.signal(signal.SIGUSR1, write)


def main() -> None:
    watch(sys.argv[1])
    sys.argv = ["scopa-net", *sys.argv[2:]]
    runpy.run_module("scopa_net", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
