"""The host's garbage-collector policy: no automatic collections, a full sweep now and then.

The host keeps much alive for a long time: every seat's events for the match, the fair-deal
records, a trio task or two per connection (1.4 million objects the collector tracks at 2,000
busy tables). CPython's collector stops the whole process while it walks a generation, and
with many tables even its young generation is large: with the thresholds the host had before
(a young collection every 100,000 allocations) one walked 385,000 objects and paused every
table for 0.3 s, every 8 s at 2,000 tables, which set the p99 move latency. Collecting more
often makes each pause shorter but walks more in all (young collections every 5,000
allocations took 8% of the host's time there), and freezing survivors does not bound the
young generation (its trigger counts frees of old objects against new ones).

The collector is only needed for *cycles*: everything else is freed by reference counting the
moment nothing refers to it. The host leaves none behind as it plays
(``tests/test_host_garbage.py`` plays matches over loopback, connections and tables coming and
going, and a full collection afterwards finds next to nothing). So the host turns automatic
collection off (:func:`install`) and sweeps everything itself now and then
(:func:`sweep_now_and_then`), as a safety net that keeps any cyclic garbage bounded: a sweep
pauses the host for as long as it takes to walk every object (a few milliseconds with a few
tables, 1.2-1.9 s with 2,000), so sweeps are spaced to take :data:`SWEEP_SHARE` of the time,
and come sooner only when the host's memory has doubled (:data:`GROWTH`).
"""

from __future__ import annotations

import gc
import logging
import os
import time
from collections.abc import Callable

import trio

log = logging.getLogger("scopa_net.host")

SWEEP_SHARE = 0.0005
"""Sweeps are spaced so that their pauses take this share of the host's time at most: a sweep
that took 1.5 s (2,000 busy tables) is followed by the next one 50 minutes later."""
SWEEP_EVERY = 600.0
"""...and at least this long apart (seconds): the first comes ten minutes after the start..."""
GROWTH = 1.0
GROWTH_FLOOR = 128 << 20
"""...unless the host's memory has doubled since the last sweep (and grown by 128 MiB at
least): then the next sweep comes at once, so that whatever might make cyclic garbage, it
cannot hold more than the host itself. A host that grows for good (more tables) sweeps once
or twice on the way up (at 2,000 tables: once, at about 180 MiB)."""
CHECK_EVERY = 10.0
"""How often the host's memory is looked at (seconds)."""


def install() -> None:
    """Turn automatic collection off for this process (the host's, from ``scopa-net host``);
    the host's own sweeps then run (:func:`sweep_now_and_then`). A full collection first
    frees what starting up left in cycles (the command line's parser: ``argparse`` makes a
    help formatter per option to check its metavar, each in a cycle with its root section),
    which Python 3.13's collector has not yet freed by then (3.11's has), so that it does
    not wait for the first sweep, ten minutes on."""
    gc.collect()
    gc.disable()


def resident_bytes() -> int | None:
    """This process's resident memory (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


async def sweep_now_and_then(resident: Callable[[], int | None] = resident_bytes) -> None:
    """While automatic collection is off, sweep every generation now and then (see the
    module's docstring); with it on (in-process tests, embedding), CPython's collector does
    the work and this returns. ``resident``: the process's memory in bytes, or None."""
    interval = SWEEP_EVERY
    last = trio.current_time()
    baseline = resident()
    while not gc.isenabled():
        await trio.sleep(CHECK_EVERY)
        now, size = trio.current_time(), resident()
        grown = (
            size is not None
            and baseline is not None
            and size - baseline >= max(GROWTH * baseline, GROWTH_FLOOR)
        )
        if now < last + interval and not grown:
            continue
        began = time.perf_counter()
        found = gc.collect()
        pause = time.perf_counter() - began
        interval = max(SWEEP_EVERY, pause / SWEEP_SHARE)
        last, baseline = trio.current_time(), resident()
        log.info(
            "swept the heap%s: %s unreachable objects freed in %.0f ms; next in %.0f s at most",
            " (its memory had doubled)" if grown else "",
            found,
            pause * 1000,
            interval,
        )
