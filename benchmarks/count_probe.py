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
the moves. With ``COUNT_PROBE_PROFILE=FILE`` the main thread also runs under cProfile through
the window (slower), its stats written to FILE. The host is otherwise the ordinary one;
counting costs it a little CPU.
"""

from __future__ import annotations

import cProfile
import gc
import os
import runpy
import signal
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import msgpack
import trio

GC_THRESHOLD = 1000
counts: Counter[str] = Counter()


class Counting(trio.abc.Instrument):
    """Counts the loop's turns and each task's steps."""

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        counts["task steps"] += 1
        counts[f"  steps of {_task_kind(task)}"] += 1

    def after_io_wait(self, timeout: float) -> None:
        counts["loop turns (epoll waits)"] += 1


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


def watch(log_path: str) -> None:
    from scopa_net.server import journal, session, table
    from scopa_net.server import table_task as tt

    os.read = counted("os.read", os.read)
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
    tt.TableTask.take_now = counted("take_now", tt.TableTask.take_now)
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
    profiler = cProfile.Profile() if profile_path else None

    def mark(signum: int, frame: object) -> None:
        counts.clear()
        if profiler is not None:
            profiler.enable()

    def write(signum: int, frame: object) -> None:
        snapshot = dict(counts)
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
