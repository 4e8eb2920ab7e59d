"""The score keeper with no screen drawn: lines read from a script, or typed at a terminal
whose output goes to a pipe or a file; what it says printed as plain text."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TextIO

from prompt_toolkit.formatted_text import fragment_list_to_text

from scopa_net.client.sigterm import HungUp, Terminated, stop_signals_raise
from scopa_net.client.style import text_line
from scopa_net.client.tally_controller import TallyController
from scopa_net.client.tally_mode import Lines, Mode
from scopa_net.client.tally_stops import hung_up
from scopa_net.commands.options import EXIT_CANCELLED, EXIT_TERMINATED, CommandError
from scopa_net.commands.work_stops import TERMINATED

SCRIPT_REFUSED = 1
"""The exit status of a run from a script that stopped at a refused line (EXIT_FAILED)."""


def is_a_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _printer(out: TextIO, err: TextIO) -> Callable[[Lines], None]:
    """Print lines as plain text: errors (a refusal, a tally not saved) on ``err``."""

    def show(said: Lines) -> None:
        for line in said:
            wrong = any("class:error" in style for style, *_ in line)
            to = err if wrong else out
            to.write(fragment_list_to_text(line) + "\n")
            to.flush()

    return show


def run_typed_lines(controller: TallyController, typed: TextIO, out: TextIO, err: TextIO) -> int:
    """Run the score keeper for a person typing at a terminal whose output goes elsewhere
    (``scopa-net tally | tee tally.txt``), as ``play`` does there: no screen drawn, the
    terminal's own line editing and echo, the prompt written once before each line is read
    (as plain text, on ``out``), and a refused line said, then asked again, as at the prompt.
    Ctrl-D leaves (at "Score this hand?" it is a no), Ctrl-C before the tally began stops it;
    SIGTERM, or the terminal closing (SIGHUP), leaves as at the prompt, saying so. The exit
    status as :func:`run_tally`'s."""
    show = _printer(out, err)
    show(controller.opening())
    while not controller.finished:
        out.write(controller.prompt())
        out.flush()
        try:
            with stop_signals_raise():  # SIGTERM, and SIGHUP: the terminal typed at closed
                line = typed.readline()
                if not line:
                    raise EOFError  # Ctrl-D, unless the terminal hung up (HungUp)
        except EOFError:
            line = ""
        except (Terminated, HungUp) as stop:
            out.write("\n")  # below the prompt, as for Ctrl-D
            if isinstance(stop, HungUp):
                raise hung_up(controller, show) from None
            show(controller.leave())
            raise CommandError(TERMINATED, EXIT_TERMINATED) from None
        except KeyboardInterrupt:
            if controller.tally is not None:
                out.write("\n")  # the line typed was dropped: the prompt on a line of its own
                show(controller.ctrl_c(empty=True))  # the terminal shows no line typed
                continue
            show(controller.leave())
            return EXIT_CANCELLED
        if not line:  # Ctrl-D: what it says goes below the prompt, not on its line
            out.write("\n")
            if controller.mode is Mode.CONFIRM:
                show(controller.handle("n"))
                continue
            show(controller.leave())
            return EXIT_CANCELLED if controller.tally is None else 0
        show(controller.handle(line.rstrip("\r\n")))
    return 0


def run_from_lines(
    controller: TallyController, lines: Iterable[str], out: TextIO, err: TextIO
) -> int:
    """Run the score keeper on lines read from a script, each as if typed at the prompt,
    printing what it says as plain text (no prompt, no toolbar) on ``out``, and what went
    wrong (a refusal, a tally not saved) on ``err``; the end of the input leaves, as Ctrl-D
    does. The exit status: 0, 1 when a line was refused, or 130 when the input ended before
    the tally began (as Ctrl-D at its names).

    A refused line stops the run there: the lines after it were written to answer what it
    would have asked, so read on they would answer the wrong questions (a count's coins taken
    as its cards, a hand confirmed that was never meant). What came before is saved.
    """
    show = _printer(out, err)
    show(controller.opening())
    for number, line in enumerate(lines, 1):
        show(controller.handle(line.rstrip("\r\n")))
        if controller.refused:
            stopped = (
                f"Stopped at line {number}, which was refused; the lines after it are not read."
            )
            show([text_line(stopped, "class:error")])
            show(controller.leave())
            return SCRIPT_REFUSED
        if controller.finished:
            return 0
    show(controller.leave())
    # The end of the input leaves as Ctrl-D does: before the tally began, a stop (130).
    return EXIT_CANCELLED if controller.tally is None else 0
