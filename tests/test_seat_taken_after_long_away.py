"""A seat whose player has been away past the host's away limit, taken by a newcomer.

A real host over loopback TCP, bare protocol clients (protocol.md 3.3). Ivo drops mid-match
and does not come back: after his grace period a computer plays for him, and once he has been
away past the host's limit (a second here; ten minutes by default) his seat is listed, and a
newcomer may take it. Before, the seat stayed his for the whole match: Lea, who came to take
it, read "no table has an open seat", and nobody could give it up for a person gone home.
"""

from __future__ import annotations

import logging

import pytest
import trio
from hosting import create, start_host
from rawseat import RawSeat, listed, listed_away

from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.wire import messages as m

FAST = {"grace": 0.2, "away_limit": 1.0}
"""A grace period and an away limit short enough for a test."""


async def _ada_and_ivo(host: Host) -> tuple[RawSeat, RawSeat, int]:
    """Ada and Ivo at a two-player table, the match under way; then Ivo's window is killed."""
    ada = await RawSeat.connect(host.port)
    table_id = await ada.create(create(RuleSet.of(2, 16)))
    await ada.join(table_id, 0, "Ada")
    ivo = await RawSeat.connect(host.port)
    await ivo.join(table_id, 1, "Ivo")
    await ada.until(lambda msg: isinstance(msg, m.RoundCommit))
    await ivo.aclose()
    return ada, ivo, table_id


async def test_a_newcomer_takes_the_seat_of_a_player_away_too_long(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The listing shows Ivo's seat as "Ivo <away>" (kind human, not connected); Lea joins
    with seat nil and sits in it; Ada reads who took whose seat and why; Ivo's token is dead,
    and his resume is told the truth. The host's log says, in one line, that Ivo was turned
    away and why (before: nothing), as a wrong token's resume does too."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **FAST)
        ada, ivo, table_id = await _ada_and_ivo(host)
        with trio.fail_after(10):
            while host.open_seats == 0:  # the LAN announcement counts it too
                await trio.sleep(0.05)
        table = await listed_away(host.port, "Ivo")
        assert table.id == table_id
        assert table.seats[1] == m.SeatInfo(kind="human", name="Ivo <away>", connected=False)
        assert table.seats[0] == m.SeatInfo(kind="human", name="Ada", connected=True)

        lea = await RawSeat.connect(host.port)
        await lea.join(table_id, None, "Lea")
        assert lea.seat == 1
        snapshot = lea.received[-1]
        assert isinstance(snapshot, m.Snapshot)
        assert [s.name for s in snapshot.seats] == ["Ada", "Lea"]  # no mark at the table

        said = await ada.until(lambda msg: isinstance(msg, m.Chat) and msg.seat is None)
        assert isinstance(said, m.Chat)
        assert said.text == "Lea takes Ivo's seat: Ivo was away for more than 1 second"
        statuses = [msg for msg in ada.received if isinstance(msg, m.SeatStatus) and msg.seat == 1]
        assert (statuses[-2].kind, statuses[-2].name) == ("open", None)  # Ivo left for good
        assert (statuses[-1].kind, statuses[-1].name) == ("human", "Lea")
        assert not await listed(host.port)  # full again

        assert ivo.token is not None
        back = await RawSeat.connect(host.port)
        await back.send(m.Resume(table_id=table_id, seat=1, token=ivo.token, last_seq=0))
        refused = await back.until(lambda msg: isinstance(msg, m.Error))
        assert isinstance(refused, m.Error)
        assert refused.code == "bad_token"
        assert refused.message == (
            f"your seat at table {table_id} was taken by Lea after you were away for more "
            "than 1 second; `scopa-net join` lists the open seats"
        )
        await back.send(m.Resume(table_id=table_id, seat=0, token=bytes(16), last_seq=0))
        await back.until(lambda msg: isinstance(msg, m.Error) and msg is not refused)
        turned_away = [r.getMessage() for r in caplog.records if "turned away" in r.getMessage()]
        assert turned_away == [
            f"table {table_id} 'test table': Ivo was turned away from seat 1: Lea took it "
            "after Ivo was away for more than 1 second",
            f"table {table_id} 'test table': a resume of seat 0 was turned away: that token "
            "does not hold seat 0 (old or wrong)",
        ]
        for seat in (ada, lea, back):
            await seat.aclose()
        nursery.cancel_scope.cancel()


async def test_a_player_back_before_anyone_takes_the_seat_keeps_it() -> None:
    """Ivo's seat was open to a newcomer; he resumes first: it is his again, no longer listed,
    and a join naming it is refused as taken."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **FAST)
        ada, ivo, table_id = await _ada_and_ivo(host)
        await listed_away(host.port, "Ivo")

        assert ivo.token is not None
        back = await RawSeat.connect(host.port)
        await back.send(m.Resume(table_id=table_id, seat=1, token=ivo.token, last_seq=0))
        await back.until(lambda msg: isinstance(msg, m.Resumed))
        assert not await listed(host.port)

        lea = await _lea_refused_seat_1(host.port, table_id)
        for seat in (ada, lea, back):
            await seat.aclose()
        nursery.cancel_scope.cancel()


async def _lea_refused_seat_1(port: int, table_id: int) -> RawSeat:
    """Lea asks for seat 1 by number and is told it is taken (`seat_taken`)."""
    lea = await RawSeat.connect(port)
    await lea.send(m.Join(table_id=table_id, seat=1, name="Lea", password=None))
    refused = await lea.until(lambda msg: isinstance(msg, m.Error))
    assert isinstance(refused, m.Error)
    assert refused.code == "seat_taken"
    return lea


async def test_a_seat_within_the_away_limit_is_not_open() -> None:
    """Dropped, a computer playing for him, but not yet away past the limit: Ivo's seat is
    not listed, and a join naming it is refused."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=0.1, away_limit=60.0)
        ada, _ivo, table_id = await _ada_and_ivo(host)
        with trio.fail_after(10):  # past the grace period: a computer plays for him
            while not host.tables[table_id].table.seats[1].stand_in:
                await trio.sleep(0.02)
        assert not await listed(host.port)
        lea = await _lea_refused_seat_1(host.port, table_id)
        for seat in (ada, lea):
            await seat.aclose()
        nursery.cancel_scope.cancel()
