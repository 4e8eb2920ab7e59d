"""A person whose client, connected, missed a blind round's deadline (a terminal suspended, a
laptop asleep), as their screen tells it (protocol.md 9.7).

Bruno's screen read "The host says you missed its deadline (30 s), so a computer plays your
seat this round; you play again from the next one. ..." and, with the round's board, "A
computer plays your seat this round; you play again from the next one." again: the same news
twice. Real host and client sessions over memory streams, trio's autojump clock.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from blind_people import People, table_of
from helpers import no_kings_void
from hosting import Through, create, start_memory_host
from person_screen import PersonScreen

from scopa_net.client.network_session import SAT_OUT_SILENT, TableChoice
from scopa_net.rules import RuleSet

SITTING_OUT = "A computer plays your seat this round; you play again from the next one."


class LosesHisSecondKey(Through):
    """Bruno's connection, which never passes on his client's second ``blind_key`` (counted
    over all his connections, in ``keys``): silent past that stage's deadline while the
    connection stays up, as a suspended client is."""

    def __init__(self, inner: trio.abc.Stream, keys: list[int]) -> None:
        super().__init__(inner)
        self.keys = keys

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if b"blind_key" in bytes(data):
            self.keys.append(1)
            if len(self.keys) == 2:
                return
        await self.inner.send_all(data)


async def test_a_missed_deadline_is_said_once_on_the_screen(
    autojump_clock: trio.testing.MockClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_kings_void(monkeypatch)  # round 1 is played out
    people = People(tmp_path, names=("Ada", "Bruno"))
    screens: dict[str, PersonScreen] = {}
    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, grace=60.0, bot_delay=0.5)

        keys: list[int] = []

        async def bruno_connects() -> trio.abc.Stream:
            return LosesHisSecondKey(await net.connect(), keys)

        choice = TableChoice(create=create(RuleSet.of(2, 31), blind=True))
        nursery.start_soon(people.on_screen, "Ada", choice, net.connect, screens)
        table = TableChoice(table_id=await table_of(screens))
        nursery.start_soon(people.on_screen, "Bruno", table, bruno_connects, screens)
        with trio.fail_after(600):
            while "Bruno" not in screens or SAT_OUT_SILENT not in screens["Bruno"].lines:
                await trio.sleep(0.1)
            bruno = screens["Bruno"]
            while not any(" (computer) plays" in line for line in bruno.lines):
                await trio.sleep(0.1)  # the round he sits out is under way, its board drawn
        nursery.cancel_scope.cancel()
    after = bruno.lines[bruno.lines.index(SAT_OUT_SILENT) :]
    assert "Your hand (a computer plays it this round)" in after, bruno.text
    assert SITTING_OUT not in after, bruno.text
