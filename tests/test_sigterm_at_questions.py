"""SIGTERM (``kill``) during ``scopa-net bots`` and at the questions asked before a game (join's
table number, a kept seat to take back): one line saying so, status 143 (README's exit table).

Found by hand: each ended with the shell's "Terminated" only, where every other command a
person waits on says "stopped by SIGTERM" and what became of things.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import env_with_home, free_port, kept_seat
from hosting import host_command, host_process
from terminal_output import on_a_terminal, read_until

from scopa_net.client import embedded, sigterm
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_CANCELLED, EXIT_TERMINATED
from scopa_net.server import discovery

GUARD = 30.0


def bots_stopped(
    tmp_path: Path,
    count: int,
    after_the_first: list[signal.Signals],
    first: signal.Signals = signal.SIGTERM,
) -> tuple[int, str, bytes]:
    """``scopa-net bots --create --count COUNT`` at a host of its own, sent ``first`` once
    seated, then each of ``after_the_first`` (every 2 ms, over and over, until it has ended:
    during its stop and as it exits). Its status, stderr, and all it printed."""
    port = free_port()
    env = env_with_home(tmp_path)
    host = host_process(host_command(tmp_path / "host.db", port), env)
    bots = [sys.executable, "-m", "scopa_net", "bots", f"127.0.0.1:{port}", "--create"]
    process = subprocess.Popen(
        [*bots, "--count", str(count), "--bot-delay", "0.5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    try:
        assert process.stdout is not None
        seen = read_until(process.stdout.fileno(), b"seated at", GUARD)
        process.send_signal(first)
        if after_the_first:
            time.sleep(0.01)  # the first is taken (two pending at once come lowest first)
        deadline = time.monotonic() + GUARD
        while after_the_first and process.poll() is None and time.monotonic() < deadline:
            for signum in after_the_first:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signum)
                time.sleep(0.002)
        out, err = process.communicate(timeout=GUARD)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        host.stop()
    return process.returncode, err.decode(), seen + out


def test_bots_stopped_by_sigterm_say_so(tmp_path: Path) -> None:
    status, err, printed = bots_stopped(tmp_path, 2, [])
    assert status == EXIT_TERMINATED, err
    assert err == "scopa-net: stopped by SIGTERM\n"
    assert b"Traceback" not in printed


def test_bots_stopping_ignore_a_second_sigterm_and_ctrl_c(tmp_path: Path) -> None:
    """A second SIGTERM (a process manager's, a script's), or Ctrl-C pressed on a stop that
    seemed slow, killed ``bots`` where it stood: the shell's "Terminated" after the line
    (status -15), or ended 130 "stopped" instead. Now only the first counts."""
    status, err, printed = bots_stopped(tmp_path, 12, [signal.SIGTERM, signal.SIGINT])
    assert status == EXIT_TERMINATED, err
    assert err == "scopa-net: stopped by SIGTERM\n"
    assert b"Traceback" not in printed


def test_join_stopped_by_sigterm_at_the_table_number_says_so(tmp_path: Path) -> None:
    port = free_port()
    env = env_with_home(tmp_path)
    host = host_process(host_command(tmp_path / "host.db", port, "--players", "2"), env)
    join = [sys.executable, "-m", "scopa_net", "join", f"127.0.0.1:{port}"]
    try:
        with on_a_terminal(join, env) as (process, main_fd, _terminal_fd):
            seen = read_until(main_fd, b"table number (", GUARD)
            time.sleep(0.2)  # the question is asked: input() waits
            process.send_signal(signal.SIGTERM)
            seen += read_until(main_fd, b"nothing joined", GUARD)
            status = process.wait(timeout=GUARD)
    finally:
        host.stop()
    assert status == EXIT_TERMINATED
    said = seen.decode(errors="replace").replace("\r", "").split("Enter to stop): ")[-1]
    assert said.strip() == "scopa-net: stopped by SIGTERM; nothing joined"


def test_play_lan_stopped_by_sigterm_at_which_seat_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two seats kept at `play --lan`'s own host: "which one?". SIGTERM there, as the
    question's own reading of the terminal (:func:`sigterm.typed`) raises it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    kept = [kept_seat(43600, table_id=n) for n in (1, 2)]
    monkeypatch.setattr(embedded, "kept_lan_seats", lambda where: kept)

    def killed_meanwhile(prompt: str) -> str:
        print(prompt, end="")
        with sigterm.sigterm_raises():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(GUARD)  # the signal raises Terminated before this ends
        return ""

    monkeypatch.setattr(sigterm, "typed", killed_meanwhile)
    assert main(["play", "--lan", "--port", "43600"]) == EXIT_TERMINATED
    out, err = capsys.readouterr()
    assert "which one (1-2; Enter for a new seat): \n" in out
    assert err == "scopa-net: stopped by SIGTERM; no table opened\n"


def test_bots_stopped_by_ctrl_c_ignore_a_sigterm_meanwhile(tmp_path: Path) -> None:
    """The same for a stop begun by Ctrl-C: its words and status (README: 130) stay."""
    both = [signal.SIGTERM, signal.SIGINT]
    status, err, printed = bots_stopped(tmp_path, 12, both, first=signal.SIGINT)
    assert status == EXIT_CANCELLED, err
    assert err == "\nscopa-net: stopped\n"
    assert b"Traceback" not in printed


class SigtermNotCaughtError(Exception):
    """SIGTERM reached the test's own handler: the command had none of its own there (left
    to the default, it would have killed the test run, as it killed the command)."""


def test_join_stopped_by_sigterm_while_it_looks_for_hosts_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`scopa-net join` with no address looks for hosts on the LAN for 2 s: SIGTERM then
    ended it with the shell's "Terminated" alone. Here the search is on loopback only
    (nothing goes to the LAN), and the signal comes half a second into it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("SCOPA_NET_HOST", raising=False)
    monkeypatch.setattr(discovery, "browse_interfaces", lambda: ["127.0.0.1"])

    def not_caught(signum: int, frame: object) -> None:
        raise SigtermNotCaughtError

    before = signal.signal(signal.SIGTERM, not_caught)
    kill = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM))
    try:
        kill.start()
        status = main(["join"])
    finally:
        kill.cancel()
        signal.signal(signal.SIGTERM, before)
    out, err = capsys.readouterr()
    assert status == EXIT_TERMINATED
    assert out.startswith("looking for hosts on the LAN (127.0.0.1) for 2 s...\n"), out
    assert err == "scopa-net: stopped by SIGTERM; nothing joined\n"


def test_join_stopped_by_sigterm_while_it_waits_for_the_host_says_so(tmp_path: Path) -> None:
    """The host takes the connection and says nothing yet (a slow network): join waits for
    its welcome; SIGTERM then ended it with the shell's "Terminated" alone."""
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        join = [sys.executable, "-m", "scopa_net", "join", f"127.0.0.1:{port}"]
        with on_a_terminal(join, env_with_home(tmp_path)) as (process, main_fd, _terminal):
            held, _ = silent.accept()  # the probe's connection, never answered
            with held:
                time.sleep(0.3)  # it waits for the welcome
                process.send_signal(signal.SIGTERM)
                seen = read_until(main_fd, b"nothing joined", GUARD)
                status = process.wait(timeout=GUARD)
    assert status == EXIT_TERMINATED
    said = seen.decode(errors="replace").replace("\r", "")
    assert said.strip() == "scopa-net: stopped by SIGTERM; nothing joined"
