"""Stepping away from a blind table where nobody else plays: the words a person reads say the
table waits for them, because no computer can deal a blind round (protocol.md 9.1, 9.7); with
another person there, a computer plays the seat as before. Real host over loopback TCP, real
sessions, the terminal client's controller in front of each, read as a person reads it.

Found at a busy club night (notes s44, F2): Eve, alone with three computer players at a
``--blind`` table, stepped away and read "a computer plays it from now until you come back";
70 s later she came back to the very start of the next round: nothing had been played.
"""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import in_play, sit, until

from scopa_net.rules import RuleSet
from scopa_net.server.table import Phase


async def test_alone_with_computers_at_a_blind_table_stepping_away_says_the_table_waits(
    tmp_path: Path,
) -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        rules = RuleSet.of(3, 11)
        eve = await sit(nursery, host, "Eve", tmp_path, create=create(rules, bots=2, blind=True))
        # A round in play (round 1; the redeal after a deal void for its kings, 1 in 600).
        await until(lambda: in_play(eve))
        table = host.tables[eve.session.table_id].table
        stepped_in = table.round_no
        asked = await eve.type("quit")
        said = await eve.type("away")
        await until(lambda: table.seats[eve.session.seat].stand_in)
        await trio.sleep(1)  # time for many computer moves at 0.01 s each, were it dealt
        # The host's rule (protocol.md 9.1): the void round is not dealt again without her.
        assert (table.phase, table.round_no, table.needs_round) == (
            Phase.BETWEEN,
            stepped_in,
            False,
        )
        nursery.cancel_scope.cancel()
    assert asked[-1] == (
        "Leave for good (a computer player takes your seat) or step away (your seat is kept "
        "for you; nobody else plays at this blind table, so it waits for you, no card played, "
        "until `scopa-net join` takes it back)? Type leave, away, or stay."
    )
    assert said[0].startswith(
        "Stepping away; your seat is kept, and the table waits for you: a blind round is dealt "
        "by the people at it, and nobody else plays there. Take it back with: "
    )
    assert "a computer plays it" not in "\n".join(said)


async def test_with_another_person_at_a_blind_table_a_computer_plays_the_seat(
    tmp_path: Path,
) -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        rules = RuleSet.of(3, 11)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(rules, bots=1, blind=True))
        bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=ada.session.table_id)
        await until(lambda: ada.controller.state.view is not None)
        await until(lambda: bruno.controller.state.view is not None)
        asked = await ada.type("quit")
        said = await ada.type("away")
        nursery.cancel_scope.cancel()
    assert asked[-1].startswith(
        "Leave for good (a computer player takes your seat) or step away (your seat is kept "
        "for you, a computer playing it at once until "
    )
    assert said[0].startswith(
        "Stepping away; your seat is kept, and a computer plays it from now until you come back."
    )
