"""Hostile frames against a real host over loopback TCP (issue 16, "done when").

Each connection says hello and then sends a run of frames built to break the host: valid
messages out of their state, fields dropped, added or of the wrong type, bad lengths, frames
cut short, garbage, deep nesting; a known ping closes each run. Pass: every connection ends in
one of two ways only: the host answers that last ping (nothing fatal was sent, and every
request before it was answered), or its last frame is a `bye` whose reason is a code of
protocol.md 3.8; never a silent close, a reset, or an ERROR in the host's log. CI runs a few
thousand frames; ``--runslow`` runs about 100,000 (two seeds).
"""

from __future__ import annotations

import logging
import random

import msgpack
import pytest
import trio
from hosting import start_host

from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.errors import ErrorCode
from scopa_net.wire.framing import FrameReader

SENTINEL = 4_000_000_001
CODES = {c.value for c in ErrorCode}


def _valid(rng: random.Random) -> dict:
    """A well-formed message map of a random player type (often out of its state)."""
    token = rng.randbytes(16)
    choices = [
        {"t": "ping", "nonce": rng.randrange(2**32)},
        {"t": "pong", "nonce": rng.randrange(2**32)},
        {"t": "list_tables"},
        {
            "t": "create_table",
            "name": "fz",
            "rules": {"players": 2, "target": 11, "variants": []},
            "password": None,
            "bots": 1,
            "bot_level": 1,
        },
        {
            "t": "join",
            "table_id": rng.randrange(1, 4),
            "seat": None,
            "name": "fz",
            "password": None,
        },
        {
            "t": "resume",
            "table_id": rng.randrange(1, 4),
            "seat": rng.randrange(2),
            "token": token,
            "last_seq": rng.randrange(50),
        },
        {"t": "leave"},
        {"t": "say", "text": "hi"},
        {
            "t": "play",
            "move_id": rng.randrange(1, 100),
            "after": 0,
            "card": rng.randrange(40),
            "captured": 0,
        },
        {"t": "seed_commit", "round_id": rng.randbytes(16), "commit": rng.randbytes(32)},
        {"t": "seed_reveal", "round_id": rng.randbytes(16), "seed": rng.randbytes(32)},
        {"t": "hello", "version": 1, "client": "again"},
    ]  # no `bye`: after the peer's own bye the host closes without one, as it should
    return rng.choice(choices)


ODD_VALUES = [
    None,
    True,
    -1,
    2**40,
    -(2**63),
    1.5,
    "",
    "x" * 5000,
    b"",
    b"\x00" * 65,
    [],
    {},
    [[[[[[1]]]]]],
]


def _mutated(rng: random.Random) -> bytes:
    msg = _valid(rng)
    keys = [k for k in msg if k != "t"]
    what = rng.randrange(6)
    if what == 0 and keys:
        del msg[rng.choice(keys)]
    elif what == 1:
        msg[rng.choice(["extra", "zz", "T"])] = 1
    elif what == 2 and keys:
        msg[rng.choice(keys)] = rng.choice(ODD_VALUES)
    elif what == 3:
        msg["t"] = rng.choice(["nope", "", 7, None, "PING"])
    elif what == 4:
        return _frame(msgpack.packb(rng.choice([[1, 2], 5, "t", b"x", None])))
    return _frame(msgpack.packb(msg, use_bin_type=True))


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def _raw(rng: random.Random) -> bytes:
    what = rng.randrange(6)
    if what == 0:
        return rng.choice([0, 65537, 2**31, 2**32 - 1]).to_bytes(4, "big")
    if what == 1:  # a frame cut short: the host's frame deadline ends it
        whole = _frame(msgpack.packb(_valid(rng), use_bin_type=True))
        return whole[: rng.randrange(1, len(whole))]
    if what == 2:
        return rng.randbytes(rng.randrange(1, 64))
    if what == 3:
        deep = b"\x91" * rng.randrange(4, 40) + b"\x00"
        return _frame(deep)
    if what == 4:
        return _frame(b"\x81\xa1t\xa4ping" + rng.randbytes(3))  # bytes after the map
    return _frame(b"\xc1")


def hostile_run(rng: random.Random, length: int) -> list[bytes]:
    frames = []
    for _ in range(length):
        kind = rng.random()
        if kind < 0.5:
            frames.append(encode_valid(rng))
        elif kind < 0.85:
            frames.append(_mutated(rng))
        else:
            frames.append(_raw(rng))
    return frames


def benign_run(rng: random.Random, length: int) -> list[bytes]:
    """Pings and one lobby request (a player may not send another request before the answer,
    3.1): every one must be answered."""
    pings = [{"t": "ping", "nonce": rng.randrange(2**32)} for _ in range(min(length, 4) - 1)]
    while (request := _valid(rng))["t"] not in LOBBY:
        pass
    return [_frame(msgpack.packb(msg, use_bin_type=True)) for msg in [*pings, request]]


LOBBY = ("list_tables", "create_table")


def encode_valid(rng: random.Random) -> bytes:
    return _frame(msgpack.packb(_valid(rng), use_bin_type=True))


async def one_connection(port: int, frames: list[bytes], *, sliced: bool) -> tuple[str, str]:
    """Send the frames and the sentinel ping; returns (how it ended, detail)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    received = bytearray()
    ended = "eof"
    try:
        await stream.send_all(encode(m.Hello(version=m.PROTOCOL_VERSION, client="fuzz")))
        reader = FrameReader()
        with trio.fail_after(10):
            while not isinstance(reader.next_frame(), bytes):
                reader.receive_data(await stream.receive_some(65536))
        payload = b"".join(frames) + encode(m.Ping(nonce=SENTINEL))

        async def send() -> None:
            try:
                if sliced:
                    for i in range(0, len(payload), 7):
                        await stream.send_all(payload[i : i + 7])
                else:
                    await stream.send_all(payload)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

        with trio.fail_after(10):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(send)
                while True:
                    try:
                        data = await stream.receive_some(65536)
                    except trio.BrokenResourceError:
                        ended = "reset"
                        break
                    if not data:
                        break
                    received += data
                    if _answered(received):
                        ended = "pong"
                        break
                nursery.cancel_scope.cancel()
    finally:
        await trio.aclose_forcefully(stream)
    if ended == "pong":
        return "pong", ""
    messages = _decoded(bytes(received))
    last = messages[-1] if messages else None
    if isinstance(last, m.Bye):
        return "bye", last.reason
    return ended, repr(messages[-3:])


def _decoded(data: bytes) -> list[m.Message]:
    reader = FrameReader()
    reader.receive_data(data)
    out = []
    while isinstance(frame := reader.next_frame(), bytes):
        out.append(decode(frame))
    return out


def _answered(data: bytes) -> bool:
    return any(isinstance(x, m.Pong) and x.nonce == SENTINEL for x in _decoded(data))


@pytest.mark.parametrize("seed", [0, 1])
async def test_every_hostile_connection_ends_answered_or_with_a_bye(
    seed: int, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    slow = request.config.getoption("--runslow")
    connections = 3000 if slow else 150
    rng = random.Random(seed)
    outcomes: dict[str, int] = {}
    failures: list[str] = []
    frames_sent = 0
    async with trio.open_nursery() as nursery:
        host = await start_host(
            nursery,
            frame_timeout=1.0,
            max_connections_per_address=10_000,
            max_tables_per_address=10_000,
            request_burst=10_000,
            request_rate=10_000.0,
            chat_lines=10_000,
        )
        limiter = trio.CapacityLimiter(16)

        async def run(i: int) -> None:
            nonlocal frames_sent
            local = random.Random(rng.random())
            benign = i % 7 == 0
            length = local.randrange(1, 40 if slow else 30)
            frames = benign_run(local, length) if benign else hostile_run(local, length)
            frames_sent += len(frames)
            async with limiter:
                how, detail = await one_connection(
                    host.port, frames, sliced=not benign and i % 5 == 1
                )
            outcomes[how] = outcomes.get(how, 0) + 1
            if how not in ("pong", "bye") or (how == "bye" and detail not in CODES):
                failures.append(f"connection {i}: {how} {detail}")
            if benign and how != "pong":
                failures.append(f"connection {i}: lobby requests only, yet {how} {detail}")

        async with trio.open_nursery() as runs:
            for i in range(connections):
                runs.start_soon(run, i)
        nursery.cancel_scope.cancel()
    print(f"seed {seed}: {connections} connections, {frames_sent} frames: {outcomes}")
    assert not failures, (outcomes, failures[:5])
    assert outcomes.get("bye", 0) > connections // 2, outcomes
    assert outcomes.get("pong", 0) > 0, outcomes
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]
    assert frames_sent > connections
