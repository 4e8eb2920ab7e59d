"""A newcomer back by snapshot while the next blind round is being set up without them.

Carla took Bruno's seat at a blind table while round 2 was under way (a computer finished
that round for her, 9.7); her client died, and she took her seat back while round 3, dealt
without her, waited for Ada's key. Her screen is read as a person reads it: the round she is
back in, and that a computer plays her seat in it, never "Your turn." with no cards.

Real host on loopback TCP that replays a resume at most one missed event (``replay_limit``),
so Carla is caught up by snapshot; Ada's client is real, her key for round 3 held while Carla
comes back (a busy machine: the round's setup waits for her key).
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

import trio
from hosting import Through, create, start_host
from person_screen import sit, until

from scopa_net.bots.levels import make_player
from scopa_net.client.network_session import NetworkSession
from scopa_net.client.seat_store import SeatStore
from scopa_net.errors import IllegalPlayError
from scopa_net.rules import RuleSet


class KeyHeld(Through):
    """A connection whose ``blind_key`` to the host waits, once ``held`` is set, until
    ``sent`` is: the next round's setup waits for this person."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self.held = False
        self.sent = trio.Event()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.held and b"blind_key" in bytes(data):
            await self.sent.wait()
        await self.inner.send_all(data)


async def plays_her_turns(session: NetworkSession) -> None:
    """Play at random at each of this person's turns (her screen takes the events)."""
    player = make_player("random", 1)
    while True:
        view = session.view
        if view is not None and view.my_turn and not view.round_over:
            with suppress(IllegalPlayError):  # the table moved on first
                await session.submit(player.choose(view))
        await trio.sleep(0.01)


async def test_a_newcomer_back_by_snapshot_while_a_blind_round_without_her_is_set_up(
    tmp_path: Path,
) -> None:
    links: list[KeyHeld] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, replay_limit=1, grace=0.5, bot_delay=0.0)

            async def ada_connects() -> trio.abc.Stream:
                links.append(KeyHeld(await trio.open_tcp_stream("127.0.0.1", host.port)))
                return links[-1]

            ada = await sit(
                nursery,
                host,
                "Ada",
                tmp_path,
                create=create(RuleSet.of(2, 11), blind=True),
                connector=ada_connects,
            )
            table_id = ada.session.table_id
            bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=table_id)
            table = host.tables[table_id].table
            await until(lambda: bruno.session.view is not None)
            await until(lambda: bruno.controller.state.in_match)
            await bruno.type("quit")
            await bruno.type("leave")  # round 1 is void; his seat is open, a computer's
            await until(
                lambda: (
                    table.blind_round is not None
                    and table.blind_round.round_no == 2
                    and table.blind_round.people == (0,)
                    and table.phase.value == "play"  # dealt
                )
            )
            carla = await sit(nursery, host, "Carla", tmp_path, table_id=table_id)
            await until(lambda: "A computer finishes this round for you" in carla.text)
            (ada_link,) = links
            ada_link.held = True  # from now her key for the next round waits
            carla.crash()  # kill -9: past her grace time round 3 is dealt without her
            await until(lambda: table.seats[1].stand_in)
            nursery.start_soon(plays_her_turns, ada.session)  # round 2 goes on, to its end
            await until(
                lambda: (
                    table.blind_round is not None
                    and table.blind_round.round_no == 3
                    and table.blind_round.people == (0,)
                    and table.phase.value == "keys"  # not dealt: it waits for Ada's key
                )
            )
            (record,) = SeatStore(tmp_path / "Carla").records()
            back = await sit(
                nursery, host, "Carla", tmp_path, table_id=table_id, resume_from=record
            )
            await until(lambda: "Back in your seat" in back.text)
            ada_link.sent.set()
            await until(lambda: table.round_no >= 3 and table.phase.value == "play")
            await until(lambda: len(table.match.round.plays) >= 4 if table.match.round else False)
            # Her board is the table's: it comes to hold what Ada's holds.
            await until(lambda: back.session.view.table == ada.session.view.table)
            nursery.cancel_scope.cancel()
    text = back.text
    shown = text[text.index("Back in your seat") :]
    (back_line,) = [line for line in back.lines if line.startswith("Back in your seat")]
    assert back_line.endswith(", round 2."), text  # the last round dealt, over
    assert "Round 2 score sheet" in shown, text  # its end, as it ended
    # Round 3 from its deal, on the table's cards, the computer's for her: never her turn.
    round_3 = shown[shown.index("Round 3  dealer") :]
    assert "Your turn." not in shown, text
    assert "A computer plays your seat this round" in round_3, text
    assert "Carla (computer) plays" in round_3, text
    assert "Carla plays" not in round_3, text
