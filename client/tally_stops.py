"""How the score keeper ends when its terminal closes (SIGHUP)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from prompt_toolkit.formatted_text import fragment_list_to_text

from scopa_net.client.tally_controller import TallyController
from scopa_net.client.tally_mode import Lines
from scopa_net.commands.options import EXIT_HANGUP, CommandError
from scopa_net.commands.work_stops import HUNG_UP


def hung_up(controller: TallyController, show: Callable[[Lines], None]) -> CommandError:
    """The terminal closed (SIGHUP) at the score keeper: it leaves as at SIGTERM (every entry
    is saved as it is made, each file replaced whole), and the one line, which goes wherever
    stderr still goes (a log), says what is kept, since what is shown is lost with the
    terminal: "stopped by SIGHUP (the terminal closed); saved as ...: `scopa-net tally
    --resume` carries on"."""
    said = controller.leave()
    with contextlib.suppress(OSError):  # the terminal is gone
        show(said)
    last = fragment_list_to_text(said[-1]).rstrip(".") if said else ""
    kept = f"; {last[:1].lower()}{last[1:]}" if last else ""
    return CommandError(f"{HUNG_UP}{kept}", EXIT_HANGUP)
