"""A game stopped by SIGTERM (``kill``) in a real terminal (tmux): it says so in one line, with
what is kept, and ends 143 (README's exit table). Before, ``join`` and ``play`` ended 143
without a word (the shell says nothing of a status a program returned), so a person whose game
vanished could not tell why, nor that the seat waited for them; pass and play was killed where
it stood, the hand of whoever held the keyboard left on the screen.

Skipped when tmux is not installed."""

from __future__ import annotations

import os
import re
import shutil
import signal
from pathlib import Path

import pytest
from hosting import host_in_thread
from tmux_player import Tmux, kept_seats, scopa_net

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_join_stopped_by_sigterm_says_the_seat_is_kept_and_how_to_take_it_back(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with host_in_thread(bot_delay=0.1) as host, Tmux() as tmux:
        args = ["join", host.address, "--create", "--bots", "1", "--name", "Ada", "--ascii"]
        name = tmux.start(scopa_net(data, *args))
        pid = int(tmux.wait_for(name, r"^PID=(\d+)").group(1))
        tmux.wait_for(name, r"^Your turn\.")
        os.kill(pid, signal.SIGTERM)
        tmux.wait_for(name, r"^CLIENT-EXIT=\d+")
        screen = tmux.screen(name)
        assert "CLIENT-EXIT=143" in screen
        said = screen.split("Your turn.")[-1].split("CLIENT-EXIT=")[0].strip()
        assert said == (
            f"scopa-net: stopped by SIGTERM; your seat is kept: `scopa-net join {host.address}` "
            "takes it back"
        )
        assert len(kept_seats(data)) == 1
        # The command it names takes the seat back.
        again = tmux.start(scopa_net(data, "join", host.address, "--ascii"))
        tmux.wait_for(again, r"Back in your seat at table 1")


def test_play_stopped_by_sigterm_says_so(tmp_path: Path) -> None:
    with Tmux() as tmux:
        name = tmux.start(scopa_net(tmp_path, "play", "--bot-delay", "0", "--ascii"))
        pid = int(tmux.wait_for(name, r"^PID=(\d+)").group(1))
        tmux.wait_for(name, r"^Your turn\.")
        os.kill(pid, signal.SIGTERM)
        tmux.wait_for(name, r"^CLIENT-EXIT=\d+")
        screen = tmux.screen(name)
        assert "CLIENT-EXIT=143" in screen
        said = screen.split("Your turn.")[-1].split("CLIENT-EXIT=")[0].strip()
        assert said == "scopa-net: stopped by SIGTERM"


def test_pass_and_play_stopped_by_sigterm_clears_the_hand_and_says_so(tmp_path: Path) -> None:
    with Tmux() as tmux:
        args = ["play", "--pass-and-play", "--names", "Ada,Bea", "--ascii", "--handover-pause", "0"]
        name = tmux.start(scopa_net(tmp_path, *args))
        pid = int(tmux.wait_for(name, r"^PID=(\d+)").group(1))
        who = tmux.wait_for(name, r"^(Ada|Bea): press Enter").group(1)
        tmux.keys(name, "Enter")
        tmux.wait_for(name, rf"^{who}>")
        assert re.search(r"^Your hand", tmux.screen(name), re.MULTILINE)
        os.kill(pid, signal.SIGTERM)
        tmux.wait_for(name, r"^CLIENT-EXIT=\d+")
        screen = tmux.screen(name)
        assert "CLIENT-EXIT=143" in screen
        assert "Your hand" not in screen  # cleared, scrollback and all, for the next person
        assert "scopa-net: stopped by SIGTERM; a pass-and-play match cannot be continued" in screen
        assert "Traceback" not in screen
