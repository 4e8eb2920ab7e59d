"""The host keys this client trusts: pinned on first use, by address, and the keys of the hosts
that ran inside this client (``play``), which ``scopa-net verify`` trusts as its own."""

from __future__ import annotations

from pathlib import Path

from scopa_net.client.files import append_line, make_private_folder, replace_file
from scopa_net.fair.commitments import fingerprint

REPLACED_HOSTS = "replaced_hosts"
"""Beside ``known_hosts``: the keys ``--accept-new-key`` replaced, as ``address hexkey`` lines,
so that ``scopa-net verify`` still trusts what those hosts signed while they were pinned."""
OWN_HOSTS = "own_hosts"
"""Under the data directory: the keys of the hosts that ran inside this client (``play``),
one a line, so that ``scopa-net verify`` trusts their transcripts as it trusts pinned hosts."""


def remember_own_host(data_dir: Path, key: bytes) -> None:
    """Note the key of a host this process ran (once)."""
    path = data_dir / OWN_HOSTS
    try:
        if key.hex() in path.read_text(encoding="utf-8").split():
            return
    except FileNotFoundError:
        pass
    make_private_folder(path.parent)
    append_line(path, key.hex())


class KnownHosts:
    """Host keys pinned on first use, by address, in a small text file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def _pins(self) -> dict[str, str]:
        pins = {}
        if self.path is not None and self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                where, _, hexkey = line.partition(" ")
                if hexkey:
                    pins[where] = hexkey
        return pins

    def pinned(self, address: str) -> bytes | None:
        """The key pinned for ``address``, if one is."""
        hexkey = self._pins().get(address)
        return None if hexkey is None else bytes.fromhex(hexkey)

    def met_elsewhere(self, address: str, key: bytes) -> str | None:
        """Another address where ``key`` is pinned, if any: the same host (it proves it holds
        that key) moved, or a second host now answers where the first one did."""
        hexkey = key.hex()
        return next((a for a, k in self._pins().items() if k == hexkey and a != address), None)

    def pin(self, address: str, key: bytes) -> None:
        """Pin ``key`` for ``address``, replacing the key pinned before (the user accepts it)."""
        if self.path is None:
            return
        pins = self._pins()
        replaced = pins.get(address)
        pins[address] = key.hex()
        make_private_folder(self.path.parent)
        # Whole, never cut short: every host past a cut would be met as new.
        pinned = "".join(f"{a} {k}\n" for a, k in pins.items()).encode()
        replace_file(self.path, pinned, mode=0o600)
        if replaced is not None and replaced != key.hex():  # (once the new one is pinned)
            append_line(self.path.with_name(REPLACED_HOSTS), f"{address} {replaced}")

    def check(self, address: str, key: bytes) -> str | None:
        """Pin a new host; returns a warning if a pinned host's key changed."""
        if self.path is None:
            return None
        pinned = self.pinned(address)
        if pinned is None:
            make_private_folder(self.path.parent)
            append_line(self.path, f"{address} {key.hex()}")
            return None
        if pinned != key and self.met_elsewhere(address, key) is None:
            return self.changed_warning(address, key, pinned)
        return None

    def changed_warning(self, address: str, key: bytes, pinned: bytes) -> str:
        """What a person reads when the host at ``address`` signs with another key."""
        return (
            f"WARNING: the host at {address} now has key {fingerprint(key)}, but it had "
            f"{fingerprint(pinned)} when you first played there. It may be a different host. "
            f"The key you trusted is pinned in {self.path}. If the host was reinstalled and "
            f"you trust it, accept its new key with: scopa-net join {address} --accept-new-key"
        )
