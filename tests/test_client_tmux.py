"""End to end in a real terminal: ``scopa-net play`` under tmux, typed at like a person.

Skipped when tmux is not installed, unless ``SCOPA_NET_REQUIRE_TMUX`` is set (CI sets it): then a
missing tmux fails the test, so CI cannot pass without the terminal test having run. The test
reads the screen, types the first card of the hand at each "Your turn." and picks choice 1 when
asked which group to take.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from tmux_player import HANG_GUARD, Tmux, scopa_net

REQUIRED = bool(os.environ.get("SCOPA_NET_REQUIRE_TMUX"))

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not REQUIRED, reason="tmux is not installed"
)


def test_play_a_match_in_a_real_terminal(tmp_path: Path) -> None:
    assert shutil.which("tmux"), "SCOPA_NET_REQUIRE_TMUX is set but tmux is not installed"
    # No --seed: the real path, an embedded host on loopback with every deal checked.
    args = ["play", "--target", "1", "--delay", "0", "--ascii", "--name", "Ada"]
    data = str(tmp_path)
    with Tmux() as tmux:
        game = tmux.start(scopa_net(data, *args), columns=120, rows=50)
        answered_turns = answered_choices = 0
        declined = False
        deadline = time.monotonic() + HANG_GUARD
        screen = ""
        while time.monotonic() < deadline:
            screen = tmux.screen(game)
            if "CLIENT-EXIT=" in screen:
                break
            turns = screen.count("Your turn.")
            choices = screen.count("Which one?")
            if "Play again with the same players?" in screen and not declined:
                declined = True
                tmux.type(game, "n")
            elif choices > answered_choices:
                answered_choices = choices
                tmux.type(game, "1")
            elif turns > answered_turns:
                hands = re.findall(r"^Your hand (\w+)", screen, re.MULTILINE)
                answered_turns = turns
                tmux.type(game, hands[-1])
            time.sleep(0.1)
        assert "CLIENT-EXIT=0" in screen, screen[-3000:]
        assert "Round 1 score sheet" in screen
        assert re.search(r"(You win|[Bb]ot 1 wins) the match", screen)
        assert "Deal check: verified" in screen
        assert "DEAL CHECK FAILED" not in screen
        assert list(Path(data, "scopa-net", "transcripts").iterdir())
        assert "You play" in screen  # her own plays, as she reads them
        assert not set("♦♥♠♣") & set(screen)  # --ascii
