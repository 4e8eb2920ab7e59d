"""The terminal closing (SIGHUP: a window closed, an SSH session dropped) at a question asked
before a game, or at a wait before one, ends the command as SIGTERM does there: one line, said
wherever stderr still goes (a log here), and status 129 (README's exit table). Before, SIGHUP
killed ``join`` at its table number, password, LAN search or host's answer, ``play --lan`` at
its seat to take back, and the score keeper (``tally``) where they stood: no line anywhere for
the person who reads the log, and the status was the signal's.

The score keeper's own test is tests/test_tally_terminal_closed.py."""

from __future__ import annotations

import os
import pty
import shutil
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import env_with_home, free_port, kept_seat
from hosting import host_command, host_process
from terminal_output import in_a_window_logging_stderr, read_until, until_logged

from scopa_net.client import embedded, sigterm
from scopa_net.client.sigterm import HungUp
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_HANGUP
from scopa_net.server import discovery

GUARD = 30.0
CLOSED = "scopa-net: stopped by SIGHUP (the terminal closed)"

needs_setsid = pytest.mark.skipif(
    shutil.which("setsid") is None, reason="util-linux setsid is not installed"
)


class HangupNotCaughtError(Exception):
    """SIGHUP reached the test's own handler: the command had none of its own there (left to
    the default, it would have killed the command where it stood)."""


@contextmanager
def hangup_not_caught_fails() -> Iterator[None]:
    def not_caught(signum: int, frame: object) -> None:
        raise HangupNotCaughtError

    before = signal.signal(signal.SIGHUP, not_caught)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)


def scopa_net(*words: str) -> list[str]:
    return [sys.executable, "-m", "scopa_net", *words]


@needs_setsid
def test_join_whose_window_closes_at_the_table_number_ends_129(tmp_path: Path) -> None:
    port = free_port()
    env = env_with_home(tmp_path) | {"TERM": "xterm-256color", "NO_COLOR": "1"}
    host = host_process(host_command(tmp_path / "host.db", port, "--players", "2"), env)
    err = tmp_path / "stderr.txt"
    try:
        join = scopa_net("join", f"127.0.0.1:{port}")
        with in_a_window_logging_stderr(join, env, err) as window:
            until_logged(err, "Enter to stop): ", GUARD)
            time.sleep(0.2)  # the question is asked: input() waits
            window.close()
            status = window.process.wait(GUARD)
    finally:
        host.stop()
    said = err.read_text().split("Enter to stop): ")[-1]
    assert (status, said) == (EXIT_HANGUP, f"{CLOSED}; nothing joined\n")


@needs_setsid
def test_join_whose_window_closes_at_the_password_ends_129(tmp_path: Path) -> None:
    port = free_port()
    env = env_with_home(tmp_path) | {"TERM": "xterm-256color", "NO_COLOR": "1"}
    flags = ("--players", "2", "--password", "sesame")
    host = host_process(host_command(tmp_path / "host.db", port, *flags), env)
    err = tmp_path / "stderr.txt"
    join = scopa_net("join", f"127.0.0.1:{port}", "--table", "1")
    try:
        with in_a_window_logging_stderr(join, env, err) as window:
            read_until(window.main_fd, b"password for table 1: ", GUARD)  # getpass: the tty
            time.sleep(0.2)
            window.close()
            status = window.process.wait(GUARD)
    finally:
        host.stop()
    assert (status, err.read_text()) == (EXIT_HANGUP, f"{CLOSED}; nothing joined\n")


@needs_setsid
def test_join_whose_window_closes_while_it_waits_for_the_host_ends_129(tmp_path: Path) -> None:
    """The host took the connection and says nothing yet (a slow network)."""
    env = env_with_home(tmp_path) | {"TERM": "xterm-256color", "NO_COLOR": "1"}
    err = tmp_path / "stderr.txt"
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        join = scopa_net("join", f"127.0.0.1:{port}")
        with in_a_window_logging_stderr(join, env, err) as window:
            held, _ = silent.accept()  # the probe's connection, never answered
            with held:
                time.sleep(0.3)  # it waits for the welcome
                window.close()
                status = window.process.wait(GUARD)
    assert (status, err.read_text()) == (EXIT_HANGUP, f"{CLOSED}; nothing joined\n")


def test_join_whose_terminal_closes_while_it_looks_for_hosts_ends_129(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`scopa-net join` alone looks for hosts on the LAN for 2 s (on loopback only here)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("SCOPA_NET_HOST", raising=False)
    monkeypatch.setattr(discovery, "browse_interfaces", lambda: ["127.0.0.1"])
    hangup = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGHUP))
    with hangup_not_caught_fails():
        try:
            hangup.start()
            status = main(["join"])
        finally:
            hangup.cancel()
    out, err = capsys.readouterr()
    assert out.startswith("looking for hosts on the LAN (127.0.0.1) for 2 s...\n"), out
    assert (status, err) == (EXIT_HANGUP, f"{CLOSED}; nothing joined\n")


def test_play_lan_whose_terminal_closes_at_which_seat_ends_129(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two seats kept at `play --lan`'s own host: "which one?", and the terminal closes."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    kept = [kept_seat(43900, table_id=n) for n in (1, 2)]
    monkeypatch.setattr(embedded, "kept_lan_seats", lambda where: kept)

    def closed_meanwhile(prompt: str) -> str:
        print(prompt, end="")
        with sigterm.stop_signals_raise():
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(GUARD)  # the signal raises HungUp before this ends
        return ""

    monkeypatch.setattr(sigterm, "typed", closed_meanwhile)
    with hangup_not_caught_fails():
        status = main(["play", "--lan", "--port", "43900"])
    out, err = capsys.readouterr()
    assert "which one (1-2; Enter for a new seat): " in out
    assert (status, err) == (EXIT_HANGUP, f"{CLOSED}; no table opened\n")


def test_a_question_whose_terminal_hung_up_before_its_sighup_came_is_a_hangup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kernel fails a hung-up terminal's reads first and signals after: the question's
    end of input is then the terminal closing, not Ctrl-D (130, "stopped")."""
    main_fd, terminal_fd = pty.openpty()
    os.close(main_fd)  # the window closed: the terminal hung up
    with open(terminal_fd) as gone:
        monkeypatch.setattr(sys, "stdin", gone)
        with hangup_not_caught_fails(), pytest.raises(HungUp):
            sigterm.typed("table number (1; Enter to stop): ")
