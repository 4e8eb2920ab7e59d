"""A friend takes the seat of someone who went home, at a blind table, as the screens show it.

Real host (default grace period and away limit: 60 s, 10 minutes), real client sessions, the
game's controller in front of Ada's and Lea's, memory streams and trio's autojump clock. Ivo's
client is killed mid-match and he does not come back. Before, his seat stayed his for the
whole match: Lea could not take it, nobody could give it up for him, and the table was never
listed again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from blind_people import People, Plug, table_of
from hosting import create, start_memory_host
from person_screen import PersonScreen

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import SeatLostError, TableChoice
from scopa_net.rules import RuleSet

TAKEN = "Host: Lea takes Ivo's seat: Ivo was away for more than 10 minutes"


async def test_lea_takes_the_seat_of_ivo_gone_home_at_a_blind_table(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Ivo's client is killed in round 1; Ada waits at the table. Ten minutes on, the lobby
    lists his seat as "Ivo <away>"; Lea joins the table and sits in it. Ada and Lea read who
    took whose seat and why; a computer finishes the round in play for Lea (a blind table).
    Ivo, back later with his kept seat, reads in one line that it was taken, by whom and
    why (before: "the seat was given up or the match ended", neither of which was true)."""
    people = People(tmp_path, names=("Ada", "Ivo", "Lea"))
    screens: dict[str, PersonScreen] = {}
    ivo_gone, lea_sat, ada_read, lea_read = (trio.Event() for _ in range(4))
    ivo_back = trio.Event()

    async def ada_waits_once_ivo_played(screen: PersonScreen) -> None:
        view = screen.session.view
        if not ivo_gone.is_set() and view is not None and len(view.plays) >= 2:
            ivo_gone.set()
            await lea_sat.wait()
        if TAKEN in screen.lines:  # the table waits for her from now on
            ada_read.set()
            await ivo_back.wait()

    async def lea_reads(screen: PersonScreen) -> None:
        if TAKEN in screen.lines:
            lea_read.set()
            await ivo_back.wait()

    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery)
        run = people.on_screens(net.connect, screens, "Lea", lea_sat)
        choice = TableChoice(create=create(RuleSet.of(2, 21), blind=True))
        nursery.start_soon(run, "Ada", choice, ada_waits_once_ivo_played)
        table_id = await table_of(screens)

        plug, ivo_client = Plug(net), trio.CancelScope()

        async def ivo() -> None:
            with ivo_client:
                at_the_table = TableChoice(table_id=table_id)
                async with people.session("Ivo", at_the_table, plug.connect) as session:
                    await play_as_bot(session, make_player("random", 3))

        nursery.start_soon(ivo)
        await ivo_gone.wait()
        await plug.pull()  # kill -9: no bye, no leave
        ivo_client.cancel()

        before = trio.current_time()
        with trio.fail_after(1200):
            while not host.table_infos():
                await trio.sleep(1)
        assert trio.current_time() - before >= 600
        (listed,) = host.table_infos()
        assert [s.name for s in listed.seats] == ["Ada", "Ivo <away>"]

        nursery.start_soon(run, "Lea", TableChoice(table_id=table_id), lea_reads)
        with trio.fail_after(60):
            await ada_read.wait()
            await lea_read.wait()
        (record,) = people.stores["Ivo"].records()
        back = TableChoice(table_id=record.table_id, seat=record.seat)
        with pytest.raises(SeatLostError) as lost:
            async with people.session("Ivo", back, net.connect, resume_from=record):
                pass
        ivo_back.set()
        nursery.cancel_scope.cancel()
    ada, lea = screens["Ada"].text, screens["Lea"].text
    assert TAKEN in ada, ada  # the host's line alone: Ivo never left, and says who sat down
    assert "Ivo left the table" not in ada, ada
    assert "Lea sat down" not in ada, ada
    assert "A computer finishes this round for you; you play from the next round." in lea, lea
    assert str(lost.value) == (
        f"The host at mem:0 no longer holds seat 1 at table {table_id} for you: your seat at "
        f"table {table_id} was taken by Lea after you were away for more than 10 minutes; "
        "`scopa-net join` lists the open seats."
    ), lost.value
