"""A host process killed with SIGKILL at random points and restarted on the same database.

Pass: the table resumes at its last committed entry every time, the client resumes with the
token it holds, the match finishes with every round verified, the journal agrees with what the
client saw, and a final SIGTERM shuts the host down cleanly (exit 0).
"""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest
import trio
from helpers import free_port
from hosting import create, start_host_process

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice, list_tables
from scopa_net.fair.verifier import verify_transcript
from scopa_net.rules import RuleSet
from scopa_net.server.journal import Journal


@pytest.mark.parametrize("seed", [0, 1])
async def test_host_killed_and_restarted_resumes_every_table(seed: int, tmp_path: Path) -> None:
    await _kill_and_resume(seed, kills=2, tmp_path=tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 12))
async def test_host_killed_many_times(seed: int, tmp_path: Path) -> None:
    await _kill_and_resume(seed, kills=6, tmp_path=tmp_path)


async def _kill_and_resume(seed: int, kills: int, tmp_path: Path) -> None:
    """Run the scenario; on failure, print what the host processes wrote to stderr."""
    log = tmp_path / "host-stderr.log"
    try:
        await _scenario(seed, kills, tmp_path, log)
    except BaseException:
        text = log.read_text(errors="replace") if log.exists() else "(none)"
        print(f"--- stderr of the host processes ({log}) ---\n{text}")
        raise


async def _scenario(seed: int, kills: int, tmp_path: Path, log: Path) -> None:
    rng = random.Random(seed)
    db = tmp_path / "host.db"
    port = free_port()
    proc = await start_host_process(db, port, first=True, log=log)
    restarts = 0
    try:
        session = NetworkSession("127.0.0.1", port, TableChoice(table_id=1), name="ann")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            with trio.fail_after(30):
                await session.connected.wait()

            async def killer() -> None:
                nonlocal proc, restarts
                for _ in range(kills):
                    start = session.mirror.seq if session.mirror else 0
                    target = start + rng.randint(2, 25)
                    while (session.mirror.seq if session.mirror else 0) < target:
                        await trio.sleep(0.005)
                    if session.mirror and session.mirror.view.winner is not None:
                        return  # the match is over: nothing left to interrupt
                    # A kill and its restart happen together, even if the match ends meanwhile.
                    with trio.CancelScope(shield=True):
                        proc.kill()  # SIGKILL: no goodbye, no flush
                        await proc.wait()
                        proc = await start_host_process(db, port, first=False, log=log)
                    restarts += 1

            nursery.start_soon(killer)
            with trio.fail_after(120):
                result = await play_as_bot(session, make_player("greedy", seed))
            nursery.cancel_scope.cancel()
        assert result is not None
        assert restarts >= 1
        assert session.verdict_failures == []
        transcript = session.witness.transcript()
        assert verify_transcript(transcript).ok
        proc.send_signal(signal.SIGTERM)
        with trio.fail_after(20):
            code = await proc.wait()
        assert code == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    journal = Journal(db)
    finished = journal.tables(finished=True)
    assert [t.table_id for t in finished] == ["1"]
    assert finished[0].summary["scores"] == list(result.match_scores)
    journal.close()


async def test_a_killed_host_restores_every_table(tmp_path: Path) -> None:
    """Pass: after a SIGKILL and a restart, three tables of different sizes and options, each
    with a match under way, go on: each player resumes and finishes a verified match; a fourth
    table, waiting for a player, is listed as before."""
    log = tmp_path / "host-stderr.log"
    db = tmp_path / "host.db"
    port = free_port()
    tables = [
        create(RuleSet.of(2, 1), bots=1),
        create(RuleSet.of(3, 1), bots=2, password="pw"),
        create(RuleSet.of(4, 1, ["scopone"]), bots=3),
    ]
    proc = await start_host_process(db, port, first=False, log=log)
    try:
        sessions = [
            NetworkSession("127.0.0.1", port, TableChoice(create=t, password=t.password), name=n)
            for t, n in zip(tables, ("ann", "bea", "cid"), strict=True)
        ]
        results: list[object] = []
        listed: dict[str, tuple] = {}
        waiting = create(RuleSet.of(3, 5), bots=1, password="pw")
        waiter = NetworkSession(
            "127.0.0.1", port, TableChoice(create=waiting, password="pw"), name="dee"
        )

        async def play(session: NetworkSession, seed: int) -> None:
            results.append(await play_as_bot(session, make_player("greedy", seed)))

        async def kill_once() -> None:
            nonlocal proc
            # Every match is under way (a few events in), then the host dies.
            while not all(s.mirror and s.mirror.seq >= 4 for s in sessions):
                await trio.sleep(0.005)
            listed["before"] = await list_tables("127.0.0.1", port)
            with trio.CancelScope(shield=True):
                proc.kill()
                await proc.wait()
                proc = await start_host_process(db, port, first=False, log=log)
            listed["after"] = await list_tables("127.0.0.1", port)

        with trio.fail_after(150):
            async with trio.open_nursery() as nursery:
                for session in [*sessions, waiter]:
                    nursery.start_soon(session.run)
                    await session.connected.wait()
                nursery.start_soon(kill_once)
                async with trio.open_nursery() as players:
                    for seed, session in enumerate(sessions):
                        players.start_soon(play, session, seed)
                nursery.cancel_scope.cancel()
        # Only the waiting table has an open seat, so only it is listed, before and after.
        assert [t.id for t in listed["before"]] == [waiter.table_id]
        assert [(t.id, t.name, t.rules, t.password, t.bot_level) for t in listed["after"]] == [
            (t.id, t.name, t.rules, t.password, t.bot_level) for t in listed["before"]
        ]
        assert [[(s.kind, s.name) for s in t.seats] for t in listed["after"]] == [
            [(s.kind, s.name) for s in t.seats] for t in listed["before"]
        ]
        kinds = sorted(s.kind for s in listed["before"][0].seats)
        assert kinds == ["bot", "human", "open"]
        assert not listed["before"][0].started
        assert len(results) == 3
        assert None not in results
        for session in sessions:
            assert session.verdict_failures == []
            assert verify_transcript(session.witness.transcript()).ok
    except BaseException:
        print(f"--- stderr of the host processes ---\n{log.read_text(errors='replace')}")
        raise
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
