"""An expert computer player thinks on a worker thread, and so does a hard one: the host serves
other tables meanwhile, and a table that closes stops the thought it no longer needs."""

from __future__ import annotations

import random
import threading
import time

import trio
from helpers import shuffled_deck
from hosting import MakeHost, create

from scopa_net.bots.levels import make_player
from scopa_net.bots.observed import Observed
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.match import Match
from scopa_net.rules import RuleSet
from scopa_net.server import table_task
from scopa_net.server.thinking import ThinkClock, choose_off_loop, table_player
from scopa_net.view import SeatView

EXPERT = 4  # the wire bot_level of an expert (protocol.md)


async def test_other_tables_answer_while_an_expert_thinks(make_host: MakeHost, monkeypatch) -> None:
    host = await make_host(think=20.0)  # a long thought: the test asks while it goes on
    thinking, thought = trio.Event(), trio.Event()
    real = table_task.choose_off_loop

    async def watched(player, view, clock):  # type: ignore[no-untyped-def]
        if clock is None:  # not the expert: bob's table's computer player
            return await real(player, view, clock)
        thinking.set()
        try:
            return await real(player, view, clock)
        finally:
            thought.set()

    monkeypatch.setattr(table_task, "choose_off_loop", watched)
    rules = RuleSet.of(2, 11)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:

            async def ann() -> None:
                choice = TableChoice(create=create(rules, bots=1, level=EXPERT))
                async with open_network_session(
                    "127.0.0.1", host.port, choice, name="ann"
                ) as session:
                    await play_as_bot(session, make_player("random", 1))

            nursery.start_soon(ann)
            await thinking.wait()
            # The expert at ann's table is thinking (for seconds). Another table opens, seats
            # its player and sends the snapshot long before that thought is over.
            started = trio.current_time()
            choice = TableChoice(create=create(RuleSet.of(2, 1), bots=1, level=1))
            async with open_network_session("127.0.0.1", host.port, choice, name="bob") as bob:
                seated = trio.current_time() - started
                result = await play_as_bot(bob, make_player("random", 2))  # a short match
                played = trio.current_time() - started
                assert not thought.is_set()  # all of it while the expert was still thinking
            assert result is not None
            assert bob.rounds_verified >= 1
            assert seated < 3.0
            assert played < 15.0
            nursery.cancel_scope.cancel()


def test_a_stopped_clock_ends_the_thought_at_once() -> None:
    view = _view(3)
    player, clock = table_player("expert", 1, think=30.0)
    assert isinstance(clock, ThinkClock)
    done = threading.Event()

    def think() -> None:
        player.choose(view)
        done.set()

    worker = threading.Thread(target=think)
    started = time.monotonic()
    worker.start()
    time.sleep(0.2)
    clock.stop()
    worker.join(timeout=10)
    assert done.is_set()
    assert time.monotonic() - started < 10  # not the 30 s budget


async def test_cancelling_the_wait_stops_the_worker() -> None:
    view = _view(4)
    player, clock = table_player("expert", 1, think=30.0)
    assert clock is not None
    finished = threading.Event()
    choose = player.choose

    def timed(view):  # type: ignore[no-untyped-def]
        try:
            return choose(view)
        finally:
            finished.set()

    player.choose = timed  # type: ignore[method-assign]
    with trio.move_on_after(0.3):
        await choose_off_loop(player, view, clock)
    # Abandoned by the cancelled task, the worker still stops well before its 30 s.
    assert await trio.to_thread.run_sync(finished.wait, 10)


async def _thread_of_decision(level: str) -> int:
    """The thread a table's computer player of ``level`` decides on."""
    view = _view(5)
    player, clock = table_player(level, 1, think=1.0)
    assert clock is None
    seen: list[int] = []
    choose = player.choose

    def where(view):  # type: ignore[no-untyped-def]
        seen.append(threading.get_ident())
        return choose(view)

    player.choose = where  # type: ignore[method-assign]
    play = await choose_off_loop(player, view, clock)
    assert play.code in Observed.from_view(view).legal_codes()
    assert len(seen) == 1
    return seen[0]


async def test_quick_levels_decide_on_the_loop_thread() -> None:
    for level in ("random", "greedy"):
        assert await _thread_of_decision(level) == threading.get_ident()


async def test_hard_decides_on_a_worker_thread() -> None:
    """A hard decision takes tens of milliseconds: off the loop, so other tables go on."""
    assert await _thread_of_decision("strong") != threading.get_ident()


def _view(seed: int) -> SeatView:
    """The first seat to move's view of a fresh two-player round."""
    match = Match(RuleSet.of(2), first_dealer=0)
    rnd = match.deal(shuffled_deck(random.Random(seed)))
    return match.view_for(rnd.turn)
