"""The grace a seat shows after the host restarts, over loopback with a journal on disk.

The host that took up its tables again reported a seat's grace period in ``seat_status``
cut down to whole seconds: with ``--grace 0.5`` the seat read ``grace 0`` (no grace period)
while one ran. It is rounded up, as after a drop (protocol.md 3.9, ``seat_status``)."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from rawseat import RawSeat

from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


async def test_a_half_second_grace_after_a_restart_shows_as_one_second(tmp_path: Path) -> None:
    db = str(tmp_path / "host.db")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, db=db, grace=0.5, bot_delay=0.0)
            assert host.port is not None
            ada = await RawSeat.connect(host.port)
            table_id = await ada.create(create(RuleSet.of(2, 11), bots=1))
            await ada.join(table_id, name="Ada")
            seat, token, last_seq = ada.seat, ada.token, ada.seq
            assert seat is not None
            assert token is not None
            await host.shutdown()  # Ada still connected: the stop drops her (grace 1)
            await ada.aclose()
            nursery.cancel_scope.cancel()
        host.journal.close()

        async with trio.open_nursery() as nursery:
            again = await start_host(nursery, db=db, grace=0.5, bot_delay=0.0)
            assert again.port is not None
            back = await RawSeat.connect(again.port)
            await back.send(m.Resume(table_id=table_id, seat=seat, token=token, last_seq=last_seq))
            await back.until(lambda msg: isinstance(msg, m.Resumed))
            statuses: list[m.SeatStatus] = []
            while not (statuses and statuses[-1].connected):  # until her own return
                msg = await back.until(lambda msg: isinstance(msg, m.SeatStatus))
                assert isinstance(msg, m.SeatStatus)
                if msg.seat == seat:
                    statuses.append(msg)
            # The drop at the stop, then the restart's own grace period: neither reads 0.
            away = [(s.connected, s.stand_in, s.grace) for s in statuses[:-1]]
            assert away
            assert all(grace >= 1 for _, stand_in, grace in away if not stand_in), away
            await back.aclose()
            await again.shutdown()
            nursery.cancel_scope.cancel()
        again.journal.close()
