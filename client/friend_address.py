"""The address friends type to reach a host: not the loopback one this client may have used.

A player who opens a table with ``scopa-net join 127.0.0.1:PORT --create`` is told how friends
join it; a loopback address would send each friend to their own machine. The host then runs on
this very machine, so its LAN address is one of this machine's: the first of them at which the
host's port answers is given (a host listening on loopback only answers at none of them).
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass

import trio

#: How long to wait for the host's port to answer at one of this machine's LAN addresses.
PROBE_SECONDS = 0.5

NO_LAN_ADDRESS = "use the host machine's LAN address"


@dataclass(frozen=True, slots=True)
class FriendAddress:
    """What to put after ``scopa-net join`` for a friend, and a note when it will not do."""

    address: str
    note: str | None = None


def is_loopback(address: str) -> bool:
    """Whether ``address`` (an IP address, or what a socket says of its peer) is loopback."""
    try:
        return ipaddress.ip_address(address.split("%", maxsplit=1)[0]).is_loopback
    except ValueError:
        return address.lower() == "localhost" or address.lower().endswith(".localhost")


def _socket_address(stream: trio.abc.Stream, which: str) -> str | None:
    """The peer's (``getpeername``) or this end's (``getsockname``) address of a TCP stream."""
    sock = getattr(stream, "socket", None)
    try:
        return None if sock is None else str(getattr(sock, which)()[0])
    except OSError:
        return None


async def _answers(address: str, port: int) -> bool:
    with trio.move_on_after(PROBE_SECONDS):
        try:
            stream = await trio.open_tcp_stream(address, port)
        except OSError:
            return False
        await stream.aclose()
        return True
    return False


async def friend_address(
    host: str,
    port: int,
    stream: trio.abc.Stream,
    lan: Callable[[], list[str]] | None = None,
) -> FriendAddress:
    """Where friends reach the host this client reached at ``host``: that address when it is
    not loopback; else the host's LAN address if its port answers there (the connection's
    own local address first, when not loopback, then this machine's LAN addresses); else
    the address given, with a note to use the host machine's LAN address instead.
    ``lan``: this machine's LAN addresses (by default those of its up interfaces)."""
    # Here, not at the top: the LAN's libraries (zeroconf) load only for a table opened.
    from scopa_net.server.discovery import browse_interfaces, join_address

    given = join_address(host, port)
    peer = _socket_address(stream, "getpeername")
    if not is_loopback(host) and (peer is None or not is_loopback(peer)):
        return FriendAddress(given)
    local = _socket_address(stream, "getsockname")
    candidates = [local] if local is not None and not is_loopback(local) else []
    with contextlib.suppress(OSError):  # no interfaces to read: no LAN address to give
        candidates += await trio.to_thread.run_sync(lan or browse_interfaces)
    for candidate in dict.fromkeys(candidates):
        if await _answers(candidate, port):
            return FriendAddress(join_address(candidate, port))
    return FriendAddress(given, f"{NO_LAN_ADDRESS}, not {host}")
