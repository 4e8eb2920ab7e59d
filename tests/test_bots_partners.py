"""The partnership search: the partner plays the policy, opponents are searched or modelled."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from helpers import shuffled_deck
from hypothesis import given, settings
from hypothesis import strategies as st
from twins import twin_matches

from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.inference import ChoiceModel, Inference
from scopa_net.bots.lookahead import LAST_DEAL, DealSearch
from scopa_net.bots.observed import Observed
from scopa_net.bots.partners import PartnerSearch
from scopa_net.bots.reading import GreedyReading
from scopa_net.bots.sampling import World, sample_world
from scopa_net.bots.search import Playouts
from scopa_net.bots.signals import SIGNAL_ODDS, PartnerSignals, signalling_lay
from scopa_net.bots.strong import StrongPlayer, _resampling_pool
from scopa_net.cards import VALUE
from scopa_net.match import Match
from scopa_net.plays import CARD_BITS, CARD_FIELD
from scopa_net.round import Round
from scopa_net.rules import RuleSet

FOUR = RuleSet.of(4)
SCOPONE = RuleSet.of(4, 11, ["scopone_scientifico"])


def position_after(rules: RuleSet, seed: int, plays: int) -> Round:
    rng = random.Random(seed)
    match = Match(rules, 0)
    rnd = match.deal(shuffled_deck(rng))
    for _ in range(plays):
        codes = rnd.legal_codes()
        match.push_code(codes[rng.randrange(len(codes))])
    return rnd


def test_two_pairs_only() -> None:
    with pytest.raises(ValueError, match="two pairs"):
        PartnerSearch(RuleSet.of(2))
    with pytest.raises(ValueError, match="opponents"):
        PartnerSearch(FOUR, opponents="random")


@pytest.mark.parametrize("rules", [FOUR, SCOPONE], ids=["four", "scopone"])
@pytest.mark.parametrize("seed", range(3))
def test_with_every_other_seat_modelled_the_search_follows_the_policy(
    rules: RuleSet, seed: int
) -> None:
    """Opponents and partner all playing the policy, three plies after the candidate are the
    policy's plays, and the value is the leaf's there."""
    rnd = position_after(rules, seed, 4)
    search = PartnerSearch(rules, opponents="policy")
    policy = Playouts(rules)
    rnd.push_code(rnd.legal_codes()[0])
    side = rules.side_of(rnd.history[-1][0])
    expected = rnd.copy()
    for _ in range(3):
        expected.push_code(policy.pick(expected, expected.legal_codes()))
    leaf = search.leaf.value(expected, 12345)
    got = search.value(rnd.copy(), side, 12345, LAST_DEAL, 3)
    assert got == pytest.approx(leaf if side == 0 else -leaf)


@pytest.mark.parametrize("seed", range(3))
def test_the_partner_modelled_searches_fewer_nodes_than_the_deal_search(seed: int) -> None:
    """Same position and depth: one partner ply of many is one branch."""
    rnd = position_after(SCOPONE, seed, 4)
    rnd.push_code(rnd.legal_codes()[0])
    side = SCOPONE.side_of(rnd.history[-1][0])
    deal, partner = DealSearch(SCOPONE), PartnerSearch(SCOPONE)
    deal.value(rnd.copy(), side, 7, LAST_DEAL, 3)
    partner.value(rnd.copy(), side, 7, LAST_DEAL, 3)
    assert 0 < partner.nodes < deal.nodes


def test_searched_opponents_are_feared_more_than_modelled_ones() -> None:
    """The opponents' best answers are no better for the searcher than the policy's."""
    for seed in range(4):
        rnd = position_after(FOUR, seed, 2)
        rnd.push_code(rnd.legal_codes()[0])
        side = FOUR.side_of(rnd.history[-1][0])
        searched = PartnerSearch(FOUR).value(rnd.copy(), side, 3, LAST_DEAL, 6)
        modelled = PartnerSearch(FOUR, opponents="policy").value(rnd.copy(), side, 3, LAST_DEAL, 6)
        assert searched <= modelled + 1e-9


PARTNER_SETTINGS = [
    {"partners": "search"},
    {"partners": "policy"},
    {"pool": 40, "sharpness": 2.0},
    {"greedy_margin": 0.3},
    {"signals": True},
    {"endgame_plays": 11},
    {"greedy_reading": True, "sharpness": 4.0},
]


@settings(max_examples=12, deadline=None)
@given(
    rules=st.sampled_from([FOUR, SCOPONE]),
    seed=st.integers(0, 10**6),
    plays=st.integers(0, 30),
)
def test_the_partnership_settings_see_only_the_view(rules: RuleSet, seed: int, plays: int) -> None:
    """No peeking, for every setting of this module's methods: twins that differ only in
    hidden cards get the same choice."""
    twins = twin_matches(rules, seed, plays)
    if twins is None:
        return
    one, two = twins
    assert one.round is not None
    seat = one.round.turn
    view, twin_view = one.view_for(seat), two.view_for(seat)
    assert view == twin_view
    for extra in PARTNER_SETTINGS:
        choices = [StrongPlayer(seed, nodes=600, **extra).choose(v) for v in (view, twin_view)]
        assert choices[0] == choices[1], extra


def test_the_resampling_pool_follows_the_reading() -> None:
    """The pool's cumulative weights rise to the sum of the readings' weights (scaled so the
    likeliest guess weighs 1), guess by guess."""
    checked = 0
    for seed in range(10):
        rng = random.Random(seed)
        match = Match(SCOPONE, 0)
        rnd = match.deal(shuffled_deck(rng))
        for _ in range(14):
            codes = rnd.legal_codes()
            match.push_code(codes[rng.randrange(len(codes))])
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
        rng = random.Random(seed)
        match = Match(SCOPONE, 0)
        rnd = match.deal(shuffled_deck(rng))
        for _ in range(6):
            codes = rnd.legal_codes()
            match.push_code(codes[rng.randrange(len(codes))])
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
