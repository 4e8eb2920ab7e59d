"""People at a blind table in tests: each a real client session of their own (data folder,
seat store), and a plug that pulls one person's connections out at once, as ``kill -9`` of
their client does. Used by the tests of people who drop (test_blind_drops.py) and of a seat
taken back after a rematch (test_blind_rematch.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio
from hosting import Network

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    Connector,
    DealCheckFailedError,
    NetworkSession,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import SeatStore


@dataclass
class People:
    """The people of a blind-table test, each a real client of their own (data folder, seat
    store), and what became of each: their session while it runs, a failed deal check, and
    ``done[name]``, set when their client stops however it stops. ``ada_ready`` is set once
    Ada (who opens the table) sits."""

    tmp_path: Path
    names: Sequence[str] = ("Ada", "Bruno", "Carla")
    sessions: dict[str, NetworkSession] = field(default_factory=dict)
    failed: dict[str, DealCheckFailedError] = field(default_factory=dict)
    ada_ready: trio.Event = field(default_factory=trio.Event)

    def __post_init__(self) -> None:
        self.stores = {name: SeatStore(self.tmp_path / name) for name in self.names}
        self.done = {name: trio.Event() for name in self.names}

    def runner(
        self,
        connect: Connector,
        plays: Callable[[NetworkSession, str], Awaitable[object]] | None = None,
    ) -> Callable[..., Awaitable[None]]:
        """``person(name, choice, connector=None, **options)``: that person's client at the
        table, playing at random until the match ends; ``plays(session, name)``: what the
        person does at the table instead."""

        async def person(
            name: str, choice: TableChoice, connector: Connector | None = None, **options: object
        ) -> None:
            try:
                async with open_network_session(
                    "mem",
                    0,
                    choice,
                    name=name,
                    data_dir=self.tmp_path / name,
                    store=self.stores[name],
                    connector=connector or connect,
                    **options,  # type: ignore[arg-type]
                ) as session:
                    self.sessions[name] = session
                    if name == "Ada":
                        self.ada_ready.set()
                    if plays is None:
                        await play_as_bot(session, make_player("random", len(name)))
                    else:
                        await plays(session, name)
            except DealCheckFailedError as exc:
                self.failed[name] = exc
            finally:
                self.done[name].set()

        return person


class Plug:
    """One person's connections to the host, pulled out at once: ``kill -9`` of their
    client (no ``bye``, no ``leave``; the host reads the end of the stream)."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.ends: list[trio.abc.Stream] = []

    async def connect(self) -> trio.abc.Stream:
        end = await self.net.connect()
        self.ends.append(end)
        return end

    async def pull(self) -> None:
        for end in self.ends:
            await trio.aclose_forcefully(end)
        self.ends.clear()
