"""The names a person reads stay true after someone leaves, after a client comes back from
disk, and in a rematch (over loopback TCP, real host, real sessions, the terminal client's
controller in front of each, read as a person reads it).

Three friends and a computer player, as ``scopa-net play --lan --players 4 --humans 3`` seats
them: Ada made the table, Bruno and Carla joined it.
"""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import in_play, play_when_asked, sit, take_back, until

from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


async def three_friends(nursery: trio.Nursery, host: Host, tmp: Path, *, blind: bool = False):
    """Ada, Bruno and Carla at a new table with a computer player, once the first deal is
    on every screen."""
    rules = RuleSet.of(4, 11)
    ada = await sit(nursery, host, "Ada", tmp, create=create(rules, bots=1, blind=blind))
    table = ada.session.table_id
    bruno = await sit(nursery, host, "Bruno", tmp, table_id=table)
    carla = await sit(nursery, host, "Carla", tmp, table_id=table)
    friends = [ada, bruno, carla]
    await until(lambda: all(p.controller.state.view is not None for p in friends))
    return friends


async def test_a_client_taken_back_from_disk_reads_every_seat_as_it_is(tmp_path: Path) -> None:
    """Carla's client is killed and she runs the same command again: ``who`` names Ada (there
    all along) and the computer player as they are, not as open seats; a rename she reads
    afterwards is a rename, not a newcomer sitting down."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada, _, carla = await three_friends(nursery, host, tmp_path)
        carla.crash()
        await until(lambda: "Carla lost the connection" in ada.text)
        carla = await take_back(nursery, host, carla, tmp_path)
        assert await carla.type("who") == [
            "Seat 0: Ada, with Carla",
            "Seat 1: Bruno, with bot 3",
            "Seat 2: Carla (you), with Ada",
            "Seat 3: bot 3, with Bruno; computer player",
        ]
        await ada.type("name Adalina")
        await until(lambda: "Table: Ada is now called Adalina" in carla.text)
        assert "sat down" not in carla.text
        nursery.cancel_scope.cancel()


async def test_score_in_a_rematch_has_no_sheet_of_the_match_before(tmp_path: Path) -> None:
    """Ada and Bruno play a match to 1 and agree to play again: before the new match's first
    round is scored, ``score`` says there is no sheet yet and gives the match score 0-0, not
    the last round of the match before."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        ada = await sit(
            nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 1)), offer_rematch=True
        )
        bruno = await sit(
            nursery, host, "Bruno", tmp_path, table_id=ada.session.table_id, offer_rematch=True
        )
        async with trio.open_nursery() as both:
            for player in (ada, bruno):
                both.start_soon(play_when_asked, player)
        for player in (ada, bruno):
            await until(lambda p=player: p.controller.state.asking.value == "rematch")
            await player.type("yes")
        await until(lambda: "a new match begins" in bruno.text)
        await until(lambda: not bruno.controller.state.match_over)
        shown = await bruno.type("score")
        assert not any("Round 1 score sheet" in line for line in shown), shown
        assert shown == [
            "No round of this match is scored yet: no score sheet.",
            "Match score: Ada 0, Bruno 0 (playing to 1).",
        ]
        nursery.cancel_scope.cancel()


async def test_a_round_void_for_someone_who_left_names_them_not_the_computer(
    tmp_path: Path,
) -> None:
    """At a blind table Carla leaves for good mid round 1 (or mid the redeal of a deal void
    for its kings) and a computer player takes her
    seat: the others read that the round is void because Carla left, and the deal check
    says that Carla left the table (it said "Carla was absent"); the seat itself is the
    computer's from then on."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada, bruno, carla = await three_friends(nursery, host, tmp_path, blind=True)
        # Round 1 in play (or its redeal after a deal void for its kings, about 1 in 600).
        await until(lambda: in_play(carla))
        left_in = host.tables[carla.session.table_id].table.round_no
        await carla.type("quit")
        await carla.type("leave")
        for player in (ada, bruno):
            await until(lambda p=player: "Deal check: void: " in p.text)
            assert "Table: Carla left the table; a computer player takes the seat" in player.lines
            void = next(line for line in player.lines if "is void: Carla" in line)
            assert void.startswith(f"Round {left_in} is void: Carla left the table"), void
            check = next(line for line in player.lines if line.startswith("Deal check: void: "))
            # "void: Carla was absent" read as if she might come back: she left for good.
            assert check.startswith("Deal check: void: Carla left the table"), check
            assert player.session.names[2] == "bot 2"
        nursery.cancel_scope.cancel()
