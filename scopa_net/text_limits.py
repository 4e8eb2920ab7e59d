"""How long a name, a password or a ``say`` may be on the wire (protocol.md: ``str 1..32``,
``1..64``, ``1..1000``), and the characters no text there may hold (section 1).

Kept apart from :mod:`scopa_net.wire.messages`, which uses them, so that the command line can
check a ``--name``, a ``--password`` or a ``say`` where it is typed without loading the codec.
"""

from __future__ import annotations

import re

NAME_LEN = 32
"""The longest name a seat, a table or a player may have."""
NAME_COLUMNS = 20
"""Widest name, in terminal columns (a CJK character or an emoji takes two)."""
WIDE_TAKES_TWO = "a wide character such as 李 takes two"
"""How the name limit's columns are told, in a refusal, docs/settings.md and ``--help``."""
NAME_LIMIT = f"at most {NAME_COLUMNS} columns wide; {WIDE_TAKES_TWO}"
"""The name limit as ``--help`` and docs/settings.md say it."""
EMPTY_NAME = "the name is empty; give one"
"""What every command says of an empty ``--name`` (host, join, play), after the flag's name."""
PASSWORD_LEN = 64
"""The longest password a table may have."""
HOST_NAME_LEN = 64
"""The longest name a host may have (``welcome``'s ``host_name``)."""
SAY_LEN = 1000
"""Longest ``say`` the codec accepts; the host refuses more than ``TEXT_LEN`` politely."""
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""C0 and C1 control characters: no text on the wire may hold one (protocol.md 1)."""
