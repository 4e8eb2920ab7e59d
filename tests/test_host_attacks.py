"""A hostile peer against a real host over loopback TCP, on the paths added last: heartbeats
with a peer that talks but never answers a ping, ... Each test is an attack that found a
defect, kept so that it stays fixed (protocol.md's section in each docstring)."""

from __future__ import annotations

import logging

import pytest
import trio
from document_hostile import Peer
from helpers import host_said
from hosting import MakeHost


async def test_a_peer_that_talks_but_never_answers_a_ping_is_never_sent_a_fifth(
    make_host: MakeHost, caplog: pytest.LogCaptureFixture
) -> None:
    """3.1, 3.6: at most four pings are unanswered, and any bytes received are a sign of life.
    A peer that sent a request now and then (each gap longer than the host's ping interval)
    but never a `pong` got a ping at every gap; at the fifth the host's own state machine
    refused its ping: the connection ended with no `bye`, and the host's log said, as an
    ERROR, "host sent out of order: rate_limited: more than 4 pings unanswered"."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    host = await make_host(heartbeat_interval=0.1, silence_timeout=5.0)
    peer = await Peer.connect(host.port)
    await peer.hello()
    peer.answer_pings = False
    pings = tables = 0
    with trio.fail_after(10):
        for _ in range(8):
            await trio.sleep(0.2)  # a gap past the ping interval: the host pings
            await peer.send({"t": "list_tables"})
            while (message := await peer.next()) is not None and message["t"] == "ping":
                pings += 1
            assert message is not None, "the host closed the connection, with no bye"
            assert message["t"] == "tables", message
            tables += 1
    assert tables == 8
    assert pings == 4  # one at each of the first four gaps, none past four unanswered
    assert await peer.stays_open()
    await peer.aclose()
    assert not [line for line in host_said(caplog) if "out of order" in line]
