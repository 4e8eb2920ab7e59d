"""A real host's journal made to refuse writes for a while, as a full disk does (SQLite's page
limit: SQLITE_FULL), and freed again: what makes the host answer ``storage`` (protocol.md 3.6).

Shared by the tests of what a client does meanwhile (a test module may not import another,
tests/test_suite_guards.py).
"""

from __future__ import annotations

import trio
from hosting import CutOff, Through, create
from rawplayer import RawPlayer, answer, open_link

from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.wire import messages as m

ROOMY = 1073741823
"""SQLite's default ``max_page_count``: the space freed."""


async def between_writes(host: Host) -> None:
    """Wait until the journal's writer thread is idle: the test may then touch the database
    (synchronously, before the writer can start again)."""
    with trio.fail_after(5):
        while host.writer.writing:
            await trio.sleep(0.001)


async def until_the_journal_fails(host: Host) -> RawPlayer:
    """Fill the host's journal (SQLite's page limit: SQLITE_FULL, as a full disk) and make it
    write, from a player of another table chatting long lines, until a write fails. The host
    needs ``chat_lines`` room for those lines (10 000 will do)."""
    await between_writes(host)
    db = host.journal._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    lobby = await open_link(port=host.port)
    await lobby.send(create(RuleSet.of(2, 11), bots=1))
    made = await answer(lobby, (m.TableCreated, m.Error))
    assert isinstance(made, m.TableCreated), made  # (creating it fits in the pages there)
    chatter = RawPlayer(lobby, made.table.id)
    await chatter.join()
    with trio.fail_after(30):
        while host.writer.failing is None:
            await lobby.send(m.Say(text="x" * 190))
            await trio.sleep(0.02)
    return chatter


def free_the_journal(host: Host) -> None:
    """Give the journal room again (the disk freed): the host's next try saves."""
    host.journal._db.execute(f"PRAGMA max_page_count = {ROOMY}")


class FirstFrameHeld:
    """A person's network on which the first frame holding ``kind`` (the bytes of a frame
    type, as msgpack writes it) waits until ``let_go`` is set, so that the test can fill the
    host's journal meanwhile; every such frame sent is kept in ``sent``, as sent."""

    def __init__(self, port: int, kind: bytes) -> None:
        self.network = CutOff(port, wrap=lambda inner: _HeldThrough(inner, self))
        self.kind = kind
        self.held = trio.Event()
        self.let_go = trio.Event()
        self.sent: list[bytes] = []


class _HeldThrough(Through):
    def __init__(self, inner: trio.abc.Stream, watch: FirstFrameHeld) -> None:
        super().__init__(inner)
        self.watch = watch

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.watch.kind in bytes(data):
            self.watch.held.set()
            await self.watch.let_go.wait()
            self.watch.sent.append(bytes(data))
        await self.inner.send_all(data)
