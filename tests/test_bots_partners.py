"""Partnership play: the partner's signals, and reading the other seats as greedy players."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from helpers import shuffled_deck

from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.inference import ChoiceModel, Inference
from scopa_net.bots.observed import Observed
from scopa_net.bots.reading import GreedyReading
from scopa_net.bots.sampling import World, sample_world
from scopa_net.bots.signals import SIGNAL_ODDS, PartnerSignals, signalling_lay
from scopa_net.bots.strong import _resampling_pool
from scopa_net.cards import VALUE
from scopa_net.match import Match
from scopa_net.plays import CARD_BITS, CARD_FIELD
from scopa_net.round import Round
from scopa_net.rules import RuleSet

FOUR = RuleSet.of(4)
SCOPONE = RuleSet.of(4, 11, ["scopone_scientifico"])


def position_after(rules: RuleSet, seed: int, plays: int) -> tuple[Match, Round]:
    """A match after ``plays`` random plays, and its round."""
    rng = random.Random(seed)
    match = Match(rules, 0)
    rnd = match.deal(shuffled_deck(rng))
    for _ in range(plays):
        codes = rnd.legal_codes()
        match.push_code(codes[rng.randrange(len(codes))])
    return match, rnd


def test_the_resampling_pool_follows_the_reading() -> None:
    """The pool's cumulative weights rise to the sum of the readings' weights (scaled so the
    likeliest guess weighs 1), guess by guess."""
    checked = 0
    for seed in range(10):
        match, rnd = position_after(SCOPONE, seed, 14)
        known = Observed.from_view(match.view_for(rnd.turn))
        reading = Inference(known, ChoiceModel(SCOPONE, 2.0))
        worlds, cumulative = _resampling_pool(known, reading, 30, random.Random(seed))
        weights = [reading.weight(w) for w in worlds]
        top = max(weights)
        assert cumulative[-1] == pytest.approx(sum(weights) / top)
        assert all(b >= a for a, b in pairwise(cumulative))
        checked += len(set(weights)) > 1
    assert checked >= 5


def test_a_lay_from_a_pair_is_chosen_when_about_as_good() -> None:
    """A lay's code is its card's index: 0 and 1 are aces, 25 a seven."""
    hand = [0, 1, 25]
    lays = [0, 25]  # the ace (held twice) and a lone card
    assert signalling_lay(lays, [1.0, 1.1], hand, 0.15) == 0
    assert signalling_lay(lays, [1.0, 1.3], hand, 0.15) is None  # too much worse
    assert signalling_lay(lays, [1.0, 1.1], [0, 25], 0.15) is None  # no pair held
    capture = 0 | (1 << 20) << CARD_BITS
    assert signalling_lay([capture, 25], [1.0, 1.0], hand, 0.15) is None  # captures never


def test_the_partners_lays_make_guesses_with_a_second_card_of_that_value_likelier() -> None:
    found = 0
    for seed in range(30):
        match, rnd = position_after(SCOPONE, seed, 6)
        known = Observed.from_view(match.view_for(rnd.turn))
        signals = PartnerSignals(known)
        partner = (rnd.turn + 2) % 4
        assert signals.partner == partner
        laid = [
            VALUE[code & CARD_FIELD]
            for s, code, _ in known.history
            if s == partner and not code >> CARD_BITS
        ]
        assert signals.laid == laid
        if not laid:
            continue
        found += 1
        truth = World(tuple(tuple(h) for h in rnd.hands), ())
        held = [VALUE[c] for c in rnd.hands[partner]]
        kept = sum(v in held or v in later for v, later in zip(laid, signals.later, strict=True))
        assert signals.odds(truth) == pytest.approx(SIGNAL_ODDS**kept)
    assert found >= 5


def greedy_positions(rules: RuleSet, decks: int) -> list[tuple[Observed, World]]:
    """Positions of all-greedy rounds at seat 0's turns, with the true placement."""
    found = []
    for deck_no in range(decks):
        match = Match(rules, 0)
        rnd = match.deal(shuffled_deck(random.Random(deck_no)))
        players = [GreedyPlayer(s) for s in range(rules.players)]
        while not rnd.finished:
            seat = rnd.turn
            view = match.view_for(seat)
            if seat == 0 and 8 < rnd.plays_left < 30:
                hands = tuple(tuple(sorted(h)) if s else () for s, h in enumerate(rnd.hands))
                stock = tuple(rnd.deck[40 - rnd.stock_count :])
                found.append((Observed.from_view(view), World(hands, stock)))
            match.play(players[seat].choose(view), seat, exact=True)
    return found


def test_reading_the_seats_as_greedy_players_ranks_the_truth_high() -> None:
    """When the other seats do play greedy, the true placement outweighs most uniform
    guesses: on average it beats well over half of them (0.5 would be no reading at all)."""
    rng = random.Random(1)
    cache: dict[tuple, dict[int, float]] = {}
    ranks = []
    for known, truth in greedy_positions(SCOPONE, 3):
        reading = GreedyReading(known, 2.0, cache)
        if not reading.informative:
            continue
        true_weight = reading.log_weight(truth)
        guesses = [reading.log_weight(sample_world(known, rng)) for _ in range(40)]
        ranks.append(sum(g < true_weight for g in guesses) / len(guesses))
    assert len(ranks) >= 10
    assert sum(ranks) / len(ranks) > 0.7


def test_the_kept_scores_are_the_ones_worked_out_afresh() -> None:
    rng = random.Random(2)
    kept: dict[tuple, dict[int, float]] = {}
    for known, _ in greedy_positions(FOUR, 2):
        guess = sample_world(known, rng)
        with_kept = GreedyReading(known, 2.0, kept).log_weight(guess)
        assert with_kept == pytest.approx(GreedyReading(known, 2.0, {}).log_weight(guess))
    assert kept


@pytest.mark.parametrize("rules", [FOUR, SCOPONE], ids=["four", "scopone"])
def test_a_skipped_seat_is_left_out_of_either_reading(rules: RuleSet) -> None:
    """``skip`` drops that seat's choices and only those: the other seats are read as before."""
    partner_read = 0
    for seed in range(6):
        match, rnd = position_after(rules, seed, 9)
        known = Observed.from_view(match.view_for(rnd.turn))
        partner = (known.seat + 2) % 4
        model = ChoiceModel(rules)
        for everyone, others in (
            (
                GreedyReading(known, 2.0, {}).decisions,
                GreedyReading(known, 2.0, {}, skip=partner).decisions,
            ),
            (Inference(known, model).decisions, Inference(known, model, skip=partner).decisions),
        ):
            assert [d.seat for d in others] == [d.seat for d in everyone if d.seat != partner]
            assert [d.chosen for d in others] == [d.chosen for d in everyone if d.seat != partner]
            partner_read += len(everyone) - len(others)
    assert partner_read
