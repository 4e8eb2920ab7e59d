"""What the people at a table that is not full yet read while they wait for the others (real
host over loopback TCP, real sessions, the game's controller in front of each): how many
players the match still waits for, so that nobody waits without being told why."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import sit, until

from scopa_net.client.render import plain
from scopa_net.client.toolbar import toolbar_text
from scopa_net.rules import RuleSet


async def test_people_at_a_table_not_yet_full_read_how_many_players_it_waits_for(
    tmp_path: Path,
) -> None:
    """Bruno sat down at Ada's table of four and read only "You sit at table 1 'test table',
    seat 1." over a toolbar saying "waiting for the deal": nothing said that two seats were
    still open. Now each person who sits reads how many more the match waits for, and those
    already there read it with each newcomer; the last to sit down ends it."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(4)))
        table = ada.session.table_id
        bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=table)
        await until(
            lambda: "Bruno sat down at the table; waiting for 2 more players" in ada.text, 10
        )
        sat_line = f"You sit at table {table} 'test table', seat 1."
        await until(lambda: sat_line in bruno.lines, 10)
        sat = bruno.lines.index(sat_line)
        assert bruno.lines[sat + 1] == (
            "Waiting for 2 more players: the match begins when every seat is taken."
        ), bruno.text
        # The toolbar under it said "waiting for the deal", as if the cards were coming.
        for screen in (ada, bruno):
            toolbar = plain([toolbar_text(screen.controller.state)])
            assert toolbar.startswith(" waiting for 2 more players | "), toolbar
        carla = await sit(nursery, host, "Carla", tmp_path, table_id=table)
        for screen in (ada, bruno):
            await until(
                lambda s=screen: "Carla sat down at the table; waiting for 1 more player" in s.text
            )
        await until(
            lambda: (
                "Waiting for 1 more player: the match begins when every seat is taken."
                in carla.lines
            ),
            10,
        )
        dario = await sit(nursery, host, "Dario", tmp_path, table_id=table)
        for screen in (ada, bruno, carla, dario):
            await until(lambda s=screen: any(line.startswith("Your hand ") for line in s.lines))
        for screen in (ada, bruno, carla):
            assert "Table: Dario sat down at the table" in screen.lines, screen.text
            assert "waiting" not in plain([toolbar_text(screen.controller.state)])
            assert not [line for line in screen.lines if "waiting for 0" in line.lower()]
        assert not [line for line in dario.lines if "more player" in line], dario.text
        nursery.cancel_scope.cancel()
