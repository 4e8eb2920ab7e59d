"""Blind matches over real loopback TCP: a host, people as network sessions, computer players."""

from __future__ import annotations

import trio
from hosting import create

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


async def test_two_people_and_a_computer_play_a_blind_match(tmp_path, host: Host) -> None:
    rules = RuleSet.of(3, 5)
    results = []

    async def person(n: int, choice: TableChoice) -> None:
        async with open_network_session(
            "127.0.0.1", host.port, choice, name=f"p{n}", data_dir=tmp_path / f"p{n}"
        ) as session:
            results.append((session, await play_as_bot(session, make_player("random", n))))

    with trio.fail_after(120):
        async with open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(create=create(rules, bots=1, blind=True)),
            name="p0",
            data_dir=tmp_path / "p0",
        ) as first:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(person, 1, TableChoice(table_id=first.table_id))
                results.append((first, await play_as_bot(first, make_player("random", 0))))
    assert len(results) == 2
    for session, result in results:
        assert session.verdict_failures == []
        assert session.rounds_verified >= 1
        transcript = session.witness.transcript()
        assert transcript.blind
        assert verify_any(transcript).ok
        files = list((tmp_path / f"p{session.seat}" / "transcripts").iterdir())
        assert verify_any(decode_any(files[0].read_bytes())).ok
