"""A person's real client session reaching a host through the fault proxy (faultproxy.py),
for the tests of a bad network."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
from faultproxy import FaultProxy
from hosting import create

from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet


@asynccontextmanager
async def session_through_proxy(
    nursery: trio.Nursery, host_port: int, rules: RuleSet, store: SeatStore, name: str = "Bea"
) -> AsyncIterator[tuple[FaultProxy, NetworkSession]]:
    """A proxy started in ``nursery`` in front of the host at ``host_port``, and ``name``'s
    session through it at a new table of ``rules`` with one computer, the seat kept in
    ``store``."""
    proxy = FaultProxy(host_port)
    await nursery.start(proxy.serve)
    choice = TableChoice(create=create(rules, bots=1))
    async with open_network_session(
        "127.0.0.1", proxy.port, choice, name=name, store=store
    ) as session:
        yield proxy, session
