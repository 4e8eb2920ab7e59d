"""What protocol.md pins in the lobby that an outsider writing a host or a client would
otherwise have to guess, checked against our host over loopback by ``document_hostile``'s
peer (written from the document alone): the names the host settles on for tables and seats
(3.3, 3.9 `create_table` and `table_created`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from document_hostile import Peer, SeatedPeer, create
from hosting import HostThread, host_in_thread


@pytest.fixture(scope="module")
def shared() -> Iterator[HostThread]:
    with host_in_thread(bot_delay=0, max_tables_per_address=1000) as running:
        yield running


@pytest.fixture
def port(shared: HostThread) -> int:
    return shared.port


async def in_lobby(port: int) -> SeatedPeer:
    peer = await SeatedPeer.connect(port)
    await peer.hello()
    return peer


async def created(peer: Peer, name: str, players: int = 2) -> dict:
    """The `TableInfo` of `table_created` answering a `create_table` named ``name``."""
    await peer.send(create(name, players))
    return (await peer.reply("table_created"))["table"]


async def test_a_table_name_is_cleaned_and_one_with_nothing_left_is_table_n(port: int) -> None:
    """3.9 `create_table`: cleaned as text, started at a letter, digit or symbol and cut to 32
    columns; `<` and `>` kept, a computer's name allowed; nothing left: `table N`."""
    peer = await in_lobby(port)
    blank = await created(peer, "\u200b \u200b")
    assert blank["name"] == f"table {blank['id']}"
    assert (await created(peer, "  <Kitchen>  ,\u202e"))["name"] == "<Kitchen> ,"
    assert (await created(peer, "- bot 1"))["name"] == "bot 1"
    assert (await created(peer, "\u65e5" * 32))["name"] == "\u65e5" * 16  # 2 columns each
    await peer.aclose()


async def test_a_table_name_taken_gets_the_lowest_number_free_within_32_columns(
    port: int,
) -> None:
    """3.9 `table_created`: `name (2)`, `(3)`... compared without case, the name cut so that
    the whole fits 32 columns: a 32-column name keeps its first 28."""
    peer = await in_lobby(port)
    first = "Q" * 32
    assert (await created(peer, first))["name"] == first
    assert (await created(peer, first.lower()))["name"] == "q" * 28 + " (2)"
    assert (await created(peer, first))["name"] == "Q" * 28 + " (3)"
    assert (await created(peer, "Orto"))["name"] == "Orto"
    assert (await created(peer, "orto"))["name"] == "orto (2)"
    await peer.aclose()


async def test_a_seat_name_taken_gets_the_lowest_number_free_within_20_columns(
    port: int,
) -> None:
    """3.3 Names: `Ada (2)`, `Ada (3)`..., the name cut so that the whole fits 20 columns."""
    owner = await in_lobby(port)
    table = await created(owner, "names", players=4)
    long = "Bartholomew Octavius"  # 20 columns
    await owner.sit(table["id"], name=long)
    names, peers = [long], [owner]
    for wanted, settled in ((long.upper(), "BARTHOLOMEW OCTA (2)"), (long, "Bartholomew Octa (3)"),
                            ("ada", "ada")):  # fmt: skip
        peer = await in_lobby(port)
        peers.append(peer)
        await peer.sit(table["id"], name=wanted)
        snapshot = next(m for m in peer.heard if m["t"] == "snapshot")
        names.append(settled)
        assert [s["name"] for s in snapshot["seats"][: len(names)]] == names
    for peer in peers:
        await peer.aclose()
