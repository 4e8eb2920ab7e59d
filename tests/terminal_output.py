"""A program a test runs on a terminal of its own (a pty), and reading what it writes there
or to a pipe."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def on_a_terminal(
    argv: list[str], env: dict[str, str]
) -> Iterator[tuple[subprocess.Popen[bytes], int, int]]:
    """``argv`` run with a new terminal as its stdin, stdout and stderr: the process, the
    terminal's other end (where the test reads and types) and the terminal itself. On the way
    out the process is killed if it still runs, and both ends are closed."""
    main_fd, terminal_fd = pty.openpty()
    process = subprocess.Popen(
        argv, stdin=terminal_fd, stdout=terminal_fd, stderr=terminal_fd, env=env
    )
    try:
        yield process, main_fd, terminal_fd
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(terminal_fd)
        os.close(main_fd)


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
