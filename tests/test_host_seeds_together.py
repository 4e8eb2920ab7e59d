"""A round's seeds that reach the host together are journaled in one commit and sent in one
round of writes, not one commit each: the table's task applies the seeds waiting in its inbox
one after the other, as it would have alone, then journals and answers them at once. The round
goes on as before: every seed is on disk before anyone hears of it, each seat gets its receipt,
and the deal follows. Real host, real loopback TCP, a journal on disk (its own thread)."""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
from pathlib import Path

import trio
from hosting import create, start_host
from rawseat import RawSeat

from scopa_net.fair.commitments import seat_commitment
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


def entries_on_disk(db: Path, kind: str) -> int:
    """The journal's entries of ``kind``, as another process would read them."""
    with contextlib.closing(sqlite3.connect(db)) as reader:
        query = "SELECT count(*) FROM entries WHERE kind = ?"
        return reader.execute(query, (kind,)).fetchone()[0]


def write_at_once(seats: list[RawSeat], messages: list[m.Message]) -> None:
    """Each seat's message written to its socket, all four before the host's loop runs again
    (no await in between): they reach the host together, as a round's seeds do."""
    for raw, msg in zip(seats, messages, strict=True):
        assert isinstance(raw.stream, trio.SocketStream)
        data = raw.conn.send(msg)
        assert os.write(raw.stream.socket.fileno(), data) == len(data)


async def test_seeds_that_come_together_share_one_commit(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            db = tmp_path / "host.db"
            host = await start_host(nursery, db=str(db))
            assert host.writer.threaded  # the journal on disk, as a real host's
            seats = [await RawSeat.connect(host.port, auto_seeds=False) for _ in range(4)]
            table_id = await seats[0].create(create(RuleSet.of(4, 11)))
            for n, raw in enumerate(seats):
                await raw.join(table_id, name=f"p{n}")
            opened = [await raw.until(lambda msg: isinstance(msg, m.RoundCommit)) for raw in seats]
            round_id = opened[0].round_id  # type: ignore[attr-defined]
            seeds = {raw.seat: secrets.token_bytes(32) for raw in seats}

            commits = host.writer.commits
            write_at_once(
                seats,
                [
                    m.SeedCommit(
                        round_id=round_id,
                        commit=seat_commitment(round_id, raw.seat, seeds[raw.seat]),  # type: ignore[arg-type]
                    )
                    for raw in seats
                ],
            )
            for raw in seats:
                await raw.until(lambda msg: isinstance(msg, m.SeedCommits))
            assert entries_on_disk(db, "seed_commit") == 4  # before anyone heard of them
            assert host.writer.commits - commits == 1  # one commit each before

            commits = host.writer.commits
            write_at_once(
                seats, [m.SeedReveal(round_id=round_id, seed=seeds[raw.seat]) for raw in seats]
            )
            for raw in seats:
                receipt = await raw.until(lambda msg: isinstance(msg, m.SeedReceipt))
                assert receipt.seat == raw.seat  # type: ignore[attr-defined]
                await raw.until(lambda msg: isinstance(msg, m.Deal))
            assert entries_on_disk(db, "seed_reveal") == 4
            assert host.writer.commits - commits == 1
            for raw in seats:
                await raw.aclose()
            nursery.cancel_scope.cancel()
