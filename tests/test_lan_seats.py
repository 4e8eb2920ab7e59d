"""Seats that outlive the client, over real loopback TCP: kept on disk, taken back, rotated.

A "crash" here is the client's session cancelled where it stands (no ``leave``, nothing
flushed beyond what it already wrote); a new session then takes the seat back from disk.
"""

from __future__ import annotations

import random
import stat
from functools import partial
from pathlib import Path

import pytest
import trio
from helpers import kept_seat
from hosting import create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import (
    NetworkSession,
    SeatLostError,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import PendingMove, SeatRecord, SeatStore
from scopa_net.client.session import Message
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import SeatKind


def only_record(store: SeatStore) -> SeatRecord:
    records = store.records()
    assert len(records) == 1, records
    return records[0]


async def until(predicate, seconds: float = 20) -> None:
    with trio.fail_after(seconds):
        while not predicate():
            await trio.sleep(0.01)


async def wait_my_turn(session: NetworkSession) -> None:
    await until(lambda: session.view is not None and session.view.my_turn)


KEEPS_SEATS = {"bot_delay": 0.01, "grace": 600}
"""A host whose computer players move at once and that keeps a dropped seat ten minutes."""


def sit_down(host: Host, tmp: Path, store: SeatStore, *, target: int = 11):
    """Ada sits down at a new two-seat table to ``target`` points, with a computer player in
    the other seat; her seat is kept in ``store``."""
    choice = TableChoice(create=create(RuleSet.of(2, target), bots=1))
    return open_network_session(
        "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp, store=store
    )


def take_back(host_port: int, record: SeatRecord, store: SeatStore, tmp: Path, **kw):
    return open_network_session(
        "127.0.0.1",
        host_port,
        TableChoice(table_id=record.table_id, seat=record.seat),
        name=record.name,
        data_dir=tmp,
        store=store,
        resume_from=record,
        **kw,
    )


def test_a_record_is_private_and_written_whole(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    record = kept_seat(1)
    store.save(record)
    path = store.path(record)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.folder.stat().st_mode) == 0o700
    assert not [p for p in store.folder.iterdir() if p.name.endswith(".tmp")]
    rotated = record.with_token(b"\x02" * 16).with_token(b"\x03" * 16)
    assert rotated.tokens == ("03" * 16, "02" * 16)  # the newest, and the one before
    store.save(rotated)
    assert only_record(store).tokens == rotated.tokens
    store.delete(rotated)
    assert store.records() == []


async def test_a_crashed_client_takes_its_seat_back_with_the_same_hand(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **KEEPS_SEATS)
        async with sit_down(host, tmp_path, store, target=3) as first:
            await wait_my_turn(first)
            await first.submit(legal_plays(first.view)[0])
            await wait_my_turn(first)
            hand, seq = first.view.hand, first.mirror.seq
            # A move typed just before the crash: on disk, never answered.
            move = legal_plays(first.view)[0]
        record = only_record(store)
        assert record.seeds, "the round's seed is on disk before its commitment left"
        pending = PendingMove(424242, seq, move.card.index, move.captured_mask)
        store.save(_with_pending(record, pending))
        record = only_record(store)

        table = host.tables[record.table_id].table  # (a "no" at the end closes it at once)
        async with take_back(host.port, record, store, tmp_path) as second:
            await until(lambda: second.mirror.seq >= seq and not second._replaying)
            # The board as it stood, then the queued move applied exactly once.
            await until(lambda: any(p.play == move for p in second.view.plays if p.seat == 0))
            mine = [p for p in second.view.plays if p.seat == 0 and p.play == move]
            assert len(mine) == 1
            assert set(hand) - {move.card} == set(second.view.hand) - {move.card}
            assert second.names == ("Ada", "bot 1")
            # The seat goes on to the end of the match, every round checked.
            result = await play_as_bot(second, make_player("random", 5))
        assert result is not None
        assert second.verdict_failures == []
        assert second.rounds_verified >= 1
        assert store.records() == []  # a finished match's token is deleted
        assert 424242 in table.seats[0].moves
        nursery.cancel_scope.cancel()


def caught_up(session: NetworkSession):
    return lambda: session.view is not None and not session._replaying


def _with_pending(record: SeatRecord, move: PendingMove) -> SeatRecord:
    from dataclasses import replace

    return replace(record, pending=(move,))


async def test_a_move_answered_but_not_written_is_not_applied_twice(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **KEEPS_SEATS)
        async with sit_down(host, tmp_path, store, target=3) as first:
            await wait_my_turn(first)
            seq = first.mirror.seq
            move = legal_plays(first.view)[0]
            record = only_record(store)
            await first.submit(move)
        # The host applied it; the disk still says it was waiting for the answer.
        move_id = max(host.tables[record.table_id].table.seats[0].moves)
        store.save(
            _with_pending(
                only_record(store), PendingMove(move_id, seq, move.card.index, move.captured_mask)
            )
        )
        async with take_back(host.port, only_record(store), store, tmp_path) as second:
            await until(lambda: not second._replaying and not second._unacked)
            round_plays = [p for p in second.view.plays if p.seat == 0]
            assert round_plays.count(next(p for p in round_plays if p.play == move)) == 1
        nursery.cancel_scope.cancel()


async def test_crashes_at_random_points_of_token_rotation_always_resume(tmp_path: Path) -> None:
    """Between receiving a new token and writing it (the write is lost), and between writing
    it and the host seeing it used (the next resume is the first use): every time, the next
    client gets the seat back."""
    rng = random.Random(9)
    store = SeatStore(tmp_path)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **KEEPS_SEATS)
        async with sit_down(host, tmp_path, store) as first:
            await wait_my_turn(first)
        lost = 0
        for attempt in range(2):
            lose_the_write = rng.random() < 0.5

            class Crashing(NetworkSession):
                lose = lose_the_write

                def _keep_token(self, token: bytes, epoch: int) -> None:
                    if not self.lose:
                        super()._keep_token(token, epoch)

            record = only_record(store)
            session = Crashing(
                "127.0.0.1",
                host.port,
                TableChoice(table_id=record.table_id, seat=record.seat),
                name="Ada",
                data_dir=tmp_path,
                store=store,
                resume_from=record,
            )
            async with trio.open_nursery() as inner:
                inner.start_soon(session.run)
                await until(session.connected.is_set)
                if rng.random() < 0.5:
                    await until(caught_up(session))
                inner.cancel_scope.cancel()  # the crash
            assert session.table_id == record.table_id, attempt
            lost += lose_the_write
        assert 0 < lost < 8  # both kinds of crash happened
        assert host.tables[record.table_id].table.seats[0].kind is SeatKind.HUMAN
        # And a last, ordinary client plays on from there.
        async with take_back(host.port, only_record(store), store, tmp_path) as last:
            await until(lambda: last.view is not None and not last._replaying)
            assert last.verdict_failures == []
        nursery.cancel_scope.cancel()


async def test_after_leaving_for_good_nothing_is_kept(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **KEEPS_SEATS)
        async with sit_down(host, tmp_path, store) as first:
            await wait_my_turn(first)
            record = only_record(store)
            await first.leave(away=False)
        assert store.records() == []
        seat = host.tables[record.table_id].table.seats[0]
        assert seat.kind is SeatKind.OPEN
        assert seat.stand_in
        # The old token is dead too.
        with pytest.raises(SeatLostError, match="no longer holds seat 0"):
            async with take_back(host.port, record, store, tmp_path):
                raise AssertionError("a seat given up was taken back")
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("away", [False, True])
async def test_leaving_as_the_screen_does_when_the_session_ends_first(
    tmp_path: Path, away: bool
) -> None:
    """The game screen asks the session to leave from one task and, from another, stops
    everything the moment the session's events end, which the host's ``left`` brings about:
    the leave must still forget (or keep) the seat on disk, even when the client was slow to
    come back from sending the ``leave`` (a loaded machine) and the answer was read first."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **KEEPS_SEATS)
        for attempt in range(8):
            store = SeatStore(tmp_path / str(attempt))
            with trio.CancelScope() as screen:
                async with sit_down(host, tmp_path, store) as session:
                    await wait_my_turn(session)
                    assert len(store.records()) == 1
                    send = session._send_quietly

                    async def slow_send(msg, send=send) -> None:
                        await send(msg)
                        await trio.sleep(0.2)  # descheduled: the host's answer is read first

                    session._send_quietly = slow_send  # type: ignore[method-assign]

                    async def pump_events(session=session, screen=screen) -> None:
                        async for _ in session.events:
                            pass
                        screen.cancel()  # the session is over: the screen closes

                    async with trio.open_nursery() as tasks:
                        tasks.start_soon(pump_events)
                        tasks.start_soon(partial(session.leave, away=away))
            kept = store.records()
            assert len(kept) == (1 if away else 0), (attempt, kept)
            if away:
                assert kept[0].away
        nursery.cancel_scope.cancel()


async def test_stepping_away_keeps_the_seat_and_coming_back_hands_it_back(
    tmp_path: Path,
) -> None:
    store = SeatStore(tmp_path)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **KEEPS_SEATS)
        rules = RuleSet.of(2, 11)
        async with (
            open_network_session(
                "127.0.0.1",
                host.port,
                TableChoice(create=create(rules)),
                name="Ada",
                data_dir=tmp_path / "ada",
                store=store,
            ) as ada,
            open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=ada.table_id), name="Bruno"
            ) as bruno,
        ):
            await until(lambda: ada.view is not None)
            await ada.leave(away=True)
            texts = []
            with trio.fail_after(10):
                async for event in bruno.events:
                    if isinstance(event, Message):
                        texts.append(event.text)
                        if "stepped away" in event.text:
                            break
            assert "Ada stepped away; a computer plays for them until they are back" in texts
            record = only_record(store)
            assert record.away
            seat = host.tables[record.table_id].table.seats[0]
            assert seat.kind is SeatKind.HUMAN
            assert seat.stand_in
            assert seat.away
            async with take_back(host.port, record, store, tmp_path / "ada") as again:
                await until(lambda: again.view is not None and not again._replaying)
                assert not seat.stand_in
                assert seat.connected
                with trio.fail_after(10):
                    async for event in bruno.events:
                        if isinstance(event, Message) and "Ada is back" in event.text:
                            break
        nursery.cancel_scope.cancel()


async def test_coming_back_while_the_stand_in_was_about_to_move(tmp_path: Path) -> None:
    """The stand-in's move was due when its player came back: the table must not spin on
    that stale deadline (it did, and answered nothing more)."""
    store = SeatStore(tmp_path)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.5, grace=600)
        async with sit_down(host, tmp_path, store) as first:
            await wait_my_turn(first)
            await first.leave(away=True)  # the stand-in's move is now due in 0.5 s
        async with take_back(host.port, only_record(store), store, tmp_path) as again:
            await until(caught_up(again))
            await wait_my_turn(again)
            await trio.sleep(0.8)  # the stand-in's due time passes while it is our turn
            with trio.fail_after(5):
                await again.submit(legal_plays(again.view)[0])
                await again.leave(away=False)
        assert host.tables[again.table_id].table.seats[0].kind is SeatKind.OPEN
        nursery.cancel_scope.cancel()


async def test_a_seat_taken_back_before_the_deal_says_it_waits_for_the_deal(
    tmp_path: Path,
) -> None:
    """Taken back at a table still waiting for its players, the seat said "Back in your seat
    at table 1 (...), round 0.", then "waiting for the deal.", as if the cards were coming;
    it says for how many players the table waits, as sitting down there did."""
    store = SeatStore(tmp_path)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **KEEPS_SEATS)
        choice = TableChoice(create=create(RuleSet.of(2, 11)))  # waits for a second person
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path, store=store
        ) as first:
            await until(lambda: first.table_id is not None and store.records() != [])
        record = only_record(store)
        async with take_back(host.port, record, store, tmp_path) as again:
            with trio.fail_after(20):
                async for event in again.events:
                    if isinstance(event, Message) and event.text.startswith("Back in your seat"):
                        break
        assert event.text == (
            f"Back in your seat at table {record.table_id} (127.0.0.1:{host.port}), "
            "waiting for 1 more player: the match begins when every seat is taken."
        )
        nursery.cancel_scope.cancel()


async def test_a_seat_taken_back_from_far_behind_says_in_plain_words_what_goes_unchecked(
    tmp_path: Path,
) -> None:
    """Back after more events than the host replays (its replay limit), a seat taken back from
    disk gets the table as it stood before the latest round began, then every event since
    (protocol.md 3.4: here before round 1, Ada gone before Bruno sat down). What that leaves
    unchecked was never shown (hidden with the replayed chat), and where it was, it read "the
    host caught this seat up with a snapshot"; then "the deal of a round under way cannot be
    checked here", untrue of a round whose start the seat is sent."""
    store = SeatStore(tmp_path / "ada")
    chatty = {"chat_lines": 100, "request_burst": 100, "request_rate": 100.0}
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=600, replay_limit=5, **chatty)
        choice = TableChoice(create=create(RuleSet.of(2, 11)))
        async with sit_down_as("Ada", host, choice, tmp_path, store=store) as ada:
            table = TableChoice(table_id=ada.table_id)
        # Ada's client is gone (no leave); Bruno sits down and says more than the host
        # replays to a seat that comes back.
        async with sit_down_as("Bruno", host, table, tmp_path) as bruno:
            for n in range(30):  # the host keeps 5 to 10 events a seat (its replay limit)
                await bruno.say(f"line {n}")
            with trio.fail_after(20):
                async for event in bruno.events:
                    if isinstance(event, Message) and event.text == "line 29":
                        break
            record = only_record(store)
            async with take_back(host.port, record, store, tmp_path / "ada") as back:
                with trio.fail_after(20):
                    async for event in back.events:
                        if isinstance(event, Message) and "away too long" in event.text:
                            break
        # (Before, it read that rounds missed before the snapshot were the host's word, and
        # that no transcript was saved: round 1 is checked as at a seat that saw every event.)
        assert event.text == (
            "You were away too long for the host to send every event you missed, so it sent the "
            "table as it stood before the first deal, then what happened since: every round's "
            "deal is checked from round 1, as if you had seen every event."
        )
        nursery.cancel_scope.cancel()


async def test_a_seat_taken_back_from_before_the_round_it_missed_checks_that_round(
    tmp_path: Path,
) -> None:
    """Ada's client is gone before round 1 begins; Bruno sits down and says more than the host
    replays. Taken back from disk, her seat got the table as it stands (round 1 under way, or
    its seeds being exchanged), and her client checked nothing of round 1. Now it gets the
    table as it stood before round 1's ``round_commit``, then every event since (protocol.md
    3.4): both play the match out, and her client checks every round Bruno's does. The
    snapshot shows no round dealt, so round 1 is the match's first: each round is replayed,
    plays and score, as Bruno's are (5.10; it read "caught up mid-match: the round is not
    replayed", and before that "seat taken mid-match", as if someone else had taken it)."""
    store = SeatStore(tmp_path / "ada")
    chatty = {"chat_lines": 100, "request_burst": 100, "request_rate": 100.0}
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=600, replay_limit=5, bot_delay=0.0, **chatty)
        choice = TableChoice(create=create(RuleSet.of(2, 1)))
        async with sit_down_as("Ada", host, choice, tmp_path, store=store) as ada:
            table = TableChoice(table_id=ada.table_id)
        async with sit_down_as("Bruno", host, table, tmp_path) as bruno:
            for n in range(30):
                await bruno.say(f"line {n}")
            with trio.fail_after(20):
                async for event in bruno.events:
                    if isinstance(event, Message) and event.text == "line 29":
                        break
            async with take_back(host.port, only_record(store), store, tmp_path / "ada") as back:
                with trio.fail_after(60):
                    async with trio.open_nursery() as playing:
                        playing.start_soon(play_as_bot, back, make_player("random", 1))
                        playing.start_soon(play_as_bot, bruno, make_player("random", 2))
                assert bruno.rounds_verified >= 1
                assert back.rounds_verified == bruno.rounds_verified
                # Her deal check lines say what Bruno's say: every round replayed from round 1.
                assert back.witness is not None
                assert bruno.witness is not None
                notes = [v.note for v in back.witness.verdicts]
                assert notes, notes
                assert notes == [v.note for v in bruno.witness.verdicts]
                assert all("verified (dealer seat" in n or "void" in n for n in notes), notes
        nursery.cancel_scope.cancel()


def sit_down_as(name: str, host: Host, choice: TableChoice, tmp: Path, **kw):
    return open_network_session(
        "127.0.0.1", host.port, choice, name=name, data_dir=tmp / name.lower(), **kw
    )
