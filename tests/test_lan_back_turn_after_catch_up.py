"""A person whose link drops at their turn, and who is back after a computer played for them:
the screen tells what was missed, then the table as it is once the host has caught the client
up; never a board nor "Your turn." of the table as it was when the link dropped (virtual
time, memory streams)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
import trio.testing
from hosting import Network, create, start_memory_host
from person_screen import PersonScreen

from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.session import ConnectionState
from scopa_net.rules import RuleSet


def my_turn(screen: PersonScreen) -> bool:
    view = screen.controller.state.view
    return view is not None and view.my_turn and not view.round_over


def reconnecting(screen: PersonScreen) -> bool:
    return screen.controller.state.connection is ConnectionState.RECONNECTING


@asynccontextmanager
async def cut_at_her_turn(
    nursery: trio.Nursery, *, grace: float, blind: bool = False
) -> AsyncIterator[tuple[PersonScreen, Network]]:
    """Ada against a computer at a host whose grace period is ``grace``; her link drops at
    her turn, and her client is trying to get back: her screen and her network."""
    _host, net = await start_memory_host(nursery, grace=grace, bot_delay=0.5)
    choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1, blind=blind))
    async with open_network_session("mem", 0, choice, name="Ada", connector=net.connect) as session:
        ada = PersonScreen(session)
        await ada.until_shown(my_turn, 60)
        await net.go_down()
        await ada.until_shown(reconnecting, 60)
        yield ada, net


async def lines_once_back(*, blind: bool, away: float) -> list[str]:
    """What Ada's screen printed from her return on: her link to a host whose grace period
    is 2 s drops at her turn, against a computer, and comes back ``away`` seconds later."""
    async with trio.open_nursery() as nursery:
        async with cut_at_her_turn(nursery, grace=2.0, blind=blind) as (ada, net):
            with trio.move_on_after(away):  # past the grace: a computer plays her seat
                await ada.until_shown(lambda _: False, 30)
            net.up = True
            before = len(ada.lines)
            with trio.move_on_after(30):  # back, caught up, and the table as it is
                await ada.until_shown(lambda _: False, 60)
        nursery.cancel_scope.cancel()
    after = ada.lines[before:]
    back = next(i for i, line in enumerate(after) if "Connection: connected" in line)
    return after[back:]


async def test_your_turn_after_a_cut_is_said_of_the_table_as_it_is_now(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Ada's link drops at her turn; a computer plays for her past the host's grace period;
    she is back. Her screen said "Your turn." as soon as it read "Connection: connected",
    of the board she left, and only then the plays made while she was away: the turn it
    spoke of was over. Then each of those plays drew a board ending "Your turn." for a turn
    the computer took."""
    after = await lines_once_back(blind=False, away=4)
    missed = [i for i, line in enumerate(after) if "(computer) plays" in line]
    assert missed, after  # a computer played for her while she was away
    turns = [i for i, line in enumerate(after) if line == "Your turn."]
    assert turns, after  # the table is at her turn again: the screen says so
    assert turns[0] > max(missed), after
    assert len(turns) == 1, after  # no board of a turn a computer took while away


async def test_back_after_a_blind_round_went_void_reads_the_void_then_the_new_round(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """At a blind table the round Ada left at her turn is void past the grace period, and a
    computer plays her seat in the next. Back, she read "Your turn." of the void round before
    the line saying it was void: now the void, the new round's start, then its board."""
    after = await lines_once_back(blind=True, away=6)

    def first(pattern: str) -> int:
        found = [i for i, line in enumerate(after) if re.match(pattern, line)]
        assert found, (pattern, after)
        return found[0]

    void = first(r"Round \d+ is void: you were away past your grace period")
    began = first(r"Round \d+ \(round \d+ dealt again\) began, dealt by ")
    board = first(r"Round \d+ \(round \d+ dealt again\)  dealer")
    assert void < began < board, after
    assert "Your turn." not in after[:board], after


async def test_a_move_typed_while_the_link_was_gone_is_played_with_no_board_of_its_own(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Ada types her card while her link is gone ("queued: ..."); back within the grace
    period, it is played: the screen says "You play ..." and goes on as after any play of
    hers, the board drawn when her turn comes again, not once more for her own move."""
    async with trio.open_nursery() as nursery:
        async with cut_at_her_turn(nursery, grace=60.0) as (ada, net):
            view = ada.session.view
            assert view is not None
            before = len(ada.lines)
            nursery.start_soon(ada.type, legal_plays(view)[0].text())  # answered once back
            await trio.sleep(1)
            net.up = True
            with trio.move_on_after(10):  # back, her move played, the computer's, her turn
                await ada.until_shown(lambda _: False, 60)
        nursery.cancel_scope.cancel()
    after = ada.lines[before:]
    assert after[0].startswith("queued: "), after
    mine = next(i for i, line in enumerate(after) if line.startswith("You play "))
    theirs = next(i for i, line in enumerate(after) if line.startswith("bot 1 plays "))
    assert mine < theirs, after
    assert not [line for line in after[:theirs] if line.startswith("Round 1  dealer")], after
    assert after.count("Your turn.") == 1, after  # her turn again, after the computer's play
