"""A seat kept on disk is taken back only from a client that stopped, never from one still
playing in another terminal of the same person on the same machine.

Found by hand: with Ada playing in one terminal, ``scopa-net join HOST --table N`` in a second
one said "Taking back your seat ... (your client stopped)", and the host handed it her seat,
throwing the first terminal out ("this seat resumed elsewhere"). A playing client now holds
its seat's lock, which the system lets go of however the client ends.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from argparse import Namespace
from pathlib import Path

import pytest
import trio
from helpers import kept_seat, run_scopa_net
from hosting import create, start_host

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.commands.join_kept import kept_seats
from scopa_net.commands.options import EXIT_REFUSED
from scopa_net.rules import RuleSet

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="advisory locks are POSIX here")

RECORD = kept_seat(7311)


def test_a_seat_held_by_a_live_process_is_in_use_until_that_process_dies(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    store.save(RECORD)
    assert not store.in_use(RECORD)  # kept, nobody playing it
    holder = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from scopa_net.client.seat_store import SeatRecord, SeatStore
        store = SeatStore(Path({str(tmp_path)!r}))
        record = store.records()[0]
        print(store.hold(record), flush=True)
        time.sleep(60)
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True
    ) as proc:
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "True"
            assert store.in_use(RECORD)
            assert not store.hold(RECORD)
        finally:
            proc.send_signal(signal.SIGKILL)  # as a crash ends it: no clean-up of its own
            proc.wait(timeout=10)
    assert not store.in_use(RECORD)
    assert store.hold(RECORD)
    assert store.hold(RECORD)  # holding it again is a no-op
    assert not store.in_use(RECORD)  # not in use by another: this store holds it
    assert SeatStore(tmp_path).in_use(RECORD)  # another store (another client) sees it held
    store.release(RECORD)
    assert not SeatStore(tmp_path).in_use(RECORD)


def test_forgetting_a_held_seat_lets_go_of_its_lock_and_leaves_no_file(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    store.save(RECORD)
    assert store.hold(RECORD)
    store.delete(RECORD)
    assert sorted(p.name for p in store.folder.iterdir()) == []
    another = SeatStore(tmp_path)
    assert another.hold(RECORD)
    another.release(RECORD)
    # A seat forgotten by a client that did not hold it (play --lan opening a new table over
    # the seats of one that crashed) leaves no lock file either.
    another.save(RECORD)
    SeatStore(tmp_path).delete(RECORD)
    assert sorted(p.name for p in store.folder.iterdir()) == []


def join_args(**given: object) -> Namespace:
    args = {"no_resume": False, "create": False, "resume": False, "table": None}
    return Namespace(**{**args, **given})


async def test_a_second_terminal_does_not_take_the_seat_of_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "scopa-net"
    first_store = SeatStore(data)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Ada", data_dir=data, store=first_store
        ):
            (record,) = first_store.records()
            address = ("127.0.0.1", host.port)
            where = f"127.0.0.1:{host.port}"
            # The second terminal: a client of its own, with the same person's folder.
            second = SeatStore(data)
            assert kept_seats(second, join_args(), address) == []
            assert capsys.readouterr().out == (
                f"Your seat at table {record.table_id} on {where} (seat 0, as Ada) is being "
                "played by another scopa-net on this machine; not taking it from there.\n"
            )
            done = await trio.to_thread.run_sync(
                lambda: run_scopa_net("join", where, "--resume", home=tmp_path)
            )
            assert done.returncode == EXIT_REFUSED
            assert done.stdout == ""
            assert done.stderr == (
                f"scopa-net: your seat at table {record.table_id} on {where} (seat 0, as Ada) "
                "is being played by another scopa-net on this machine: play on there, or close "
                "it and run this again\n"
            )
            assert host.tables[record.table_id].table.seats[0].connected
        # The first client is gone without leaving (as a closed terminal): its seat is kept,
        # and now free to take back.
        assert [r.key for r in kept_seats(second, join_args(resume=True), address)] == [record.key]
        assert capsys.readouterr().out == ""
        nursery.cancel_scope.cancel()
