"""The toolbar while a blind round waits for a person whose client closed (protocol.md 9.7):
nobody else can open their cards, so the round waits for them until their grace period ends,
then is void. The bar said "dealing" (or "Bruno to play") meanwhile; it says whom the table
waits for and until when. Real host over loopback TCP, real sessions and controllers."""

from __future__ import annotations

import re
from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import plays_the_first_legal_card, sit, until

from scopa_net.client import render
from scopa_net.client.toolbar import toolbar_text
from scopa_net.rules import RuleSet

WAITING = re.compile(r"waiting for Bruno \(back by \d\d:\d\d:\d\d, else this round is void\)")


async def test_a_blind_round_waiting_for_a_closed_client_says_for_whom_and_until_when(
    tmp_path: Path,
) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, grace=60.0, bot_delay=0.0)
            rules = RuleSet.of(3, 11)
            ada = await sit(
                nursery, host, "Ada", tmp_path, create=create(rules, bots=1, blind=True)
            )
            bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=ada.session.table_id)
            table = host.tables[ada.session.table_id].table
            await until(lambda: table.dealt_round_no == 1)
            nursery.start_soon(plays_the_first_legal_card, ada)
            bruno.crash()

            def bar() -> str:
                return render.plain([toolbar_text(ada.controller.state)])

            await until(lambda: WAITING.search(bar()), 20)
            assert "dealing" not in bar(), bar()
            assert "Bruno to play" not in bar(), bar()
            narrow = render.plain([toolbar_text(ada.controller.state, 44)])
            # In 44 columns: the short words, never a cut-off "back by 19:38:33, else".
            assert re.fullmatch(r" waiting for Bruno \(until \d\d:\d\d:\d\d\) ", narrow), narrow
            nursery.cancel_scope.cancel()
