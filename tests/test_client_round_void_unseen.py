"""A blind round void before its first deal that a seat never saw (protocol.md 3.9 `voids`,
9.7): the seat is caught up by a snapshot showing round n, whose ``voids`` leaves out round
n + 1 (void before it was dealt: counted only once a later round is dealt), and then reads
round n + 2's ``blind_round``. The number skipped is a void round: the match's end says the
rounds played as the host counts them, not one more."""

from __future__ import annotations

import contextlib
from pathlib import Path

import trio
from hosting import Through, create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.session import MatchOver
from scopa_net.client.session_errors import MoveUnansweredError
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host

BLIND_ROUND_FRAME = b"\xa1t\xabblind_round"
"""How a ``blind_round`` message's type reads in its msgpack bytes."""


class CutAtRound2(Through):
    """A connection that ends as round 2's ``blind_round`` comes, unread: the seat is away
    from round 2's start, which is void before its deal for want of its key."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self.opened = 0

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.inner.receive_some(max_bytes)
        self.opened += bytes(data).count(BLIND_ROUND_FRAME)
        if self.opened >= 2:
            await self.inner.aclose()
            return b""
        return data


async def result_of(session: object, seed: int) -> MatchOver | None:
    with contextlib.suppress(MoveUnansweredError):
        return await play_as_bot(session, make_player("random", seed))  # type: ignore[arg-type]
    return None


async def test_a_round_number_skipped_after_a_snapshot_is_counted_void(tmp_path: Path) -> None:
    results: dict[str, MatchOver | None] = {}
    host: Host | None = None
    table: list[int] = []
    streams: list[trio.abc.Stream] = []

    async def connect() -> trio.abc.Stream:
        assert host is not None
        if streams:  # back once round 3 has begun without this seat
            with trio.fail_after(30):
                while host.tables[table[0]].table.round_no < 3:
                    await trio.sleep(0.01)
        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        streams.append(CutAtRound2(stream) if not streams else stream)
        return streams[-1]

    async def bea(ready: trio.Event) -> None:
        await ready.wait()
        async with open_network_session(
            "127.0.0.1", host.port, TableChoice(table_id=table[0]), name="Bea",
            data_dir=tmp_path / "bea", connector=connect,
        ) as session:  # fmt: skip
            results["Bea"] = await result_of(session, 2)

    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=0.2, replay_limit=0)
            ready = trio.Event()
            nursery.start_soon(bea, ready)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=0, blind=True))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path / "ada"
            ) as ada:
                assert ada.table_id is not None
                table.append(ada.table_id)
                ready.set()
                results["Ada"] = await result_of(ada, 1)
            with trio.fail_after(30):
                while "Bea" not in results:
                    await trio.sleep(0.02)
            nursery.cancel_scope.cancel()
    ada_end, bea_end = results["Ada"], results["Bea"]
    assert ada_end is not None
    assert bea_end is not None
    assert len(streams) == 2  # cut at round 2, back by snapshot in round 3
    assert ada_end.voids >= 1  # round 2, void before its deal: Ada saw it
    assert (bea_end.rounds, bea_end.voids) == (ada_end.rounds, ada_end.voids)
