"""Why a host refused a seat with ``table_full``: every seat taken, or the match over.

The code is the same for both (protocol.md 3.8); the host's message says which: ours sends
``the match at this table is over`` or ``table N has no open seat``. Another host's words may
say neither, and then a person reads both.
"""

from __future__ import annotations

import re

MATCH_OVER_WORDS = "the match at this table is over"
"""Our host's message for a ``join`` at a table whose match is over (protocol.md 3.11)."""

NO_OPEN_SEAT = re.compile(r"table \d+ has no open seat")
"""Our host's message for a ``join`` with seat nil at a table whose every seat is taken."""


def match_over(message: str) -> bool | None:
    """Whether a ``table_full`` refusal with this message is for a match over (True), for a
    table whose every seat is taken (False), or does not say (None: another host's words)."""
    if message == MATCH_OVER_WORDS:
        return True
    if NO_OPEN_SEAT.fullmatch(message):
        return False
    return None
