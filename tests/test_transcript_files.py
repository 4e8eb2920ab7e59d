"""Where a player's client keeps its transcripts: one file per match, never one match's file
written over another's, over loopback TCP against real hosts."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import trio
from hosting import create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.verifier import verify_transcript
from scopa_net.rules import RuleSet


async def a_match_at_table_1(db: Path, data_dir: Path, seed: int) -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(db), bot_delay=0.01)
        choice = TableChoice(create=create(RuleSet.of(2, 1), bots=1))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="ann", data_dir=data_dir
        ) as session:
            assert session.table_id == 1
            assert await play_as_bot(session, make_player("random", seed)) is not None
        nursery.cancel_scope.cancel()


async def test_a_host_started_again_on_a_new_journal_does_not_overwrite_a_transcript(
    tmp_path: Path,
) -> None:
    """The host's key lives beside its journal and outlives it: started again on a new
    journal with the same key, the host numbers its tables from 1 again, and the second
    match at "table 1" was saved over the first one's transcript (an outside host that
    numbers tables afresh at each start showed it)."""
    data_dir = tmp_path / "player"
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    await a_match_at_table_1(first / "host.db", data_dir, 1)
    shutil.copy(first / "host.key", second / "host.key")  # the key, not the journal
    await a_match_at_table_1(second / "host.db", data_dir, 2)
    files = sorted((data_dir / "transcripts").iterdir())
    assert [f.name.split("-", 1)[1] for f in files] == [
        "table1-seat0-2.scopa",
        "table1-seat0.scopa",
    ]
    transcripts = [decode_any(f.read_bytes()) for f in files]
    assert transcripts[0].host_key == transcripts[1].host_key
    assert transcripts[0].rounds[0].round_id != transcripts[1].rounds[0].round_id
    assert all(verify_transcript(t).ok for t in transcripts)


async def test_what_the_client_keeps_is_its_owner_s_only(tmp_path: Path) -> None:
    """Transcripts, the seats' names beside them and the pinned keys were 0644 in 0755
    folders (the data folder too): another user of the machine could read them."""
    data_dir = tmp_path / "share" / "scopa-net"
    old = os.umask(0o022)  # the usual umask, whatever the test runner's
    try:
        await a_match_at_table_1(tmp_path / "host.db", data_dir, 1)
    finally:
        os.umask(old)
    kept = [p for p in data_dir.rglob("*") if p.is_file()]
    assert {p.parent.name for p in kept} == {"scopa-net", "transcripts", "transcript-names"}
    assert {p: stat.S_IMODE(p.stat().st_mode) for p in kept} == dict.fromkeys(kept, 0o600)
    folders = [tmp_path / "share", data_dir, *(p for p in data_dir.rglob("*") if p.is_dir())]
    assert {p: stat.S_IMODE(p.stat().st_mode) for p in folders} == dict.fromkeys(folders, 0o700)
