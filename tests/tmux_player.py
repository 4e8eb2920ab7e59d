"""Driving a real ``scopa-net`` client in a terminal (tmux) as a person would: start it, read
the screen, type at it, and play the first card of the hand at each turn. Every tmux test
uses this one runner."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import time
import uuid
from pathlib import Path

HANG_GUARD = 90
"""Bound on each wait so a broken client fails instead of hanging (not a speed check)."""


def scopa_net(data: str | Path, *args: str, config: str | Path | None = None) -> str:
    """The shell command a person types, ``scopa-net ARGS``, with its files under ``data``
    (and its settings under ``config``), in a colour terminal."""
    env = f"env -u NO_COLOR TERM=xterm-256color XDG_DATA_HOME={shlex.quote(str(data))}"
    if config is not None:
        env += f" XDG_CONFIG_HOME={shlex.quote(str(config))}"
    return f"{env} {shlex.join([sys.executable, '-m', 'scopa_net', *args])}"


class Tmux:
    """A tmux server of our own: terminals that run a command, prefixed by ``PID=`` (the
    command's process) and followed by ``CLIENT-EXIT=`` (its status). Use in a ``with``."""

    def __init__(self) -> None:
        self.socket = f"scopa-test-{uuid.uuid4().hex[:8]}"
        self.count = 0

    def __enter__(self) -> Tmux:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
        return done.stdout

    def start(self, command: str, *, columns: int = 150, rows: int = 50) -> str:
        """A new terminal of that size running ``command``; its name."""
        self.count += 1
        name = f"w{self.count}"
        shell = f"echo PID=$$; exec {command}"
        wrapped = f"sh -c {shlex.quote(shell)}; echo CLIENT-EXIT=$?; sleep 60"
        self.run("new-session", "-d", "-s", name, "-x", str(columns), "-y", str(rows), wrapped)
        return name

    def screen(self, name: str) -> str:
        """Everything shown so far, the scrollback included, lines the terminal wrapped
        joined back."""
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", name)

    def visible(self, name: str) -> str:
        """What is on the screen now, a line per row."""
        return self.run("capture-pane", "-p", "-t", name)

    def keys(self, name: str, *keys: str) -> None:
        """Press these keys (tmux names: ``Enter``, ``C-c``...)."""
        self.run("send-keys", "-t", name, *keys)

    def type(self, name: str, text: str) -> None:
        """Type a line and press Enter."""
        self.keys(name, text, "Enter")

    def wait_for(self, name: str, pattern: str, after: int = 0) -> re.Match[str]:
        deadline = time.monotonic() + HANG_GUARD
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen(name)
            found = re.compile(pattern, re.MULTILINE).search(screen, after)
            if found:
                return found
            time.sleep(0.1)
        raise AssertionError(f"no {pattern!r} on the screen:\n{screen[-3000:]}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


def cards_in(hand_line: str) -> list[str]:
    """The cards of a "Your hand" line: "7d=7*  2b=2   (* must capture)" -> ["7d", "2b"]."""
    return re.findall(r"(\S+?)=\d+", hand_line)


def kept_seats(data: Path) -> list[dict]:
    folder = data / "scopa-net" / "seats"
    if not folder.is_dir():
        return []
    return [json.loads(p.read_text()) for p in folder.glob("*.json")]


def play_turns(tmux: Tmux, name: str, until: str) -> str:
    """Type the first card of the hand at every "Your turn." until ``until`` shows."""
    answered_turns = answered_choices = 0
    deadline = time.monotonic() + HANG_GUARD * 2
    while time.monotonic() < deadline:
        screen = tmux.screen(name)
        if re.search(until, screen, re.MULTILINE):
            return screen
        turns, choices = screen.count("Your turn."), screen.count("Which one?")
        if choices > answered_choices:
            answered_choices = choices
            tmux.type(name, "1")
        elif turns > answered_turns:
            answered_turns = turns
            line = re.findall(r"^Your hand\s+(.*)$", screen, re.MULTILINE)[-1]
            tmux.type(name, cards_in(line)[0])
        time.sleep(0.1)
    raise AssertionError(f"never saw {until!r}:\n{tmux.screen(name)[-3000:]}")
