"""The network client's limits, in virtual time over memory streams: it gives up, saying so,
when the host stays away past the reconnect window, and a full event queue drops events with a
warning without losing the state of the game."""

from __future__ import annotations

import logging
import re
from functools import partial
from pathlib import Path

import pytest
import trio
import trio.testing
from hosting import Network, create, serve_then_close

from scopa_net.client.launch import session_failure
from scopa_net.client.network_session import (
    RECONNECT_FOR,
    NetworkSession,
    SessionError,
    TableChoice,
    refused_play,
)
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import ConnectionChanged, ConnectionState, Message
from scopa_net.errors import IllegalPlayError
from scopa_net.notation import parse_card
from scopa_net.plays import Play
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m


async def start_memory_host(nursery: trio.Nursery, **options: object) -> tuple[Host, Network]:
    config = HostConfig(db=":memory:", advertise=False, **options)  # type: ignore[arg-type]
    host = Host(config, Journal(":memory:"))
    await nursery.start(partial(serve_then_close, host, listen=False))
    return host, Network(host, nursery)


def queued_events(session: NetworkSession) -> list[object]:
    """Every event the session has queued and nobody read yet."""
    queued: list[object] = []
    while True:
        try:
            queued.append(session.events.receive_nowait())
        except (trio.WouldBlock, trio.EndOfChannel):
            return queued


def connection_changes(session: NetworkSession) -> list[ConnectionChanged]:
    return [e for e in queued_events(session) if isinstance(e, ConnectionChanged)]


async def test_the_client_gives_up_after_the_reconnect_window(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """It gives up, and says so once: the screen said "stopped trying... `scopa-net join`
    takes it back", then the command's last line said the same again."""
    async with trio.open_nursery() as nursery:
        _, net = await start_memory_host(nursery)
        session = NetworkSession(
            "mem",
            0,
            TableChoice(create=create(RuleSet.of(2), bots=1)),
            name="ann",
            connector=net.connect,
            store=SeatStore(tmp_path),
        )

        async def cut_for_good() -> None:
            await session.connected.wait()
            await net.go_down()
            nonlocal cut_at
            cut_at = trio.current_time()

        cut_at = 0.0
        nursery.start_soon(cut_for_good)
        with pytest.raises(SessionError) as lost:
            await session.run()
        waited = trio.current_time() - cut_at
        # It kept trying for the whole window (and at most one more backoff step after it).
        assert RECONNECT_FOR <= waited <= RECONNECT_FOR + 10
        queued = queued_events(session)
        last_line = str(session_failure(lost.value))
        assert re.fullmatch(
            r"the host at mem:0 was unreachable for 5 min( \d\d s)?; stopped trying; the host "
            r"keeps your seat while the table is open: `scopa-net join mem:0` takes it back",
            last_line,
        ), last_line
        shown = [e.text for e in queued if isinstance(e, Message)]
        assert not [text for text in shown if "takes it back" in text or "stopped" in text]
        changes = [e for e in queued if isinstance(e, ConnectionChanged)]
        states = [e.state for e in changes]
        # The reports say the host is unreachable, not that it does not answer: a host that is
        # not running refuses the connection at once.
        reports = [e.detail for e in changes if "unreachable" in e.detail]
        assert reports, [e.detail for e in changes]
        # Shown in brackets ("Connection: reconnecting (...)."): none inside, where it read
        # "Type quit to stop (your seat is kept))."
        said = r"the host has been unreachable for \d+ s; still trying for up to 5 min\. Type quit"
        said += r" to stop; the host keeps your seat while the table is open"  # (as it ends)
        assert all(re.fullmatch(said, d) for d in reports[:2]), reports
        # Connected, then reconnecting until it gave up: never back in between.
        assert states[-2:] == [ConnectionState.RECONNECTING, ConnectionState.CLOSED]
        assert ConnectionState.CONNECTED not in states[states.index(ConnectionState.RECONNECTING) :]
        nursery.cancel_scope.cancel()


async def test_a_full_event_queue_drops_events_with_a_warning_and_keeps_the_game(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery, chat_lines=10_000)
        session = NetworkSession(
            "mem",
            0,
            TableChoice(create=create(RuleSet.of(2), bots=1)),
            name="ann",
            connector=net.connect,
        )
        nursery.start_soon(session.run)
        await session.connected.wait()
        table = host.tables[session.table_id].table
        # Nobody reads the events: 400 chat lines come back to the sender.
        with caplog.at_level(logging.WARNING):
            for n in range(400):
                await session.say(f"line {n}")
            with trio.fail_after(60):
                while session.mirror is None or session.mirror.seq < len(
                    table.seats[session.seat].log
                ):
                    await trio.sleep(0.1)
                await trio.sleep(1)
        dropped = [r for r in caplog.records if "client event queue full" in r.getMessage()]
        assert dropped, "no warning for the dropped events"
        assert "dropping Message" in dropped[0].getMessage()
        # The queue holds what fits, in order; the game state is whole all the same.
        queued = queued_events(session)
        assert len(queued) == 256
        lines = [e.text for e in queued if isinstance(e, Message) and e.seat == session.seat]
        assert lines == [f"line {n}" for n in range(len(lines))]
        assert session.mirror.view == table.view_for(session.seat)
        # Once read, events flow again.
        await session.say("after")
        with trio.fail_after(10):
            async for event in session.events:
                if isinstance(event, Message) and event.text == "after":
                    break
        nursery.cancel_scope.cancel()


async def test_an_idle_client_pings_a_host_that_never_does(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """protocol.md 3.6: either side pings when it has sent nothing for 10 seconds, and a side
    that hears nothing for 30 closes. The client used to leave pinging to the host, so a host
    that follows the document but never pings (an outside one did) dropped every seat waiting
    at a table after 30 seconds, and the client went away and back."""
    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery, heartbeat_interval=3600.0)
        session = NetworkSession(
            "mem",
            0,
            TableChoice(create=create(RuleSet.of(3))),  # two seats stay open: nothing happens
            name="ann",
            connector=net.connect,
        )
        nursery.start_soon(session.run)
        await session.connected.wait()
        await trio.sleep(120)
        states = [e.state for e in connection_changes(session)]
        assert ConnectionState.RECONNECTING not in states
        assert host.tables[session.table_id].table.seats[session.seat].connected
        nursery.cancel_scope.cancel()


async def test_a_play_refused_when_no_round_is_in_play_says_so(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The client read every refusal without a rule broken as "it is not your turn" (and
    wrong_phase as "the round is over", though seeds being exchanged is one too)."""
    async with trio.open_nursery() as nursery:
        _, net = await start_memory_host(nursery)
        session = NetworkSession(
            "mem",
            0,
            TableChoice(create=create(RuleSet.of(3))),  # two seats stay open: no round yet
            name="ann",
            connector=net.connect,
        )
        nursery.start_soon(session.run)
        await session.connected.wait()
        with pytest.raises(IllegalPlayError) as refused:
            await session.submit(Play(parse_card("7d")))
        assert str(refused.value) == "not played: '7d': no round is being played just now"
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize(
    ("code", "message", "words"),
    [
        ("stale", "", "not played: '7d': the table changed before it reached the host; look"),
        ("move_id_taken", "", "not played: '7d': the host holds another move under this"),
        ("not_your_turn", "", "illegal play: '7d': it is not your turn"),
    ],
)
def test_each_refusal_of_a_play_reads_as_what_stopped_it(
    code: str, message: str, words: str
) -> None:
    seq = 5 if code == "stale" else None
    answer = m.Reject(move_id=1, code=code, reason=None, message=message, current_seq=seq)
    assert str(refused_play(answer, "7d")).startswith(words)


async def test_a_host_stopped_and_started_again_is_waited_for_and_the_seat_taken_back(
    tmp_path,
) -> None:
    """README: a host started again resumes its tables and players' clients reconnect by
    themselves. After a host was stopped with Ctrl-C (its `bye shutting_down`), the client
    quit instead, and every player had to join again by hand."""
    db = str(tmp_path / "host.db")  # on disk, as the host's journal is: no virtual time
    async with trio.open_nursery() as nursery:
        config = HostConfig(db=db, advertise=False)
        first = Host(config, Journal(db))
        host_scope = trio.CancelScope()

        async def serve(host: Host, scope: trio.CancelScope, *, task_status) -> None:
            with scope:
                await serve_then_close(host, listen=False, task_status=task_status)

        await nursery.start(serve, first, host_scope)
        net = Network(first, nursery)
        session = NetworkSession(
            "mem",
            0,
            TableChoice(create=create(RuleSet.of(3))),  # two seats stay open
            name="ann",
            connector=net.connect,
        )
        nursery.start_soon(session.run)
        await session.connected.wait()
        table_id, seat = session.table_id, session.seat
        await first.shutdown()
        host_scope.cancel()
        net.up = False
        first.journal.close()
        with trio.fail_after(30):
            while session.connection is not ConnectionState.RECONNECTING:
                await trio.sleep(0.1)
        await trio.sleep(2)  # the host is down a while (real time: its journal is a file)
        second = Host(config, Journal(db))
        await nursery.start(serve, second, trio.CancelScope())
        net.host, net.up = second, True
        with trio.fail_after(60):
            while session.connection is not ConnectionState.CONNECTED:
                await trio.sleep(0.1)
        assert (session.table_id, session.seat) == (table_id, seat)
        assert second.tables[table_id].table.seats[seat].connected
        states = [(e.state, e.detail) for e in connection_changes(session)]
        assert (
            ConnectionState.RECONNECTING,
            "the host was stopped; waiting for it to start again. Your seat is kept: type quit "
            "to stop trying",
        ) in states
        nursery.cancel_scope.cancel()
