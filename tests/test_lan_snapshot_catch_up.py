"""A person caught up by ``snapshot`` (protocol.md 3.4) reads what a seat that saw the events
reads: the same round, the void rounds counted, a computer's plays for them as the computer's.

Real host on loopback TCP that replays a resume at most one missed event (``replay_limit``),
so Bruno, back after a few, is caught up by a snapshot: of the present, as a host of protocol
4 sends it (``round_start_catch_up=False``; ours sends the one from the latest round's start).
Ada and Bruno are each a real client with the game's controller in front of it; the tests read
the words each person reads.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import pytest
import trio
from helpers import SeededSecrets, kings_on_the_table, no_kings_void, plan_first_round
from hosting import CutOff, create, start_host
from person_screen import PersonScreen, until

from scopa_net.client import network_session
from scopa_net.client.network_session import (
    CAUGHT_UP_BETWEEN_ROUNDS,
    CAUGHT_UP_BY_SNAPSHOT,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet
from scopa_net.server.table import Table
from scopa_net.wire import messages as m

BACK = "Back in your seat"


@dataclass
class AwayAndBack:
    """What ``bruno_away_then_back`` saw: each person's screen ("Ada", "Bruno", "Bruno
    again"), and the round in which Ada first read a computer's play for Bruno."""

    screens: dict[str, PersonScreen]
    computer_round: int


async def bruno_away_then_back(
    tmp_path: Path,
    rules: RuleSet,
    *,
    blind: bool,
    enough: Callable[[str, int], bool] = lambda text, computer_round: False,
    round_start: bool = False,
) -> AwayAndBack:
    """Ada opens a table and Bruno joins; Bruno steps away at the first play he sees (in the
    first round dealt, or the first after a void one: a random deal can be void too); once
    Ada reads a computer's play for him, he takes his seat back from disk (caught up by
    snapshot: of the present, or with ``round_start`` as our host sends it, from the latest
    round's start) and she waits for him; both then play at random to the end of the match,
    or until ``enough(text, computer_round)`` of his screen."""
    screens: dict[str, PersonScreen] = {}
    computer_round: list[int] = []
    stores = {name: SeatStore(tmp_path / name) for name in ("Ada", "Bruno")}
    done = {key: trio.Event() for key in ("Ada", "Bruno", "Bruno again")}
    stepped, coming_back, back, over = trio.Event(), trio.Event(), trio.Event(), trio.Event()
    games: dict[str, trio.CancelScope] = {}
    async with trio.open_nursery() as nursery:
        host = await start_host(
            nursery, replay_limit=1, bot_delay=0.0, round_start_catch_up=round_start
        )

        async def run(
            name: str,
            key: str,
            choice: TableChoice,
            between: Callable[[PersonScreen], Awaitable[None]],
            **options: object,
        ) -> None:
            with trio.CancelScope() as games[key]:  # the game closes after a step away
                async with open_network_session(
                    "127.0.0.1",
                    host.port,
                    choice,
                    name=name,
                    data_dir=tmp_path / name,
                    store=stores[name],
                    **options,
                ) as session:
                    screens[key] = PersonScreen(session)
                    await screens[key].play(between)
            done[key].set()

        async def bruno_steps_away(screen: PersonScreen) -> None:
            view = screen.session.view
            if not stepped.is_set() and view is not None and view.plays and not view.round_over:
                stepped.set()
                await screen.type("quit")
                await screen.type("away")
                games["Bruno"].cancel()

        async def bruno_is_back(screen: PersonScreen) -> None:
            view = screen.session.view
            if view is not None and view.my_turn and not view.hand:  # nothing to play from
                raise AssertionError(f"'Your turn.' for a seat he does not play:\n{screen.text}")
            if BACK in screen.text:
                back.set()
            if computer_round and enough(screen.text, computer_round[0]):
                over.set()

        async def ada_waits_for_bruno(screen: PersonScreen) -> None:
            if back.is_set() or "Bruno (computer) plays" not in screen.text:
                return
            if not coming_back.is_set():
                coming_back.set()
                assert screen.session.view is not None
                computer_round.append(screen.session.view.round_number)
                (record,) = stores["Bruno"].records()
                again = TableChoice(table_id=record.table_id, seat=record.seat)
                nursery.start_soon(
                    partial(run, "Bruno", "Bruno again", again, bruno_is_back, resume_from=record)
                )
            await back.wait()

        async def match_ends() -> None:
            for event in done.values():
                await event.wait()
            over.set()

        with trio.fail_after(60):
            choice = TableChoice(create=create(rules, blind=blind))
            nursery.start_soon(run, "Ada", "Ada", choice, ada_waits_for_bruno)
            while "Ada" not in screens or screens["Ada"].session.table_id is None:
                await trio.sleep(0.01)
            table = TableChoice(table_id=screens["Ada"].session.table_id)
            nursery.start_soon(run, "Bruno", "Bruno", table, bruno_steps_away)
            nursery.start_soon(match_ends)
            await over.wait()
        nursery.cancel_scope.cancel()
    return AwayAndBack(screens, computer_round[0])


async def test_back_far_behind_in_a_round_whose_start_he_saw_his_deal_check_covers_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bruno steps away in round 1 after its first play; a computer plays for him, and he
    takes his seat back further behind than the host replays (here 1 event). Our host sent
    the table as it stands, and his client said "the deal of a round under way cannot be
    checked here": the round he came back to went unchecked. Now the host keeps every event
    since the latest ``round_commit`` and replays a seat that saw it (protocol.md 3.4): his
    deal check covers the round, "Deal check: verified" when round 1 ends."""
    checked = "Deal check: verified"
    # Round 1 is played: a client taking the seat back from disk saw the match's start only,
    # so after a void round 1 (about 1 deal in 600) the host rightly sends the redeal's
    # start by snapshot ("between two rounds", its deal checked all the same), not the
    # replay this test is about.
    no_kings_void(monkeypatch)

    def round_checked(text: str, computer_round: int) -> bool:
        return checked in text.partition(BACK)[2]

    seen = await bruno_away_then_back(
        tmp_path, RuleSet.of(2, 1), blind=False, enough=round_checked, round_start=True
    )
    bruno, away = seen.screens["Bruno again"], seen.computer_round
    assert CAUGHT_UP_BY_SNAPSHOT not in bruno.text, bruno.text
    assert CAUGHT_UP_BETWEEN_ROUNDS not in bruno.text, bruno.text  # a replay
    round_back = bruno.text.partition(BACK)[2].partition(f"Round {away + 1} ")[0]
    assert f"Round {away} score sheet" in round_back, bruno.text
    assert checked in round_back, bruno.text


def round_header(text: str, round_no: int) -> int:
    """Where round ``round_no``'s first board begins on a screen (a redeal's says so)."""
    found = re.search(rf"Round {round_no}( \(round {round_no - 1} dealt again\))?  dealer", text)
    assert found is not None, text
    return found.start()


def round_text(text: str, round_no: int) -> str:
    """What a screen printed from round ``round_no``'s board to its score sheet (or the end)."""
    start = round_header(text, round_no)
    end = text.find(f"Round {round_no} score sheet", start)
    return text[start : end if end >= 0 else len(text)]


def match_summary(screen: PersonScreen) -> str:
    """How the match's last line counts its rounds: ``after 2 rounds (1 of them void).``"""
    (summary,) = [line for line in screen.lines if "the match," in line]
    counted = summary[summary.index("after ") :]
    return counted[: counted.index(".") + 1]  # (what follows says where a computer played)


@pytest.mark.parametrize("older_host", [False, True], ids=["host", "older host"])
async def test_caught_up_by_snapshot_after_a_void_and_a_stand_in_reads_as_if_he_had_seen_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, older_host: bool
) -> None:
    """Round 1 is dealt void (three kings on the table), Bruno steps away in round 2 and a
    computer plays for him, and he comes back caught up by snapshot. His screen showed the
    computer's play as his own ("Last  Bruno plays") and ended "after 2 rounds." where Ada's
    read "after 1 round (1 void).": the snapshot did not say either; and it read a plain
    "Round 2" for the redeal. A host from before ``stand_ins``, ``redeal`` and ``makers``
    (its snapshots leave them out) still catches him up, with that plain "Round 2" alone."""
    round_id, host_seed, seed = kings_on_the_table(2)
    plan_first_round(monkeypatch, round_id, host_seed)
    monkeypatch.setattr(network_session, "secrets", SeededSecrets(seed))
    if older_host:
        snapshot = Table.snapshot

        def without_new_keys(table: Table, seat: int) -> m.Snapshot:
            return replace(snapshot(table, seat), stand_ins=(), redeal=False, makers=())

        monkeypatch.setattr(Table, "snapshot", without_new_keys)

    seen = await bruno_away_then_back(tmp_path, RuleSet.of(2, 1), blind=False)
    ada, bruno = seen.screens["Ada"], seen.screens["Bruno again"]
    # He steps away in round 2, the redeal (or later, should the random redeal be void too).
    away = seen.computer_round
    assert "kings on the table (" in ada.text, ada.text  # round 1 is void, as planned
    # The redeal keeps its number, as verify and history count, and says it is the redeal.
    redeal = f"Round {away} (round {away - 1} dealt again)  dealer"
    assert redeal in ada.text, ada.text
    assert CAUGHT_UP_BY_SNAPSHOT in bruno.text, bruno.text  # not a replay
    # The round he is back in is the round Ada plays: round 2 (the void one counted).
    assert f"{BACK} at table 1 (127.0.0.1:" in bruno.text
    (back_line,) = [line for line in bruno.lines if line.startswith(BACK)]
    assert back_line.endswith(f", round {away}."), back_line
    # His board names round 2 as the redeal, as Ada's does (it read a plain "Round 2").
    assert (redeal not in bruno.text) if older_host else (redeal in bruno.text), bruno.text
    # The computer's play for him, on his board as on Ada's, is the computer's.
    shown = round_text(bruno.text, away)
    assert "Last      Bruno (computer) plays" in shown, bruno.text
    assert "Bruno (computer) plays" in round_text(ada.text, away), ada.text
    # The match's last line counts the rounds as Ada's does: the void apart.
    assert "void" in match_summary(ada), ada.text
    assert match_summary(bruno) == match_summary(ada), bruno.text


async def test_caught_up_by_snapshot_while_sitting_a_blind_round_out_never_reads_your_turn(
    tmp_path: Path,
) -> None:
    """Bruno steps away in round 1 of a blind table (it is void), a computer plays his seat
    in round 2, and he comes back during it, caught up by snapshot. The snapshot did not say
    the round's people and left his hand empty, so his screen read "Your turn." with no card
    to play while the computer played his seat; it now names them (``people``)."""

    def plays_again(text: str, computer_round: int) -> bool:
        return "You play" in text.partition(f"Round {computer_round} score sheet")[2]

    seen = await bruno_away_then_back(
        tmp_path,
        RuleSet.of(2, 11),  # round 2 does not end the match
        blind=True,
        enough=plays_again,
    )
    ada, bruno = seen.screens["Ada"], seen.screens["Bruno again"]
    # Round 2, where a computer plays for him (or later, after a random deal that was void).
    sat = seen.computer_round
    # Not a replay: the snapshot from round 2's start (9.7), round 1 over in it.
    assert CAUGHT_UP_BETWEEN_ROUNDS in bruno.text, bruno.text
    (back_line,) = [line for line in bruno.lines if line.startswith(BACK)]
    assert back_line.endswith(f", round {sat}."), back_line
    # Told once that a computer plays his seat this round, as a seat that saw the round begin
    # reads it; never "Your turn." (his screen said it, with no cards, while the computer
    # played), and the toolbar says the computer plays for him.
    sat_out = [line for line in bruno.lines if line.startswith("A computer plays your seat")]
    assert sat_out == [
        "A computer plays your seat this round; you play again from the next one."
    ], bruno.text
    assert "Your turn." not in round_text(bruno.text, sat), bruno.text
    # (caught up from the round's start, his first toolbars are round 1's end, hidden replay)
    sat_bars = [t for t in bruno.toolbars if t.startswith(f" Round {sat} ")]
    sat_bars = sat_bars[: next(i for i, t in enumerate(sat_bars) if "round over" in t)]
    assert any("a computer plays for you" in t for t in sat_bars), sat_bars
    assert not any("YOUR TURN" in t for t in sat_bars), sat_bars
    # The computer's plays for him, those before he came back and after, are the computer's
    # on his screen as on Ada's; he plays again from round 3.
    for screen in (ada, bruno):
        shown = round_text(screen.text, sat)
        assert "Bruno (computer) plays" in shown, screen.text
        assert "Bruno plays" not in shown, screen.text
    assert "You play" not in round_text(bruno.text, sat), bruno.text
    assert "Last      Bruno (computer) plays" in round_text(bruno.text, sat), bruno.text
    later = bruno.text[round_header(bruno.text, sat + 1) :]
    assert "You play" in later, bruno.text  # his own plays again, as he reads them
    assert "(computer)" not in later, bruno.text


async def test_caught_up_by_snapshot_after_missing_his_return_reads_brunos_own_play_as_his(
    tmp_path: Path,
) -> None:
    """Bruno steps away (a computer plays for him) and Ada sees it; her network goes down, he
    takes his seat back and plays while she is gone, and she is caught up by snapshot while
    the table waits for Bruno. His next play read on her screen "Bruno (computer) plays", as
    if a computer still played for him (the snapshot did not say where a computer stands
    in), and her screen showed no table after "it sent the table as it stands" until she
    typed ``board``. Bruno reads his play as his; so does she now, after the board."""
    store = SeatStore(tmp_path / "Bruno")
    screens: dict[str, PersonScreen] = {}
    stepped, waiting, released = trio.Event(), trio.Event(), trio.Event()
    scopes: dict[str, trio.CancelScope] = {}
    async with trio.open_nursery() as nursery:
        # Computers move at once but for a moment, so the match lasts until Bruno is back.
        host = await start_host(
            nursery, replay_limit=1, bot_delay=0.05, grace=0.2, round_start_catch_up=False
        )
        network = CutOff(host.port)

        async def run(
            key: str,
            choice: TableChoice,
            between: Callable[[PersonScreen], Awaitable[None]],
            **options: object,
        ) -> None:
            name = key.split(maxsplit=1)[0]
            with trio.CancelScope() as scopes[key]:
                async with open_network_session(
                    "127.0.0.1", host.port, choice, name=name, **options
                ) as session:
                    screens[key] = PersonScreen(session)
                    await screens[key].play(between)

        async def ada_sees(screen: PersonScreen) -> None:
            if "Table: Bruno stepped away" in screen.text:
                stepped.set()

        async def bruno_steps_away(screen: PersonScreen) -> None:
            view = screen.session.view
            if view is not None and view.round_number and view.plays and not stepped.is_set():
                await screen.type("quit")
                await screen.type("away")
                scopes["Bruno"].cancel()

        async def bruno_back(screen: PersonScreen) -> None:
            view = screen.session.view
            since_back = screen.text.partition(BACK)[2].splitlines()
            if view is not None and view.my_turn and plays_of("You", since_back):
                waiting.set()  # his own play made; the table now waits for his next one
                await released.wait()

        with trio.fail_after(60):
            ada_choice = TableChoice(create=create(RuleSet.of(2, 11), blind=False))
            nursery.start_soon(partial(run, "Ada", ada_choice, ada_sees, connector=network.connect))
            await until(lambda: "Ada" in screens and screens["Ada"].session.table_id)
            table = TableChoice(table_id=screens["Ada"].session.table_id)
            nursery.start_soon(
                partial(
                    run,
                    "Bruno",
                    table,
                    bruno_steps_away,
                    data_dir=tmp_path / "Bruno",
                    store=store,
                )
            )
            await stepped.wait()
            await network.cut()
            (record,) = store.records()
            again = TableChoice(table_id=record.table_id, seat=record.seat)
            nursery.start_soon(
                partial(
                    run,
                    "Bruno again",
                    again,
                    bruno_back,
                    data_dir=tmp_path / "Bruno",
                    store=store,
                    resume_from=record,
                )
            )
            await waiting.wait()
            network.up = True
            ada = screens["Ada"]
            await until(lambda: CAUGHT_UP_BY_SNAPSHOT in ada.text)
            await until(lambda: ada.controller.state.view is ada.session.mirror.view)
            caught_up = ada.text.partition(CAUGHT_UP_BY_SNAPSHOT)[2]
            assert ada.session.view is not None
            turn = ada.session.view.to_move
            made = len(plays_of("You", screens["Bruno again"].lines))
            released.set()

            def after() -> list[str]:
                return ada.text.partition(CAUGHT_UP_BY_SNAPSHOT)[2].splitlines()

            await until(lambda: plays_of("Bruno", after()))
            line = plays_of("Bruno", after())[0]
            bruno = screens["Bruno again"]
            await until(lambda: len(plays_of("You", bruno.lines)) > made)
            his = plays_of("You", bruno.lines)[made]
        nursery.cancel_scope.cancel()
    assert turn == 1, ada.text  # the table waited for Bruno as she came back
    # The table as it stands, drawn at once although it is his turn, not hers (she read
    # "it sent the table as it stands" and no table until she typed `board`).
    assert re.search(r"^Round \d+.*  dealer ", caught_up, re.MULTILINE), ada.text
    # Bruno's own play: his on her screen as on his, where it reads "You play".
    assert line.startswith("Bruno plays "), ada.text
    assert line == his.replace("You play ", "Bruno plays ", 1), bruno.text


def plays_of(name: str, lines: list[str]) -> list[str]:
    """The lines that say a play of ``name``'s seat as it is made (not a board's ``Last``);
    ``You``: the reader's own plays, "You play"."""
    if name == "You":
        return [x for x in lines if x.startswith("You play ")]
    return [x for x in lines if x.startswith((f"{name} plays ", f"{name} (computer) plays "))]


async def test_caught_up_by_snapshot_after_a_seat_changed_hands_names_each_play_by_its_maker(
    tmp_path: Path,
) -> None:
    """While Ada's network is down, Bruno leaves in the middle of a round, a computer plays
    his open seat, and Carla takes it and plays. Caught up by snapshot, Ada's ``log`` named
    every play of that seat Carla's, Bruno's and the computer's too, where a player who saw
    the events reads Bruno, then bot 1, then Carla."""
    screens: dict[str, PersonScreen] = {}
    ada_cut, cut_done = trio.Event(), trio.Event()
    carla_waits, released = trio.Event(), trio.Event()
    left: list[bool] = []
    async with trio.open_nursery() as nursery:
        host = await start_host(
            nursery, replay_limit=1, bot_delay=0.2, grace=0.2, round_start_catch_up=False
        )
        network = CutOff(host.port)

        async def run(
            name: str,
            choice: TableChoice,
            between: Callable[[PersonScreen], Awaitable[None]],
            **options: object,
        ) -> None:
            async with open_network_session(
                "127.0.0.1", host.port, choice, name=name, **options
            ) as session:
                screens[name] = PersonScreen(session)
                await screens[name].play(between)

        async def ada_plays(screen: PersonScreen) -> None:
            pass

        async def bruno_leaves(screen: PersonScreen) -> None:
            view = screen.session.view
            if view is None or view.round_over:
                return
            if view.my_turn and any(r.seat == 1 for r in view.plays) and not ada_cut.is_set():
                ada_cut.set()  # his first play made: Ada's network goes down on his turn
                await cut_done.wait()
            elif not view.my_turn and cut_done.is_set() and not left:
                left.append(True)
                await screen.type("quit")
                await screen.type("leave")

        async def carla_plays(screen: PersonScreen) -> None:
            view = screen.session.view
            if view is not None and view.my_turn and plays_of("You", screen.lines):
                carla_waits.set()  # her own play made; the table waits for her next one
                await released.wait()

        with trio.fail_after(60):
            ada_choice = TableChoice(create=create(RuleSet.of(2, 11), blind=False))
            nursery.start_soon(
                partial(run, "Ada", ada_choice, ada_plays, connector=network.connect)
            )
            await until(lambda: "Ada" in screens and screens["Ada"].session.table_id)
            table = TableChoice(table_id=screens["Ada"].session.table_id)
            kept = {"data_dir": tmp_path / "Bruno", "store": SeatStore(tmp_path / "Bruno")}
            nursery.start_soon(partial(run, "Bruno", table, bruno_leaves, **kept))
            await ada_cut.wait()
            await network.cut()
            cut_done.set()
            host_table = host.tables[screens["Ada"].session.table_id].table
            await until(lambda: left and host_table.seats[1].name is None)  # his seat is open

            def plays_at_seat_1() -> int:
                return sum(1 for p in host_table.snapshot(0).plays if p.seat == 1)

            before = plays_at_seat_1()
            await until(lambda: plays_at_seat_1() > before)  # a computer's, for nobody
            nursery.start_soon(run, "Carla", table, carla_plays)
            await carla_waits.wait()
            network.up = True
            ada = screens["Ada"]
            await until(lambda: CAUGHT_UP_BY_SNAPSHOT in ada.text)
            await until(lambda: ada.controller.state.view is ada.session.mirror.view)
            log = await ada.type("log")
            released.set()
        nursery.cancel_scope.cancel()
    seat_1 = [line.split(" plays ")[0] for line in log if not line.startswith(("You play", "Ada"))]
    assert seat_1 == sorted(seat_1, key=["Bruno", "bot 1", "Carla"].index), log
    assert set(seat_1) == {"Bruno", "bot 1", "Carla"}, log
