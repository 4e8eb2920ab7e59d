"""`rename` on the host (protocol.md 3.3, Names): every seat is told, renames are bounded in
rate, and a restarted host still knows the new name. Virtual time, memory streams."""

from __future__ import annotations

from functools import partial

import trio
import trio.testing
from hosting import create, serve_then_close
from rawplayer import RawPlayer, answer, close_links, memory_connector, open_link

from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.server.table_task import RENAME_WINDOW, RENAMES
from scopa_net.wire import messages as m


async def start(nursery: trio.Nursery, db: str) -> Host:
    config = HostConfig(
        db=db, advertise=False, grace=3600, silence_timeout=600, heartbeat_interval=300
    )  # type: ignore[arg-type]
    host = Host(config, Journal(db))
    host.writer.threaded = False  # virtual time: no worker thread for the clock to jump past
    await nursery.start(partial(serve_then_close, host, listen=False))
    return host


def renames(player: RawPlayer) -> list[str | None]:
    return [
        e.name
        for e in player.received
        if isinstance(e, m.SeatStatus) and e.seat == 1 and e.kind == "human" and e.connected
    ]


async def test_renames_reach_every_seat_are_bounded_and_survive_a_restart(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host = await start(nursery, db)
        connector = memory_connector(host, nursery)
        lobby = await open_link(connector)
        await lobby.send(create(RuleSet.of(3, 11), bots=1))
        made = await answer(lobby, (m.TableCreated,))
        table_id = made.table.id  # type: ignore[attr-defined]
        ada, bruno = RawPlayer(lobby, table_id), RawPlayer(await open_link(connector), table_id)
        await ada.join(0)
        await bruno.join(1)  # both are "raw": the second shows as "raw (2)"
        wanted = ["Bruno", "raw", "Bruno Bianchi"]
        settled = ["Bruno", "raw (2)", "Bruno Bianchi"]
        for n, name in enumerate(wanted[:RENAMES]):
            await bruno.link.send(m.Rename(name=name))
            for p in (ada, bruno):
                await p.until(lambda p=p, n=n: settled[n] in renames(p))
        assert renames(ada)[-3:] == renames(bruno)[-3:] == settled
        # One more within the minute is refused, and changes nothing.
        await bruno.link.send(m.Rename(name="Too Many"))
        refused = await answer(bruno.link, (m.Error,))
        assert (refused.code, refused.ref) == ("rate_limited", "rename"), refused  # type: ignore[attr-defined]
        assert host.tables[table_id].table.seats[1].name == "Bruno Bianchi"
        await trio.sleep(RENAME_WINDOW)
        await bruno.link.send(m.Rename(name="Bruno B"))
        await ada.until(lambda: "Bruno B" in renames(ada))
        await close_links()
        nursery.cancel_scope.cancel()
    # The host restarts from its journal: the table still calls the seat by its new name.
    async with trio.open_nursery() as nursery:
        host = await start(nursery, db)
        seats = host.tables[table_id].table.seats
        assert [s.name for s in seats[:2]] == ["raw", "Bruno B"]
        # ... and a player who resumes from the start is replayed the renames, in order.
        bruno.seq = 0
        await bruno.resume(await open_link(memory_connector(host, nursery)))
        replayed: list[str | None] = []
        while "Bruno B" not in replayed:
            status = await answer(bruno.link, (m.SeatStatus,))
            if status.seat == 1 and status.connected:  # type: ignore[attr-defined]
                replayed.append(status.name)  # type: ignore[attr-defined]
        assert replayed[-4:] == [*settled, "Bruno B"]
        await close_links()
        nursery.cancel_scope.cancel()
