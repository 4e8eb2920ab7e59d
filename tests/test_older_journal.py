"""A host upgraded between two evenings reads the journal an older scopa-net wrote.

``data/v2-blind-host.db`` (and its key, ``data/v2-blind-host.key``) was written by scopa-net
at 8901b1c^ (protocol 2, blind rounds without shuffle proofs): Gus and Eve played a blind
two-player match to 1 point at table 1 (Eve won 4 to 1), then began another blind match at
table 2 and the host was stopped at that match's seventh play. It was made by running the old
version's in-process host (tests/hosting.py ``start_host``) with two ``open_network_session``
clients playing random moves, then ``VACUUM`` with a page size of 1024.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
import trio
from rawseat import RawSeat

from scopa_net.commands.host import resumed_line
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_FAILED
from scopa_net.server import table_task
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m

DATA = Path(__file__).parent / "data"


def v2_journal(tmp_path: Path) -> Path:
    """A copy of the old version's journal (and its key beside it), to read or to host on."""
    db = tmp_path / "host.db"
    shutil.copy(DATA / "v2-blind-host.db", db)
    shutil.copy(DATA / "v2-blind-host.key", tmp_path / "host.key")
    return db


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("table", [1, 2], ids=["finished", "in-play"])
def test_exporting_an_older_blind_table_is_one_line_saying_which_transcripts_to_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: int
) -> None:
    """It was a traceback ending in OlderJournalError, though the client tells players to
    ask for exactly this command."""
    db = v2_journal(tmp_path)
    before = digest(db)
    out = tmp_path / "t.scopa"
    args = ["history", "--db", str(db), "--export", str(table), "--seat", "0", "--out", str(out)]
    assert main(args) == EXIT_FAILED
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err == (
        f"scopa-net: cannot export table {table}: its blind rounds were journaled by an older "
        "scopa-net, before shuffles carried proofs, which this scopa-net cannot replay; each "
        "player's own transcript, saved by their client (transcripts/ in its data folder), is "
        "the one to check with `scopa-net verify`\n"
    )
    assert not out.exists()
    # Listing the matches reads the same journal: the finished match keeps its result.
    assert main(["history", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("Gus 1 - Eve 4; Eve won (2 players, target 1, variants: none)")
    assert lines[1].endswith(", in play")
    assert digest(db) == before  # read only: nothing written


async def test_a_host_upgraded_on_an_older_blind_journal_closes_its_tables_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quick upgrade (the finished match still in its minute to play again): the finished
    match became "closed unfinished: everyone had left" in history; the match in play too,
    the progress line stopped at 1/2 and the host's summary said nothing of either table;
    a resume at table 2 heard only "there is no table 2"."""
    monkeypatch.setattr(table_task, "LINGER", 10**10)  # the finished match is replayed too
    db = v2_journal(tmp_path)
    progress: list[tuple[int, int]] = []
    async with trio.open_nursery() as nursery:
        config = HostConfig(bind="127.0.0.1", port=0, advertise=False, db=str(db))
        host = Host(config, Journal(db))
        host.on_restored = lambda done, total: progress.append((done, total))
        await nursery.start(host.serve)
        assert progress == [(1, 2), (2, 2)]
        why = "begun by an older scopa-net that this one cannot go on with"
        assert resumed_line(host) == (
            f"resumed 0 tables; closed table 1 'test table': {why}; "
            f"closed table 2 'test table': {why}"
        )
        seat = await RawSeat.connect(host.port)
        await seat.send(m.Resume(table_id=2, seat=0, token=bytes(16), last_seq=9))
        refused = await seat.until(lambda msg: isinstance(msg, m.Error))
        assert isinstance(refused, m.Error)
        assert refused.code == "no_such_table"
        assert refused.message == f"the host closed table 2 as it restarted: {why}"
        assert refused.why == "table_closed_on_restart"  # protocol.md 3.8: not in the words
        await seat.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    assert main(["history", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("Gus 1 - Eve 4; Eve won (2 players, target 1, variants: none)")
    assert lines[-1].endswith(f": closed unfinished: {why}"), lines
