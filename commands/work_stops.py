"""How a command stopped part way through its work (``verify``'s files, ``history
--export``'s transcripts) says it stopped: Ctrl-C, SIGTERM or its terminal closing (SIGHUP),
each with the status README gives; the command adds what it had done."""

from __future__ import annotations

from scopa_net.client.sigterm import HungUp, Terminated
from scopa_net.commands.options import EXIT_CANCELLED, EXIT_HANGUP, EXIT_TERMINATED

HUNG_UP = "stopped by SIGHUP (the terminal closed)"
"""How a line begins when the terminal's closing stopped a command (every command that says
so: a game, a question before one, the score keeper, verify, an export)."""
TERMINATED = "stopped by SIGTERM"
"""How a line begins when SIGTERM (``kill``) stopped a command."""


def how_stopped(stop: BaseException) -> tuple[str, int]:
    """The words that begin the line (``stopped``, ``stopped by SIGTERM``, ``stopped by SIGHUP
    (the terminal closed)``) and the exit status, for the stop ``stop`` raised."""
    if isinstance(stop, HungUp):
        return HUNG_UP, EXIT_HANGUP
    if isinstance(stop, Terminated):
        return TERMINATED, EXIT_TERMINATED
    return "stopped", EXIT_CANCELLED
