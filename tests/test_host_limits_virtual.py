"""The host's limits on hostile peers, timed in virtual time (trio's autojump clock, memory
streams) at the host's real settings: each peer is closed exactly when its limit says, with the
reason it names, and a client that stops reading is dropped when a write to it stalls, while its
table goes on. test_host_reliability keeps one smoke test of the same over TCP."""

from __future__ import annotations

import contextlib
from functools import partial

import pytest
import trio
import trio.testing
from hosting import create, serve_then_close, start_memory_host

from scopa_net.client.network_session import NetworkSession, TableChoice, _Link
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.server.session import DRAIN_TIME
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.framing import FrameReader

LIMITS = HostConfig(db=":memory:", advertise=False)
HELLO = encode(m.Hello(version=m.PROTOCOL_VERSION, client="peer"))
DEEP = b"\x91" * 20000 + b"\x00"


async def closed_after(host: Host, payload: bytes, drip: float = 0.0) -> tuple[str, float]:
    """Connect, send ``payload`` (a byte every ``drip`` seconds), read until the host closes;
    the reason of its ``bye`` ("closed" without one) and the seconds it took."""
    client, server = trio.testing.memory_stream_pair()
    received = bytearray()
    start = trio.current_time()

    async def send() -> None:
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            if drip:
                for b in payload:
                    await client.send_all(bytes([b]))
                    await trio.sleep(drip)
            else:
                await client.send_all(payload)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.handle_stream, server, "peer", "peer")
        nursery.start_soon(send)
        with trio.fail_after(3600):
            while data := await client.receive_some(65536):
                received += data
        elapsed = trio.current_time() - start
        nursery.cancel_scope.cancel()
    reader = FrameReader()
    reader.receive_data(bytes(received))
    reason = "closed"
    while isinstance(frame := reader.next_frame(), bytes):
        msg = decode(frame)
        if isinstance(msg, m.Bye):
            reason = msg.reason
    return reason, elapsed


@pytest.mark.parametrize(
    ("payload", "drip", "reason", "after"),
    [
        pytest.param(b"", 0.0, "timeout", LIMITS.handshake_timeout, id="silent"),
        pytest.param(HELLO, 0.0, "timeout", LIMITS.silence_timeout, id="mute after hello"),
        pytest.param(HELLO, 1.0, "timeout", LIMITS.frame_timeout, id="a byte a second"),
        # Four length bytes and nothing more: the frame deadline, though silence would be
        # allowed longer (issue 16 item 4).
        pytest.param(
            HELLO + (16).to_bytes(4, "big"),
            0.0,
            "timeout",
            LIMITS.frame_timeout,
            id="a frame cut after its length",
        ),
        pytest.param((2**31).to_bytes(4, "big"), 0.0, "bad_frame", 0.0, id="2^31 length"),
        pytest.param(len(DEEP).to_bytes(4, "big") + DEEP, 0.0, "bad_frame", 0.0, id="deep"),
        pytest.param(b"\x00\x00\x00\x05\xc1\xc1\xc1\xc1\xc1", 0.0, "bad_frame", 0.0, id="garbage"),
    ],
)
async def test_a_hostile_peer_is_closed_at_its_limit(
    autojump_clock: trio.testing.MockClock, payload: bytes, drip: float, reason: str, after: float
) -> None:
    async with trio.open_nursery() as nursery:
        host = Host(LIMITS, Journal(":memory:"))
        await nursery.start(partial(serve_then_close, host, listen=False))
        got, elapsed = await closed_after(host, payload, drip)
        nursery.cancel_scope.cancel()
    assert (got, round(elapsed, 1)) == (reason, after)


async def test_a_client_that_stops_reading_is_dropped_when_a_write_stalls(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A seated client that stops reading but sends a ping now and then (so it is neither
    silent nor over the limit of unanswered pings) is dropped ``send_timeout`` after the host's
    first write to it stalls (and the ``DRAIN_TIME`` given it to read the ``bye``); meanwhile
    its table goes on and the other player gets every event at once. The reader is on a
    lockstep stream (a write waits until the peer reads), so the stall starts with the first
    write after it stops reading."""
    assert LIMITS.send_timeout < LIMITS.silence_timeout
    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery)
        talker = NetworkSession(
            "mem", 0, TableChoice(create=create(RuleSet.of(2, 3))), name="talker",
            connector=net.connect,
        )  # fmt: skip
        nursery.start_soon(talker.run)
        await talker.connected.wait()
        task = host.tables[talker.table_id]
        client_end, host_end = trio.testing.lockstep_stream_pair()
        nursery.start_soon(host.handle_stream, host_end, "mute", "mute")
        mute = _Link(client_end)
        await mute.request(m.Hello(version=m.PROTOCOL_VERSION, client="mute"), m.Welcome)
        await mute.request(
            m.Join(table_id=talker.table_id, seat=None, name="mute", password=None), m.Joined
        )
        await mute.expect(m.Snapshot)
        assert 1 in task.attached
        stopped_reading = trio.current_time()

        async def keep_pinging() -> None:  # alive, but never reading again
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                for n in range(1000):
                    await mute.stream.send_all(encode(m.Ping(nonce=n)))
                    await trio.sleep(3.0)

        dropped: list[float] = []

        async def watch() -> None:
            while 1 in task.attached:
                await trio.sleep(0.01)
            dropped.append(trio.current_time() - stopped_reading)

        nursery.start_soon(keep_pinging)
        nursery.start_soon(watch)
        n = 0
        while not dropped:
            await talker.say(f"message {n}")
            n += 1
            # The talker is never held up by the stalled reader: its view is whole at once.
            with trio.fail_after(0.5):
                while talker.mirror.seq < len(task.table.seats[0].log):
                    await trio.sleep(0.01)
            await trio.sleep(2.0)  # under the chat limit (5 lines in 5 s)
        assert round(dropped[0], 1) == LIMITS.send_timeout + DRAIN_TIME
        assert not task.table.seats[1].connected
        assert n > LIMITS.send_timeout / 2 - 1  # the talker kept talking all along
        nursery.cancel_scope.cancel()
