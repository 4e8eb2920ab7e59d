"""Run ``scopa-net`` with its garbage collector watched: a diagnostic for benchmarks/load.py.

    python benchmarks/gc_probe.py LOG host --port ...

Every collection is written to ``LOG`` as one line: ``gc TIME GENERATION MILLISECONDS
COLLECTED TRACKED`` (wall time at its end, the pause in milliseconds, the objects it freed, and
after a full collection, how many objects the collector tracks, frozen ones not counted; -1
after a younger one).

On SIGUSR1 it writes a census: ``census TIME TRACKED FROZEN``; ``type COUNT NAME AT_MARK`` for
the 25 most numerous tracked types (``AT_MARK``: how many there were at SIGUSR2, counted only
with ``GC_PROBE_COUNT_AT_MARK=1`` as counting pauses the host; else -1); ``engine TIME
NAME=ENTRIES/BOUND ...``, how full the rules engine's bounded memories are (also written at
SIGUSR2, as ``engine-start``). Then it unfreezes everything, runs a full collection and writes
``garbage TIME FREED MILLISECONDS``: the unreachable cycles left behind until then.

With ``GC_PROBE_YOUNG=1`` every third young collection is preceded by a census of what it will
walk (``young``, ``yref``, ``ybig`` lines). With ``GC_PROBE_TRACEMALLOC=1`` the host runs under
:mod:`tracemalloc` (slower): SIGUSR2 marks a starting point, and the census then writes
``traced GROWTH TOTAL`` and ``grew BYTES BLOCKS NOW FILE`` lines, what each source file holds
more than at the mark. The host is otherwise the ordinary one.
"""

from __future__ import annotations

import gc
import os
import runpy
import signal
import sys
import time
import tracemalloc
from collections import Counter
from typing import TextIO


def engine_memories() -> str:
    """How full the rules engine's bounded memories are (``scopa_net.round.memory_stats``):
    entries and bound of each; read only."""
    from scopa_net import round as engine

    return " ".join(
        f"{name.replace(' ', '_')}={held}/{limit}"
        for name, (held, limit) in engine.memory_stats().items()
    )


def watch(log: TextIO) -> None:
    """Log every collection's pause, and a census of tracked objects on SIGUSR1."""
    began = [0.0]

    young = [0]

    def on_collect(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if info["generation"] == 0 and os.environ.get("GC_PROBE_YOUNG"):
                young[0] += 1
                if young[0] % 3 == 0:
                    young_census()
            began[0] = time.perf_counter()
            return
        pause = (time.perf_counter() - began[0]) * 1000
        # Counting costs a walk of the list: only after a full collection (rare).
        tracked = len(gc.get_objects(2)) if info["generation"] == 2 else -1
        log.write(
            f"gc {time.time():.3f} {info['generation']} {pause:.3f} {info['collected']} {tracked}\n"
        )

    def census(signum: int, frame: object) -> None:
        try:
            write_census()
        except Exception as exc:  # a probe must never bring the host down
            log.write(f"error {time.time():.3f} census: {exc!r}\n")

    def write_census() -> None:
        objects = gc.get_objects()
        kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in objects)
        log.write(f"census {time.time():.3f} {len(objects)} {gc.get_freeze_count()}\n")
        for name, count in kinds.most_common(25):
            log.write(f"type {count} {name} {at_mark.get(name, -1)}\n")
        del objects
        log.write(f"engine {time.time():.3f} {engine_memories()}\n")
        if tracemalloc.is_tracing():
            growth()
        # What every collection so far left behind: cycles no longer referenced (a frozen
        # object is looked at again only once unfrozen).
        gc.unfreeze()
        began = time.perf_counter()
        garbage = gc.collect()
        log.write(
            f"garbage {time.time():.3f} {garbage} {(time.perf_counter() - began) * 1000:.1f}\n"
        )
        log.flush()

    def young_census() -> None:
        """What a young collection is about to walk: its objects by type, the references
        each type holds (what the walk visits), and the biggest containers."""
        objects = gc.get_objects(0)
        kinds: Counter[str] = Counter()
        refs: Counter[str] = Counter()
        sizes = []
        for o in objects:
            name = f"{type(o).__module__}.{type(o).__qualname__}"
            n = len(gc.get_referents(o))
            kinds[name] += 1
            refs[name] += n
            sizes.append((n, name))
        sizes.sort(reverse=True)
        log.write(f"young {time.time():.3f} {len(objects)} {sum(refs.values())}\n")
        for name, count in refs.most_common(15):
            log.write(f"yref {count} {kinds[name]} {name}\n")
        for n, name in sizes[:8]:
            log.write(f"ybig {n} {name}\n")
        del objects

    base: list[tracemalloc.Snapshot] = []

    at_mark: Counter[str] = Counter()

    def mark(signum: int, frame: object) -> None:
        """SIGUSR2: what the census's comparisons start from (and how full the engine's
        memories are then)."""
        log.write(f"engine-start {time.time():.3f} {engine_memories()}\n")
        if os.environ.get("GC_PROBE_COUNT_AT_MARK"):
            at_mark.update(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())
        if tracemalloc.is_tracing():
            base[:] = [tracemalloc.take_snapshot()]

    def growth() -> None:
        """Since SIGUSR2: memory allocated and not freed, by source file."""
        if not base:
            return
        now = tracemalloc.take_snapshot()
        changes = now.compare_to(base[0], "filename")
        log.write(f"traced {sum(c.size_diff for c in changes)} {sum(c.size for c in changes)}\n")
        for c in changes[:15]:
            name = c.traceback[0].filename
            log.write(f"grew {c.size_diff} {c.count_diff} {c.size} {name}\n")

    gc.callbacks.append(on_collect)
    signal.signal(signal.SIGUSR1, census)
    signal.signal(signal.SIGUSR2, mark)
    if os.environ.get("GC_PROBE_TRACEMALLOC"):
        tracemalloc.start()


def main() -> None:
    log = open(sys.argv[1], "w", buffering=1)  # noqa: SIM115 (open for the process's life)
    watch(log)
    sys.argv = ["scopa-net", *sys.argv[2:]]
    runpy.run_module("scopa_net", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
