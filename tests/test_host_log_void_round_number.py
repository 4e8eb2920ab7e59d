"""The host's log line for a void round names the round the players' screens name (real
host in virtual time, real client sessions with the game's controller in front of each)."""

from __future__ import annotations

import logging
import re
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
    1) was away past the grace time", the round dealt next. (After a deal void for its kings,
    about 1 in 600, each of these rounds comes one later: the numbers are read from Ada's
    screen, and the kings voids' own log lines are left aside.)"""
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
            while BRUNOS_VOID.search(screens["Ada"].text) is None:
                await trio.sleep(0.1)
            while len(absent_voids(caplog)) < 2:
                await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    bruno_gone = BRUNOS_VOID.search(screens["Ada"].text)
    assert bruno_gone is not None
    voids = absent_voids(caplog)
    assert voids[1] == f"round {bruno_gone[1]} void: Bruno (seat 1) was away past the grace time"
    ada_gone = re.fullmatch(
        r"round (\d+) void: Ada \(seat 0\) was away past the grace time", voids[0]
    )
    assert ada_gone is not None, voids
    assert int(ada_gone[1]) < int(bruno_gone[1]), voids


BRUNOS_VOID = re.compile(r"Round (\d+) is void: Bruno was away past their grace period\.")
"""Bruno's void round as every screen reads it."""


def absent_voids(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The host's log lines for void rounds, but those void for their kings."""
    said = host_said(caplog)
    return [line.split(": ", 1)[1] for line in said if " void: " in line and "kings" not in line]
