"""Protocol errors, split by whose fault they are, and the table of error codes.

:class:`LocalProtocolError` means this side misused the codec (sent a message out of order,
built a message with a bad field); :class:`RemoteProtocolError` means the peer sent something
the protocol forbids. Both carry an :class:`ErrorCode`, the name that travels in ``error``,
``reject`` and ``bye`` messages.
"""

from __future__ import annotations

import enum


class ErrorCode(enum.Enum):
    """Every code that can appear on the wire; the value is the wire name."""

    # Fatal: the sender of these closes the connection (they travel in ``bye``).
    BAD_VERSION = "bad_version"
    BAD_FRAME = "bad_frame"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FIELD = "bad_field"
    OUT_OF_ORDER = "out_of_order"
    BAD_SEQ = "bad_seq"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TIMEOUT = "timeout"
    SUPERSEDED = "superseded"
    SHUTTING_DOWN = "shutting_down"
    QUIT = "quit"
    INTERNAL = "internal"
    DEAL_FAILED = "deal_failed"
    # Not fatal: the connection carries on (they travel in ``error`` or ``reject``).
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_PLAY = "illegal_play"
    STALE = "stale"
    WRONG_PHASE = "wrong_phase"
    NO_SUCH_TABLE = "no_such_table"
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    BAD_PASSWORD = "bad_password"
    BAD_TOKEN = "bad_token"
    TOO_MANY_TABLES = "too_many_tables"
    CHAT_TOO_LONG = "chat_too_long"
    RATE_LIMITED = "rate_limited"
    STORAGE = "storage"
    MOVE_ID_TAKEN = "move_id_taken"

    @property
    def fatal(self) -> bool:
        """Whether this code ends the connection (it is sent in ``bye``, not ``error``)."""
        return self in FATAL_CODES


FATAL_CODES = frozenset(
    {
        ErrorCode.BAD_VERSION,
        ErrorCode.BAD_FRAME,
        ErrorCode.UNKNOWN_TYPE,
        ErrorCode.BAD_FIELD,
        ErrorCode.OUT_OF_ORDER,
        ErrorCode.BAD_SEQ,
        ErrorCode.TOO_MANY_CONNECTIONS,
        ErrorCode.TIMEOUT,
        ErrorCode.SUPERSEDED,
        ErrorCode.SHUTTING_DOWN,
        ErrorCode.QUIT,
        ErrorCode.INTERNAL,
        ErrorCode.DEAL_FAILED,
    }
)

REJECT_CODES = frozenset(
    {
        ErrorCode.NOT_YOUR_TURN,
        ErrorCode.ILLEGAL_PLAY,
        ErrorCode.STALE,
        ErrorCode.WRONG_PHASE,
        ErrorCode.RATE_LIMITED,
        ErrorCode.STORAGE,
        ErrorCode.MOVE_ID_TAKEN,
    }
)
"""The codes a ``reject`` (the answer to a refused ``play``) may carry."""


class RefusalWhy(enum.Enum):
    """Why the host refused a request, where a client does something else for it: the
    optional ``why`` of ``error`` (protocol 5, protocol.md 3.8). The value is the wire name."""

    TABLE_CLOSED_ON_RESTART = "table_closed_on_restart"
    """``no_such_table``: the host closed the table as it restarted, instead of resuming it."""
    SEAT_TAKEN_WHILE_AWAY = "seat_taken_while_away"
    """``bad_token``: a newcomer took the seat while its player was away past the limit."""


REFUSAL_WHYS = {
    RefusalWhy.TABLE_CLOSED_ON_RESTART: ErrorCode.NO_SUCH_TABLE,
    RefusalWhy.SEAT_TAKEN_WHILE_AWAY: ErrorCode.BAD_TOKEN,
}
"""The one code each ``why`` travels with."""


class ProtocolError(Exception):
    """Base of the two protocol errors; ``code`` says what went wrong in wire terms."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code.value}: {message}")


class LocalProtocolError(ProtocolError):
    """This side broke the protocol: a message sent out of order, or built with a bad field."""


class RemoteProtocolError(ProtocolError):
    """The peer broke the protocol. The connection is finished: answer with ``bye`` and close."""
