"""The host under faults and hostile peers (issue 16, and issue 11 items 1 and 5).

Timing logic runs in virtual time over memory streams (the clock also follows real time, so
that a table task spinning without ever blocking fails a test instead of hanging it); the
rest talks to a real host over loopback TCP. Each test states its pass criterion.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial

import msgpack
import pytest
import trio
import trio.testing
from hosting import MakeHost, create, serve_then_close
from rawplayer import RawPlayer, answer, close_links, close_opened, memory_connector, open_link

from scopa_net.bots.levels import make_player
from scopa_net.mirror import SeatMirror
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.server.journal_writer import JournalWriter
from scopa_net.server.table import Phase
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.convert import snapshot_of
from scopa_net.wire.framing import FrameReader


@pytest.fixture(autouse=True)
def _close_links() -> Iterator[None]:
    yield
    close_opened()


@pytest.fixture
def clock() -> trio.testing.MockClock:
    """Virtual time that jumps ahead whenever every task waits, and otherwise follows real
    time: a task that never blocks cannot freeze a ``fail_after``."""
    return trio.testing.MockClock(rate=1.0, autojump_threshold=0.0)


class SlowWriter(JournalWriter):
    """A journal whose every write takes ``delay`` seconds (a slow disk's fsync)."""

    delay = 1.0

    async def append(self, table_id: int, entries: list) -> None:
        if entries:
            await trio.sleep(self.delay)
        await super().append(table_id, entries)


async def in_process_host(nursery: trio.Nursery, *, slow: bool = False, **options: object) -> Host:
    config = HostConfig(db=":memory:", advertise=False, **options)  # type: ignore[arg-type]
    host = Host(config, Journal(":memory:"))
    if slow:
        host.writer = SlowWriter(host.journal, threaded=False)
    await nursery.start(partial(serve_then_close, host, listen=False))
    return host


async def new_table(link, rules: RuleSet, bots: int = 0) -> int:
    await link.send(create(rules, bots=bots))
    made = await answer(link, (m.TableCreated,))
    assert isinstance(made, m.TableCreated)
    return made.table.id


# --- 1. a reply is never lost to a timer ---------------------------------------------------


@pytest.mark.parametrize("before_deadline", [0.5, 0.1, 0.9])
async def test_a_timer_due_during_a_journal_write_loses_no_reply(
    clock: trio.testing.MockClock, before_deadline: float
) -> None:
    """Pass: a `resume` handled just before the seed deadline, whose journal write (1 s) is
    still going when the deadline falls due, gets its `resumed`, and then the catch-up."""
    async with trio.open_nursery() as nursery:
        host = await in_process_host(nursery, slow=True, seed_timeout=10.0)
        connector = memory_connector(host, nursery)
        lobby = await open_link(connector)
        table_id = await new_table(lobby, RuleSet.of(2, 11))
        # Two players who never commit their seeds: the round waits for its deadline.
        links = [await open_link(connector) for _ in range(2)]
        tokens = []
        for link in links:
            await link.send(m.Join(table_id=table_id, seat=None, name="p", password=None))
            joined = await answer(link, (m.Joined,))
            tokens.append(joined.token)  # type: ignore[attr-defined]
            await answer(link, (m.Snapshot,))
        await answer(links[0], (m.RoundCommit,))
        task = host.tables[table_id]
        deadline = task._seed_deadline
        await trio.sleep_until(deadline - before_deadline)
        fresh = await open_link(connector)
        await fresh.send(m.Resume(table_id=table_id, seat=0, token=tokens[0], last_seq=0))
        resumed = await answer(fresh, (m.Resumed, m.Error, m.Bye), within=10)
        assert isinstance(resumed, m.Resumed), resumed
        assert trio.current_time() > deadline, "the write did not straddle the deadline"
        # The replay follows, in order (our connection checks every seq), up to the seeds
        # relayed without the ones that never came (the round goes on: no void, no re-roll).
        reveals = await answer(fresh, (m.SeedReveals,), within=10)
        assert isinstance(reveals, m.SeedReveals)
        assert reveals.excluded == ("no_commit",) * 2
        # And the other seat can leave, its `left` delivered though a round starts meanwhile.
        await links[1].send(m.Leave())
        left = await answer(links[1], (m.Left,), within=10)
        assert isinstance(left, m.Left)
        await close_links()
        nursery.cancel_scope.cancel()


async def _drop_and_resume_around_the_stand_in(offset: float, seed: int) -> None:
    """A two-seat table against a bot (grace 1 s, bot delay 0.3 s): the player drops on its
    turn and resumes ``offset`` seconds later; its next move must be answered and the table
    must play on."""
    async with trio.open_nursery() as nursery:
        host = await in_process_host(nursery, grace=1.0, bot_delay=0.3)
        connector = memory_connector(host, nursery)
        lobby = await open_link(connector)
        table_id = await new_table(lobby, RuleSet.of(2, 11), bots=1)
        player = RawPlayer(await open_link(connector), table_id)
        await player.join()
        table = host.tables[table_id].table
        chooser = make_player("random", seed)

        def my_turn() -> bool:
            return (
                table.to_act() == [(player.seat, "play")]
                and player.seq == table.seats[player.seat].seq
            )

        await player.until(my_turn)
        await player.link.aclose()
        await trio.sleep(offset)
        await player.resume(await open_link(connector))
        await trio.sleep(0.5)  # past the moment the stand-in would have moved
        for _ in range(3):  # play on for a few turns, each move answered
            await player.until(my_turn)
            assert player.mirror is not None
            play = chooser.choose(player.mirror.view)
            move_id = player.new_move_id()
            await player.link.send(
                m.Play(
                    move_id=move_id,
                    after=player.seq,
                    card=play.card.index,
                    captured=play.captured_mask,
                )
            )
            reply = await answer(player.link, (m.Ack, m.Reject), within=10)
            assert isinstance(reply, m.Ack), reply
            assert reply.move_id == move_id, reply
            if table.phase is Phase.OVER:
                break
        # A resume on a third connection is answered too.
        await player.resume(await open_link(connector))
        await close_links()
        nursery.cancel_scope.cancel()


async def test_a_resume_just_before_the_stand_in_moves_keeps_the_table_going(
    clock: trio.testing.MockClock,
) -> None:
    """Pass (issue 11 item 5): the player resumes at 1.15 s, after the stand-in took over (1 s)
    and before its move was due (1.3 s); every later move is answered."""
    await _drop_and_resume_around_the_stand_in(1.15, 1)


@pytest.mark.parametrize(
    "case", [*range(8), *(pytest.param(n, marks=pytest.mark.slow) for n in range(8, 40))]
)
async def test_resumes_at_many_timings_around_the_stand_in_never_hang_the_table(
    clock: trio.testing.MockClock, case: int
) -> None:
    """Pass: the same at a random offset from 0.6 s to 1.8 s (8 cases; 40 with --runslow)."""
    await _drop_and_resume_around_the_stand_in(random.Random(case).uniform(0.6, 1.8), case)


# --- 2. tokens -------------------------------------------------------------------------------


async def _resume_with(port: int, table_id: int, seat: int, token: bytes) -> m.Message:
    link = await open_link(port=port)
    try:
        await link.send(m.Resume(table_id=table_id, seat=seat, token=token, last_seq=0))
        return await answer(link, (m.Resumed, m.Error, m.Bye))
    finally:
        await link.aclose()


async def test_a_stolen_old_token_dies_once_its_holder_uses_a_newer_one(host: Host) -> None:
    """Pass (issue 16 item 2): join gives T1; the owner resumes with T1 (T2); someone replays
    T1 (T3); the owner's T2 still works (T4), and from then on T1 is refused; once the owner
    uses T4, the thief's T3 is refused too."""
    lobby = await open_link(port=host.port)
    table_id = await new_table(lobby, RuleSet.of(2, 11), bots=1)
    await lobby.send(m.Join(table_id=table_id, seat=None, name="ann", password=None))
    joined = await answer(lobby, (m.Joined,))
    assert isinstance(joined, m.Joined)
    seat, t1 = joined.seat, joined.token

    async def resume(token: bytes) -> m.Message:
        return await _resume_with(host.port, table_id, seat, token)

    t2 = await resume(t1)
    t3 = await resume(t1)
    assert isinstance(t2, m.Resumed)
    assert isinstance(t3, m.Resumed)
    t4 = await resume(t2.token)
    assert isinstance(t4, m.Resumed), t4
    for dead in (t1, t1):  # replayed: refused every time
        refused = await resume(dead)
        assert isinstance(refused, m.Error), refused
        assert refused.code == "bad_token", refused
    t5 = await resume(t4.token)
    assert isinstance(t5, m.Resumed)
    refused = await resume(t3.token)
    assert isinstance(refused, m.Error), refused
    assert refused.code == "bad_token", refused
    # A resume whose reply was lost: the token presented stays good until its successor
    # is used, however many times the reply is lost.
    lost = [await resume(t5.token) for _ in range(3)]
    assert all(isinstance(r, m.Resumed) for r in lost)
    assert isinstance(await resume(lost[1].token), m.Resumed)  # type: ignore[attr-defined]
    refused = await resume(t5.token)
    assert isinstance(refused, m.Error)
    assert refused.code == "bad_token"
    await lobby.aclose()
    await close_links()


# --- 3, 4. fatal frames ----------------------------------------------------------------------


async def _exchange(port: int, payload: bytes, within: float) -> list[m.Message | str]:
    """Say hello, send ``payload`` in one write, and read until the host closes; returns what
    came (after the welcome), ending with "closed" or "reset"."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    hello = encode(m.Hello(version=m.PROTOCOL_VERSION, client="hostile"))
    received = bytearray()
    end = "closed"
    try:
        with trio.fail_after(within):
            await stream.send_all(hello)
            while len(received) < 4 or len(received) < 4 + int.from_bytes(received[:4], "big"):
                received += await stream.receive_some(65536)
            await stream.send_all(payload)
            while True:
                try:
                    data = await stream.receive_some(65536)
                except trio.BrokenResourceError:
                    end = "reset"
                    break
                if not data:
                    break
                received += data
    finally:
        await trio.aclose_forcefully(stream)
    reader = FrameReader()
    reader.receive_data(bytes(received))
    out: list[m.Message | str] = []
    while isinstance(frame := reader.next_frame(), bytes):
        out.append(decode(frame))
    assert out, out
    assert isinstance(out[0], m.Welcome), out
    return [*out[1:], end]


def raw_frame(fields: dict) -> bytes:
    body = msgpack.packb(fields)
    return len(body).to_bytes(4, "big") + body


async def test_a_fatal_frame_after_a_queued_reply_still_gets_its_bye(host: Host) -> None:
    """Pass (issue 16 item 3): `list_tables` and a `ping` with nonce -1 in one write: the host
    ends with `bye bad_field` (the listing may or may not come first)."""
    payload = encode(m.ListTables()) + raw_frame({"t": "ping", "nonce": -1})
    got = await _exchange(host.port, payload, within=5)
    byes = [g for g in got if isinstance(g, m.Bye)]
    assert byes, got
    assert byes[-1].reason == "bad_field", got
    assert got[-2] is byes[-1]
    await close_links()


# --- 5. catch-up ------------------------------------------------------------------------------


async def test_a_resume_beyond_the_log_gets_stale_and_burns_no_token(host: Host) -> None:
    """Pass (issue 11 item 1): `last_seq` beyond the seat's newest event gets `error stale` on a
    connection that stays open; the same token then resumes with the next epoch."""
    lobby = await open_link(port=host.port)
    table_id = await new_table(lobby, RuleSet.of(2, 11), bots=1)
    player = RawPlayer(lobby, table_id)
    joined = await player.join()
    link = await open_link(port=host.port)
    newest = host.tables[table_id].table.seats[player.seat].seq
    await link.send(
        m.Resume(table_id=table_id, seat=player.seat, token=player.token, last_seq=newest + 1000)
    )
    refused = await answer(link, (m.Resumed, m.Error, m.Bye))
    assert isinstance(refused, m.Error), refused
    assert refused.code == "stale", refused
    assert "beyond" in refused.message
    await link.send(m.ListTables())  # still open
    assert isinstance(await answer(link, (m.Tables,)), m.Tables)
    resumed = await player.resume(link)
    assert resumed.epoch == joined.epoch + 1
    await close_links()


async def test_a_resume_far_behind_gets_a_snapshot_equal_to_replaying_the_log(
    make_host: MakeHost,
) -> None:
    """Pass (issue 16 item 5, issue 11 snapshot): with the replay limit at 5, a resume from
    seq 0 in mid-match gets `catch_up: snapshot` and one `snapshot` at the seat's newest seq,
    equal field by field to what replaying every event gives, and play goes on from it. (The
    snapshot of the present, as a host of protocol 4 sends it: ``round_start_catch_up``.)"""
    host = await make_host(replay_limit=5, round_start_catch_up=False)
    lobby = await open_link(port=host.port)
    table_id = await new_table(lobby, RuleSet.of(2, 11), bots=1)
    player = RawPlayer(lobby, table_id)
    await player.join()
    table = host.tables[table_id].table
    chooser = make_player("random", 3)

    def my_turn() -> bool:
        return (
            table.to_act() == [(player.seat, "play")] and player.seq == table.seats[player.seat].seq
        )

    for _ in range(3):  # a few moves in, so the view has plays, piles and a hand
        await player.until(my_turn)
        assert player.mirror is not None
        play = chooser.choose(player.mirror.view)
        await player.link.send(
            m.Play(
                move_id=player.new_move_id(),
                after=player.seq,
                card=play.card.index,
                captured=play.captured_mask,
            )
        )
        await answer(player.link, (m.Ack,))
    await player.until(my_turn)
    assert player.mirror is not None
    replayed = player.mirror.view
    seq = player.seq
    player.seq = 0  # as a player that lost everything
    resumed = await player.resume(await open_link(port=host.port))
    assert resumed.catch_up == "snapshot"
    snap = await player.step()
    assert isinstance(snap, m.Snapshot)
    assert snap.seq == seq
    # Beside the view, what the events said: who made each play (nobody changed seats, so
    # each seat's name), no stand-in, and the void rounds and redeal there were: none, unless
    # a deal was void for its kings, about 1 in 600 (protocol.md 3.4).
    seats = table.info().seats
    makers = tuple(seats[r.seat].name or "" for r in replayed.plays)
    voids = sum(isinstance(e, m.RoundVoid) for e in player.received)
    expected = snapshot_of(
        replayed,
        seq=seq,
        table_id=table_id,
        seats=seats,
        makers=makers,
        voids=voids,
        redeal=replayed.redeal,
    )
    assert snap == expected
    assert SeatMirror(snap).view == replayed
    move_id = player.new_move_id()
    play = chooser.choose(replayed)
    await player.link.send(
        m.Play(move_id=move_id, after=seq, card=play.card.index, captured=play.captured_mask)
    )
    ack = await answer(player.link, (m.Ack,))
    assert isinstance(ack, m.Ack)
    assert ack.move_id == move_id
    await close_links()


async def test_a_replay_longer_than_the_lag_limit_is_delivered_whole(make_host: MakeHost) -> None:
    """Pass (issue 16 item 5): with `max_lag` 10 and a replay of more events than that, the
    resumed connection gets every event and is not closed as too far behind when the table's
    next event comes."""
    host = await make_host(max_lag=10, chat_lines=1000)
    lobby = await open_link(port=host.port)
    table_id = await new_table(lobby, RuleSet.of(2, 11), bots=1)
    player = RawPlayer(lobby, table_id)
    await player.join()
    for i in range(30):
        await player.link.send(m.Say(text=f"line {i}"))
    await player.until(lambda: player.seq >= 30)
    player.seq = 1
    resumed = await player.resume(await open_link(port=host.port))
    assert resumed.catch_up == "replay"
    await player.link.send(m.Say(text="one more"))
    with trio.fail_after(5):
        while not (isinstance(msg := await player.step(), m.Chat) and msg.text == "one more"):
            assert not isinstance(msg, m.Bye), msg
    await close_links()
