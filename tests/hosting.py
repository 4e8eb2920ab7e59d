"""Start a real host on loopback for end-to-end tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
import trio.testing

from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m

#: The ``make_host`` fixture's type: ``await make_host(**options)`` starts a host.
MakeHost = Callable[..., Awaitable[Host]]


async def start_host(nursery: trio.Nursery, db: str = ":memory:", **options: object) -> Host:
    config = HostConfig(bind="127.0.0.1", port=0, advertise=False, db=db, **options)  # type: ignore[arg-type]
    host = Host(config, Journal(db))
    await nursery.start(host.serve)
    return host


def create(
    rules: RuleSet,
    bots: int = 0,
    level: int = 1,
    password: str | None = None,
    *,
    blind: bool = False,
) -> m.CreateTable:
    return m.CreateTable(
        name="test table",
        rules=m.RulesInfo.of(rules),
        password=password,
        bots=bots,
        bot_level=level,
        blind=blind,
    )


class Network:
    """Memory-stream connections to an in-process host, with a switch to cut them all."""

    def __init__(self, host: Host, nursery: trio.Nursery) -> None:
        self.host = host
        self.nursery = nursery
        self.up = True
        self.client_ends: list[trio.abc.Stream] = []

    async def connect(self) -> trio.abc.Stream:
        if not self.up:
            raise OSError("network is down")
        client, server = trio.testing.memory_stream_pair()
        self.nursery.start_soon(self.host.handle_stream, server, "mem", "mem")
        self.client_ends.append(client)
        return client

    async def go_down(self) -> None:
        self.up = False
        for end in self.client_ends:
            await trio.aclose_forcefully(end)
        self.client_ends.clear()
