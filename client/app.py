"""The terminal app: a prompt-toolkit prompt on asyncio, with the game on trio as its guest.

One thread, one event loop. asyncio runs prompt-toolkit; trio runs as a *guest* on that same
loop (:func:`trio.lowlevel.start_guest_run`), and holds the session and the controller. The
two sides talk without polling:

- typed lines go to trio through the trio token (``run_sync_soon``) into a memory channel;
- text from trio is queued in a :class:`Printer`, which prints it above the prompt
  (``in_terminal``) on the asyncio side, or directly when no prompt is up.

Shutting down always goes the same way: cancel trio's scope, wait for trio's done callback,
then take the prompt down, then print what is still queued (text queued in the last tick
would otherwise be lost), and only then let asyncio finish.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import Any, TextIO

import trio
from prompt_toolkit import PromptSession
from prompt_toolkit.application import Application, in_terminal
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output, create_output
from prompt_toolkit.renderer import print_formatted_text as render_fragments
from prompt_toolkit.styles import BaseStyle

from scopa_net.client.asking import CTRL_D_DROPS, Asking, answer_prompt
from scopa_net.client.client_state import ClientState
from scopa_net.client.completion import PlayCompleter
from scopa_net.client.controller import Controller
from scopa_net.client.guest import run_beside_prompt
from scopa_net.client.job_control import SIGCONT, JobControl
from scopa_net.client.keys import make_key_bindings
from scopa_net.client.line_mode import LinePrinter, LineReader, feed_lines
from scopa_net.client.network_session import DealCheckFailedError, SessionError
from scopa_net.client.render import wrap_line
from scopa_net.client.screen_lines import Lines
from scopa_net.client.session import Session, SessionEndedError
from scopa_net.client.style import Display
from scopa_net.client.toolbar import make_toolbar
from scopa_net.client.typed_lines import TypedLines
from scopa_net.typed import shown

LINE_BUFFER = 32

log = logging.getLogger(__name__)

SessionOpener = Callable[[], AbstractAsyncContextManager[Session]]


class Printer:
    """Lines queued from either side, printed above the prompt on the asyncio side.

    Lines leave the queue only when they are written, so whatever is still queued when the
    app closes is printed by the final :meth:`flush`.
    """

    def __init__(
        self,
        output: Output,
        style: BaseStyle,
        loop: asyncio.AbstractEventLoop,
        *,
        wrap: bool = True,
    ) -> None:
        """``wrap``: cut long lines between words at the terminal's width; False (--plain)
        prints each line whole, for a screen reader to read as one."""
        self.output = output
        self._wrap = wrap
        self.style = style
        self.app: Application[Any] | None = None
        self._loop = loop
        self._pending: deque[FormattedText] = deque()
        self._scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()

    def show(self, lines: Lines) -> None:
        self._pending.extend(lines)
        if not self._scheduled:
            self._scheduled = True
            self._loop.call_soon(self._drain)

    def _drain(self) -> None:
        self._scheduled = False
        app = self.app
        if app is not None and app.is_running and app.context is not None:
            task = self._loop.create_task(self._print_above(), context=app.context.copy())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            self.flush()

    async def _print_above(self) -> None:
        async with in_terminal():
            self.flush()

    def flush(self) -> None:
        """Write every queued line now."""
        width = self.columns() if self._wrap else 0
        while self._pending:
            self._write(self._pending.popleft(), width)
        self.output.flush()

    def _write(self, line: FormattedText, width: int) -> None:
        """One line, cut between words to fit ``width``."""
        for part in wrap_line(line, width):
            render_fragments(self.output, [*part, ("", "\n")], self.style)

    def columns(self) -> int:
        """The terminal's width (lines are cut between words to fit it); 0 if not a terminal."""
        return self.size()[0]

    def size(self) -> tuple[int, int]:
        """The terminal's (columns, rows); (0, 0) when the output is not a terminal. An
        output that is no file at all (one a program embedding the game draws on) says its
        own size."""
        try:
            try:
                if not os.isatty(self.output.fileno()):
                    return 0, 0
            except NotImplementedError:
                pass
            size = self.output.get_size()
        except (OSError, NotImplementedError, ValueError):
            return 0, 0
        return size.columns, size.rows


class CommandHistory(InMemoryHistory):
    """Up brings back what was typed at the game's prompt, not the answers to its questions
    (a group's number, y or n), which mean nothing at the next prompt. ``answering``: whether
    the line being accepted answers a question."""

    def __init__(self, answering: Callable[[], bool]) -> None:
        super().__init__()
        self._answering = answering

    def append_string(self, string: str) -> None:
        if not self._answering():
            super().append_string(string)


def take_prompt_down(session: PromptSession[str] | None, prompt: asyncio.Task[None]) -> None:
    """The game is over: end the prompt (its loop sees EOF) and leave no empty prompt
    behind; cancel its task if it never got as far as asking."""
    app = session.app if session is not None else None
    if app is not None and app.is_running and not app.future.done():  # type: ignore[union-attr]
        app.erase_when_done = True
        app.exit(exception=EOFError)
    else:
        prompt.cancel()


def exit_status(
    done: Any,
    prompt: asyncio.Task[None],
    printer: Printer | LinePrinter,
    failure: DealCheckFailedError | None = None,
) -> int:
    """The command's status once the game side (``done``, trio's outcome) and the prompt
    have ended: 0, 130 for Ctrl-C, the deal check's status (after its banner, no traceback),
    or 1 with the error shown. A host that refused us or cannot be reached is raised, for
    the command to say in one line."""
    if not prompt.cancelled() and prompt.exception() is not None:
        raise prompt.exception()  # type: ignore[misc]
    if failure is not None:
        # One banner, no traceback: the check that failed, the round, the evidence.
        printer.show([FormattedText([("class:error", failure.banner)])])
        printer.flush()
        return failure.exit_status
    try:
        done.result().unwrap()
    except BaseException as exc:
        inner = only_error(exc)  # trio's nurseries wrap what the session raised in groups
        if isinstance(inner, KeyboardInterrupt):
            return 130
        if isinstance(inner, (SessionError, trio.TooSlowError)) or isinstance(exc, OSError):
            # The host refused us, closed the table or cannot be reached: the command says
            # so in one line. (An OSError inside a nursery's group is not the connection's,
            # which the session turns into its own errors while playing: it is the client's.)
            raise inner from None
        if not isinstance(exc, Exception):
            raise
        log.debug("the game stopped on an internal error", exc_info=exc)
        printer.show([FormattedText([("class:error", internal_error_line(inner))])])
        printer.flush()
        return 1
    return 0


def only_error(exc: BaseException) -> BaseException:
    """``exc``, or the one error inside it when it is a group of one (trio's nurseries). A
    move that was waiting for the host when the session ended fails with the session: the
    session's own error is the one that says why, so the move's is left out of a group."""
    if isinstance(exc, BaseExceptionGroup):
        _, rest = exc.split(SessionEndedError)
        exc = exc if rest is None else rest
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def internal_error_line(exc: BaseException) -> str:
    """The one line a person reads when the game side failed on an error of its own (a bug,
    not the host nor the person): the error's type and message."""
    exc = only_error(exc)
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return (
        f"The game stopped on an internal error ({what}). This is a bug in scopa-net: "
        "please report it."
    )


@dataclass(frozen=True, slots=True)
class LineSource:
    """Where a game with no screen reads its lines (``fd``, ``paced``: a script's lines, each
    handed over when the game waits for the person) and prints its own (``out``)."""

    fd: int
    out: TextIO
    paced: bool
    encoding: str = "utf-8"


async def _no_prompt(ready: asyncio.Future[None]) -> None:
    """No prompt to run: the lines are read on the game's side; wait to be stopped."""
    await asyncio.get_running_loop().create_future()


class ClientApp:
    """Run one session in the terminal until the match ends or the player leaves."""

    def __init__(
        self,
        open_session: SessionOpener,
        display: Display,
        *,
        plain: bool = False,
        input: Input | None = None,
        output: Output | None = None,
        on_state: Callable[[ClientState], None] | None = None,
        coach: bool = False,
        lines: LineSource | None = None,
    ) -> None:
        """With ``lines``, nothing is drawn: the lines are read from there and the game's
        lines printed plain (:mod:`scopa_net.client.line_mode`)."""
        self._lines_in = lines
        self._open_session = open_session
        self.coach = coach
        self.display = display
        self.plain = plain
        self._input = input
        self._output = output
        self._on_state = on_state
        self.controller: Controller | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None
        self._lines: trio.MemorySendChannel[str] | None = None
        self._prompt: PromptSession[str] | None = None
        self._typed = TypedLines()
        """Lines typed that the game has not handled yet (no "y/n? " drawn meanwhile)."""
        self._closing = False
        self._session: Session | None = None

    # --- asyncio side -------------------------------------------------------------------------

    async def run(self) -> int:
        """Play until the end; the exit status (0, or 1 if the game side failed)."""
        loop = asyncio.get_running_loop()
        if self._lines_in is not None:
            self.printer: Printer | LinePrinter = LinePrinter(
                self._lines_in.out, wrap=not self.plain
            )
            prompt_loop = _no_prompt
        else:
            output = self._output or create_output()
            self.printer = Printer(output, self.display.style(), loop, wrap=not self.plain)
            prompt_loop = partial(self._prompt_loop, output=output)
        try:
            with self._terminal_keys_for_lines(loop):
                done, prompt = await run_beside_prompt(
                    self._trio_main,
                    prompt_loop,
                    cancel_trio=self._cancel_trio,
                    stop_prompt=self._stop_prompt,
                )
        finally:
            self.printer.app = None
            self.printer.flush()
        failure: DealCheckFailedError | None = getattr(self._session, "deal_failure", None)
        return exit_status(done, prompt, self.printer, failure)

    def terminated(self) -> str:
        """Once SIGTERM stopped the game: how to take back the seat kept for this person (""
        when none is kept: a match played in this process only, or one that is over)."""
        hint = getattr(self._session, "seat_kept_hint", None)
        return hint() if hint is not None else ""

    @contextmanager
    def _terminal_keys_for_lines(self, loop: asyncio.AbstractEventLoop) -> Iterator[None]:
        """A person typing lines at a terminal with no prompt drawn (--plain): Ctrl-C does
        what it does at the prompt, not end the game (the terminal has dropped the line being
        typed; the game drops a question being asked, or says how to leave), and the game
        continued after Ctrl-Z (``fg``) shows the board again. Before the game has started
        (still connecting), Ctrl-C stops as ever."""
        if self._lines_in is None or self._lines_in.paced:
            yield
            return
        handlers = {signal.SIGINT: self._ctrl_c}
        if SIGCONT is not None:
            handlers[SIGCONT] = self._request_board
        added = []
        try:
            for number, handler in handlers.items():
                with suppress(NotImplementedError, RuntimeError, ValueError):  # main thread only
                    loop.add_signal_handler(number, handler)
                    added.append(number)
            yield
        finally:
            for number in added:
                loop.remove_signal_handler(number)

    def _ctrl_c(self) -> None:
        if self.controller is None or self._token is None:
            raise KeyboardInterrupt
        if isinstance(self.printer, LinePrinter):
            self.printer.end_typed_line()
        self._interrupt(True)

    def _message(self) -> FormattedText:
        assert self.controller is not None
        state = self.controller.state
        asked = answer_prompt(state.asking, len(state.choices))
        if asked is not None and self._typed.waiting:
            # The line just typed may answer it: a dumb terminal, or a screen reader, would
            # get "y/n? " once more under the answer, then "No rematch.".
            return FormattedText([])
        if asked is not None:
            return FormattedText([("class:prompt", asked)])
        return FormattedText([("class:prompt", "scopa> ")])

    async def _prompt_loop(self, ready: asyncio.Future[None], *, output: Output) -> None:
        await ready
        controller = self.controller
        assert controller is not None
        jobs = JobControl(lambda: session.app, self._request_board)
        session: PromptSession[str] = PromptSession(
            self._message,
            completer=PlayCompleter(controller.state),
            history=CommandHistory(lambda: controller.state.asking is not Asking.NOTHING),
            complete_while_typing=False,
            key_bindings=make_key_bindings(
                self._request_board, self._interrupt, suspend=jobs.suspend
            ),
            bottom_toolbar=None if self.plain else make_toolbar(controller.state),
            style=self.display.style(),
            include_default_pygments_style=False,
            input=self._input,
            output=output,
        )
        self._prompt = session
        self.printer.app = session.app
        controller.state.listeners.append(session.app.invalidate)
        with jobs:
            await self._read_lines(session, controller)

    async def _read_lines(self, session: PromptSession[str], controller: Controller) -> None:
        while True:
            try:
                line = await session.prompt_async()
            except KeyboardInterrupt:
                continue  # Ctrl-C as a signal: the same as the key, clear and ask again
            except EOFError:
                asking = controller.state.asking
                if not self._closing and asking is Asking.REMATCH:
                    self._send_line("quit")  # a no to "play again?", then leave
                    continue
                if not self._closing and controller.waiting_at_a_table():
                    self._send_line("quit")  # as typed: one line says what became of the seat
                    continue
                if self._closing or not controller.state.in_match:
                    return
                if asking in CTRL_D_DROPS:
                    # At a choice or "Really leave?", Ctrl-D drops the question as Ctrl-C
                    # does: the person stays at the table.
                    self._interrupt(False)
                    continue
                # Ctrl-D during a match asks the same question as quit, at a host or in
                # practice alike; at the host's question, it steps away (the seat is kept).
                asked = asking is Asking.LEAVE_OR_AWAY
                self._send_line("away" if asked else "quit")
                continue
            self._send_line(line)

    def _stop_prompt(self, prompt: asyncio.Task[None]) -> None:
        self._closing = True
        take_prompt_down(self._prompt, prompt)

    def _send_line(self, line: str) -> None:
        if self._token is None:
            return
        with suppress(trio.RunFinishedError):
            self._token.run_sync_soon(self._deliver_line, line)
            self._typed.sent()

    def _request_board(self) -> None:
        if self._token is not None and self.controller is not None:
            with suppress(trio.RunFinishedError):
                self._token.run_sync_soon(self.controller.show_board)

    def _interrupt(self, empty: bool) -> None:
        if self._token is not None and self.controller is not None:
            with suppress(trio.RunFinishedError):
                self._token.run_sync_soon(partial(self.controller.interrupt, empty_line=empty))

    def _cancel_trio(self) -> None:
        if self._token is None or self._scope is None:
            return
        with suppress(trio.RunFinishedError):
            self._token.run_sync_soon(self._scope.cancel)

    # --- trio side ----------------------------------------------------------------------------

    def _deliver_line(self, line: str) -> None:
        assert self._lines is not None
        try:
            self._lines.send_nowait(line)
        except trio.WouldBlock:
            self._typed.handled(self._prompt)
            dropped = shown(line)
            self.printer.show(
                [FormattedText([("class:error", f"too many lines at once, dropped: {dropped}")])]
            )
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            self._typed.handled(self._prompt)

    async def _trio_main(self, ready: asyncio.Future[None]) -> None:
        self._token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as scope:
            self._scope = scope
            async with self._open_session() as session:
                self._session = session
                controller = Controller(
                    session,
                    self.display,
                    self.printer.show,
                    scope.cancel,
                    plain=self.plain,
                    screen=self.printer.size,
                    coach=self.coach,
                    prompt=self._lines_in is None,
                )
                self.controller = controller
                send, receive = trio.open_memory_channel[str](LINE_BUFFER)
                self._lines = send
                if self._on_state is not None:
                    self._on_state(controller.state)
                ready.set_result(None)
                async with trio.open_nursery() as nursery:
                    controller.send_moves_from(nursery)
                    if self._lines_in is not None:
                        source = self._lines_in
                        reader = LineReader(source.fd, source.encoding)
                        nursery.start_soon(
                            partial(feed_lines, paced=source.paced),
                            controller,
                            reader,
                            scope.cancel,
                        )
                    else:
                        nursery.start_soon(self._pump_lines, controller, receive)
                    await self._pump_events(controller, session)
                    scope.cancel()  # the session is over: the match has ended

    @staticmethod
    async def _pump_events(controller: Controller, session: Session) -> None:
        async for event in session.events:
            controller.handle_event(event)

    async def _pump_lines(
        self, controller: Controller, lines: trio.MemoryReceiveChannel[str]
    ) -> None:
        async for line in lines:
            try:
                await controller.handle_line(line)
            finally:
                self._typed.handled(self._prompt)
