"""Progress of long work: one line redrawn on a terminal, plain lines now and then otherwise.

On a terminal: ``arena  120/200 matches  [#######.....]  60%  3.1 matches a second  about 26 s
left``, redrawn in place at most a few times a second; at the end, how long it took (``took
3 s``, no rate). Not on a terminal (a pipe, a log file, CI): a plain line at every tenth of the
work, and at the end. ``quiet``: nothing at all.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

REDRAW_EVERY = 0.2
"""Seconds between redraws on a terminal."""
BAR_WIDTH = 20
RATE_AFTER = 1.0
"""Seconds of work before a rate and a time left are shown: over less, they mean nothing
(a restart that restores one table in 10 us read "134426.7/s")."""


def format_duration(seconds: float) -> str:
    """``45 s``, ``3 min 05 s``, ``1 h 02 min``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Progress:
    """Counts ``done`` of ``total`` things called ``unit`` and shows how it goes."""

    def __init__(
        self,
        label: str,
        total: int,
        unit: str,
        *,
        stream: TextIO | None = None,
        quiet: bool = False,
        terminal: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.total = max(0, total)
        self.unit = unit
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.terminal = self.stream.isatty() if terminal is None else terminal
        self._clock = clock
        self._started = clock()
        self._last_draw = -float("inf")
        self._next_plain = 1
        self._drawn = False

    def line(self) -> str:
        """The progress as one line of text (what is drawn)."""
        elapsed = self._clock() - self._started
        parts = [f"{self.label}  {self.done}/{self.total} {self.unit}"]
        if self.total:
            share = self.done / self.total
            filled = int(share * BAR_WIDTH)
            if self.terminal:
                parts.append("[" + "#" * filled + "." * (BAR_WIDTH - filled) + "]")
            parts.append(f"{share:.0%}")
        if self.done and self.done >= self.total:  # the end: how long it took, no rate
            parts.append(f"took {format_duration(elapsed)}")
        elif self.done and elapsed >= RATE_AFTER:
            rate = self.done / elapsed
            per = f"{rate:.1f} {self.unit} a second"
            parts.append(per if rate >= 1 else f"{60 * rate:.1f} {self.unit} a minute")
            parts.append(f"about {format_duration((self.total - self.done) / rate)} left")
        return "  ".join(parts)

    def advance(self, count: int = 1) -> None:
        """``count`` more things are done."""
        self.done += count
        if self.quiet:
            return
        now = self._clock()
        if self.terminal:
            if now - self._last_draw >= REDRAW_EVERY or self.done >= self.total:
                self._last_draw = now
                self.stream.write("\r\x1b[K" + self.line())
                self.stream.flush()
                self._drawn = True
            return
        # Plain lines: at every tenth of the work (and the end).
        step = max(1, self.total // 10)
        if self.done >= self._next_plain * step or self.done == self.total:
            self._next_plain = self.done // step + 1
            print(self.line(), file=self.stream, flush=True)

    def clear(self) -> None:
        """Take the redrawn line off the screen, for other output; the next advance redraws."""
        if self._drawn and not self.quiet:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False
            self._last_draw = -float("inf")

    def close(self) -> None:
        """End the redrawn line, so what follows starts on a line of its own."""
        if self._drawn and not self.quiet:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False

    def __enter__(self) -> Progress:
        if self.terminal and self.total:
            self.advance(0)  # the line shows at once, before the first thing is done
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
