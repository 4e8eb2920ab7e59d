"""What a command says when a stop signal ends it at a question asked before a game (a host
or table number, a seat to take back, a password) or at a short wait there (the LAN searched,
a host's answer): one line, with what did not happen, and the status README gives."""

from __future__ import annotations

import contextlib
import sys
from typing import TextIO

from scopa_net.client.sigterm import HungUp, Terminated
from scopa_net.commands.options import EXIT_HANGUP, EXIT_TERMINATED, CommandError
from scopa_net.commands.work_stops import HUNG_UP, TERMINATED


def signal_stop(
    exc: BaseException, undone: str, asked_on: TextIO | None = None
) -> CommandError | None:
    """The line and status for ``exc`` if a stop signal raised it (``undone``: "nothing
    joined"), else None (Ctrl-C, Ctrl-D: the command says those itself). After SIGTERM the
    line goes below the question's (asked on stdout, or ``asked_on``); after SIGHUP (the
    terminal closed) nothing is written to the terminal that is gone: the line goes wherever
    stderr still goes."""
    if isinstance(exc, HungUp):
        return CommandError(f"{HUNG_UP}; {undone}", EXIT_HANGUP)
    if isinstance(exc, Terminated):
        with contextlib.suppress(OSError):
            print(file=asked_on or sys.stdout, flush=True)  # below the question, as for Ctrl-C
        return CommandError(f"{TERMINATED}; {undone}", EXIT_TERMINATED)
    return None
