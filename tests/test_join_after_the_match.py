"""A seat taken back into a match that is over, after the host restarted: the match's end is
shown as it is at a normal end (the result counted from the journal, "Transcript saved: PATH"
and the command that checks it), and then the vote: the question if it is open, or why there
is no rematch if it is over; never a bare "Connection: closed"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
from helpers import run_scopa_net
from hosting import create

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot, play_matches
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import MatchOver, MatchStarted
from scopa_net.commands.history_matches import finished_matches
from scopa_net.rules import RuleSet
from scopa_net.server import table_task
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal


async def start(nursery: trio.Nursery, db: Path, port: int = 0) -> Host:
    """A host over the journal ``db`` on 127.0.0.1:``port`` (any free port for 0)."""
    config = HostConfig(
        bind="127.0.0.1", port=port, advertise=False, db=str(db), bot_delay=0, grace=0.1
    )
    host = Host(config, Journal(str(db)))
    await nursery.start(host.serve)
    return host


async def stop(host: Host, nursery: trio.Nursery) -> None:
    await host.shutdown()
    nursery.cancel_scope.cancel()


def end_lines(stdout: str, data: Path) -> tuple[list[str], Path]:
    """The lines from the transcript's to the end, and the transcript they name."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Transcript saved: "))
    saved = Path(lines[start].removeprefix("Transcript saved: "))
    assert saved.parent == data / "transcripts"
    return lines[start:], saved


async def test_a_seat_at_a_table_a_no_closed_is_dropped_in_one_line_and_join_goes_on(
    tmp_path: Path,
) -> None:
    """Nina's seat, kept from yesterday: a computer played it to the end and Bea said no to
    playing again, and the host stopped right after. Her `join` the next evening said
    "Connection: connected (back at the table)." then "Connection: closed.", status 0, nothing
    of the result. A "no" now closes the table at once, for good (a restart does not bring it
    back): the seat is dropped in one line saying where its transcript is, and `join` goes on
    to the tables."""
    db, data = tmp_path / "host.db", tmp_path / "scopa-net"
    ended: list[MatchOver] = []
    async with trio.open_nursery() as nursery:
        host = await start(nursery, db)
        port = host.port
        choice = TableChoice(create=create(RuleSet.of(2, 1)))
        sat, over = trio.Event(), trio.Event()

        async def bea(table: int) -> None:
            async with open_network_session(
                "127.0.0.1", port, TableChoice(table_id=table), name="bea", offer_rematch=True
            ) as session:
                sat.set()
                await play_matches(
                    session,
                    make_player("random", 2),
                    play_again=lambda r: False,
                    on_match=ended.append,
                )
            over.set()

        async with open_network_session(
            "127.0.0.1", port, choice, name="nina", data_dir=data, store=SeatStore(data)
        ) as nina:
            nursery.start_soon(bea, nina.table_id)
            await sat.wait()
        with trio.fail_after(30):  # a computer plays for Nina; Bea says no at the end
            await over.wait()
        await stop(host, nursery)
    host.journal.close()
    async with trio.open_nursery() as nursery:
        host = await start(nursery, db, port)  # the next evening: the table comes back
        join = ("join", f"127.0.0.1:{port}")
        done = await trio.to_thread.run_sync(lambda: run_scopa_net(*join, home=tmp_path))
        await stop(host, nursery)
    host.journal.close()
    assert done.returncode == 4, done.stdout + done.stderr
    assert ended  # Bea's match ended, and she said no
    out = " ".join(done.stdout.split())
    assert (
        f"The host at 127.0.0.1:{port} no longer holds seat 0 at table 1 for you (the match "
        "there is over). Its transcript is in the host's journal: whoever runs the host can "
        "write it with `scopa-net history --export 1 --seat 0`" in out
    ), done.stdout
    assert "Back in your seat" not in out
    assert done.stderr.strip() == (
        f"scopa-net: no table has an open seat; wait a little and run `scopa-net join "
        f"127.0.0.1:{port}` again (a seat opens when someone leaves or a table is opened), or "
        f"open one with: scopa-net join --create 127.0.0.1:{port}"
    )


async def test_a_seat_taken_back_at_play_again_after_a_host_restart_reads_the_real_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Marco's seat in a rematch (match 2), played out by a computer; the host restarted in
    the vote's minute. The tester read "bot 1 wins the match, 2 to 2" (the journal: 3 to 6):
    the score the client says is the match's, and its transcript is said and verifies."""
    monkeypatch.setattr(table_task, "LINGER", 30.0)
    db, data = tmp_path / "host.db", tmp_path / "scopa-net"
    async with trio.open_nursery() as nursery:
        host = await start(nursery, db)
        port = host.port
        choice = TableChoice(create=create(RuleSet.of(2, 4), bots=1))
        async with open_network_session(
            "127.0.0.1",
            port,
            choice,
            name="marco",
            data_dir=data,
            store=SeatStore(data),
            offer_rematch=True,
        ) as marco:
            table = marco.table_id
            await play_as_bot(marco, make_player("random", 2))
            await marco.rematch(True)
            with trio.fail_after(10):
                while not isinstance(await marco.events.receive(), MatchStarted):
                    pass
        task = host.tables[table]
        with trio.fail_after(30):  # a computer plays match 2 for Marco to its end
            while task._over_time is None:
                await trio.sleep(0.05)
        await stop(host, nursery)
    host.journal.close()
    journal = Journal(str(db))
    try:
        (record,) = journal.tables()
        said = finished_matches(record)[1]  # match 2, as `scopa-net history` says it
    finally:
        journal.close()
    found = re.search(r"marco: (\d+) - bot 1: (\d+); (marco|bot 1) won", said)
    assert found, said
    mine, theirs = int(found[1]), int(found[2])
    async with trio.open_nursery() as nursery:
        host = await start(nursery, db, port)  # restarted in the vote's time
        join = ("join", f"127.0.0.1:{port}")
        done = await trio.to_thread.run_sync(
            lambda: run_scopa_net(*join, home=tmp_path, input="n\n")
        )
        await stop(host, nursery)
    host.journal.close()
    assert done.returncode == 0, done.stderr
    lines, saved = end_lines(done.stdout, data)
    who = "You win" if found[3] == "marco" else "bot 1 wins"
    high, low = max(mine, theirs), min(mine, theirs)
    assert lines[:3] == [
        f"Transcript saved: {saved}",
        "Check it any time with:",
        f"scopa-net verify {saved}",
    ]
    assert lines[3].startswith(f"{who} the match, {high} to {low}, after "), done.stdout
    assert lines[4].startswith("Play again with the same players?"), done.stdout
    assert saved.name.endswith("-match2.scopa")
    checked = run_scopa_net("verify", str(saved), home=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
