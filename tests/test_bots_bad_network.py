"""``scopa-net bots --create`` over a bad network: a bot whose way to its table fails once
(the host restarting, a connection reset) tries again, so the table its companion opened is
filled and played, not left waiting for a player that never comes."""

from __future__ import annotations

import trio
from faultproxy import FaultProxy
from hosting import MakeHost

from scopa_net.commands.bots import BotPlan, BotStats, run_bots
from scopa_net.rules import RuleSet


class ResetsOne(FaultProxy):
    """Forwards every connection but the ``nth``, which it resets as soon as it is open."""

    def __init__(self, target_port: int, nth: int) -> None:
        super().__init__(target_port)
        self.nth = nth
        self.accepted = 0

    async def _handle(self, client: trio.SocketStream) -> None:
        self.accepted += 1
        if self.accepted == self.nth:
            await trio.aclose_forcefully(client)
            return
        await super()._handle(client)


async def test_a_bot_whose_first_connection_is_reset_still_sits_at_the_opened_table(
    make_host: MakeHost,
) -> None:
    """Two bots open a table and fill it; the second one's connection is reset before the
    host's hello: it connects again and sits, and the match is played to its end (it used
    to fail, and the command then waited for ever with its first bot at a half-empty table)."""
    host = await make_host()
    proxy = ResetsOne(host.port, nth=2)
    stats = BotStats()
    said: list[str] = []
    async with trio.open_nursery() as nursery:
        port = await nursery.start(proxy.serve)
        with trio.fail_after(20):
            await run_bots(
                "127.0.0.1",
                port,
                2,
                BotPlan(),
                create=RuleSet.of(2, 1),
                stats=stats,
                report=said.append,
            )
        nursery.cancel_scope.cancel()
    assert proxy.accepted >= 3
    assert stats.failures == []
    assert len(stats.finished) == 1, said
    assert sum("seated at table" in line for line in said) == 2, said
