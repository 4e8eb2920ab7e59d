"""The reader's deadlines are kept lazily (one cancel scope over many reads, server/session.py):
a peer that keeps talking is never pinged nor dropped however long it talks, and once it falls
silent the host's ping and its closing come exactly as long after the *last* frame as the
settings say, not after the frame that opened the scope. Virtual time (the autojump clock)."""

from __future__ import annotations

import contextlib
from functools import partial

import pytest
import trio
import trio.testing
from hosting import serve_then_close

from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.framing import FrameReader

LIMITS = HostConfig(db=":memory:", advertise=False)
TALKING = 3 * LIMITS.silence_timeout
"""How long the peer talks: the silence timeout several times over."""


@pytest.mark.parametrize(
    "share",
    [
        pytest.param(0.3, id="often (the deadline is moved every few frames)"),
        pytest.param(0.7, id="seldom (the deadline is moved at every frame)"),
        pytest.param(0.97, id="just in time"),
    ],
)
async def test_a_talking_peer_is_not_pinged_and_a_silent_one_is_timed_from_its_last_frame(
    autojump_clock: trio.testing.MockClock, share: float
) -> None:
    talk_every = share * LIMITS.heartbeat_interval
    talks = int(TALKING / talk_every)
    client, server = trio.testing.memory_stream_pair()
    heard: list[tuple[float, m.Message]] = []
    reader = FrameReader()
    start = trio.current_time()
    last_sent: list[float] = []

    async def talk() -> None:
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await client.send_all(encode(m.Hello(version=m.PROTOCOL_VERSION, client="peer")))
            for n in range(talks):
                await trio.sleep(talk_every)
                await client.send_all(encode(m.Ping(nonce=n)))
                last_sent.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        host = Host(LIMITS, Journal(":memory:"))
        await nursery.start(partial(serve_then_close, host, listen=False))
        nursery.start_soon(host.handle_stream, server, "peer", "peer")
        nursery.start_soon(talk)
        with trio.fail_after(3600):
            while data := await client.receive_some(65536):
                reader.receive_data(data)
                while isinstance(frame := reader.next_frame(), bytes):
                    heard.append((trio.current_time() - start, decode(frame)))
        nursery.cancel_scope.cancel()
    last = last_sent[-1] - start
    pings = [t for t, msg in heard if isinstance(msg, m.Ping)]
    byes = [(t, msg.reason) for t, msg in heard if isinstance(msg, m.Bye)]
    pongs = [msg for _, msg in heard if isinstance(msg, m.Pong)]
    assert len(pongs) == talks  # every ping of the peer's was read and answered in time
    assert [round(t - last, 3) for t in pings] == [
        round(k * LIMITS.heartbeat_interval, 3)
        for k in range(1, 1 + int(LIMITS.silence_timeout / LIMITS.heartbeat_interval))
        if k * LIMITS.heartbeat_interval < LIMITS.silence_timeout
    ]
    assert [(round(t - last, 3), reason) for t, reason in byes] == [
        (round(LIMITS.silence_timeout, 3), "timeout")
    ]
