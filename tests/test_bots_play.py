"""Every level plays only legal moves, at every table size and in the variants."""

from __future__ import annotations

import random

import pytest
from helpers import shuffled_deck

from scopa_net.bots.greedy import GreedyPlayer, GreedyPolicy
from scopa_net.bots.observed import NotMyTurnError, Observed
from scopa_net.bots.random_player import RandomPlayer
from scopa_net.bots.strong import StrongPlayer
from scopa_net.cards import CARDS
from scopa_net.match import Match
from scopa_net.rules import RuleSet

TABLES = [
    (2, ()),
    (3, ()),
    (4, ()),
    (6, ()),
    (6, ("six_as_three_pairs",)),
    (4, ("scopone",)),
    (4, ("scopone_scientifico", "asso_piglia_tutto", "napola")),
    (2, ("asso_piglia_tutto",)),
    (2, ("quindici", "re_bello")),
    (3, ("quindici",)),
    (2, ("napola", "primiera=sum", "court_prime=0")),
]

LEVELS = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "strong": lambda seed: StrongPlayer(seed, playouts=16),
}


def play_rounds(rules: RuleSet, make, seed: int, rounds: int) -> Match:
    """Play ``rounds`` rounds with one player per seat, checking each play as the host would."""
    rng = random.Random(seed)
    match = Match(rules, rng.randrange(rules.players))
    players = [make(seed * 10 + s) for s in range(rules.players)]
    while not match.over and len(match.results) < rounds:
        deck = shuffled_deck(rng)
        rnd = match.deal(deck)
        while not rnd.finished:
            seat = rnd.turn
            legal = rnd.legal_plays()
            play = players[seat].choose(match.view_for(seat))
            assert play in legal
            match.play(play, seat, exact=True)
    return match


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("players", "variants"), TABLES)
@pytest.mark.parametrize("level", ["random", "greedy"])
def test_cheap_levels_play_legally(
    level: str, players: int, variants: tuple[str, ...], seed: int
) -> None:
    rules = RuleSet.of(players, 11, variants)
    match = play_rounds(rules, LEVELS[level], seed, rounds=3)
    assert match.results


@pytest.mark.parametrize(("players", "variants"), TABLES)
def test_the_greedy_policy_scores_as_the_greedy_player(
    players: int, variants: tuple[str, ...]
) -> None:
    """GreedyPolicy, reading a round, picks a play the greedy player scores best from the
    seat's view (the searches model a seat as greedy with it)."""
    rules = RuleSet.of(players, 11, variants)
    greedy = GreedyPlayer()
    policy = GreedyPolicy(rules)
    rng = random.Random(players)
    checked = 0
    for _ in range(3):
        match = Match(rules, rng.randrange(rules.players))
        rnd = match.deal(shuffled_deck(rng))
        while not rnd.finished:
            view = match.view_for(rnd.turn)
            known = Observed.from_view(view)
            codes = known.legal_codes()
            scores = [greedy.score(known, code) for code in codes]
            picked = policy.pick(rnd, codes)
            assert scores[codes.index(picked)] == pytest.approx(max(scores))
            checked += len(codes) > 1
            match.play(greedy.choose(view), rnd.turn, exact=True)
    assert checked


@pytest.mark.parametrize(("players", "variants"), TABLES)
def test_strong_plays_legally(players: int, variants: tuple[str, ...]) -> None:
    rules = RuleSet.of(players, 11, variants)
    match = play_rounds(rules, LEVELS["strong"], players, rounds=1)
    assert match.results


def test_a_player_refuses_a_view_where_it_is_not_to_move() -> None:
    match = Match(RuleSet(), 0)
    match.deal(CARDS)
    with pytest.raises(NotMyTurnError, match="seat 0"):
        GreedyPlayer().choose(match.view_for(0))


def test_strong_refuses_a_budget_of_nothing() -> None:
    with pytest.raises(ValueError, match="playouts"):
        StrongPlayer(playouts=0)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_seed_fixes_every_choice(level: str) -> None:
    rules = RuleSet.of(2, 11)
    # One whole round: every choice of it, two dozen a seat, is compared.
    first = play_rounds(rules, LEVELS[level], 7, rounds=1)
    again = play_rounds(rules, LEVELS[level], 7, rounds=1)
    assert [r.totals for r in first.results] == [r.totals for r in again.results]
    assert first.round is not None
    assert again.round is not None
    assert first.round.history == again.round.history


def test_random_level_uses_its_seed() -> None:
    rules = RuleSet.of(2, 11)
    histories = {
        tuple(play_rounds(rules, lambda s, k=k: RandomPlayer(s + k), 1, 1).round.history)
        for k in range(4)
    }
    assert len(histories) > 1
