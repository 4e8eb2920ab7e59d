"""Seats kept at tables the host has since closed cost one run of `join`, not one each: each
is dropped with one line (where its transcript is), and `join` goes on to the table list."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from helpers import run_scopa_net
from hosting import create, start_host

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.commands.options import EXIT_CANCELLED
from scopa_net.rules import RuleSet
from scopa_net.server import table_task

SHORT = RuleSet.of(2, 1)


def gone(port: int, table: int, seat: int) -> str:
    """Today's words for a seat whose match is over, where its transcript is."""
    return (
        f"The host at 127.0.0.1:{port} no longer holds seat {seat} at table {table} for you (the "
        "match there is over). Its transcript is in the host's journal: whoever runs the host "
        f"can write it with `scopa-net history --export {table} --seat {seat}`, for you to check "
        "with `scopa-net verify FILE`."
    )


async def test_two_seats_kept_at_closed_tables_are_dropped_in_one_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_task, "LINGER", 0.2)
    data = tmp_path / "scopa-net"
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0, grace=0.1)
        seats = []
        for _ in range(2):  # Marco's client stopped at two tables; computers played them out
            choice = TableChoice(create=create(SHORT, bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="marco", data_dir=data, store=SeatStore(data)
            ) as marco:
                seats.append((marco.table_id, marco.seat))
        with trio.fail_after(20):
            while host.tables:
                await trio.sleep(0.05)
        await host.create_table("club", SHORT, None, 1, 1)  # a table to sit at instead
        join = ("join", f"127.0.0.1:{host.port}")
        done = await trio.to_thread.run_sync(
            lambda: run_scopa_net(*join, home=tmp_path, input="1\n")
        )
        nursery.cancel_scope.cancel()
    (first, _), (second, _) = sorted(seats, reverse=True)  # the newest is listed first
    lines = done.stdout.splitlines()
    assert lines[2].startswith("which one (1-2; Enter for a new seat): "), done.stdout
    assert lines[2:] == [
        lines[2][: len("which one (1-2; Enter for a new seat): ")] + gone(host.port, first, 0),
        f"Taking back your seat at table {second} 'test table' on 127.0.0.1:{host.port} (seat 0, "
        "as marco; your client stopped); `scopa-net join --no-resume` sits down anew instead.",
        gone(host.port, second, 0),
        lines[5],
        "table number (3; Enter to stop): ",
    ], done.stdout
    assert lines[5].startswith("table 3 'club': 2 players"), done.stdout
    assert done.stderr == "scopa-net: stopped; nothing joined\n"
    assert done.returncode == EXIT_CANCELLED
    assert SeatStore(data).records() == []
    assert not list((data / "seats").glob("*.lock"))
