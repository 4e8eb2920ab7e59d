"""The score keeper at its prompt: :class:`~scopa_net.client.tally_controller.TallyController`
behind a prompt-toolkit prompt with the game client's conventions: tab completion, history
(Up/Down), ``help``, one-line errors, Ctrl-C clears the line, Ctrl-D leaves, a bottom toolbar
unless ``--plain``. From a script (the input is not a terminal), or typed at a terminal with
the output elsewhere, it runs as :mod:`.tally_script` says instead.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.shortcuts import print_formatted_text

from scopa_net.client.keys import make_key_bindings
from scopa_net.client.render import wrap_line
from scopa_net.client.sigterm import HungUp, SigtermAtPrompt, Terminated, terminal_hung_up
from scopa_net.client.style import Display
from scopa_net.client.tally_controller import TallyController
from scopa_net.client.tally_mode import Lines, Mode
from scopa_net.client.tally_script import is_a_terminal, run_from_lines, run_typed_lines
from scopa_net.client.tally_stops import hung_up
from scopa_net.client.toolbar import WIDE
from scopa_net.commands.options import EXIT_CANCELLED, EXIT_TERMINATED, CommandError
from scopa_net.commands.work_stops import TERMINATED


class TallyCompleter(Completer):
    def __init__(self, controller: TallyController) -> None:
        self.controller = controller

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        word = document.get_word_before_cursor(WORD=True)
        seen: set[str] = set()
        for text, meta in self.controller.candidates(before[: len(before) - len(word)] + word):
            if text in seen or not text.lower().startswith(word.lower()):
                continue
            seen.add(text)
            yield Completion(text, start_position=-len(word), display_meta=meta)


def _columns(output: Output) -> int:
    """The terminal's width; :data:`WIDE` when it cannot be had."""
    try:
        return output.get_size().columns
    except (OSError, NotImplementedError, ValueError):
        return WIDE


def run_tally(
    controller: TallyController,
    display: Display,
    *,
    plain: bool = False,
    input: Input | None = None,
    output: Output | None = None,
) -> int:
    """Run the score keeper at a prompt until the person leaves; the exit status. With no
    ``input`` given and no terminal to type at, it reads the lines of the script's input."""
    if input is None and not is_a_terminal(sys.stdin):
        return run_from_lines(controller, sys.stdin, sys.stdout, sys.stderr)
    if input is None and not is_a_terminal(sys.stdout):  # typed at a terminal, shown in a pipe
        return run_typed_lines(controller, sys.stdin, sys.stdout, sys.stderr)
    style = display.style()

    told: list[Lines] = []

    def stop_before_the_tally(empty: bool) -> None:
        # Ctrl-C at a question before the tally began stops it, as Ctrl-D does (README: 130);
        # once it began, Ctrl-C only clears the line, and on an empty one says how to leave.
        if controller.tally is None:
            get_app().exit(exception=KeyboardInterrupt())
        elif said := controller.ctrl_c(empty):
            told.append(said)
            get_app().exit(exception=KeyboardInterrupt())  # said below the prompt, not over it

    session: PromptSession[str] = PromptSession(
        completer=TallyCompleter(controller),
        complete_while_typing=False,
        key_bindings=make_key_bindings(None, interrupt=stop_before_the_tally),
        bottom_toolbar=None if plain else lambda: controller.toolbar(_columns(session.output)),
        style=style,
        include_default_pygments_style=False,
        input=input,
        output=output,
    )

    def show(lines: Lines) -> None:
        width = _columns(session.output) - 1  # the last column free, as the game's lines
        for line in lines:
            for part in wrap_line(line, width):  # between words, never inside one
                print_formatted_text(part, style=style, output=session.output)

    controller.width = _columns(session.output) - 1
    show(controller.opening())
    try:
        with SigtermAtPrompt(lambda: session.app).noted() as sigterm:
            try:
                return _prompt_until_left(controller, session, show, told, sigterm)
            except OSError:
                # A write to the terminal failed: if it hung up, its SIGHUP is on its way.
                if not terminal_hung_up():
                    raise
                raise sigterm.hung_up() from None
    except Terminated:  # the prompt gave the terminal back as it was: say what is kept
        show(controller.leave())
        raise CommandError(TERMINATED, EXIT_TERMINATED) from None
    except HungUp:
        raise hung_up(controller, show) from None


def _prompt_until_left(
    controller: TallyController,
    session: PromptSession[str],
    show: Callable[[Lines], None],
    told: list[Lines],
    sigterm: SigtermAtPrompt,
) -> int:
    """Read and handle lines at the prompt until the person leaves; the exit status."""
    while not controller.finished:
        try:
            sigterm.check()
            line = session.prompt(
                FormattedText([("class:prompt", controller.prompt())]), pre_run=sigterm.pre_run
            )
        except (Terminated, HungUp):
            raise  # SIGTERM or SIGHUP, not Ctrl-C: the tally stops
        except KeyboardInterrupt:
            if controller.tally is not None:
                show(told.pop() if told else [])
                continue
            show(controller.leave())
            return EXIT_CANCELLED
        except EOFError:
            if terminal_hung_up():  # not Ctrl-D: the terminal closed, its SIGHUP on its way
                raise sigterm.hung_up() from None
            if controller.mode is Mode.CONFIRM:  # Ctrl-D at "Score this hand?" is a no,
                show(controller.handle("n"))  # as at the game's "Really leave?": it stays
                continue
            show(controller.leave())
            # Ctrl-D at a question before the tally began stops it, as before a game.
            return EXIT_CANCELLED if controller.tally is None else 0
        controller.width = _columns(session.output) - 1  # the terminal may have changed
        show(controller.handle(line))
    return 0
