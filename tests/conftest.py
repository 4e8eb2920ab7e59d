"""Shared pytest options: ``--runslow`` runs the long forms of the fault and soak tests; every
test runs under a hang guard (async tests in trio's ``fail_after``, the others under SIGALRM)."""

from __future__ import annotations

import contextlib
import functools
import inspect
import signal
import threading
from collections.abc import Awaitable, Callable, Generator, Iterator
from pathlib import Path

import pytest
import trio
from hosting import HostThread, MakeHost, host_in_thread, start_host

from scopa_net.rules import RuleSet
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


class HangError(Exception):
    """A test still running at its hang guard's limit."""


@contextlib.contextmanager
def alarm_after(seconds: float) -> Iterator[None]:
    """Raise ``HangError`` in the main thread if the block is still running after ``seconds``
    (real time): a sync test that waits on a command (``trio.run``, a thread, a pipe) fails
    with its traceback instead of hanging the suite. Only in the main thread on POSIX (where
    SIGALRM exists); elsewhere the block runs unguarded."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def on_alarm(signum: int, frame: object) -> None:
        raise HangError(f"still running after {seconds:.0f} s: a hang (see the stack above)")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Put every sync test under ``alarm_after(ASYNC_TEST_LIMIT)``: the async ones have theirs
    (``guarded``, or virtual time)."""
    if isinstance(item, pytest.Function) and inspect.iscoroutinefunction(item.obj):
        return (yield)
    with alarm_after(ASYNC_TEST_LIMIT):
        return (yield)


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


@pytest.fixture(autouse=True)
def user_folders_of_its_own(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets empty data and config folders (``XDG_DATA_HOME``, ``XDG_CONFIG_HOME``):
    no test reads or writes the real user's pinned hosts, seats, transcripts or client.toml, so
    a machine whose user has played (a pinned host in ``known_hosts``, say) runs the suite as a
    fresh one does. A test that sets its own folders overrides these."""
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))


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


@pytest.fixture
def locked_table(threaded_host: HostThread, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Table 1 at ``threaded_host``: two seats, the password "pw", a host computer player in
    seat 1; a match to 1. Its address (the client's data under ``tmp_path``)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    host = threaded_host.host
    threaded_host.call(host.create_table, "club", RuleSet.of(2, 1), "pw", 1, 1)
    return threaded_host.address
