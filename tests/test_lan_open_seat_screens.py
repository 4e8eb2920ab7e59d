"""A newcomer who takes an ordinary table's open seat during a round, as each screen shows it.

Real host, real client sessions with the game's controller in front of each (memory streams,
trio's autojump clock). At an ordinary table the host deals the newcomer the seat's cards with
the ``snapshot`` after ``joined`` and stops playing the seat at once (protocol.md 3.3): the
newcomer plays the rest of the round. Only at a blind table does a computer finish that round
for them (9.7, tests/test_lan_blind_away_screens.py).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio
import trio.testing
from blind_people import People, table_of
from hosting import create, start_memory_host
from person_screen import PersonScreen

from scopa_net.client.network_session import TableChoice
from scopa_net.client.render import NEW_SEAT_SITTING_OUT
from scopa_net.fair.transcript import decode
from scopa_net.fair.verifier import verify_transcript
from scopa_net.rules import RuleSet

Between = Callable[[PersonScreen], Awaitable[None]]
"""What a person does at each board, looking at their screen."""


def leaves_after_the_first_play(done: list[str]) -> Between:
    """Bruno leaves the table for good after the round's first play, once (noted in ``done``)."""

    async def between(screen: PersonScreen) -> None:
        view = screen.session.view
        if done or view is None or view.round_over or not view.plays:
            return
        done.append("left")
        await screen.controller.handle_line("quit")
        await screen.controller.handle_line("leave")

    return between


def ada_sends_carla(
    nursery: trio.Nursery,
    run: Callable[..., Awaitable[None]],
    carla_sat: trio.Event,
    done: list[str],
    carla: Between,
) -> Between:
    """Once the computer has played the open seat, Carla takes it (``carla``: what she does at
    each board); Ada waits for her before going on (the virtual clock must not end the round
    first)."""

    async def between(screen: PersonScreen) -> None:
        if carla_sat.is_set() or "bot 1 plays" not in screen.text:
            return
        if "Carla" not in done:
            done.append("Carla")
            choice = TableChoice(table_id=screen.session.table_id)
            nursery.start_soon(run, "Carla", choice, carla)
        await carla_sat.wait()

    return between


async def test_taking_an_ordinary_tables_open_seat_mid_round_the_newcomer_plays_at_once(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """A scopone table: Ada, Bruno and two computer players. Bruno leaves after the round's
    first play; a computer plays his open seat ("bot 1 plays") until Carla takes it, mid-round.
    Carla is dealt the seat's cards and plays the rest of the round herself: her screen says
    "Your turn." over a hand of cards and her plays as hers, never that a computer finishes
    the round for her, and Ada reads the same plays under Carla's name alone."""
    rules = RuleSet.of(4, 1, ["scopone_scientifico"])
    people = People(tmp_path, names=("Ada", "Bruno", "Carla"))
    screens: dict[str, PersonScreen] = {}
    carla_sat, carla_played = trio.Event(), trio.Event()

    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=60.0, bot_delay=0.5)

        run = people.on_screens(net.connect, screens, "Carla", carla_sat)

        done: list[str] = []

        async def carla_plays_twice(screen: PersonScreen) -> None:
            if sum(line.startswith("You play ") for line in screen.lines) >= 2:
                carla_played.set()

        ada_waits_for_carla = ada_sends_carla(nursery, run, carla_sat, done, carla_plays_twice)

        choice = TableChoice(create=create(rules, bots=2))
        nursery.start_soon(run, "Ada", choice, ada_waits_for_carla)
        table_id = await table_of(screens)
        nursery.start_soon(
            run, "Bruno", TableChoice(table_id=table_id), leaves_after_the_first_play(done)
        )
        with trio.fail_after(600):
            await carla_played.wait()
        nursery.cancel_scope.cancel()

    carla, ada = screens["Carla"], screens["Ada"]
    text = carla.text
    sat = next(i for i, line in enumerate(carla.lines) if line.startswith("You sit at table"))
    assert carla.lines[sat + 1].startswith("You took a seat in a match under way"), text
    assert NEW_SEAT_SITTING_OUT not in text, text
    assert "Your hand (none)" not in text, text
    hands = [line for line in carla.lines if line.startswith("Your hand ")]
    assert hands, text
    assert "=" in hands[0], text  # cards from the first board on
    assert "Your turn." in text, text
    assert "(computer)" not in text, text
    mine = [line for line in carla.lines if line.startswith("You play ")]
    assert len(mine) >= 2, text
    # Ada reads Carla's plays as Carla's, as Carla reads them as her own.
    assert all(line.replace("You play ", "Carla plays ", 1) in ada.lines for line in mine), ada.text
    assert "Carla (computer)" not in ada.text, ada.text
    assert any("YOUR TURN" in t for t in carla.toolbars), carla.toolbars
    assert not any("a computer plays for you" in t for t in carla.toolbars), carla.toolbars


SEAT_1_PLAYS = re.compile(r"^(?:Bruno|bot 1|Carla)(?: \(computer\))? plays ")


async def test_the_last_rows_name_who_made_a_play_after_the_seat_changed_hands(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Bruno leaves after the round's first play and a computer plays his open seat; when
    Carla takes it, Ada asks for the board: its "Last" row for seat 1 named Carla for the
    computer's play ("Carla plays ..."), the seat's holder now, not who made it."""
    rules = RuleSet.of(4, 1, ["scopone_scientifico"])
    people = People(tmp_path, names=("Ada", "Bruno", "Carla"))
    screens: dict[str, PersonScreen] = {}
    carla_sat, looked = trio.Event(), trio.Event()
    seen: list[tuple[str, list[str]]] = []  # seat 1's play as printed, then the board's rows

    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=60.0, bot_delay=0.5)

        run = people.on_screens(net.connect, screens, "Carla", carla_sat)

        async def bruno_leaves_after_the_first_play(screen: PersonScreen) -> None:
            view = screen.session.view
            if carla_sat.is_set() or view is None or view.round_over or not view.plays:
                return
            if screen.session.names[1] != "Bruno":
                return
            await screen.controller.handle_line("quit")
            await screen.controller.handle_line("leave")

        async def ada_looks_once_carla_sits(screen: PersonScreen) -> None:
            if looked.is_set():
                return
            if not carla_sat.is_set() and "bot 1 plays" in screen.text:
                nursery.start_soon(run, "Carla", TableChoice(table_id=screen.session.table_id))
                await carla_sat.wait()
            if screen.controller.state.names[1] != "Carla":  # the screen knows her now
                return
            printed = [line for line in screen.lines if SEAT_1_PLAYS.match(line)][-1]
            before = len(screen.lines)
            await screen.controller.handle_line("board")
            seen.append((printed, screen.lines[before:]))
            looked.set()

        choice = TableChoice(create=create(rules, bots=2))
        nursery.start_soon(run, "Ada", choice, ada_looks_once_carla_sits)
        table_id = await table_of(screens)
        nursery.start_soon(
            run, "Bruno", TableChoice(table_id=table_id), bruno_leaves_after_the_first_play
        )
        with trio.fail_after(600):
            await looked.wait()
        nursery.cancel_scope.cancel()

    ((printed, board),) = seen
    assert printed.startswith("bot 1 plays "), printed
    last = [line for line in board if line.startswith("Last ")]
    assert f"Last      {printed}" in last, board
    assert not any(line.startswith("Last      Carla") for line in last), board


async def test_a_newcomer_keeps_a_transcript_from_where_she_sat_down(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Carla takes an open seat mid-match. Her client saved no transcript of the match (at its
    end her screen said why, and how the host writes hers from its journal); it now carries
    the match on from the snapshot she sat down with, saves a transcript from there (version
    7), and that transcript verifies as far as she saw the match, saying which rounds she did
    not see."""
    rules = RuleSet.of(2, 1)
    people = People(tmp_path, names=("Ada", "Bruno", "Carla"))
    screens: dict[str, PersonScreen] = {}
    carla_sat, over = trio.Event(), trio.Event()
    done: list[str] = []

    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=60.0, bot_delay=0.5)

        run = people.on_screens(net.connect, screens, "Carla", carla_sat)

        async def carla_to_the_end(screen: PersonScreen) -> None:
            if re.search(r"wins? the match", screen.text):
                over.set()

        ada_waits_for_carla = ada_sends_carla(nursery, run, carla_sat, done, carla_to_the_end)

        nursery.start_soon(run, "Ada", TableChoice(create=create(rules)), ada_waits_for_carla)
        table_id = await table_of(screens)
        nursery.start_soon(
            run, "Bruno", TableChoice(table_id=table_id), leaves_after_the_first_play(done)
        )
        with trio.fail_after(600):
            await over.wait()
        nursery.cancel_scope.cancel()

    carla = screens["Carla"]
    # Her client carries on the match as the snapshot she sat down with told it, and keeps a
    # transcript from there (before: "No transcript was saved for this match", and the
    # command with which the host writes hers from its journal).
    assert "No transcript was saved" not in carla.text, carla.text
    assert "Transcript saved: " in carla.text, carla.text
    (saved,) = (tmp_path / "Carla" / "transcripts").glob("*.scopa")
    transcript = decode(saved.read_bytes())
    assert transcript.caught_up is not None
    verdict = verify_transcript(transcript)
    assert verdict.ok, verdict.lines()
    assert verdict.unseen.startswith("not checked: round"), verdict.unseen
