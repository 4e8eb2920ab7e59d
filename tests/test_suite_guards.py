"""The suite's own guards work: a stalled test, async or not, fails instead of hanging; test
modules do not import each other."""

from __future__ import annotations

import ast
import threading
import time
from pathlib import Path

import pytest
import trio
from conftest import ASYNC_TEST_LIMIT, HangError, alarm_after, guarded


async def test_the_hang_guard_fails_a_stalled_test(autojump_clock: trio.abc.Clock) -> None:
    async def stalled() -> None:
        await trio.sleep_forever()

    start = trio.current_time()
    with pytest.raises(trio.TooSlowError):
        await guarded(stalled)()
    assert trio.current_time() - start == pytest.approx(ASYNC_TEST_LIMIT)


async def test_the_hang_guard_passes_results_through(autojump_clock: trio.abc.Clock) -> None:
    async def answer(value: int) -> int:
        await trio.sleep(1)
        return value

    assert await guarded(answer)(value=7) == 7


def test_the_sync_hang_guard_stops_a_wait_that_never_ends() -> None:
    """A sync test stuck on a wait (here an event nobody sets) fails at the limit."""
    never = threading.Event()
    start = time.monotonic()
    with pytest.raises(HangError, match="still running after 0 s"), alarm_after(0.2):
        never.wait(30)
    assert time.monotonic() - start < 10


def test_the_sync_hang_guard_lets_a_quick_block_finish() -> None:
    with alarm_after(5):
        value = 7
    time.sleep(0.05)  # the alarm is off: nothing goes off later
    assert value == 7


def test_no_test_module_imports_another() -> None:
    """Shared code lives in helpers.py, hosting.py, strategies.py and the like, never in a test
    module: importing one runs its tests' module code twice and hides the dependency."""
    found = []
    for path in sorted(Path(__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("test_"):
                found.append(f"{path.name}:{node.lineno} imports {node.module}")
            elif isinstance(node, ast.Import):
                found += [
                    f"{path.name}:{node.lineno} imports {a.name}"
                    for a in node.names
                    if a.name.startswith("test_")
                ]
    assert found == []


def test_shared_test_code_is_imported_by_its_own_name() -> None:
    """``from tests.hosting import ...`` works only where the repository's root is on the
    path (``python -m pytest`` from there): ``pytest`` alone, as a packager runs it, stopped
    the whole run at collection. Shared modules are imported as ``hosting``, ``rawseat``...,
    as the tests folder is on the path either way."""
    found = []
    for path in sorted(Path(__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            found += [
                f"{path.name}:{node.lineno} imports {name}"
                for name in names
                if name == "tests" or name.startswith("tests.")
            ]
    assert found == []
