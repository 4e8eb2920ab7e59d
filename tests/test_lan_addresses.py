"""Which addresses a host gives the LAN, and the join commands it prints (no traffic sent)."""

from __future__ import annotations

import socket

import ifaddr
import pytest
import trio

from scopa_net.client.embedded import lan_join_lines, open_embedded_game
from scopa_net.commands.host import where_to_join
from scopa_net.rules import RuleSet
from scopa_net.server.discovery import join_address, lan_addresses


def adapter(name: str, *ips: str | tuple[str, int, int]) -> ifaddr.Adapter:
    return ifaddr.Adapter(name, name, [ifaddr.IP(ip, 24, name) for ip in ips])


MACHINE = [
    adapter("lo", "127.0.0.1", ("::1", 0, 0)),
    adapter("eth0", "192.168.1.20", ("fd00::20", 0, 0), ("fe80::1", 0, 2)),
    adapter("wlan0", "10.0.0.7"),
    adapter("docker0", "172.17.0.1"),
]


def all_up(name: str) -> bool:
    return name != "docker0"


def test_every_lan_address_of_every_up_interface_and_never_loopback() -> None:
    assert lan_addresses("0.0.0.0", MACHINE, all_up) == ["10.0.0.7", "192.168.1.20"]
    # Listening on :: takes IPv6 too, but never a link-local one (it needs a scope).
    assert lan_addresses("::", MACHINE, all_up) == ["10.0.0.7", "192.168.1.20", "fd00::20"]


def test_a_host_bound_to_loopback_has_nothing_to_announce() -> None:
    assert lan_addresses("127.0.0.1", MACHINE, all_up) == []
    assert lan_addresses("::1", MACHINE, all_up) == []
    assert lan_addresses("192.168.1.20", MACHINE, all_up) == ["192.168.1.20"]


def test_this_machine_whose_name_resolves_to_loopback() -> None:
    """The old code announced what the host name resolves to: here that is loopback."""
    try:
        resolved = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)}
    except OSError:
        resolved = set()
    found = lan_addresses("0.0.0.0")
    assert not any(a.startswith("127.") or a == "::1" for a in found)
    if resolved and all(a.startswith("127.") or a == "::1" for a in resolved):
        # The name resolves only to loopback, yet the real interfaces are still found.
        real = [
            ip.ip
            for a in ifaddr.get_adapters()
            for ip in a.ips
            if isinstance(ip.ip, str) and not ip.ip.startswith("127.")
        ]
        assert set(found) <= set(real)


def test_the_host_prints_the_exact_join_command_for_each_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scopa_net.server import discovery

    monkeypatch.setattr(discovery, "lan_addresses", lambda bind: ["192.168.1.20", "fd00::20"])
    lines = where_to_join("::", 7311, announced=True)
    assert lines[0] == "scopa-net host listening on port 7311; players join with:"
    assert "  scopa-net join 192.168.1.20:7311" in lines
    assert "  scopa-net join [fd00::20]:7311" in lines
    assert not any("HOST" in line for line in lines)


def test_a_loopback_host_says_it_is_not_announced() -> None:
    lines = where_to_join("127.0.0.1", 4000, announced=True)
    assert "not announced on the LAN" in lines[0]
    assert lines[1] == "players on this machine join with: scopa-net join 127.0.0.1:4000"


def test_join_address_brackets_ipv6() -> None:
    assert join_address("fd00::20", 7311) == "[fd00::20]:7311"
    assert join_address("10.0.0.7", 7311) == "10.0.0.7:7311"


def test_play_lan_lines_say_when_the_port_moved(monkeypatch: pytest.MonkeyPatch) -> None:
    from scopa_net.client import embedded

    monkeypatch.setattr(embedded, "lan_addresses", lambda bind: ["192.168.1.20"])
    assert lan_join_lines("0.0.0.0", 7311, 7311) == (
        "Friends join this table on port 7311 with:",
        "  scopa-net join 192.168.1.20:7311",
    )
    assert "port 7311 was taken" in lan_join_lines("0.0.0.0", 40000, 7311)[0]
    # A table with a password: their join asks for it, typed unseen. It said "--password
    # PASSWORD", teaching friends a command line their machine's other users read (ps), and
    # "the one you gave with --password" where $SCOPA_NET_PASSWORD gave it.
    assert lan_join_lines("0.0.0.0", 7311, 7311, password=True) == (
        "Friends join this table on port 7311 with:",
        "  scopa-net join 192.168.1.20:7311",
        "It asks them for the table's password, the one you gave: tell them yourself",
    )


async def test_an_embedded_host_falls_back_to_a_free_port_when_its_port_is_taken() -> None:
    # Loopback only (lan=False): the wanted port is held by another socket.
    taken = trio.socket.socket()
    await taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        async with open_embedded_game(RuleSet.of(2), name="Ada", port=port, delay=0) as session:
            assert session.embedded_port != port  # type: ignore[attr-defined]
            assert session.names[0] == "Ada"
    finally:
        taken.close()


async def test_an_embedded_host_keeps_to_a_port_the_person_named() -> None:
    """`play --lan --port N` with N taken quietly took another port; a port the person named
    (``any_port_if_taken=False``) is not swapped for another: the game does not open."""
    taken = trio.socket.socket()
    await taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        with pytest.RaisesGroup(OSError, allow_unwrapped=True, flatten_subgroups=True):
            async with open_embedded_game(
                RuleSet.of(2), name="Ada", port=port, delay=0, any_port_if_taken=False
            ):
                raise AssertionError("the game opened on another port")
    finally:
        taken.close()


@pytest.mark.parametrize(("bind", "here"), [("0.0.0.0", "127.0.0.1"), ("::", "[::1]")])
def test_a_host_on_every_address_of_a_machine_with_no_lan_says_so(
    monkeypatch: pytest.MonkeyPatch, bind: str, here: str
) -> None:
    """`scopa-net host` on a machine with no LAN address (a laptop off its network, a
    container) said "listening on 0.0.0.0:7311, this machine only: not announced on the LAN
    (use --host 0.0.0.0 to let others join)", the flag it was already given, and "join with:
    scopa-net join 0.0.0.0:7311", an address to listen on, not one to join."""
    from scopa_net.server import discovery

    monkeypatch.setattr(discovery, "lan_addresses", lambda bind: [])
    assert where_to_join(bind, 7311, announced=False) == [
        "scopa-net host listening on port 7311; this machine has no LAN address, so only "
        "players on this machine can join, with:",
        f"  scopa-net join {here}:7311",
    ]
