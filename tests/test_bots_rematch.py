"""``scopa-net bots`` after a match (protocol.md 3.11): its players say yes to playing again
while a person at their table does, play the new match, and end when the table closes. Over
loopback, against a real host, with a person's session beside them."""

from __future__ import annotations

import re
from functools import partial

import trio
from hosting import MakeHost, create

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.session import MatchStarted, Message
from scopa_net.commands.bots import BotPlan, BotStats, run_bots
from scopa_net.rules import RuleSet


async def until(session: NetworkSession, wanted: type) -> None:
    """Read the session's events up to one of type ``wanted``."""
    with trio.fail_after(20):
        async for event in session.events:
            if isinstance(event, wanted):
                return
    raise AssertionError(f"the session ended before a {wanted.__name__}")


async def test_bots_play_again_while_the_person_at_their_table_does(
    tmp_path, make_host: MakeHost
) -> None:
    """Dino and two `bots` players, a match to 1: Dino says yes and the bots do too (they
    said no, and the table closed for Dino); the second match is played; Dino says no and
    `bots` ends, its two players having finished two matches of one table."""
    host = await make_host()
    said: list[str] = []
    stats = BotStats()
    bots_done = trio.Event()
    choice = TableChoice(create=create(RuleSet.of(3, 1)))
    async with (
        trio.open_nursery() as nursery,
        open_network_session(
            "127.0.0.1", host.port, choice, name="Dino", data_dir=tmp_path, offer_rematch=True
        ) as dino,
    ):
        table = dino.table_id

        async def send_bots() -> None:
            await run_bots("127.0.0.1", host.port, 2, BotPlan(), stats=stats, report=said.append)
            bots_done.set()

        nursery.start_soon(send_bots)
        assert await play_as_bot(dino, make_player("random", 1)) is not None
        await dino.rematch(True)
        await until(dino, MatchStarted)  # the bots agreed
        assert dino.match_no == 2
        assert await play_as_bot(dino, make_player("random", 2)) is not None
        await dino.rematch(False)
        with trio.fail_after(20):
            await bots_done.wait()
    assert stats.failures == []
    assert stats.finished == {(table, 1), (table, 2)}
    assert stats.matches == 4
    for bot in ("bot-1", "bot-2"):
        mine = [line for line in said if line.startswith(f"{bot} (table {table} seat ")]
        assert sum("match over after" in line for line in mine) == 2, said
        assert any(line.endswith(": everyone agreed: match 2 begins") for line in mine), said
        assert mine[-1].endswith(": no rematch (Dino said no): the table is closing"), said


async def test_bots_alone_with_computer_players_say_no_after_one_match(
    make_host: MakeHost,
) -> None:
    """Two `bots` players and the host's computer player: nobody else to play for, so the
    bots say no and end after one match (else they would play on for ever)."""
    host = await make_host()
    said: list[str] = []
    with trio.fail_after(30):
        stats = await run_bots(
            "127.0.0.1", host.port, 2, BotPlan(), create=RuleSet.of(3, 1), report=said.append
        )
    assert stats.failures == []
    assert stats.finished == {(1, 1)}
    assert any(line.endswith(": no rematch: only computer players at the table") for line in said)
    assert not any("everyone agreed" in line for line in said)


async def test_a_blind_deal_check_names_the_bots_clients_as_seats_not_people(
    tmp_path, make_host: MakeHost
) -> None:
    """Dino and two `bots` players at a blind table: the bots' clients are parties of the
    deal, and Dino's deal check line names them by seat ("blind: Dino, bot-1, bot-2 and the
    host"), where it said "blind: 3 people and the host" with Dino the only person."""
    host = await make_host()
    checks: list[str] = []
    choice = TableChoice(create=create(RuleSet.of(3, 1), blind=True))
    async with (
        trio.open_nursery() as nursery,
        open_network_session(
            "127.0.0.1", host.port, choice, name="Dino", data_dir=tmp_path, offer_rematch=True
        ) as dino,
    ):
        nursery.start_soon(partial(run_bots, "127.0.0.1", host.port, 2, BotPlan()))
        player = make_player("random", 1)
        with trio.fail_after(60):
            while dino.view is None or not checks:
                await play_until_a_message(dino, player, checks)
        await dino.leave()  # the bots, alone with the computer in Dino's seat, end the match
    assert re.search(r"; blind: Dino, bot-[12], bot-[12] and the host$", checks[0]), checks


async def play_until_a_message(session: NetworkSession, player: object, checks: list[str]) -> None:
    """Play the seat's turn, then take one event; a deal check line goes to ``checks``."""
    if session.view is not None and session.view.my_turn and not session.view.round_over:
        await session.submit(player.choose(session.view))  # type: ignore[attr-defined]
    event = await session.events.receive()
    if isinstance(event, Message) and event.text.startswith("Deal check: "):
        checks.append(event.text)


async def test_two_bots_commands_alone_at_a_table_stop_after_one_match(
    make_host: MakeHost,
) -> None:
    """Two `scopa-net bots` commands fill one table beside the host's computer player: each
    reads the other's player by its name (bot-1) as a computer player, not a person, so both
    say no and end after one match (they used to agree again for ever)."""
    host = await make_host()
    await host.create_table("t", RuleSet.of(3, 1), None, 1, 1)  # seat 2: the host's computer
    said: list[str] = []
    first, second = BotStats(), BotStats()
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(run_bots, "127.0.0.1", host.port, 1, BotPlan(), stats=first))
            while not first.seated:  # the first command's bot is at seat 0
                await trio.sleep(0.01)
            await run_bots("127.0.0.1", host.port, 1, BotPlan(), stats=second, report=said.append)
    assert first.failures == second.failures == []
    assert first.finished == second.finished == {(1, 1)}
    assert said[-1] == "bot-1 (table 1 seat 1): no rematch: only computer players at the table"
