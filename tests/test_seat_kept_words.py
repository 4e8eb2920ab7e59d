"""What a person reads when the client stops trying to take the seat back, and about a move
the host never answered, over real loopback TCP: a final ``bye`` while reconnecting says why,
ends with status 1 and says the seat is kept (and the move that goes again with it); a move
kept on disk that the host refuses once the seat is taken back is said not played."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from bye_host import ByeAtResume
from faultproxy import FaultProxy
from hosting import create, start_host
from session_watch import said_into, until

from scopa_net.client.launch import session_failure
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import (
    HostEndedError,
    MoveUnansweredError,
    NetworkSession,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import ConnectionState
from scopa_net.commands.options import EXIT_FAILED
from scopa_net.plays import Play
from scopa_net.rules import RuleSet

TWO = RuleSet.of(2, 11)


async def submit_unanswered(session: NetworkSession, play: Play) -> None:
    """A move typed while the connection is down; the session ends before any answer."""
    with pytest.raises(MoveUnansweredError):
        await session.submit(play)


@pytest.mark.parametrize("reason", ["superseded", "bad_field"])
async def test_a_final_bye_while_reconnecting_says_why_and_that_the_seat_is_kept(
    tmp_path: Path, reason: str
) -> None:
    """Bea's connection dropped; she typed her move (queued); the host then ended her new
    connection for a reason trying again cannot change. The last line says why, that the seat
    is kept and the command that takes it back, and that the move not answered goes again
    then; the command ends with status 1, the seat and the move kept on disk."""
    store = SeatStore(tmp_path)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=600)
            proxy = FaultProxy(host.port)
            await nursery.start(proxy.serve)
            bye = ByeAtResume(host.key, reason, "this seat resumed elsewhere")
            await nursery.start(bye.serve)
            choice = TableChoice(create=create(TWO, bots=1))
            with pytest.RaisesGroup(HostEndedError, flatten_subgroups=True) as stopped:
                async with open_network_session(
                    "127.0.0.1", proxy.port, choice, name="Bea", store=store
                ) as bea:
                    await until(lambda: bea.view is not None and bea.view.my_turn)
                    assert bea.view is not None
                    play = legal_plays(bea.view)[0]
                    proxy.target_port = bye.port
                    proxy.cut_all()
                    await until(lambda: bea.connection is ConnectionState.RECONNECTING)
                    async with trio.open_nursery() as typing:
                        typing.start_soon(submit_unanswered, bea, play)
                        await until(lambda: bye.resumes)
                        bye.go.set()
                    await trio.sleep_forever()  # the session ends: the group raised
            nursery.cancel_scope.cancel()
    (ended,) = stopped.value.exceptions
    failure = session_failure(ended)  # type: ignore[arg-type]
    assert failure.status == EXIT_FAILED
    assert str(failure) == (
        f"the host at 127.0.0.1:{proxy.port} ended the connection while this client was "
        f"taking your seat back ({reason}: this seat resumed elsewhere); stopped trying; "
        "the host keeps your seat while the table is open: `scopa-net join "
        f"127.0.0.1:{proxy.port}` takes it back (your move "
        f"{play.text()} was not answered: it goes to the host again then, and you are told if "
        "it is not played)"
    )
    (kept,) = store.records()
    assert [(p.card, p.captured) for p in kept.pending] == [(play.card.index, play.captured_mask)]


async def test_a_move_kept_on_disk_and_refused_on_taking_the_seat_back_is_said_not_played(
    tmp_path: Path,
) -> None:
    """Bea's client died with her move on its way (the network held it, then dropped it):
    the move stayed on disk with the seat, and a computer played her turn meanwhile. The next
    client sends it again on taking the seat back; the host refuses it, and she reads that
    her move was not played, and why."""
    store = SeatStore(tmp_path)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0.3, grace=0.2)
            proxy = FaultProxy(host.port)
            await nursery.start(proxy.serve)
            choice = TableChoice(create=create(TWO, bots=1))
            async with open_network_session(
                "127.0.0.1", proxy.port, choice, name="Bea", store=store
            ) as bea:
                await until(lambda: bea.view is not None and bea.view.my_turn)
                assert bea.view is not None
                table_id, seat = bea.table_id, bea.seat
                assert table_id is not None
                play = legal_plays(bea.view)[0]
                proxy.stall(60)  # the move is held on the way...
                with trio.move_on_after(0.3):
                    await bea.submit(play)
            proxy.cut_all()  # ... and dropped with the client: it never reaches the host
            (kept,) = store.records()
            assert [p.card for p in kept.pending] == [play.card.index]
            table = host.tables[table_id].table
            await until(
                lambda: table.round is not None and any(p.seat == seat for p in table.round.plays)
            )  # a computer's
            store.release(kept)
            again = NetworkSession(
                "127.0.0.1", host.port, choice, name="Bea", store=store, resume_from=kept
            )
            said: list[str] = []
            nursery.start_soon(again.run)
            nursery.start_soon(said_into, again, said)
            await until(lambda: any("not played" in line for line in said))
            (refused,) = [line for line in said if "not played" in line]
            assert refused == (
                f"Your move {play.text()} was not played: the table moved on while the "
                "connection was down; look again."
            ), said
            await until(lambda: not store.records()[0].pending)  # answered: gone from disk
            nursery.cancel_scope.cancel()
