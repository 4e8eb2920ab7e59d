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
SIGUSR2, as ``engine-start``); ``alloc TIME NAME=BYTES ...``, what each allocator holds (also
at SIGUSR2, as ``alloc-start``; see :func:`allocators`). Then it unfreezes everything, runs a
full collection and writes ``garbage TIME FREED MILLISECONDS``: the unreachable cycles left
behind until then.

With ``GC_PROBE_YOUNG=1`` every third young collection is preceded by a census of what it will
walk (``young``, ``yref``, ``ybig`` lines). With ``GC_PROBE_TRACEMALLOC=1`` the host runs under
:mod:`tracemalloc` (slower): SIGUSR2 marks a starting point, and the census then writes
``traced GROWTH TOTAL`` and ``grew BYTES BLOCKS NOW FILE`` lines, what each source file holds
more than at the mark. With ``GC_PROBE_ENGINE_LIMIT=N`` the rules engine's growing memories
(the capture rules' and the plays) are bounded to N answers each, so that a soak's window
starts with them full and what still grows is not their filling. The host is otherwise the
ordinary one.
"""

from __future__ import annotations

import gc
import os
import runpy
import signal
import sys
import tempfile
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


def allocators() -> str:
    """What each allocator under the host holds, in bytes: Python's own (pymalloc: its arenas'
    total, the blocks in use and those free inside them), glibc malloc's (every arena: in use,
    mapped chunks included, and free but kept) and SQLite's (``sqlite3_memory_used``, outside
    Python's tracing). Growth that tracemalloc and the object census do not see shows here by
    its allocator. Linux with glibc only; a figure that cannot be read is left out."""
    import ctypes

    found: dict[str, int] = {}
    found.update(_pymalloc())
    try:

        class MallInfo2(ctypes.Structure):
            _fields_ = [
                (name, ctypes.c_size_t)
                for name in [
                    "arena",
                    "ordblks",
                    "smblks",
                    "hblks",
                    "hblkhd",
                    "usmblks",
                    "fsmblks",
                    "uordblks",
                    "fordblks",
                    "keepcost",
                ]
            ]

        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = MallInfo2
        info = libc.mallinfo2()
        found["malloc_used"] = info.uordblks + info.hblkhd
        found["malloc_free"] = info.fordblks
    except (OSError, AttributeError):
        pass
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "libsqlite3" in line}
    if paths:
        sqlite = ctypes.CDLL(sorted(paths)[0])
        sqlite.sqlite3_memory_used.restype = ctypes.c_int64
        found["sqlite"] = sqlite.sqlite3_memory_used()
    return " ".join(f"{name}={value}" for name, value in found.items())


def give_back_free_memory() -> str:
    """``RSS_BEFORE RSS_AFTER`` in bytes around glibc's ``malloc_trim(0)``, which hands the
    free pages inside malloc's heaps back to the system: how much of the host's memory was
    malloc's free space (kept, not in use) rather than anything alive. Empty off glibc."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return ""
    before = _resident()
    trim(0)
    return f"{before} {_resident()}"


def _resident() -> int:
    """This process's resident memory, bytes (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _pymalloc() -> dict[str, int]:
    """pymalloc's totals, from ``sys._debugmallocstats`` (it writes to the C stderr, so that
    is pointed at a file for the call)."""
    names = {
        "# bytes in allocated blocks": "pymalloc_used",
        "# bytes in available blocks": "pymalloc_free",
    }
    sys.stderr.flush()
    with tempfile.TemporaryFile("w+") as out:
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read()
    found = {}
    for line in text.splitlines():
        label, _, value = line.partition("=")
        label = label.strip()
        if label in names or (label == "Total" and "pymalloc_arenas" not in found):
            # The first total is the bytes of the arenas allocated now.
            found[names.get(label, "pymalloc_arenas")] = int(value.strip().replace(",", ""))
    return found


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
        # Before the census's own lists, which glibc keeps as free memory once they go.
        allocated = allocators()
        objects = gc.get_objects()
        kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in objects)
        log.write(f"census {time.time():.3f} {len(objects)} {gc.get_freeze_count()}\n")
        for name, count in kinds.most_common(25):
            log.write(f"type {count} {name} {at_mark.get(name, -1)}\n")
        del objects
        log.write(f"engine {time.time():.3f} {engine_memories()}\n")
        log.write(f"alloc {time.time():.3f} {allocated}\n")
        log.write(f"trim {time.time():.3f} {give_back_free_memory()}\n")
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
        log.write(f"alloc-start {time.time():.3f} {allocators()}\n")
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


def bound_engine_memories(limit: int) -> None:
    """``GC_PROBE_ENGINE_LIMIT``: every growing memory of the rules engine held to ``limit``."""
    from scopa_net import captures, plays

    captures.set_limits(others=limit, cards=min(limit, captures.CARD_MEMORY_LIMIT))
    plays.PLAYS_LIMIT = limit


def main() -> None:
    log = open(sys.argv[1], "w", buffering=1)  # noqa: SIM115 (open for the process's life)
    watch(log)
    if os.environ.get("GC_PROBE_ENGINE_LIMIT"):
        bound_engine_memories(int(os.environ["GC_PROBE_ENGINE_LIMIT"]))
    sys.argv = ["scopa-net", *sys.argv[2:]]
    runpy.run_module("scopa_net", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
