"""The host's limits on hostile peers, timed in virtual time (trio's autojump clock, memory
streams) at the host's real settings: each peer is closed exactly when its limit says, with the
reason it names. test_host_reliability keeps one smoke test of the same over TCP."""

from __future__ import annotations

import contextlib
from functools import partial

import pytest
import trio
import trio.testing

from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
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
        await nursery.start(partial(host.serve, listen=False))
        got, elapsed = await closed_after(host, payload, drip)
        nursery.cancel_scope.cancel()
    assert (got, round(elapsed, 1)) == (reason, after)
