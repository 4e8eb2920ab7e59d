"""A `leave` the host refuses (protocol.md 3.1: its `storage` while the journal cannot be
written, 3.6) leaves the seat held and the connection seated: the player may play on, or send
`leave` again. Before, both sides' state machines stayed in `leaving` after the refusal, and a
second `leave` ended the connection with `bye out_of_order` ("player may not send 'leave' in
state leaving"): the seat was dropped, not left. Over real loopback, at a real host whose
journal really refuses writes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import trio
from full_journal import free_the_journal, until_the_journal_fails
from hosting import create, start_host
from rawplayer import RawPlayer, answer, close_links, close_opened, open_link

from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.wire.connection import Connection, HostConnection, PlayerConnection, State

LOOSE = {"chat_lines": 10_000, "request_burst": 10_000, "request_rate": 10_000.0}


@pytest.fixture(autouse=True)
def _close_links() -> Iterator[None]:
    yield
    close_opened()


async def test_a_leave_refused_for_the_host_s_disk_can_be_sent_again(tmp_path) -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(tmp_path / "host.db"), **LOOSE)
        lobby = await open_link(port=host.port)
        await lobby.send(create(RuleSet.of(2, 11), bots=1))
        made = await answer(lobby, (m.TableCreated,))
        ada = RawPlayer(lobby, made.table.id)  # type: ignore[attr-defined]
        await ada.join()
        await until_the_journal_fails(host)

        await ada.link.send(m.Leave(away=False))
        with trio.fail_after(10):
            while True:  # (the table's events, read as they come)
                refused = await answer(ada.link, (m.Error,))
                assert isinstance(refused, m.Error)
                if refused.ref == "leave":
                    break
        assert refused.code == "storage", refused
        free_the_journal(host)
        with trio.fail_after(15):
            while host.writer.failing is not None:  # (it tries again within 5 s)
                await trio.sleep(0.05)
        await ada.link.send(m.Leave(away=False))  # (before: bye out_of_order)
        left = await answer(ada.link, (m.Left, m.Bye), within=10)
        assert isinstance(left, m.Left), left
        await close_links()
        nursery.cancel_scope.cancel()


def test_the_state_machines_go_back_to_seated_when_a_leave_is_refused() -> None:
    """Sans-IO: both ends of a connection in `leaving` take an `error` naming `leave` back to
    `seated`; an `error` answering an earlier request (a `say`) leaves them `leaving`."""
    host, player = HostConnection(), PlayerConnection()
    for end in (host, player):
        end.state = State.SEATED

    def carry(sender: Connection, receiver: Connection, msg: m.Message) -> None:
        receiver.receive_data(sender.send(msg))
        assert receiver.next_event() == msg

    carry(player, host, m.Leave(away=False))
    assert host.state is player.state is State.LEAVING
    carry(host, player, m.Error(code="chat_too_long", message="too long", ref="say"))
    assert host.state is player.state is State.LEAVING
    carry(host, player, m.Error(code="storage", message="cannot save", ref="leave"))
    assert host.state is player.state is State.SEATED
    carry(player, host, m.Leave(away=False))  # again: before, out_of_order
    carry(host, player, m.Left(table_id=1, seat=0))
    assert host.state is player.state is State.LOBBY
