"""``scopa-net join`` with no address: the hosts announced on the LAN, listed as a person reads
them (where, open seats, passwords, key and whether it is known), and the one picked."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from scopa_net.commands.join_say import choose_number, say
from scopa_net.commands.options import EXIT_UNREACHABLE, CommandError
from scopa_net.commands.paths import data_dir

if TYPE_CHECKING:
    from scopa_net.client.network_session import KnownHosts
    from scopa_net.server.discovery import HostAdvert


BROWSE_SECONDS = 2.0


def choose_lan_host(
    ask: Callable[[str], str], seconds: float = BROWSE_SECONDS, interfaces: list[str] | None = None
) -> tuple[str, int] | None:
    """Browse the LAN for hosts, list them, and return the (address, port) picked.
    ``interfaces``: search through these addresses' interfaces only (by default every up
    interface but loopback)."""
    from scopa_net.client.network_session import KnownHosts
    from scopa_net.client.sigterm import stop_signals_raise
    from scopa_net.server.discovery import browse_hosts, browse_interfaces

    where = browse_interfaces() if interfaces is None else interfaces
    if not where:
        raise CommandError(
            "this machine has no LAN address (no network interface is up but loopback), so "
            "there is no LAN to search; give an address: scopa-net join HOST[:PORT]",
            EXIT_UNREACHABLE,
        )
    say(f"looking for hosts on the LAN ({', '.join(where)}) for {seconds:.0f} s...")
    with stop_signals_raise():  # SIGTERM meanwhile: "stopped by SIGTERM; nothing joined", 143
        found = browse_hosts(seconds, where)
    if not found:
        raise CommandError(
            "no host found on the LAN; give an address: scopa-net join HOST[:PORT]",
            EXIT_UNREACHABLE,
        )
    pins = KnownHosts(data_dir(os.environ) / "known_hosts")
    for i, h in enumerate(found, 1):
        say(describe_lan_host(h, pins), label=f"{i}. ")
    numbers = "1" if len(found) == 1 else f"1-{len(found)}"
    pick = choose_number(f"host number ({numbers}, Enter to stop): ", len(found), ask)
    if pick is None:
        return None
    return lan_host_address(found[pick])


def lan_host_address(chosen: HostAdvert) -> tuple[str, int]:
    """The (address, port) of a host picked from the LAN list. A host whose record says it
    speaks nothing newer than an older version this client speaks is greeted in that one at
    once (:mod:`~scopa_net.client.hello_versions`): an older scopa-net host logs a refused
    ``hello`` as a player who cannot play there."""
    from scopa_net.client.hello_versions import HELLO_VERSIONS

    where = (chosen.addresses[0] if chosen.addresses else "127.0.0.1"), chosen.port
    HELLO_VERSIONS.learn(*where, chosen.protocols[-1], chosen.key)
    return where


def describe_lan_host(h: HostAdvert, known: KnownHosts) -> str:
    """One announced host, as the LAN list shows it: where it is, its open seats (and
    whether one is at a table with a password), and its key's fingerprint (short: its first
    two groups), "known to you" when this client has pinned that key for it. One pair of
    brackets, the seats': "key 13b4-509f (known) (1 open seat)" read as two notes on the key."""
    from scopa_net.fair.commitments import fingerprint
    from scopa_net.version_words import Reader, another_version
    from scopa_net.wire.messages import OLDEST_VERSION, PROTOCOL_VERSION

    where = h.addresses[0] if h.addresses else "?"
    seats = "1 open seat" if h.open_seats == 1 else f"{h.open_seats} open seats"
    if h.password_open is None:  # an older host: it says only that some table has one
        lock = ", some tables have a password" if h.password else ""
    elif h.password_open == 0 or h.open_seats == 0:
        lock = ""
    elif h.password_open >= h.open_seats:
        lock = ", password"
    else:
        lock = f", {h.password_open} of them at a table with a password"
    theirs = h.protocols
    if theirs[-1] < OLDEST_VERSION:  # no version both speak: say whose is older
        lock += "; " + another_version(theirs[-1], PROTOCOL_VERSION, Reader.LAN_LIST)
    elif theirs[0] > PROTOCOL_VERSION:
        lock += "; " + another_version(theirs[0], PROTOCOL_VERSION, Reader.LAN_LIST)
    key = ""
    if h.key is not None:
        key = f", key {'-'.join(fingerprint(h.key).split('-')[:2])}"
        try:  # pinned as `check_host_key` pins it: the address picked, then the port
            pinned = known.pinned(f"{where}:{h.port}") if h.addresses else None
        except (OSError, ValueError):  # unreadable pins: the first visit will say so
            pinned = None
        if pinned == h.key:
            key += ", known to you"
        elif known.met_elsewhere(f"{where}:{h.port}", h.key) is not None:
            key += ", known to you (met at another address)"
        elif pinned is not None:
            key += ", not the key you pinned for it"
    return f"{h.name} at {where}:{h.port}{key} ({seats}{lock})"
