"""The scopa-net wire protocol, sans-IO: framing, codec, message catalogue, connections.

Nothing here does I/O or reads a clock; the trio host and the terminal client drive a
:class:`HostConnection` or :class:`PlayerConnection` with the bytes they read and write.
"""

from scopa_net.wire.codec import decode, encode
from scopa_net.wire.connection import (
    NEED_DATA,
    ConnectionClosed,
    HostConnection,
    PlayerConnection,
    Role,
    State,
)
from scopa_net.wire.errors import (
    ErrorCode,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from scopa_net.wire.framing import MAX_FRAME
from scopa_net.wire.messages import PROTOCOL_VERSION
from scopa_net.wire.records import CATALOGUE, Message

__all__ = [
    "CATALOGUE",
    "MAX_FRAME",
    "NEED_DATA",
    "PROTOCOL_VERSION",
    "ConnectionClosed",
    "ErrorCode",
    "HostConnection",
    "LocalProtocolError",
    "Message",
    "PlayerConnection",
    "ProtocolError",
    "RemoteProtocolError",
    "Role",
    "State",
    "decode",
    "encode",
]
