"""Names on every screen: wherever the program knows who sits in a seat, the lines a person
reads call them by name, never by a bare seat number. Real host, real client sessions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
import trio.testing
from blind_people import bruno_steps_away_after_round_1
from hosting import MakeHost, create, start_host
from person_screen import play_when_asked, sit, until

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.commands.bots import BotPlan, run_bots
from scopa_net.rules import RuleSet

BARE_SEAT = re.compile(r"\bseat \d\b")
WON = re.compile(r" wins? the match")


async def test_a_seed_left_out_names_its_person_on_every_screen(
    autojump_clock: trio.testing.MockClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bruno steps away after round 1: from round 2 his seed is left out (no commit). Ada
    reads "round 2: Bruno's seed is left out (no commit)", and the deal check names him too;
    no line she reads says "seat 1"."""
    scored: list[int] = []  # round 1, or the redeal after a deal void for its kings
    lines = await bruno_steps_away_after_round_1(tmp_path, monkeypatch, scored)
    assert f"round {scored[0] + 1}: Bruno's seed is left out (no commit)" in lines, lines
    assert [line for line in lines if BARE_SEAT.search(line)] == [], lines


async def test_the_match_summary_names_whoever_left_a_seat_to_a_computer(
    tmp_path: Path,
) -> None:
    """Carla leaves for good in round 1 and a computer finishes her match: the line saying
    who won names her seat "Carla, then a computer", as the host's log and `history` do,
    not "bot 2" (a name no computer player at the table had when the match began)."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(3, 1)))
        table = ada.session.table_id
        bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=table)
        carla = await sit(nursery, host, "Carla", tmp_path, table_id=table)
        friends = (ada, bruno, carla)
        await until(lambda: all(p.controller.state.view is not None for p in friends))
        await carla.type("quit")
        await carla.type("leave")
        await until(lambda: "Carla left the table" in ada.text)
        async with trio.open_nursery() as both:
            for player in (ada, bruno):
                both.start_soon(play_when_asked, player)
        for player in (ada, bruno):
            await until(lambda p=player: any(WON.search(line) for line in p.lines))
            summary = next(line for line in player.lines if WON.search(line))
            assert "Carla, then a computer" in summary, summary
            assert "bot 2" not in summary, summary
        nursery.cancel_scope.cancel()


async def test_bots_say_the_match_of_a_seat_its_person_left_by_their_name(
    tmp_path: Path, make_host: MakeHost
) -> None:
    """Dino opens a 3-seat table to 1, two `bots` players sit down, and Dino leaves for good
    once the match begins: a computer finishes his seat. Each bot's "match over" line names
    that seat "Dino, then a computer" (as the host's log and `history` do), not "bot 0"."""
    host = await make_host(bot_delay=0.01)
    said: list[str] = []
    choice = TableChoice(create=create(RuleSet.of(3, 1)))
    async with (
        trio.open_nursery() as nursery,
        open_network_session(
            "127.0.0.1", host.port, choice, name="Dino", data_dir=tmp_path
        ) as dino,
    ):
        done = trio.Event()

        async def send_bots() -> None:
            await run_bots("127.0.0.1", host.port, 2, BotPlan(), report=said.append)
            done.set()

        nursery.start_soon(send_bots)
        with trio.fail_after(20):
            while dino.view is None:
                await dino.events.receive()
        await dino.leave()
        with trio.fail_after(60):
            await done.wait()
    over = [line for line in said if "match over after" in line]
    assert len(over) == 2, said
    for line in over:
        assert "Dino, then a computer" in line, line
        assert "bot 0" not in line, line
