"""Finding a host that moved: a client that cannot get back to its host at the address it
knows looks for the host's key among the hosts announced on the LAN (protocol.md 1, TXT
``key``), never for its name, which any host may take. What it finds is only where to try:
the host's ``welcome`` there must carry the same key before the seat's token is sent."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import trio

if TYPE_CHECKING:
    from scopa_net.server.discovery import HostAdvert

log = logging.getLogger("scopa_net.client")

LanBrowse = Callable[[float], "list[HostAdvert]"]
"""Browses the LAN for that many seconds and returns the hosts announced (blocking: it runs
in a thread)."""

LOOK_SECONDS = 2.0
"""How long one look on the LAN listens for announcements."""
LOOK_SLACK = 3.0
"""How much longer than :data:`LOOK_SECONDS` a look may take (asking each host found for its
record) before it is given up."""
LOOK_AFTER = 3.0
"""Seconds without the host before the first look (a host restarted where it was is back
within them, and nothing is asked of the LAN)."""
LOOK_EVERY = 15.0
"""Seconds between two looks while the host stays away."""

Address = tuple[str, int]


def announced_elsewhere(
    adverts: Iterable[HostAdvert], key: bytes, here: Address, refused: Iterable[Address] = ()
) -> Address | None:
    """Where the host whose key is ``key`` is announced, when not at ``here``: the first
    address of the first announcement with exactly that key (its name plays no part), or
    None (not announced, announced at ``here`` itself, or only at an address in ``refused``,
    where a host answered with another key)."""
    skip = set(refused)
    for advert in adverts:
        if advert.key != key or not advert.addresses:
            continue
        places = [(address, advert.port) for address in advert.addresses]
        if here in places:
            return None  # where we know it: it did not move
        places = [place for place in places if place not in skip]
        if places:
            return places[0]
    return None


def lan_browse(seconds: float) -> list[HostAdvert]:
    """The hosts announced on this machine's LAN interfaces; OSError, without asking
    anything, where there is no LAN (no interface up but loopback)."""
    from scopa_net.server import discovery

    if not discovery.browse_interfaces():
        raise OSError("this machine has no LAN address")
    return discovery.browse_hosts(seconds)


class SharedLook:
    """One look on the LAN for many searches (the players of a ``bots`` run, who lose their
    host together): a search that asks while a look is under way, or within ``fresh`` seconds
    after it, gets that look's hosts (or its error) rather than a browse of its own."""

    def __init__(self, browse: LanBrowse = lan_browse, *, fresh: float = LOOK_SECONDS) -> None:
        self.browse = browse
        self.fresh = fresh
        self._lock = threading.Lock()  # the searches' threads (HostSearch.look)
        self._at: float | None = None
        self._found: list[HostAdvert] = []
        self._error: Exception | None = None

    def __call__(self, seconds: float) -> list[HostAdvert]:
        """The hosts announced (a :data:`LanBrowse`)."""
        with self._lock:
            now = time.monotonic()
            if self._at is None or now - self._at >= self.fresh:
                try:
                    self._found, self._error = self.browse(seconds), None
                except Exception as exc:  # said by each search, as its own browse's
                    self._found, self._error = [], exc
                self._at = time.monotonic()
            if self._error is not None:
                raise self._error
            return list(self._found)


class HostSearch:
    """Looks on the LAN for a host by its key, now and then (see the module docstring)."""

    def __init__(
        self,
        browse: LanBrowse = lan_browse,
        *,
        after: float = LOOK_AFTER,
        every: float = LOOK_EVERY,
    ) -> None:
        """``browse``: how the LAN is asked; ``after``, ``every``: when the first look comes
        after the host is lost, and how often the next ones (:data:`LOOK_AFTER`,
        :data:`LOOK_EVERY`)."""
        self.browse = browse
        self.after = after
        self.every = every
        self.refused: set[Address] = set()
        """Addresses announced with the key whose host answered with another: never again."""
        self.looked = False
        """Whether the LAN has been asked (the words of a client that gives up say so)."""
        self._off = False
        self._next: float | None = None

    def lost(self) -> None:
        """The host was just lost: the first look comes ``after`` seconds from now."""
        self._next = trio.current_time() + self.after

    async def look(self, key: bytes, here: Address, *, now: bool = False) -> Address | None:
        """Where the host is announced if not at ``here``, when a look is due (or ``now``);
        None otherwise, and always where mDNS does not work (said once in the log)."""
        if self._off:
            return None
        clock = trio.current_time()
        if not now and (self._next is None or clock < self._next):
            return None
        self._next = clock + self.every
        adverts: list[HostAdvert] = []
        with trio.move_on_after(LOOK_SECONDS + LOOK_SLACK):
            try:
                adverts = await trio.to_thread.run_sync(
                    self.browse, LOOK_SECONDS, abandon_on_cancel=True
                )
            except Exception as exc:  # no LAN, no multicast (OSError, zeroconf's own)
                log.info("no LAN search for the host: %r", exc)
                self._off = True
                return None
            self.looked = True
        return announced_elsewhere(adverts, key, here, self.refused)
