"""Pass and play without a terminal: the flags, the public board, and the screen clearing."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.output import DummyOutput

from scopa_net.cards import CARDS
from scopa_net.client.pass_and_play import CLEAR, CLEAR_SCREEN, ScreenPrinter, public_board
from scopa_net.client.render import plain
from scopa_net.client.style import Display
from scopa_net.commands.main import main
from scopa_net.match import Match
from scopa_net.rules import RuleSet


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--pass-and-play", "--seed", "3"], "--seed practice is for one player"),
        (["--pass-and-play", "--lan"], "--pass-and-play is for one terminal"),
        (["--pass-and-play", "--humans", "1"], "pass and play needs --humans 2 or more"),
        (["--humans", "2", "--names", "Ada"], "--names needs 2 different names"),
        (["--pass-and-play", "--names", "Ada,ada"], "--names needs 2 different names"),
        (["--humans", "3"], "--humans must be 1..2"),
    ],
)
def test_flags_that_cannot_make_a_match_say_why_in_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_the_public_board_has_no_hand_in_either_mode() -> None:
    match = Match(RuleSet.of(2), first_dealer=1)
    match.deal(CARDS)
    view = match.view_for(0)
    hand = [f"{c.rank}" for c in view.hand]
    assert hand
    for mode in (False, True):
        lines = plain(public_board(view, ("Ada", "Bruno"), Display(color=False), plain=mode))
        assert "hand" not in lines.lower() and "Your turn" not in lines
        assert "Table" in lines


class Recording(DummyOutput):
    def __init__(self) -> None:
        self.raw: list[str] = []

    def write(self, data: str) -> None:
        self.raw.append(data)

    def write_raw(self, data: str) -> None:
        self.raw.append(data)


@pytest.mark.parametrize("escapes", [True, False])
def test_clearing_erases_the_display_and_the_scrollback(escapes: bool) -> None:
    out = Recording()

    async def run() -> None:
        printer = ScreenPrinter(
            out, Display(color=False).style(), asyncio.get_running_loop(), escapes=escapes
        )
        printer.show([CLEAR])
        printer.flush()

    asyncio.run(run())
    text = "".join(out.raw)
    if escapes:
        assert CLEAR_SCREEN in text and "\x1b[3J" in text
    else:  # TERM=dumb: push the last hand off the screen instead
        assert text.count("\n") >= 60 and "\x1b" not in text
