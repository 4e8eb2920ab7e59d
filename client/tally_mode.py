"""Which question the score keeper's prompt is at, and the lines it answers with."""

from __future__ import annotations

import enum

from prompt_toolkit.formatted_text import FormattedText

Lines = list[FormattedText]


class Mode(enum.Enum):
    NAMES = "names"
    TARGET = "target"
    OPTIONS = "options"
    ENTER = "enter"
    COUNT = "count"
    CONFIRM = "confirm"
    CHANGE = "change"
    LEFT = "left"
