"""Announcing a running host on the LAN (mDNS), kept fresh while it runs."""

from __future__ import annotations

import logging

import trio

from scopa_net.server.discovery import (
    WILDCARD_ANY,
    WILDCARD_V4,
    HostAdvert,
    LanAdvertiser,
    lan_addresses,
)
from scopa_net.server.host import Host
from scopa_net.wire import messages as m

log = logging.getLogger("scopa_net.host")

#: Seconds between checks of what the advertisement says (open seats, password).
ADVERT_REFRESH = 5.0


def host_advert(host: Host) -> HostAdvert:
    """What the host says of itself on the LAN now (protocol.md, section 1)."""
    return HostAdvert(
        name=host.config.name,
        port=host.port or host.config.port,
        # The oldest version it speaks in ``proto``: a client of that version, which compares
        # it with its own, lists the host as one to join (protocol.md 1).
        protocol=m.OLDEST_VERSION,
        newest_protocol=m.PROTOCOL_VERSION if m.PROTOCOL_VERSION > m.OLDEST_VERSION else None,
        open_seats=host.open_seats,
        password=any(t.password_digest is not None for t in host.tables.values()),
        key=host.public_key,
        password_open=host.open_seats_behind_password,
    )


async def advertise(host: Host) -> None:
    """Announce the host on the LAN while it runs; keep the open-seat count fresh."""

    def advert() -> HostAdvert:
        return host_advert(host)

    current = advert()
    bind = host.config.bind
    if not lan_addresses(bind):
        if bind in WILDCARD_V4 + WILDCARD_ANY:
            log.warning("this machine has no LAN address: the host is not announced")
        else:
            log.warning("the host listens on %s only: not announced on the LAN", bind or "?")
        return
    try:
        advertiser = await trio.to_thread.run_sync(LanAdvertiser, current, host.config.bind)
    except OSError as exc:
        log.warning("LAN discovery is off: %s", exc)
        return
    try:
        while True:
            await trio.sleep(ADVERT_REFRESH)
            fresh = advert()
            if fresh != current:
                current = fresh
                await trio.to_thread.run_sync(advertiser.update, fresh)
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(advertiser.close)
