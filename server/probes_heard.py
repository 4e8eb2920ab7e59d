"""Hearing a scopa-net host that is starting while a LAN search runs.

A host that starts announces itself only after probing for its name (RFC 6762 8.1: three
queries, each carrying the records it means to claim; python-zeroconf's go 0.5 s apart), about
1.5 s after it starts. A search that ends meanwhile missed it: a host started 1 s into
``join``'s 2 s search was never listed. :class:`ProbeWatch` listens to the mDNS group on
port 5353 for such probes of a ``_scopa-net._tcp`` name, so that the search can wait for the
announcement that follows.

Blocking, as python-zeroconf's calls are (run it in the search's thread)."""

from __future__ import annotations

import contextlib
import select
import socket
import time
from types import TracebackType

from zeroconf import DNSIncoming

MDNS_GROUP = "224.0.0.251"
MDNS_PORT = 5353


class ProbeWatch:
    """Listens on port 5353 of the interfaces holding ``interfaces`` (IPv4 addresses) while
    open; :meth:`wait` says when a host probes for a name of ``service`` (a service type such
    as ``_scopa-net._tcp.local.``). Where the port or the group cannot be had, it hears
    nothing, and the search goes on as it would without it."""

    def __init__(self, service: str, interfaces: list[str]) -> None:
        self._service = service.lower()
        self._socket: socket.socket | None = None
        try:
            self._socket = _group_socket(interfaces)
        except OSError:
            self._socket = None

    def __enter__(self) -> ProbeWatch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._socket is not None:
            self._socket.close()

    def wait(self, until: float) -> float | None:
        """Wait until the ``time.monotonic()`` time ``until``, or until a host is heard
        probing for one of our names: when it was heard, or None if none was."""
        while (left := until - time.monotonic()) > 0:
            if self._socket is None:
                time.sleep(left)
                return None
            if not select.select([self._socket], [], [], left)[0]:
                return None
            with contextlib.suppress(OSError):
                data, source = self._socket.recvfrom(9000)
                if self._is_our_probe(data, source):
                    return time.monotonic()
        return None

    def _is_our_probe(self, data: bytes, source: tuple[str, int]) -> bool:
        message = DNSIncoming(data, source)
        return (
            message.valid
            and message.is_probe()
            and any(self._ours(q.name.lower()) for q in message.questions)
        )

    def _ours(self, name: str) -> bool:
        """A probe's question: python-zeroconf asks for the service type itself, another
        responder for the instance name (``Club (vm:7311)._scopa-net._tcp.local.``)."""
        return name == self._service or name.endswith("." + self._service)


def _group_socket(interfaces: list[str]) -> socket.socket:
    """A UDP socket on port 5353 that shares it (as every mDNS program on a machine does) and
    has joined the mDNS group on each of ``interfaces``; OSError when it cannot."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("", MDNS_PORT))
        joined = 0
        for address in interfaces:
            with contextlib.suppress(OSError):
                group = socket.inet_aton(MDNS_GROUP) + socket.inet_aton(address)
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, group)
                joined += 1
        if not joined:
            raise OSError("joined the mDNS group on no interface")
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock
