"""A failed check by the name protocol.md gives it (6.2, 9.9: *host lied*, *broken chain*...),
which is what a person reads where the evidence is quoted: never a Python class name.

:func:`check_line` is a failure as a banner or ``scopa-net verify`` quotes it,
``misrouted card: deal 1: your hand ...``; a blind check's own words already begin with its
name (``bad play proof (party 4): ...``).
"""

from __future__ import annotations

import re

from scopa_net.fair import errors as e
from scopa_net.fair.blind.errors import BlindCheckError

_NAMES: dict[type[Exception], str] = {
    # Names that are not simply the class's words (``HostLiedError``: host lied).
    e.RerolledRoundError: "re-rolled round",
    e.IllegalPlayRecordedError: "illegal play",
    e.DealerMismatchError: "broken chain",  # 9.9 step 4 names a changed dealer so
    e.TranscriptFormatError: "not a transcript",
    e.FairnessError: "failed check",
}


def words_of(class_name: str) -> str:
    """``HostLiedError`` as ``host lied``: the check a class name stands for, in the words
    protocol.md gives it (for a name read back from an older file)."""
    for kind, name in _NAMES.items():
        if kind.__name__ == class_name:
            return name
    stem = class_name.removesuffix("Error")
    return re.sub(r"(?<!^)([A-Z])", r" \1", stem).lower() if stem.isidentifier() else class_name


def check_name(error: Exception) -> str:
    """The name of the check ``error`` failed, as protocol.md gives it."""
    if isinstance(error, BlindCheckError):
        return error.check
    for kind in type(error).__mro__:
        if kind in _NAMES:
            return _NAMES[kind]
        if kind.__module__ == e.__name__:
            return words_of(kind.__name__)
    return "failed check"


def check_line(error: Exception) -> str:
    """``error`` as the evidence quotes it: the check's name, then what did not match."""
    if isinstance(error, BlindCheckError):
        return str(error)  # it begins with its check's name (and the party at fault)
    return f"{check_name(error)}: {error}"
