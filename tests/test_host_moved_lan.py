"""A host that came back at another address mid-evening (a new DHCP lease, cable instead of
Wi-Fi, the organiser's other machine with the same journal and key): the client that lost it
looks for the host's key among the hosts announced on the LAN and takes its seat back there,
saying so in one line. Never by the host's name, and never without the key check: a host
announced with the key but answering with another gets no token.

The LAN cannot announce a host on loopback to a client's ordinary search, so most tests here
give the search the announcements a browse would return (the hosts and the TCP are real);
one test uses real mDNS on loopback and skips where multicast does not work."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
import trio
from helpers import require_multicast, unique_name
from hosting import (
    create,
    host_in_thread,
    seat_kept_at_a_host_that_stopped,
    seat_kept_for_join,
    serve_then_close,
    start_host,
)
from reading_screen import FirstDeal, reading_screen
from session_watch import until

from scopa_net.client import launch, reconnection
from scopa_net.client.host_search import HostSearch, announced_elsewhere
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import ConnectionChanged, ConnectionState, Message
from scopa_net.client.session_errors import HostLostError
from scopa_net.commands.main import main
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet
from scopa_net.server.discovery import HostAdvert, LanAdvertiser, browse_hosts
from scopa_net.server.host import Host
from scopa_net.wire import messages as m


def leaves(group: BaseExceptionGroup) -> list[BaseException]:
    """The exceptions in ``group`` and in the groups inside it."""
    found: list[BaseException] = []
    for inner in group.exceptions:
        found += leaves(inner) if isinstance(inner, BaseExceptionGroup) else [inner]
    return found


def advert(name: str, port: int, key: bytes, address: str = "127.0.0.1") -> HostAdvert:
    """A host as the LAN announces it (protocol.md 1): its name, where, and its key."""
    return HostAdvert(name, port, m.OLDEST_VERSION, 1, False, addresses=(address,), key=key)


@dataclass
class Evening:
    """Ada's seat at a host over a journal on disk, and what she reads."""

    data: Path
    store: SeatStore
    session: NetworkSession
    said: list[str]
    first: Host

    async def back_at(self, port: int, seconds: float = 20) -> None:
        """Until Ada's client is connected again, to the host at ``port``."""
        session = self.session
        await until(
            lambda: session.connection is ConnectionState.CONNECTED and session.port == port,
            seconds,
        )

    def moved_to(self, port: int) -> str:
        return (
            f"The host moved to 127.0.0.1:{port} (found on the LAN by its key); taking your seat "
            "back there."
        )


async def lines_read(session: NetworkSession, said: list[str]) -> None:
    """The lines Ada reads, the connection's changes as the screen says them."""
    async for event in session.events:
        if isinstance(event, Message):
            said.append(event.text)
        elif isinstance(event, ConnectionChanged):
            said.append(f"Connection: {event.state.value} ({event.detail}).")


@asynccontextmanager
async def ada_at_the_table(
    tmp_path: Path,
    nursery: trio.Nursery,
    browse: Callable[[float], list[HostAdvert]],
    after: float = 0.2,
) -> AsyncIterator[Evening]:
    """Ada sits at a table of a host (a computer the other player), her client looking for
    the host on the LAN with ``browse`` when it loses it (the first look ``after`` seconds
    later)."""
    data = tmp_path / "scopa-net"
    store = SeatStore(data)
    first = await start_host(nursery, db=str(tmp_path / "host.db"), bot_delay=0.01, grace=600)
    search = HostSearch(browse, after=after, every=0.3)
    choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
    async with open_network_session(
        "127.0.0.1", first.port, choice, name="Ada", data_dir=data, store=store, lan_search=search
    ) as session:
        said: list[str] = []
        nursery.start_soon(lines_read, session, said)
        yield Evening(data, store, session, said, first)


async def restarted_elsewhere(evening: Evening, tmp_path: Path, nursery: trio.Nursery) -> Host:
    """The host stops, and starts again on its journal and key at another port."""
    await evening.first.shutdown()
    evening.first.journal.close()
    with socket.socket() as old_port:  # bound, never listening: the OS hands out another port
        old_port.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (past TIME_WAITs)
        old_port.bind(("127.0.0.1", evening.first.port))
        again = await start_host(nursery, db=str(tmp_path / "host.db"), bot_delay=0.01, grace=600)
    assert again.port != evening.first.port
    assert again.public_key == evening.first.public_key
    return again


async def test_the_client_follows_its_host_s_key_to_where_it_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It tried the old address for 5 minutes and gave up, although the host announced its
    key on the LAN. Now it finds the key at the new port and takes the seat back there; a
    host that merely has the same name (another key) is listed first and never contacted."""
    monkeypatch.setattr(reconnection, "REPORT_AFTER", tuple(i / 10 for i in range(100)))
    announced: list[HostAdvert] = []
    looks: list[float] = []

    def browse(seconds: float) -> list[HostAdvert]:
        looks.append(seconds)
        return list(announced)

    accepted: list[object] = []
    async with trio.open_nursery() as nursery:
        (namesake,) = await trio.open_tcp_listeners(0, host="127.0.0.1")

        async def count(stream: trio.SocketStream) -> None:
            accepted.append(stream)
            await stream.aclose()

        nursery.start_soon(trio.serve_listeners, count, [namesake])
        async with ada_at_the_table(tmp_path, nursery, browse) as evening:
            await trio.sleep(0.5)
            assert looks == []  # at the table: nothing asked of the LAN
            again = await restarted_elsewhere(evening, tmp_path, nursery)
            name = again.config.name
            announced += [
                advert(name, namesake.socket.getsockname()[1], bytes(range(32))),
                advert(name, again.port, again.public_key),
            ]
            await evening.back_at(again.port)
        nursery.cancel_scope.cancel()
    moved = evening.said.index(evening.moved_to(again.port))
    # Tried there at once: no "still trying" in between. It said it was stopping: restarted.
    assert evening.said[moved + 1] == (
        "Connection: connected (the host was restarted; back at the table)."
    )
    assert accepted == []  # the host of the same name: never connected to
    (kept,) = evening.store.records()  # kept at the new address only
    assert (kept.host, kept.port, kept.table_id, kept.seat) == ("127.0.0.1", again.port, 1, 0)
    pins = (evening.data / "known_hosts").read_text()
    assert f"127.0.0.1:{again.port} {again.public_key.hex()}\n" in pins


async def test_a_host_announced_with_the_key_but_answering_with_another_gets_no_seat(
    tmp_path: Path,
) -> None:
    """Anyone on the LAN can announce any key: the client checks the key in the ``welcome``
    before it sends the seat's token. A host posing as Ada's is said, not sat at (its answer
    to a token would have dropped the seat), never tried again, and the real one is found."""
    announced: list[HostAdvert] = []
    async with trio.open_nursery() as nursery:
        async with ada_at_the_table(tmp_path, nursery, lambda s: list(announced)) as evening:
            key = evening.first.public_key
            poser = await start_host(nursery, bot_delay=0.01)  # a key of its own
            again = await restarted_elsewhere(evening, tmp_path, nursery)
            announced += [advert("club", poser.port, key), advert("club", again.port, key)]
            await evening.back_at(again.port)
        nursery.cancel_scope.cancel()
    old = evening.first.port
    posing = (
        f"The host at 127.0.0.1:{poser.port} is announced on the LAN with the key of your "
        f"seat's host ({fingerprint(key)}) but answered with another: your seat was not taken "
        f"there (it may be another host posing as yours); back to 127.0.0.1:{old}."
    )
    moved = [line for line in evening.said if line.startswith("The host moved to")]
    assert moved == [
        f"The host moved to 127.0.0.1:{poser.port} (found on the LAN by its key); taking your "
        "seat back there.",
        evening.moved_to(again.port),
    ]
    assert evening.said.count(posing) == 1  # refused once, never tried again
    (kept,) = evening.store.records()
    assert kept.port == again.port
    pins = (evening.data / "known_hosts").read_text()
    assert f":{poser.port} " not in pins  # nothing pinned for the poser


async def test_giving_up_says_the_lan_was_searched_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reconnection, "RECONNECT_FOR", 1.5)
    looks: list[float] = []
    lost: list[BaseException] = []
    try:
        async with (
            trio.open_nursery() as nursery,
            ada_at_the_table(tmp_path, nursery, lambda s: looks.append(s) or []) as ada,
        ):
            await ada.first.shutdown()
            await trio.sleep(20)  # ended by the client giving up
    except* HostLostError as group:
        lost += leaves(group)
    assert looks  # looked, found nothing
    (error,) = lost
    note = ada.session.end_note or ""
    old = f"127.0.0.1:{ada.first.port}"
    assert str(error).startswith(note.split(" Your seat")[0])
    assert re.match(
        rf"the host at {old} was unreachable for \d s and not found on the LAN by its key; "
        rf"stopped trying Your seat is saved: `scopa-net join {old}` takes it back\.$",
        note,
    ), note


async def test_where_mdns_does_not_work_the_search_stops_asking() -> None:
    calls: list[float] = []

    def broken(seconds: float) -> list[HostAdvert]:
        calls.append(seconds)
        raise OSError("no multicast route")

    search = HostSearch(broken, after=0, every=0)
    for _ in range(3):
        assert await search.look(bytes(32), ("127.0.0.1", 1), now=True) is None
    assert len(calls) == 1


async def test_a_machine_without_a_lan_asks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """No interface up but loopback: no mDNS socket is opened, now or later, and a client
    that gives up does not claim to have searched the LAN."""
    from scopa_net.server import discovery

    def no_zeroconf(**options: object) -> None:
        raise AssertionError("mDNS was asked on a machine without a LAN")

    monkeypatch.setattr(discovery, "browse_interfaces", lambda: [])
    monkeypatch.setattr(discovery, "Zeroconf", no_zeroconf)
    search = HostSearch()
    for _ in range(2):
        assert await search.look(bytes(32), ("127.0.0.1", 1), now=True) is None
    assert not search.looked


def test_only_the_key_says_where_the_host_is() -> None:
    ours, other = bytes(range(32)), bytes(32)
    here = ("192.0.2.7", 7311)
    assert announced_elsewhere([advert("Club", 7311, other, "192.0.2.9")], ours, here) is None
    moved = [advert("Club", 7311, other, "192.0.2.9"), advert("X", 7312, ours, "192.0.2.8")]
    assert announced_elsewhere(moved, ours, here) == ("192.0.2.8", 7312)
    assert announced_elsewhere([advert("Club", 7311, ours, "192.0.2.7")], ours, here) is None
    refused = [("192.0.2.8", 7312)]
    assert announced_elsewhere(moved, ours, here, refused) is None
    no_key = HostAdvert("Club", 7312, m.OLDEST_VERSION, 1, False, addresses=("192.0.2.8",))
    assert announced_elsewhere([no_key], ours, here) is None  # an older host: no key said


@pytest.mark.parametrize("typed", [(), ("old",)], ids=["no address", "the old address"])
def test_join_takes_the_seat_back_where_the_lan_says_the_host_moved(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    typed: tuple[str, ...],
) -> None:
    """`scopa-net join` (or `join OLD`) with the seat kept at an address where nothing answers
    now said "cannot reach the host ...; `scopa-net join OLD` tries again", status 3. The host
    announced on the LAN with the seat's key is where the seat is taken back."""
    from scopa_net.server import discovery

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    db = str(tmp_path / "host.db")
    data = tmp_path / "scopa-net"
    old = seat_kept_at_a_host_that_stopped(db, data)
    with host_in_thread(db, bot_delay=0.01, grace=600) as again:
        found = advert(again.host.config.name, again.port, again.host.public_key)
        monkeypatch.setattr(discovery, "browse_hosts", lambda seconds, interfaces=None: [found])
        seen: list[FirstDeal] = []
        monkeypatch.setattr(launch, "run_game_screen", reading_screen(seen))
        address = [f"127.0.0.1:{old}" for _ in typed]
        status = main(["join", *address])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert out.startswith(f"Taking back your seat at table 1 'test table' on 127.0.0.1:{old} ")
    (dealt,) = seen
    assert dealt.notices[0] == (
        f"The host moved to 127.0.0.1:{again.port} (found on the LAN by its key); taking your "
        "seat back there."
    )
    assert dealt.notices[1].startswith(f"Back in your seat at table 1 (127.0.0.1:{again.port}), ")
    (kept,) = SeatStore(data).records()
    assert kept.port == again.port


@pytest.mark.xdist_group("mdns")  # real mDNS: with test_server_discovery.py's tests
async def test_the_host_is_found_by_its_key_over_real_mdns(tmp_path: Path) -> None:
    require_multicast()
    async with trio.open_nursery() as nursery:
        search = lambda seconds: browse_hosts(seconds, ["127.0.0.1"])  # noqa: E731
        async with ada_at_the_table(tmp_path, nursery, search) as evening:
            again = await restarted_elsewhere(evening, tmp_path, nursery)
            said = advert(unique_name("moved host"), again.port, again.public_key)
            announcer = await trio.to_thread.run_sync(
                lambda: LanAdvertiser(said, "127.0.0.1", addresses=["127.0.0.1"])
            )
            try:
                await evening.back_at(again.port, 30)
            finally:
                await trio.to_thread.run_sync(announcer.close)
        nursery.cancel_scope.cancel()
    assert evening.moved_to(again.port) in evening.said


async def test_another_host_at_the_old_address_sends_the_client_to_look_on_the_lan(
    tmp_path: Path,
) -> None:
    """The old address given to another host (its own key) while Ada's host came back
    elsewhere: that ended her client at once ("the host at OLD now has key ..., not ...").
    Now it looks on the LAN for her host's key and takes the seat back there."""
    from scopa_net.server.config import HostConfig
    from scopa_net.server.journal import Journal

    announced: list[HostAdvert] = []
    ready = threading.Event()

    def browse(seconds: float) -> list[HostAdvert]:
        ready.wait(seconds + 2)  # the LAN answers once the moved host announces itself
        return list(announced)

    async with trio.open_nursery() as nursery:
        # No look but the one the other key sets off (the first periodic one comes late).
        async with ada_at_the_table(tmp_path, nursery, browse, after=60) as evening:
            old = evening.first.port
            await evening.first.shutdown()
            evening.first.journal.close()
            config = HostConfig(bind="127.0.0.1", port=old, advertise=False, db=":memory:")
            other = Host(config, Journal(":memory:"))
            await nursery.start(serve_then_close, other)
            again = await start_host(
                nursery, db=str(tmp_path / "host.db"), bot_delay=0.01, grace=600
            )
            assert other.public_key != again.public_key
            announced.append(advert("club", again.port, again.public_key))
            ready.set()
            await evening.back_at(again.port)
        nursery.cancel_scope.cancel()
    assert evening.moved_to(again.port) in evening.said
    (kept,) = evening.store.records()
    assert kept.port == again.port


def test_join_says_a_host_posing_as_yours_and_keeps_the_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing answers at the seat's address, and the LAN announces the seat's key at a host
    that answers with another key: no token goes there, the seat stays kept, and the one
    line says why and how to try again (status 6: the key is not the one pinned)."""
    from scopa_net.commands.options import EXIT_KEY_CHANGED
    from scopa_net.server import discovery

    data, old, record, key = seat_kept_for_join(tmp_path, monkeypatch)
    with host_in_thread(bot_delay=0.01) as poser:
        posing = advert("club", poser.port, key)
        monkeypatch.setattr(discovery, "browse_hosts", lambda seconds, interfaces=None: [posing])
        status = main(["join"])
    out, err = capsys.readouterr()
    assert status == EXIT_KEY_CHANGED, out + err
    assert out.startswith(f"Taking back your seat at table 1 'test table' on 127.0.0.1:{old} ")
    assert err.splitlines()[-1] == (
        f"scopa-net: the host at 127.0.0.1:{poser.port} is announced on the LAN with the key "
        f"of your seat's host ({fingerprint(key)}) but answered with another: your seat was "
        f"not taken there (it may be another host posing as yours), nor is your host at "
        f"127.0.0.1:{old}; your seat stays kept: `scopa-net join 127.0.0.1:{old}` tries again"
    )
    assert SeatStore(data).records() == [record]  # kept as it was, at the old address
    assert f":{poser.port} " not in (data / "known_hosts").read_text()


async def test_the_bots_follow_their_host_s_key_to_where_it_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer players of `scopa-net bots` kept trying the old address of a host that
    moved for 5 minutes, then stopped. Now each finds the host's key on the LAN as a person's
    client does, the bots of the run sharing one look, says so in the run's report, and plays
    on there."""
    from scopa_net.commands.bots import BotPlan, BotStats, run_bots
    from scopa_net.server import discovery

    announced: list[HostAdvert] = []
    looks: list[float] = []

    def browse(seconds: float, interfaces: list[str] | None = None) -> list[HostAdvert]:
        looks.append(seconds)
        return list(announced)

    monkeypatch.setattr(discovery, "browse_interfaces", lambda: ["192.0.2.1"])
    monkeypatch.setattr(discovery, "browse_hosts", browse)
    said: list[str] = []
    stats = BotStats()
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        first = await start_host(nursery, db=db, grace=600)
        plan = BotPlan(level="random", delay=0.05, check=True)
        run = partial(run_bots, create=RuleSet.of(2, 16), stats=stats, report=said.append)
        nursery.start_soon(run, "127.0.0.1", first.port, 4, plan)
        await until(lambda: sum("seated at" in line for line in said) == 4, 20)
        await first.shutdown()
        first.journal.close()
        again = await start_host(nursery, db=db, grace=600)
        announced.append(advert("club", again.port, again.public_key))
        moved = f"The host moved to 127.0.0.1:{again.port} (found on the LAN by its key)"
        await until(lambda: sum(moved in line for line in said) == 4, 30)
        then = len(said)
        await until(lambda: any("round over" in line for line in said[then:]), 30)
        nursery.cancel_scope.cancel()
    assert len(looks) < 4, looks  # one look for the bots that lost the host together
    assert stats.failures == []
