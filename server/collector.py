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
tables, 1.3-1.9 s with 2,000), so sweeps are spaced to take :data:`SWEEP_SHARE` of the time.
"""

from __future__ import annotations

import gc
import logging
import time

import trio

log = logging.getLogger("scopa_net.host")

SWEEP_SHARE = 0.0005
"""Sweeps are spaced so that their pauses take this share of the host's time at most: a sweep
that took 1.5 s (2,000 busy tables) is followed by the next one 50 minutes later."""
SWEEP_EVERY = 600.0
"""...and at least this long apart (seconds): the first comes ten minutes after the start."""


def install() -> None:
    """Turn automatic collection off for this process (the host's, from ``scopa-net host``);
    the host's own sweeps then run (:func:`sweep_now_and_then`)."""
    gc.disable()


async def sweep_now_and_then() -> None:
    """While automatic collection is off, sweep every generation now and then (see the
    module's docstring); with it on (in-process tests, embedding), CPython's collector does
    the work and this returns."""
    interval = SWEEP_EVERY
    while not gc.isenabled():
        await trio.sleep(interval)
        began = time.perf_counter()
        found = gc.collect()
        pause = time.perf_counter() - began
        interval = max(SWEEP_EVERY, pause / SWEEP_SHARE)
        log.debug("swept: %s unreachable objects, %.0f ms; next in %.0f s", found, pause, interval)
