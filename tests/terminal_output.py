"""Reading what a program started by a test writes to its terminal or pipe."""

from __future__ import annotations

import os
import select
import time


def read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    """What the other end ``fd`` (a terminal's or a pipe's) reads until ``wanted`` shows, or the
    program's end closes it; the test fails if neither happens within ``seconds``."""
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in seen:
        assert time.monotonic() < deadline, seen[-2000:]
        if select.select([fd], [], [], 0.1)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:  # the program ended, and its terminal with it
                break
    return seen
