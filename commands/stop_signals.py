"""Ctrl-C, SIGTERM and the host's terminal closing (SIGHUP) as a host's normal end: the first
one asks the host to stop, and every later one is ignored while it stops (and, in the
``scopa-net`` process, until it ends: :func:`~scopa_net.client.sigterm.give_back`). A host
started under ``nohup`` (SIGHUP ignored) goes on ignoring SIGHUP.

Before SIGHUP was caught, closing the host's terminal (a window closed, an SSH session
dropped) killed it where it stood: the journal kept every move (it is written before anything
is acknowledged), but the players read "the connection to the host was lost" instead of "the
host was stopped", and the host no move queued for the disk finished.

A second signal is common: ``timeout --foreground scopa-net host`` passes the terminal's
Ctrl-C on to the host, which so gets it twice. trio's signal receiver delivers a signal still
pending when it closes again as KeyboardInterrupt, so the second one, arriving while the
host saved its tables, ended a clean stop with ``scopa-net: stopped`` and status 130 instead
of the line saying where the tables are saved (status 0).
"""

from __future__ import annotations

import signal
from types import FrameType
from typing import TYPE_CHECKING, Any

from scopa_net.client.sigterm import HANGUP, give_back

if TYPE_CHECKING:  # trio is imported where it runs: `scopa-net --help` loads no trio
    import trio

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM) + ((HANGUP,) if HANGUP is not None else ())


class StopSignals:
    """Catches SIGINT, SIGTERM and SIGHUP (unless ignored) while open (use it as a context
    manager around ``trio.run``); :meth:`wait` returns the first one's name once it came."""

    def __init__(self) -> None:
        self.received: signal.Signals | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._event: trio.Event | None = None
        self._before: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        for signum in STOP_SIGNALS:
            if signum == HANGUP and signal.getsignal(signum) == signal.SIG_IGN:
                continue  # nohup: the person asked for the host to outlive the terminal
            self._before[signum] = signal.signal(signum, self._caught)
        return self

    def __exit__(self, *exc: object) -> None:
        # Stopped, in the process that ends with it: a late signal must not turn a clean
        # stop into 130. Elsewhere (a test), the handlers are given back as they were.
        give_back(self._before, stopped=self.received is not None)

    def _caught(self, signum: int, frame: FrameType | None) -> None:
        if self.received is not None:
            return
        self.received = signal.Signals(signum)
        for other in self._before:
            signal.signal(other, signal.SIG_IGN)  # while it stops (see __exit__)
        if self._token is not None:
            self._token.run_sync_soon(self._set)

    def hung_up(self) -> None:
        """The terminal hung up and failed a write before its SIGHUP came: taken as it,
        unless a stop signal came first."""
        if self.received is None and HANGUP is not None and HANGUP in self._before:
            self._caught(HANGUP, None)

    def _set(self) -> None:
        if self._event is not None:
            self._event.set()

    async def wait(self) -> signal.Signals:
        """Wait (in ``trio.run``) for the first stop signal; its name."""
        import trio

        self._event = trio.Event()
        self._token = trio.lowlevel.current_trio_token()
        if self.received is not None:  # it came before trio ran, or before this wait
            self._event.set()
        await self._event.wait()
        assert self.received is not None
        return self.received
