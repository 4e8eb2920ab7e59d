"""SIGTERM (``kill``) as a stop a command can catch where it has something to keep and say: a
prompt that draws on the terminal (the score keeper's) gives the terminal back as it was, and
says what is saved, instead of dying raw (no echo, no line editing) under a shell that does not
restore it (a script, ``dash``, a process manager)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while :func:`sigterm_raises` was open. A KeyboardInterrupt, as Ctrl-C
    is, so that asyncio and prompt-toolkit let it through and undo what they set up."""


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """While open, SIGTERM raises :class:`Terminated` in the main thread (outside it, or where
    signals cannot be caught, nothing changes)."""

    def raise_terminated(signum: int, frame: FrameType | None) -> None:
        raise Terminated

    try:
        before = signal.signal(signal.SIGTERM, raise_terminated)
    except (ValueError, OSError, AttributeError):  # not the main thread, or no SIGTERM
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
