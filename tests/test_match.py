"""Match flow: dealer rotation, void deals, the target, ties playing on, cappotto."""

from __future__ import annotations

import random

import pytest
from helpers import shuffled_deck

from scopa_net.cards import CARDS
from scopa_net.errors import IllegalPlayError
from scopa_net.match import Match, match_winner
from scopa_net.rules import RuleSet


def play_round_randomly(match: Match, rng: random.Random) -> None:
    rnd = match.deal(shuffled_deck(rng))
    while not rnd.finished:
        plays = rnd.legal_plays()
        match.play(plays[rng.randrange(len(plays))], rnd.turn, exact=True)


def test_the_deal_passes_one_seat_to_the_right_after_each_round() -> None:
    rng = random.Random(5)
    match = Match(RuleSet(3, 99), first_dealer=2)
    dealers = []
    for _ in range(4):
        dealers.append(match.dealer)
        play_round_randomly(match, rng)
        while match.round is not None and match.round.void:
            play_round_randomly(match, rng)
    assert dealers == [2, 0, 1, 2]


def test_a_void_deal_is_dealt_again_by_the_same_dealer() -> None:
    deck = list(CARDS)
    kings = [c for c in deck if c.rank == 10][:3]
    rest = [c for c in deck if c not in kings]
    void_deck = rest[:6] + kings + rest[6:]
    match = Match(RuleSet(), first_dealer=1)
    rnd = match.deal(void_deck)
    assert rnd.void
    assert match.needs_deal
    assert match.dealer == 1
    assert match.void_deals == 1
    assert match.results == []
    rnd = match.deal(CARDS)
    assert not rnd.void
    assert rnd.dealer == 1


def test_cannot_deal_while_a_round_is_in_play() -> None:
    match = Match(RuleSet())
    match.deal(CARDS)
    with pytest.raises(ValueError, match="cannot deal now"):
        match.deal(CARDS)


def test_winner_needs_the_target_and_a_strict_lead() -> None:
    rules = RuleSet(2, 11)
    assert match_winner(rules, [11, 9]) == 0
    assert match_winner(rules, [10, 9]) is None
    assert match_winner(rules, [12, 12]) is None  # level at the top: play another round
    assert match_winner(rules, [12, 14]) == 1  # both past: the higher total wins
    three = RuleSet(3, 11)
    assert match_winner(three, [13, 13, 2]) is None
    assert match_winner(three, [13, 12, 11]) == 0


def test_cappotto_wins_at_once_with_seven_against_nothing() -> None:
    rules = RuleSet.of(2, 21, ["cappotto"])
    assert match_winner(rules, [7, 0]) == 0
    assert match_winner(rules, [7, 1]) is None
    assert match_winner(RuleSet(2, 21), [7, 0]) is None


def test_a_match_plays_to_the_end_and_scores_add_up() -> None:
    rng = random.Random(11)
    for players in (2, 3, 4, 6):
        match = Match(RuleSet(players, 11), first_dealer=0)
        while not match.over:
            play_round_randomly(match, rng)
        totals = [sum(r.totals[s] for r in match.results) for s in range(len(match.scores))]
        assert totals == match.scores
        assert match.scores[match.winner] >= 11
        assert all(
            match.scores[match.winner] > s for i, s in enumerate(match.scores) if i != match.winner
        )
        with pytest.raises(IllegalPlayError):
            match.play(CARDS[0])
        with pytest.raises(ValueError, match="cannot deal now"):
            match.deal(CARDS)


def test_copy_is_independent() -> None:
    match = Match(RuleSet())
    rnd = match.deal(CARDS)
    twin = match.copy()
    match.push_code(rnd.legal_codes()[0])
    assert twin.round is not None
    assert len(twin.round.history) == 0
    assert len(rnd.history) == 1


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_finished_rounds_view_rebuilds_every_sides_pile(players: int) -> None:
    """The score sheet counts each side's primiera suits from the view's plays and leftover
    (SeatView.captured_piles): they must give the engine's own piles, whoever looks."""
    for seed in range(10):
        rng = random.Random(seed)
        match = Match(RuleSet.of(players), first_dealer=seed % players)
        rnd = match.deal(shuffled_deck(rng))
        if rnd.void:  # three kings on the table: nothing played
            continue
        while not rnd.finished:
            match.play(rng.choice(rnd.legal_plays()), rnd.turn, exact=True)
        for seat in range(players):
            assert match.view_for(seat).captured_piles() == tuple(rnd.piles), (seed, seat)
