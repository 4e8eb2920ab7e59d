"""A host stopped and started again while "Play again?" is open: the people at the table read
that the host is back, never that the others lost their connection; one gone before the end
is still away (virtual time, memory streams, a journal on disk)."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from hosting import Network, create, serve_journal_in_virtual_time, start_journal_host_to_stop
from person_screen import PersonScreen, until

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.rules import RuleSet


async def ada_after_a_restart_at_the_vote(db: str, *, bruno_gone: bool) -> list[str]:
    """What Ada's screen printed once her host, stopped at "Play again?" after a match with
    Bruno, was started again (``bruno_gone``: Bruno's network went down at the first play, a
    computer finished the match for him, and he is not back)."""
    async with trio.open_nursery() as nursery:
        host, first = await start_journal_host_to_stop(nursery, db)
        net, brunos = Network(host, nursery), Network(host, nursery)
        choice = TableChoice(create=create(RuleSet.of(2, 1)))
        options = {"connector": net.connect, "offer_rematch": True}
        async with open_network_session("mem", 0, choice, name="Ada", **options) as a_session:
            table = TableChoice(table_id=a_session.table_id)
            options["connector"] = brunos.connect
            async with open_network_session("mem", 0, table, name="Bruno", **options) as b_session:
                ada, bruno = PersonScreen(a_session), PersonScreen(b_session)

                async def cut_bruno_at_the_first_play(screen: PersonScreen) -> None:
                    if bruno_gone and brunos.up and " plays " in screen.text:
                        await brunos.go_down()

                async with trio.open_nursery() as screens:
                    screens.start_soon(ada.play, cut_bruno_at_the_first_play)
                    screens.start_soon(bruno.play)
                    await until(lambda: "Play again" in ada.text, 600)
                    await host.shutdown()
                    net.up = brunos.up = False
                    first.cancel()
                    await trio.sleep(1)
                    before = len(ada.lines)
                    net.host = brunos.host = await nursery.start(serve_journal_in_virtual_time, db)
                    net.up = True
                    brunos.up = not bruno_gone
                    await until(lambda: "Connection: connected" in "".join(ada.lines[before:]))
                    await trio.sleep(20)  # past the time a loss is held back after a return
                    screens.cancel_scope.cancel()
        nursery.cancel_scope.cancel()
    return ada.lines[before:]


async def test_a_host_restarted_during_the_rematch_vote_says_nobody_lost_the_connection(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Club night: the host was stopped with Ctrl-C at "Play again?" and started again. Every
    client came back by itself, and every screen read "Bruno lost the connection; their seat
    is kept until the rematch vote closes" for each of the others, then "Bruno is back at the
    table": nobody had lost anything but the host. Bruno's return says it was the host's
    restart, not his own connection, as Ada's own line does."""
    after = await ada_after_a_restart_at_the_vote(str(tmp_path / "host.db"), bruno_gone=False)
    assert "Connection: connected (the host was restarted; back at the table)." in after, after
    assert "Table: Bruno is back at the table (the host was restarted)" in after, after
    assert not [line for line in after if "lost the connection" in line], after


async def test_one_gone_before_the_end_of_the_match_is_still_away_after_the_restart(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Dino's window was killed mid-match and a computer finished it for him; after the host's
    restart at "Play again?" the others read "Dino lost the connection", news of a loss long
    known (the screen had said a computer played for him)."""
    after = await ada_after_a_restart_at_the_vote(str(tmp_path / "host.db"), bruno_gone=True)
    assert (
        "Table: Bruno is still away; their seat is kept until the rematch vote closes" in after
    ), after
    assert not [line for line in after if "lost the connection" in line], after
