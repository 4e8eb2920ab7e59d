"""A person who steps away from a blind table and comes back, as each screen shows it.

Real host, real client sessions with the game's controller in front of each (memory streams,
trio's autojump clock). Bruno steps away in the middle of round 1 (it is void, protocol.md
9.7), a computer plays his seat in round 2, he takes the seat back during it and sits the rest
of it out, and plays again from round 3 to the end of the match. The tests read the words each
person reads.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio
import trio.testing
from blind_people import People, Plug, play_one_card_then_hang, table_of
from hosting import create, start_memory_host
from person_screen import PersonScreen

from scopa_net.bots.levels import make_player
from scopa_net.client.files import names_beside
from scopa_net.client.leaving_words import GOING_VOIDS_ROUND
from scopa_net.client.network_session import TableChoice
from scopa_net.rules import RuleSet


async def test_stepping_away_from_a_blind_round_and_coming_back_in_every_persons_words(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    rules = RuleSet.of(2, 11)  # more than two rounds: Bruno plays again
    people = People(tmp_path, names=("Ada", "Bruno"))
    screens: dict[str, PersonScreen] = {}
    done = {name: trio.Event() for name in ("Ada", "Bruno", "Bruno again")}

    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=60.0, bot_delay=0.5)

        async def run(
            name: str,
            key: str,
            choice: TableChoice,
            between: Callable[[PersonScreen], Awaitable[None]] | None = None,
            **options: object,
        ) -> None:
            await people.on_screen(name, choice, net.connect, screens, between, key=key, **options)
            done[key].set()

        asked: list[str] = []
        rounds: list[int] = []
        """The round Bruno steps away in, then the round a computer plays for him (1 and 2;
        each one later after a deal void for its kings, about 1 in 600)."""

        async def bruno_steps_away_in_round_1(screen: PersonScreen) -> None:
            view = screen.session.view
            if asked or view is None or view.round_over or len(view.plays) < 1:
                return
            asked.append("quit")
            rounds.append(view.round_number)  # 1 (the redeal after a deal void for its kings)
            before = len(screen.lines)
            await screen.controller.handle_line("quit")
            asked.extend(screen.lines[before:])
            await screen.controller.handle_line("away")

        bruno_back = trio.Event()

        async def bruno_is_back(screen: PersonScreen) -> None:
            if "Back in your seat" in screen.text:
                bruno_back.set()

        async def ada_waits_for_bruno_in_round_2(screen: PersonScreen) -> None:
            """Once a computer has played for Bruno, Bruno takes his seat back; Ada waits for
            him before her next play (his client reads its disk meanwhile, and the virtual
            clock must not end the round first)."""
            if bruno_back.is_set() or "Bruno (computer) plays" not in screen.text:
                return
            if len(rounds) == 1:
                view = screen.session.view
                assert view is not None
                rounds.append(view.round_number)  # the round a computer plays for him
            if "Bruno again" not in screens:
                people.take_back_on_screen(nursery, run, "Bruno", "Bruno again", bruno_is_back)
            await bruno_back.wait()

        choice = TableChoice(create=create(rules, blind=True))
        nursery.start_soon(run, "Ada", "Ada", choice, ada_waits_for_bruno_in_round_2)
        table_id = await table_of(screens)
        nursery.start_soon(
            run, "Bruno", "Bruno", TableChoice(table_id=table_id), bruno_steps_away_in_round_1
        )
        with trio.fail_after(600):
            await done["Bruno"].wait()
        ada = screens["Ada"]

        # 1. The question warned that going now ends the round for everyone; and it did.
        assert GOING_VOIDS_ROUND in asked, asked
        assert asked.index(GOING_VOIDS_ROUND) < len(asked) - 1  # before the question itself
        with trio.fail_after(600):
            while f"Round {rounds[0]} is void: Bruno stepped away" not in ada.text:
                await trio.sleep(0.1)

        # 3. In round 2 a computer plays Bruno's seat: Ada reads it as the computer's.
        with trio.fail_after(600):
            while not any(line.startswith("Bruno (computer) plays") for line in ada.lines):
                await trio.sleep(0.1)

        # Bruno takes his seat back during round 2, and sits the rest of it out.
        with trio.fail_after(600):
            await done["Ada"].wait()
            await done["Bruno again"].wait()
        bruno = screens["Bruno again"]
        computer = rounds[1]

        # 2. Told once that a computer plays his seat this round, in words that stay true.
        sat_out = [line for line in bruno.lines if line.startswith("A computer plays your seat")]
        assert sat_out == [
            "A computer plays your seat this round; you play again from the next one."
        ], bruno.text
        assert any("a computer plays for you" in t for t in bruno.toolbars), bruno.toolbars
        assert "A computer plays for you now." not in bruno.lines, bruno.text  # not each board
        # 3. Every screen, his own too (the board's last plays included), shows the computer's
        # plays for him in round 2 as the computer's, and his own from round 3 as his.
        # Round 2 deals the void round 1 again, and Ada's board says so.
        assert f"Round {computer} (round {computer - 1} dealt again)  dealer" in ada.text, ada.text
        for screen, his in ((ada, "Bruno plays"), (bruno, "You play")):
            text = screen.text
            start = re.search(
                rf"Round {computer}( \(round {computer - 1} dealt again\))?  dealer", text
            )
            assert start is not None, text
            round_2 = text[start.start() : text.index(f"Round {computer} score sheet")]
            later = text[text.index(f"Round {computer + 1}  dealer") :]
            assert "Bruno (computer) plays" in round_2, text
            assert his not in round_2, text
            assert his in later, text
            assert "(computer)" not in later, text
        assert "Last      Bruno (computer) plays" in bruno.text, bruno.text
        # 4. Ada read that he is back, and that the computer still finishes round 2 for him
        # (before, only "Bruno is back at the table", and then the computer's plays for him).
        back = [line for line in ada.lines if "Bruno is back" in line]
        assert back == [
            "Table: Bruno is back at the table; a computer finishes this round for them"
        ], ada.text

        # 6. The match's last line counts the rounds as the board numbers them, and says how
        # many of them were void.
        for screen in (ada, bruno):
            (summary,) = [line for line in screen.lines if "the match," in line]
            rounds = screen.session.mirror.view.round_number  # type: ignore[union-attr]
            voids = 1 + ada.text.count("kings on the table (")  # round 1, and kings
            assert f"after {rounds} rounds ({voids} of them void)." in summary, summary
        (said,) = [line for line in ada.lines if "the match," in line]
        assert said.endswith(f". A computer played for Bruno in round {computer}."), said
        # On his own screen he is "you", as his plays are "You play" ("for Bruno" before).
        (his,) = [line for line in bruno.lines if "the match," in line]
        assert his.endswith(f". A computer played for you in round {computer}."), his

        # 5. Beside Ada's transcript, her client saved the seats' names, for `verify`, and
        # the round a computer played for Bruno (round 2: he stepped away).
        (saved,) = (tmp_path / "Ada" / "transcripts").glob("*.scopa")
        assert names_beside(saved).read_text(encoding="utf-8") == (
            f"Ada\nBruno\ncomputer\t\t{computer}\n"
        )
        nursery.cancel_scope.cancel()


async def test_a_lost_connection_at_a_blind_table_says_the_round_is_void_not_a_computer_plays(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Bruno's client dies mid round at a blind table. Ada read "Bruno lost the connection;
    a computer plays for them in 60 s", but at a blind table nobody else can open his cards:
    the round in play is void instead, and a computer plays for him from the next round."""
    rules = RuleSet.of(2, 4)
    people = People(tmp_path, names=("Ada", "Bruno"))
    screens: dict[str, PersonScreen] = {}
    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=60.0, bot_delay=0.5)
        plug = Plug(net)
        played = trio.Event()

        async def ada(name: str, choice: TableChoice, **options: object) -> None:
            async with people.session(name, choice, net.connect, **options) as session:
                people.sessions[name] = session
                people.ada_ready.set()
                screens[name] = PersonScreen(session)
                await screens[name].play()

        async def bruno() -> None:
            choice = TableChoice(table_id=table_id)
            async with people.session("Bruno", choice, plug.connect) as session:
                people.sessions["Bruno"] = session
                await play_one_card_then_hang(session, make_player("random", 5), played)

        table_id = await people.ada_opens(nursery, ada, rules)
        nursery.start_soon(bruno)
        with trio.fail_after(600):
            await played.wait()
            await trio.sleep(0.1)
            # kill -9 of Bruno's client, mid round 1: it does not come back (one back within
            # seconds was never said to be gone)
            people.sessions["Bruno"]._stop = True
            await plug.pull()
            while "Bruno lost the connection" not in screens["Ada"].text:
                await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    lost = [line for line in screens["Ada"].lines if "Bruno lost the connection" in line]
    assert lost == [
        # 55 s left when said (held 5 s: one back by then was never said gone), of 60.
        "Table: Bruno lost the connection; if they are not back in 55 s (the host waits 60 s "
        "from when it lost them) this round is void "
        "(nobody else can open their cards) and a computer plays for them from the next round"
    ]


async def test_joining_a_blind_tables_open_seat_mid_round_says_a_computer_finishes_it(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Bruno leaves a blind table for good in round 1 (void); a computer plays his seat, open
    again, in round 2, and Carla joins it then. Her screen read "Your hand (none)" and "Your
    turn." at each board while the computer played the seat, its plays under her name alone
    ("Carla plays 7d"), and a card typed was "not your turn". She now reads that a computer
    finishes the round for her, never "Your turn." nor YOUR TURN in that round, the
    computer's plays as the computer's; she plays from round 3. Meanwhile she sees the board
    at each of her seat's turns, without its cards (no table was drawn all round, the bar
    stuck at the stock of her joining), and `who` says a computer plays her seat this round."""
    rules = RuleSet.of(2, 11)
    people = People(tmp_path, names=("Ada", "Bruno", "Carla"))
    screens: dict[str, PersonScreen] = {}
    carla_sat, carla_played = trio.Event(), trio.Event()

    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=60.0, bot_delay=0.5)

        run = people.on_screens(net.connect, screens, "Carla", carla_sat)

        left: list[str] = []
        numbers: list[int] = []
        """The round Bruno leaves in, then the round a computer plays his open seat (1 and 2;
        one later for each deal void for its kings before, about 1 in 600)."""

        async def bruno_leaves_in_round_1(screen: PersonScreen) -> None:
            view = screen.session.view
            if left or view is None or view.round_over or len(view.plays) < 1:
                return
            left.append("quit")
            numbers.append(view.round_number)  # 1 (the redeal after a deal void for its kings)
            await screen.controller.handle_line("quit")
            await screen.controller.handle_line("leave")

        async def ada_waits_for_carla_in_round_2(screen: PersonScreen) -> None:
            view = screen.session.view
            if carla_sat.is_set() or view is None or not view.plays or not numbers:
                return
            if view.round_number <= numbers[0]:
                return
            if len(numbers) == 1:
                numbers.append(view.round_number)  # the round a computer plays the open seat
            if "table_id" not in left:
                left.append("table_id")
                choice = TableChoice(table_id=screen.session.table_id)
                nursery.start_soon(run, "Carla", choice, carla_plays_in_round_3)
            await carla_sat.wait()

        async def carla_plays_in_round_3(screen: PersonScreen) -> None:
            view = screen.session.view
            computer = numbers[1]
            if (
                "who" not in left
                and view is not None
                and view.round_number == computer
                and view.plays
            ):
                left.append("who")
                await screen.type("who")
            text = screen.text
            after = f"Round {computer + 1}  dealer"
            if after in text and "You play" in text.partition(after)[2]:
                carla_played.set()

        choice = TableChoice(create=create(rules, blind=True))
        nursery.start_soon(run, "Ada", choice, ada_waits_for_carla_in_round_2)
        table_id = await table_of(screens)
        nursery.start_soon(run, "Bruno", TableChoice(table_id=table_id), bruno_leaves_in_round_1)
        with trio.fail_after(600):
            await carla_played.wait()
        nursery.cancel_scope.cancel()

    carla = screens["Carla"]
    text = carla.text
    computer = numbers[1]
    round_2 = text[: text.index(f"Round {computer} score sheet")]
    later = text[text.index(f"Round {computer + 1}  dealer") :]
    finishes = "A computer finishes this round for you; you play from the next round."
    assert [line for line in carla.lines if line == finishes] == [finishes], text
    # Her board is drawn as everyone's, without the computer's cards, and the bar keeps up;
    # round 1 was stopped when Bruno left, so round 2 is its redeal, for her as for Ada.
    heading = f"Round {computer} (round {computer - 1} dealt again)  dealer"
    boards = round_2.split(heading)[1:]
    assert boards, text
    assert heading in screens["Ada"].text, screens["Ada"].text
    assert all("Your hand (a computer plays it this round)" in b for b in boards), text
    assert "Seat 1: Carla (you); a computer plays the seat this round" in round_2, text
    assert "Your turn." not in round_2, text
    assert "Your hand (none)" not in round_2, text
    assert "Carla (computer) plays" in round_2, text
    assert "You play" not in round_2, text
    assert "You play" in later, text  # her own plays, as she reads them
    assert "(computer)" not in later, text
    sat_out = carla.toolbars[: next(i for i, t in enumerate(carla.toolbars) if "round over" in t)]
    assert not any("YOUR TURN" in t for t in sat_out), sat_out
    assert any("a computer plays for you" in t for t in sat_out), sat_out
    bars = [t for t in carla.toolbars if f"Round {computer} |" in t]
    stocks = {t.split("| stock ")[1].split(" ")[0] for t in bars}
    assert {"30", "0"} < stocks, bars  # each deal's, not the stock when she sat down
