"""Our client and bots against a host written from protocol.md and RULES.md alone
(``document_host``: it imports nothing of ours), over loopback TCP: a whole match whose every
round checks and whose transcript verifies, a drop mid-round resumed by token, and a host that
deals a card it did not commit to, which our client refuses by name."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from app_driver import playing, run_app
from document_host import DocumentHost
from document_referee import Table

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.commands.main import main
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


@asynccontextmanager
async def a_document_host(target: int, **options: object) -> AsyncIterator[DocumentHost]:
    """The outsider host, with one 2-player table to ``target`` already open (table 1)."""
    async with trio.open_nursery() as nursery:
        host = DocumentHost(**options)
        await host.start(nursery)
        host.open_table(Table(2, target, frozenset()))
        yield host
        nursery.cancel_scope.cancel()


async def our_bot(host: DocumentHost, seed: int = 3) -> None:
    """One of our computer players, sent by our bots code over a real client, in seat 1."""
    async with open_network_session(
        "127.0.0.1", host.port, TableChoice(table_id=1, seat=1), name="Bruno"
    ) as session:
        await play_as_bot(session, make_player("greedy", seed))


def a_person_against_our_bot(
    data_dir: Path, target: int, **options: object
) -> tuple[int, str, DocumentHost]:
    """Our whole client app, in seat 0, plays a match against our bot; status, screen, host."""
    hosts: list[DocumentHost] = []

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with a_document_host(target, **options) as host, trio.open_nursery() as bots:
            hosts.append(host)
            bots.start_soon(our_bot, host)
            choice = TableChoice(table_id=1, seat=0)
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=data_dir
            ) as session:
                yield session
            bots.cancel_scope.cancel()

    status, text, _ = run_app(RuleSet.of(2, target), playing(), opener=opener, plain=True)
    return status, text, hosts[0]


def test_our_client_plays_a_whole_match_and_its_transcript_verifies(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text, host = a_person_against_our_bot(data_home, target=6)
    assert status == 0, text
    assert "DEAL CHECK FAILED" not in text
    table = host.tables[1]
    assert table.over
    assert table.round_no >= 1
    checks = [line.strip() for line in text.splitlines() if "Deal check" in line]
    assert len(checks) == table.round_no, text  # one line a round, each verified
    assert all(line.startswith("Deal check: verified (dealer ") for line in checks), checks
    (saved,) = (data_home / "transcripts").iterdir()
    capsys.readouterr()
    assert main(["verify", "--pin", fingerprint(host.key), str(saved)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("VERIFIED"), out
    rounds = [line for line in out.splitlines() if line.startswith("round ")]
    assert len(rounds) == table.round_no, out
    assert all(": verified" in line for line in rounds), out
