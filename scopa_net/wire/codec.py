"""msgpack with tight limits: messages to payload bytes and back.

Decoding refuses, as :class:`RemoteProtocolError`: anything that is not one msgpack map
(trailing bytes included), ext types, floats where no field takes them, maps with non-string
or repeated keys, strings that are not UTF-8, containers over the size limits, nesting deeper
than :data:`MAX_DEPTH`, a ``t`` naming no message, and any field that breaks its spec.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

import msgpack

from scopa_net.wire.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from scopa_net.wire.fields import FieldError
from scopa_net.wire.framing import MAX_FRAME, frame
from scopa_net.wire.records import CATALOGUE, Message

MAX_DEPTH = 5
"""Containers inside containers: the message map is depth 1; ``tables`` reaches 5."""
MAX_ARRAY = 64
MAX_MAP = 32
MAX_STR_BYTES = 4096
MAX_BIN = 5280
"""The longest byte string: a blind table's shuffle proof (9.4); every other is 64 or less."""

_UNPACK_LIMITS: dict[str, Any] = {
    "raw": False,
    "use_list": True,
    "strict_map_key": True,
    "max_str_len": MAX_STR_BYTES,
    "max_bin_len": MAX_BIN,
    "max_array_len": MAX_ARRAY,
    "max_map_len": MAX_MAP,
    "max_ext_len": 0,
}


class _RepeatedKeyError(ValueError):
    pass


def _unique_map(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _RepeatedKeyError(f"a map repeats a key: {[k for k, _ in pairs]!r}")
    return out


def unpack_payload(payload: bytes) -> dict[str, Any]:
    """The one msgpack map in ``payload``, checked for size, keys and nesting depth."""
    if len(payload) > MAX_FRAME:
        raise RemoteProtocolError(
            ErrorCode.BAD_FRAME, f"payload of {len(payload)} bytes exceeds {MAX_FRAME}"
        )
    flat = _flat_map(payload)
    return flat if flat is not None else _unpack_checked(payload)


def msgpack_failure(e: Exception) -> str:
    """What was wrong with a payload msgpack refused, in words (some of its errors have none)."""
    if isinstance(e, msgpack.ExtraData):
        return "bytes left over after the first value"
    if isinstance(e, msgpack.FormatError):
        return "a byte that begins no msgpack value"
    if isinstance(e, msgpack.StackError):
        return "nested too deep"
    if "incomplete input" in str(e):
        return "it ends inside a value"
    if isinstance(e, UnicodeDecodeError):
        return "a piece of text holds bytes that are not UTF-8 text"
    said = str(e)
    key = re.fullmatch(r"(\w+) is not allowed for map key when strict_map_key=True", said)
    if key:
        kind = _KINDS.get(key[1], "a value of another kind")
        return f"a map key that is {kind}, where keys are always text"
    size = re.fullmatch(r"(\d+) exceeds max_(\w+)_len\((\d+)\)", said)
    if size:
        kind, unit = _SIZED.get(size[2], ("a value", "items"))
        return f"{kind} said to hold {size[1]} {unit}, over the {size[3]} allowed here"
    if said.startswith("code must be "):  # msgpack's ExtType
        return "an extension value, which scopa-net never writes"
    return said or type(e).__name__


_SIZED = MappingProxyType(
    {
        "str": ("a piece of text", "bytes"),
        "bin": ("a byte string", "bytes"),
        "array": ("a list", "items"),
        "map": ("a map", "pairs"),
        "ext": ("an extension value", "bytes"),
    }
)
"""msgpack's names of what has a length, in words, with what the length counts."""


_KINDS = MappingProxyType(
    {
        "int": "a number",
        "float": "a number",
        "bool": "true or false",
        "NoneType": "nil",
        "list": "a list",
        "dict": "a map",
        "bytes": "a byte string",
        "ExtType": "an extension value",
    }
)
"""A kind of msgpack value, by the name of the Python type msgpack reads it as."""


def _unpack_checked(payload: bytes) -> dict[str, Any]:
    """:func:`unpack_payload` the long way: every map's keys looked at as it is read."""
    try:
        obj = msgpack.unpackb(payload, object_pairs_hook=_unique_map, **_UNPACK_LIMITS)
    except (ValueError, TypeError, OverflowError, msgpack.UnpackException) as e:
        raise RemoteProtocolError(
            ErrorCode.BAD_FRAME,
            f"not one valid msgpack value: {msgpack_failure(e)} (payload {payload[:32]!r})",
        ) from None
    if type(obj) is not dict:
        raise RemoteProtocolError(ErrorCode.BAD_FRAME, f"a frame must hold a map, not {obj!r:.80}")
    check_depth(obj)
    for key in obj:
        if type(key) is not str:
            raise RemoteProtocolError(ErrorCode.BAD_FRAME, f"map key {key!r} is not a str")
    return obj


def _flat_map(payload: bytes) -> dict[str, Any] | None:
    """The map in ``payload`` when it passes every check of :func:`unpack_payload` and holds
    no container (as a move does): unpacked without a Python call per map, and its keys
    counted against the count its header gives (a repeated key leaves fewer). None for
    anything else, which :func:`unpack_payload` then unpacks and checks the long way (and
    refuses with the very error it always gave)."""
    try:
        obj = msgpack.unpackb(payload, **_UNPACK_LIMITS)
    except (ValueError, TypeError, OverflowError, msgpack.UnpackException):
        return None
    if type(obj) is not dict or len(obj) != _map_size(payload):
        return None
    for key, value in obj.items():
        if type(key) is not str or type(value) is dict or type(value) is list:
            return None
    return obj


def _map_size(payload: bytes) -> int:
    """How many pairs the map ``payload`` begins with says it holds; -1 if it is no map."""
    if not payload:
        return -1
    first = payload[0]
    if 0x80 <= first <= 0x8F:  # fixmap
        return first & 0x0F
    if first == 0xDE:  # map 16
        return int.from_bytes(payload[1:3], "big")
    if first == 0xDF:  # map 32
        return int.from_bytes(payload[1:5], "big")
    return -1


def check_depth(obj: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse containers nested deeper than ``limit`` (the outer container is depth 1)."""
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        if type(item) is dict:
            children = item.values()
        elif type(item) is list:
            children = item
        else:
            continue
        if depth > limit:
            raise RemoteProtocolError(ErrorCode.BAD_FRAME, f"containers nested deeper than {limit}")
        for child in children:
            if type(child) is dict or type(child) is list:
                stack.append((child, depth + 1))


def message_from_map(raw: dict[str, Any]) -> Message:
    """The message a decoded map describes; :class:`RemoteProtocolError` if it is not one."""
    type_name = raw.get("t")
    if type(type_name) is not str:
        raise RemoteProtocolError(
            ErrorCode.BAD_FRAME, f"message has no str `t` key: {type_name!r:.80}"
        )
    cls = CATALOGUE.get(type_name)
    if cls is None:
        raise RemoteProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {type_name!r:.40}")
    try:
        return cls.from_fields(raw)
    except FieldError as e:
        raise RemoteProtocolError(ErrorCode.BAD_FIELD, _field_problem(type_name, e)[:500]) from None


def _field_problem(type_name: str, e: FieldError) -> str:
    """What is wrong, naming the message once: ``hello: unknown 'challenge'``,
    ``deal.hand[1]: ...``, ``seat_status: name: ...`` (a field a message's own check names).
    Older hosts (those of protocol 4 among them) said the type twice (``hello: hello: ...``)."""
    named = e.path == type_name or e.path.startswith((f"{type_name}.", f"{type_name}["))
    return str(e) if named else f"{type_name}: {e}"


def decode(payload: bytes) -> Message:
    """Payload bytes (one frame without its length prefix) to a message."""
    return message_from_map(unpack_payload(payload))


PER_SEAT_EVENTS = frozenset({"deal", "seed_receipt", "snapshot"})
"""Table events whose content differs from seat to seat (never encoded twice alike)."""


def encode_payload(msg: Message) -> bytes:
    """The msgpack map for ``msg``: ``t`` first, then fields in catalogue order."""
    if not isinstance(msg, Message):
        raise LocalProtocolError(ErrorCode.UNKNOWN_TYPE, f"not a message: {msg!r}")
    return msgpack.packb(msg.to_map(), use_bin_type=True)


def encode(msg: Message) -> bytes:
    """The whole frame for ``msg``: length prefix and payload."""
    return frame(encode_payload(msg))


class SharedFrames:
    """The frames made while a table tells its seats what happened (one per flush): a table
    event that every seat's log holds as the same object is encoded for the first seat and
    its bytes reused for the others. Keyed by identity; each entry holds its message, so an
    id cannot be reused while the entry lives, and the whole goes when the flush is done.
    Messages are frozen: the same object is the same bytes."""

    __slots__ = ("_frames",)

    def __init__(self) -> None:
        self._frames: dict[int, tuple[Message, bytes]] = {}

    def encode(self, msg: Message) -> bytes:
        """:func:`encode`, made once for an event several seats share."""
        if not msg.SEQUENCED or msg.TYPE in PER_SEAT_EVENTS:
            return encode(msg)  # a reply or a seat's own event: one connection only
        kept = self._frames.get(id(msg))
        if kept is not None and kept[0] is msg:
            return kept[1]
        data = encode(msg)
        self._frames[id(msg)] = (msg, data)
        return data
