"""The core does no I/O: importing it loads no event loop, terminal, socket or database, and its
source reads no clock and no unseeded randomness (only ``random.Random(seed)`` generators)."""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import env_without_coverage

import scopa_net

FORBIDDEN = {"trio", "asyncio", "prompt_toolkit", "socket", "selectors", "sqlite3"}
# ``python -m scopa_net`` is an edge by design: it runs the command line.
EDGE_MODULES = {"scopa_net.__main__"}
# Installed inside the package (pyproject.toml's package-dir) but not the core: a non-editable
# install has them in scopa_net/'s own folder.
NOT_CORE = {"server", "client", "commands"}


def core_modules() -> list[str]:
    root = Path(scopa_net.__file__).parent
    names = []
    for info in pkgutil.walk_packages([str(root)], prefix="scopa_net."):
        name = info.name
        if name in EDGE_MODULES or name.split(".")[1] in NOT_CORE:
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
    env = env_without_coverage()
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


#: Modules whose import gives the core a clock or a source of randomness of its own.
CLOCK_AND_ENTROPY_MODULES = {"time", "datetime", "secrets", "uuid"}
#: ``random`` may be used only through ``random.Random(seed)``: a generator the caller seeds.
RANDOM_ALLOWED = {"Random"}
#: Calls on ``os`` that read the machine's entropy or its clock.
OS_FORBIDDEN = {"urandom", "getrandom", "times"}


def impurities(source: str) -> list[str]:
    """Every use of a clock or of global randomness in ``source``, as ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                f"{node.lineno}: import {a.name}"
                for a in node.names
                if a.name.split(".")[0] in CLOCK_AND_ENTROPY_MODULES
            ]
        elif isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            if top in CLOCK_AND_ENTROPY_MODULES:
                found.append(f"{node.lineno}: from {node.module} import ...")
            elif top == "random":
                found += [
                    f"{node.lineno}: from random import {a.name}"
                    for a in node.names
                    if a.name not in RANDOM_ALLOWED
                ]
            elif top == "os":
                found += [
                    f"{node.lineno}: from os import {a.name}"
                    for a in node.names
                    if a.name in OS_FORBIDDEN
                ]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module, name = node.value.id, node.attr
            if module == "random" and name not in RANDOM_ALLOWED:
                found.append(f"{node.lineno}: random.{name}")
            elif module == "os" and name in OS_FORBIDDEN:
                found.append(f"{node.lineno}: os.{name}")
        elif isinstance(node, ast.Call):
            func = node.func
            unseeded = not node.args and not node.keywords
            if unseeded and (
                (isinstance(func, ast.Attribute) and func.attr == "Random")
                or (isinstance(func, ast.Name) and func.id == "Random")
            ):
                found.append(f"{node.lineno}: Random() seeded from the machine")
    return found


def core_sources() -> dict[str, str]:
    root = Path(scopa_net.__file__).parent
    sources = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(("scopa_net", *parts))
        if name.removesuffix(".__init__") not in EDGE_MODULES and parts[0] not in NOT_CORE:
            sources[name] = path.read_text(encoding="utf-8")
    return sources


def test_the_core_has_no_clock_and_no_global_randomness() -> None:
    sources = core_sources()
    assert "scopa_net.round" in sources
    assert "scopa_net.bots.strong" in sources
    found = {name: bad for name, source in sources.items() if (bad := impurities(source))}
    assert not found, f"the core reads a clock or unseeded randomness: {found}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import time\n", "1: import time"),
        ("from datetime import datetime\n", "1: from datetime import ..."),
        ("import secrets\n", "1: import secrets"),
        ("import random\nrandom.shuffle(deck)\n", "2: random.shuffle"),
        ("from random import choice\n", "1: from random import choice"),
        ("import random\nrng = random.Random()\n", "2: Random() seeded from the machine"),
        ("import os\nos.urandom(32)\n", "2: os.urandom"),
    ],
)
def test_the_purity_check_catches_each_kind(source: str, expected: str) -> None:
    assert expected in impurities(source)


def test_the_purity_check_allows_a_seeded_generator() -> None:
    assert impurities("import random\nrng = random.Random(seed)\nrng.shuffle(deck)\n") == []
