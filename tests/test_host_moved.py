"""A host restarted at another address (another port, the same journal and key): the seat a
person's client kept is found by the host's key, not only by the address it was taken at."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import trio
from helpers import run_scopa_net
from hosting import create, start_host

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.commands.options import EXIT_REFUSED, EXIT_USAGE
from scopa_net.rules import RuleSet


async def _seat_kept_then_host_moved(
    tmp_path: Path, nursery: trio.Nursery
) -> tuple[SeatRecord, int, int]:
    """Ada's seat at a table of a host over a journal on disk, kept by a client that went
    away without leaving; then the host stops and starts again on another port. Returns the
    seat's record, the old port and the new one."""
    db = str(tmp_path / "host.db")
    data = tmp_path / "scopa-net"
    store = SeatStore(data)
    first = await start_host(nursery, db=db, bot_delay=0.01, grace=600)
    choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
    async with open_network_session(
        "127.0.0.1", first.port, choice, name="Ada", data_dir=data, store=store
    ):
        (record,) = store.records()
    store.release(record)
    await first.shutdown()
    first.journal.close()
    again = await start_host(nursery, db=db, bot_delay=0.01, grace=600)
    assert again.port != first.port
    return record, first.port, again.port


async def test_the_same_join_at_the_host_s_new_port_takes_the_seat_back(tmp_path: Path) -> None:
    """Bea's host restarted on another port: `scopa-net join NEW --table 2 --name Bea` said
    "has no table 2 with an open seat", and `--resume` "no seat is kept for you at NEW".
    The host that answers there has the key the seat is kept for: the seat is taken back, in
    words that say the host moved, and kept at the new address from then on."""
    async with trio.open_nursery() as nursery:
        record, old, new = await _seat_kept_then_host_moved(tmp_path, nursery)
        command = ("join", f"127.0.0.1:{new}", "--table", str(record.table_id), "--name", "Ada")
        done = await trio.to_thread.run_sync(lambda: run_scopa_net(*command, home=tmp_path))
        nursery.cancel_scope.cancel()
    said = done.stdout.splitlines()
    assert said[:2] == [
        f"The host of your seat moved: it was at 127.0.0.1:{old}, and answers at "
        f"127.0.0.1:{new} now.",
        f"Taking back your seat at table {record.table_id} 'test table' on 127.0.0.1:{new} "
        "(seat 0, as Ada; your client stopped); `scopa-net join --no-resume` sits down anew "
        "instead.",
    ], done.stdout + done.stderr
    assert "open seat" not in done.stderr
    assert "Your hand" in done.stdout, done.stdout + done.stderr  # back at the table
    (kept,) = SeatStore(tmp_path / "scopa-net").records()  # kept at the new address only
    assert (kept.port, kept.table_id, kept.seat) == (new, record.table_id, 0)


async def test_resume_at_the_host_s_new_port_takes_the_seat_back(tmp_path: Path) -> None:
    async with trio.open_nursery() as nursery:
        record, old, new = await _seat_kept_then_host_moved(tmp_path, nursery)
        command = ("join", f"127.0.0.1:{new}", "--resume")
        done = await trio.to_thread.run_sync(lambda: run_scopa_net(*command, home=tmp_path))
        # Another host (another key) at an address: nothing kept for it, as before.
        other = await start_host(nursery, bot_delay=0.01)
        command = ("join", f"127.0.0.1:{other.port}", "--resume")
        refused = await trio.to_thread.run_sync(lambda: run_scopa_net(*command, home=tmp_path))
        nursery.cancel_scope.cancel()
    assert done.stdout.splitlines()[:2] == [
        f"The host of your seat moved: it was at 127.0.0.1:{old}, and answers at "
        f"127.0.0.1:{new} now.",
        f"Taking back your seat at table {record.table_id} 'test table' on 127.0.0.1:{new} "
        "(seat 0, as Ada; your client stopped).",
    ], done.stdout + done.stderr
    assert "Your hand" in done.stdout, done.stdout + done.stderr
    assert refused.returncode == EXIT_USAGE  # no host said no: the flag does not fit
    assert refused.stderr == (
        f"scopa-net: no seat is kept for you at 127.0.0.1:{other.port}; join without --resume\n"
    )


async def test_a_seat_still_played_in_another_terminal_is_said_at_the_new_address(
    tmp_path: Path,
) -> None:
    """Ada's first client still tries the old address (it holds the seat's lock) when she
    runs `join NEW` in a second terminal: it said only "no table has an open seat; wait a
    little", as if she had no seat there. It says where her seat is being played."""
    async with trio.open_nursery() as nursery:
        record, old, new = await _seat_kept_then_host_moved(tmp_path, nursery)
        first_client = SeatStore(tmp_path / "scopa-net")
        assert first_client.hold(record)
        command = ("join", f"127.0.0.1:{new}", "--name", "Ada")
        done = await trio.to_thread.run_sync(lambda: run_scopa_net(*command, home=tmp_path))
        resume = (*command, "--resume")
        refused = await trio.to_thread.run_sync(lambda: run_scopa_net(*resume, home=tmp_path))
        first_client.release(record)
        nursery.cancel_scope.cancel()
    playing = (
        f"our seat at table {record.table_id} on 127.0.0.1:{old} (seat 0, as Ada) is being "
        "played by another scopa-net on this machine"
    )
    assert done.stdout.splitlines()[0] == f"Y{playing}; not taking it from there."
    assert refused.returncode == EXIT_REFUSED
    assert refused.stderr == (
        f"scopa-net: y{playing}: play on there, or close it and run this again\n"
    )
    (kept,) = SeatStore(tmp_path / "scopa-net").records()
    assert kept.port == old  # left to the client playing it


async def test_a_seat_kept_under_another_address_of_this_machine_is_not_said_to_have_moved(
    tmp_path: Path,
) -> None:
    """Ada's seat was kept under the host machine's LAN address; on that machine she took it
    back through 127.0.0.1, the same host on the same port: she read "The host of your seat
    moved", which it had not. (127.0.0.2 stands for the LAN address: an address of this
    machine the client need not reach, the host's key saying whose it is.)"""
    async with trio.open_nursery() as nursery:
        data = tmp_path / "scopa-net"
        store = SeatStore(data)
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Ada", data_dir=data, store=store
        ):
            (record,) = store.records()
        store.release(record)
        store.delete(record)
        store.save(replace(record, host="127.0.0.2"))  # kept under the LAN address
        command = ("join", f"127.0.0.1:{host.port}", "--table", str(record.table_id))
        done = await trio.to_thread.run_sync(
            lambda: run_scopa_net(*command, "--name", "Ada", home=tmp_path)
        )
        nursery.cancel_scope.cancel()
    said = done.stdout.splitlines()
    assert said[0] == (
        f"Your seat was kept under 127.0.0.2:{host.port}, another address of this machine for "
        f"the same host; it is kept under 127.0.0.1:{host.port} from now on."
    ), done.stdout + done.stderr
    assert said[1].startswith(f"Taking back your seat at table {record.table_id} "), said
    assert "Your hand" in done.stdout, done.stdout + done.stderr
    (kept,) = SeatStore(data).records()
    assert (kept.host, kept.port) == ("127.0.0.1", host.port)
