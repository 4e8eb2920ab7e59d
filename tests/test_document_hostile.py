"""Our host, attacked by an outsider: ``document_hostile`` is written from protocol.md alone
(it imports nothing from scopa_net) and sends, row by row, every bad input the document names.
Each row checks the code the document gives, whether the connection ends (the error table's
column, 3.8), the words where the document fixes them, and its time limits; meanwhile an honest
table beside it (``document_client``) plays on at the same host, and its match verifies.

One host serves every row that the document lets share one (in a thread of its own, so that
each test's trio run reaches it over loopback TCP); the limits on connections, tables and time
get a host each, with the short time limits its settings offer."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from document_client import DocumentClient
from document_hostile import (
    BEFORE_HELLO_ROWS,
    ENDS,
    LOBBY_ROWS,
    SEATED_ROWS,
    Peer,
    SeatedPeer,
    create,
    packed,
    refused_frames,
    version_message,
)
from helpers import imported_modules
from hosting import HostThread, host_in_thread

pytestmark = pytest.mark.xdist_group("document_hostile")

SHARED = {"bot_delay": 0, "max_tables_per_address": 1000}


class HonestTable:
    """``document_client`` playing a match against a computer player at the shared host, one
    play each time a hostile row is done, so that the table goes on beside the attacks."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.client = DocumentClient("Honest")
        self.steps = threading.Semaphore(0)
        self.failure: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, name="honest", daemon=True)

    def _run(self) -> None:
        try:
            trio.run(self._play)
        except BaseException as exc:  # told to the last test, not lost in the thread
            self.failure.append(exc)

    async def _play(self) -> None:
        client = self.client
        await client.connect("127.0.0.1", self.port)
        await client.join(await client.create_table(target=3))
        assert client.seat is not None
        while not client.seat.match_over:
            await trio.to_thread.run_sync(self.steps.acquire)
            allowed = client.plays_sent + 1
            await client.play(stop=lambda c, n=allowed: c.plays_sent >= n)
        await client.quit()


@pytest.fixture(scope="module")
def shared() -> Iterator[HostThread]:
    with host_in_thread(**SHARED) as running:
        yield running


@pytest.fixture(scope="module")
def honest(shared: HostThread) -> Iterator[HonestTable]:
    table = HonestTable(shared.port)
    table.thread.start()
    yield table
    table.steps.release(10_000)
    table.thread.join(30)


@pytest.fixture
def port(shared: HostThread, honest: HonestTable) -> Iterator[int]:
    """The shared host's port; the honest table makes one more play after the test."""
    yield shared.port
    honest.steps.release()


def test_the_hostile_peer_imports_nothing_of_ours() -> None:
    outsiders = {"document_client", "document_seat", "document_hashes", "document_referee"}
    libraries = {"__future__", "collections", "dataclasses", "json", "os", "pathlib", "re",
                 "msgpack", "trio"}  # fmt: skip
    here = Path(__file__).parent
    assert imported_modules(here / "document_hostile.py") - outsiders - libraries == set()


def test_the_document_lists_fifteen_refused_frames() -> None:
    """The rows below read 8.1 itself: a reading that found none would test nothing."""
    assert len(refused_frames()) == 15


def check_ending(ending: object, code: str) -> None:
    from document_hostile import Ending

    assert isinstance(ending, Ending)
    assert ending.reason == code, (ending.bye, ending.before)
    assert code in ENDS or code == "rate_limited"
    assert ending.closed, "the host sent bye and kept the connection open"
    assert ending.bye is not None
    assert isinstance(ending.bye["message"], str)
    assert len(ending.bye["message"]) <= 200


async def ended_in_lobby(port: int, data: bytes) -> object:
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(data)
    ending = await peer.ending()
    await peer.aclose()
    return ending


@pytest.mark.parametrize(("case", "frame", "code"), refused_frames(), ids=lambda v: str(v)[:40])
async def test_each_frame_the_document_refuses_ends_the_connection(
    port: int, case: str, frame: bytes, code: str
) -> None:
    check_ending(await ended_in_lobby(port, frame), code)


@pytest.mark.parametrize(("case", "data", "code"), LOBBY_ROWS, ids=[r[0] for r in LOBBY_ROWS])
async def test_a_broken_or_misplaced_message_in_the_lobby_ends_the_connection(
    port: int, case: str, data: bytes, code: str
) -> None:
    check_ending(await ended_in_lobby(port, data), code)


@pytest.mark.parametrize(
    ("case", "data", "code"), BEFORE_HELLO_ROWS, ids=[r[0] for r in BEFORE_HELLO_ROWS]
)
async def test_anything_but_hello_first_ends_the_connection(
    port: int, case: str, data: bytes, code: str
) -> None:
    peer = await Peer.connect(port)
    await peer.send_raw(data)
    ending = await peer.ending()
    check_ending(ending, code)
    assert ending.before == []  # no welcome came first


@pytest.mark.parametrize("version", [1, 3, 5, 65535])
async def test_another_version_is_refused_in_the_documents_words(port: int, version: int) -> None:
    """3.2: `bye bad_version` whose message is exactly the document's sentence."""
    peer = await Peer.connect(port)
    await peer.send({"t": "hello", "version": version, "client": "old"})
    ending = await peer.ending()
    check_ending(ending, "bad_version")
    assert ending.bye is not None
    assert ending.bye["message"] == version_message(version)
    assert ending.before == []


async def seated(port: int, **table: object) -> SeatedPeer:
    """A fresh table of its own (two seats, no computer player) with this peer in seat 0."""
    peer = await SeatedPeer.connect(port)
    await peer.hello()
    await peer.send(create(**table))  # type: ignore[arg-type]
    table_id = (await peer.reply("table_created"))["table"]["id"]
    await peer.sit(table_id)
    return peer


@pytest.mark.parametrize(("case", "data", "code"), SEATED_ROWS, ids=[r[0] for r in SEATED_ROWS])
async def test_a_misplaced_message_at_the_table_ends_the_connection(
    port: int, case: str, data: bytes, code: str
) -> None:
    peer = await seated(port)
    await peer.send_raw(data)
    check_ending(await peer.ending(), code)


async def test_five_pings_at_once_get_four_pongs_then_rate_limited(port: int) -> None:
    """3.1: "Our host then writes the four pongs it owes, then bye {reason: rate_limited}"."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(b"".join(packed({"t": "ping", "nonce": n}) for n in range(5)))
    ending = await peer.ending()
    check_ending(ending, "rate_limited")
    assert [(m["t"], m["nonce"]) for m in ending.before] == [("pong", n) for n in range(4)]


async def test_four_pings_at_once_are_all_answered(port: int) -> None:
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(b"".join(packed({"t": "ping", "nonce": n}) for n in range(4)))
    assert [(await peer.reply("pong"))["nonce"] for _ in range(4)] == [0, 1, 2, 3]
    assert await peer.stays_open()
    await peer.aclose()


@pytest.mark.parametrize(
    "cut",
    [b"\0\0", b"\0\0\0", b"\0\0\0\x0f", packed({"t": "ping", "nonce": 1})[:9]],
    ids=["2 length bytes", "3 length bytes", "4 length bytes", "half a body"],
)
async def test_a_stream_cut_inside_a_frame_is_bad_frame(port: int, cut: bytes) -> None:
    """Section 1: the receiver answers `bye bad_frame`, which a peer that only shut down its
    writing side still reads, and closes."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(cut)
    await peer.shut_write()
    check_ending(await peer.ending(), "bad_frame")


async def test_closed_between_frames_the_host_says_quit(port: int) -> None:
    """Section 1: no error; "our host still writes bye {reason: quit}, for a peer that reads on"."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.shut_write()
    check_ending(await peer.ending(), "quit")


async def test_the_host_answers_a_bye_with_nothing(port: int) -> None:
    """3.1: after `bye` nothing more may be sent; the answer owed to the ping before it is
    dropped (ours drops them)."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(
        packed({"t": "ping", "nonce": 9}) + packed({"t": "bye", "reason": "quit", "message": ""})
    )
    ending = await peer.ending()
    assert ending.bye is None
    assert ending.closed


async def test_answers_owed_before_a_broken_frame_come_first(port: int) -> None:
    """3.1: `list_tables` followed in the same burst by a broken frame gets `tables`, then
    `bye {reason: "bad_frame"}`."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(packed({"t": "list_tables"}) + b"\0\0\0\0")
    ending = await peer.ending()
    check_ending(ending, "bad_frame")
    assert [m["t"] for m in ending.before] == ["tables"]


def test_the_honest_table_beside_the_attacks_played_its_match_and_it_verifies(
    honest: HonestTable,
) -> None:
    """Last in the module: every row above let the honest table make one play meanwhile; now
    it plays to the end, and every round and the signed end check out (5.10, 6.2)."""
    honest.steps.release(10_000)
    honest.thread.join(30)
    assert not honest.thread.is_alive()
    assert honest.failure == []
    seat = honest.client.seat
    assert seat is not None
    assert seat.match_over
    assert seat.rounds_checked >= 1
    assert honest.client.plays_sent == len(honest.client.acks)  # no play refused
