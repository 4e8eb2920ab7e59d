"""How long a name, a password or a ``say`` may be on the wire (protocol.md: ``str 1..32``,
``1..64``, ``1..1000``).

Kept apart from :mod:`scopa_net.wire.messages`, which uses them, so that the command line can
check a ``--name``, a ``--password`` or a ``say`` where it is typed without loading the codec.
"""

from __future__ import annotations

NAME_LEN = 32
"""The longest name a seat, a table or a player may have."""
PASSWORD_LEN = 64
"""The longest password a table may have."""
SAY_LEN = 1000
"""Longest ``say`` the codec accepts; the host refuses more than ``TEXT_LEN`` politely."""
