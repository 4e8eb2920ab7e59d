"""Words about another version of scopa-net, in one place for both ends: the wire's exact
sentence refusing a ``hello`` (protocol.md 3.2), read back by whoever gets it, and what each
person is told of it: the organiser in the host's log, a player joining, the LAN list. Every
one says which scopa-net is older, both versions, and who must update."""

from __future__ import annotations

import enum
import re

HELLO_REFUSAL = re.compile(r"client speaks protocol version (\d+); this end speaks version (\d+)")
"""The wire's words for a ``hello`` in a version the host does not speak (protocol.md 3.2)."""
HOSTS_VERSION = re.compile(r"this end speaks version (\d+)")


class Reader(enum.Enum):
    """Who reads the words, and so who is "yours"."""

    ORGANISER = "organiser"
    """The host's log: a player's scopa-net is another version than this host's."""
    PLAYER = "player"
    """A person whose join or taking back a seat the host refused."""
    LAN_LIST = "lan list"
    """A line of the hosts found on the LAN (the tail after the seats)."""


def hello_refusal(client: int, host: int) -> str:
    """The ``bye bad_version`` message refusing a ``hello`` in version ``client``; ``host``
    is the newest version the host speaks."""
    return f"client speaks protocol version {client}; this end speaks version {host}"


def read_hello_refusal(message: str) -> tuple[int, int] | None:
    """The (client's, host's) versions a ``bye bad_version`` message names; None if it is not
    the sentence :func:`hello_refusal` writes."""
    found = HELLO_REFUSAL.search(message)
    return None if found is None else (int(found.group(1)), int(found.group(2)))


def hosts_version(message: str) -> int | None:
    """The host's version a ``bye bad_version`` message names (``this end speaks version H``,
    whatever comes before it); None if it names none."""
    found = HOSTS_VERSION.search(message)
    return None if found is None else int(found.group(1))


def another_version(theirs: int | None, ours: int, reader: Reader, where: str = "the host") -> str:
    """What ``reader`` is told when the other end speaks protocol ``theirs`` (None: it did not
    say which) and this one ``ours``: which is older, and so who updates. ``where`` names the
    host for :attr:`Reader.PLAYER`."""
    versions = f"(protocol {theirs}, this one {ours})"
    older = theirs is not None and theirs < ours
    newer = theirs is not None and theirs > ours
    if reader is Reader.ORGANISER:
        if older:
            return (
                f"a player's scopa-net is older than this host's {versions}: they need to "
                "update it to play here"
            )
        # A newer scopa-net that still speaks this host's version says hello again in it
        # and plays (protocol.md 3.2): the organiser is not told to update for that.
        return (
            f"a player's scopa-net is newer than this host's {versions}: it plays here if it "
            f"also speaks {ours} (it then says hello again in {ours}); if not, update this "
            "host's scopa-net to let them play here"
        )
    if reader is Reader.LAN_LIST:
        if older:
            return (
                f"another version: its scopa-net is older than yours {versions}, so it "
                "cannot be joined until its organiser updates it"
            )
        return (
            f"another version: its scopa-net is newer than yours {versions}, so update yours "
            "to join it"
        )
    if older:
        return (
            f"{where} runs an older scopa-net than yours {versions}: you can play there once "
            "whoever runs it updates it"
        )
    if newer:
        return f"{where} runs a newer scopa-net than yours {versions}: update yours to play there"
    return (
        f"{where} runs another version of scopa-net (another protocol, this one {ours}): you "
        "can play together only once both run the same version; update the older one"
    )


def older_player(theirs: int, ours: int) -> str:
    """What the host's log adds to a player's joining or coming back when their scopa-net
    speaks an older protocol than this host's newest, which this host still speaks: the
    organiser of a club half upgraded sees who has not updated, and that they play."""
    return (
        f", with an older scopa-net than this host's (protocol {theirs}, this one {ours}), "
        "which plays here"
    )
