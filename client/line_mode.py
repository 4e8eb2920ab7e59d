"""The game without a screen to draw on: lines in, plain lines out.

When the output is not a terminal (``scopa-net play | tee game.txt``) or the input is not one
(``scopa-net play < moves.txt``), or with ``--plain`` at a terminal (a screen reader reads
each line as it comes), nothing is drawn: no prompt, no toolbar, no cursor moves, no erasing,
only the lines the game says, as plain text, each ending in ``\\n`` and printed once.

Lines come from standard input, each as if typed at the prompt. A person typing at a terminal
is read as they type, a line at a time, with the terminal's own line editing (Backspace,
Ctrl-U) and echo: nothing of theirs is wiped or redrawn when a line arrives. A script's lines
are handed over one at a time, each when the game waits for the person (their turn, or a
question asked), so ``board`` then ``6d`` in a file means "at my turn, show the board, then
play 6d". The end of the input leaves as Ctrl-D does, and
answers the question that leaving asks as a person leaving would.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Any, TextIO

import trio
from prompt_toolkit.formatted_text import FormattedText, fragment_list_to_text

from scopa_net.client.render import wrap_line

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from scopa_net.client.controller import Controller

READ_SIZE = 4096
EOF_ANSWERS = 6
"""At most this many answers to leaving questions after the input ends, then it just stops."""


def needs_line_mode(stdin: TextIO, stdout: TextIO) -> bool:
    """Whether there is no terminal to draw a prompt on: either stream is not one."""
    return not (_isatty(stdin) and _isatty(stdout))


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class LinePrinter:
    """What the game says, as plain lines on ``out``: the same interface as the screen's
    printer, with no prompt to print above."""

    app: Any = None  # no prompt application, ever

    def __init__(self, out: TextIO, *, wrap: bool = True) -> None:
        """``wrap``: cut long lines between words at a terminal's width; False (--plain)
        writes each line whole, for a screen reader to read as one, the terminal wrapping it
        on the screen by itself."""
        self.out = out
        self._wrap = wrap

    def show(self, lines: Sequence[FormattedText]) -> None:
        width = self.columns() if self._wrap else 0
        for line in lines:
            for part in wrap_line(line, width):
                self._write(fragment_list_to_text(part) + "\n")
        self.flush()

    def end_typed_line(self) -> None:
        """End the line a person was typing, which the terminal dropped at Ctrl-C (echoing
        ``^C``): what is said next starts a line of its own, as after Ctrl-C in a shell. (Not
        into a file or a pipe, where nothing was echoed.)"""
        with contextlib.suppress(AttributeError, ValueError, OSError):
            if os.isatty(self.out.fileno()):
                self._write("\n")
                self.flush()

    def _write(self, text: str) -> None:
        try:
            self.out.write(text)
        except UnicodeEncodeError:  # a name the output's character set cannot show
            encoding = getattr(self.out, "encoding", None) or "ascii"
            self.out.write(text.encode(encoding, "replace").decode(encoding))

    def flush(self) -> None:
        with contextlib.suppress(BrokenPipeError, ValueError):  # a reader gone, a closed file
            self.out.flush()

    def columns(self) -> int:
        """A terminal's width, to cut long lines between words; 0 (never cut) for a file."""
        return self.size()[0]

    def size(self) -> tuple[int, int]:
        """(columns, 0): no rows, since nothing here can wait for Enter to keep a score sheet
        in sight."""
        try:
            fd = self.out.fileno()
            return (os.get_terminal_size(fd).columns, 0) if os.isatty(fd) else (0, 0)
        except (AttributeError, ValueError, OSError):
            return 0, 0


class LineReader:
    """Lines from a file descriptor, read on a worker thread so the game goes on meanwhile.

    It reads the descriptor itself (not ``sys.stdin``): a read still waiting when the game
    ends is simply abandoned, holding no lock that the interpreter needs as it exits. A
    terminal's end of input (Ctrl-D) is not the end for good: the person may type on."""

    def __init__(self, fd: int, encoding: str = "utf-8") -> None:
        self._fd = fd
        self._encoding = encoding
        self._buffer = b""
        self._ended = False
        self._terminal = os.isatty(fd)

    @property
    def at_terminal(self) -> bool:
        """Whether a person types the lines (an end of input is Ctrl-D, not the end)."""
        return self._terminal

    async def readline(self) -> str | None:
        """The next line, without its end; None at the end of the input (or Ctrl-D)."""
        while b"\n" not in self._buffer and not self._ended:
            chunk = await trio.to_thread.run_sync(
                os.read, self._fd, READ_SIZE, abandon_on_cancel=True
            )
            if not chunk:
                if self._terminal and not self._buffer:
                    return None  # Ctrl-D at a terminal: it may be followed by more lines
                self._ended = True
            self._buffer += chunk
        if not self._buffer:
            return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode(self._encoding, errors="replace").rstrip("\r")


def waiting_for_person(controller: Controller) -> bool:
    """Whether the game waits for the person: a question is asked, or it is their turn (and
    the screen has caught up with the game: their last play is not still on its way)."""
    from scopa_net.client.asking import Asking

    state = controller.state
    if controller.move_on_its_way is not None:
        return False
    if state.asking is not Asking.NOTHING or state.paused:
        return True
    view = state.view
    if view is None or state.match_over or view.round_over or not view.my_turn:
        return False
    return controller.session.view == view


def answer_at_end(controller: Controller) -> str | None:
    """The line that the end of the input stands for, as Ctrl-D at the prompt: a no to "play
    again?", ``quit`` during a match at a host, then the answer that leaves (``away`` keeps
    the seat where it can be kept, as Ctrl-D at that question does). None: just stop."""
    from scopa_net.client.asking import Asking

    state = controller.state
    if state.asking is Asking.REMATCH:
        return "quit"
    if controller.waiting_at_a_table():  # one line says what became of the seat
        return "quit"
    if not state.in_match:
        return None
    if state.asking is Asking.LEAVE_OR_AWAY:
        return "away"
    if state.asking is Asking.CONFIRM_QUIT:
        return "y"
    return "quit"


async def until_waiting(controller: Controller) -> None:
    """Return once the game waits for the person."""
    while not waiting_for_person(controller):
        changed = trio.Event()
        wake = changed.set
        controller.state.listeners.append(wake)
        try:
            await changed.wait()
        finally:
            controller.state.listeners.remove(wake)


async def feed_lines(
    controller: Controller,
    reader: LineReader,
    stop: Callable[[], None],
    *,
    paced: bool,
) -> None:
    """Hand each line of ``reader`` to ``controller`` as if typed (``paced``: each when the
    game waits for the person); the end of the input leaves as Ctrl-D does, answering the
    question leaving asks when a script's input has ended for good."""
    from scopa_net.client.asking import CTRL_D_DROPS

    ended = 0
    while ended <= EOF_ANSWERS:
        if paced and not ended:
            await until_waiting(controller)
        line = await reader.readline()
        if line is None and reader.at_terminal and controller.state.asking in CTRL_D_DROPS:
            controller.interrupt()  # Ctrl-D at a question drops it, as at the prompt
            continue
        if line is None:
            line = answer_at_end(controller)
            if line is None:
                break
            ended += 1 if paced else 0
        await controller.handle_line(line)
        if ended:
            await trio.lowlevel.checkpoint()  # leaving may have stopped the game
    stop()
