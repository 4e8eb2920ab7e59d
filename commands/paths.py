"""Where scopa-net keeps files, by the XDG base directory rules (the environment is passed in)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP = "scopa-net"


def xdg_folder(env: Mapping[str, str], variable: str, *default: str) -> Path:
    """The folder ``$variable`` names, else ``~/DEFAULT``. As the XDG rules ask, a relative
    path there is ignored, as if unset (it would name another folder wherever scopa-net ran);
    a leading ``~`` is the home folder, ``$HOME`` when set."""
    home = env.get("HOME") or os.path.expanduser("~")
    given = env.get(variable, "")
    if given == "~" or given.startswith("~/"):
        given = home + given[1:]
    return Path(given) if os.path.isabs(given) else Path(home, *default)


def data_dir(env: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/scopa-net``, or ``~/.local/share/scopa-net``."""
    return xdg_folder(env, "XDG_DATA_HOME", ".local", "share") / APP


def default_host_db(env: Mapping[str, str]) -> Path:
    """The host's journal unless ``--db`` says otherwise."""
    return data_dir(env) / "host.db"


def lan_host_db(env: Mapping[str, str]) -> Path:
    """The journal of ``play --lan``'s own host (in ``play-lan/``, beside its key and seat)."""
    return data_dir(env) / "play-lan" / "host.db"
