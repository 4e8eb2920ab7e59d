"""A host that is stopping (Ctrl-C, SIGTERM, its terminal closed, ``play --lan`` closed) says
goodbye to every connection and flushes its journal, for up to a few seconds. Its tables must
be frozen meanwhile: before, a computer player whose turn fell in those seconds played, and a
round's end dealt the next, into the journal, after every player had been told goodbye; what
the journal held (and a restart resumed) was not what any player had seen."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import start_host
from rawseat import RawSeat

from scopa_net.rules import RuleSet
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m


def entries_of(db: Path) -> int:
    """How many entries table 1 has in the journal ``db`` (read beside the running host)."""
    journal = Journal(str(db), read_only=True)
    try:
        return sum(1 for _ in journal.entries("1"))
    finally:
        journal.close()


async def test_a_computer_whose_turn_falls_while_the_host_stops_does_not_play(
    tmp_path: Path,
) -> None:
    """Ada plays; the computer's move is due 0.3 s later; the host begins to stop at once.
    Ada's connection, never closed from her side (a laptop asleep), holds the goodbye for a
    second: the computer's move must not be played (nor journaled) meanwhile."""
    db = tmp_path / "host.db"
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, db=str(db), bot_delay=0.3)
            await host.create_table("t", RuleSet.of(2, 11), None, 1, 1)
            ada = await RawSeat.connect(host.port)  # type: ignore[arg-type]
            await ada.join(1, name="Ada")
            await ada.dealt()
            while ada.view.to_move != ada.seat:  # the computer leads: wait for Ada's turn
                await ada.receive()
            ack = await ada.play(1, ada.my_plays()[0])
            assert isinstance(ack, m.Ack)
            told = entries_of(db)
            await host.shutdown()
            assert entries_of(db) == told  # nothing new after the stop began
            after: list[m.Message] = []
            while not isinstance(after[-1:] and after[-1], m.Bye):
                after.append(await ada.receive())
            assert after[-1] == m.Bye(reason="shutting_down", message="the host is shutting down")
            theirs = [msg for msg in after if isinstance(msg, m.Played) and msg.seat != ada.seat]
            assert not theirs, after
            await ada.aclose()
            nursery.cancel_scope.cancel()
