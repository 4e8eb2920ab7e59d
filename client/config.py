"""Client settings: a TOML file, then environment variables, then command-line flags.

The file is ``$XDG_CONFIG_HOME/scopa-net/client.toml`` (``~/.config/scopa-net/client.toml``
when ``XDG_CONFIG_HOME`` is unset). Every key is optional::

    color = false        # or leave it out: colour unless NO_COLOR or TERM=dumb
    ascii = true         # suit letters only, no glyphs (leave it out: glyphs if they can show)
    suits = "italian"    # english, italian or french: names on screen and letters typed
    name = "Ada"
    host = "192.168.1.20"
    coach = true         # warn before a play that gives something away (play --coach)

Without a ``name`` anywhere, the player is called by their operating-system user name (what
others see must be a real name, never "You").

Environment: ``NO_COLOR``, ``TERM=dumb``, ``SCOPA_NET_NAME``, ``SCOPA_NET_HOST``,
``SCOPA_NET_SUITS``, ``SCOPA_NET_ASCII`` (``1``/``true``). Flags win over both.
"""

from __future__ import annotations

import getpass
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scopa_net.client.style import (
    Display,
    SuitNames,
    color_wanted,
    glyphs_fit,
    utf8_by_locale,
)
from scopa_net.commands.paths import APP, xdg_folder
from scopa_net.names import NAME_COLUMNS, name_too_long, reads_as_computer
from scopa_net.text_limits import EMPTY_NAME
from scopa_net.typed import has_control, shown

COMPUTER_NAME_REFUSED = (
    "that reads as a computer player's name (they are called bot 1, bot 2...); choose another"
)
"""Why a person's name such as ``bot 3`` is refused (at ``--name`` and at ``name``)."""
DEFAULT_NAME = "Player"
"""The name when neither the settings nor the operating system give one."""
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class ConfigError(ValueError):
    """A settings file or variable that cannot be used (the user's to fix)."""


@dataclass(frozen=True, slots=True)
class Settings:
    color: bool | None = None
    """None: decide from the environment (``NO_COLOR``, ``TERM=dumb``)."""
    ascii: bool | None = None
    """None: suit glyphs when the terminal's character set has them."""
    suits: SuitNames = SuitNames.ENGLISH
    name: str = DEFAULT_NAME
    host: str | None = None
    coach: bool = False

    def display(self, env: Mapping[str, str], encoding: str | None = None) -> Display:
        """How to show cards here; ``encoding``: the output's (standard output's when None),
        which decides the glyphs unless ``ascii`` says."""
        if self.ascii is None:
            encoding = encoding or getattr(sys.stdout, "encoding", None)
            glyphs = glyphs_fit(encoding, utf8_by_locale=utf8_by_locale(env))
        else:
            glyphs = not self.ascii
        return Display(color=color_wanted(self.color, env), glyphs=glyphs, suits=self.suits)


def os_user_name(env: Mapping[str, str]) -> str:
    """The operating-system user name (``LOGNAME``, ``USER``... as getpass reads them), or
    :data:`DEFAULT_NAME` when there is none."""
    for key in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        value = env.get(key, "").strip()
        if value:
            return value
    try:
        return getpass.getuser().strip() or DEFAULT_NAME
    except (OSError, KeyError):
        return DEFAULT_NAME


def config_path(env: Mapping[str, str]) -> Path:
    """``$XDG_CONFIG_HOME/scopa-net/client.toml``, or under ``~/.config``."""
    return xdg_folder(env, "XDG_CONFIG_HOME", ".config") / APP / "client.toml"


def _bool(value: object, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ConfigError(f"invalid {where}: {value!r}; expected true or false")


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"invalid {where}: {value!r}; expected non-empty text")
    return value.strip()


def _name(value: object, where: str) -> str:
    if isinstance(value, str) and not value.strip():
        raise ConfigError(f"{where}: {EMPTY_NAME}")
    name = _text(value, where)
    too_long = name_too_long(name)
    if too_long:
        raise ConfigError(f"invalid {where}: {too_long}")
    if has_control(name):
        raise ConfigError(
            f"invalid {where}: {shown(name)}: a name cannot hold a control character (a tab, "
            "an escape sequence...); choose another"
        )
    if reads_as_computer(name):
        raise ConfigError(f"invalid {where}: {shown(name)}: {COMPUTER_NAME_REFUSED}")
    return name


def _suits(value: object, where: str) -> SuitNames:
    try:
        return SuitNames.parse(_text(value, where))
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def settings_from_table(table: Mapping[str, Any], where: str, base: Settings) -> Settings:
    """``base`` with the keys of a parsed TOML table applied; unknown keys are refused."""
    known = {"color", "ascii", "suits", "name", "host", "coach"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(
            f"{where}: unknown setting {unknown[0]!r}; known: {', '.join(sorted(known))}"
        )
    s = base
    if "color" in table:
        s = replace(s, color=_bool(table["color"], f"{where}: color"))
    if "ascii" in table:
        s = replace(s, ascii=_bool(table["ascii"], f"{where}: ascii"))
    if "suits" in table:
        s = replace(s, suits=_suits(table["suits"], f"{where}: suits"))
    if "name" in table:
        s = replace(s, name=_name(table["name"], f"{where}: name"))
    if "host" in table:
        s = replace(s, host=_text(table["host"], f"{where}: host"))
    if "coach" in table:
        s = replace(s, coach=_bool(table["coach"], f"{where}: coach"))
    return s


def read_file(path: Path, base: Settings) -> Settings:
    """``base`` updated from the TOML file at ``path``, if there is one."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return base
    except OSError as exc:
        raise ConfigError(f"cannot read settings file {str(path)!r}: {exc.strerror}") from None
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"invalid settings file {str(path)!r}: {exc}") from None
    return settings_from_table(table, str(path), base)


def apply_env(env: Mapping[str, str], base: Settings) -> Settings:
    """Environment overrides. (``NO_COLOR`` and ``TERM`` are read when colour is decided.)"""
    s = base
    if "SCOPA_NET_NAME" in env:
        s = replace(s, name=_name(env["SCOPA_NET_NAME"], "SCOPA_NET_NAME"))
    if "SCOPA_NET_HOST" in env:
        s = replace(s, host=_text(env["SCOPA_NET_HOST"], "SCOPA_NET_HOST"))
    if "SCOPA_NET_SUITS" in env:
        s = replace(s, suits=_suits(env["SCOPA_NET_SUITS"], "SCOPA_NET_SUITS"))
    if "SCOPA_NET_ASCII" in env:
        s = replace(s, ascii=_bool(env["SCOPA_NET_ASCII"], "SCOPA_NET_ASCII"))
    if env.get("NO_COLOR") and s.color:
        s = replace(s, color=None)  # NO_COLOR beats a file's colour = true
    return s


def load_settings(
    env: Mapping[str, str],
    *,
    color: bool | None = None,
    ascii: bool | None = None,
    suits: str | None = None,
    name: str | None = None,
    host: str | None = None,
    path: Path | None = None,
) -> Settings:
    """Settings from the file, the environment and the flags given (None: not given)."""
    s = read_file(path or config_path(env), Settings(name=""))  # "": not named yet
    s = apply_env(env, s)
    if color is not None:
        s = replace(s, color=color)
    if ascii is not None:
        s = replace(s, ascii=ascii)
    if suits is not None:
        s = replace(s, suits=_suits(suits, "--suits"))
    if name is not None:
        s = replace(s, name=_name(name, "--name"))
    if host is not None:
        s = replace(s, host=_text(host, "--host"))
    if not s.name:
        # A login name is nobody's choice for the game: what the wire cannot carry is dropped.
        login = "".join(ch for ch in os_user_name(env) if not has_control(ch)).strip()
        s = replace(s, name=login[:NAME_COLUMNS] or DEFAULT_NAME)
    return s
