"""Every subcommand's --help read as a newcomer reads it: one flag name for one concept, every
option explained, and defaults written one way."""

from __future__ import annotations

import argparse
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


def _subcommands() -> list[str]:
    parser = build_parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


def _options(text: str) -> list[tuple[str, str]]:
    """Each option line of a help text (up to the epilog) with the help written for it."""
    body = text.split("\n\n", 1)[1]
    body = re.split(r"\n(?:variants|exit status)\b", body)[0]
    options: list[tuple[str, str]] = []
    for line in body.splitlines():
        if re.match(r"^  \S", line):  # an option or a positional, perhaps with its help
            flag, _, said = line.strip().partition("  ")
            options.append((flag, said.strip()))
        elif line.startswith("   ") and options:
            flag, said = options[-1]
            options[-1] = (flag, f"{said} {line.strip()}".strip())
    return options


@pytest.mark.parametrize("command", _subcommands())
def test_every_option_is_explained_and_its_default_written_one_way(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """`host --log-level` had no help, `verify --pin` showed "(default: [])", `--think` said
    "(default 1)" beside "(default: 0.8)", and `--grace` "(default: 60.0)"."""
    text = _help(capsys, command)
    options = _options(text)
    assert options, text
    for flag, said in options:
        assert said, f"{command} {flag} has no help text"
        assert "[]" not in said, f"{command} {flag}: {said}"
        assert "None" not in said, f"{command} {flag}: {said}"
        # One format: "(default: X)", and a number of seconds as typed (60, not 60.0).
        assert not re.search(r"\(default(?!: )|[;,] default\b", said), f"{command} {flag}: {said}"
        assert not re.search(r"\(default: \d+\.0\)", said), f"{command} {flag}: {said}"
    # A metavar spelling the flag out again (--max-tables MAX_TABLES) says nothing.
    for flag, _ in options:
        assert not flag.startswith("-") or "_" not in flag, (command, flag)


def test_one_flag_has_one_metavar_in_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    """`--players PLAYERS` here and `--players N` there would be two names for one thing."""
    seen: dict[str, set[str]] = {}
    for command in _subcommands():
        for flag, _ in _options(_help(capsys, command)):
            words = flag.split(", ")[-1].split(maxsplit=1)
            if words[0].startswith("--") and len(words) == 2:
                seen.setdefault(words[0], set()).add(words[1])
    # history exports a table, or every match with none ([TABLE]), tally one of its saved
    # tallies (ID): two things.
    assert seen.pop("--export") == {"[TABLE]", "ID"}
    assert {flag: said for flag, said in seen.items() if len(said) > 1} == {}


def test_counts_and_limits_are_said(capsys: pytest.CaptureFixture[str]) -> None:
    """What a newcomer asked: the limit of --think, the values and defaults of bots'
    --players and --target, join's --players and --bots, tally's --suits."""
    for command in ("play", "host", "bots"):
        assert "more than 0 and at most 60 (default: 1)" in " ".join(_help(capsys, command).split())
    bots = dict(_options(_help(capsys, "bots")))
    assert bots["--players N"].endswith("one of 2, 3, 4, 6 (default: 2)")
    assert bots["--target POINTS"].endswith("1 to 99 (default: 11)")
    join = dict(_options(_help(capsys, "join")))
    assert join["--players N"].endswith("(default: 2)")
    assert join["--bots N"].endswith("(default: 0)")
    tally = dict(_options(_help(capsys, "tally")))
    assert tally["--suits {english,italian,french}"] == "card letters (default: english)"
    host = dict(_options(_help(capsys, "host")))
    for flag in ("--bots N", "--password PASSWORD", "--table-name NAME", "--blind, --no-blind"):
        assert host[flag].startswith("opens a table: "), flag
    assert "a blind table:" not in " ".join(host.values())


def test_bots_help_says_what_happens_at_a_matchs_end(capsys: pytest.CaptureFixture[str]) -> None:
    """`bots --help` says when its players play again and when the command ends."""
    text = " ".join(_help(capsys, "bots").split())
    assert "agrees to play again while someone else at its table does" in text
    assert "at a table of computer players only" in text
    assert "the command ends once its tables close" in text


@pytest.mark.parametrize("command", ["", *_subcommands()])
def test_no_help_points_to_a_file_an_installed_wheel_lacks(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """`--blind`'s help sent a person to "protocol.md section 9", which is in the source
    repository only; a person who installed the wheel has no such file to read."""
    text = _help(capsys, *([command] if command else []))
    assert not re.search(r"\b(protocol|README)\.md\b", text), text


def test_join_seat_says_how_seats_are_numbered(capsys: pytest.CaptureFixture[str]) -> None:
    """`--seat SEAT  seat wanted`: the table list shows seats unnumbered ("seats: Carla,
    open, open, bot 3") and screens number them from 0, so a friend wanting to partner Carla
    typed --seat 3 (the third listed, the computer's)."""
    text = " ".join(_help(capsys, "join").split())
    assert (
        "--seat SEAT seat wanted, numbered from 0 in the order the table list shows the seats "
        "(at 4 players, 0 and 2 are partners, 1 and 3) (default: any open one)"
    ) in text
