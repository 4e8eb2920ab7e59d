"""A blind table survives its host: SIGKILL mid-match, restart on the same journal.

The host party's seed and every person's key, shuffle, shares, play and seed are journal
entries, so the restarted host rebuilds the same blind round (its party, the decks, the shares)
and the person's client, resuming with its token, carries on: every round verifies.
"""

from __future__ import annotations

import signal
from pathlib import Path

import trio
from helpers import free_port
from hosting import start_host_process

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice
from scopa_net.commands.main import main as cli_main
from scopa_net.fair.blind.verifier import verify_any


async def test_a_blind_table_resumes_after_its_host_is_killed(tmp_path: Path) -> None:
    log = tmp_path / "host.log"
    db = tmp_path / "host.db"
    port = free_port()
    proc = await start_host_process(db, port, first=True, log=log, extra=("--blind",))
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
                        proc = await start_host_process(db, port, first=False, log=log)
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
        # The journal exports the blind match too, and the export verifies.
        out = tmp_path / "export.scopa"
        args = ["history", "--db", str(db), "--export", "1", "--seat", "0", "--out", str(out)]
        assert cli_main(args) == 0
        assert cli_main(["verify", str(out)]) == 0
    except BaseException:
        print(log.read_text(errors="replace") if log.exists() else "(no host log)")
        raise
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
