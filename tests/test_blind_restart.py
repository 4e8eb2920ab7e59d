"""A blind table survives its host: SIGKILL mid-match, restart on the same journal.

The host party's seed and every person's key, shuffle, shares, play and seed are journal
entries, so the restarted host rebuilds the same blind round (its party, the decks, the shares)
and the person's client, resuming with its token, carries on: every round verifies.
"""

from __future__ import annotations

import signal
import socket
import sys
from pathlib import Path

import trio

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice, list_tables
from scopa_net.fair.blind.verifier import verify_any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def start_host(db: Path, port: int, *, first: bool, log: Path) -> trio.Process:
    """``scopa-net host --blind`` on ``db`` (opening its blind table the first time)."""
    args = [sys.executable, "-m", "scopa_net", "host", "--host", "127.0.0.1", "--port", str(port)]
    args += ["--db", str(db), "--no-advertise", "--bot-delay", "0", "--log-level", "WARNING"]
    if first:
        args += ["--players", "2", "--bots", "1", "--bot-level", "easy", "--target", "4"]
        args += ["--blind"]
    with log.open("ab") as stderr:
        proc = await trio.lowlevel.open_process(args, stderr=stderr)
    with trio.fail_after(20):
        while True:
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
            except OSError:
                await trio.sleep(0.05)
                continue
            await stream.aclose()
            break
        while first and not await list_tables("127.0.0.1", port):
            await trio.sleep(0.05)
    return proc


async def test_a_blind_table_resumes_after_its_host_is_killed(tmp_path: Path) -> None:
    log = tmp_path / "host.log"
    db = tmp_path / "host.db"
    port = free_port()
    proc = await start_host(db, port, first=True, log=log)
    kills = 0
    try:
        session = NetworkSession(
            "127.0.0.1", port, TableChoice(table_id=1), name="ann", data_dir=tmp_path / "ann"
        )
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            with trio.fail_after(30):
                await session.connected.wait()

            async def killer() -> None:
                nonlocal proc, kills
                for target in (12, 40):
                    while (session.mirror.seq if session.mirror else 0) < target:
                        await trio.sleep(0.005)
                    if session.mirror and session.mirror.view.winner is not None:
                        return
                    with trio.CancelScope(shield=True):
                        proc.kill()
                        await proc.wait()
                        proc = await start_host(db, port, first=False, log=log)
                    kills += 1

            nursery.start_soon(killer)
            with trio.fail_after(150):
                result = await play_as_bot(session, make_player("greedy", 3))
            nursery.cancel_scope.cancel()
        assert result is not None
        assert kills >= 1
        assert session.verdict_failures == []
        transcript = session.witness.transcript()
        assert transcript.blind
        assert verify_any(transcript).ok
        proc.send_signal(signal.SIGTERM)
        with trio.fail_after(20):
            assert await proc.wait() == 0
    except BaseException:
        print(log.read_text(errors="replace") if log.exists() else "(no host log)")
        raise
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
