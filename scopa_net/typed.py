"""Checks on text a person typed, made before it is used or sent anywhere.

A person's slip must end in one line saying what was wrong, never an internal error. These are
the checks every input shares: a number a person means has a few digits (Python refuses to
read one of more than 4,300), text that goes on the wire has no control characters and fits
the wire's length, and a bad input is echoed back cut short (:func:`shown`), not in full.
"""

from __future__ import annotations

from scopa_net.text_limits import CONTROL_CHARACTERS

ECHO_LEN = 40
"""The most characters of a bad input echoed back in an error."""
NUMBER_DIGITS = 9
"""The most digits a number typed by a person is read with (a choice, a table, a port)."""


def shown(text: str, limit: int = ECHO_LEN) -> str:
    """``text`` quoted as an error echoes it (``'7d x'``), cut to ``limit`` characters with
    ``...`` when longer."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + "..."


def small_number(text: str) -> int | None:
    """The whole number ``text`` is (ASCII digits, at most :data:`NUMBER_DIGITS` of them);
    None when it is not one."""
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > NUMBER_DIGITS:
        return None
    return int(text)


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (an escape sequence, a tab, a bell...): the
    wire refuses them."""
    return CONTROL_CHARACTERS.search(text) is not None


def text_problem(text: str, what: str, limit: int | None) -> str | None:
    """Why ``text`` cannot be sent as ``what`` (``a message``, ``a name``), in words a person
    reads: longer than ``limit`` (None: not checked here), or with a control character; None
    when it can."""
    if limit is not None and len(text) > limit:
        return f"{what} is at most {limit} characters; yours has {len(text)}"
    if has_control(text):
        return (
            f"{what} cannot hold a control character (such as an escape sequence or a tab); "
            "type it again without"
        )
    return None
