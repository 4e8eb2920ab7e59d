"""The in-process session: seeded deals, computer turns, refusals, and the event stream."""

from __future__ import annotations

import random

import pytest
import trio
from helpers import deck_dealing

from scopa_net.cards import CARDS, Card
from scopa_net.client import render
from scopa_net.client.keys import make_key_bindings
from scopa_net.client.local_session import (
    LocalSession,
    RandomChooser,
    bot_levels,
    make_chooser,
    open_local_session,
)
from scopa_net.client.moves import legal_plays
from scopa_net.client.render import plain
from scopa_net.client.session import MatchOver, RoundOver, RoundStarted, ViewChanged, VoidDeal
from scopa_net.client.style import Display
from scopa_net.errors import IllegalPlayError, IllegalReason
from scopa_net.match import Match
from scopa_net.plays import Play
from scopa_net.rules import RuleSet


async def first_turn(session: LocalSession) -> None:
    async for event in session.events:
        if isinstance(event, (RoundStarted, ViewChanged)) and event.view.my_turn:
            return


async def test_a_seed_repeats_the_deal(autojump_clock: trio.abc.Clock) -> None:
    views = []
    for _ in range(2):
        async with open_local_session(RuleSet.of(2), seed=11) as session:
            await first_turn(session)
            views.append(session.view)
    assert views[0] == views[1]
    async with open_local_session(RuleSet.of(2), seed=12) as session:
        await first_turn(session)
        assert session.view != views[0]


async def test_refused_plays_change_nothing(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(RuleSet.of(3), seed=5) as session:
        await first_turn(session)
        before = session.view
        with pytest.raises(IllegalPlayError) as info:
            await session.submit(Play(before.table[0]))
        assert info.value.reason is IllegalReason.NOT_IN_HAND
        assert session.view == before


async def test_a_match_plays_to_the_end(autojump_clock: trio.abc.Clock) -> None:
    rounds = 0
    async with open_local_session(RuleSet.of(2, target=1), seed=3, level="random") as session:
        async for event in session.events:
            if isinstance(event, (RoundStarted, ViewChanged)) and event.view.my_turn:
                await session.submit(legal_plays(event.view)[-1])
            elif isinstance(event, RoundOver):
                rounds += 1
                assert event.view.round_over
                assert sum(event.match_scores) >= sum(event.view.scores)
            elif isinstance(event, MatchOver):
                assert event.rounds == rounds
                assert max(event.match_scores) >= 1
    assert session.view.winner is not None


async def test_computer_turns_wait_the_delay(autojump_clock: trio.abc.Clock) -> None:
    async with open_local_session(RuleSet.of(2), seed=1, delay=2.5) as session:
        start = trio.current_time()
        async for event in session.events:
            if isinstance(event, ViewChanged) and event.record.seat != session.seat:
                assert trio.current_time() - start >= 2.5
                break
            if isinstance(event, RoundStarted) and event.view.my_turn:
                await session.submit(legal_plays(event.view)[0])
                start = trio.current_time()


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="invalid delay: 60"):
        LocalSession(RuleSet.of(2), delay=60)
    with pytest.raises(ValueError, match="invalid seat: 4"):
        LocalSession(RuleSet.of(2), seat=4)
    with pytest.raises(ValueError, match="'genius'"):
        make_chooser("genius", 1)


def test_levels_include_random() -> None:
    assert "random" in bot_levels()


def test_the_random_chooser_plays_legally_and_its_seed_repeats_it() -> None:
    """Through whole rounds: every choice is legal, a seed repeats the choices, and where
    there is a choice to make the chooser does not always take the same option."""
    varied = 0
    for seed in range(3):
        match = Match(RuleSet.of(2), first_dealer=0)
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        rnd = match.deal(deck)
        first, again = RandomChooser(seed), RandomChooser(seed)
        while not rnd.finished:
            view = match.view_for(rnd.turn)
            options = legal_plays(view)
            play = first(view)
            assert play in options
            assert again(view) == play
            if len(options) > 1:
                varied += len({RandomChooser(n)(view) for n in range(20)}) > 1
            match.play(play, rnd.turn, exact=True)
    assert varied > 10


def test_every_key_binding_says_what_it_does() -> None:
    bindings = make_key_bindings(lambda: None).bindings
    # The mouse report is what a pasted ESC[31m reads as: typed into the line, never a crash.
    keys = {"c-c", "c-d", "c-l", "c-z", "<vt100-mouse-event>"}
    assert {b.keys[0].value for b in bindings} == keys
    for binding in bindings:
        doc = binding.handler.__doc__ or ""
        assert doc.strip()
        assert "\n" not in doc.strip()


async def test_an_expert_practice_match_is_repeatable_and_thinks_off_the_loop() -> None:
    """``play --seed N --bot-level expert``: the expert decides on a worker thread (the screen
    stays live) from a fixed amount of search, so the same seed plays the same match."""
    import threading

    from scopa_net.bots.expert import ExpertPlayer

    threads: set[int] = set()
    real = ExpertPlayer.choose

    def spy(self: ExpertPlayer, view):  # type: ignore[no-untyped-def]
        threads.add(threading.get_ident())
        return real(self, view)

    plays = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ExpertPlayer, "choose", spy)
        for _ in range(2):
            seen = []
            rules = RuleSet.of(2, target=1)
            async with open_local_session(
                rules, seed=4, level="expert", think=0.005, delay=0
            ) as session:
                async for event in session.events:
                    if isinstance(event, ViewChanged) and event.record is not None:
                        seen.append(event.record)
                    if isinstance(event, (RoundStarted, ViewChanged)) and event.view.my_turn:
                        await session.submit(legal_plays(event.view)[0])
                    elif isinstance(event, RoundOver):
                        break
            plays.append(seen)
    assert plays[0] == plays[1]
    assert plays[0]
    assert threads
    assert threading.get_ident() not in threads


async def test_the_redeal_after_a_void_deal_is_numbered_as_a_host_numbers_it_and_says_so(
    autojump_clock: trio.abc.Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After "Void deal: three kings on the table" the solo board read "Round 1  dealer bot 1"
    again, where a host's table reads round 2 (and the match's end counts the void): it now
    reads "Round 2 (round 1 dealt again)", and the round after it "Round 3"."""
    rules = RuleSet.of(2, target=1)
    tables = iter(["Kd Kh Ks 4b", "Ad"])

    def deck(self: LocalSession) -> list[Card]:
        table = next(tables, None)
        return list(CARDS) if table is None else deck_dealing(rules, self._match.dealer, {}, table)

    monkeypatch.setattr(LocalSession, "_deck", deck)
    headers: list[str] = []
    async with open_local_session(rules, seed=3, seat=1) as session:
        async for event in session.events:
            if isinstance(event, (RoundStarted, VoidDeal)):
                display = Display()
                headers.append(plain([render.board_lines(event.view, session.names, display)[0]]))
                headers.append(render.plain_board(event.view, session.names, display)[0])
            if isinstance(event, (RoundStarted, ViewChanged)) and event.view.my_turn:
                assert event.view.redeal == (event.view.round_number == 2)
                await session.submit(legal_plays(event.view)[-1])
    assert headers[0].startswith("Round 1  dealer ")
    assert headers[2].startswith("Round 2 (round 1 dealt again)  dealer ")
    assert headers[3].startswith("Round 2 (round 1 dealt again), target 1")
    assert headers[0].split("  ")[1] == headers[2].split("  ")[1]  # the same dealer
    assert all(not h.startswith("Round 3 (") for h in headers[4:])
