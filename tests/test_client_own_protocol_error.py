"""An error of this client's own making (its own protocol state machine refusing what it
sends, LocalProtocolError) is not a lost connection: reconnecting would send the same thing
again, and the seat was resumed about once a second for as long as the table lasted. The
session stops at once, in one line with the error's words, the seat kept, status 1."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from hosting import create, start_host

from scopa_net.client.launch import session_failure
from scopa_net.client.network_session import OwnProtocolError, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.commands.options import EXIT_FAILED
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.wire.connection import PlayerConnection
from scopa_net.wire.errors import ErrorCode, LocalProtocolError

BROKEN = "seed_commit: a bug made on purpose"


async def test_our_own_protocol_error_stops_the_session_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ada's client cannot send its seed's commitment (a send broken on purpose, as our own
    state machine refuses a message out of order): it stops after that one connection, and
    the last line says it is a bug in this client, the error's words, and how the seat kept
    is taken back. Before, it read that as a lost connection and resumed again and again."""
    sent = PlayerConnection.send

    def broken(self: PlayerConnection, msg: m.Message, frame: bytes | None = None) -> bytes:
        if isinstance(msg, m.SeedCommit):
            raise LocalProtocolError(ErrorCode.OUT_OF_ORDER, BROKEN)
        return sent(self, msg, frame)

    monkeypatch.setattr(PlayerConnection, "send", broken)
    store = SeatStore(tmp_path)
    connections: list[trio.SocketStream] = []
    port: list[int] = []

    async def connect() -> trio.abc.Stream:
        connections.append(await trio.open_tcp_stream("127.0.0.1", port[0]))
        return connections[-1]

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=600)
            port.append(host.port)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            with pytest.RaisesGroup(OwnProtocolError, flatten_subgroups=True) as stopped:
                async with open_network_session(
                    "127.0.0.1", host.port, choice, name="Ada", store=store, connector=connect
                ):
                    await trio.sleep(8)  # (stopped long before: the group raised)
            nursery.cancel_scope.cancel()
    assert len(connections) == 1
    (ended,) = stopped.value.exceptions
    failure = session_failure(ended)  # type: ignore[arg-type]
    assert failure.status == EXIT_FAILED
    assert str(failure) == (
        f"this client broke the protocol itself (out_of_order: {BROKEN}): a bug in "
        "scopa-net, not the host's doing nor the network's; stopped rather than reconnect "
        "again and again; the host keeps your seat while the table is open: "
        f"`scopa-net join 127.0.0.1:{host.port}` takes it back"
    )
    assert "\n" not in str(failure)
    assert len(store.records()) == 1
