"""Our host, played by an outsider: ``document_client`` is written from protocol.md and RULES.md
alone (it imports nothing from scopa_net) and checks every event a seat checks on arrival
(5.10). It plays whole matches against the real host over loopback TCP, drops and resumes its
seat, and refuses a round commitment whose signature was altered."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from document_client import DocumentClient
from document_hashes import cases
from document_referee import Table
from document_seat import CheckFailedError, Seat, host_list
from helpers import imported_modules
from hosting import start_host

OUTSIDERS = (
    "document_client",
    "document_seat",
    "document_host",
    "document_hashes",
    "document_referee",
)
OUTSIDE_LIBRARIES = {
    "__future__", "collections", "contextlib", "dataclasses", "functools", "hashlib", "hmac",
    "itertools", "re", "os", "pathlib", "struct", "msgpack", "trio", "cryptography",
}  # fmt: skip


def test_the_client_imports_nothing_of_ours() -> None:
    """The client, the host and the modules they are built from import no scopa_net module."""
    here = Path(__file__).parent
    for name in OUTSIDERS:
        extra = imported_modules(here / f"{name}.py") - {*OUTSIDERS, *OUTSIDE_LIBRARIES}
        assert not extra, f"{name} imports {extra}"


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
            for deal in (e for e in client.events if e["t"] == "deal"):  # in deck order (3.9)
                for cards in (deal["hand"], deal["table"]):
                    assert [c["pos"] for c in cards] == sorted(c["pos"] for c in cards)
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


def commitment_on_its_way(client: DocumentClient) -> bool:
    r = client.seat.round if client.seat else None
    return r is not None and r.commit is not None and r.commits is None


def seed_on_its_way(client: DocumentClient) -> bool:
    r = client.seat.round if client.seat else None
    return r is not None and r.commits is not None and r.seeds is None and r.receipt is None


@pytest.mark.parametrize("drop_when", [commitment_on_its_way, seed_on_its_way])
async def test_it_drops_during_the_seed_exchange_and_sends_its_seed_again(
    drop_when: Callable[[DocumentClient], bool],
) -> None:
    """5.4 "Resending": after the resume it sends again what the host may lack; the host refuses
    a repeat it already has (`error wrong_phase`), and the round is dealt from its seed."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=600)
            client = await seated_client(host.port, target=1)
            await client.play(stop=drop_when)
            await client.drop()
            await client.connect("127.0.0.1", host.port)
            await client.resume()
            assert client.resent  # sent again
            await client.play()
            seat = client.seat
            assert seat is not None
            assert seat.match_over
            first = seat.rounds[0]
            assert first.seeds is not None
            assert first.seeds[client.seat_no] == first.seed  # its seed counted
            assert first.excluded is not None
            assert first.excluded[client.seat_no] is None
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


def replay(client: DocumentClient, events: list[dict]) -> Seat:
    """The events of the client's match taken again by a fresh seat, with the client's seeds."""
    assert client.seat is not None
    assert client.pinned is not None
    seat = Seat(client.pinned, client.seat.table, client.seat_no)
    rounds = iter(client.seat.rounds)
    for event in events:
        seat.take(event)
        if event["t"] == "round_commit":
            played = next(rounds)
            seat.seed_to_commit(played.seed)
    return seat


def flip(data: bytes) -> bytes:
    return bytes([data[0] ^ 1]) + data[1:]


def other_seat(client: DocumentClient) -> Callable[[dict], bool]:
    return lambda e: e["seat"] != client.seat_no


TAMPERED = [
    # (event, what is changed, the check that refuses it)
    ("round_commit", lambda e: e.update(digest=flip(e["digest"])), "digest"),
    ("round_commit", lambda e: e.update(prev=flip(e["prev"])), "round_commit signature"),
    ("seed_commits", lambda e: e.update(commits=[c and flip(c) for c in e["commits"]]),
     "changed this seat's commitment"),
    ("seed_receipt", lambda e: e.update(sig=flip(e["sig"])), "seed_receipt signature"),
    ("seed_reveals", lambda e: e.update(seeds=[x and flip(x) for x in e["seeds"]]),
     "changed this seat's seed"),
    ("seed_reveals", lambda e: e.update(excluded=[x or "no_reveal" for x in e["excluded"]]),
     "not as its record"),
    ("deal", lambda e: e["hand"][0].update(salt=flip(e["hand"][0]["salt"])), "committed hash"),
    ("deal", lambda e: e["hand"][0].update(pos=e["hand"][0]["pos"] + 1), "positions dealt"),
    ("played", lambda e: e.update(sweep=not e["sweep"]), "the rules say"),
    ("round_end", lambda e: e.update(scores=[x + 1 for x in e["scores"]]), "do not add up"),
    ("round_reveal", lambda e: e.update(host_seed=flip(e["host_seed"])), "host seed"),
    ("round_reveal", lambda e: e.update(sig=flip(e["sig"])), "round_reveal signature"),
    ("match_end", lambda e: e.update(winner=1 - e["winner"]), "match_end signature"),
]  # fmt: skip


async def test_every_event_of_a_real_match_it_checks_is_refused_when_tampered_with() -> None:
    """One real match, recorded; taken again, it passes; each event altered in a way the
    document forbids is refused by the check that names it (5.10)."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            client = await seated_client(host.port, target=1)
            await client.play()
            await client.quit()
            nursery.cancel_scope.cancel()
    assert replay(client, client.events).match_over
    for kind, change, check in TAMPERED:
        events = copy.deepcopy(client.events)
        change(next(e for e in events if e["t"] == kind))
        with pytest.raises(CheckFailedError, match=check):
            replay(client, events)
