"""Why the host refused, said in a key a client reads without copying our English
(protocol.md 3.8: an ``error``'s ``why``, protocol version 5), over real loopback TCP.

Before, a client learnt that its seat was taken while its player was away, or that a restarted
host had closed its table, only from the words of our host's message: an outsider's client had
to copy them, and ours misread a host that worded them otherwise. A connection in version 4
(an older client, or ours at an older host) gets no ``why``, and ours reads the old words."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import trio
from helpers import free_port, kept_seat
from hosting import create, start_host
from other_version import start_host as start_older_host
from rawseat import RawSeat, listed_away

from scopa_net.client.hello_versions import HELLO_VERSIONS
from scopa_net.client.network_session import SeatLostError, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m

FAST = ("--grace", "0.2", "--away-limit", "1")
"""A grace period and an away limit short enough for a test (a second; ten minutes by
default)."""
TAKEN = (
    "your seat at table {} was taken by Lea after you were away for more than 1 second; "
    "`scopa-net join` lists the open seats"
)


async def _ivo_s_seat_taken(port: int, version: int | None = None) -> tuple[int, bytes, bytes]:
    """Ada and Ivo sit down, the match begins, Ivo's window dies; once he has been away past
    the limit Lea takes his seat. The table, Ivo's last token, and the host's key."""
    ada = await RawSeat.connect(port, version=version)
    welcome = next(msg for msg in ada.received if isinstance(msg, m.Welcome))
    table_id = await ada.create(create(RuleSet.of(2, 16)))
    await ada.join(table_id, 0, "Ada")
    ivo = await RawSeat.connect(port, version=version)
    await ivo.join(table_id, 1, "Ivo")
    await ada.until(lambda msg: isinstance(msg, m.RoundCommit))
    await ivo.aclose()
    await listed_away(port, "Ivo", version)
    lea = await RawSeat.connect(port, version=version)
    await lea.join(table_id, None, "Lea")
    assert lea.seat == 1
    assert ivo.token is not None
    for seat in (ada, lea):
        await seat.aclose()
    return table_id, ivo.token, welcome.host_key


async def _resumed(port: int, table_id: int, token: bytes, version: int) -> m.Error:
    back = await RawSeat.connect(port, version=version)
    await back.send(m.Resume(table_id=table_id, seat=1, token=token, last_seq=0))
    refused = await back.until(lambda msg: isinstance(msg, m.Error))
    await back.aclose()
    assert isinstance(refused, m.Error)
    return refused


def _ivo_s_kept_seat(port: int, table_id: int, token: bytes, key: bytes) -> SeatRecord:
    """Ivo's seat as his client kept it on disk: his last token."""
    record = kept_seat(port, table_id=table_id, name="Ivo", host_key=key.hex(), target=16)
    return replace(record, tokens=(token.hex(),))


async def _taking_back(port: int, record: SeatRecord, home: Path) -> str:
    """What Ivo reads when his client takes his kept seat back."""
    store = SeatStore(home)
    store.save(record)
    choice = TableChoice(table_id=record.table_id, seat=record.seat)
    with pytest.raises(SeatLostError) as lost:
        async with open_network_session(
            "127.0.0.1", port, choice, name="Ivo", data_dir=home, store=store, resume_from=record
        ):
            pass
    return str(lost.value)


async def test_a_seat_taken_while_away_is_refused_with_its_why_and_none_in_version_4() -> None:
    """Ivo, back after Lea took his seat, gets `bad_token` with `why:
    "seat_taken_while_away"`; the same resume from a client of protocol 4 gets the same words
    without the key (its codec refuses keys it does not know: that would end its
    connection)."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=0.2, away_limit=1.0)
        table_id, token, _ = await _ivo_s_seat_taken(host.port)
        newest = await _resumed(host.port, table_id, token, m.PROTOCOL_VERSION)
        assert (newest.code, newest.why) == ("bad_token", "seat_taken_while_away")
        assert newest.message == TAKEN.format(table_id)
        older = await _resumed(host.port, table_id, token, 4)
        assert (older.code, older.why, older.message) == ("bad_token", None, newest.message)
        wrong = await _resumed(host.port, table_id, bytes(16), m.PROTOCOL_VERSION)
        assert (wrong.code, wrong.why) == ("bad_token", None)  # a wrong token: no reason
        nursery.cancel_scope.cancel()


async def test_the_client_reads_why_not_the_words(tmp_path: Path) -> None:
    """A host that words the refusal otherwise ("Lea sits there now") but says why in the key:
    Ivo reads its words as the reason his seat is gone. Before, his client, matching our
    host's English, told him "the seat was given up, the match ended, or someone took it"."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=0.2, away_limit=1.0)
        table_id, token, key = await _ivo_s_seat_taken(host.port)
        task = host.tables[table_id]
        for seat_token, (_, logged) in list(task._taken.items()):
            task._taken[seat_token] = ("Lea sits there now", logged)  # another host's words
        record = _ivo_s_kept_seat(host.port, table_id, token, key)
        said = await _taking_back(host.port, record, tmp_path)
        nursery.cancel_scope.cancel()
    assert said == (
        f"The host at 127.0.0.1:{host.port} no longer holds seat 1 at table {table_id} for "
        "you: Lea sits there now."
    )


async def test_at_a_host_of_protocol_4_the_client_plays_and_reads_its_words(
    tmp_path: Path,
) -> None:
    """A host that speaks only protocol 4 (an older scopa-net) refuses this client's hello
    in 5, naming its 4: the client says hello again in 4 and goes on there. Ivo's seat taken
    while he was away is told in that host's words, as before (it sends no `why`). `join`'s
    first look at the host (its tables and key) says hello again too: it gave the connection
    it had opened to check the address a second time, closed, and ended in a traceback."""
    from scopa_net.commands.join_host import ask_host

    port = free_port()
    older = await start_older_host(-1, tmp_path / "host.db", port, *FAST)
    try:
        table_id, token, key = await _ivo_s_seat_taken(port, version=4)
        record = _ivo_s_kept_seat(port, table_id, token, key)
        said = await _taking_back(port, record, tmp_path / "ivo")
        _, looked_at = await trio.to_thread.run_sync(ask_host, "127.0.0.1", port)
        assert looked_at == key
    finally:
        older.kill()
        await older.wait()
        HELLO_VERSIONS.forget("127.0.0.1", port)  # no later test's host there is greeted in 4
    assert said == (
        f"The host at 127.0.0.1:{port} no longer holds seat 1 at table {table_id} for you: "
        f"{TAKEN.format(table_id)}."
    )
