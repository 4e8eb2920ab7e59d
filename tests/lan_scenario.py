"""Two README command lines on a LAN of their own: run by test_readme_commands.py inside a
private network namespace (a veth pair, nothing reaches the real network), as
``python lan_scenario.py '[PLAY_ARGV, JOIN_ARGV]'``.

``scopa-net play --lan ...`` opens a table announced on the LAN, and a friend's ``scopa-net
join`` (no address) finds it by its announcement, picks it by the numbers typed ("1" each
time) and sits down; each command's screen is replaced by a reader of its first deal. Prints
the commands' own output, then one JSON line: what each seat saw and each command's status.
"""

from __future__ import annotations

import builtins
import dataclasses
import json
import sys

from reading_screen import FirstDeal, in_thread, reading_screen

from scopa_net.client import launch
from scopa_net.commands.main import main


def main_scenario(play: list[str], join: list[str]) -> int:
    seen: list[FirstDeal] = []
    statuses: dict[str, int] = {}
    asked: list[str] = []

    def typed(prompt: str = "") -> str:
        """The friend types the number of the first host listed, then of the first table."""
        asked.append(prompt)
        return "1"

    builtins.input = typed

    async def friend_joins(session: object) -> None:
        """With play's seat open: the friend runs ``join`` (once: the friend's own screen,
        the same reader, does not start another)."""
        if "join" in statuses:
            return
        statuses["join"] = -1
        statuses["join"] = await in_thread(lambda: main(join), "friend")()

    launch.run_game_screen = reading_screen(seen, while_open=friend_joins)
    statuses["play"] = main(play)
    print(
        json.dumps(
            {
                "statuses": statuses,
                "asked": asked,
                "seen": [dataclasses.asdict(s) for s in seen],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main_scenario(*json.loads(sys.argv[1])))
