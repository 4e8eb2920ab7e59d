"""The words of a ``bye bad_field`` from our host, over loopback TCP.

They named the message twice ("hello: hello: unknown 'x'", "ping: ping: unknown 'x'"): the
field's path already begins with the message's type. Now it is said once. (A host of
protocol 4 still says it twice; README and protocol.md 3.2 quote that older host's line.)"""

from __future__ import annotations

import logging

import msgpack
import pytest
import trio
from hosting import start_host
from rawseat import RawSeat

from scopa_net.wire import messages as m
from scopa_net.wire.framing import frame


async def _bye_after(port: int, raw: dict, *, hello_first: bool) -> m.Bye:
    """The host's ``bye`` to a connection that sends ``raw`` as it is (after a good hello)."""
    if hello_first:
        seat = await RawSeat.connect(port)
    else:
        seat = RawSeat(await trio.open_tcp_stream("127.0.0.1", port))
    await seat.stream.send_all(frame(msgpack.packb(raw)))
    bye = await seat.until(lambda msg: isinstance(msg, m.Bye), timeout=10)
    assert isinstance(bye, m.Bye)
    await seat.aclose()
    return bye


@pytest.mark.parametrize(
    ("raw", "hello_first", "words"),
    [
        (
            {"t": "hello", "version": m.PROTOCOL_VERSION, "client": "x", "x": 0},
            False,
            "hello: unknown 'x'",
        ),
        ({"t": "ping", "nonce": 1, "x": 0}, True, "ping: unknown 'x'"),
        ({"t": "ping"}, True, "ping: missing nonce"),
        ({"t": "ping", "nonce": "one"}, True, "ping.nonce: expected an int, got 'one'"),
    ],
)
async def test_a_bad_field_names_its_message_once(
    raw: dict, hello_first: bool, words: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="scopa_net")
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery)
            assert host.port is not None
            bye = await _bye_after(host.port, raw, hello_first=hello_first)
            await host.shutdown()
            nursery.cancel_scope.cancel()
    assert (bye.reason, bye.message) == ("bad_field", words)
    logged = [r.getMessage() for r in caplog.records if "bad_field" in r.getMessage()]
    assert any(line.endswith(f": bad_field: {words}") for line in logged), logged
