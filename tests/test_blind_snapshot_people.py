"""A snapshot's `people` at a blind table (protocol.md 3.9): the seats people play in the
round the snapshot shows, as its `blind_round` named them, while that round is the last
dealt, even once the next round has opened and is still being set up.

Ada and Bruno play a blind table with a computer. Bruno's client dies after round 1's first
deal and his grace runs out: round 1 is void. Round 2 opens without him and waits for Ada's
key. Bruno gives his seat up for good, and Cy takes it: a snapshot of the present, showing
round 1 (the last dealt), which Ada and Bruno played. The host left `people` out once round
2 had opened. Real host on loopback TCP, every frame to Cy checked field by field.
"""

from __future__ import annotations

from pathlib import Path

import trio
from field_watching import Watches
from held_setup import KeyHeld
from hosting import create, start_host
from person_screen import sit, until
from rawseat import RawSeat

from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


async def test_people_of_the_last_round_dealt_while_the_next_is_set_up(tmp_path: Path) -> None:
    links: list[KeyHeld] = []
    watches = Watches()
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=0.5, bot_delay=0.0)

        async def ada_connects() -> trio.abc.Stream:
            links.append(KeyHeld(await trio.open_tcp_stream("127.0.0.1", host.port)))
            return links[-1]

        rules = RuleSet.of(3, 11)
        ada = await sit(
            nursery, host, "Ada", tmp_path, create=create(rules, bots=1, blind=True),
            connector=ada_connects,
        )  # fmt: skip
        table_id = ada.session.table_id
        bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=table_id)
        table = host.tables[table_id].table
        await until(lambda: table.dealt_round_no == 1)
        (ada_link,) = links
        ada_link.held = True  # from now her key for the next round waits
        bruno.crash()  # past his grace time round 1 is void
        await until(
            lambda: (
                table.blind_round is not None
                and table.blind_round.round_no == 2
                and table.blind_round.people == (0,)
            )
        )
        (record,) = SeatStore(tmp_path / "Bruno").records()
        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        gone = await RawSeat.over(watches.raw(stream, "bruno"))
        await gone.send(
            m.Resume(
                table_id=table_id,
                seat=record.seat,
                token=bytes.fromhex(record.tokens[0]),
                last_seq=0,
            )
        )
        await gone.until(lambda msg: isinstance(msg, m.Resumed))
        await gone.send(m.Leave(away=False))
        await gone.until(lambda msg: isinstance(msg, m.Left))
        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        cy = await RawSeat.over(watches.raw(stream, "cy"))
        await cy.send(m.Join(table_id=table_id, seat=record.seat, name="Cy", password=None))
        snap = await cy.until(lambda msg: isinstance(msg, m.Snapshot))
        assert isinstance(snap, m.Snapshot)
        assert table.blind_round.round_no == 2  # still being set up
        assert snap.round_no == 1
        assert snap.people == (0, 1)
        # Round 1 was voided once dealt: the snapshot shows it void, as Ada, who saw the
        # events, has it (3.4: a snapshot is what the events told; 3.9 `void_deal`).
        assert snap.void_deal
        assert not snap.round_over
        assert ada.session.view.round_number == 1
        assert ada.session.view.void_deal
        for seat in (gone, cy):
            await seat.aclose()
        ada_link.sent.set()
        nursery.cancel_scope.cancel()
    assert watches.problems == []
