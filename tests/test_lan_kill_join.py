"""A real ``scopa-net join`` process, killed with SIGKILL mid-round and started again.

Under tmux (skipped without it), against a real host process on loopback, typed at like a
person: the same command takes the seat back with the same hand, the play typed just before
the kill is applied exactly once, and the round's deal check still passes; stepping away and
joining again does the same; after leaving for good, ``join`` offers no seat to take back.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tmux_player import HANG_GUARD, Tmux, cards_in, kept_seats, play_turns

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def start_host(tmp: Path) -> tuple[subprocess.Popen[bytes], int]:
    log = (tmp / "host.log").open("wb")
    host = subprocess.Popen(
        [
            *(sys.executable, "-m", "scopa_net", "host", "--host", "127.0.0.1", "--port", "0"),
            *("--db", str(tmp / "host.db"), "--no-advertise", "--players", "2", "--bots", "1"),
            *("--bot-delay", "0.2", "--grace", "120", "--log-level", "INFO"),
        ],
        stdout=log,  # where it tells people how to join; its log goes to stderr
        stderr=log,
    )
    log.close()
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        text = (tmp / "host.log").read_text(errors="replace")
        found = re.search(r"join with: scopa-net join 127\.0\.0\.1:(\d+)", text)
        if found:
            return host, int(found.group(1))
        time.sleep(0.05)
    host.kill()
    raise AssertionError("the host never said where to join")


def test_kill_the_client_mid_round_and_run_the_same_command_again(tmp_path: Path) -> None:
    data = tmp_path / "data"
    host, port = start_host(tmp_path)
    env = f"env -u NO_COLOR TERM=xterm-256color XDG_DATA_HOME={shlex.quote(str(data))}"
    env += f" XDG_CONFIG_HOME={shlex.quote(str(tmp_path / 'config'))}"
    join = [sys.executable, "-m", "scopa_net", "join", f"127.0.0.1:{port}", "--table", "1"]
    command = f"{env} {shlex.join([*join, '--ascii', '--name', 'Ada'])}"
    tmux = Tmux()
    try:
        # 1. Sit down, and at our turn type a card while the host is frozen: no answer comes.
        first = tmux.start(command)
        pid = int(tmux.wait_for(first, r"^PID=(\d+)").group(1))
        tmux.wait_for(first, r"^Your turn\.")
        hand_line = re.findall(r"^Your hand\s+(.*)$", tmux.screen(first), re.MULTILINE)[-1]
        hand = cards_in(hand_line)
        card = hand[0]
        os.kill(host.pid, signal.SIGSTOP)
        try:
            typed_at = len(tmux.screen(first).rstrip())
            tmux.type(first, card)
            deadline = time.monotonic() + HANG_GUARD
            chosen = False
            while not any(s["pending"] for s in kept_seats(data)):
                assert time.monotonic() < deadline, tmux.screen(first)[-2000:]
                # The card can take two groups: answer "1" once the question's own prompt is
                # up (typed earlier, while the screen was still being drawn, it was lost once).
                # The prompt is a line of its own: the status bar is drawn below it.
                asked = tmux.screen(first)[typed_at:]
                if not chosen and re.search(r"^1-\d+\?\s*$", asked, re.MULTILINE):
                    tmux.type(first, "1")
                    chosen = True
                time.sleep(0.05)
            os.kill(pid, signal.SIGKILL)
        finally:
            os.kill(host.pid, signal.SIGCONT)
        (record,) = kept_seats(data)
        assert record["seeds"]
        assert record["tokens"]
        assert oct((data / "scopa-net" / "seats").stat().st_mode & 0o777) == "0o700"

        # 2. The same command again: the seat comes back, with the hand as it was.
        second = tmux.start(command)
        tmux.wait_for(second, r"^Taking back your seat at table 1 .*on 127\.0\.0\.1")
        back = tmux.wait_for(second, r"^Back in your seat at table 1")
        # The play typed before the kill shows up (replayed, or applied now), then `log`
        # lists the round's plays: it is there exactly once.
        tmux.wait_for(second, rf"You play {re.escape(card)}\b", back.start())
        tmux.type(second, "log")
        tmux.type(second, "who")
        end = tmux.wait_for(second, r"^Seat 0: Ada \(you\)", back.end()).start()
        screen = tmux.screen(second)
        log_at = screen.index("log", back.end())
        board_hand = re.findall(r"^Your hand\s+(.*)$", screen[back.end() :], re.MULTILINE)
        assert board_hand
        assert set(cards_in(board_hand[0])) <= set(hand)
        listing = screen[log_at:end]
        played = re.findall(rf"^You play {re.escape(card)}\b", listing, re.MULTILINE)
        assert len(played) == 1, listing
        # Play on to the end of the round: its deal check passes with the kept seed.
        screen = play_turns(tmux, second, r"^(Host: )?[Dd]eal check")
        assert "DEAL CHECK FAILED" not in screen
        assert "This seat's seed" not in screen

        # 3. quit -> step away; the same command takes the seat back again.
        tmux.type(second, "quit")
        tmux.wait_for(second, r"Type leave, away, or\s+stay\.")
        tmux.type(second, "away")
        tmux.wait_for(second, r"^CLIENT-EXIT=0")
        assert "Take it back with: scopa-net join 127.0.0.1:" in tmux.screen(second)
        (record,) = kept_seats(data)
        assert record["away"]
        third = tmux.start(command)
        tmux.wait_for(third, r"^Taking back your seat at table 1 .*you stepped away")
        tmux.wait_for(third, r"^Back in your seat at table 1")
        assert "DEAL CHECK FAILED" not in tmux.screen(third)

        # 4. quit -> leave for good: nothing is kept, and join offers no seat back.
        tmux.type(third, "quit")
        tmux.wait_for(third, r"Type leave, away, or\s+stay\.")
        tmux.type(third, "leave")
        tmux.wait_for(third, r"^CLIENT-EXIT=0")
        assert kept_seats(data) == [], tmux.screen(third)[-1500:]
        fourth = tmux.start(f"{env} {shlex.join([*join[:5], '--ascii', '--name', 'Ada'])}")
        shown = tmux.wait_for(fourth, r"^(table number|1\. table 1|no table)").group(1)
        assert shown != "no table", (tmp_path / "host.log").read_text()[-3000:]
        assert "Taking back your seat" not in tmux.screen(fourth)
    finally:
        tmux.close()
        host.kill()
        host.wait()
