"""Shared pytest options: ``--runslow`` runs the long forms of the fault and soak tests; every
async test runs under a hang guard."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Iterator

import pytest
import trio
from hosting import HostThread, MakeHost, host_in_thread, start_host

from scopa_net.server.host import Host


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow", action="store_true", default=False, help="run many more seeds and kills"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="long run: give --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


#: Bound on any one async test (real time): a test stalled on the network fails with
#: ``trio.TooSlowError`` and its traceback instead of hanging the suite. Not a speed check: the
#: slowest async test takes a few seconds on an idle machine. ``faulthandler_timeout`` (60 s, in
#: pyproject.toml) prints every thread's stack first.
ASYNC_TEST_LIMIT = 180.0


def guarded(test: Callable[..., Awaitable[object]]) -> Callable[..., Awaitable[object]]:
    """The async test ``test`` run under ``trio.fail_after(ASYNC_TEST_LIMIT)``."""

    @functools.wraps(test)
    async def run_guarded(**kwargs: object) -> object:
        with trio.fail_after(ASYNC_TEST_LIMIT):
            return await test(**kwargs)

    return run_guarded


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Put every async test under the hang guard, except those in virtual time (there a stall
    makes the autojump clock jump, and a long virtual wait is the point of the test)."""
    if not isinstance(item, pytest.Function) or not inspect.iscoroutinefunction(item.obj):
        return
    if {"autojump_clock", "mock_clock"} & set(item.fixturenames):
        return
    if hasattr(item.obj, "hypothesis"):
        return
    item.obj = guarded(item.obj)


@pytest.fixture
async def host(nursery: trio.Nursery) -> Host:
    """A host with default settings on 127.0.0.1 (any free port), journal in memory; it stops
    when the test ends."""
    return await start_host(nursery)


@pytest.fixture
def make_host(nursery: trio.Nursery) -> MakeHost:
    """``await make_host(**options)``: a host with those HostConfig options, as ``host``."""

    async def make(**options: object) -> Host:
        return await start_host(nursery, **options)

    return make


@pytest.fixture
def threaded_host() -> Iterator[HostThread]:
    """A host with default settings on 127.0.0.1 (any free port), journal in memory, in a
    thread of its own: for a test that runs a command (which calls ``trio.run`` itself).
    ``threaded_host.call(host.create_table, ...)`` reaches it from the test."""
    with host_in_thread() as running:
        yield running
