"""The host keys that proved themselves to this client (protocol.md 3.2, 5.3): a host that signed
a connection's ``challenge`` under its key speaks protocol 5. A later connection that gives such
a key but speaks only 4, which has no proof (after a ``bye`` refusing the ``hello`` in 5, say),
may be another machine posing as that host, so nothing secret goes to it: not a seat's token,
not a password. Kept for this run, and in a small file for the next ones."""

from __future__ import annotations

import logging
from pathlib import Path

from scopa_net.client.files import append_line, make_private_folder

log = logging.getLogger("scopa_net.client")

PROVEN_HOSTS = "proven_hosts"
"""Under the data directory: the keys (hex) of the hosts that proved they hold them, one a line."""

_THIS_RUN: set[bytes] = set()
"""The keys proved to this process (every connection of a ``join`` or ``bots`` run)."""


class ProvenKeys:
    """The keys proved to this run, and to earlier ones in ``data_dir`` (None: this run only)."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.path = None if data_dir is None else data_dir / PROVEN_HOSTS

    def _on_disk(self) -> set[str]:
        if self.path is None:
            return set()
        try:
            return set(self.path.read_text(encoding="utf-8").split())
        except (OSError, UnicodeDecodeError) as exc:  # none yet, or unreadable: this run's
            log.info("no keys proved before read from %s: %r", self.path, exc)
            return set()

    def has_proved(self, key: bytes) -> bool:
        """Whether the host of ``key`` has proved it holds it, in this run or an earlier one."""
        return key in _THIS_RUN or key.hex() in self._on_disk()

    def remember(self, key: bytes) -> None:
        """This run saw ``key`` proved."""
        _THIS_RUN.add(key)

    def save(self, key: bytes) -> None:
        """Keep ``key`` as proved for later runs too (once); OSError is the caller's to say."""
        self.remember(key)
        if self.path is None or key.hex() in self._on_disk():
            return
        make_private_folder(self.path.parent)
        append_line(self.path, key.hex())
