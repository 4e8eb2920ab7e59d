"""What the host's log says of a player whose scopa-net speaks another protocol version.

The ``bye bad_version`` the player gets keeps the wire's exact words (protocol.md 3.2); the
organiser reading the host's log is told instead whose scopa-net is behind, and who updates."""

from __future__ import annotations

import re

REFUSED_HELLO = re.compile(r"client speaks protocol version (\d+); this end speaks version (\d+)")
"""The wire's words for a ``hello`` in another version (protocol.md 3.2)."""


def other_version_line(refusal: str) -> str | None:
    """The log's words for a refused ``hello`` whose wire message is ``refusal``; None if
    ``refusal`` is not that message."""
    found = REFUSED_HELLO.search(refusal)
    if found is None:
        return None
    theirs, ours = int(found.group(1)), int(found.group(2))
    versions = f"(protocol {theirs}, this one {ours})"
    if theirs < ours:
        return (
            f"a player's scopa-net is older than this host's {versions}: they need to update "
            "it to play here"
        )
    return (
        f"a player's scopa-net is newer than this host's {versions}: update this host's "
        "scopa-net to let them play here"
    )
