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
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.framing import FrameReader


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


async def answers_to(port: int, data: bytes) -> list[m.Message]:
    """Everything the host sends after ``welcome`` in answer to ``data`` (written at once),
    until it closes the connection."""
    raw = await RawSeat.connect(port)
    await raw.stream.send_all(data)
    received = bytearray()
    with trio.fail_after(10):
        while chunk := await raw.stream.receive_some(65536):
            received += chunk
    await raw.aclose()
    reader = FrameReader()
    reader.receive_data(bytes(received))
    messages = []
    while isinstance(frame := reader.next_frame(), bytes):
        messages.append(decode(frame))
    return messages


def kinds(messages: list[m.Message]) -> list[str]:
    return [f"bye {x.reason}" if isinstance(x, m.Bye) else x.TYPE for x in messages]


async def test_a_fifth_ping_in_one_write_gets_the_four_pongs_owed_then_bye(host: Host) -> None:
    """3.1, 3.6: a fifth ``ping`` while four are unanswered is ``rate_limited``. Five in one
    write got the bye and not one pong: the host read all five before it wrote anything, and
    on closing dropped the four answers it owed. A ping counts as unanswered until the host has
    written its pong; the four owed go out before the bye."""
    five = b"".join(encode(m.Ping(nonce=n)) for n in range(5))
    answers = await answers_to(host.port, five)
    assert kinds(answers) == ["pong"] * 4 + ["bye rate_limited"]
    assert [x.nonce for x in answers[:4]] == [0, 1, 2, 3]  # type: ignore[attr-defined]
    four = b"".join(encode(m.Ping(nonce=n)) for n in range(4)) + encode(
        m.Bye(reason="quit", message="")
    )
    assert await answers_to(host.port, four) == []  # the peer's own bye: owed answers dropped


@pytest.mark.parametrize(
    ("after", "reason"),
    [(b"\0\0\0\0", "bad_frame"), (encode(m.ListTables()), "out_of_order")],
    ids=["a bad frame", "a second list_tables"],
)
async def test_the_host_sends_what_it_owes_before_its_own_bye(
    host: Host, after: bytes, reason: str
) -> None:
    """3.1: a ``list_tables`` followed in the same write by a frame the host refuses got only
    the ``bye``: the ``tables`` owed to the first frame was lost. It now goes first."""
    answers = await answers_to(host.port, encode(m.ListTables()) + after)
    assert kinds(answers) == ["tables", f"bye {reason}"]


async def test_a_stream_cut_inside_a_frame_is_a_bad_frame(
    host: Host, caplog: pytest.LogCaptureFixture
) -> None:
    """1, 3.8: "a connection that closes in the middle of a frame has sent a ``bad_frame``".
    The host answered the auditor's cut frame (a length of 19, then 4 bytes, then the write
    side shut) with ``bye quit`` and logged nothing: it took the cut for a peer leaving."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    raw = await RawSeat.connect(host.port)
    await raw.stream.send_all(bytes.fromhex("00000013 82a174a4"))
    await raw.stream.send_eof()  # type: ignore[attr-defined]
    bye = await raw.until(lambda msg: isinstance(msg, m.Bye))
    assert bye.reason == "bad_frame"  # type: ignore[attr-defined]
    await raw.aclose()
    await all_closed(host)
    said = [r.getMessage() for r in caplog.records]
    assert any("bad_frame: stream ended inside a frame (4 of 19 bytes)" in x for x in said), said
