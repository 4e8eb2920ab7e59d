"""Settings: file, then environment, then flags; clear errors for bad values."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopa_net.client.config import (
    ConfigError,
    Settings,
    config_path,
    load_settings,
    os_user_name,
)
from scopa_net.client.style import SuitNames, glyphs_fit


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "client.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file(tmp_path: Path) -> None:
    defaults = load_settings({}, path=tmp_path / "missing.toml")
    assert defaults == Settings(name=os_user_name({}))


def test_the_file_sits_in_the_xdg_config_dir(tmp_path: Path) -> None:
    assert config_path({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "scopa-net/client.toml"
    assert config_path({"HOME": str(tmp_path)}) == tmp_path / ".config/scopa-net/client.toml"


def test_a_relative_xdg_folder_is_ignored_as_the_xdg_rules_ask(tmp_path: Path) -> None:
    """XDG_DATA_HOME=data (relative) kept transcripts, host keys and seats in data/scopa-net
    under whichever folder scopa-net ran in, where a run from another folder never found
    them (and a read-only folder refused them). The XDG rules ask that a relative path be
    ignored, as if unset."""
    from scopa_net.commands.paths import data_dir

    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "config"}
    assert data_dir(env) == tmp_path / ".local/share/scopa-net"
    assert config_path(env) == tmp_path / ".config/scopa-net/client.toml"
    home = {"HOME": str(tmp_path), "XDG_DATA_HOME": "~/d", "XDG_CONFIG_HOME": "~/c"}
    assert data_dir(home) == tmp_path / "d/scopa-net"  # ~ is this person's home, not relative
    assert config_path(home) == tmp_path / "c/scopa-net/client.toml"


def test_file_then_environment_then_flags(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "Ada"\nsuits = "french"\nascii = true\nhost = "10.0.0.2"\n')
    from_file = load_settings({}, path=path)
    assert from_file == Settings(ascii=True, suits=SuitNames.FRENCH, name="Ada", host="10.0.0.2")
    env = {"SCOPA_NET_NAME": "Bea", "SCOPA_NET_SUITS": "italian", "SCOPA_NET_ASCII": "0"}
    from_env = load_settings(env, path=path)
    assert (from_env.name, from_env.suits, from_env.ascii) == ("Bea", SuitNames.ITALIAN, False)
    flags = load_settings(env, path=path, name="Cid", suits="english", ascii=True, color=False)
    assert (flags.name, flags.suits, flags.ascii, flags.color) == (
        "Cid",
        SuitNames.ENGLISH,
        True,
        False,
    )


def test_no_color_beats_a_file_asking_for_colour(tmp_path: Path) -> None:
    path = write(tmp_path, "color = true\n")
    assert load_settings({}, path=path).display({}).color is True
    assert load_settings({"NO_COLOR": "1"}, path=path).display({"NO_COLOR": "1"}).color is False


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ('suits = "klingon"\n', "'klingon'"),
        ("ascii = 3\n", "3"),
        ('colour = "yes"\n', "unknown setting 'colour'; known: ascii, coach, color, host, name,"),
        ("name = [1\n", "client.toml"),
    ],
)
def test_bad_files_are_clear_errors(tmp_path: Path, text: str, quoted: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({}, path=write(tmp_path, text))
    assert quoted in str(info.value)


def test_bad_environment_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"SCOPA_NET_ASCII.*'maybe'"):
        load_settings({"SCOPA_NET_ASCII": "maybe"}, path=tmp_path / "none.toml")


def test_a_name_longer_than_the_wire_carries_is_refused_or_cut(tmp_path: Path) -> None:
    """A --name of 33 characters or more ended `join` in a LocalProtocolError traceback (the
    wire carries 1 to 32); given by a person it is refused in one line, and a login name that
    long (never chosen for the game) is cut. The limit is the one every screen shows: 20
    characters (a --name of 32 was accepted, then cut to 20 on every screen without a word)."""
    long = "n" * 21
    missing = tmp_path / "missing.toml"
    with pytest.raises(
        ConfigError,
        match=r"^invalid --name: a name is at most 20 columns wide \(this one takes 21\)$",
    ):
        load_settings({}, path=missing, name=long)
    with pytest.raises(ConfigError, match=r"invalid SCOPA_NET_NAME: a name is at most 20"):
        load_settings({"SCOPA_NET_NAME": long}, path=missing)
    with pytest.raises(ConfigError, match=r"client.toml: name: a name is at most 20"):
        load_settings({}, path=write(tmp_path, f'name = "{long}"\n'))
    with pytest.raises(ConfigError, match=r"at most 20 columns wide \(this one takes 22; a wide"):
        load_settings({}, path=missing, name="漢" * 11)
    assert load_settings({}, path=missing, name="é" * 20).name == "é" * 20
    assert load_settings({}, path=missing, name="漢" * 10).name == "漢" * 10
    assert load_settings({"LOGNAME": "n" * 40}, path=missing).name == "n" * 20


def test_a_name_with_a_control_character_is_refused_in_one_line(tmp_path: Path) -> None:
    """A tab or an escape sequence in a name reached the codec: `join --create` ended in a
    LocalProtocolError traceback and `join` or `play --lan` on an internal error."""
    missing = tmp_path / "missing.toml"
    refused = "a name cannot hold a control character"
    with pytest.raises(ConfigError, match=rf"^invalid --name: 'Ev\\til': {refused}"):
        load_settings({}, path=missing, name="Ev\til")
    with pytest.raises(ConfigError, match=rf"^invalid SCOPA_NET_NAME: 'Ev\\til': {refused}"):
        load_settings({"SCOPA_NET_NAME": "Ev\til"}, path=missing)
    with pytest.raises(ConfigError, match=rf"client.toml: name: '\\x1b\[31mEvil': {refused}"):
        load_settings({}, path=write(tmp_path, 'name = "\\u001b[31mEvil"\n'))
    assert load_settings({"LOGNAME": "Ev\til"}, path=missing).name == "Evil"


@pytest.mark.parametrize(
    ("encoding", "by_locale", "glyphs"),
    [
        ("utf-8", False, True),
        ("latin-1", False, False),  # a terminal set to ISO-8859-1 has no suit symbols
        ("ascii", False, False),
        ("utf-8", True, False),  # LC_ALL=C: Python says UTF-8, the terminal is ASCII
        ("no-such-charset", False, False),
    ],
)
def test_suit_glyphs_only_where_the_character_set_has_them(
    encoding: str, by_locale: bool, glyphs: bool
) -> None:
    assert glyphs_fit(encoding, utf8_by_locale=by_locale) is glyphs
    if not by_locale:
        assert Settings().display({}, encoding).glyphs is glyphs


def test_ascii_set_either_way_is_kept_whatever_the_character_set(tmp_path: Path) -> None:
    glyphs = load_settings({}, path=write(tmp_path, "ascii = false\n"))
    assert glyphs.display({}, "ascii").glyphs
    letters = load_settings({"SCOPA_NET_ASCII": "1"}, path=tmp_path / "missing.toml")
    assert not letters.display({}, "utf-8").glyphs


@pytest.mark.parametrize(
    ("locale", "declared_ascii"),
    [({}, False), ({"LC_ALL": "C"}, True), ({"LANG": "C"}, True), ({"LANG": "C.UTF-8"}, False)],
    ids=["no locale set", "LC_ALL=C", "LANG=C", "LANG=C.UTF-8"],
)
def test_only_a_locale_set_to_c_declares_an_ascii_terminal(
    locale: dict[str, str], declared_ascii: bool
) -> None:
    """With no locale set at all (a container's shell, a CI machine) Python runs in UTF-8
    mode as under LC_ALL=C, but nothing declared the terminal ASCII: the symbols stay."""
    import os
    import subprocess
    import sys

    env = {"PATH": os.environ.get("PATH", ""), **locale}
    code = "import os; from scopa_net.client.style import utf8_by_locale as u; print(u(os.environ))"
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == str(declared_ascii)
