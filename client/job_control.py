"""The terminal client as a shell job: stopped (Ctrl-Z, ``kill -TSTP``, ``kill -STOP``) and
continued (``fg``, ``kill -CONT``).

A stop that can be caught first gives the terminal back as the shell expects it (line mode,
the toolbar erased). Any continue, even after a ``SIGSTOP`` nothing could catch, takes the
terminal back for the prompt at once: raw mode again (the shell may have reset it), the
renderer told the screen is no longer what it drew, the prompt and toolbar drawn again, and
``on_continue`` called (the game shows the board), with no key to press. ``on_stop`` is
called just before a stop that could be caught (pass and play clears the screen there).
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from prompt_toolkit.application import Application, in_terminal

SIGTSTP: int | None = getattr(signal, "SIGTSTP", None)
SIGCONT: int | None = getattr(signal, "SIGCONT", None)
SIGSTOP: int | None = getattr(signal, "SIGSTOP", None)


def can_suspend() -> bool:
    """Whether this platform has job control (not Windows)."""
    return SIGTSTP is not None and SIGCONT is not None and SIGSTOP is not None


class JobControl:
    """Stop and continue handling for one prompt, installed for as long as it is used (a
    ``with`` block). ``app`` gives the prompt's application."""

    def __init__(
        self,
        app: Callable[[], Application[Any]],
        on_continue: Callable[[], None],
        on_stop: Callable[[], None] = lambda: None,
    ):
        self._app = app
        self._on_continue = on_continue
        self._on_stop = on_stop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._own_stop = False
        self._skip_continue = False
        self._tasks: set[asyncio.Task[None]] = set()

    def __enter__(self) -> JobControl:
        if not can_suspend():
            return self
        loop = asyncio.get_running_loop()
        assert SIGTSTP is not None and SIGCONT is not None
        try:
            loop.add_signal_handler(SIGTSTP, self.suspend)
            loop.add_signal_handler(SIGCONT, self._continued)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread
            return self
        self._loop = loop
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is None:
            return
        assert SIGTSTP is not None and SIGCONT is not None
        with suppress(Exception):
            self._loop.remove_signal_handler(SIGTSTP)
            self._loop.remove_signal_handler(SIGCONT)
        self._loop = None

    def suspend(self) -> None:
        """Give the terminal back and stop this process, as a terminal's Ctrl-Z would."""
        if self._own_stop or SIGSTOP is None:
            return
        app = self._app()
        if self._loop is None or not app.is_running or app.context is None:
            os.kill(os.getpid(), SIGSTOP)
            return
        task = self._loop.create_task(self._stop_in_terminal(), context=app.context.copy())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _stop_in_terminal(self) -> None:
        assert SIGSTOP is not None
        self._own_stop = True
        self._skip_continue = True
        try:
            async with in_terminal():  # line mode, the prompt erased; redrawn after
                self._on_stop()
                os.kill(os.getpid(), SIGSTOP)
        finally:
            self._own_stop = False
        self._on_continue()

    def _continued(self) -> None:
        if self._skip_continue:
            self._skip_continue = False
            return  # our own stop: leaving ``in_terminal`` put the prompt back
        app = self._app()
        if app.is_running:
            take_terminal_back(app)
        self._on_continue()


def take_terminal_back(app: Application[Any]) -> None:
    """Raw mode again, and the prompt drawn afresh where the cursor now is."""
    with suppress(Exception):  # not a terminal (any more): nothing to take back
        app.input.raw_mode().__enter__()  # left on: the app's own raw mode restores at exit
    app.renderer.reset()
    app.renderer.request_absolute_cursor_position()
    app.invalidate()
