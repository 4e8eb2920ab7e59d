"""SIGTERM (``kill``) as a stop a command can catch where it has something to keep and say: a
prompt that draws on the terminal (the score keeper's) gives the terminal back as it was, and
says what is saved, instead of dying raw (no echo, no line editing) under a shell that does not
restore it (a script, ``dash``, a process manager). SIGHUP (the terminal closed) stops a game
and ``bots`` the same way, their seats kept.

Once a stop signal came, later ones are ignored while the work unwinds. Run as the
``scopa-net`` process (:func:`process_ends_with_the_command`), they stay ignored until it
exits, so that a late one cannot change how it ends; called in a process that goes on (a test,
another program), every handler is given back as it was when the run ends
(:func:`give_back`)."""

from __future__ import annotations

import contextlib
import errno
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while :func:`sigterm_raises` was open. A KeyboardInterrupt, as Ctrl-C
    is, so that asyncio and prompt-toolkit let it through and undo what they set up."""


class HungUp(KeyboardInterrupt):
    """SIGHUP stopped :func:`run_until_stopped`: the terminal closed (a window closed, an SSH
    session dropped)."""


HANGUP: signal.Signals | None = getattr(signal, "SIGHUP", None)
"""The terminal closed (not on Windows)."""


class _ThisProcess:
    ends_with_the_command = False
    """Set by :func:`process_ends_with_the_command`."""


def process_ends_with_the_command() -> None:
    """This process is the ``scopa-net`` command, and ends with it: from the first stop
    signal on, the later ones stay ignored until it exits (see the module's docstring)."""
    _ThisProcess.ends_with_the_command = True


def give_back(before: dict[int, Any], *, stopped: bool) -> None:
    """The run is over: put back the handlers ``before`` (by signal number), unless a stop
    signal ended it (``stopped``) in a process that ends with the command, where the stop
    signals stay ignored: a late one must not turn the stop said into another ending."""
    for signum, handler in before.items():
        if stopped and _ThisProcess.ends_with_the_command:
            signal.signal(signum, signal.SIG_IGN)
        elif handler is not None:  # None: set from outside Python, left as it is
            signal.signal(signum, handler)


@contextmanager
def _on_sigterm(handler: Callable[[int, FrameType | None], None]) -> Iterator[None]:
    """While open, ``handler`` takes SIGTERM in the main thread; the one before is put back
    after (outside the main thread, or where signals cannot be caught, nothing changes)."""
    try:
        before = signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError, AttributeError):  # not the main thread, or no SIGTERM
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """While open, SIGTERM raises :class:`Terminated` in the main thread (outside it, or where
    signals cannot be caught, nothing changes)."""

    def raise_terminated(signum: int, frame: FrameType | None) -> None:
        raise Terminated

    with _on_sigterm(raise_terminated):
        yield


class SigtermAtPrompt:
    """SIGTERM at a prompt-toolkit prompt, stopped where it is safe to stop: while the prompt
    runs, it is ended from its own event loop with :class:`Terminated`; before it runs, or
    between two prompts, the next one ends as soon as it starts (:meth:`pre_run`) or is not
    begun (:meth:`check`). Raising from the signal handler itself, as :func:`sigterm_raises`
    does, could land inside asyncio as it builds or closes the prompt's event loop, and leave
    it half made ('Exception ignored in: BaseEventLoop.__del__' on the person's screen).
    SIGHUP (the terminal closed; unless ignored, as under ``nohup``) is taken the same way, and
    raises :class:`HungUp`; the first of them decides.

    ``app`` gives the prompt's application (a ``PromptSession``'s ``app``)."""

    def __init__(self, app: Callable[[], Any]) -> None:
        self._app = app
        self.arrived = False
        self.stop: type[KeyboardInterrupt] = Terminated
        """What the stop raises: :class:`Terminated`, or :class:`HungUp` after SIGHUP."""
        self._ended: Any = None  # the prompt's result, given the stop (see noted)

    def _note(self, signum: int, frame: FrameType | None) -> None:
        if self.arrived:
            return
        self.arrived = True
        self.stop = HungUp if signum == HANGUP else Terminated
        app = self._app()
        loop = getattr(app, "loop", None)
        if app.is_running and loop is not None:
            # Its loop closing (RuntimeError): the next prompt is not begun (check).
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.pre_run)

    def pre_run(self) -> None:
        """End the prompt now running if SIGTERM arrived (pass as ``prompt(pre_run=...)``)."""
        app = self._app()
        future = getattr(app, "future", None)
        if self.arrived and app.is_running and future is not None and not future.done():
            self._ended = future
            app.exit(exception=self.stop)

    def check(self) -> None:
        """Raise :class:`Terminated` (or :class:`HungUp`) if SIGTERM (SIGHUP) arrived (call
        before each prompt)."""
        if self.arrived:
            raise self.stop

    def hung_up(self) -> KeyboardInterrupt:
        """The stop to raise when the prompt failed reading or writing because its terminal
        hung up, its SIGHUP still on its way: noted as if it had come (unless a stop signal
        came first), so that the SIGHUP changes nothing once it comes."""
        if not self.arrived:
            self.arrived = True
            self.stop = HungUp
        return self.stop()

    @contextmanager
    def noted(self) -> Iterator[SigtermAtPrompt]:
        """While open, SIGTERM and SIGHUP are noted (outside the main thread, nothing
        changes). Once one came, the handlers are given back as :func:`give_back` says."""
        before: dict[int, Any] = {}
        wanted = [signal.SIGTERM]
        if HANGUP is not None and signal.getsignal(HANGUP) != signal.SIG_IGN:
            wanted.append(HANGUP)
        try:
            for signum in wanted:
                before[signum] = signal.signal(signum, self._note)
        except (ValueError, OSError, AttributeError):  # not the main thread
            give_back(before, stopped=False)
            yield self
            return
        try:
            yield self
        finally:
            give_back(before, stopped=self.arrived)
            ended, self._ended = self._ended, None
            if ended is not None and ended.done() and not ended.cancelled():
                # Taken: the prompt may have ended first another way (its terminal gone,
                # it failed reading or writing), and asyncio said "exception never retrieved".
                ended.exception()


def terminal_hung_up() -> bool:
    """Whether this process's terminal hung up (its window closed, its SSH session dropped):
    asked for its settings, such a terminal answers EIO (a file or a pipe: not a terminal)."""
    try:
        import termios
    except ImportError:  # Windows: no such terminals
        return False
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        try:
            termios.tcgetattr(stream.fileno())
        except termios.error as exc:
            if exc.args and exc.args[0] == errno.EIO:
                return True
        except (AttributeError, ValueError, OSError):  # replaced, closed: not this terminal
            continue
    return False


@contextmanager
def stop_signals_raise() -> Iterator[None]:
    """While open (around a question asked before a game, or a short wait), SIGTERM raises
    :class:`Terminated` and SIGHUP :class:`HungUp` in the main thread, for the command to say
    it stopped; unless ignored (``nohup``: SIGHUP changes nothing). So does the terminal's end
    of input or a failed write when it comes from the terminal hanging up (the kernel fails
    its reads and writes, then signals: the failure can come first). The first signal decides:
    later ones are ignored (:func:`give_back`)."""
    came: list[int] = []
    before: dict[int, Any] = {}

    def raise_it(signum: int, frame: FrameType | None) -> None:
        if came:
            return
        came.append(signum)
        for other in before:
            signal.signal(other, signal.SIG_IGN)  # while the command says it stopped
        raise HungUp if signum == HANGUP else Terminated

    wanted = [signal.SIGTERM]
    if HANGUP is not None and signal.getsignal(HANGUP) != signal.SIG_IGN:
        wanted.append(HANGUP)
    try:
        for signum in wanted:
            before[signum] = signal.signal(signum, raise_it)
    except (ValueError, OSError, AttributeError):  # not the main thread
        give_back(before, stopped=False)
        yield
        return
    try:
        yield
    except (EOFError, OSError):
        if not came and HANGUP in before and terminal_hung_up():
            came.append(HANGUP)
            raise HungUp from None
        raise
    finally:
        give_back(before, stopped=bool(came))


def typed(prompt: str) -> str:
    """``input(prompt)`` for a question asked before a game (a table number, a seat to take
    back): SIGTERM raises :class:`Terminated` meanwhile, and the terminal closing (SIGHUP)
    :class:`HungUp`, for the command to say it stopped (:func:`stop_signals_raise`)."""
    with stop_signals_raise():
        return input(prompt)


STOPS = (signal.SIGTERM, signal.SIGINT) + ((HANGUP,) if HANGUP is not None else ())
"""The signals that stop :func:`run_until_stopped`: ``kill``, Ctrl-C and the terminal closing
(unless ignored: under ``nohup`` the work outlives its terminal)."""


def run_until_stopped(work: Callable[[], Awaitable[T]]) -> T:
    """``trio.run(work)``, SIGTERM, Ctrl-C (SIGINT) or SIGHUP cancelling it the trio way (a
    signal receiver, not an exception raised wherever the signal lands in trio's own code);
    once it has unwound, its connections closed, :class:`Terminated` for SIGTERM,
    :class:`HungUp` for SIGHUP and KeyboardInterrupt for Ctrl-C, for the command to say so in
    one line.

    The first signal decides. Every later one, while the work unwinds (and until the process
    ends, :func:`give_back`), is ignored: a second ``kill`` (a process manager's, a script's),
    or Ctrl-C pressed on a stop that seems slow, killed it where it stood (the shell's
    "Terminated", or the other signal's words and status). The stop takes as long as the
    work's own shielded steps, each bounded (a last write to a host that takes no bytes: 15 s
    at most)."""
    import trio  # here, not at the top: `scopa-net --help` imports this module

    if threading.current_thread() is not threading.main_thread():
        return trio.run(work)  # signals are the main thread's: SIGTERM as it was
    first: signal.Signals | None = None

    def noted(signum: int, frame: FrameType | None) -> None:
        # Before the receiver opens and after it closes (its pending signals are given here).
        nonlocal first
        if first is None:
            first = signal.Signals(signum)

    # One ignored already (Ctrl-C for a job started with `&` by a script) stays ignored.
    caught = [signum for signum in STOPS if signal.getsignal(signum) != signal.SIG_IGN]
    if not caught:
        return trio.run(work)

    async def until_stopped() -> T | None:
        nonlocal first
        done: T | None = None
        failure: BaseException | None = None
        with trio.open_signal_receiver(*caught) as signals:
            async with trio.open_nursery() as nursery:

                async def watch() -> None:
                    nonlocal first
                    if first is None:
                        async for signum in signals:
                            first = signal.Signals(signum)
                            break
                    nursery.cancel_scope.cancel()

                nursery.start_soon(watch)
                try:
                    done = await work()
                except trio.Cancelled:
                    raise  # a stop signal's: the nursery takes it
                except BaseException as exc:
                    # Raised below as trio.run(work) would, not in the nursery's group.
                    failure = exc
                nursery.cancel_scope.cancel()
        if first is not None:
            # Later stop signals are ignored from here on, by the system: as trio.run ends it
            # closes its own wakeup socket, and a signal a Python handler took in that moment
            # printed "Exception ignored when trying to write to the signal wakeup fd".
            for signum in caught:
                signal.signal(signum, signal.SIG_IGN)
            return None  # cancelled by a stop signal (or it ended as the signal came)
        if failure is not None:
            raise failure
        return done

    before = {signum: signal.signal(signum, noted) for signum in caught}
    try:
        result = trio.run(until_stopped)
    finally:
        give_back(before, stopped=first is not None)
    if first == signal.SIGTERM:
        raise Terminated
    if first is not None and first == HANGUP:
        raise HungUp
    if first is not None:
        raise KeyboardInterrupt
    return result  # type: ignore[return-value]
