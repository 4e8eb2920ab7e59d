"""A move typed in the moment a seat is being taken back by snapshot, the connection still
``syncing`` (protocol.md 3.3): it waits for the snapshot and goes. Sent before it, our own
state machine refused it, the refusal was swallowed, and the move never went: the person
waited for an answer that could not come, and nothing said so. A seed due then waits for
the snapshot too (sent before it, the same refusal was read as a lost connection)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import trio
from hosting import Cuttable, Through, create, start_host

from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.session import ConnectionState
from scopa_net.rules import RuleSet
from scopa_net.server import table_task
from scopa_net.server.host import Host
from scopa_net.wire.connection import State
from scopa_net.wire.framing import HEADER_SIZE

SNAPSHOT = b"\xa1t\xa8snapshot"
"""How a ``snapshot`` message's type reads in its msgpack bytes (``"t": "snapshot"``; a
``resumed`` has ``"catch_up": "snapshot"``)."""


class LateSnapshot(Through):
    """Passes the host's frames on one at a time, the first ``snapshot`` held ``late``
    seconds: a host slow to send the table as it stands after ``resumed``."""

    def __init__(self, inner: trio.abc.Stream, late: float) -> None:
        super().__init__(inner)
        self.late = late
        self._due: float | None = None
        self._got = b""

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        while True:
            end = HEADER_SIZE + int.from_bytes(self._got[:HEADER_SIZE], "big")
            if len(self._got) >= HEADER_SIZE and len(self._got) >= end:
                if self.late and SNAPSHOT in self._got[:end]:
                    if self._due is None:
                        self._due = trio.current_time() + self.late
                    await trio.sleep_until(self._due)  # cancelled, the frame is kept
                    self.late = 0
                one, self._got = self._got[:end], self._got[end:]
                return one
            data = await self.inner.receive_some(65536)
            if not data:
                return b""
            self._got += data


async def test_a_move_typed_while_the_snapshot_is_awaited_goes_once_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ada's connection drops at her turn; the host takes her back by snapshot (made so
    here: no replay) and is slow to send it. She plays in that moment: the move goes once
    the snapshot is read, and is played."""
    connections: list[Through] = []
    port: list[int] = []

    async def connect() -> trio.abc.Stream:
        stream = await trio.open_tcp_stream("127.0.0.1", port[0])
        connections.append(Cuttable(stream) if not connections else LateSnapshot(stream, 1.0))
        return connections[-1]

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=600)
            port.append(host.port)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path, connector=connect
            ) as ada:
                while ada.view is None or not ada.view.my_turn:
                    await trio.sleep(0.02)
                play = legal_plays(ada.view)[0]
                # From here a resume is answered by a snapshot of the table as it stands.
                assert ada.table_id is not None
                task = host.tables[ada.table_id]
                monkeypatch.setattr(task, "config", replace(task.config, replay_limit=-1))
                monkeypatch.setattr(table_task.TableTask, "_kept_from", lambda self, seat: None)
                first = connections[0]
                assert isinstance(first, Cuttable)
                first.cut.set()
                while ada._link is None or ada._link.conn.state is not State.SYNCING:
                    await trio.sleep(0.01)
                with trio.move_on_after(8) as waited:
                    record = await ada.submit(play)
                assert not waited.cancelled_caught, "the move never went"
                assert record.play == play
            nursery.cancel_scope.cancel()
    assert len(connections) == 2


class LosesTheSeedCommit(Cuttable):
    """A connection that swallows this seat's first ``seed_commit`` and is then cut: the host
    still waits for it when the seat is taken back."""

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if SEED_COMMIT in bytes(data):
            self.cut.set()
            return
        await self.inner.send_all(data)


SEED_COMMIT = b"\xa1t\xabseed_commit"


async def test_a_seed_due_while_the_snapshot_is_awaited_goes_once_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ada's commitment to the first deal is lost with her connection; the host takes her
    back by snapshot (made so here, of the table as it stands: a real host replays a round
    under way) and is slow to send it. Her client sends nothing before it: one resume, and
    the seat stays connected. Before, the seed went while 'syncing', our own state machine
    refused it, and the session stopped (before that, resumed again and again)."""
    connections: list[Through] = []
    port: list[int] = []
    hosts: list[Host] = []

    async def connect() -> trio.abc.Stream:
        stream = await trio.open_tcp_stream("127.0.0.1", port[0])
        if not connections:
            connections.append(LosesTheSeedCommit(stream))
        else:
            (task,) = hosts[0].tables.values()  # from here, taken back by snapshot
            monkeypatch.setattr(task, "config", replace(task.config, replay_limit=-1))
            monkeypatch.setattr(table_task.TableTask, "_kept_from", lambda self, seat: None)
            monkeypatch.setattr(table_task.TableTask, "_catch_up_point", lambda self, seat: None)
            connections.append(LateSnapshot(stream, 1.0))
        return connections[-1]

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=600)
            hosts.append(host)
            port.append(host.port)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path, connector=connect
            ) as ada:
                while len(connections) < 2 or ada._link is None:
                    await trio.sleep(0.02)
                while ada._link.conn.state is not State.SEATED:  # the late snapshot, read
                    await trio.sleep(0.02)
                await trio.sleep(1.0)  # time to break the protocol, and to resume again
                assert ada.connection is ConnectionState.CONNECTED
            nursery.cancel_scope.cancel()
    assert len(connections) == 2
