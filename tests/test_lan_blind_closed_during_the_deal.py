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
from hosting import create, start_host
from person_screen import sit, until
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
        "Table: Bruno's client was closed; if they are not back in 60 s this round is void "
        "(nobody else can open their cards) and a computer plays for them from the next round"
    ), ada.text
    assert re.search(r"waiting for Bruno \(back by \d\d:\d\d:\d\d, else this round is void\)", bar)
