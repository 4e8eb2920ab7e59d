"""What every terminal command shares: settings from the display flags, and running the app."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Protocol

import trio
from prompt_toolkit.patch_stdout import patch_stdout

from scopa_net.client.app import ClientApp, LineSource, SessionOpener
from scopa_net.client.config import Settings, load_settings
from scopa_net.client.full_table import match_over
from scopa_net.client.line_mode import needs_line_mode
from scopa_net.client.network_session import (
    HelloHeldError,
    HostBrokeProtocolError,
    HostEndedError,
    HostKeyChangedError,
    HostLostError,
    HostUnprovenError,
    OwnProtocolError,
    RefusedError,
    SeatLostError,
    SessionError,
    TableClosedError,
    VersionMismatchError,
)
from scopa_net.client.sigterm import HANGUP, give_back, terminal_hung_up
from scopa_net.commands.options import (
    EXIT_FAILED,
    EXIT_HANGUP,
    EXIT_KEY_CHANGED,
    EXIT_REFUSED,
    EXIT_TERMINATED,
    EXIT_UNREACHABLE,
    CommandError,
)
from scopa_net.commands.work_stops import HUNG_UP, TERMINATED

REFUSALS = {
    "bad_password": "wrong password for that table; ask whoever opened the table (or the host) "
    "for it and join again (or give it with --password)",
    "no_such_table": "that table is not on the host (any more); `scopa-net join HOST` lists them",
    "seat_taken": "that seat is taken; leave out --seat to take any open one",
    "table_full": "that table is full, or its match is over; `scopa-net join HOST` lists "
    "tables with open seats",
    "too_many_tables": "the host will open no more tables just now; join one of its tables, "
    "or try again once one has finished",
    "too_many_connections": "the host has too many connections from this address; try later",
    "bad_version": "the host speaks another version of the protocol; update scopa-net",
}
"""What a person reads when the host refuses a join, by the error code it sent."""

TABLE_FULL_WORDS = {
    True: "the match at that table is over, so nobody can sit down there now; "
    "`scopa-net join --create HOST` opens a new table, `scopa-net join HOST` lists tables "
    "with open seats",
    False: "that table is full: wait for a seat to open, or join another; "
    "`scopa-net join HOST` lists tables with open seats",
    None: REFUSALS["table_full"],
}
"""A ``table_full`` refusal's line, by what the host's words say (:func:`match_over`): the
match over, every seat taken, or not which."""


def session_failure(exc: SessionError) -> CommandError:
    """One line for a session the host refused or lost, and the exit status."""
    text = str(exc)
    code, _, detail = text.partition(": ")
    if code == "too_many_tables" and detail:  # the host's words say which of its limits
        return CommandError(f"the host will open no more tables: {detail}", EXIT_REFUSED)
    if code == "table_full" and isinstance(exc, RefusedError):
        return CommandError(TABLE_FULL_WORDS[match_over(exc.message)], EXIT_REFUSED)
    if code in REFUSALS:
        return CommandError(REFUSALS[code], EXIT_REFUSED)
    if code == "rate_limited" and isinstance(exc, RefusedError):  # the host's words say why
        return CommandError(f"the host will not seat you just now: {exc.message}", EXIT_REFUSED)
    if isinstance(exc, VersionMismatchError):
        return CommandError(text + (f"; {exc.hint}" if exc.hint else ""), EXIT_REFUSED)
    if isinstance(exc, HelloHeldError):  # the network's doing: no host's answer came through
        return CommandError(text, EXIT_UNREACHABLE)
    if isinstance(exc, HostUnprovenError):
        return CommandError(text + (f"; {exc.hint}" if exc.hint else ""), EXIT_KEY_CHANGED)
    if isinstance(exc, HostKeyChangedError):
        return CommandError(text, EXIT_KEY_CHANGED)
    if isinstance(exc, SeatLostError):
        return CommandError(text, EXIT_REFUSED)
    if isinstance(exc, TableClosedError):  # a match that stopped: README's status 1
        return CommandError(text, EXIT_FAILED)
    if isinstance(exc, HostBrokeProtocolError | HostEndedError | OwnProtocolError):
        # not an unreachable host: README's status 1
        return CommandError(text + (f"; {exc.hint}" if exc.hint else ""), EXIT_FAILED)
    if isinstance(exc, HostLostError):
        return CommandError(text + (f"; {exc.hint}" if exc.hint else ""), EXIT_UNREACHABLE)
    return CommandError(f"the host stopped the session: {detail or text}", EXIT_FAILED)


def settings_from(args: argparse.Namespace) -> Settings:
    """Config file, then environment, then these flags; raises ConfigError."""
    return load_settings(
        os.environ,
        color=False if args.no_color else None,
        ascii=True if args.ascii else None,
        suits=args.suits,
        name=args.name,
    )


class Terminable(Protocol):
    """A game's app that SIGTERM can end: :meth:`run` it; :meth:`terminated` says, after it
    was cancelled, what is kept ("" for nothing to add)."""

    async def run(self) -> int: ...

    def terminated(self) -> str: ...


async def until_terminated(app: Terminable) -> int:
    """Run the app; SIGTERM (``kill``) ends it the orderly way (the prompt and toolbar taken
    down, the terminal given back as it was), not mid-draw, and says so in one line with what
    the app kept, so that a person whose game vanished knows why (status 143).

    SIGHUP (the terminal closed: a window closed, an SSH session dropped) ends it the same
    way, the seat kept (status 129): before, it killed the game where it stood, and a
    ``play --lan``'s friends read that the connection to the host was lost instead of that it
    stopped and kept their seats. Under ``nohup`` (SIGHUP ignored) the game goes on.

    From the first of them on, another SIGTERM, SIGHUP or a Ctrl-C changes nothing (until the
    process ends, :func:`~scopa_net.client.sigterm.give_back`): a second ``kill`` while the
    game stopped (a process manager's, a script's; at ``play --lan`` its host takes a second
    to say goodbye) killed it after the line or in the middle of saying it, with a traceback
    for Ctrl-C."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    hangup = HANGUP if HANGUP is not None and signal.getsignal(HANGUP) != signal.SIG_IGN else None
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    if hangup is not None:
        before[hangup] = signal.getsignal(hangup)
    first: signal.Signals | None = None

    def noted(signum: signal.Signals) -> bool:
        """The first stop signal: noted (True), later ones ignored, Ctrl-C too (False)."""
        nonlocal first
        if first is not None:
            return False
        first = signum
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # in the main thread, as the handler is
        return True

    def terminate() -> None:
        if noted(signal.SIGTERM):
            task.cancel()

    def hung_up(signum: int, frame: FrameType | None) -> None:
        # Noted at once, not by the loop: the terminal's end of input and its failing writes
        # come with the signal, and the app may meet them before the loop runs a handler.
        if hangup is not None and noted(hangup):
            loop.call_soon_threadsafe(task.cancel)

    try:
        loop.add_signal_handler(signal.SIGTERM, terminate)
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
        return await app.run()
    if hangup is not None:
        signal.signal(hangup, hung_up)
    try:
        return await app.run()
    except (asyncio.CancelledError, OSError, EOFError) as exc:
        # Cancelled by the signal; or, the terminal gone, failed writing to it or reading it
        # (on another core, that can come a moment before its SIGHUP: asked, it says so).
        if first is None and hangup is not None and terminal_hung_up():
            noted(hangup)
        if first is None or (first != hangup and not isinstance(exc, asyncio.CancelledError)):
            raise
        if task.cancelling():
            task.uncancel()
        kept = app.terminated()
        if first == hangup:
            line = HUNG_UP + (f"; {kept}" if kept else "")
            raise CommandError(line, EXIT_HANGUP) from None
        line = TERMINATED + (f"; {kept}" if kept else "")
        raise CommandError(line, EXIT_TERMINATED) from None
    finally:
        loop.remove_signal_handler(signal.SIGTERM)  # (which sets SIG_DFL: given back below)
        if first is not None:  # the others, until then: a late one must not change the end
            for signum in before:
                signal.signal(signum, signal.SIG_IGN)
        give_back(before, stopped=first is not None)


def run_game_screen(
    open_session: SessionOpener, settings: Settings, *, plain: bool, coach: bool = False
) -> int:
    """Run the terminal app on this session until the match ends; the exit status."""
    display = settings.display(os.environ)
    if plain:
        display = type(display)(color=False, glyphs=False, suits=display.suits)
    if plain or needs_line_mode(sys.stdin, sys.stdout):
        # --plain (a screen reader): lines printed once, appended, nothing drawn or redrawn
        lines = script_lines()
        app = ClientApp(open_session, display, plain=plain, coach=coach, lines=lines)
        with one_line_failures():
            return asyncio.run(until_terminated(app))
    app = ClientApp(open_session, display, plain=plain, coach=coach)
    with one_line_failures(), patch_stdout(raw=True):
        return asyncio.run(until_terminated(app))


def script_lines() -> LineSource:
    """Standard input and output with no prompt drawn: a script's lines are paced, a
    person's read as they are typed."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):  # replaced by an object with no descriptor
        fd = 0
    paced = not os.isatty(fd)
    encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
    return LineSource(fd=fd, out=sys.stdout, paced=paced, encoding=encoding)


@contextlib.contextmanager
def one_line_failures() -> Iterator[None]:
    """A host that refused the session, or cannot be reached, as a :class:`CommandError`:
    one line for the person, and the exit status."""
    try:
        yield
    except SessionError as exc:
        raise session_failure(exc) from None
    except trio.TooSlowError:
        raise CommandError("no answer from the host in time", EXIT_UNREACHABLE) from None
    except BrokenPipeError:
        raise  # what read the output went away (`| head`): the command ends quietly
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise CommandError(f"cannot reach the host: {why}", EXIT_UNREACHABLE) from None
