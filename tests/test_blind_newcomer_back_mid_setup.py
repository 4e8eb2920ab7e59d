"""A newcomer back by snapshot while the next blind round is being set up without them.

Carla took Bruno's seat at a blind table while round 2 was under way (a computer finished
that round for her, 9.7); her client died, and she took her seat back while round 3, dealt
without her, waited for Ada's key. Her screen is read as a person reads it: the round she is
back in, and that a computer plays her seat in it, never "Your turn." with no cards.

Real host on loopback TCP that replays a resume at most one missed event (``replay_limit``),
so Carla is caught up by snapshot; Ada's client is real, her key for round 3 held while Carla
comes back (a busy machine: the round's setup waits for her key).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from held_setup import ada_and_bruno_in_play, plays_her_turns
from person_screen import Player, sit, until

from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet


async def test_a_newcomer_back_by_snapshot_while_a_blind_round_without_her_is_set_up(
    tmp_path: Path,
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            held = await ada_and_bruno_in_play(nursery, tmp_path, RuleSet.of(2, 11))
            host, ada, bruno, ada_link = held.host, held.ada, held.bruno, held.link
            table_id = ada.session.table_id
            table = host.tables[table_id].table
            left_in = held.in_play  # 1, or the redeal after a deal void for its kings
            await bruno.type("quit")
            await bruno.type("leave")  # round 1 is void; his seat is open, a computer's
            await until(
                lambda: (
                    table.blind_round is not None
                    and table.blind_round.round_no > left_in
                    and table.blind_round.people == (0,)
                    and table.phase.value == "play"  # dealt
                )
            )
            computer = table.round_no  # the next round (one later after a kings void)
            carla = await sit(nursery, host, "Carla", tmp_path, table_id=table_id)
            await until(lambda: "A computer finishes this round for you" in carla.text)
            ada_link.held = True  # from now her key for the next round waits
            carla.crash()  # kill -9: past her grace time round 3 is dealt without her
            await until(lambda: table.seats[1].stand_in)
            nursery.start_soon(plays_her_turns, ada.session)  # round 2 goes on, to its end
            await until(
                lambda: (
                    table.blind_round is not None
                    and table.blind_round.round_no == computer + 1
                    and table.blind_round.people == (0,)
                    and table.phase.value == "keys"  # not dealt: it waits for Ada's key
                )
            )
            (record,) = SeatStore(tmp_path / "Carla").records()
            back = await sit(
                nursery, host, "Carla", tmp_path, table_id=table_id, resume_from=record
            )
            await until(lambda: "Back in your seat" in back.text)
            ada_link.sent.set()
            await until(lambda: table.round_no >= computer + 1 and table.phase.value == "play")
            await until(lambda: len(table.match.round.plays) >= 4 if table.match.round else False)
            # Her board is the table's: it comes to hold what Ada's holds.
            await until(lambda: back.session.view.table == ada.session.view.table)
            nursery.cancel_scope.cancel()
    text = back.text
    shown = text[text.index("Back in your seat") :]
    (back_line,) = [line for line in back.lines if line.startswith("Back in your seat")]
    assert back_line.endswith(f", round {computer}."), text  # the last round dealt, over
    assert f"Round {computer} score sheet" in shown, text  # its end, as it ended
    # Round 3 from its deal, on the table's cards, the computer's for her: never her turn.
    round_3 = shown[shown.index(f"Round {computer + 1}  dealer") :]
    assert "Your turn." not in shown, text
    assert "A computer plays your seat this round" in round_3, text
    assert "Carla (computer) plays" in round_3, text
    assert "Carla plays" not in round_3, text


async def newcomer_during_setup(tmp_path: Path, *, dies: bool) -> tuple[Player, int]:
    """Ada alone at a blind table (Bruno left in round 1, his seat open); round 3 waits for
    her key while Carla takes the open seat; with ``dies``, Carla's client dies then and she
    takes her seat back from disk, round 3 still waiting. Round 3 is then dealt and played a
    few plays. Returns Carla's screen (the one back, with ``dies``) and the round she sat
    down in (3; one later after a deal void for its kings in round 1, about 1 in 600)."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            held = await ada_and_bruno_in_play(nursery, tmp_path, RuleSet.of(2, 11))
            host, ada, bruno, ada_link = held.host, held.ada, held.bruno, held.link
            table_id = ada.session.table_id
            table = host.tables[table_id].table
            left_in = held.in_play  # 1, or the redeal after a deal void for its kings
            await bruno.type("quit")
            await bruno.type("leave")  # round 1 is void; his seat is open, a computer's
            await until(lambda: table.round_no > left_in and table.phase.value == "play")
            computer = table.round_no  # the next round (one later after a kings void)
            ada_link.held = True  # from now her key for the next round waits
            nursery.start_soon(plays_her_turns, ada.session)
            await until(
                lambda: (
                    table.blind_round is not None
                    and table.blind_round.round_no == computer + 1
                    and table.phase.value == "keys"  # not dealt: it waits for Ada's key
                )
            )
            carla = await sit(nursery, host, "Carla", tmp_path, table_id=table_id)
            await until(lambda: "You sit at table" in carla.text)
            if dies:
                carla.crash()
                (record,) = SeatStore(tmp_path / "Carla").records()
                carla = await sit(
                    nursery, host, "Carla", tmp_path, table_id=table_id, resume_from=record
                )
                await until(lambda: "Back in your seat" in carla.text)
            assert table.phase.value == "keys"  # round 3 still waits for Ada's key
            ada_link.sent.set()
            await until(lambda: table.round_no == computer + 1 and table.phase.value == "play")
            await until(lambda: len(table.match.round.plays) >= 4 if table.match.round else False)
            # Her board is the table's: it comes to hold what Ada's holds (round 3's plays
            # applied to round 2's board, as it was, never would).
            await until(lambda: carla.session.view.table == ada.session.view.table)
            nursery.cancel_scope.cancel()
    return carla, computer + 1


@pytest.mark.parametrize("dies", [False, True], ids=["sits down", "sits down, dies, back"])
async def test_a_newcomer_who_sits_down_while_a_blind_round_is_set_up_follows_it_as_the_computers(
    tmp_path: Path, dies: bool
) -> None:
    """Carla takes the open seat while round 3 is being set up (its first deal not made),
    and (``dies``) takes it back from disk before it is dealt. Her snapshot was of round 2
    over, with nothing of round 3, so her client took round 3's plays for more plays of
    round 2: "Carla plays Js♠ x Jb♣" (a computer's, for her) on round 2's board, "The round
    is over.", a board that never held the table's cards. She now reads round 3's board
    from its deal, and her seat's plays as the computer's."""
    carla, sat_in = await newcomer_during_setup(tmp_path, dies=dies)
    text = carla.text
    assert f"Round {sat_in}  dealer" in text, text
    round_3 = text[text.index(f"Round {sat_in}  dealer") :]
    assert "A computer plays your seat this round" in round_3, text
    assert "Carla (computer) plays" in round_3, text
    assert "Carla plays" not in text, text
    assert "Your turn." not in text, text
    # Every board she was shown of round 3 is round 3's, as Ada's are (not round 2's).
    assert "The round is over." not in round_3, text
    assert "Round 2 (round 1 dealt again)  dealer" not in round_3, text
