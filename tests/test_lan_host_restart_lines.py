"""What friends read about each other when their host restarts (virtual time, memory streams).

A host that starts again from its journal marks every person's seat lost (its catch-up carries
a ``seat_status`` with a grace period for each), and each person's client comes back within
its reconnect backoff. A friend back that soon was never lost to anyone but the host.
"""

from __future__ import annotations

import re

import pytest
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

BACK = "Table: Carla is back at the table (the host was restarted)"
"""What Ada reads as Carla's client is back at the restarted host."""


@pytest.mark.parametrize(("carla_after", "cut_again"), [(3.0, False), (30.0, False), (3.0, True)])
async def test_a_friend_back_within_the_catch_up_is_not_said_to_have_lost_the_connection(
    autojump_clock: trio.testing.MockClock, tmp_path, carla_after: float, cut_again: bool
) -> None:
    """Ada and Carla play with a computer; the host is stopped and started again. Ada's client
    is back first; Carla's ``carla_after`` seconds later. Ada used to read "Carla lost the
    connection; a computer plays for them in 60 s" from the restarted host's catch-up, just
    before "Carla is back at the table". Back within the catch-up, Carla is only back; back
    later, she was lost meanwhile, and Ada reads so (with the grace period left). Either way
    Carla's return says it followed the host's restart ("Carla is back at the table" alone
    read as if Carla's own connection had failed), as Ada's own line does. With
    ``cut_again``, Carla's own connection fails just after she is back, while Ada's client is
    still catching up: that loss, and her way back from it, are her own, not the restart's."""
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host, first = await start_journal_host_to_stop(nursery, db)
        net = Network(host, nursery)
        carla_away = trio.Event()
        carla_away.set()

        carla_streams: list[trio.abc.Stream] = []

        async def carla_connects() -> trio.abc.Stream:
            await carla_away.wait()
            carla_streams.append(await net.connect())
            return carla_streams[-1]

        people: dict[str, PersonScreen] = {}

        async def person(name: str, choice: TableChoice, connect, *, task_status) -> None:
            async with open_network_session(
                "mem", 0, choice, name=name, connector=connect
            ) as session:
                people[name] = PersonScreen(session)
                task_status.started()
                await people[name].play(seed=1)

        await nursery.start(
            person, "Ada", TableChoice(create=create(RuleSet.of(3, 11), bots=1)), net.connect
        )
        table_id = people["Ada"].session.table_id
        await nursery.start(person, "Carla", TableChoice(table_id=table_id), carla_connects)
        ada = people["Ada"]
        with trio.fail_after(60):
            while not any(line.startswith("Carla plays") for line in ada.lines):
                await trio.sleep(0.1)

        # The host is stopped (its players are told) and started again on its journal.
        carla_away = trio.Event()  # Carla's client finds no host until told
        await host.shutdown()
        net.up = False
        first.cancel()
        await trio.sleep(1)
        before = len(ada.lines)
        net.host = await nursery.start(serve_journal_in_virtual_time, db)
        net.up = True
        with trio.fail_after(60):
            while not any("back at the table" in line for line in ada.lines[before:]):
                await trio.sleep(0.1)  # Ada's client is back
        await trio.sleep(carla_after)
        carla_away.set()
        with trio.fail_after(60):
            while BACK not in ada.lines[before:]:
                await trio.sleep(0.1)
        if cut_again:
            carla_away = trio.Event()
            await trio.aclose_forcefully(carla_streams[-1])
            again = len(ada.lines)
            await trio.sleep(20)
            carla_away.set()
            with trio.fail_after(60):
                while not any("Carla is back" in line for line in ada.lines[again:]):
                    await trio.sleep(0.1)
            later = ada.lines[again:]
            assert any(line.startswith("Table: Carla lost the connection") for line in later)
            back = [line for line in later if "Carla is back" in line]
            assert back == ["Table: Carla is back at the table"], later
            nursery.cancel_scope.cancel()
            return
        await trio.sleep(15)  # past any line held back
        after = ada.lines[before:]
        assert "Connection: connected (the host was restarted; back at the table)." in after
        lost = [line for line in after if "Carla lost the connection" in line]
        if carla_after < 10:
            assert lost == [], after
        else:
            assert len(lost) == 1, after
            found = re.fullmatch(
                r"Table: Carla lost the connection; a computer plays for them in (\d+) s \(the "
                r"host waits 60 s from when it lost them\)",
                lost[0],
            )
            assert found, lost
            assert 40 <= int(found.group(1)) <= 55, lost  # the host's 60 s, less the wait
            assert after.index(lost[0]) < after.index(BACK)
        nursery.cancel_scope.cancel()
