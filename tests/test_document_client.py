"""Our host, played by an outsider: ``document_client`` is written from protocol.md and RULES.md
alone (it imports nothing from scopa_net) and checks every event a seat checks on arrival
(5.10). It plays whole matches against the real host over loopback TCP, drops and resumes its
seat, and refuses a round commitment whose signature was altered."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import trio
from document_client import DocumentClient
from document_hashes import cases
from document_referee import Table
from document_seat import CheckFailedError, Seat, host_list
from hosting import start_host

OUTSIDERS = ("document_client", "document_seat", "document_hashes", "document_referee")
OUTSIDE_LIBRARIES = {
    "__future__", "collections", "dataclasses", "hashlib", "hmac", "itertools", "re", "os",
    "pathlib", "msgpack", "trio", "cryptography",
}  # fmt: skip


def test_the_client_imports_nothing_of_ours() -> None:
    """The client and the modules it is built from import no scopa_net module."""
    here = Path(__file__).parent
    for name in OUTSIDERS:
        for node in ast.walk(ast.parse((here / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                assert top in {*OUTSIDERS, *OUTSIDE_LIBRARIES}, f"{name} imports {module}"


async def seated_client(port: int, target: int) -> DocumentClient:
    client = DocumentClient("Ada")
    await client.connect("127.0.0.1", port)
    await client.join(await client.create_table(target=target))
    return client


async def test_a_client_from_the_document_plays_a_whole_match() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            client = await seated_client(host.port, target=1)
            await client.play()
            seat = client.seat
            assert seat is not None
            assert seat.match_over
            assert seat.rounds_checked >= 1
            assert max(seat.scores) >= 1
            assert client.plays_sent == len(client.acks)  # every play taken, none refused
            assert not any(a["duplicate"] for a in client.acks)
            await client.quit()
            nursery.cancel_scope.cancel()


async def test_it_drops_mid_round_and_resumes_its_seat_with_its_token() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=600)
            client = await seated_client(host.port, target=1)
            await client.play(stop=lambda c: c.plays_sent == 3)  # a play on its way
            assert client.pending is not None
            in_flight = client.pending.card
            assert client.seat is not None
            assert in_flight in client.seat.hand
            dropped_in = client.seat.rounds[-1]
            token = client.token
            await client.drop()

            await client.connect("127.0.0.1", host.port)
            await client.resume()
            assert client.token != token
            await client.play()
            seat = client.seat
            assert seat is not None
            assert seat.match_over
            assert seat.rounds_checked >= 1
            # The play sent before the drop was played once, from the hand held then.
            mine = [code & 63 for s, code, _, _ in dropped_in.plays if s == client.seat_no]
            assert in_flight in mine
            assert 3 in [a["move_id"] for a in client.acks]
            await client.quit()
            nursery.cancel_scope.cancel()


def test_it_refuses_a_round_commitment_whose_signature_was_altered() -> None:
    """The commitment of protocol.md 8.2 (case `signature`) is taken as it is, and refused
    with any one bit of its signature flipped."""
    vectors = cases()
    sig, host = vectors["signature"], vectors["host"]
    round_id, host_seed = bytes.fromhex(host["round_id"]), bytes.fromhex(host["host_seed"])
    event = {
        "t": "round_commit",
        "seq": 1,
        "round_id": round_id,
        "round_no": 1,
        "prev": bytes(32),
        "card_hashes": host_list(round_id, host_seed)[2],
        "digest": bytes.fromhex(sig["digest"]),
        "sig": bytes.fromhex(sig["commit_sig"]),
    }
    key = bytes.fromhex(sig["host_public_key"])
    Seat(key, Table(2, 11, frozenset()), 0).take(event)  # the document's own commitment holds
    tampered = bytearray(event["sig"])
    tampered[7] ^= 0x10
    with pytest.raises(CheckFailedError, match="round 1: round_commit signature"):
        Seat(key, Table(2, 11, frozenset()), 0).take({**event, "sig": bytes(tampered)})
