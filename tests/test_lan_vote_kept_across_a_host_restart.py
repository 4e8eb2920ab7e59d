"""A "yes" to playing again, answered while the host was stopped, before it started again.

Club night at a blind table: the match ended and the host was stopped with Ctrl-C as the
`bots` player answered (and as Ada typed "y" at "Play again?", her client reconnecting). The
answer went nowhere (a client sends nothing while its host is gone), yet her screen said
"Waiting for the others to answer"; the host, back, waited for her, and when the time ran
out every screen read "no rematch (Ada did not answer in time)" ("you did not answer in
time" on hers). Her client now sends her answer again when the vote still waits for it.
Virtual time, memory streams, a journal on disk.
"""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from hosting import Network, create, serve_journal_in_virtual_time, start_journal_host_to_stop
from person_screen import PersonScreen, until

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.rules import RuleSet


async def test_a_yes_given_before_a_host_restart_still_counts_after_it(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host, first = await start_journal_host_to_stop(nursery, db)
        net, brunos = Network(host, nursery), Network(host, nursery)
        choice = TableChoice(create=create(RuleSet.of(2, 1), blind=True))
        options = {"connector": net.connect, "offer_rematch": True}
        async with open_network_session("mem", 0, choice, name="Ada", **options) as a_session:
            table = TableChoice(table_id=a_session.table_id)
            options["connector"] = brunos.connect
            async with open_network_session("mem", 0, table, name="Bruno", **options) as b_session:
                ada, bruno = PersonScreen(a_session), PersonScreen(b_session)
                async with trio.open_nursery() as screens:
                    screens.start_soon(ada.play)
                    screens.start_soon(bruno.play)
                    await until(lambda: "Play again" in ada.text, 600)
                    await until(lambda: "Play again" in bruno.text, 600)
                    await host.shutdown()
                    net.up = brunos.up = False
                    first.cancel()
                    await until(lambda: "Connection: reconnecting" in ada.text)
                    said = await ada.type("y")  # while the host is down
                    await trio.sleep(1)
                    before, bruno_before = len(ada.lines), len(bruno.lines)
                    net.host = brunos.host = await nursery.start(serve_journal_in_virtual_time, db)
                    net.up = brunos.up = True
                    await until(lambda: "Connection: connected" in "".join(ada.lines[before:]))
                    await until(
                        lambda: "Connection: connected" in "".join(bruno.lines[bruno_before:])
                    )
                    await bruno.type("y")
                    await until(
                        lambda: "a new match begins" in ada.text or "closing" in ada.text, 120
                    )
                    screens.cancel_scope.cancel()
        nursery.cancel_scope.cancel()
    after = "\n".join(ada.lines[before:])
    assert said == ["Waiting for the others to answer."], said
    assert "did not answer in time" not in after, after
    assert "Table: everyone agreed: a new match begins" in after, after
