"""README command lines on a LAN of their own: run by test_readme_commands.py inside a private
network namespace (a veth pair, nothing reaches the real network), as
``python lan_scenario.py '{"play": ARGV, "join": ARGV, "host": ARGV}'``.

First ``scopa-net play --lan ...`` opens a table announced on the LAN, and a friend's
``scopa-net join`` (no address) finds it by its announcement, picks it by the numbers typed
("1" each time; the password, if asked, is "pw") and sits down. Then ``scopa-net host ...``
runs as a process of its own, and another friend's ``join`` finds it and sits down at its table; the
host is stopped with SIGINT. Each command's screen is replaced by a reader of its first deal.
Prints the commands' own output, then one JSON line: what was asked, what each seat saw, each
command's status.
"""

from __future__ import annotations

import builtins
import dataclasses
import getpass
import json
import os
import signal
import socket
import subprocess
import sys
import time

from reading_screen import FirstDeal, in_thread, reading_screen

from scopa_net.client import launch
from scopa_net.commands import join_password
from scopa_net.commands.main import main

PORT = 7311
"""The default port: free in a namespace of our own."""


def typed(asked: list[str]) -> None:
    """Answer every question with "1" (host and table numbers) or "pw" (a password)."""

    def answer(prompt: str = "") -> str:
        asked.append(prompt)
        return "1"

    def password(prompt: str = "") -> str:
        asked.append(prompt)
        return "pw"

    builtins.input = answer
    getpass.getpass = password
    join_password.terminal_to_type_at = lambda: True  # a person types, as at a terminal


def play_and_a_friend(play: list[str], join: list[str], report: dict) -> None:
    seen: list[FirstDeal] = []
    statuses: dict[str, int] = {}

    async def friend_joins(session: object) -> None:
        """With play's seat open: the friend runs ``join`` (once: the friend's own screen,
        the same reader, does not start another)."""
        if "join" in statuses:
            return
        statuses["join"] = -1
        statuses["join"] = await in_thread(lambda: main(join), "friend")()

    launch.run_game_screen = reading_screen(seen, while_open=friend_joins)
    statuses["play"] = main(play)
    report["play"] = {"statuses": statuses, "seen": [dataclasses.asdict(s) for s in seen]}


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, "the host stopped"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, f"nothing listens on {port}"
            time.sleep(0.05)


def a_host_and_a_join(host: list[str], join: list[str], report: dict) -> None:
    seen: list[FirstDeal] = []
    # Another friend, with a data folder of their own (the first one's seat at play's table,
    # now gone, would be offered back to them).
    os.environ["XDG_DATA_HOME"] = os.path.join(os.environ["XDG_DATA_HOME"], "second-friend")
    process = subprocess.Popen([sys.executable, "-m", "scopa_net", *host])
    try:
        wait_for_port(PORT, process)
        launch.run_game_screen = reading_screen(seen)
        status = main(join)
    finally:
        process.send_signal(signal.SIGINT)
        host_status = process.wait(30)
    report["host"] = {
        "statuses": {"host": host_status, "join": status},
        "seen": [dataclasses.asdict(s) for s in seen],
    }


def scenario(lines: dict[str, list[str]]) -> int:
    report: dict = {"asked": []}
    typed(report["asked"])
    play_and_a_friend(lines["play"], lines["join"], report)
    report["asked"].append("--- host")
    a_host_and_a_join(lines["host"], lines["join"], report)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(scenario(json.loads(sys.argv[1])))
