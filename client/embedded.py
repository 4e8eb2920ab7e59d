"""``scopa-net play`` without a host elsewhere: a host inside this process, and us at its table.

The embedded host is a real host (the same code as ``scopa-net host``) listening on loopback, or
on the LAN with ``--lan`` so friends can ``scopa-net join`` the table you are sitting at; the
client reaches it over TCP like any other, so every deal is checked the same way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import trio

from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.rules import RuleSet
from scopa_net.server.announce import advertise
from scopa_net.server.config import HostConfig
from scopa_net.server.discovery import join_address, lan_addresses
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m

LEVEL_NUMBERS = {"random": 1, "greedy": 2, "strong": 3, "expert": 4}


def lan_join_lines(bind: str, bound: int, wanted: int) -> tuple[str, ...]:
    """How friends join a table opened with ``play --lan``, for the screen and ``who``."""
    addresses = lan_addresses(bind)
    moved = f" (port {wanted} was taken)" if wanted and bound != wanted else ""
    if not addresses:
        return (f"This machine has no LAN address: friends cannot join. Port {bound}{moved}.",)
    lines = [f"Friends join this table on port {bound}{moved} with:"]
    lines += [f"  scopa-net join {join_address(a, bound)}" for a in addresses]
    return tuple(lines)


@asynccontextmanager
async def open_embedded_game(
    rules: RuleSet,
    *,
    name: str,
    level: str = "greedy",
    delay: float = 0.8,
    think: float = 1.0,
    lan: bool = False,
    port: int = 0,
    password: str | None = None,
    humans: int = 1,
    data_dir: Path | None = None,
    offer_rematch: bool = False,
    blind: bool = False,
) -> AsyncIterator[NetworkSession]:
    """Start a host, open a table with computer players in all but ``humans`` seats, sit down.
    ``offer_rematch``: the session stays after the match for a vote on playing again.
    ``think``: seconds an ``expert`` computer player thinks about each move.

    With ``lan`` the host listens on every interface, on ``port`` if it is free (else on any
    free port), and the session's ``where_to_join`` says how friends reach it."""
    config = HostConfig(
        name=f"{name}'s table",
        bind="0.0.0.0" if lan else "127.0.0.1",
        port=port,
        db=":memory:",
        advertise=lan,
        bot_delay=delay,
        think=think,
    )
    async with trio.open_nursery() as nursery:
        host = Host(config, Journal(":memory:"))
        try:
            bound = await nursery.start(host.serve)
        except (OSError, ExceptionGroup) as exc:
            taken = isinstance(exc, OSError) or exc.subgroup(OSError) is not None
            if not port or not taken:
                raise
            config = replace(config, port=0)  # the port is taken: any free one will do
            host = Host(config, Journal(":memory:"))
            bound = await nursery.start(host.serve)
        create = m.CreateTable(
            name=f"{name}'s table"[: m.NAME_LEN],
            rules=m.RulesInfo.of(rules),
            password=password,
            bots=rules.players - humans,
            bot_level=LEVEL_NUMBERS.get(level, 2),
            blind=blind,
        )
        async with open_network_session(
            "127.0.0.1",
            bound,
            TableChoice(create=create),
            name=name,
            data_dir=data_dir,
            pin_host=False,  # a throwaway host with a new key each time: nothing to pin
            offer_rematch=offer_rematch,
        ) as session:
            session.embedded_port = bound  # type: ignore[attr-defined]
            if lan:
                # Announced once the table is open, so the first announcement already counts
                # its open seats (before it, a friend searching saw "0 open seats").
                nursery.start_soon(advertise, host)
                session.where_to_join = lan_join_lines(config.bind, bound, port)
                for line in session.where_to_join:
                    session.notice(line)
            yield session
        nursery.cancel_scope.cancel()
