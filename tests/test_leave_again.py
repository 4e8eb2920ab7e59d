"""A ``leave`` the host refuses "not now" (protocol.md 3.1: ``error storage`` while its journal
cannot be written, 3.6) leaves the seat the player's and the connection seated: our client
sends the same ``leave`` again after client/not_now.py's pauses while the person waits, for 15 s
at most, and says in one line what is true if the host still refuses then. Before, it waited
5 s for ``left``, forgot the seat on disk and ended: the host saw a dropped connection, the
others read that Ada lost the connection, and a computer played the seat she believed she had
left.

Over real loopback at a real host whose journal really refuses writes (SQLite's page limit,
as a full disk does)."""

from __future__ import annotations

from pathlib import Path

import trio
from full_journal import free_the_journal, until_the_journal_fails
from hosting import create, start_host
from person_screen import Player, sit, until
from rawplayer import close_links

from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import SeatKind

WAITS = (
    "Leaving: the host cannot save just now (its disk); your leave goes to it again by "
    "itself, for up to 15 s."
)


async def ada_and_bruno_in_play(
    nursery: trio.Nursery, tmp_path: Path
) -> tuple[Host, Player, Player]:
    """Ada and Bruno at a real host with a journal on disk, their match under way."""
    host = await start_host(nursery, db=str(tmp_path / "host.db"), chat_lines=10_000)
    ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 11)))
    await until(lambda: ada.session.table_id is not None, 10)
    bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=ada.session.table_id)
    await until(lambda: ada.controller.state.in_match and bruno.controller.state.in_match, 20)
    return host, ada, bruno


async def test_a_leave_refused_for_the_host_s_disk_goes_again_and_she_has_left(
    tmp_path: Path,
) -> None:
    """Ada leaves for good while the host cannot save: she reads that her leave goes again,
    and once the disk is freed she has left: Bruno reads "Ada left the table" (not that she
    lost the connection), her seat at the host is open and her seat on disk forgotten
    (fails before this change: her client gave up after 5 s and closed)."""
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            host, ada, bruno = await ada_and_bruno_in_play(nursery, tmp_path)
            table = host.tables[ada.session.table_id].table
            seat = ada.session.seat
            chatter = await until_the_journal_fails(host)
            await ada.type("quit")
            done = trio.Event()

            async def leave() -> None:
                await ada.type("leave")
                done.set()

            nursery.start_soon(leave)
            await until(lambda: WAITS in ada.lines, 15)
            assert not done.is_set()
            assert table.seats[seat].kind is SeatKind.HUMAN  # still hers
            free_the_journal(host)
            await until(done.is_set, 20)
            await until(lambda: "Ada left the table" in bruno.text, 10)
            assert "You have not left" not in ada.text, ada.lines
            assert table.seats[seat].kind is SeatKind.OPEN
            assert SeatStore(tmp_path / "Ada").records() == []
            assert "Ada lost the connection" not in bruno.text, bruno.lines
            assert "Ada's client was closed" not in bruno.text, bruno.lines
            await close_links()
            del chatter
            nursery.cancel_scope.cancel()


async def test_a_leave_the_host_refuses_for_15_s_says_the_seat_is_still_hers(
    tmp_path: Path,
) -> None:
    """The host cannot save the whole time: within 15 s of its first refusal Ada reads, in one
    line, that she has not left, the host refusing her leave, that her seat is still hers
    there and what becomes of it, and how to take it back and leave then; her seat on disk is
    kept for that, and as her client closes Bruno reads that it was closed (fails before this
    change: after 5 s her seat on disk was forgotten, nothing said she had not left, and her
    client said no ``bye``)."""
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            host, ada, bruno = await ada_and_bruno_in_play(nursery, tmp_path)
            table = host.tables[ada.session.table_id].table
            seat = ada.session.seat
            chatter = await until_the_journal_fails(host)
            await ada.type("quit")
            started = trio.current_time()
            said = await ada.type("leave")
            waited = trio.current_time() - started
            assert 10 < waited < 20, waited
            assert said[-1] == (
                "You have not left: the host cannot save just now (its disk), and it kept "
                "refusing your leave. Your seat is still yours there, as a closed client's (a "
                "computer plays it once its grace period is over); "
                f"`scopa-net join 127.0.0.1:{host.port}` takes it back, and `quit` there lets "
                "you leave again."
            ), said
            assert WAITS in said, said
            assert table.seats[seat].kind is SeatKind.HUMAN
            (record,) = SeatStore(tmp_path / "Ada").records()
            assert record.table_id == ada.session.table_id
            ada.scope.cancel()  # her client closes, as the game's screen does then
            free_the_journal(host)
            await until(lambda: "Ada's client was closed" in bruno.text, 15)
            assert "Ada left the table" not in bruno.text, bruno.lines
            await close_links()
            del chatter
            nursery.cancel_scope.cancel()
