"""End to end in a real terminal: ``scopa-net play`` under tmux, typed at like a person.

Skipped when tmux is not installed, unless ``SCOPA_NET_REQUIRE_TMUX`` is set (CI sets it): then a
missing tmux fails the test, so CI cannot pass without the terminal test having run. The test
reads the screen, types the first card of the hand at each "Your turn." and picks choice 1 when
asked which group to take.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

REQUIRED = bool(os.environ.get("SCOPA_NET_REQUIRE_TMUX"))

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not REQUIRED, reason="tmux is not installed"
)


#: Bound on the whole run so a broken client fails instead of hanging (not a speed check).
HANG_GUARD = 90


def tmux(socket: str, *args: str) -> str:
    done = subprocess.run(
        ["tmux", "-L", socket, *args], capture_output=True, text=True, check=True, timeout=10
    )
    return done.stdout


def test_play_a_match_in_a_real_terminal(tmp_path: Path) -> None:
    assert shutil.which("tmux"), "SCOPA_NET_REQUIRE_TMUX is set but tmux is not installed"
    socket = f"scopa-test-{uuid.uuid4().hex[:8]}"
    # No --seed: the real path, an embedded host on loopback with every deal checked.
    args = [sys.executable, "-m", "scopa_net", "play", "--target", "1"]
    args += ["--delay", "0", "--ascii", "--name", "Ada"]
    command = " ".join(shlex.quote(a) for a in args)
    data = str(tmp_path)
    env_prefix = f"env -u NO_COLOR TERM=xterm-256color XDG_DATA_HOME={shlex.quote(data)}"
    shell = f"{env_prefix} {command}; echo CLIENT-EXIT=$?; sleep 60"
    tmux(socket, "new-session", "-d", "-s", "game", "-x", "120", "-y", "50", shell)
    try:
        answered_turns = answered_choices = 0
        declined = False
        deadline = time.monotonic() + HANG_GUARD
        screen = ""
        while time.monotonic() < deadline:
            screen = tmux(socket, "capture-pane", "-p", "-J", "-S", "-5000", "-t", "game")
            if "CLIENT-EXIT=" in screen:
                break
            turns = screen.count("Your turn.")
            choices = screen.count("Which one?")
            if "Play again with the same players? (y/n)" in screen and not declined:
                declined = True
                tmux(socket, "send-keys", "-t", "game", "n", "Enter")
            elif choices > answered_choices:
                answered_choices = choices
                tmux(socket, "send-keys", "-t", "game", "1", "Enter")
            elif turns > answered_turns:
                hands = re.findall(r"^Your hand (\w+)", screen, re.MULTILINE)
                answered_turns = turns
                tmux(socket, "send-keys", "-t", "game", hands[-1], "Enter")
            time.sleep(0.1)
        assert "CLIENT-EXIT=0" in screen, screen[-3000:]
        assert "Round 1 score sheet" in screen
        assert re.search(r"(You win|[Bb]ot 1 wins) the match", screen)
        assert "Deal check: verified" in screen
        assert "DEAL CHECK FAILED" not in screen
        assert list(Path(data, "scopa-net", "transcripts").iterdir())
        assert "Ada plays" in screen
        assert not set("♦♥♠♣") & set(screen)  # --ascii
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, check=False)
