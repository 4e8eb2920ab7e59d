"""Where scopa-net keeps files, by the XDG base directory rules (the environment is passed in)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP = "scopa-net"


def data_dir(env: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/scopa-net``, or ``~/.local/share/scopa-net``."""
    base = env.get("XDG_DATA_HOME") or os.path.join(env.get("HOME", "~"), ".local", "share")
    return Path(os.path.expanduser(base)) / APP


def default_host_db(env: Mapping[str, str]) -> Path:
    """The host's journal unless ``--db`` says otherwise."""
    return data_dir(env) / "host.db"


def lan_host_db(env: Mapping[str, str]) -> Path:
    """The journal of ``play --lan``'s own host (in ``play-lan/``, beside its key and seat)."""
    return data_dir(env) / "play-lan" / "host.db"
