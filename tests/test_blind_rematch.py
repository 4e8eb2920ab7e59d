"""A seat taken back from disk after a rematch at a blind table, in virtual time.

Real host, real client sessions with seat stores over memory streams, trio's autojump clock.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
import trio
import trio.testing
from blind_people import People, Plug, play_one_card_then_hang
from hosting import start_memory_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    DealCheckFailedError,
    NetworkSession,
    TableChoice,
)
from scopa_net.client.session import Message
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.rules import RuleSet
from scopa_net.server.table import Phase, SeatKind

NAMES = ("Ada", "Bruno", "Carla")


async def new_match(session: NetworkSession) -> None:
    """Agree to play again and wait until everyone has."""
    await session.rematch(True)
    async for event in session.events:
        if isinstance(event, Message) and "a new match begins" in event.text:
            return
    raise AssertionError("the session ended before the rematch")


async def test_a_seat_taken_back_after_a_rematch_keeps_its_round_seeds(
    autojump_clock: trio.testing.MockClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ada, Bruno and Carla at a 3-player blind table to 1 point play a match and all agree
        to play again. In round 1 of match 2 (or its redeal after a deal void for its kings, about
    1 in 600), once Carla has played a card, her client is killed
        (``kill -9``); she runs it again and takes her seat back from disk. Her client must pick
        up match 2 where it stands, with the seed it kept for the round in play, and play on to
        the end with every deal verified. Before the fix the client taken back started from the
        table's first event: the host replayed match 1 (whose seeds the rematch had dropped from
        the record), its match end forgot the record and the replayed rematch emptied its seeds,
        so Carla's client made up a new seed and stopped with DEAL CHECK FAILED ("bad key: this
        party's own key was relayed altered") against an honest host."""
    rules = RuleSet.of(3, 1)
    people = People(tmp_path, NAMES)
    said = people.record_what_each_is_told(monkeypatch)

    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery, grace=60.0)
        plug = Plug(net)
        carla_played = trio.Event()
        carla_scope = trio.CancelScope()

        async def two_matches(session: NetworkSession, name: str) -> None:
            """Two matches, the second to its end (then the session ends)."""
            player = make_player("random", len(name))
            assert await play_as_bot(session, player) is not None
            await new_match(session)
            await play_as_bot(session, player)

        run = people.runner(net.connect, two_matches)

        async def person(name: str, choice: TableChoice) -> None:
            await run(name, choice, offer_rematch=True)

        async def carla_until_killed() -> None:
            """Match 1, the rematch, one card of match 2; then nothing until killed."""
            with carla_scope:
                choice = TableChoice(table_id=table_id)
                async with people.session(
                    "Carla", choice, plug.connect, offer_rematch=True
                ) as session:
                    people.sessions["Carla"] = session
                    player = make_player("random", 5)
                    assert await play_as_bot(session, player) is not None
                    await new_match(session)
                    await play_one_card_then_hang(session, player, carla_played)

        table_id = await people.ada_opens(nursery, person, rules)
        table = host.tables[table_id].table
        nursery.start_soon(person, "Bruno", TableChoice(table_id=table_id))
        nursery.start_soon(carla_until_killed)

        # Round 1 of match 2, Carla has played, and the table waits on someone.
        with trio.fail_after(3600):
            await carla_played.wait()
            while table.phase is not Phase.PLAY:
                await trio.sleep(0.01)
        assert table.match_no == 2
        assert table.blind_round is not None
        # Round 1 (or its redeal, after a deal void for its kings: about 1 in 600).
        played_in = table.blind_round.round_no
        assert played_in == 1 + sum(
            r.void is not None and r.void.reason == "kings" for r in table.blind_history
        )
        assert not people.failed, "\n".join(exc.banner for exc in people.failed.values())
        carla_scope.cancel()  # kill -9
        await plug.pull()

        # Carla runs her client again: her seat (and match 2's round seeds) kept on disk.
        (record,) = people.stores["Carla"].records()
        assert len(record.seeds) == played_in
        carla_done = trio.Event()

        async def carla_again() -> None:
            try:
                choice = TableChoice(table_id=record.table_id, seat=record.seat)
                async with people.session(
                    "Carla", choice, net.connect, resume_from=record
                ) as session:
                    people.sessions["Carla"] = session
                    await play_as_bot(session, make_player("random", 5))
            except DealCheckFailedError as exc:
                people.failed["Carla"] = exc
            finally:
                carla_done.set()

        nursery.start_soon(carla_again)
        with trio.fail_after(3600 * 4):
            for name in ("Ada", "Bruno"):
                await people.done[name].wait()
            await carla_done.wait()
        nursery.cancel_scope.cancel()

    assert not people.failed, "\n".join(exc.banner for exc in people.failed.values())
    carla = people.sessions["Carla"]
    assert carla.match_no == 2
    assert any(t.startswith("Back in your seat") for t in said["Carla"]), said["Carla"]
    for name in NAMES:
        session = people.sessions[name]
        assert session.verdict_failures == [], (name, session.verdict_failures)
        transcript = session.witness.transcript()  # type: ignore[union-attr]
        assert transcript.result.winner is not None, name
        verdict = verify_any(transcript)
        assert verdict.ok, (name, verdict.lines())
    # Carla's file for match 2 is saved beside match 1's, both whole.
    files = sorted(p.name for p in (tmp_path / "Carla" / "transcripts").glob("*.scopa"))
    assert len(files) == 2, files
    assert files[0].endswith("-match2.scopa"), files


async def test_a_seat_first_taken_in_a_later_match_is_taken_back_in_that_match(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Ada, Bruno and Carla play a blind match to 3 points and all agree to play again. In
    match 2 Bruno gives his seat up for good and Dora sits down in it, mid-match; her client
    is killed and she takes her seat back from disk. Her client must take it up where she sat
    down, and play to the end with no failed check. Before the fix her seat file said
    match_seq 0: the host replayed the whole table from match 1, whose blind rounds had
    Bruno's party in her seat, and her client (making up a seed of its own for them) stopped
    with DEAL CHECK FAILED against an honest host."""
    rules = RuleSet.of(3, 3)
    names = ("Ada", "Bruno", "Carla", "Dora")
    people = People(tmp_path, names)
    rematched = {name: trio.Event() for name in names}

    async def plays(session: NetworkSession, name: str) -> None:
        player = make_player("random", len(name))
        if name == "Dora":  # sits down mid-match 2 and plays it out
            await play_as_bot(session, player)
            return
        assert await play_as_bot(session, player) is not None
        await new_match(session)
        rematched[name].set()
        if name == "Bruno":
            await session.leave()
            return
        await play_as_bot(session, player)

    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery, grace=60.0)
        person = people.runner(net.connect, plays)
        table_id = await people.ada_opens(nursery, person, rules, offer_rematch=True)
        table = host.tables[table_id].table
        for name in ("Bruno", "Carla"):
            choice = TableChoice(table_id=table_id)
            nursery.start_soon(partial(person, name, choice, offer_rematch=True))
        with trio.fail_after(3600):
            await rematched["Bruno"].wait()
            seat = people.sessions["Bruno"].seat
            while table.seats[seat].kind is not SeatKind.OPEN:
                await trio.sleep(0)
        assert table.phase is not Phase.OVER
        assert table.match_no == 2
        assert not people.failed, "\n".join(exc.banner for exc in people.failed.values())

        # Dora sits down in Bruno's seat; her client is killed at once.
        plug = Plug(net)
        dora_scope = trio.CancelScope()

        async def dora_until_killed() -> None:
            with dora_scope:
                await person("Dora", TableChoice(table_id=table_id, seat=seat), plug.connect)

        nursery.start_soon(dora_until_killed)
        with trio.fail_after(600):
            while not people.stores["Dora"].records():
                await trio.sleep(0)
        dora_scope.cancel()  # kill -9
        await plug.pull()
        people.take_back(nursery, person, "Dora")
        with trio.fail_after(3600 * 4):
            for name in ("Ada", "Carla", "Dora"):
                await people.done[name].wait()
        nursery.cancel_scope.cancel()

    assert not people.failed, "\n".join(exc.banner for exc in people.failed.values())
    for name in ("Ada", "Carla", "Dora"):
        assert people.sessions[name].verdict_failures == [], (
            name,
            people.sessions[name].verdict_failures,
        )
    assert table.match_no == 2
