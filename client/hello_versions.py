"""The protocol version this run of the client says ``hello`` in to each host (protocol.md 3.2).

A client opens in the newest version it speaks; a host that speaks only an older one refuses
that ``hello`` (``bye bad_version``, naming its own) and the client says it again in the host's
version on a new connection. An older scopa-net host logs every such refusal as a player whose
scopa-net is newer, telling its organiser to update, though that player plays there. So a host
known to speak nothing newer than an older version this client speaks is greeted in that one at
once: known from its refusal earlier in the run, or from its LAN record (``proto`` and
``protomax``, protocol.md 1). The host's key, where known, tells that the same host still
answers at that address: another host there, or a key that proved itself in the newest
version, is greeted in the newest version again, and so is a host whose connection was lost (it
may come back updated: the reconnection forgets it).
"""

from __future__ import annotations

from scopa_net.wire import messages as m


class HelloVersions:
    """The older protocol version each host (address and port) was found to speak, and its key
    (None: not known)."""

    def __init__(self) -> None:
        self._older: dict[tuple[str, int], tuple[int, bytes | None]] = {}

    def first(self, host: str, port: int) -> int:
        """The version to say ``hello`` in first at ``host``:``port``: the newest this client
        speaks, unless that host is known to speak only an older one."""
        known = self._older.get((host, port))
        return m.PROTOCOL_VERSION if known is None else known[0]

    def learn(self, host: str, port: int, newest: int, key: bytes | None = None) -> None:
        """``host``:``port`` speaks nothing newer than ``newest`` (its key ``key``): remembered
        when this client speaks that version but has a newer one."""
        if m.OLDEST_VERSION <= newest < m.PROTOCOL_VERSION:
            self._older[(host, port)] = (newest, key)
        else:
            self.forget(host, port)

    def same_host(self, host: str, port: int, key: bytes) -> bool:
        """Whether the host that welcomed this client with ``key`` is the one remembered at
        ``host``:``port`` (a key not known yet is taken, and kept)."""
        known = self._older.get((host, port))
        if known is None:
            return False
        version, remembered = known
        if remembered is None:
            self._older[(host, port)] = (version, key)
            return True
        return remembered == key

    def forget(self, host: str, port: int) -> None:
        """Greet ``host``:``port`` in the newest version again."""
        self._older.pop((host, port), None)


HELLO_VERSIONS = HelloVersions()
"""This process's memory: every connection it opens (a ``join``'s look at the host, its seat,
its reconnections; every player of ``bots``) reads and teaches it."""
