"""A person whose seat a computer plays for the blind round in play (back in it after a void
round, sitting the rest of it out) loses the connection again: what the others read. Real host,
real client sessions with the game's controller in front of each (memory streams, trio's
autojump clock)."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import trio
import trio.testing
from blind_people import People, Plug, SleepingLaptop, table_of
from hosting import create, start_memory_host
from person_screen import PersonScreen, in_play

from scopa_net.client.network_session import TableChoice
from scopa_net.rules import RuleSet


async def bruno_back_in_a_round_a_computer_plays_then_gone(
    tmp_path: Path,
) -> tuple[dict[str, PersonScreen], int]:
    """Ada and Bruno at a blind table: Bruno's terminal closes mid round 1 (void), he comes
    back with `scopa-net join` during round 2, which a computer plays for him to its end, and
    his terminal closes again before round 2 ends; Ada plays until it ends. Every screen, by
    name ("Bruno again": his second client's), and the round the computer played (2; one
    later for each deal void for its kings before, about 1 in 600)."""
    people = People(tmp_path, names=("Ada", "Bruno"))
    screens: dict[str, PersonScreen] = {}
    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=5.0, bot_delay=0.5)
        plug = Plug(net)

        scopes: dict[str, trio.CancelScope] = {}

        async def crash(key: str) -> None:
            """kill -9 of that client: it stops where it stands, its connection cut."""
            scopes[key].cancel()
            await plug.pull()

        async def run(
            name: str, key: str, choice: TableChoice, between: object = None, **options: object
        ) -> None:
            connect = plug.connect if name == "Bruno" else net.connect
            with trio.CancelScope() as scopes[key]:
                await people.on_screen(
                    name,
                    choice,
                    connect,
                    screens,
                    between,  # type: ignore[arg-type]
                    key=key,
                    **options,
                )

        bruno_back = trio.Event()
        bruno_gone = trio.Event()
        first_crash = trio.Event()
        computer: list[int] = []  # the round a computer plays for him

        async def bruno_is_back(screen: PersonScreen) -> None:
            """Back, and the round drawn (his hand, which a computer plays)."""
            if "Your hand" in screen.text.partition("Back in your seat")[2]:
                bruno_back.set()

        async def ada_waits_while_bruno_comes_and_goes(screen: PersonScreen) -> None:
            """Once a computer has played for Bruno in round 2, Bruno takes his seat back and
            his terminal closes again before Ada's next play: the round is still in play."""
            if not first_crash.is_set() and "Your hand " in screen.text and in_play(screen):
                await crash("Bruno")  # his terminal closed, mid round 1
                first_crash.set()
            if bruno_gone.is_set() or "Bruno (computer) plays" not in screen.text:
                return
            if "Bruno again" not in screens:
                people.take_back_on_screen(nursery, run, "Bruno", "Bruno again", bruno_is_back)
            await bruno_back.wait()
            await crash("Bruno again")  # closed again, with the computer still playing his round
            view = screen.controller.state.view
            assert view is not None
            computer.append(view.round_number)
            bruno_gone.set()

        choice = TableChoice(create=create(RuleSet.of(2, 11), blind=True))
        nursery.start_soon(
            partial(
                people.on_screen,
                "Ada",
                choice,
                net.connect,
                screens,
                ada_waits_while_bruno_comes_and_goes,
            )
        )
        table_id = await table_of(screens)
        nursery.start_soon(run, "Bruno", "Bruno", TableChoice(table_id=table_id))
        ada = screens["Ada"]
        with trio.fail_after(600):
            await bruno_gone.wait()
            seen = ada.text.index(f"Round {computer[0]}")
            while not any(
                "Bruno lost the connection" in line for line in ada.text[seen:].splitlines()
            ):
                await trio.sleep(0.1)
            while f"Round {computer[0]} score sheet" not in ada.text:  # its grace over meanwhile
                await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    return screens, computer[0]


async def test_a_lost_connection_while_a_computer_plays_the_seat_does_not_say_the_round_is_void(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Bruno's terminal closed mid-round at a blind table (round 1 void), he came back with
    `scopa-net join` in round 2, which a computer plays for him to its end, and his terminal
    closed again. Ada read "Bruno lost the connection; if they are not back in 25 s this round
    is void", and the round was not void: the computer played it out, its deal check
    verified. She now reads that the computer goes on playing for him, and nothing voids."""
    screens, computer = await bruno_back_in_a_round_a_computer_plays_then_gone(tmp_path)
    ada = screens["Ada"]
    seen = ada.text.index(f"Round {computer}")
    (lost,) = [line for line in ada.text[seen:].splitlines() if "Bruno lost the connection" in line]
    assert lost == (
        "Table: Bruno lost the connection; a computer plays their seat this round already "
        "(the round goes on) and plays for them until they are back"
    ), ada.text
    assert f"Round {computer} is void" not in ada.text, ada.text
    played_out = ada.text[ada.text.index(f"Round {computer} score sheet") :]
    assert "Deal check: verified" in played_out, ada.text


async def test_back_in_a_round_a_computer_plays_the_seat_is_said_once_in_plain_words(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Ada's laptop slept mid-round at a blind table (round 1 void); woken during round 2, her
    client took the seat back and she read "round 2: a computer player holds this seat for
    the host this round (you were away when it began, or sent nothing in time in the last
    one); the round is checked all the same", then "A computer plays your seat this round;
    you play again from the next one.": the same news twice, first in the deal check's
    words, guessing at why. Now only the second."""
    people = People(tmp_path, names=("Ada", "Bruno"))
    screens: dict[str, PersonScreen] = {}
    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=5.0, bot_delay=0.5)
        ada_laptop = SleepingLaptop(net)
        woken = ada_laptop.woken

        async def bruno_wakes_her_in_round_2(screen: PersonScreen) -> None:
            if not woken.is_set() and "Ada (computer) plays" in screen.text:
                woken.set()

        table_id = await ada_laptop.ada_opens_a_table_for_two(nursery, people, screens)
        nursery.start_soon(
            partial(
                people.on_screen,
                "Bruno",
                TableChoice(table_id=table_id),
                net.connect,
                screens,
                bruno_wakes_her_in_round_2,
            )
        )
        with trio.fail_after(600):
            await woken.wait()
            while (void := ADA_VOID.search(screens["Ada"].text)) is None:
                await trio.sleep(0.1)
            # The round a computer played for her: the next (after kings voids, one later).
            while not any(int(n) > int(void[1]) for n in SHEET.findall(screens["Ada"].text)):
                await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    ada = screens["Ada"]
    assert "holds this seat for the host" not in ada.text, ada.text
    said = [line for line in ada.lines if "a computer plays your seat" in line.lower()]
    assert said == ["A computer plays your seat this round; you play again from the next one."], (
        ada.text
    )


ADA_VOID = re.compile(r"Round (\d+) is void: you were away")
"""The round Ada's laptop slept in, as she reads it (1; later after a deal void for its kings)."""
SHEET = re.compile(r"Round (\d+) score sheet")


async def test_back_after_a_round_void_without_him_he_reads_why_it_was_dealt_again(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Bruno's terminal closed mid-round at a blind table; he came back with `scopa-net join`
    once the round was void and dealt again, and read only "Back in your seat ..., round 2; 1
    round checked." and "Round 2 (round 1 dealt again)": not that round 1 was void, nor why.
    He now reads the line the others read then, in his own words."""
    screens, computer = await bruno_back_in_a_round_a_computer_plays_then_gone(tmp_path)
    again = screens["Bruno again"].text
    void = f"Round {computer - 1} is void: you were away past your grace period."
    dealt = f"Round {computer} (round {computer - 1} dealt again)"
    assert void in again, again
    assert dealt in again, again
    assert again.index("Back in your seat") < again.index(void) < again.index(dealt), again
    # "1 round checked" counted the void round 1 as checked: it is said apart.
    (back,) = [line for line in again.splitlines() if line.startswith("Back in your seat")]
    said = re.search(
        rf"round {computer}; (?:(\d+) rounds? checked, )?(\d+) void rounds? \(not played out\)\.$",
        back,
    )
    assert said, back
    assert int(said[1] or 0) + int(said[2]) == computer - 1, back  # every round before it
