"""Grace periods and stand-ins, in virtual time (trio's autojump clock, memory streams)."""

from __future__ import annotations

from functools import partial

import trio
import trio.testing
from hosting import Network, create, serve_then_close

from scopa_net.client.network_session import NetworkSession, TableChoice
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal

GRACE = 60.0


async def test_a_drop_on_your_turn_waits_out_the_grace_then_a_bot_stands_in(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Pass: the turn waits through the whole grace period, a bot then plays for the absent
    player, and the player resumes later with nothing lost; everyone sees the countdown."""
    async with trio.open_nursery() as nursery:
        config = HostConfig(db=":memory:", advertise=False, grace=GRACE, bot_delay=1.0)
        host = Host(config, Journal(":memory:"))
        await nursery.start(partial(serve_then_close, host, listen=False))
        net = Network(host, nursery)
        session = NetworkSession(
            "mem",
            0,
            TableChoice(create=create(RuleSet.of(2, 11), bots=1)),
            name="ann",
            connector=net.connect,
        )
        nursery.start_soon(session.run)
        await session.connected.wait()
        table = host.tables[session.table_id].table
        while session.view is None or session.view.to_move != session.seat:
            await trio.sleep(0.1)
        rnd = table.match.round
        plays_before = len(rnd.history)

        await net.go_down()
        dropped_at = trio.current_time()
        await trio.sleep(GRACE - 1)
        seat = table.seats[session.seat]
        assert not seat.connected
        assert not seat.stand_in
        assert len(rnd.history) == plays_before, "the turn did not wait"
        statuses = [e for e in table.seats[1].log if type(e).__name__ == "SeatStatus"]
        assert statuses[-1].grace == GRACE
        assert not statuses[-1].connected

        await trio.sleep(5)  # past the grace, and the bot's 1 s pause before its move
        assert seat.stand_in
        assert len(rnd.history) > plays_before
        assert rnd.history[plays_before][0] == session.seat
        assert trio.current_time() - dropped_at >= GRACE

        net.up = True
        with trio.fail_after(60):
            while not seat.connected:
                await trio.sleep(0.5)
        assert not seat.stand_in
        # At a quiet moment (the client has every event the host has), the views agree.
        with trio.fail_after(60):
            while session.mirror.seq != len(seat.log):
                await trio.sleep(0.01)
        assert session.mirror.view == table.view_for(session.seat)
        nursery.cancel_scope.cancel()
