"""The host key ``scopa-net join`` meets, against the one pinned for the address: pinned on a
first visit, a host met at another address, a key that changed (refused, or pinned anew with
``--accept-new-key``)."""

from __future__ import annotations

import os

from scopa_net.commands.join_say import say
from scopa_net.commands.options import EXIT_KEY_CHANGED, CommandError
from scopa_net.commands.paths import data_dir


def check_host_key(host: str, port: int, key: bytes, *, accept: bool) -> bytes | None:
    """Stop before choosing a table if the host's key is not the one pinned for it (unless
    ``accept``: then pin the new one). A host met for the first time is pinned at once (on
    first contact, protocol.md 5.3), and its fingerprint shown for the person to compare.
    Returns the new key accepted when it could not be pinned (said in one line): the game
    takes it without warning again that it changed; else None."""
    from scopa_net.client.files import why_not_written
    from scopa_net.client.network_session import KnownHosts
    from scopa_net.fair.commitments import fingerprint

    known = KnownHosts(data_dir(os.environ) / "known_hosts")
    address = f"{host}:{port}"
    pinned = known.pinned(address)
    if pinned is None:
        elsewhere = known.met_elsewhere(address, key)
        try:
            known.pin(address, key)
            then = " From now on a key you have not met is refused at this address."
        except OSError:  # the game says in one line why, once it has begun
            then = ""
        if elsewhere is not None:
            say(
                f"The host at {address} signs with key {fingerprint(key)}, the key of the "
                f"host you met at {elsewhere}: the same host, at another address.{then}"
            )
            return None
        say(
            f"First visit to the host at {address}: its key is {fingerprint(key)}. The host "
            f"prints its key when it starts: compare the two.{then}"
        )
        return None
    if pinned == key:
        return None
    elsewhere = known.met_elsewhere(address, key)
    if elsewhere is not None and not accept:
        say(
            f"The host at {address} now signs with key {fingerprint(key)}, the key of the host "
            f"you met at {elsewhere}, not {fingerprint(pinned)}, the one you met here: joining "
            f"that host. Both keys stay trusted, each for the host that holds it."
        )
        return None
    if accept:
        try:
            known.pin(address, key)
        except OSError as exc:
            say(
                f"Could not pin the new key {fingerprint(key)} for {address}: "
                f"{why_not_written(exc, known.path)}. The game goes on with it, but the next "
                "`scopa-net join` to this host meets the old key and stops again."
            )
            return key
        say(f"pinned the new key {fingerprint(key)} for {address} in {known.path}")
        return None
    raise CommandError(known.changed_warning(address, key, pinned), EXIT_KEY_CHANGED)
