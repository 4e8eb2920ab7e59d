"""The real client in a real 60-column terminal (tmux): nothing wraps, the toolbar is whole,
the end leaves no stray prompt, and SIGTERM gives the terminal back clean (issue 15).

Skipped when tmux is not installed."""

from __future__ import annotations

import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tmux_player import HANG_GUARD, Tmux, scopa_net

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

COLUMNS, ROWS = 60, 20


@dataclass
class Terminal:
    """One 60-column terminal running ``scopa-net play`` on a 4-player table to 1 point."""

    tmux: Tmux
    name: str


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    args = ["play", "--target", "1", "--bot-delay", "0", "--ascii", "--players", "4"]
    with Tmux() as tmux:
        yield Terminal(tmux, tmux.start(scopa_net(tmp_path, *args), columns=COLUMNS, rows=ROWS))


def wait_for(term: Terminal, pattern: str) -> str:
    term.tmux.wait_for(term.name, pattern)
    return term.tmux.screen(term.name)


def play_until(term: Terminal, done: str) -> str:
    """Type the first card of the hand at each turn (1 at each question, n to playing
    again) until ``done``."""
    turns = choices = rematches = 0
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        seen = term.tmux.screen(term.name)
        if re.search(done, seen):
            return seen
        if "Press Enter for the next round." in seen.rsplit("score sheet", 1)[-1]:
            term.tmux.keys(term.name, "Enter")
        if seen.count("Play again with the same players?") > rematches:
            rematches += 1
            term.tmux.type(term.name, "n")
        elif seen.count("Which one?") > choices:
            choices = seen.count("Which one?")
            term.tmux.type(term.name, "1")
        elif seen.count("Your turn.") > turns:
            turns = seen.count("Your turn.")
            hand = re.findall(r"^Your hand +([^\s=]+)", seen, re.MULTILINE)[-1]
            term.tmux.type(term.name, hand)
        time.sleep(0.1)
    raise AssertionError(f"no {done!r} on the screen:\n{term.tmux.screen(term.name)[-3000:]}")


def test_a_match_at_60_columns_fits_and_ends_clean(terminal: Terminal) -> None:
    play_until(terminal, "Your turn.")
    time.sleep(0.3)
    screen = terminal.tmux.visible(terminal.name).rstrip("\n").splitlines()
    toolbar = screen[-1]
    assert "YOUR TURN" in toolbar, toolbar
    assert toolbar.rstrip().endswith("connected"), toolbar
    seen = play_until(terminal, r"EXIT=\d+")
    assert "EXIT=0" in seen
    assert "Round 1 score sheet" in seen
    assert "bot 1 & bot 3" in seen
    for line in seen.splitlines():
        # The terminal never had to wrap a line, except a path or a command a person copies,
        # which the client leaves whole (a line of its own) rather than cut.
        copied = "/" in line and (" " not in line.strip() or "scopa-net verify" in line)
        assert len(line) <= COLUMNS or copied, line
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
