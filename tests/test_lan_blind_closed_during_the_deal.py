"""A person whose client closes while a blind round's deal is being built (each seat's part
of the shuffle, protocol.md 9.7), as the others read it. Nobody else can open their cards,
so if they are not back within their grace period the round being built is void, as one in
play is; Ada read only "a computer plays for them from the next round", and her toolbar
"waiting for the deal". Real host over loopback TCP, Ada's real session and controller;
Bruno a raw seat that sits down and closes before sending his key."""

from __future__ import annotations

import re
from pathlib import Path

import trio
from hosting import Through, create, start_host
from person_screen import in_play, plays_the_first_legal_card, sit, until
from rawseat import RawSeat

from scopa_net.client import render
from scopa_net.client.toolbar import toolbar_text
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


async def test_a_client_closed_while_the_blind_deal_is_built_says_this_round_is_void(
    tmp_path: Path,
) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, grace=60.0, bot_delay=0.0)
            rules = RuleSet.of(2, 11)
            ada = await sit(nursery, host, "Ada", tmp_path, create=create(rules, blind=True))
            bruno = await RawSeat.connect(host.port)
            await bruno.join(ada.session.table_id, name="Bruno")
            await bruno.until(lambda msg: isinstance(msg, m.BlindRound))  # the deal is built
            await bruno.send(m.Bye(reason="quit", message="the client was closed"))
            await until(lambda: "Bruno's client was closed" in ada.text)
            await bruno.aclose()
            bar = render.plain([toolbar_text(ada.controller.state)])
            nursery.cancel_scope.cancel()
    (line,) = [line for line in ada.lines if "Bruno's client was closed" in line]
    assert line == (
        "Table: Bruno's client was closed; if they are not back in 60 s the round being dealt "
        "is void "
        "(nobody else can open their cards) and a computer plays for them from the next round"
    ), ada.text
    waiting = r"waiting for Bruno \(back by \d\d:\d\d:\d\d, else the round being dealt is void\)"
    assert re.search(waiting, bar), bar


class DropsKeys(Through):
    """Ada's connection, which drops her ``blind_key`` once ``dropping`` is set: the next
    round's deal waits for her key (up to its deadline) while her screen goes on."""

    dropping = False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.dropping and b"blind_key" in bytes(data):
            return
        await self.inner.send_all(data)


async def test_closed_while_the_next_round_is_dealt_says_the_round_being_dealt_is_void(
    tmp_path: Path,
) -> None:
    """Round 1 just over (its score sheet on the screen, the toolbar at "R1"), Bruno's window
    closed while round 2's deal was built: "this round is void" read as round 1, which had
    just been verified. The line says which: the round being dealt."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, grace=60.0, bot_delay=0.0)
            links: list[DropsKeys] = []

            async def ada_connects() -> trio.abc.Stream:
                links.append(DropsKeys(await trio.open_tcp_stream("127.0.0.1", host.port)))
                return links[-1]

            rules = RuleSet.of(2, 11)
            ada = await sit(
                nursery, host, "Ada", tmp_path, create=create(rules, blind=True),
                connector=ada_connects,
            )  # fmt: skip
            bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=ada.session.table_id)
            table = host.tables[ada.session.table_id].table
            await until(lambda: in_play(ada))
            first = table.round_no  # 1, or the redeal after a deal void for its kings
            links[0].dropping = True  # her key for the next round never comes
            nursery.start_soon(plays_the_first_legal_card, ada)
            nursery.start_soon(plays_the_first_legal_card, bruno)
            await until(
                lambda: table.blind_round is not None and table.blind_round.round_no > first
            )
            await until(lambda: ada.session.view is not None and ada.session.view.round_over)
            await bruno.session._say_goodbye()  # the window closed: the client says goodbye
            bruno.crash()
            await until(lambda: "Bruno's client was closed" in ada.text)
            bar = render.plain([toolbar_text(ada.controller.state)])
            nursery.cancel_scope.cancel()
    (line,) = [line for line in ada.lines if "Bruno's client was closed" in line]
    assert line == (
        "Table: Bruno's client was closed; if they are not back in 60 s the round being dealt "
        "is void (nobody else can open their cards) and a computer plays for them from the next "
        "round"
    ), ada.text
    waiting = r"waiting for Bruno \(back by \d\d:\d\d:\d\d, else the round being dealt is void\)"
    assert re.search(waiting, bar), bar
