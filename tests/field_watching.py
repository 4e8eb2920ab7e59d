"""Connections to a real host whose every frame from it goes through ``document_fields``'s
check (protocol.md 3.9, 3.10): for tests that drive our host and want each field it sends
checked as an outsider reads it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
from document_fields import FieldWatch
from hosting import Through


class Watched(Through):
    """A connection whose bytes from the host go through a :class:`FieldWatch`; after
    ``cut_after`` frames it ends (the client reconnects and resumes)."""

    def __init__(self, inner: trio.abc.Stream, watch: FieldWatch, cut_after: int | None) -> None:
        super().__init__(inner)
        self.watch, self.cut_after = watch, cut_after

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if self.cut_after is not None and sum(self.watch.seen.values()) >= self.cut_after:
            await self.inner.aclose()
            return b""
        data = await self.inner.receive_some(max_bytes)
        self.watch.feed(bytes(data))
        return data


class Watches:
    """Every watched connection of a test, and what they found."""

    def __init__(self) -> None:
        self.all: list[FieldWatch] = []

    def connector(
        self, port: int, label: str, cuts: list[int] | None = None, pause: float = 0.0
    ) -> Callable[[], Awaitable[trio.abc.Stream]]:
        """New connections to ``port``, watched; the n-th cut after ``cuts[n]`` frames (the
        next opened ``pause`` seconds later)."""
        plan = list(cuts or [])

        async def connect() -> trio.abc.Stream:
            if len(self.all) and pause:
                await trio.sleep(pause)
            watch = FieldWatch(f"{label}#{len(self.all)}")
            self.all.append(watch)
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            return Watched(stream, watch, plan.pop(0) if plan else None)

        return connect

    def raw(self, stream: trio.abc.Stream, label: str) -> Watched:
        watch = FieldWatch(label)
        self.all.append(watch)
        return Watched(stream, watch, None)

    @property
    def problems(self) -> list[str]:
        return [p for w in self.all for p in w.problems]

    @property
    def seatings(self) -> list[tuple[int, int, int]]:
        return [x for w in self.all for x in w.seatings]

    @property
    def keys(self) -> set[str]:
        return {k for w in self.all for k in w.keys}

    @property
    def catch_ups(self) -> list[str]:
        return [c for w in self.all for c in w.catch_ups]

    @property
    def seen(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for w in self.all:
            for t, n in w.seen.items():
                out[t] = out.get(t, 0) + n
        return out
