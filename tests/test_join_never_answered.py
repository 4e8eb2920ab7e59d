"""A connection that ends just after its ``join``, before the host wrote ``joined``, over
loopback TCP.

The host took the seat all the same and held it as for a dropped player: for the away limit
(10 minutes), under the name given, with a token nobody had. Now the seat is given up at once,
as ``leave`` gives it up (protocol.md 3.3): the others read that it is open, and a newcomer
takes it."""

from __future__ import annotations

import logging

import pytest
import trio
from hosting import create, start_host
from rawseat import RawSeat

from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.wire.codec import encode


async def test_a_join_whose_connection_ends_at_once_leaves_the_seat_open(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The join and a bye in one write: the host drops the answers owed (3.1), its joined
    among them. (A join followed by a close alone races the host's write of its joined: a
    joined written first makes it a drop like any other, 3.3.)"""
    caplog.set_level(logging.INFO, logger="scopa_net")
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, grace=600, away_limit=600)
            assert host.port is not None
            ada = await RawSeat.connect(host.port)
            table_id = await ada.create(create(RuleSet.of(2, 11)))
            await ada.join(table_id, seat=0, name="Ada")

            ghost = await RawSeat.connect(host.port)
            join = m.Join(table_id=table_id, seat=1, name="Ghost", password=None)
            await ghost.stream.send_all(encode(join) + encode(m.Bye(reason="quit", message="bye")))
            await ghost.aclose()

            def about_ghosts_seat(msg: m.Message) -> bool:
                return isinstance(msg, m.SeatStatus) and msg.seat == 1 and msg.kind == "open"

            opened = await ada.until(about_ghosts_seat)
            assert isinstance(opened, m.SeatStatus)
            assert opened.name is None

            bruno = await RawSeat.connect(host.port)
            await bruno.send(m.Join(table_id=table_id, seat=1, name="Bruno", password=None))
            answer = await bruno.until(lambda msg: isinstance(msg, m.Joined | m.Error))
            assert isinstance(answer, m.Joined), answer
            await bruno.aclose()
            await ada.aclose()
            await host.shutdown()
            nursery.cancel_scope.cancel()
    lines = [r.getMessage() for r in caplog.records]
    assert (
        f"table {table_id}: the connection of Ghost (seat 1) ended before its joined was sent; "
        "the seat is open again"
    ) in lines, lines
