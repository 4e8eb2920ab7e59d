"""A seed is never sent while a resume's snapshot is still to come (the connection
``syncing``, protocol.md 3.3): sent then, our own state machine refused it, the refusal read
as a lost connection, and the seat was resumed again and again, as a held move once was."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from types import SimpleNamespace

import trio

from scopa_net.client.host_link import _Link
from scopa_net.client.reconnection import Reconnection
from scopa_net.wire import messages as m
from scopa_net.wire.connection import HostConnection, State

KEY = bytes(range(32))
TOKEN = b"\x07" * 16


def _to(host: HostConnection, link: _Link, msg: m.Message) -> None:
    """Give the player's connection ``msg`` as the host sends it."""
    link.conn.receive_data(host.send(msg))
    assert link.conn.next_event() == msg


def _from(link: _Link, host: HostConnection, msg: m.Message) -> None:
    host.receive_data(link.conn.send(msg))
    assert host.next_event() == msg


async def _quiet(stream: trio.SocketStream) -> None:
    await trio.sleep_forever()


class Seeds:
    def __init__(self) -> None:
        self.sent = 0

    async def send_seed_if_due(self) -> None:
        self.sent += 1


@asynccontextmanager
async def quiet_link() -> AsyncIterator[_Link]:
    """A player's link to a loopback listener that never answers, closed however the test
    ends (a socket left to the collector fails a later test with a ResourceWarning)."""
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, _quiet, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        with trio.fail_after(10):
            link = _Link(await trio.open_tcp_stream("127.0.0.1", port))
            try:
                yield link
            finally:
                await link.aclose()
        nursery.cancel_scope.cancel()


def seed_due(*, stop: bool) -> tuple[Reconnection, SimpleNamespace, Seeds]:
    """The reconnection of a session whose seed is due (``stop``: the person is leaving)."""
    seeds = Seeds()
    session = SimpleNamespace(
        _seed_due=True,
        _replaying=False,
        _catch_up_due=False,
        _resumed_at=-math.inf,
        _seeds=seeds,
        _stop=stop,
    )
    reconnection = Reconnection.__new__(Reconnection)
    reconnection.session = session
    return reconnection, session, seeds


async def test_no_seed_goes_while_the_resume_snapshot_is_not_read() -> None:
    """Resumed by snapshot, the snapshot late: the seed waits (no send, no protocol error),
    still due; once the snapshot is read it goes."""
    async with quiet_link() as link:
        host = HostConnection()
        _from(link, host, m.Hello(version=m.PROTOCOL_VERSION, client="test"))
        _to(host, link, m.Welcome(version=m.PROTOCOL_VERSION, host_name="h", host_key=KEY))
        _from(link, host, m.Resume(table_id=3, seat=0, token=TOKEN, last_seq=4))
        _to(host, link, m.Resumed(table_id=3, seat=0, token=TOKEN, epoch=2, catch_up="snapshot"))
        assert link.conn.state is State.SYNCING
        reconnection, session, seeds = seed_due(stop=False)
        await reconnection.send_seed_when_quiet(link)
        assert seeds.sent == 0
        assert session._seed_due
        link.conn.state = State.SEATED  # the snapshot read
        await reconnection.send_seed_when_quiet(link)
        assert seeds.sent == 1


async def test_no_seed_goes_once_the_person_is_leaving() -> None:
    """A seed falls due as the person steps away or leaves (the ``leave`` sent, the session
    stopping): it is not sent after the ``leave``, which our own state machine refuses
    (``leaving``), once read as this client's own protocol error."""
    async with quiet_link() as link:
        link.conn.state = State.SEATED
        reconnection, session, seeds = seed_due(stop=True)
        await reconnection.send_seed_when_quiet(link)
        assert seeds.sent == 0
        session._stop = False  # the same seat, not leaving: the seed goes
        await reconnection.send_seed_when_quiet(link)
        assert seeds.sent == 1
