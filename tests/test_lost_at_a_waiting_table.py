"""A connection lost at a table whose match has not begun: what the others read. Real host over
loopback TCP, real sessions, the terminal client's controller in front of each.

Found by hand: at a table still waiting for players, Bruno's client died and Ada read "Bruno
lost the connection; a computer plays for them in 60 s", then "a computer is playing for
Bruno until they are back", with no match to play. The host keeps the seat; a computer plays
for Bruno only if the match begins before he is back (protocol.md 3.3). Once the match has
begun (a round_commit seen, even before anything is dealt) the words are as before.
"""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import start_host
from person_screen import opens_a_table, play_when_asked, sit, sits_with, until

from scopa_net.rules import RuleSet

WAITING_LOST = (
    "Table: Bruno lost the connection; their seat is kept, and a computer plays for them if "
    "the match begins before they are back"
)
WAITING_STAND_IN = (
    "Table: Bruno is not back yet; a computer plays for them once the match begins, until "
    "they are back"
)


async def test_a_lost_connection_before_the_match_begins_says_the_seat_is_kept(
    tmp_path: Path,
) -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=2)
        ada = await opens_a_table(nursery, host, "Ada", tmp_path, RuleSet.of(3, 11))
        bruno = await sits_with(nursery, host, "Bruno", tmp_path, ada)
        bruno.crash()
        await until(lambda: "Bruno is not back" in ada.text or "computer is playing" in ada.text)
        listed = await ada.type("who")
        nursery.cancel_scope.cancel()
    said = [line for line in ada.lines if "Bruno" in line and line.startswith("Table:")]
    assert said[1:] == [WAITING_LOST, WAITING_STAND_IN]
    assert "Seat 1: Bruno; away" in listed, listed  # not "a computer plays for them"


async def test_stepping_away_before_the_match_begins_says_the_seat_is_kept(
    tmp_path: Path,
) -> None:
    """Bruno types quit at a table still waiting for players (he steps away, his seat kept):
    Ada read "Bruno stepped away; a computer plays for them until they are back", with no
    match to play (found by hand in tmux)."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=2)
        ada = await opens_a_table(nursery, host, "Ada", tmp_path, RuleSet.of(3, 11))
        bruno = await sits_with(nursery, host, "Bruno", tmp_path, ada)
        await bruno.type("quit")
        await until(lambda: "Bruno stepped away" in ada.text)
        carla = await sit(nursery, host, "Carla", tmp_path, table_id=ada.session.table_id)
        await until(lambda: ada.session.match_begun and carla.session.match_begun)
        await until(lambda: "computer is playing for Bruno" in carla.text)
        nursery.cancel_scope.cancel()
    said = [line for line in ada.lines if "Bruno" in line and line.startswith("Table:")]
    assert said[1:] == [
        "Table: Bruno stepped away; their seat is kept, and a computer plays for them if the "
        "match begins before they are back",
        # As the match begins: Carla, who came after, is told too.
        "Table: a computer is playing for Bruno until they are back",
    ]
    assert "Table: a computer is playing for Bruno until they are back" in carla.lines


async def test_once_the_match_has_begun_a_lost_connection_says_a_computer_plays(
    tmp_path: Path,
) -> None:
    """The third seat filled, the match begins: Bruno lost then is told as in a match."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=2)
        ada = await opens_a_table(nursery, host, "Ada", tmp_path, RuleSet.of(3, 11))
        table_id = ada.session.table_id
        bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=table_id)
        carla = await sit(nursery, host, "Carla", tmp_path, table_id=table_id)
        for p in (ada, carla):
            nursery.start_soon(play_when_asked, p)
        await until(lambda: ada.controller.state.in_match)
        bruno.crash()
        await until(lambda: "a computer is playing for Bruno" in ada.text)
        nursery.cancel_scope.cancel()
    said = [line for line in ada.lines if "Bruno" in line and line.startswith("Table:")]
    assert "Table: Bruno lost the connection; a computer plays for them in 2 s" in said
    assert "Table: a computer is playing for Bruno until they are back" in said
