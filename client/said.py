"""Lines a command says before (or instead of) the game's screen, cut to fit the terminal.

The notices a command prints (a host's key met for the first time, the tables to choose from,
the seat being taken back) are cut between words as the game's own lines are
(:func:`~scopa_net.client.render.wrap_line`, in terminal columns: a CJK character takes two),
so the terminal never breaks one inside a word. To a file or a pipe, or with --plain, they go
whole.
"""

from __future__ import annotations

import os
import shutil
import sys
from contextvars import ContextVar
from typing import TextIO

from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples

from scopa_net.client.render import plain, wrap_line

WHOLE_LINES: ContextVar[bool] = ContextVar("WHOLE_LINES", default=False)
"""True with --plain: every line goes whole, a screen reader reading each as one; the terminal
wraps it on the screen by itself."""


def columns_of(stream: TextIO) -> int:
    """The width of the terminal ``stream`` writes to; 0 when it is not a terminal, or when
    lines go whole (:data:`WHOLE_LINES`)."""
    if WHOLE_LINES.get():
        return 0
    try:
        if not stream.isatty():
            return 0
    except (AttributeError, ValueError, OSError):
        return 0
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return shutil.get_terminal_size().columns  # COLUMNS, or 80


def fitted(text: str, columns: int, *, label: str = "") -> list[str]:
    """``text`` (after ``label``, which later rows are indented under) as rows of at most
    ``columns`` columns, cut between words; whole when ``columns`` is 0."""
    line: StyleAndTextTuples = [("class:label", label)] if label else []
    line.append(("", text))
    return [plain([row]) for row in wrap_line(FormattedText(line), columns)]


def say(text: str = "", *, label: str = "", file: TextIO | None = None) -> None:
    """Print ``text`` (after ``label``) on ``file`` (standard output), cut to fit."""
    out = file if file is not None else sys.stdout
    for row in fitted(text, columns_of(out), label=label):
        print(row, file=out)
