"""Records: frozen, keyword-only dataclasses whose fields carry wire specs.

Declare a field with :func:`wire` and decorate the class with :func:`record` (a nested map) or
:func:`message` (a top-level message with a ``t`` key, entered in :data:`CATALOGUE`). A record
built in code is checked at once and raises :class:`LocalProtocolError`; one read from the wire
raises :class:`FieldError`, which the codec reports as the peer's fault.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from scopa_net.wire.errors import ErrorCode, LocalProtocolError
from scopa_net.wire.fields import Absent, FieldError, Nil, Spec, check_keys

R = TypeVar("R", bound="Record")


class Sender(enum.Enum):
    """Who may send a message."""

    HOST = "host"
    PLAYER = "player"
    EITHER = "either"


def wire(spec: Spec, doc: str = "", *, default: Any = MISSING) -> Any:
    """A dataclass field carrying its wire spec (and a line for protocol.md). A ``default``
    only spares Python callers from passing it: on the wire the key is always present."""
    return field(default=default, metadata={"spec": spec, "doc": doc})


class Record:
    """Base of every record and message."""

    __slots__ = ()
    SPECS: ClassVar[tuple[tuple[str, Spec], ...]] = ()
    KEYS: ClassVar[frozenset[str]] = frozenset()
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    """Keys that may be left out (:class:`~scopa_net.wire.fields.Absent` fields)."""
    WRITE_PLAN: ClassVar[tuple[tuple[str, Any, Any], ...]] = ()
    """How :meth:`to_map` writes each field (see :func:`_write_plan`)."""

    def __post_init__(self) -> None:
        try:
            for name, spec in self.SPECS:
                value = getattr(self, name)
                checked = spec.check(value, name)
                if checked is not value:
                    object.__setattr__(self, name, checked)
            self.check_fields()
        except FieldError as e:
            raise LocalProtocolError(ErrorCode.BAD_FIELD, f"{type(self).__name__}: {e}") from None

    def check_fields(self) -> None:
        """Checks across fields; override and raise :class:`FieldError`."""

    @classmethod
    def from_map(cls: type[R], raw: Any, path: str) -> R:
        check_keys(raw, cls.KEYS, path, cls.OPTIONAL)
        obj = object.__new__(cls)
        _read_fields(obj, cls.SPECS, raw, path)
        obj.check_fields()
        return obj

    def to_map(self) -> dict[str, Any]:
        return _written(self, {})


class Message(Record):
    """A top-level message: a map with ``t`` naming its type and the record's fields."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    SENDER: ClassVar[Sender]
    SEQUENCED: ClassVar[bool] = False
    """Table events sent to a seat carry a per-seat ``seq``."""
    MAP_KEYS: ClassVar[frozenset[str]] = frozenset({"t"})
    """The keys of the message's map: ``t`` and the fields'."""

    def with_seq(self: R, seq: int) -> R:
        """The same table event numbered ``seq`` (the copy another seat gets). The other
        fields were checked when this one was built; only ``seq`` is checked again."""
        if not self.SEQUENCED:
            raise LocalProtocolError(ErrorCode.BAD_FIELD, f"{self.TYPE} is not numbered")
        try:
            seq = self.SPECS[0][1].check(seq, "seq")  # seq is an event's first field
        except FieldError as e:
            raise LocalProtocolError(ErrorCode.BAD_FIELD, f"{self.TYPE}: {e}") from None
        copy = object.__new__(type(self))
        for name, _ in self.SPECS:
            object.__setattr__(copy, name, getattr(self, name))
        object.__setattr__(copy, "seq", seq)
        return copy

    def to_map(self) -> dict[str, Any]:
        return _written(self, {"t": self.TYPE})

    @classmethod
    def from_fields(cls: type[R], raw: dict[str, Any]) -> R:
        """Build from a decoded map whose ``t`` has been checked; raises :class:`FieldError`."""
        check_keys(raw, cls.MAP_KEYS, cls.TYPE, cls.OPTIONAL)
        obj = object.__new__(cls)
        _read_fields(obj, cls.SPECS, raw, cls.TYPE)
        obj.check_fields()
        return obj


_ALWAYS = object()
"""In a write plan: the field is always written (it is not an optional key)."""


def _write_plan(specs: tuple[tuple[str, Spec], ...]) -> tuple[tuple[str, Any, Any], ...]:
    """How to write each field, worked out once per class: (name, the spec's ``to_wire`` or
    None where it hands the value on as it is, the default that leaves the key out or
    :data:`_ALWAYS`), so that writing a record asks no spec what to do."""
    plan = []
    for name, spec in specs:
        skip = _ALWAYS
        if isinstance(spec, Absent):
            skip, spec = spec.default, spec.inner
        plan.append((name, None if _as_is(spec) else spec.to_wire, skip))
    return tuple(plan)


def _as_is(spec: Spec) -> bool:
    """Whether ``spec`` writes every value as it is (ints, bools, strings, bytes, nil)."""
    if isinstance(spec, Nil):
        return _as_is(spec.inner)
    return type(spec).to_wire is Spec.to_wire


def _written(record: Record, out: dict[str, Any]) -> dict[str, Any]:
    """``out`` with the (key, wire value) pairs of ``record`` added in field order, less
    the optional keys left out (those holding their default)."""
    for name, to_wire, skip in record.WRITE_PLAN:
        value = getattr(record, name)
        if skip is not _ALWAYS and value == skip:
            continue
        out[name] = value if to_wire is None else to_wire(value)
    return out


def _read_fields(obj: Record, specs: tuple[tuple[str, Spec], ...], raw: Any, path: str) -> None:
    for name, spec in specs:
        if name in raw:
            value = spec.from_wire(raw[name], f"{path}.{name}")
        else:
            assert isinstance(spec, Absent)
            value = spec.default
        object.__setattr__(obj, name, value)


CATALOGUE: dict[str, type[Message]] = {}
"""Every message type by its wire name."""


def _finish(cls: type[R]) -> type[R]:
    cls = dataclass(frozen=True, kw_only=True, slots=True)(cls)
    cls.SPECS = tuple((f.name, f.metadata["spec"]) for f in fields(cls))  # type: ignore[arg-type]
    cls.KEYS = frozenset(name for name, _ in cls.SPECS)
    cls.OPTIONAL = frozenset(name for name, spec in cls.SPECS if isinstance(spec, Absent))
    cls.WRITE_PLAN = _write_plan(cls.SPECS)
    return cls


def record(cls: type[R]) -> type[R]:
    """Make ``cls`` a record (a nested map)."""
    return _finish(cls)


def message(
    type_name: str, sender: Sender, *, sequenced: bool = False
) -> Callable[[type[R]], type[R]]:
    """Make ``cls`` a message called ``type_name`` on the wire, sent by ``sender``.

    ``sequenced`` marks a table event: it has a ``seq`` field, numbered per seat.
    """

    def wrap(cls: type[R]) -> type[R]:
        if type_name in CATALOGUE:
            raise ValueError(f"message type {type_name!r} defined twice")
        cls = _finish(cls)
        if sequenced and cls.SPECS[0][0] != "seq":
            raise ValueError(f"table event {type_name!r} must have seq as its first field")
        cls.TYPE = type_name  # type: ignore[attr-defined]
        cls.SENDER = sender  # type: ignore[attr-defined]
        cls.SEQUENCED = sequenced  # type: ignore[attr-defined]
        cls.MAP_KEYS = cls.KEYS | {"t"}  # type: ignore[attr-defined]
        CATALOGUE[type_name] = cls  # type: ignore[assignment]
        return cls

    return wrap
