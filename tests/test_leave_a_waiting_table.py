"""Leaving a table whose match has not begun (joined, waiting for players): one line says
what became of the seat and how to take it back. Real host over loopback TCP, a real session,
the terminal client's controller in front of it, read as a person reads it.

Found by a careful reader: Ctrl-D (or ``quit``) while waiting for players left silently with
status 0; the host said "Bruno lost the connection", and the seat stayed kept on disk without
a word of it.
"""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import start_host
from person_screen import opens_a_table, sit, sits_with, until

from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import ConnectionState, Message
from scopa_net.rules import RuleSet


async def test_quit_at_a_table_waiting_for_players_says_the_seat_is_kept(
    tmp_path: Path,
) -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        bruno = await opens_a_table(nursery, host, "Bruno", tmp_path, RuleSet.of(3, 11))
        assert bruno.controller.waiting_at_a_table()
        await until(lambda: "the match begins when every seat is taken" in bruno.text)
        before = len(bruno.lines)
        await bruno.type("quit")
        table = host.tables[bruno.session.table_id].table
        await until(lambda: table.seats[0].away)  # stepped away: told, not a lost connection
        await until(lambda: bruno.controller.state.connection is ConnectionState.CLOSED)
        nursery.cancel_scope.cancel()
    table_id, port = bruno.session.table_id, host.port
    # The one line is the last word: "Connection: closed." under it was noise (he left).
    (said,) = bruno.lines[before:]
    assert said == (
        f"You left table {table_id} before its match began; your seat is kept: `scopa-net "
        f"join 127.0.0.1:{port}` takes it back (if the match begins first, a computer plays "
        "for you until then)."
    )
    (kept,) = SeatStore(tmp_path / "Bruno").records()
    assert (kept.table_id, kept.away) == (table_id, True)


async def test_quit_once_the_match_began_with_nothing_dealt_yet_does_not_say_before(
    tmp_path: Path,
) -> None:
    """Carla fills the table while Bruno's connection is lost: the match begins and its first
    round waits for Bruno's seed (his grace period), nothing dealt. Ada's quit said "You left
    table 1 before its match began ... (if the match begins first, ...)": it had begun."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=30)
        ada = await opens_a_table(nursery, host, "Ada", tmp_path, RuleSet.of(3, 11))
        table_id = ada.session.table_id
        bruno = await sits_with(nursery, host, "Bruno", tmp_path, ada)
        bruno.crash()
        await until(lambda: "Bruno lost the connection" in ada.text)
        await sit(nursery, host, "Carla", tmp_path, table_id=table_id)
        await until(lambda: ada.session.match_begun)
        assert ada.controller.state.view is None  # nothing dealt: Bruno's seed is awaited
        said = await ada.type("quit")
        nursery.cancel_scope.cancel()
    assert said[0] == (
        f"You left table {table_id} as its first round was being dealt; your seat is kept: "
        f"`scopa-net join 127.0.0.1:{host.port}` takes it back (a computer plays for you "
        "until then)."
    )


async def test_news_of_the_table_that_comes_after_leaving_is_not_said(tmp_path: Path) -> None:
    """Bruno and Dino pressed Ctrl-D at the same moment: Bruno's last line read "Table: Dino
    stepped away; their seat is kept, ...", under his own "You left table 1 ...; your seat is
    kept: ... takes it back". Which of the two comes first is the network's doing (club
    night in tmux: 2 times in 3), so the test hands Dino's news, and a late chat line, to
    Bruno's screen itself once he has left."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        bruno = await opens_a_table(nursery, host, "Bruno", tmp_path, RuleSet.of(3, 11))
        await until(lambda: "the match begins when every seat is taken" in bruno.text)
        before = len(bruno.lines)
        await bruno.type("quit")
        await until(lambda: bruno.controller.state.connection is ConnectionState.CLOSED)
        nursery.cancel_scope.cancel()
    news = "Dino stepped away; their seat is kept, and a computer plays for them if the match "
    bruno.controller.handle_event(Message(seat=None, text=news + "begins", table=True))
    bruno.controller.handle_event(Message(seat=1, text="ciao"))  # chat, as late
    (said,) = bruno.lines[before:]
    assert said.startswith("You left table "), said
