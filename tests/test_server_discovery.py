"""LAN discovery: an advertised host is found by a browser on the same machine."""

from __future__ import annotations

import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers import free_port, require_multicast, unique_name

from scopa_net.server.discovery import (
    SERVICE_TYPE,
    STARTING_HOST_WAIT,
    HostAdvert,
    LanAdvertiser,
    browse_hosts,
)

# Real mDNS on this machine: one worker runs every such test (see addopts in pyproject.toml).
pytestmark = pytest.mark.xdist_group("mdns")


def test_txt_record_round_trips() -> None:
    advert = HostAdvert("kitchen table", 7311, 1, 2, True)
    props = {k.encode(): v.encode() for k, v in advert.properties().items()}
    assert HostAdvert.from_properties(props, 7311, ()) == advert


def test_a_record_that_is_not_ours_is_refused() -> None:
    with pytest.raises(ValueError, match="no 'proto'"):
        HostAdvert.from_properties({b"name": b"x"}, 1, ())


def test_advertised_host_is_found_and_updates_are_seen() -> None:
    require_multicast()
    name, port = unique_name("discovery test"), free_port()
    advertiser = LanAdvertiser(
        HostAdvert(name, port, 1, 3, False), "127.0.0.1", addresses=["127.0.0.1"]
    )
    try:
        advertiser.update(HostAdvert(name, port, 1, 1, True))
        seen = browse_hosts(3.0, ["127.0.0.1"])  # asks on loopback only
        found = [h for h in seen if h.name == name]
        assert found, f"{name!r} was advertised but not found; seen: {seen}"
        assert found == [HostAdvert(name, port, 1, 1, True, found[0].addresses)]
        assert "127.0.0.1" in found[0].addresses
    finally:
        advertiser.close()


def _socket_taking_unicast_answers(address: str) -> socket.socket:
    """Another mDNS program's socket on ``address``:5353 (port 5353 is shared: SO_REUSEPORT).
    Connected to that same address and port, it is the one the kernel gives every datagram a
    responder there sends to port 5353 of ``address``: a unicast answer meant for a browser
    asking from that port goes to it, as it goes to whichever socket the kernel picks among
    those of the programs on the machine."""
    if not hasattr(socket, "SO_REUSEPORT"):
        pytest.skip("no SO_REUSEPORT here: port 5353 cannot be shared as on Linux")
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind((address, 5353))
        other.connect((address, 5353))
    except OSError as exc:
        other.close()
        pytest.skip(f"cannot share port 5353 on {address} here: {exc}")
    return other


def test_a_running_host_is_found_when_another_program_takes_the_unicast_answers() -> None:
    """A tester's `scopa-net join` missed a running host in 2 of 10 searches of 2 s, and a
    search of 1 s missed it every time another mDNS socket had just opened on the machine: the
    first question asked for a unicast answer (QU), sent to port 5353 of the asking address,
    where the kernel gives it to one of the sockets there only, not always the browser's (the
    next question, multicast, went at 1.1 s). The search now also asks from a port of its own,
    answered at once there; and asks QM on port 5353."""
    require_multicast()
    name, port = unique_name("shared port"), free_port()
    advertiser = LanAdvertiser(
        HostAdvert(name, port, 4, 1, False), "127.0.0.1", addresses=["127.0.0.1"]
    )
    try:
        with _socket_taking_unicast_answers("127.0.0.1"):
            seen = browse_hosts(1.0, ["127.0.0.1"])
        assert [h.port for h in seen if h.name == name] == [port], seen
    finally:
        advertiser.close()


def _search_as_a_host_starts(
    starts: float, search: float, what: str
) -> tuple[list[HostAdvert], float, LanAdvertiser, str, int]:
    """A search of ``search`` seconds on loopback while a host named after ``what`` starts
    ``starts`` seconds in: what it listed, how long it took, the host's advertiser (for the
    caller to close), its name and port."""
    name, port = unique_name(what), free_port()

    def start_late() -> LanAdvertiser:
        time.sleep(starts)
        return LanAdvertiser(
            HostAdvert(name, port, 4, 1, False), "127.0.0.1", addresses=["127.0.0.1"]
        )

    with ThreadPoolExecutor(1) as pool:
        late = pool.submit(start_late)
        started = time.monotonic()
        seen = browse_hosts(search, ["127.0.0.1"])
        took = time.monotonic() - started
    return seen, took, late.result(), name, port


def test_a_host_that_starts_while_the_search_runs_is_found() -> None:
    """A host started 1 s into a search of 3 s is listed: the search listens on port 5353 for
    announcements, not only for answers to its own questions (the next of which goes out 5 s
    in, after the search)."""
    require_multicast()
    seen, _, advertiser, name, port = _search_as_a_host_starts(1.0, 3.0, "late host")
    try:
        assert [h.port for h in seen if h.name == name] == [port], seen
    finally:
        advertiser.close()


def test_a_host_that_starts_late_in_joins_search_is_waited_for() -> None:
    """A host started 1.2 s into ``join``'s search of 2 s announces itself after its probes,
    about 1.5 s after it starts: it was never listed (0 of 4 started 1.0 or 1.5 s in, measured).
    The search hears it probing and waits up to 1 s more for its announcement."""
    require_multicast()
    seen, took, advertiser, name, port = _search_as_a_host_starts(1.2, 2.0, "starting host")
    try:
        assert [h.port for h in seen if h.name == name] == [port], seen
        assert took < 2.0 + STARTING_HOST_WAIT + 0.5, took  # 1 s more at most
    finally:
        advertiser.close()


def test_mdns_stays_on_the_interfaces_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    from scopa_net.server import discovery

    made: list[object] = []

    class Recorder:
        def __init__(self, *, interfaces: object, ip_version: object) -> None:
            made.append(interfaces)
            raise OSError("stop here")

    monkeypatch.setattr(discovery, "Zeroconf", Recorder)
    monkeypatch.setattr(discovery, "browse_interfaces", lambda: ["192.0.2.7"])
    for announce in (
        lambda: LanAdvertiser(HostAdvert("t", 1, 1, 1, False), "192.0.2.5"),
        lambda: LanAdvertiser(
            HostAdvert("t", 1, 1, 1, False), "::", addresses=["192.0.2.5", "2001:db8::5"]
        ),
        lambda: browse_hosts(0),
        lambda: browse_hosts(0, ["127.0.0.1"]),
    ):
        with pytest.raises(OSError, match="stop here"):
            announce()
    assert made == [["192.0.2.5"], ["192.0.2.5", "2001:db8::5"], ["192.0.2.7"], ["127.0.0.1"]]
    monkeypatch.setattr(discovery, "browse_interfaces", lambda: [])
    assert browse_hosts(0) == []  # no LAN: nothing asked, nothing found


def test_two_hosts_on_one_machine_give_their_addresses_under_names_of_their_own() -> None:
    """Every advert named the machine's mDNS host name as the place of its addresses, so two
    hosts on one machine (a `host` and a `play --lan`; or two tests in one process) shared it,
    and a browser's cache merged their addresses: `join` picked one host at the other's
    address (test_host_cli.py's LAN test, run after this file in one process, failed so)."""
    from scopa_net.server.discovery import _server_name

    assert _server_name(7311) != _server_name(7312)
    assert _server_name(7311).endswith("-7311.local.")
    assert "." not in _server_name(7311).removesuffix(".local.")


def test_two_hosts_with_one_name_on_one_machine_are_both_found() -> None:
    """Two hosts on one machine under its name (the default), on ports 42960 and 42970: each
    `scopa-net join` listed one of them at random; with two `--host-name`s, both. Each
    announcement is now an instance of its own (the port in its name); the list still shows
    the host's name."""
    require_multicast()
    name, ports = unique_name("same name"), (free_port(), free_port())

    def announce(port: int) -> LanAdvertiser:
        advert = HostAdvert(name, port, 1, 1, False)
        return LanAdvertiser(advert, "127.0.0.1", addresses=["127.0.0.1"])

    # Started at once, as two hosts brought up together: neither is there yet to answer the
    # other's probe, so nothing renames either (python-zeroconf's allow_name_change).
    with ThreadPoolExecutor(2) as pool:
        started = [pool.submit(announce, port) for port in ports]
    advertisers = [future.result() for future in started if future.exception() is None]
    try:
        assert len(advertisers) == 2, [future.exception() for future in started]
        seen = browse_hosts(3.0, ["127.0.0.1"])
        found = sorted((h.name, h.port) for h in seen if h.name == name)
        assert found == [(name, port) for port in sorted(ports)], seen
        # Each is its own instance by its name, not by python-zeroconf's renaming on a clash
        # (`NAME (vm)-2`), which needs the other host to answer the probe in time.
        machine = socket.gethostname().split(".")[0][:20]
        assert sorted(a.instance for a in advertisers) == [
            f"{name} ({machine}:{port}).{SERVICE_TYPE}" for port in sorted(ports)
        ]
    finally:
        for advertiser in advertisers:
            advertiser.close()


def test_an_instance_name_holds_the_host_name_the_machine_and_the_port() -> None:
    from scopa_net.server.discovery import INSTANCE_BYTES, _instance_name

    machine = socket.gethostname().split(".")[0][:20]
    assert _instance_name("Club", 42960) == f"Club ({machine}:42960).{SERVICE_TYPE}"
    assert _instance_name("Club", 42960) != _instance_name("Club", 42970)
    long = _instance_name("è" * 40, 42960).removesuffix(f".{SERVICE_TYPE}")
    assert len(long.encode()) <= INSTANCE_BYTES
    assert long.endswith(f" ({machine}:42960)")


async def test_the_txt_record_holds_what_section_1_says_in_its_words() -> None:
    """protocol.md 1: exactly the keys it lists; numbers in decimal digits, `pw` `1` or `0`,
    `key` the host's public key in lowercase hex; `open` and `pwopen` count open seats."""
    import trio
    from hosting import start_host

    from scopa_net.rules import RuleSet
    from scopa_net.server.announce import host_advert

    async with trio.open_nursery() as nursery:
        host = await start_host(nursery)
        props = host_advert(host).properties()
        assert set(props) == {"name", "proto", "protomax", "open", "pw", "pwopen", "key"}
        assert (props["proto"], props["protomax"]) == ("4", "5")
        assert (props["open"], props["pw"], props["pwopen"]) == ("0", "0", "0")
        assert props["key"] == host.public_key.hex()
        assert props["key"] == props["key"].lower()
        assert len(props["key"]) == 64
        await host.create_table("open", RuleSet.of(2), None, 0, 1)
        await host.create_table("locked", RuleSet.of(3), "pw", 1, 1)
        props = host_advert(host).properties()
        assert (props["open"], props["pw"], props["pwopen"]) == ("4", "1", "2")
        nursery.cancel_scope.cancel()
    # ... and a reader takes the key in either case, and one not 32 bytes in hex as no key.
    record = {k.encode(): v.encode() for k, v in props.items()}
    upper = HostAdvert.from_properties({**record, b"key": record[b"key"].upper()}, 1, ())
    assert upper.key == host.public_key
    for wrong in (record[b"key"][:-2], b"zz" * 32):
        assert HostAdvert.from_properties({**record, b"key": wrong}, 1, ()).key is None


def test_a_host_name_longer_than_a_txt_string_is_cut_to_fit() -> None:
    """protocol.md 1: a TXT string holds 255 bytes, key and `=` included. A host's name of 64
    characters of four bytes each (bold letters, one column each: `--name` takes it) did not
    fit, and zeroconf refused the record (ValueError, which stopped the host). The `name`
    announced is the longest start of the name that fits; `welcome` carries it whole."""
    from zeroconf import ServiceInfo

    name = "".join(chr(0x1D400 + i % 26) for i in range(64))
    advert = HostAdvert(name, 7311, 4, 2, False, key=bytes(32), password_open=0)
    said = advert.properties()["name"]
    assert len(("name=" + said).encode()) <= 255
    assert name.startswith(said)
    assert len(said) == 62
    ServiceInfo(SERVICE_TYPE, "x._scopa-net._tcp.local.", port=7311,
                properties=advert.properties(), parsed_addresses=["192.0.2.1"],
                server="x-7311.local.")  # fmt: skip


def test_a_name_announced_on_the_lan_is_read_cleaned() -> None:
    """protocol.md 1: anyone on the LAN may announce anything; no TXT `name` may drive the
    terminal of a person browsing (`scopa-net join` prints it): it is read cleaned as 3.3
    cleans text (controls, bidi overrides and line breaks out), at most 64 characters."""
    props = {b"name": "\x1b[2J\u202eEvil\nHost\x07".encode() + b"\xff" + b"x" * 200,
             b"proto": b"4", b"open": b"1", b"pw": b"0"}  # fmt: skip
    name = HostAdvert.from_properties(props, 7311, ()).name
    assert name.startswith("[2JEvil Host")
    assert name.isprintable()
    assert len(name) == 64
    nothing = {**props, b"name": "\u200b\x1b".encode()}
    assert HostAdvert.from_properties(nothing, 7311, ()).name == "(no name)"


@pytest.mark.parametrize("bad", [b" 5", b"+5", b"1_0", "\u0663".encode(), b"", b"-1"])
def test_a_record_whose_numbers_are_not_decimal_digits_is_not_ours(bad: bytes) -> None:
    """protocol.md 1: `proto`, `protomax`, `open` and `pwopen` are numbers in decimal digits;
    a record holding anything else there (Python's int() takes a space, a sign, an underscore
    or an Arabic-Indic digit) is not a scopa-net host's and is left out of the list."""
    record = {b"name": b"x", b"proto": b"4", b"open": b"1", b"pw": b"0"}
    for key in (b"proto", b"protomax", b"open", b"pwopen"):
        with pytest.raises(ValueError, match="not a number in decimal digits"):
            HostAdvert.from_properties({**record, key: bad}, 7311, ())
