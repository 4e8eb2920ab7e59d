"""The host's log line for a void round names the round the players' screens name (real
host in virtual time, real client sessions with the game's controller in front of each)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio
import trio.testing
from blind_people import People, Plug, SleepingLaptop
from helpers import host_said
from hosting import start_memory_host
from person_screen import PersonScreen

from scopa_net.client.network_session import TableChoice


async def test_a_void_round_after_a_void_round_is_logged_with_the_screens_number(
    autojump_clock: trio.testing.MockClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """At a blind table Ada's laptop slept in round 1 (void); round 2, a computer playing her
    seat, was void too when Bruno's terminal closed. Every screen read "Round 2 is void:
    Bruno was away past their grace period"; the host's log said "round 3 void: Bruno (seat
    1) was away past the grace time", the round dealt next."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    people = People(tmp_path, names=("Ada", "Bruno"))
    screens: dict[str, PersonScreen] = {}
    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=5.0, bot_delay=0.5)
        ada_laptop, bruno_plug = SleepingLaptop(net), Plug(net)
        woken = ada_laptop.woken
        scopes: dict[str, trio.CancelScope] = {}

        async def bruno_goes_in_round_2(screen: PersonScreen) -> None:
            if not woken.is_set() and "Ada (computer) plays" in screen.text:
                woken.set()
                scopes["Bruno"].cancel()  # his terminal closes, mid round 2
                await bruno_plug.pull()

        async def bruno(table_id: int) -> None:
            with trio.CancelScope() as scopes["Bruno"]:
                await people.on_screen(
                    "Bruno",
                    TableChoice(table_id=table_id),
                    bruno_plug.connect,
                    screens,
                    bruno_goes_in_round_2,
                )

        table_id = await ada_laptop.ada_opens_a_table_for_two(nursery, people, screens)
        nursery.start_soon(bruno, table_id)
        with trio.fail_after(600):
            await woken.wait()
            while "Round 2 is void" not in screens["Ada"].text:
                await trio.sleep(0.1)
            while sum(" void: " in line for line in host_said(caplog)) < 2:
                await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    assert "Round 2 is void: Bruno was away past their grace period." in screens["Ada"].text
    voids = [line.split(": ", 1)[1] for line in host_said(caplog) if " void: " in line]
    assert voids == [
        "round 1 void: Ada (seat 0) was away past the grace time",
        "round 2 void: Bruno (seat 1) was away past the grace time",
    ], host_said(caplog)
