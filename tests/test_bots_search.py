"""The pieces the players think with: fast scoring, sweep odds, guessed deals, exact search."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from helpers import shuffled_deck
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.bots.evaluation import FastScorer, margin
from scopa_net.bots.inference import DEFAULT_SHARPNESS, Inference
from scopa_net.bots.observed import Observed
from scopa_net.bots.sampling import is_certain, sample_world
from scopa_net.bots.search import ExactSearch, Playouts
from scopa_net.bots.strong import LONG_HANDS_SHARPNESS, StrongPlayer
from scopa_net.bots.tactics import holds_any, sweeping_values
from scopa_net.cards import VALUE
from scopa_net.match import Match
from scopa_net.round import Round
from scopa_net.rules import RuleSet, Variant
from scopa_net.scoring import score_round

VARIANT_SETS = [
    (),
    ("primiera=sum",),
    ("court_prime=0", "re_bello"),
    ("napola",),
    ("napola", "re_bello", "primiera=sum", "court_prime=0"),
]


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    variants=st.sampled_from(VARIANT_SETS),
    owners=st.lists(st.integers(-1, 2), min_size=40, max_size=40),
    sweeps=st.lists(st.integers(0, 4), min_size=3, max_size=3),
)
def test_fast_scorer_agrees_with_the_engine(
    players: int, variants: tuple[str, ...], owners: list[int], sweeps: list[int]
) -> None:
    rules = RuleSet.of(players, 11, variants)
    sides = rules.side_count
    piles = [0] * sides
    for c, owner in enumerate(owners):
        if 0 <= owner < sides:
            piles[owner] |= 1 << c
    sweeps = sweeps[:sides]
    expected = score_round(rules, piles, sweeps).totals
    assert tuple(FastScorer(rules).totals(piles, sweeps)) == expected
    assert margin(expected, 0) == expected[0] - max(expected[1:])


def engine_sweeps(rules: RuleSet, table: list[int], value: int) -> bool:
    """Oracle: does the engine let some card of ``value`` take the whole table?"""
    card = next(c for c in range(40) if VALUE[c] == value and c not in table)
    others = [c for c in range(40) if c != card and c not in table]
    n = rules.players
    hands = [[card] if s == 1 else [] for s in range(n)]
    hands[0] = others[:1]  # the dealer still holds one card, so this is not the last play
    rnd = Round.from_position(
        rules,
        dealer=0,
        turn=1,
        hands=hands,
        table=table,
        stock=[],
        piles=_piles(rules, others[1:]),
        sweeps=[0] * rules.side_count,
        last_capturer=None,
    )
    mask = sum(1 << c for c in table)
    return any(code >> 6 == mask for code in rnd.legal_codes())


def _piles(rules: RuleSet, cards: list[int]) -> list[int]:
    """Every other card already captured by side 0, so the table is all that is left."""
    piles = [0] * rules.side_count
    for c in cards:
        piles[0] |= 1 << c
    return piles


@settings(max_examples=60, deadline=None)
@given(
    variants=st.sampled_from([(), ("quindici",), ("asso_piglia_tutto",)]),
    table=st.sets(st.integers(0, 39), min_size=1, max_size=5),
)
def test_sweeping_values_match_the_engine(variants: tuple[str, ...], table: set[int]) -> None:
    rules = RuleSet.of(2, 11, variants)
    cards = sorted(table)
    mask = sum(1 << c for c in cards)
    free_values = {VALUE[c] for c in range(40) if c not in table}
    found = sweeping_values(rules, mask)
    for v in free_values:
        assert (v in found) == engine_sweeps(rules, cards, v), (cards, v)


@pytest.mark.parametrize(
    ("unseen", "wanted", "hand"), [(30, 4, 3), (10, 1, 1), (12, 3, 9), (5, 5, 2), (20, 0, 3)]
)
def test_holds_any_is_the_hypergeometric_chance(unseen: int, wanted: int, hand: int) -> None:
    expected = 1 - math.comb(unseen - wanted, hand) / math.comb(unseen, hand)
    assert holds_any(unseen, wanted, hand) == pytest.approx(expected)


def position_after(rules: RuleSet, seed: int, plays: int) -> Match:
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    match = Match(rules, 0)
    rnd = match.deal(deck)
    for _ in range(plays):
        if rnd.finished:
            break
        codes = rnd.legal_codes()
        match.push_code(codes[rng.randrange(len(codes))])
    return match


def test_guessed_deals_keep_the_counts_and_spread_cards_evenly() -> None:
    rules = RuleSet.of(4)
    match = position_after(rules, 3, 5)
    rnd = match.round
    assert rnd is not None
    assert not rnd.finished
    known = Observed.from_view(match.view_for(rnd.turn))
    rng = random.Random(0)
    counts: Counter[int] = Counter()
    target = (rnd.turn + 1) % 4
    trials = 3000
    for _ in range(trials):
        world = sample_world(known, rng)
        assert [len(h) for h in world.hands] == [
            0 if s == rnd.turn else n for s, n in enumerate(known.hand_counts)
        ]
        assert len(world.stock) == known.stock_count
        placed = sorted([c for h in world.hands for c in h] + list(world.stock))
        assert placed == list(known.unseen)
        counts.update(world.hands[target])
    share = known.hand_counts[target] / len(known.unseen)
    for c in known.unseen:
        assert counts[c] / trials == pytest.approx(share, abs=0.05)
    assert not set(counts) - set(known.unseen)


def naive_value(rnd: Round, side: int) -> int:
    """Plain minimax with the engine's own scoring: the reference for the exact search."""
    if rnd.finished:
        return margin(rnd.score().totals, side)
    values = []
    for code in rnd.legal_codes():
        child = rnd.copy()
        child.push_code(code)
        values.append(naive_value(child, side))
    return max(values) if rnd.side_of(rnd.turn) == side else min(values)


@pytest.mark.parametrize(("players", "plays"), [(2, 30), (2, 32), (4, 32), (4, 34)])
@pytest.mark.parametrize("seed", range(3))
def test_exact_search_finds_the_minimax_value(players: int, plays: int, seed: int) -> None:
    rules = RuleSet.of(players)
    rnd = position_after(rules, seed, plays).round
    assert rnd is not None
    # (Fewer plays than a round has: only a deal void for its kings is over by now.)
    assert not rnd.finished, f"seed {seed} now deals a void round: choose another seed"
    side = rnd.side_of(rnd.turn)
    search = ExactSearch(rules)
    assert search.value(rnd.copy(), side) == naive_value(rnd, side)
    assert search.value(rnd.copy(), 1 - side) == naive_value(rnd, 1 - side)


@pytest.mark.parametrize("seed", range(4))
def test_strong_plays_perfectly_when_nothing_is_hidden(seed: int) -> None:
    """Two players, last deal: the opponent's hand is known, and the search is exact."""
    rules = RuleSet.of(2)
    match = position_after(rules, seed, 34)
    rnd = match.round
    assert rnd is not None
    assert not rnd.finished
    view = match.view_for(rnd.turn)
    assert is_certain(Observed.from_view(view))
    side = rnd.side_of(rnd.turn)
    best = naive_value(rnd, side)
    play = StrongPlayer(seed, playouts=10).choose(view)
    after = rnd.copy()
    after.play(play, exact=True)
    assert naive_value(after, side) == best


def test_playouts_finish_the_round_and_agree_with_the_engine_score() -> None:
    rules = RuleSet.of(3, 11, [Variant.NAPOLA.value])
    playouts = Playouts(rules)
    rng = random.Random(1)
    for seed in range(10):
        rnd = position_after(rules, seed, 4).round
        assert rnd is not None
        if rnd.finished:
            continue
        value = playouts.play_out(rnd, 1, rng)
        assert rnd.finished
        assert value == margin(rnd.score().totals, 1)


def test_a_wall_clock_cap_stops_the_search_early() -> None:
    rules = RuleSet.of(2)
    match = position_after(rules, 5, 1)
    rnd = match.round
    assert rnd is not None
    view = match.view_for(rnd.turn)
    codes = Observed.from_view(view).legal_codes()
    ticks = iter(range(1000))
    # tree=0: the determinized search (two players search a tree by default).
    capped = StrongPlayer(1, playouts=400, clock=lambda: float(next(ticks)), time_limit=1.5, tree=0)
    capped.choose(view)
    # The deadline is tick 0 + 1.5. The first guess always runs; the clock is read after
    # each play of the second guess (1, then 2), which stops the search and drops that
    # half-finished guess, so plays are only ever compared on the same guesses.
    assert capped.evaluations == len(codes)
    free = StrongPlayer(1, playouts=400, halving=False, lookahead=False, tree=0)
    free.choose(view)
    assert free.evaluations == max(8, 400 // len(codes)) * len(codes)
    with pytest.raises(ValueError, match="clock"):
        StrongPlayer(clock=lambda: 0.0)


def test_scopone_reads_the_table_with_a_tempered_model() -> None:
    """Ten-card hands: the other seats' choices still weigh the guesses, but with the
    tempered sharpness (at the usual one a few guesses took all the weight)."""
    scopone = RuleSet.of(4, 11, ["scopone_scientifico"])
    player = StrongPlayer(1)
    _, _, model = player._tools_for(scopone)
    assert model.sharpness == LONG_HANDS_SHARPNESS < DEFAULT_SHARPNESS
    _, _, model = player._tools_for(RuleSet.of(4))
    assert model.sharpness == DEFAULT_SHARPNESS
    match = Match(scopone, 0)
    rnd = match.deal(shuffled_deck(random.Random(3)))
    for _ in range(6):
        match.push_code(rnd.legal_codes()[0])
    known = Observed.from_view(match.view_for(rnd.turn))
    assert known.rules.hand_size > 3
    assert player.inference_hand_size >= known.rules.hand_size
    assert Inference(known, model).informative
