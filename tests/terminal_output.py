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
from dataclasses import dataclass
from pathlib import Path


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


@dataclass
class Window:
    """A program on a terminal that is its controlling terminal (as a terminal window's or an
    SSH session's is): :meth:`close` closes the window, and the system sends it SIGHUP."""

    process: subprocess.Popen[bytes]
    main_fd: int
    open: bool = True

    def close(self) -> None:
        """Close the window: the terminal hangs up."""
        if self.open:
            self.open = False
            os.close(self.main_fd)


@contextmanager
def in_a_window(argv: list[str], env: dict[str, str]) -> Iterator[Window]:
    """``argv`` run in a terminal window of its own (see :class:`Window`): a session of its
    own (util-linux ``setsid --ctty``, which execs it in place), whose controlling terminal is
    the window's. On the way out it is killed if it still runs, and the window closed."""
    main_fd, terminal_fd = pty.openpty()
    process = subprocess.Popen(
        ["setsid", "--ctty", *argv],
        stdin=terminal_fd,
        stdout=terminal_fd,
        stderr=terminal_fd,
        env=env,
    )
    os.close(terminal_fd)  # the child's alone: the window's close hangs it up
    window = Window(process, main_fd)
    try:
        yield window
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        window.close()


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


@contextmanager
def in_a_window_logging_stderr(argv: list[str], env: dict[str, str], log: Path) -> Iterator[Window]:
    """``argv`` in a terminal window of its own (:func:`in_a_window`), its stderr going to the
    file ``log``, as to a log that outlives the window."""
    logged = ["sh", "-c", 'exec "$0" "$@" 2>"$LOG"', *argv]
    with in_a_window(logged, env | {"LOG": str(log)}) as window:
        yield window


def until_logged(log: Path, wanted: str, seconds: float) -> str:
    """What the file ``log`` holds once it holds ``wanted`` (a question: at a terminal,
    Python's ``input()`` writes its prompt on stderr); the test fails if it does not within
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while wanted not in (said := log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, said or "nothing logged"
        time.sleep(0.05)
    return said
