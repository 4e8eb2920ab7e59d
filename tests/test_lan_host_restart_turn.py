"""A person whose turn it is when their host restarts: the screen says "Your turn." once
more when the host is back, as after every other event that makes it their turn (virtual
time, memory streams)."""

from __future__ import annotations

import trio
import trio.testing
from hosting import (
    Network,
    create,
    serve_journal_in_virtual_time,
    start_journal_host_to_stop,
)
from person_screen import PersonScreen

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.rules import RuleSet


def my_turn(screen: PersonScreen) -> bool:
    view = screen.controller.state.view
    return view is not None and view.my_turn and not view.round_over


async def test_a_person_whose_turn_it_is_reads_your_turn_when_the_host_is_back(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    """Ada plays a computer; at her turn the host is stopped and started again. Her toolbar
    said YOUR TURN when her client was back, but no line did: the screen says it once."""
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host, first = await start_journal_host_to_stop(nursery, db)
        net = Network(host, nursery)
        async with open_network_session(
            "mem",
            0,
            TableChoice(create=create(RuleSet.of(2, 11), bots=1)),
            name="Ada",
            connector=net.connect,
        ) as session:
            ada = PersonScreen(session)
            await ada.until_shown(my_turn, 60)
            await host.shutdown()
            net.up = False
            first.cancel()
            await trio.sleep(1)
            before = len(ada.lines)
            net.host = await nursery.start(serve_journal_in_virtual_time, db)
            net.up = True
            with trio.move_on_after(20):  # every event until the host is back and after
                await ada.until_shown(lambda _: False, 30)
            after = ada.lines[before:]
            assert any("back" in line or "Connection: connected" in line for line in after), after
            assert after.count("Your turn.") == 1, after
            assert after.index("Your turn.") > max(
                i for i, line in enumerate(after) if line.startswith("Connection:")
            ), after
        nursery.cancel_scope.cancel()
