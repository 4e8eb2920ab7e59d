"""Sitting down at a table whose seats changed hands, as the newcomer's screen reads it (over
loopback TCP, real host, real sessions, the game's controller in front of each): a name taken
at the table is said once."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import PersonScreen

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


async def until(predicate, seconds: float = 30) -> None:
    with trio.fail_after(seconds):
        while not predicate():
            await trio.sleep(0.01)


async def sit(
    nursery: trio.Nursery, host: Host, name: str, tmp: Path, folder: str = "", **options
) -> PersonScreen:
    """``name`` at a new table (``create=``) or at table ``table_id``, her seat kept in a
    store of her own (``folder``, by default her name), her screen taking every event."""
    choice = TableChoice(create=options.pop("create", None), table_id=options.pop("table_id", None))
    data = tmp / (folder or name)
    opened = open_network_session(
        "127.0.0.1", host.port, choice, name=name, data_dir=data, store=SeatStore(data), **options
    )

    async def hold(task_status=trio.TASK_STATUS_IGNORED) -> None:
        async with opened as session:
            screen = PersonScreen(session)
            task_status.started(screen)
            async for event in session.events:
                screen.controller.handle_event(event)

    return await nursery.start(hold)


async def test_a_name_taken_at_the_table_is_said_once_as_the_person_sits_down(
    tmp_path: Path,
) -> None:
    """Gina joins as Fabio where a Fabio sits: the host calls her Fabio (2), and her screen
    says so once, with how to choose another name (before: nothing was said)."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(3, 11)))
        await sit(nursery, host, "Fabio", tmp_path, table_id=ada.session.table_id)
        gina = await sit(nursery, host, "Fabio", tmp_path, "Gina", table_id=ada.session.table_id)
        said = "Fabio is taken at this table: you are Fabio (2) here; `name NEW` changes it"
        await until(lambda: gina.controller.state.view is not None)
        assert gina.lines.count(said) == 1, gina.text
        assert "Seat 2: Fabio (2) (you)" in await gina.type("who")
        nursery.cancel_scope.cancel()
