"""The core does no I/O: importing it loads no event loop, terminal, socket or database."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import scopa_net

FORBIDDEN = {"trio", "asyncio", "prompt_toolkit", "socket", "selectors", "sqlite3"}
# ``python -m scopa_net`` is an edge by design: it runs the command line.
EDGE_MODULES = {"scopa_net.__main__"}


def core_modules() -> list[str]:
    root = Path(scopa_net.__file__).parent
    names = []
    for info in pkgutil.walk_packages([str(root)], prefix="scopa_net."):
        name = info.name
        if name in EDGE_MODULES or name.split(".")[1] in {"server", "client", "commands"}:
            continue
        names.append(name)
    return names


def test_core_modules_were_found() -> None:
    names = core_modules()
    for expected in ("scopa_net.round", "scopa_net.match", "scopa_net.view", "scopa_net.cards"):
        assert expected in names


def test_importing_the_core_loads_no_io_or_event_loop() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {core_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    # Coverage measurement, when the suite runs under it, loads sqlite3 into every subprocess:
    # the import check runs in a plain interpreter.
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env=env,
    ).stdout
    loaded = set(json.loads(out))
    assert not loaded & FORBIDDEN, f"the core imported {sorted(loaded & FORBIDDEN)}"
