"""A client of protocol 5 at a host that speaks only 4 (an older scopa-net) says its ``hello``
in 5 once a run, not once a connection (protocol.md 3.2), over real loopback TCP.

Found playing a club evening across the upgrade: an older host logs every ``hello`` it refuses
as "a player's scopa-net is newer than this host's (protocol 5, this one 4): update this host's
scopa-net to let them play here", though our client says hello again in 4 and plays there.
Every connection of a ``join`` (its look at the host, the table list, the seat) and every
player of ``bots`` said hello in 5 first: the organiser read a line telling them to update for
each, 17 after a few joins and three ``bots`` runs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from helpers import free_port
from hosting import start_host as start_our_host
from other_version import start_host

from scopa_net.client.hello_versions import HELLO_VERSIONS
from scopa_net.client.host_link import connect
from scopa_net.server.discovery import HostAdvert
from scopa_net.wire import messages as m

REFUSED = "a player's scopa-net is newer than this host's"
"""How the older host's log begins the line for each ``hello`` it refuses."""


@asynccontextmanager
async def older_host(tmp_path: Path) -> AsyncIterator[tuple[int, Path]]:
    """A host of the version before this one's, logging at INFO: its port and its log."""
    port, log = free_port(), tmp_path / "host.log"
    host = await start_host(-1, tmp_path / "host.db", port, "--log-level", "INFO", log=log)
    try:
        yield port, log
    finally:
        host.kill()  # type: ignore[attr-defined]
        await host.wait()  # type: ignore[attr-defined]
        HELLO_VERSIONS.forget("127.0.0.1", port)


def refusals(log: Path) -> int:
    return log.read_text().count(REFUSED)


async def test_a_join_says_hello_in_5_to_a_host_of_4_once(tmp_path: Path) -> None:
    """Three connections, as a `join` opens them (its look at the host, the list, the seat):
    the host refuses one hello, the first; the others are said in 4 at once and welcomed."""
    from scopa_net.commands.join_host import ask_host

    async with older_host(tmp_path) as (port, log):
        for _ in range(3):
            await trio.to_thread.run_sync(ask_host, "127.0.0.1", port)
        link, welcome = await connect("127.0.0.1", port)
        await link.aclose()
        await trio.sleep(0.3)  # the host's log line is written as it closes
        assert welcome.version == m.PROTOCOL_VERSION - 1
        assert refusals(log) == 1, log.read_text()


async def test_a_host_whose_lan_record_says_4_is_greeted_in_4_at_once(tmp_path: Path) -> None:
    """Picked from the LAN list, a host whose record has `proto` 4 and no `protomax` (it speaks
    4 only) is never said hello to in 5."""
    from scopa_net.commands.join_host import ask_host
    from scopa_net.commands.join_lan import lan_host_address

    async with older_host(tmp_path) as (port, log):
        advert = HostAdvert("Old club", port, m.PROTOCOL_VERSION - 1, 2, False, ("127.0.0.1",))
        _, key = await trio.to_thread.run_sync(ask_host, *lan_host_address(advert))
        await trio.sleep(0.3)
        assert len(key) == 32
        assert refusals(log) == 0, log.read_text()


async def test_another_host_at_the_address_is_greeted_in_the_newest_again() -> None:
    """A host of 4 remembered at an address, and now another host answers there (another key:
    its organiser upgraded, or another machine took the address): the client says hello in
    the newest version again and the connection speaks it."""
    async with trio.open_nursery() as nursery:
        host = await start_our_host(nursery)
        HELLO_VERSIONS.learn("127.0.0.1", host.port, m.PROTOCOL_VERSION - 1, bytes(32))
        try:
            link, welcome = await connect("127.0.0.1", host.port)
            await link.aclose()
        finally:
            HELLO_VERSIONS.forget("127.0.0.1", host.port)
        assert welcome.version == m.PROTOCOL_VERSION
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("stop", ["stopped", "killed"])
async def test_a_host_of_4_stopped_and_started_as_5_is_greeted_in_5(
    tmp_path: Path, stop: str
) -> None:
    """Ada plays at a host of 4 (her client says hello in 4 after the first refusal); its
    organiser stops it (`bye shutting_down`), or it is killed (no `bye`: the machine's power,
    `kill -9`), and this version starts on the same journal and port. Her client takes the
    seat back in 5: the host may come back updated. Kept at 4, it played on in 4 and the
    updated host's log named her scopa-net as an older one; killed, it kept 4 until it
    exited, so the updated host could never prove its key to her."""
    import signal

    from hosting import host_command

    from scopa_net.client.host_link import list_tables
    from scopa_net.client.network_session import TableChoice, open_network_session
    from scopa_net.client.seat_store import SeatStore
    from scopa_net.client.session import ConnectionState

    port, db, data = free_port(), tmp_path / "host.db", tmp_path / "ada"
    log = tmp_path / "newer.log"
    table = ("--players", "2", "--bots", "1", "--bot-level", "easy", "--bot-delay", "0.5")
    older = await start_host(-1, db, port, *table, log=tmp_path / "older.log")
    newer: trio.Process | None = None
    try:
        with trio.fail_after(20):
            while not await list_tables("127.0.0.1", port):
                await trio.sleep(0.05)
        choice = TableChoice(table_id=1)
        async with open_network_session(
            "127.0.0.1", port, choice, name="Ada", data_dir=data, store=SeatStore(data)
        ) as ada:
            with trio.fail_after(20):
                while ada.view is None:
                    await trio.sleep(0.02)
            assert ada._link is not None
            assert ada._link.conn.version == m.PROTOCOL_VERSION - 1
            how = signal.SIGINT if stop == "stopped" else signal.SIGKILL
            older.send_signal(how)  # type: ignore[attr-defined]
            await older.wait()  # type: ignore[attr-defined]
            with log.open("ab") as stderr:
                argv = host_command(db, port, "--log-level", "INFO")
                newer = await trio.lowlevel.open_process(argv, stderr=stderr)
            with trio.fail_after(30):
                while "Ada (seat 0) resumed" not in log.read_text():
                    await trio.sleep(0.05)
                while ada.connection is not ConnectionState.CONNECTED:
                    await trio.sleep(0.02)
            assert ada._link is not None
            assert ada._link.conn.version == m.PROTOCOL_VERSION
    finally:
        for host in (older, newer):
            if host is not None:
                host.kill()  # type: ignore[attr-defined]
                await host.wait()  # type: ignore[attr-defined]
        HELLO_VERSIONS.forget("127.0.0.1", port)
    resumed = [line for line in log.read_text().splitlines() if "resumed" in line]
    assert resumed
    assert not [line for line in resumed if "older scopa-net" in line], resumed
