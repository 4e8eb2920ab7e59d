"""A game whose terminal closes (SIGHUP: a window closed, an SSH session dropped) ends as at
SIGTERM, the seat kept for the command that takes it back, and status 129 (what the shell
said when SIGHUP killed it). Before, SIGHUP killed ``join``, ``play`` and ``bots`` where they
stood: no connection closed in order, and at ``play --lan`` the friends read that the
connection to the host was lost instead of that the host stopped and kept their seats
(tests/test_play_lan_stopped.py). Under ``nohup`` (SIGHUP ignored) a game goes on."""

from __future__ import annotations

import asyncio
import errno
import os
import pty
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import trio
from helpers import env_with_home
from hosting import host_in_thread
from terminal_output import in_a_window, read_until
from tmux_player import kept_seats

from scopa_net.client.launch import until_terminated
from scopa_net.client.sigterm import HungUp, run_until_stopped
from scopa_net.commands.options import EXIT_HANGUP, EXIT_UNREACHABLE, CommandError
from scopa_net.server.table import SeatKind

HANG_GUARD = 30


def killed_it(signum: int, frame: object) -> None:
    """SIGHUP not caught by the run: in a process of its own, this is where it died."""
    raise AssertionError("SIGHUP was not caught: it killed the game where it stood")


@contextmanager
def hangup_handled(handler: object = killed_it) -> Iterator[None]:
    before = signal.signal(signal.SIGHUP, handler)  # type: ignore[arg-type]
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)


class _App:
    """A game's app whose terminal closes as it runs; it returns 0 after ``lasts`` s."""

    def __init__(self, lasts: float = 10.0) -> None:
        self.lasts = lasts

    async def run(self) -> int:
        os.kill(os.getpid(), signal.SIGHUP)
        await asyncio.sleep(self.lasts)
        return 0

    def terminated(self) -> str:
        return (
            "the host keeps your seat while the table is open: `scopa-net join 10.0.0.2` takes "
            "it back"
        )


def test_a_game_whose_terminal_closes_keeps_the_seat_and_ends_129() -> None:
    with hangup_handled(), pytest.raises(CommandError) as stopped:
        asyncio.run(asyncio.wait_for(until_terminated(_App()), HANG_GUARD))
    assert stopped.value.status == EXIT_HANGUP == 129
    assert str(stopped.value) == (
        "stopped by SIGHUP (the terminal closed); the host keeps your seat while the table is "
        "open: `scopa-net join 10.0.0.2` takes it back"
    )


def test_a_game_under_nohup_goes_on_when_its_terminal_closes() -> None:
    with hangup_handled(signal.SIG_IGN):
        assert asyncio.run(until_terminated(_App(lasts=0.2))) == 0
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN


def test_bots_whose_terminal_closes_stop_as_at_sigterm() -> None:
    """``bots`` (and ``join`` waiting for a host's answer) run their work this way."""

    async def work() -> None:
        os.kill(os.getpid(), signal.SIGHUP)
        with trio.fail_after(HANG_GUARD):
            await trio.sleep_forever()

    with hangup_handled(), pytest.raises(HungUp):
        run_until_stopped(work)


@pytest.mark.skipif(shutil.which("setsid") is None, reason="util-linux setsid is not installed")
def test_join_whose_window_closes_ends_129_and_its_seat_waits_at_the_host(
    tmp_path: Path,
) -> None:
    """Ada's ``scopa-net join`` in a terminal window; she closes the window at her turn."""
    env = env_with_home(tmp_path) | {"TERM": "xterm-256color", "NO_COLOR": "1"}
    with host_in_thread(bot_delay=0.1) as host:
        argv = [sys.executable, "-m", "scopa_net", "join", host.address, "--create"]
        argv += ["--bots", "1", "--name", "Ada", "--ascii"]
        with in_a_window(argv, env) as window:
            read_until(window.main_fd, b"Your turn.", HANG_GUARD)
            window.close()
            status = window.process.wait(HANG_GUARD)

        async def seat_of_ada() -> tuple[SeatKind, str, bool]:
            with trio.fail_after(HANG_GUARD):
                while True:
                    seat = host.host.tables[1].table.seats[0]
                    if not seat.connected:
                        return seat.kind, seat.name, seat.connected
                    await trio.sleep(0.05)

        kind, name, connected = host.call(seat_of_ada)
    assert status == EXIT_HANGUP, status
    assert (kind, name, connected) == (SeatKind.HUMAN, "Ada", False)  # kept, not left
    (kept,) = kept_seats(tmp_path)
    assert kept["name"] == "Ada"


@pytest.mark.skipif(shutil.which("setsid") is None, reason="util-linux setsid is not installed")
def test_pass_and_play_whose_window_closes_says_so_where_stderr_goes(tmp_path: Path) -> None:
    """Pass and play clears its screen as it stops (no hand left on it for the next person):
    on a terminal that is gone, that clearing failed, read as "cannot reach the host:
    Input/output error", status 3. Its stderr goes to a file here, as to a log."""
    env = env_with_home(tmp_path) | {"TERM": "xterm-256color", "NO_COLOR": "1"}
    err = tmp_path / "stderr.txt"
    play = [sys.executable, "-m", "scopa_net", "play", "--pass-and-play", "--names", "Ada,Bea"]
    play += ["--ascii", "--handover-pause", "0"]
    argv = ["sh", "-c", 'exec "$0" "$@" 2>"$ERR"', *play]
    with in_a_window(argv, env | {"ERR": str(err)}) as window:
        read_until(window.main_fd, b"press Enter", HANG_GUARD)
        window.close()
        status = window.process.wait(HANG_GUARD)
    assert (status, err.read_text()) == (
        EXIT_HANGUP,
        "scopa-net: stopped by SIGHUP (the terminal closed); a pass-and-play match cannot be "
        "continued\n",
    )


def test_a_failure_said_where_stderr_cannot_take_it_keeps_its_status() -> None:
    """The line of a failure, on a stderr that refuses it (a terminal gone, a full disk:
    /dev/full here), failed in turn, and the command ended 1 (Python's own error) instead of
    the status that says why (3: no host there), which a script reads."""
    join = [sys.executable, "-m", "scopa_net", "join", "127.0.0.1:1"]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            join, stderr=full, stdout=subprocess.DEVNULL, timeout=HANG_GUARD, check=False
        )
    assert done.returncode == EXIT_UNREACHABLE


class _FailedByItsTerminal:
    """A game's app whose terminal hung up and failed a write before SIGHUP came (the kernel
    fails the terminal's writes first, then signals: on another core the write can win)."""

    async def run(self) -> int:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    def terminated(self) -> str:
        return "your seat is kept"


def test_a_game_whose_terminal_fails_before_its_sighup_comes_still_keeps_the_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Read as "cannot reach the host: Input/output error", status 3: the likely cause of a
    failure seen once (not reproduced) in a loaded run of the pass-and-play test above."""
    main_fd, terminal_fd = pty.openpty()
    os.close(main_fd)  # the window closed: the terminal hung up
    with open(terminal_fd, "w") as gone:
        monkeypatch.setattr(sys, "stdin", gone)
        with hangup_handled(), pytest.raises(CommandError) as stopped:
            asyncio.run(until_terminated(_FailedByItsTerminal()))
    assert (stopped.value.status, str(stopped.value)) == (
        EXIT_HANGUP,
        "stopped by SIGHUP (the terminal closed); your seat is kept",
    )
