"""The words a person reads while looking for a table to join: the LAN list of hosts."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from client_fakes import Screen
from hosting import MakeHost, create

from scopa_net.client.controller import Controller
from scopa_net.client.network_session import (
    KnownHosts,
    NetworkSession,
    TableChoice,
    open_network_session,
)
from scopa_net.client.style import Display
from scopa_net.commands.join_lan import describe_lan_host
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet
from scopa_net.server.discovery import HostAdvert, browse_interfaces
from scopa_net.wire import messages as m

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))


def advert(**fields: object) -> HostAdvert:
    base: dict[str, object] = dict(
        name="vm", port=42740, protocol=m.PROTOCOL_VERSION, open_seats=2, password=True
    )
    base.update(addresses=("192.0.2.2",), key=KEY, password_open=0)
    base.update(fields)
    return HostAdvert(**base)  # type: ignore[arg-type]


def test_each_host_shows_its_key_and_whether_it_is_known(tmp_path: Path) -> None:
    """Two hosts on one machine were told apart only by their ports; the key showed only
    after picking one."""
    known = KnownHosts(tmp_path / "known_hosts")
    short = "-".join(fingerprint(KEY).split("-")[:2])
    line = describe_lan_host(advert(), known)
    assert line == f"vm at 192.0.2.2:42740, key {short} (2 open seats)"
    known.pin("192.0.2.2:42740", KEY)
    # It read "key 13b4-509f (known) (2 open seats)": two pairs of brackets, one of them the key's.
    assert f"key {short}, known to you (2 open seats)" in describe_lan_host(advert(), known)
    other = describe_lan_host(advert(key=OTHER_KEY), known)
    assert ", not the key you pinned for it (2 open seats)" in other
    old = describe_lan_host(advert(key=None, password_open=None, password=False), known)
    assert old == "vm at 192.0.2.2:42740 (2 open seats)"


def test_password_is_said_only_of_open_seats_behind_one(tmp_path: Path) -> None:
    """ "(2 open seats, password)" was said when the password table was full and both open
    seats were at tables without one."""
    known = KnownHosts(tmp_path / "known_hosts")
    assert describe_lan_host(advert(password_open=0), known).endswith("(2 open seats)")
    assert describe_lan_host(advert(password_open=2), known).endswith("(2 open seats, password)")
    assert describe_lan_host(advert(open_seats=3, password_open=1), known).endswith(
        "(3 open seats, 1 of them at a table with a password)"
    )
    older = describe_lan_host(advert(password_open=None), known)
    assert older.endswith("(2 open seats, some tables have a password)")


def test_a_host_of_another_version_on_the_lan_says_who_must_update(tmp_path: Path) -> None:
    """A host of another version was listed as "another version: it speaks protocol 3,
    this scopa-net 4, so it cannot be joined until both run the same version": both
    versions, but not whose to update. Now the line says which is older, and who updates."""
    known = KnownHosts(tmp_path / "known_hosts")
    ours, too_old = m.PROTOCOL_VERSION, m.OLDEST_VERSION - 1
    older = describe_lan_host(advert(protocol=too_old, password_open=0), known)
    assert older.endswith(
        f"(2 open seats; another version: its scopa-net is older than yours (protocol "
        f"{too_old}, this one {ours}), so it cannot be joined until its organiser updates it)"
    ), older
    newer = describe_lan_host(advert(protocol=ours + 1, password_open=0), known)
    assert newer.endswith(
        f"(2 open seats; another version: its scopa-net is newer than yours (protocol "
        f"{ours + 1}, this one {ours}), so update yours to join it)"
    ), newer


def test_a_host_of_an_older_version_this_client_still_speaks_is_listed_as_any_other(
    tmp_path: Path,
) -> None:
    """A host that speaks protocol 4 only (an older scopa-net): this client says hello to it
    in 4 (protocol.md 3.2), so the LAN list shows it as any other host, not "another version:
    ... cannot be joined"."""
    known = KnownHosts(tmp_path / "known_hosts")
    listed = describe_lan_host(advert(protocol=m.PROTOCOL_VERSION - 1, password_open=0), known)
    assert listed.endswith("(2 open seats)"), listed


def test_a_host_that_speaks_several_versions_is_listed_by_the_oldest_and_the_newest(
    tmp_path: Path,
) -> None:
    """This host speaks protocols 4 and 5 and announced `proto` 5 alone: a client of protocol
    4, which compares `proto` with its own, listed it as "newer than yours ... update yours to
    join it", though it joins there in 4. Now `proto` is the oldest version a host speaks and
    `protomax` the newest (protocol.md 1); a record without `protomax` is an older host's,
    of one version."""
    record = {b"name": b"x", b"proto": b"4", b"open": b"1", b"pw": b"0"}
    assert list(HostAdvert.from_properties(record, 1, ()).protocols) == [4]
    record[b"protomax"] = b"5"
    assert list(HostAdvert.from_properties(record, 1, ()).protocols) == [4, 5]

    known = KnownHosts(tmp_path / "known_hosts")
    ours = m.PROTOCOL_VERSION
    spans = advert(protocol=m.OLDEST_VERSION - 1, newest_protocol=ours + 1, password_open=0)
    assert describe_lan_host(spans, known).endswith("(2 open seats)")
    newer = advert(protocol=ours + 1, newest_protocol=ours + 3, password_open=0)
    assert describe_lan_host(newer, known).endswith(
        f"its scopa-net is newer than yours (protocol {ours + 1}, this one {ours}), so update "
        "yours to join it)"
    )
    too_old = m.OLDEST_VERSION - 1
    older_host = advert(protocol=too_old - 2, newest_protocol=too_old, password_open=0)
    assert describe_lan_host(older_host, known).endswith(
        f"its scopa-net is older than yours (protocol {too_old}, this one {ours}), so it "
        "cannot be joined until its organiser updates it)"
    )


async def test_the_host_announces_its_key_and_the_seats_behind_a_password(
    make_host: MakeHost,
) -> None:
    from scopa_net.server.announce import host_advert

    host = await make_host()
    await host.create_table("locked", RuleSet.of(2), "secret", 2, 1)  # full: computers play
    await host.create_table("open", RuleSet.of(2))
    await trio.testing.wait_all_tasks_blocked()
    said = host_advert(host)
    assert (said.open_seats, said.password, said.password_open) == (2, True, 0)
    assert said.key == host.public_key
    props = {k.encode(): v.encode() for k, v in said.properties().items()}
    assert HostAdvert.from_properties(props, said.port, ()) == said
    # The oldest version it speaks, then the newest (protocol.md 1).
    assert (props[b"proto"], props[b"protomax"]) == (b"4", b"5")
    await host.create_table("locked too", RuleSet.of(2), "secret")
    assert host_advert(host).password_open == 2


async def who_says(session: object) -> str:
    """What ``who`` shows the person at ``session``'s seat."""
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)  # type: ignore[arg-type]
    await controller.handle_line("who")
    return screen.take()


async def who_once_invited(session: NetworkSession) -> str:
    """What ``who`` shows once the session has its words for friends joining (they come a
    moment after the table, the host's LAN address looked for first)."""
    with trio.fail_after(10):
        while not session.where_to_join:
            await trio.sleep(0.01)
    return await who_says(session)


async def test_who_says_how_friends_join_only_while_a_seat_is_open(make_host: MakeHost) -> None:
    """`who` in a match under way, every seat taken, still ended with "Table 2 is yours.
    Friends join it with ...; the match begins when every seat is taken."."""
    host = await make_host()
    waiting = TableChoice(create=create(RuleSet.of(2, 11)))
    async with open_network_session("127.0.0.1", host.port, waiting, name="Ada") as session:
        said = await who_once_invited(session)
        assert f"Table {session.table_id} is yours. Friends join it with `scopa-net join" in said
        assert "the match begins when every seat is taken." in said
    full = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
    async with open_network_session("127.0.0.1", host.port, full, name="Eva") as session:
        with trio.fail_after(10):
            while session.view is None:
                await trio.sleep(0.01)
        said = await who_says(session)
        assert "Seat 1: " in said
        assert "Friends join" not in said, said
        assert "is yours" not in said, said


async def test_friends_are_not_sent_to_a_loopback_address(make_host: MakeHost) -> None:
    """`join 127.0.0.1:42730 --create` told "Friends join it with `scopa-net join
    127.0.0.1:42730 --table 3`": a friend typing that reaches their own machine."""
    host = await make_host()  # it listens on loopback only: no LAN address answers
    choice = TableChoice(create=create(RuleSet.of(2, 11)))
    async with open_network_session("127.0.0.1", host.port, choice, name="Eva") as session:
        said = await who_once_invited(session)
    assert (
        f"Friends join it with `scopa-net join 127.0.0.1:{host.port} --table "
        f"{session.table_id}` (use the host machine's LAN address, not 127.0.0.1); the match "
        "begins when every seat is taken."
    ) in said


async def test_friends_are_given_the_lan_address_where_the_host_answers(
    make_host: MakeHost,
) -> None:
    host = await make_host()
    lan = browse_interfaces()
    if not lan:
        pytest.skip("this machine has no LAN address")
    # The host's port answering at this machine's LAN address too (as a host listening on
    # every address does), without listening on the LAN here.
    with trio.socket.socket() as also:
        await also.bind((lan[0], host.port))
        also.listen(1)
        choice = TableChoice(create=create(RuleSet.of(2, 11)))
        async with open_network_session("127.0.0.1", host.port, choice, name="Eva") as session:
            said = await who_once_invited(session)
    assert (
        f"Friends join it with `scopa-net join {lan[0]}:{host.port} --table {session.table_id}`;"
    ) in said


async def test_a_seat_left_mid_match_is_offered_without_the_match_beginning(
    make_host: MakeHost,
) -> None:
    host = await make_host()
    choice = TableChoice(create=create(RuleSet.of(2, 11)))
    async with open_network_session("127.0.0.1", host.port, choice, name="Ada") as ada:
        with trio.fail_after(10):
            while not ada.where_to_join:
                await trio.sleep(0.01)
        seat = TableChoice(table_id=ada.table_id)
        async with open_network_session("127.0.0.1", host.port, seat, name="Bruno") as bruno:
            with trio.fail_after(10):
                while ada.view is None:
                    await trio.sleep(0.01)
            assert "Friends join" not in await who_says(ada)
            await bruno.leave()
        said = await who_once_invited(ada)
    assert (
        f"Table {ada.table_id} is yours. A friend can take its open seat with `scopa-net join "
        f"127.0.0.1:{host.port} --table {ada.table_id}` (use the host machine's LAN address, "
        "not 127.0.0.1)."
    ) in said, said
    assert "the match begins" not in said


async def test_who_names_each_partner_or_says_the_seat_is_open(make_host: MakeHost) -> None:
    """`who` said "Seat 3: bot 3, with seat 1; computer player" while seat 1 was open: the
    partner is named, or said to be an open seat."""
    host = await make_host()
    choice = TableChoice(create=create(RuleSet.of(4, 11), bots=2))
    async with open_network_session("127.0.0.1", host.port, choice, name="Ada") as session:
        said = await who_once_invited(session)
    lines = said.splitlines()
    assert "Seat 0: Ada (you), with bot 2" in lines, said
    assert "Seat 1: open seat, with bot 3" in lines, said
    assert "Seat 2: bot 2, with Ada; computer player" in lines, said
    assert "Seat 3: bot 3, with an open seat; computer player" in lines, said


def test_a_number_out_of_a_list_of_one_asks_for_1(capsys: pytest.CaptureFixture[str]) -> None:
    """One host found on the LAN, "2" typed at its number: it said "type a number from 1 to
    1, or press Enter to stop"."""
    from scopa_net.commands.join_say import choose_number

    typed = iter(["2", ""])
    assert choose_number("host number (1, Enter to stop): ", 1, lambda _: next(typed)) is None
    assert capsys.readouterr().out == "type 1, or press Enter to stop\n"
    typed = iter(["3", "2"])
    assert choose_number("host number (1-2, Enter to stop): ", 2, lambda _: next(typed)) == 1
    assert capsys.readouterr().out == "type a number from 1 to 2, or press Enter to stop\n"
