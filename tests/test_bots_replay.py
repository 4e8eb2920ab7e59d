"""The replay reading: each other seat's choice replayed with a guessed hand, as greedy plays."""

from __future__ import annotations

import math
import random

import pytest

from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.observed import Observed
from scopa_net.bots.replay import ReplayReading
from scopa_net.bots.sampling import World, sample_world
from scopa_net.cards import BIT, CARDS
from scopa_net.match import Match
from scopa_net.rules import RuleSet

#: Sharp enough that a play scored below the best has no chance left worth the name.
SHARP = 1000.0


def greedy_rounds(players: int, rounds: int):
    """Each decision of ``rounds`` rounds of greedy players: (seat's view, the true round)."""
    rules = RuleSet.of(players)
    for n in range(rounds):
        rng = random.Random(n)
        deck = list(CARDS)
        rng.shuffle(deck)
        seats = [GreedyPlayer(rng.getrandbits(32)) for _ in range(players)]
        match = Match(rules, rng.randrange(players))
        rnd = match.deal(deck)
        while not rnd.finished:
            view = match.view_for(rnd.turn)
            yield view, rnd
            match.play(seats[rnd.turn].choose(view), rnd.turn, exact=True)


@pytest.mark.parametrize("players", [2, 4])
def test_a_greedy_players_true_hand_is_never_ruled_out(players: int) -> None:
    """The replay scores a hand's plays exactly as the greedy player does, from its own view
    then: so the play it made is always among its hand's best (a share of a tie at worst:
    of at most six plays, a card taking any of a few equal groups)."""
    read = 0
    for view, rnd in greedy_rounds(players, 12):
        known = Observed.from_view(view)
        reading = ReplayReading(known, SHARP, 0.0)
        for choice in reading.choices:
            hand = choice.known
            for c in rnd.hands[choice.seat]:
                hand |= BIT[c]
            assert reading.log_chance(choice, hand) >= math.log(1 / 6) - 1e-9
            read += 1
    assert read > 100 * players


def test_the_replay_rules_out_hands_a_greedy_player_would_not_have_played_so() -> None:
    """Sharp and without a floor, a good share of uniform guesses become (nearly) impossible,
    while the true hands keep their weight: the reading narrows the guesses."""
    ruled_out = tried = 0
    rng = random.Random(5)
    for view, rnd in greedy_rounds(2, 8):
        known = Observed.from_view(view)
        reading = ReplayReading(known, SHARP, 0.0)
        if not reading.informative:
            continue
        truth = World(
            tuple(() if s == known.seat else tuple(h) for s, h in enumerate(rnd.hands)), ()
        )
        assert reading.log_weight(truth) > -5
        for _ in range(20):
            ruled_out += reading.log_weight(sample_world(known, rng)) < -50
            tried += 1
    assert tried > 200
    assert 0.1 < ruled_out / tried < 0.9


def test_the_floor_keeps_every_hand_possible() -> None:
    """With a floor, a seat that played against the model never rules a hand out."""
    rng = random.Random(7)
    for view, _ in greedy_rounds(2, 3):
        known = Observed.from_view(view)
        reading = ReplayReading(known, SHARP, 0.1)
        for _ in range(10):
            weight = reading.log_weight(sample_world(known, rng))
            assert weight >= len(reading.choices) * math.log(0.1 / 12)


def test_nothing_to_read_at_the_first_play_of_a_deal() -> None:
    view, _ = next(greedy_rounds(2, 1))
    assert not ReplayReading(Observed.from_view(view)).informative
