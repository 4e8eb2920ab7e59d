"""Whom "play again?" waits for, as each person reads it (protocol.md 3.11): a list of names
read as a sentence, and a person who is away said to be away, since the vote waits for their
own answer (a real host in virtual time, each person's screen in front of a real session)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import trio
import trio.testing
from hosting import create, start_memory_host
from person_screen import PersonScreen, on_screen_at_memory_host, seat_in_turn

from scopa_net.rules import RuleSet


async def test_the_vote_names_whom_it_waits_for_in_a_sentence_and_who_is_away(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Ada, Bruno, Carla and Dario to 1 point; Bruno stepped away during the match, Dario
    answered yes to "Play again?" and nobody else answered. Carla read "rematch: waiting for
    Ada, Bruno, you" and then "no rematch (Ada and Bruno and you did not answer in time)":
    two ways of listing the same people, and nothing said that Bruno was away, his seat kept,
    his own answer awaited. Now both lines list them as a sentence, "you" last, Bruno marked
    away."""
    screens: dict[str, PersonScreen] = {}
    asked: list[list[str]] = []
    answered: list[list[str]] = []

    async def what_each_does(screen: PersonScreen) -> None:
        view, name = screen.session.view, screen.session.name
        if name == "Bruno" and view is not None and view.plays and not asked:
            asked.append(await screen.type("quit"))
            asked.append(await screen.type("away"))
        if name == "Dario" and "Play again" in screen.text and not answered:
            answered.append(await screen.type("y"))

    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, bot_delay=0.01, grace=600.0)
        person = partial(
            on_screen_at_memory_host,
            net,
            tmp=tmp_path,
            screens=screens,
            between=what_each_does,
            offer_rematch=True,
        )
        names = ("Ada", "Bruno", "Carla", "Dario")
        await seat_in_turn(nursery, person, names, create(RuleSet.of(4, 1)), screens)
        with trio.fail_after(600):
            while not all("closing" in screens[n].text for n in ("Ada", "Carla")):
                await trio.sleep(1)
        nursery.cancel_scope.cancel()
    assert asked[-1][0].startswith("Stepping away; your seat is kept"), asked
    carla = screens["Carla"]
    waiting = [line for line in carla.lines if line.startswith("Table: rematch: waiting for")]
    assert waiting, carla.text
    assert waiting[0].startswith("Table: rematch: waiting for Ada, Bruno (away) and you; "), (
        carla.text
    )
    assert (
        "Table: no rematch (Ada, Bruno (away) and you did not answer in time): the table is closing"
    ) in carla.lines, carla.text
