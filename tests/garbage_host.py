"""``scopa-net host`` that answers each line on its stdin with what a full collection finds.

    python tests/garbage_host.py host --port ...

The host is the real command, with its own collector policy (:mod:`scopa_net.server.collector`)
in force; only a finished table's linger time is cut to half a second, so that a test sees
tables close. For each line read, a thread of its own runs a full collection
that keeps what it finds (``gc.DEBUG_SAVEALL``), and prints one JSON line: how many unreachable
objects it found, the most numerous of their types, and how many objects the collector tracks;
then it frees them, so that the next line counts only what was left behind since.
"""

from __future__ import annotations

import gc
import json
import runpy
import sys
import threading
from collections import Counter


def answer_collections() -> None:
    for _ in sys.stdin:
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            found = gc.collect()
            kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        gc.collect()  # now freed, so that the next line counts only what came since
        tracked = len(gc.get_objects())
        line = {"garbage": found, "kinds": kinds.most_common(40), "tracked": tracked}
        print(json.dumps(line), flush=True)


def main() -> None:
    from scopa_net.server import table_task

    table_task.LINGER = 0.5
    threading.Thread(target=answer_collections, daemon=True).start()
    sys.argv = ["scopa-net", *sys.argv[1:]]
    runpy.run_module("scopa_net", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
