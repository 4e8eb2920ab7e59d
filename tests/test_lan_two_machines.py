"""Two machines on one LAN, for real: a host in one network namespace, a person's ``scopa-net
join`` in another, joined by a virtual cable (tests/netns.py).

The join is given no address: it finds the host by mDNS across the cable, sits down, and is
killed with SIGKILL mid-round; the same command run again takes the seat back with the same
hand, and the round's deal check passes. Skipped, saying why, without root, ``ip netns`` or
tmux. Nothing leaves the two namespaces, which are removed at the end whatever happens.
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
from netns import TwoMachines, why_not
from tmux_player import HANG_GUARD, Tmux, cards_in, kept_seats, play_turns

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(bool(why_not()), reason=f"two network namespaces: {why_not()}"),
]


def start_host(machine, tmp: Path) -> subprocess.Popen[bytes]:
    """``scopa-net host`` on the first machine, as anyone would start it (default port,
    every interface, announced), with one computer player at a table for two."""
    log = (tmp / "host.log").open("wb")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "host-data")}
    host = subprocess.Popen(
        machine.command(
            *(sys.executable, "-m", "scopa_net", "host", "--db", str(tmp / "host.db")),
            *("--players", "2", "--bots", "1", "--bot-delay", "0.2", "--grace", "120"),
        ),
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    log.close()
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        if f"scopa-net join {machine.address}:7311" in (tmp / "host.log").read_text():
            return host
        assert host.poll() is None, (tmp / "host.log").read_text()
        time.sleep(0.05)
    host.kill()
    raise AssertionError(f"the host never said where to join:\n{(tmp / 'host.log').read_text()}")


def test_join_finds_the_host_across_the_lan_and_a_killed_client_is_back_with_one_command(
    tmp_path: Path,
) -> None:
    data = tmp_path / "bruno"
    with TwoMachines() as lan:
        host = start_host(lan.a, tmp_path)
        env = f"env -u NO_COLOR TERM=xterm-256color XDG_DATA_HOME={shlex.quote(str(data))}"
        env += f" XDG_CONFIG_HOME={shlex.quote(str(tmp_path / 'config'))}"
        join = [sys.executable, "-m", "scopa_net", "join", "--ascii", "--name", "Bruno"]
        command = shlex.join(lan.b.command(*shlex.split(env), *join))
        tmux = Tmux()
        try:
            # 1. No address: the host is found on the LAN, by its LAN address, and chosen.
            first = tmux.start(command)
            pid = int(tmux.wait_for(first, r"^PID=(\d+)").group(1))
            found = tmux.wait_for(
                first, rf"^1\. .* at {re.escape(lan.a.address)}:7311(, key \S+)? \(1 open"
            )
            assert "127.0." not in found.group(0)
            tmux.wait_for(first, r"host number")
            tmux.type(first, "1")
            tmux.wait_for(first, r"table number")
            tmux.type(first, "1")
            tmux.wait_for(first, r"^Your turn\.")
            screen = tmux.screen(first)
            hand = cards_in(re.findall(r"^Your hand\s+(.*)$", screen, re.MULTILINE)[-1])
            assert "Bruno" in screen
            assert "DEAL CHECK FAILED" not in screen

            # 2. Killed mid-round, at its turn: the seat is on disk.
            os.kill(pid, signal.SIGKILL)
            tmux.wait_for(first, r"^CLIENT-EXIT=")
            (record,) = kept_seats(data)
            assert record["host"] == lan.a.address
            assert record["name"] == "Bruno"

            # 3. The same command again: back in the seat, with the same hand.
            second = tmux.start(command)
            tmux.wait_for(
                second, rf"^Taking back your seat at table 1 .*on {re.escape(lan.a.address)}:7311"
            )
            back = tmux.wait_for(second, r"^Back in your seat at table 1")
            tmux.wait_for(second, r"^Your turn\.", back.end())
            screen = tmux.screen(second)
            again = re.findall(r"^Your hand\s+(.*)$", screen[back.end() :], re.MULTILINE)
            assert again, screen[-2000:]
            assert cards_in(again[-1]) == hand, (hand, screen[-2000:])
            tmux.type(second, "who")
            tmux.wait_for(second, r"^Seat \d: Bruno \(you\)", back.end())

            # 4. Play on: the round ends and its deal check passes at this seat.
            screen = play_turns(tmux, second, r"^[Dd]eal check")
            assert "DEAL CHECK FAILED" not in screen
            assert "This seat's seed" not in screen
        finally:
            tmux.close()
            host.kill()
            host.wait()
