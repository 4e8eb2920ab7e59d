"""The protocol versions this scopa-net speaks (protocol.md 3.2), apart from the wire codec so
that ``scopa-net --version`` names them without importing it."""

PROTOCOL_VERSION = 5
"""The newest protocol version this end speaks: the one its ``hello`` says."""
OLDEST_VERSION = 4
"""The oldest version this end still speaks (protocol.md 3.2): a host welcomes a ``hello`` in
any version from this one to :data:`PROTOCOL_VERSION`, and a client refused by a host that
speaks only an older one says ``hello`` again in that one, if it is not older than this."""


def spoken() -> str:
    """The versions spoken, as ``--version`` says them: "protocol 5; plays with hosts and
    players of protocol 4 and 5"."""
    if OLDEST_VERSION == PROTOCOL_VERSION:
        return f"protocol {PROTOCOL_VERSION}"
    versions = range(OLDEST_VERSION, PROTOCOL_VERSION + 1)
    listed = ", ".join(map(str, versions[:-1])) + f" and {versions[-1]}"
    return f"protocol {PROTOCOL_VERSION}; plays with hosts and players of protocol {listed}"
