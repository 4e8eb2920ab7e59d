"""LAN discovery over DNS-SD/mDNS (python-zeroconf): hosts advertise, clients browse.

A host is one ``_scopa-net._tcp.local.`` service whose TXT record says what a player needs to
choose a table before connecting: the host's name, the protocol version, open seats, and
whether any table asks for a password. Typing an address always works too; discovery only
saves typing it.

python-zeroconf runs its own threads; the blocking calls here are meant to be run with
``trio.to_thread.run_sync`` by the host and the client.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import ifaddr
from zeroconf import (
    DNSQuestionType,
    InterfaceChoice,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceListener,
    Zeroconf,
)

from scopa_net.names import clean_text
from scopa_net.text_limits import HOST_NAME_LEN

SERVICE_TYPE = "_scopa-net._tcp.local."


@dataclass(frozen=True, slots=True)
class HostAdvert:
    """What a host says about itself on the LAN."""

    name: str
    port: int
    protocol: int
    open_seats: int
    password: bool
    addresses: tuple[str, ...] = ()
    key: bytes | None = None
    """The host's public key (None: an older host that does not announce it)."""
    password_open: int | None = None
    """Open seats at tables with a password (None: an older host that does not say)."""
    newest_protocol: int | None = None
    """The newest protocol version the host speaks, when newer than :attr:`protocol` (the
    oldest, TXT ``proto``, which a client of that version compares with its own); None: it
    speaks one version only (or is an older host, which says no more)."""

    @property
    def protocols(self) -> range:
        """Every protocol version the host speaks."""
        return range(self.protocol, (self.newest_protocol or self.protocol) + 1)

    def properties(self) -> dict[str, str]:
        props = {
            "name": fit_txt("name", self.name),
            "proto": str(self.protocol),
            "open": str(self.open_seats),
            "pw": "1" if self.password else "0",
        }
        if self.key is not None:
            props["key"] = self.key.hex()
        if self.password_open is not None:
            props["pwopen"] = str(self.password_open)
        if self.newest_protocol is not None:
            props["protomax"] = str(self.newest_protocol)
        return props

    @classmethod
    def from_properties(
        cls, props: Mapping[bytes, bytes | None], port: int, addresses: tuple[str, ...]
    ) -> HostAdvert:
        """Read a TXT record; ValueError when it is not one of ours."""

        def text(key: str) -> str:
            value = props.get(key.encode())
            if value is None:
                raise ValueError(f"advert has no {key!r}")
            return value.decode("utf-8", "replace")

        def optional(key: str) -> str | None:
            return text(key) if props.get(key.encode()) is not None else None

        key, password_open = optional("key"), optional("pwopen")
        newest = optional("protomax")
        return cls(
            name=shown_host_name(text("name")),
            port=port,
            protocol=_decimal("proto", text("proto")),
            open_seats=_decimal("open", text("open")),
            password=text("pw") == "1",
            addresses=addresses,
            key=None if key is None else _key_bytes(key),
            password_open=None if password_open is None else _decimal("pwopen", password_open),
            newest_protocol=None if newest is None else _decimal("protomax", newest),
        )


def _decimal(key: str, value: str) -> int:
    """A TXT number: decimal digits 0-9 only (protocol.md 1); ValueError otherwise (the
    record is not one of ours), where ``int`` would also take a sign, spaces or other digits."""
    if not (value.isascii() and value.isdigit()):
        raise ValueError(f"advert {key!r} is not a number in decimal digits: {value!r}")
    return int(value)


def shown_host_name(announced: str) -> str:
    """A TXT ``name`` as a person may read it (protocol.md 1): anyone on the LAN can announce
    anything, so it is cleaned as text is (no control, bidi or line-breaking character can
    reach a terminal) and cut to a host name's length; "(no name)" when nothing is left."""
    return clean_text(announced)[:HOST_NAME_LEN].rstrip() or "(no name)"


TXT_STRING = 255
"""Bytes one TXT string holds: the key, ``=`` and the value (RFC 6763, 6.1)."""


def fit_txt(key: str, value: str) -> str:
    """``value``, or its longest start that fits one TXT string with ``key`` (protocol.md 1):
    a host's name of 64 characters of four bytes each does not."""
    room = TXT_STRING - len(key.encode()) - 1
    data = value.encode()
    return value if len(data) <= room else data[:room].decode("utf-8", "ignore")


def _key_bytes(text: str) -> bytes | None:
    """An announced key, or None when it is not 32 bytes in hex (ignored, not refused)."""
    try:
        key = bytes.fromhex(text)
    except ValueError:
        return None
    return key if len(key) == 32 else None


def _server_name(port: int) -> str:
    """The mDNS host name this advert's addresses are given under: the machine's, with the
    port, so that two hosts on one machine (a ``host`` and a ``play --lan``, or a test's)
    never have their addresses merged under one name by the browsers' caches."""
    machine = socket.gethostname().split(".")[0] or "scopa-net"
    return f"{machine}-{port}.local."


INSTANCE_BYTES = 63
"""The longest DNS-SD service instance name (one DNS label), in UTF-8 bytes."""


def _instance_name(name: str, port: int) -> str:
    """The advert's service instance name: the host's name, then the machine's and the port
    (``Club (vm:7311)``), so that two hosts with one name (the default, the machine's, for two
    hosts on one machine) never announce the same instance, which a browser would take for one
    host and list only one of. Clients list the TXT ``name``, not this."""

    def printable(text: str) -> str:
        return "".join(ch for ch in text if ch.isprintable() and ch != ".")

    machine = printable(socket.gethostname().split(".")[0])[:20] or "scopa-net"
    where = f" ({machine}:{port})"
    safe = printable(name)[:40] or "scopa-net"
    while len((safe + where).encode()) > INSTANCE_BYTES:
        safe = safe[:-1]
    return f"{safe}{where}.{SERVICE_TYPE}"


WILDCARD_V4 = ("0.0.0.0",)
WILDCARD_ANY = ("", "::")
"""Binding to ``::`` listens on IPv6 and (on the usual dual-stack systems) IPv4 too."""


def interface_is_up(name: str) -> bool:
    """Whether a network interface is up (Linux reads its flags; elsewhere assume it is)."""
    try:
        flags = int(Path(f"/sys/class/net/{name}/flags").read_text().strip(), 16)
    except (OSError, ValueError):
        return True
    return bool(flags & 0x1)  # IFF_UP


def _usable(address: str) -> bool:
    """An address another machine on the LAN can reach us at: not loopback, not an IPv6
    link-local address (a client would need our interface's scope to use it), not
    unspecified or multicast."""
    ip = ipaddress.ip_address(address)
    if ip.is_loopback or ip.is_unspecified or ip.is_multicast:
        return False
    return not (ip.version == 6 and ip.is_link_local)


def lan_addresses(
    bind: str, adapters: Iterable[ifaddr.Adapter] | None = None, up: object = interface_is_up
) -> list[str]:
    """The addresses to give the LAN for a host listening on ``bind``: every non-loopback
    address of every up interface it listens on, IPv4 first. Empty when it listens on
    loopback only (it must not be announced at all).

    Never the address the machine's name resolves to: on stock Debian and Ubuntu that is
    127.0.1.1, a loopback address, and announcing it sends other machines to themselves.
    """
    if bind not in WILDCARD_V4 + WILDCARD_ANY:
        try:
            return [bind] if _usable(bind) else []
        except ValueError:  # a name, not an address
            return [bind]
    want_v6 = bind in WILDCARD_ANY
    found: list[str] = []
    for adapter in ifaddr.get_adapters() if adapters is None else adapters:
        if not up(adapter.name):  # type: ignore[operator]
            continue
        for ip in adapter.ips:
            if isinstance(ip.ip, tuple):
                if not want_v6:
                    continue
                address = ip.ip[0]
            else:
                address = ip.ip
            if _usable(address) and address not in found:
                found.append(address)
    return sorted(found, key=lambda a: (":" in a, a))


def join_address(address: str, port: int) -> str:
    """What to type after ``scopa-net join`` to reach ``address``."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


class NothingToAnnounceError(OSError):
    """The host listens on loopback only (or the machine has no LAN address)."""


def _interfaces(addresses: Iterable[str]) -> list[str] | InterfaceChoice:
    """What python-zeroconf should send and listen on: the interfaces holding ``addresses``
    (it takes IPv4 addresses as they are, and finds the interface of each IPv6 one), so
    that mDNS stays off every other interface. A host bound to a name rather than an
    address (rare) is announced on every interface."""
    found = []
    for address in addresses:
        try:
            ipaddress.ip_address(address)
        except ValueError:
            continue
        found.append(address)
    return found or InterfaceChoice.All


def browse_interfaces() -> list[str]:
    """The IPv4 addresses a browse listens and asks on: those of the up interfaces other than
    loopback (empty on a machine with no LAN)."""
    return lan_addresses(WILDCARD_V4[0])


class LanAdvertiser:
    """Advertise one host; :meth:`update` when seats open or fill; :meth:`close` at the end."""

    def __init__(
        self, advert: HostAdvert, bind: str, addresses: Iterable[str] | None = None
    ) -> None:
        """``addresses``: announce these instead of :func:`lan_addresses` (tests on one
        machine announce a loopback address this way; a host never does)."""
        self._addresses = lan_addresses(bind) if addresses is None else list(addresses)
        if not self._addresses:
            raise NothingToAnnounceError(
                f"the host listens on {bind or 'no address'} and this machine has no LAN "
                "address there; nothing to announce"
            )
        v6 = any(":" in a for a in self._addresses)
        self._zeroconf = Zeroconf(
            interfaces=_interfaces(self._addresses),
            ip_version=IPVersion.All if v6 else IPVersion.V4Only,
        )
        self._info = self._service_info(_instance_name(advert.name, advert.port), advert)
        self._zeroconf.register_service(self._info, allow_name_change=True)

    def _service_info(self, instance: str, advert: HostAdvert) -> ServiceInfo:
        return ServiceInfo(
            SERVICE_TYPE,
            instance,
            port=advert.port,
            properties=advert.properties(),
            parsed_addresses=self._addresses,
            server=_server_name(advert.port),
        )

    @property
    def instance(self) -> str:
        """The service instance name announced (``Club (vm:7311)._scopa-net._tcp.local.``)."""
        return self._info.name

    def update(self, advert: HostAdvert) -> None:
        self._info = self._service_info(self._info.name, advert)
        self._zeroconf.update_service(self._info)

    def close(self) -> None:
        try:
            self._zeroconf.unregister_service(self._info)
        finally:
            self._zeroconf.close()


class _Collector(ServiceListener):
    """The service names seen, each with the browsing instance that saw it first (the one to
    ask for its record: its cache holds what came with the name)."""

    def __init__(self) -> None:
        self.seen: dict[str, Zeroconf] = {}
        self._lock = threading.Lock()  # each Zeroconf calls from a thread of its own

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self._lock:
            self.seen.setdefault(name, zc)

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.add_service(zc, type_, name)

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self._lock:
            self.seen.pop(name, None)


QUESTION_FROM = {True: DNSQuestionType.QU, False: DNSQuestionType.QM}
"""The questions each browser asks, by whether it asks from a port of its own (``unicast``).
On port 5353, QM: their answers are multicast, and every socket on the machine gets them. A QU
question (python-zeroconf's first by default) has its answer sent to port 5353 of the asking
address, where the kernel gives it to one of the sockets bound there only (every mDNS program
on the machine shares the port): another host, or any other mDNS program, could take it, and
the search missed a running host. From a port of its own, QU: a responder ignores a query
identical to one it had in the last 0.8 s, unless it holds a QU question, and the two browsers'
queries were otherwise the same bytes (the one from port 5353, answered later, won)."""


STARTING_HOST_WAIT = 1.0
"""How long past a host's probe the search waits for its announcement (python-zeroconf's
three probes go 0.5 s apart, and it announces 0.5 s after the last), and so the most a search
is made longer by hosts starting."""


def _listen(seconds: float, interfaces: list[str]) -> None:
    """Let the browsers listen for ``seconds``, or up to :data:`STARTING_HOST_WAIT` more while
    a host heard probing for its name meanwhile has not announced itself yet."""
    from scopa_net.server.probes_heard import ProbeWatch

    ends = time.monotonic() + seconds
    latest = ends + STARTING_HOST_WAIT
    with ProbeWatch(SERVICE_TYPE, interfaces) as probes:
        while (heard := probes.wait(ends)) is not None:
            ends = min(latest, max(ends, heard + STARTING_HOST_WAIT))


def browse_hosts(seconds: float = 2.0, interfaces: list[str] | None = None) -> list[HostAdvert]:
    """Hosts seen on the LAN within ``seconds`` (blocking; run it in a thread), or up to
    :data:`STARTING_HOST_WAIT` longer when a host starting meanwhile was heard probing for
    its name: it announces itself after its probes. It asks and listens on the interfaces of
    ``interfaces`` (IPv4 addresses; by default :func:`browse_interfaces`), and finds nothing
    where there are none.

    Two browsers ask together: one from a port of its own (a "legacy unicast" query, RFC 6762
    6.7), which every responder answers at once, straight to that port, where no other program
    can take the answer; and one on port 5353 (:data:`QUESTION_FROM`), which hears the answers
    multicast and the announcements of a host that starts while the search runs."""
    chosen = browse_interfaces() if interfaces is None else interfaces
    if not chosen:
        return []
    where = _interfaces(chosen)
    listening = Zeroconf(interfaces=where, ip_version=IPVersion.V4Only)
    try:
        asking = Zeroconf(interfaces=where, ip_version=IPVersion.V4Only, unicast=True)
    except BaseException:
        listening.close()
        raise
    try:
        collector = _Collector()
        browsers = [
            ServiceBrowser(zc, SERVICE_TYPE, collector, question_type=QUESTION_FROM[zc.unicast])
            for zc in (asking, listening)
        ]
        _listen(seconds, chosen)
        for browser in browsers:
            browser.cancel()
        found = []
        for name, zc in sorted(collector.seen.items(), key=lambda seen: seen[0]):
            ask = QUESTION_FROM[zc.unicast]
            info = zc.get_service_info(SERVICE_TYPE, name, timeout=1000, question_type=ask)
            if info is None or info.port is None:
                continue
            try:
                found.append(
                    HostAdvert.from_properties(
                        info.properties, info.port, tuple(info.parsed_addresses())
                    )
                )
            except ValueError:
                continue
        return found
    finally:
        asking.close()
        listening.close()
