"""What an outside auditor found attacking a real host from protocol.md alone, over loopback TCP.

Each test pins one statement of the document (section numbers in the docstrings) that the host
did not keep, or that the document left unsaid, with the bytes the auditor sent.
"""

from __future__ import annotations

import logging

import pytest
import trio
from hosting import MakeHost
from rawseat import RawSeat

from scopa_net.server.host import Host
from scopa_net.wire import messages as m
from scopa_net.wire.codec import encode


async def all_closed(host: Host) -> None:
    """Wait until the host has finished with every connection (logged all it will)."""
    with trio.fail_after(10):
        while host._sessions:
            await trio.sleep(0.01)


async def test_answers_owed_before_a_peers_bye_are_dropped_quietly(
    make_host: MakeHost, caplog: pytest.LogCaptureFixture
) -> None:
    """3.1: a ``bye`` ends the connection at once, and the answers owed to the frames before it
    in the same burst are dropped. They were, but each ``pong`` so dropped wrote an ERROR line
    ("host sent out of order") to the host's log: any peer could fill it."""
    caplog.set_level(logging.DEBUG, logger="scopa_net.host")
    host = await make_host()
    raw = await RawSeat.connect(host.port)
    await raw.stream.send_all(
        encode(m.Ping(nonce=7)) + encode(m.Bye(reason="quit", message="goodbye"))
    )
    assert await raw.stream.receive_some(65536) == b""  # no pong, no bye: it said bye first
    await raw.aclose()
    await all_closed(host)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert errors == []
    assert any("pong dropped, the peer said bye" in r.getMessage() for r in caplog.records)
