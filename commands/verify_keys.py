"""The host keys ``scopa-net verify`` trusts (``--pin``, ``known_hosts``, ``own_hosts``, the
key of a host whose journal is on this machine), and what it tells a person whose file is
signed under another."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path


def normal_fingerprint(text: str) -> str:
    return text.strip().lower().replace("-", "").replace(":", "")


PINNED_BY_HAND = "--pin"
"""Where a trusted key came from, when the person gave it with ``--pin``."""


THIS_MACHINE = "this machine's host"
"""Where a trusted key came from, when it is the key file of a host run on this machine."""


MANY_KEYS = 3
"""Up to this many trusted keys, a refusal names them; past it, it counts them."""


def pinned_keys(path: Path) -> dict[str, str]:
    """The fingerprint of every host key in a client's ``known_hosts`` (``address hexkey``
    lines) or ``own_hosts`` (``hexkey`` lines), each with the host it is pinned for."""
    from scopa_net.fair.commitments import fingerprint

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    out = {}
    for line in lines:
        where, _, hexkey = line.strip().rpartition(" ")
        try:
            key = bytes.fromhex(hexkey)
        except ValueError:
            continue
        if len(key) == 32:
            host = f"the host at {where.strip()}" if where.strip() else "a host `play` ran here"
            out[normal_fingerprint(fingerprint(key))] = host
    return out


def own_machine_keys(key_files: Iterable[Path]) -> dict[str, str]:
    """The fingerprint of the host key in each of ``key_files`` (``host.key`` beside the
    default journal, and ``play --lan``'s own host's) that is a file of this user's holding
    an Ed25519 private key: the key of a host run on this machine, which signed what
    ``history --export`` wrote from its journal. A key the person holds the private half of
    is theirs; a transcript cannot put one there. A file missing, another user's, or not a
    key is passed over."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from scopa_net.fair.commitments import fingerprint

    out = {}
    for path in key_files:
        try:
            owner = getattr(os, "getuid", None)  # (POSIX; elsewhere the file's place says)
            if not path.is_file() or (owner is not None and path.stat().st_uid != owner()):
                continue
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError, TypeError):
            continue
        if isinstance(key, Ed25519PrivateKey):
            public = key.public_key().public_bytes_raw()
            out[normal_fingerprint(fingerprint(public))] = f"{THIS_MACHINE} (its key {path})"
    return out


def refusal(fp: str, pins: Mapping[str, str]) -> list[str]:
    """What to tell a person whose file is signed under ``fp``, a key not among ``pins``
    (fingerprint -> the host it is pinned for): which keys they do trust, and how to tell
    whether to trust this one. The key in the file is never offered as the way on by itself:
    a file re-signed under a key of the forger's own would be offered it too."""
    by_hand = all(where == PINNED_BY_HAND for where in pins.values())
    if len(pins) > MANY_KEYS:
        known = (
            f"you gave {len(pins)} others with --pin"
            if by_hand
            else f"your client knows {len(pins)} host keys (known_hosts), none of them this one"
        )
    elif by_hand:
        known = "you gave --pin " + " and --pin ".join(_shown_fp(p) for p in pins)
    else:
        known = "your client knows " + " and ".join(
            f"{_shown_fp(p)} ({where})" for p, where in pins.items()
        )
    return [
        f"REFUSED: host key {fp} is not a key you trust: {known}",
        f"  anyone can sign a file under a key of their own: compare {fp} with the fingerprint "
        "the host showed when you joined it (in its `host` output, or at your first join); "
        f"only if they are the same, verify again with --pin {fp}",
    ]


def _shown_fp(normal: str) -> str:
    """A fingerprint as the host shows it (``3e2f-7eff-8d20-1eb5-4064``)."""
    return "-".join(normal[i : i + 4] for i in range(0, len(normal), 4))
