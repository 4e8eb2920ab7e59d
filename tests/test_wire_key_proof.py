"""The host proves it holds the key its ``welcome`` gives (protocol.md 3.2, 5.3): a ``hello`` of
version 5 carries a ``challenge``, and the ``welcome`` answers it with ``key_proof``, the host's
Ed25519 signature over the challenge, the version and the key. Neither key exists in version 4:
the sans-IO connection leaves them out on a connection in 4 and refuses them there. A real host
on loopback answers a challenge with a proof that verifies, and 8.1's vector is the code's."""

from __future__ import annotations

import re

import pytest
import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from helpers import protocol_section
from hosting import start_host

from scopa_net.fair.commitments import check_signature, public_key_bytes, welcome_message
from scopa_net.fair.errors import BadSignatureError
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.connection import NEED_DATA, HostConnection, PlayerConnection
from scopa_net.wire.errors import ErrorCode, RemoteProtocolError

CHALLENGE = bytes(range(0x40, 0x60))
KEY = bytes(range(32))
PROOF = bytes(range(64))


def test_a_connection_in_4_leaves_challenge_and_key_proof_out() -> None:
    """A ``hello`` in 4 goes without its challenge, and a ``welcome`` in 4 without its proof:
    a peer of 4 would refuse either as a key it does not know."""
    player, host = PlayerConnection(), HostConnection()
    sent = player.send(m.Hello(version=4, client="c", challenge=CHALLENGE))
    assert decode(sent[4:]) == m.Hello(version=4, client="c")
    host.receive_data(sent)
    assert host.next_event() == m.Hello(version=4, client="c")
    welcome = host.send(m.Welcome(version=4, host_name="h", host_key=KEY, key_proof=PROOF))
    assert decode(welcome[4:]) == m.Welcome(version=4, host_name="h", host_key=KEY)


def test_a_connection_in_5_carries_them() -> None:
    player, host = PlayerConnection(), HostConnection()
    hello = m.Hello(version=5, client="c", challenge=CHALLENGE)
    host.receive_data(player.send(hello))
    assert host.next_event() == hello
    welcome = m.Welcome(version=5, host_name="h", host_key=KEY, key_proof=PROOF)
    player.receive_data(host.send(welcome))
    assert player.next_event() == welcome


def test_a_host_refuses_a_challenge_in_a_hello_of_4() -> None:
    host = HostConnection()
    host.receive_data(encode(m.Hello(version=4, client="c", challenge=CHALLENGE)))
    with pytest.raises(RemoteProtocolError) as info:
        host.next_event()
    assert info.value.code is ErrorCode.BAD_FIELD
    assert "'challenge' is not in protocol version 4" in info.value.message


def test_a_player_refuses_a_key_proof_in_a_welcome_of_4() -> None:
    player = PlayerConnection()
    player.send(m.Hello(version=4, client="c"))
    player.receive_data(encode(m.Welcome(version=4, host_name="h", host_key=KEY, key_proof=PROOF)))
    with pytest.raises(RemoteProtocolError) as info:
        player.next_event()
    assert info.value.code is ErrorCode.BAD_FIELD
    assert "'key_proof' is not in protocol version 4" in info.value.message


async def _welcome(port: int, hello: m.Hello) -> m.Welcome:
    """What a host on loopback answers ``hello`` with."""
    conn = PlayerConnection()
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    try:
        await stream.send_all(conn.send(hello))
        while True:
            event = conn.next_event()
            if event is NEED_DATA:
                conn.receive_data(await stream.receive_some(65536))
                continue
            assert isinstance(event, m.Welcome), event
            return event
    finally:
        await stream.aclose()


async def test_a_real_host_proves_it_holds_its_key() -> None:
    """Before this, a host's ``welcome`` named its key and proved nothing: anyone who had read
    the key from the LAN announcement could send the same ``welcome``."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery)
        with trio.fail_after(10):
            welcome = await _welcome(host.port, m.Hello(version=5, client="t", challenge=CHALLENGE))
            other = await _welcome(host.port, m.Hello(version=5, client="t", challenge=bytes(32)))
            plain = await _welcome(host.port, m.Hello(version=5, client="t"))
            older = await _welcome(host.port, m.Hello(version=4, client="t"))
        nursery.cancel_scope.cancel()
    assert welcome.host_key == host.public_key
    assert welcome.key_proof is not None
    signed = welcome_message(5, CHALLENGE, host.public_key)
    check_signature(host.public_key, welcome.key_proof, signed, "welcome")
    # The proof answers this challenge only: another's is another signature.
    assert other.key_proof is not None
    with pytest.raises(BadSignatureError):
        check_signature(host.public_key, other.key_proof, signed, "welcome")
    assert plain.key_proof is None  # no challenge, no proof
    assert older.key_proof is None
    assert older.version == 4


def _case(title: str) -> dict[str, str]:
    """The 8.1 case whose title begins with ``title``: its ``key: value`` lines, ``frame``'s
    continuation lines joined."""
    text = protocol_section("### 8.1")
    block = re.search(rf"^case: {re.escape(title)}.*?(?=^case: |^```)", text, re.S | re.M)
    assert block, title
    found: dict[str, str] = {}
    key = ""
    for line in block.group(0).splitlines():
        match = re.match(r"(\w+): (.*)", line)
        if match:
            key, found[match[1]] = match[1], match[2]
        elif line.strip():
            found[key] += line.strip()
    return found


def test_the_documented_key_proof_is_the_code_s() -> None:
    """protocol.md 8.1's ``welcome`` with its proof: the bytes signed are
    :func:`welcome_message`'s, and the proof is 8.2's key's signature of them."""
    hello = decode(bytes.fromhex(_case("hello with a challenge")["frame"])[4:])
    case = _case("welcome answering that challenge")
    welcome = decode(bytes.fromhex(case["frame"])[4:])
    assert isinstance(hello, m.Hello)
    assert isinstance(welcome, m.Welcome)
    assert hello.challenge is not None
    assert welcome.key_proof is not None
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(0xA0, 0xC0)))
    assert welcome.host_key == public_key_bytes(key)
    signed = welcome_message(welcome.version, hello.challenge, welcome.host_key)
    assert signed.hex() == case["signed"]
    assert key.sign(signed) == welcome.key_proof
    assert signed.startswith(len(b"scopa-net/v1/welcome-key-proof").to_bytes(4, "big"))
