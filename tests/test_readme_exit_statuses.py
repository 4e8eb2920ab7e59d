"""README's exit-status table, `scopa-net --help`'s and the code say the same statuses for the
stop signals: each status README lists is one the help lists and the code returns (nothing
more, nothing less), those of a signal are the shell's 128 + its number (what a script reads
whether the command caught it or was killed by it), and the lines README quotes for a stop
at a question before a game are the ones the code says, under the status they are quoted
under."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from scopa_net.client.sigterm import HungUp, Terminated
from scopa_net.commands.main import build_parser
from scopa_net.commands.options import (
    EXIT_BROKEN_PIPE,
    EXIT_CANCELLED,
    EXIT_HANGUP,
    EXIT_STATUSES,
    EXIT_TERMINATED,
)
from scopa_net.commands.question_stops import signal_stop

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
TABLE = dict(re.findall(r"^\| (\d+) \| (.*) \|$", README, re.M))
"""README's exit-status table: each status's row, by its number."""


def test_readme_lists_the_statuses_the_help_lists_and_no_other() -> None:
    helped = build_parser().format_help().split("exit status:")[1]
    listed = [int(n) for n in re.findall(r"^\s+(\d+)  ", helped, re.M)]
    assert listed == [status for status, _ in EXIT_STATUSES]
    assert sorted(int(n) for n in TABLE) == listed


@pytest.mark.parametrize(
    ("status", "signum"),
    [
        (EXIT_HANGUP, signal.SIGHUP),
        (EXIT_CANCELLED, signal.SIGINT),
        (EXIT_BROKEN_PIPE, signal.SIGPIPE),
        (EXIT_TERMINATED, signal.SIGTERM),
    ],
)
def test_a_signal_s_status_is_the_shell_s(status: int, signum: signal.Signals) -> None:
    """A command killed by the signal (one that does not catch it there) ends as the shell
    reports it; one that catches it says so and ends with the same status."""
    assert status == 128 + signum
    if signum in (signal.SIGHUP, signal.SIGTERM):  # Ctrl-C and a pipe are said in words
        assert signum.name in TABLE[str(status)]


@pytest.mark.parametrize(
    ("stop", "undone"),
    [
        (HungUp(), "nothing joined"),
        (HungUp(), "no table opened"),
        (Terminated(), "nothing joined"),
        (Terminated(), "no table opened"),
    ],
)
def test_the_line_readme_quotes_for_a_question_stopped_is_said_with_its_status(
    stop: KeyboardInterrupt, undone: str
) -> None:
    said = signal_stop(stop, undone)
    assert said is not None
    assert f"`{said}`" in TABLE[str(said.status)], (said.status, str(said))
