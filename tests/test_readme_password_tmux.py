"""docs/settings.md's bash line that asks for a table's password unseen, typed in a real
terminal (tmux) as the organiser typed it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from tmux_player import Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
PROMPT = "SHELL$ "


def test_the_password_line_asks_unseen_and_leaves_the_next_prompt_on_a_line_of_its_own() -> None:
    """Dario typed the line, then his password: nothing showed, and the shell's next prompt
    came on the same line as "table password: ", as if it were still asking."""
    (line,) = re.findall(r"^    (read -rsp .*)$", SETTINGS, re.MULTILINE)
    with Tmux() as tmux:
        name = tmux.start(f"env PS1={PROMPT!r} bash --norc --noprofile -i", columns=100, rows=30)
        tmux.wait_for(name, re.escape(PROMPT))
        tmux.type(name, line)
        tmux.wait_for(name, "^table password: ")
        tmux.type(name, "hunter2")
        tmux.type(name, """sh -c 'test "$SCOPA_NET_PASSWORD" = hunter2 && echo EXPORTED'""")
        tmux.wait_for(name, "^EXPORTED$")
        screen = tmux.screen(name)
    assert "hunter2" not in screen.replace("= hunter2 &&", ""), screen
    assert re.search(r"^table password: *$", screen, re.MULTILINE), screen
