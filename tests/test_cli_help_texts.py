"""Every subcommand's --help read as a newcomer reads it: one flag name for one concept, every
option explained, and defaults written one way."""

from __future__ import annotations

import re

import pytest

from scopa_net.commands.main import build_parser, main


def _help(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    assert main([*command, "--help"]) == 0
    return capsys.readouterr().out


def test_the_hosts_name_is_host_name_and_name_is_a_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--name` was the player's name in play and join but the host's in host."""
    text = _help(capsys, "host")
    assert "--host-name NAME" in text
    assert not re.search(r"^\s+--name\b", text, re.M)
    for command in ("play", "join"):
        assert re.search(r"^\s+--name NAME\s+your name at the table", _help(capsys, command), re.M)
    assert build_parser().parse_args(["host", "--host-name", "kitchen"]).name == "kitchen"


def test_host_still_takes_the_old_name_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """Old scripts that ran `host --name` keep working, told the new spelling."""
    assert build_parser().parse_args(["host", "--name", "kitchen"]).name == "kitchen"
    assert "scopa-net: note: --name is now --host-name" in capsys.readouterr().err
