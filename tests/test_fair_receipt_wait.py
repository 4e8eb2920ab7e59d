"""A seat that reveals its seed and gets no signed receipt says so (issue 10): the host cannot
later claim the seed never came, and a host that stalls after taking the seed is named.

Over real loopback TCP: the host swallows seat 0's seed (no receipt, no exclusion yet, a long
seed deadline), and the client's wait for the receipt is shortened."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from hosting import create, start_host

from scopa_net.client import network_session
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.session import Message, RoundStarted
from scopa_net.rules import RuleSet
from scopa_net.server.table import Table

NO_RECEIPT = "has not signed a receipt"


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


async def messages_until(session: network_session.NetworkSession, done: str) -> list[str]:
    """The notices the seat shows, up to the first one containing ``done``."""
    seen: list[str] = []
    async for event in session.events:
        if isinstance(event, Message):
            seen.append(event.text)
            if done in event.text:
                return seen
    return seen


async def test_a_seed_the_host_never_acknowledges_is_reported(
    monkeypatch: pytest.MonkeyPatch, data_home: Path
) -> None:
    monkeypatch.setattr(network_session, "RECEIPT_WAIT", 0.5)
    original = Table._apply_seed_reveal

    def swallow_seat_0(self: Table, seat: int, seed: bytes) -> None:
        if seat != 0:
            original(self, seat, seed)

    monkeypatch.setattr(Table, "_apply_seed_reveal", swallow_seat_0)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, seed_timeout=60.0)
        choice = TableChoice(create=create(RuleSet.of(2), bots=1))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="ann", data_dir=data_home
        ) as session:
            with trio.fail_after(20):
                seen = await messages_until(session, NO_RECEIPT)
        nursery.cancel_scope.cancel()
    notice = seen[-1]
    assert notice.startswith("You revealed your seed for round 1 0.5 s ago"), notice
    assert notice.endswith("if your seed is left out of this round, the host is to blame")


async def test_an_honest_host_raises_no_receipt_alarm(
    monkeypatch: pytest.MonkeyPatch, data_home: Path
) -> None:
    monkeypatch.setattr(network_session, "RECEIPT_WAIT", 0.05)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery)
        choice = TableChoice(create=create(RuleSet.of(2), bots=1))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="ann", data_dir=data_home
        ) as session:
            shown: list[str] = []
            dealt = False
            with trio.fail_after(20):
                async for event in session.events:
                    if isinstance(event, Message):
                        shown.append(event.text)
                    if isinstance(event, RoundStarted):
                        dealt = True
                        break
            # Well past the (shortened) wait: the receipt came, so nothing is said.
            with trio.move_on_after(0.5):
                async for event in session.events:
                    if isinstance(event, Message):
                        shown.append(event.text)
        nursery.cancel_scope.cancel()
    assert dealt
    assert not [text for text in shown if NO_RECEIPT in text]
