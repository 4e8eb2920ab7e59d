"""A run stopped by a signal (a host's Ctrl-C, a game's or bots' SIGTERM) ignores the later
ones while it stops. In the ``scopa-net`` process they stay ignored until it exits; called
in a process that goes on (a test, another program), the run gives every handler back as it
was: before, SIGTERM and Ctrl-C stayed ignored for the rest of the caller's life, and a test
that ran one had to put them back itself."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import trio
from helpers import free_port

from scopa_net.client.launch import until_terminated
from scopa_net.client.sigterm import Terminated, run_until_stopped
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_TERMINATED, CommandError

WATCHED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def caller_s_own(signum: int, frame: object) -> None:
    """The handler a caller had set: a late signal to it is a test's failure, not its end."""
    raise AssertionError(f"signal {signum} reached the caller's handler")


@contextmanager
def callers_handlers() -> Iterator[dict[int, Any]]:
    """The caller's own handlers set for the run, and the process's put back after it."""
    before = {signum: signal.signal(signum, caller_s_own) for signum in WATCHED}
    try:
        yield {signum: caller_s_own for signum in WATCHED}
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def handlers_now() -> dict[int, Any]:
    return {signum: signal.getsignal(signum) for signum in WATCHED}


def test_work_stopped_by_sigterm_gives_the_handlers_back() -> None:
    async def work() -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        with trio.fail_after(10):
            await trio.sleep_forever()

    with callers_handlers() as theirs:
        with pytest.raises(Terminated):
            run_until_stopped(work)
        assert handlers_now() == theirs


class _StoppedApp:
    """A game's app that a SIGTERM stops as it runs."""

    async def run(self) -> int:
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.sleep(10)
        return 0

    def terminated(self) -> str:
        return "your seat is kept"


def test_a_game_stopped_by_sigterm_gives_the_handlers_back() -> None:
    with callers_handlers() as theirs:
        with pytest.raises(CommandError) as stopped:
            asyncio.run(asyncio.wait_for(until_terminated(_StoppedApp()), 20))
        assert handlers_now() == theirs
    assert (stopped.value.status, str(stopped.value)) == (
        EXIT_TERMINATED,
        "stopped by SIGTERM; your seat is kept",
    )


def _interrupt_once_listening(port: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            time.sleep(0.05)
            continue
        os.kill(os.getpid(), signal.SIGINT)
        return


def test_a_host_stopped_by_ctrl_c_gives_the_handlers_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    db = tmp_path / "host.db"
    argv = ["host", "--db", str(db), "--host", "127.0.0.1", "--port", str(port)]
    argv += ["--no-advertise", "--log-level", "ERROR"]
    ctrl_c = threading.Thread(target=_interrupt_once_listening, args=(port,))
    with callers_handlers() as theirs:
        ctrl_c.start()
        try:
            status = main(argv)
        finally:
            ctrl_c.join(30)
        assert handlers_now() == theirs
    assert status == 0
    said = capsys.readouterr().out.splitlines()[-1]
    # No table was opened: "the tables are saved in ...: the same command resumes them"
    # promised tables that were never there.
    assert said == "stopped; no table was open, so there is nothing to resume"
