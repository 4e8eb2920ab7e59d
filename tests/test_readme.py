"""The README is true: its Python runs and prints what it says, its commands parse, and it
documents every client setting (issue 15)."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import re
import shlex
from pathlib import Path

import pytest

from scopa_net.client.config import Settings
from scopa_net.commands.main import build_parser
from scopa_net.commands.options import EXIT_STATUSES

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_readme_has_python_to_run() -> None:
    assert PYTHON_BLOCKS


@pytest.mark.parametrize("block", PYTHON_BLOCKS)
def test_each_python_block_prints_what_the_readme_says(block: str) -> None:
    expected = [line.removeprefix("# > ") for line in block.splitlines() if line.startswith("# > ")]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, "README.md", "exec"), {})
    assert printed.getvalue().splitlines() == expected


def _commands() -> list[str]:
    found = re.findall(r"`(scopa-net [^`]*)`", README)
    found += re.findall(r"^ {4}(scopa-net .*)$", README, re.M)
    return sorted(set(found))


def test_every_scopa_net_command_in_the_readme_parses() -> None:
    commands = _commands()
    assert "scopa-net bots HOST --count 3 --bot-level hard" in commands
    parser = build_parser()
    for command in commands:
        argv = shlex.split(command.replace("FILE", "x.scopa"))[1:]
        if argv in ([], ["--help"]) or "COMMAND" in argv:
            continue
        args, extra = parser.parse_known_args(argv)
        assert extra == [], command
        assert args.run, command


def test_every_client_setting_and_exit_status_is_documented() -> None:
    for key in (f.name for f in dataclasses.fields(Settings)):
        assert f"| `{key}` |" in README, key
    for status, _ in EXIT_STATUSES:
        assert f"| {status} |" in README, status
