"""The real client in a real 60-column terminal (tmux): nothing wraps, the toolbar is whole,
the end leaves no stray prompt, and SIGTERM gives the terminal back clean (issue 15).

Skipped when tmux is not installed."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

HANG_GUARD = 90
"""Bound on a run so a broken client fails instead of hanging (not a speed check)."""
COLUMNS, ROWS = 60, 20


class Terminal:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
        return done.stdout

    def screen(self) -> str:
        """What is on the screen now, a line per row."""
        return self.tmux("capture-pane", "-p", "-t", "game")

    def history(self) -> str:
        """Everything shown so far, lines the terminal wrapped joined back."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-5000", "-t", "game")

    def type(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "game", *keys)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"scopa-screen-{uuid.uuid4().hex[:8]}")
    data = tempfile.mkdtemp(prefix="scopa-screen-")
    args = [sys.executable, "-m", "scopa_net", "play", "--target", "1", "--bot-delay", "0"]
    args += ["--ascii", "--players", "4"]
    command = " ".join(shlex.quote(a) for a in args)
    env = f"env -u NO_COLOR TERM=xterm-256color XDG_DATA_HOME={shlex.quote(data)}"
    shell = f"sh -c 'echo PID=$$; exec {env} {command}'; echo EXIT=$?; sleep 60"
    term.tmux("new-session", "-d", "-s", "game", "-x", str(COLUMNS), "-y", str(ROWS), shell)
    try:
        yield term
    finally:
        subprocess.run(["tmux", "-L", term.socket, "kill-server"], capture_output=True, check=False)


def wait_for(term: Terminal, pattern: str) -> str:
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        seen = term.history()
        if re.search(pattern, seen):
            return seen
        time.sleep(0.1)
    raise AssertionError(f"no {pattern!r} on the screen:\n{term.history()[-3000:]}")


def play_until(term: Terminal, done: str) -> str:
    """Type the first card of the hand at each turn (1 at each question, n to playing
    again) until ``done``."""
    turns = choices = rematches = 0
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        seen = term.history()
        if re.search(done, seen):
            return seen
        if "Press Enter for the next round." in seen.rsplit("score sheet", 1)[-1]:
            term.type("Enter")
        if seen.count("Play again with the same players? (y/n)") > rematches:
            rematches += 1
            term.type("n", "Enter")
        elif seen.count("Which one?") > choices:
            choices = seen.count("Which one?")
            term.type("1", "Enter")
        elif seen.count("Your turn.") > turns:
            turns = seen.count("Your turn.")
            hand = re.findall(r"^Your hand +([^\s=]+)", seen, re.MULTILINE)[-1]
            term.type(hand, "Enter")
        time.sleep(0.1)
    raise AssertionError(f"no {done!r} on the screen:\n{term.history()[-3000:]}")


def test_a_match_at_60_columns_fits_and_ends_clean(terminal: Terminal) -> None:
    play_until(terminal, "Your turn.")
    time.sleep(0.3)
    screen = terminal.screen().rstrip("\n").splitlines()
    toolbar = screen[-1]
    assert "YOUR TURN" in toolbar, toolbar
    assert toolbar.rstrip().endswith("connected"), toolbar
    seen = play_until(terminal, r"EXIT=\d+")
    assert "EXIT=0" in seen
    assert "Round 1 score sheet" in seen
    assert "bot 1 & bot 3" in seen
    for line in seen.splitlines():
        assert len(line) <= COLUMNS, line  # the terminal never had to wrap a line
    ending = seen.split("Connection: closed.")[-1]
    assert "scopa>" not in ending
    assert "| stock" not in ending


def test_sigterm_gives_the_terminal_back_clean(terminal: Terminal) -> None:
    seen = play_until(terminal, "Your turn.")
    pid = int(re.search(r"PID=(\d+)", seen).group(1))  # type: ignore[union-attr]
    os.kill(pid, signal.SIGTERM)
    seen = wait_for(terminal, r"EXIT=\d+")
    assert "EXIT=143" in seen
    after = seen.split("Your turn.")[-1]
    assert "scopa>" not in after
    assert "YOUR TURN" not in after
    assert "| stock" not in after
    assert "Traceback" not in seen
