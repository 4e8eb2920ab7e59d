"""Field specifications: what each message field may hold, checked both ways.

A spec checks a value a program built (``check``), reads a value decoded from msgpack
(``from_wire``, which also turns nested maps into records) and writes a value for msgpack
(``to_wire``). Every failure is a :class:`FieldError` naming the field and quoting the value;
the record layer turns it into a local or a remote protocol error depending on who is at fault.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Protocol

from scopa_net.text_limits import CONTROL_CHARACTERS


class FieldError(ValueError):
    """A field value that breaks its spec; ``path`` names the field (``deal.hand[2].salt``)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


class Spec:
    """Base spec: values travel as they are (ints, bools, strings, bytes)."""

    def check(self, value: Any, path: str) -> Any:
        raise NotImplementedError

    def from_wire(self, raw: Any, path: str) -> Any:
        return self.check(raw, path)

    def to_wire(self, value: Any) -> Any:
        return value

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Spec):
    lo: int
    hi: int

    def check(self, value: Any, path: str) -> Any:
        if type(value) is not int:
            raise FieldError(path, f"expected an int, got {value!r}")
        if not self.lo <= value <= self.hi:
            raise FieldError(path, f"{value!r} is outside {self.lo}..{self.hi}")
        return value

    def describe(self) -> str:
        return f"int {self.lo}..{self.hi}"


@dataclass(frozen=True)
class Bool(Spec):
    def check(self, value: Any, path: str) -> Any:
        if type(value) is not bool:
            raise FieldError(path, f"expected true or false, got {value!r}")
        return value

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True)
class Str(Spec):
    """UTF-8 text of ``lo..hi`` code points, with no control characters."""

    lo: int
    hi: int

    def check(self, value: Any, path: str) -> Any:
        if type(value) is not str:
            raise FieldError(path, f"expected a str, got {value!r}")
        if not self.lo <= len(value) <= self.hi:
            raise FieldError(path, f"{value!r} is not {self.lo}..{self.hi} characters long")
        if CONTROL_CHARACTERS.search(value):
            raise FieldError(path, f"{value!r} contains a control character")
        return value

    def describe(self) -> str:
        return f"str {self.lo}..{self.hi}"


@dataclass(frozen=True)
class Choice(Spec):
    """One of a fixed set of strings."""

    values: tuple[str, ...]

    def check(self, value: Any, path: str) -> Any:
        if type(value) is not str or value not in self.values:
            raise FieldError(path, f"{value!r} is not one of {', '.join(self.values)}")
        return value

    def describe(self) -> str:
        return "str, one of " + ", ".join(f"`{v}`" for v in self.values)


@dataclass(frozen=True)
class Bin(Spec):
    lo: int
    hi: int

    def check(self, value: Any, path: str) -> Any:
        if type(value) is not bytes:
            raise FieldError(path, f"expected bin, got {value!r}")
        if not self.lo <= len(value) <= self.hi:
            want = str(self.lo) if self.lo == self.hi else f"{self.lo}..{self.hi}"
            raise FieldError(path, f"{value!r} is {len(value)} bytes, not {want}")
        return value

    def describe(self) -> str:
        return f"bin {self.lo}" if self.lo == self.hi else f"bin {self.lo}..{self.hi}"


@dataclass(frozen=True)
class Nil(Spec):
    """The inner spec, or nil (``None``)."""

    inner: Spec

    def check(self, value: Any, path: str) -> Any:
        return None if value is None else self.inner.check(value, path)

    def from_wire(self, raw: Any, path: str) -> Any:
        return None if raw is None else self.inner.from_wire(raw, path)

    def to_wire(self, value: Any) -> Any:
        return None if value is None else self.inner.to_wire(value)

    def describe(self) -> str:
        return f"{self.inner.describe()} or nil"


@dataclass(frozen=True)
class Absent(Spec):
    """An optional key: the inner spec, or the key left out, which reads as ``default``.

    A value equal to ``default`` is never written, so a message that does not use the field is
    byte for byte the message it was before the field existed (blind tables, protocol.md 9)."""

    inner: Spec
    default: Any

    def check(self, value: Any, path: str) -> Any:
        return value if value == self.default else self.inner.check(value, path)

    def from_wire(self, raw: Any, path: str) -> Any:
        if raw == self.default and type(raw) is type(self.default):
            raise FieldError(path, f"{raw!r} is written by leaving the key out")
        return self.inner.from_wire(raw, path)

    def to_wire(self, value: Any) -> Any:
        return self.inner.to_wire(value)

    def describe(self) -> str:
        return f"{self.inner.describe()}; key left out when {_shown(self.default)}"


def _shown(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return {None: "nil", False: "false", True: "true"}[value]
    return "empty" if value == () else repr(value)  # 0 is 0, not false


@dataclass(frozen=True)
class Array(Spec):
    """An array of ``lo..hi`` items; a tuple in Python. ``unique`` refuses repeated items."""

    item: Spec
    lo: int
    hi: int
    unique: bool = False

    def check(self, value: Any, path: str) -> Any:
        if type(value) not in (tuple, list):
            raise FieldError(path, f"expected an array, got {value!r}")
        items = tuple(self.item.check(v, f"{path}[{i}]") for i, v in enumerate(value))
        return self._sized(items, path)

    def from_wire(self, raw: Any, path: str) -> Any:
        if type(raw) is not list:
            raise FieldError(path, f"expected an array, got {raw!r}")
        items = tuple(self.item.from_wire(v, f"{path}[{i}]") for i, v in enumerate(raw))
        return self._sized(items, path)

    def to_wire(self, value: Any) -> Any:
        return [self.item.to_wire(v) for v in value]

    def _sized(self, items: tuple[Any, ...], path: str) -> tuple[Any, ...]:
        if not self.lo <= len(items) <= self.hi:
            raise FieldError(path, f"{len(items)} items, not {self.lo}..{self.hi}")
        if self.unique and len(set(items)) != len(items):
            raise FieldError(path, f"repeated items in {items!r}")
        return items

    def describe(self) -> str:
        size = str(self.lo) if self.lo == self.hi else f"{self.lo}..{self.hi}"
        extra = ", no repeats" if self.unique else ""
        return f"array of {size} ({self.item.describe()}{extra})"


class RecordClass(Protocol):
    """What :class:`Nested` needs of a record class (every ``records.Record`` is one); named
    here so that fields need not import records, which is built on fields."""

    __name__: str

    def from_map(self, raw: Any, path: str) -> Any: ...


@dataclass(frozen=True)
class Nested(Spec):
    """A map holding one record (such as a dealt card or a rule set)."""

    record: RecordClass

    def check(self, value: Any, path: str) -> Any:
        if type(value) is not self.record:
            raise FieldError(path, f"expected a {self.record.__name__}, got {value!r}")
        return value

    def from_wire(self, raw: Any, path: str) -> Any:
        return self.record.from_map(raw, path)

    def to_wire(self, value: Any) -> Any:
        return value.to_map()

    def describe(self) -> str:
        return f"map `{self.record.__name__}`"


def check_keys(
    raw: Any, expected: Collection[str], path: str, optional: Collection[str] = ()
) -> None:
    """``raw`` must be a map whose keys are exactly ``expected``, less any of ``optional``."""
    if type(raw) is not dict:
        raise FieldError(path, f"expected a map, got {raw!r}")
    if raw.keys() != expected and not (
        raw.keys() <= set(expected) and set(expected) - raw.keys() <= set(optional)
    ):
        missing = sorted(set(expected) - raw.keys() - set(optional))
        extra = sorted(repr(k) for k in raw.keys() - set(expected))
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("unknown " + ", ".join(extra))
        raise FieldError(path, "; ".join(parts))
