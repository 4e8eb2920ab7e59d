"""The information-set search: it finds plain good plays, keeps to its budget, is fixed by its
seed, and decides from the seat's view alone (twins differing only in hidden cards)."""

from __future__ import annotations

import random

import pytest
from helpers import TickingClock
from hypothesis import given, settings
from hypothesis import strategies as st
from twins import twin_views

from scopa_net.bots.inference import ChoiceModel, Inference
from scopa_net.bots.ismcts import InformationSetSearch
from scopa_net.bots.observed import Observed
from scopa_net.bots.strong import StrongPlayer
from scopa_net.cards import CARDS, SETTEBELLO
from scopa_net.match import Match
from scopa_net.plays import CARD_BITS
from scopa_net.round import Round
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView

RULES = RuleSet.of(2)
PAIRS = (RuleSet.of(4), RuleSet.of(4, 11, ["scopone_scientifico"]))


def opening(seed: int) -> Match:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    match = Match(RULES, 0)
    match.deal(deck)
    return match


def known_at_opening(seed: int) -> Observed | None:
    """The seat to move's knowledge at the first play of a shuffled deck (None if void)."""
    match = opening(seed)
    if match.round is None or match.round.finished:
        return None
    return Observed.from_view(match.view_for(match.round.turn))


def some_opening(seed: int) -> Observed:
    known = known_at_opening(seed)
    while known is None:
        seed += 1000
        known = known_at_opening(seed)
    return known


def sweeps_of_the_settebello(count: int) -> list[Observed]:
    """Moments of random rounds (cards still hidden) where the seat to move can sweep a
    table that holds the settebello, with some other play to choose."""
    found: list[Observed] = []
    for seed in range(500):
        match = opening(seed)
        rnd = match.round
        rng = random.Random(seed)
        while rnd is not None and not rnd.finished and rnd.stock_count:
            known = Observed.from_view(match.view_for(rnd.turn))
            codes = known.legal_codes()
            table = sum(1 << c for c in known.table)
            sweeps = any(c >> CARD_BITS == table for c in codes)
            if table & SETTEBELLO.bit and len(codes) > 1 and sweeps:
                found.append(known)
                if len(found) == count:
                    return found
                break
            match.push_code(codes[rng.randrange(len(codes))])
    raise AssertionError(f"only {len(found)} chances to sweep the settebello")


def test_it_sweeps_the_settebello_when_it_can() -> None:
    """Sweeping a table that holds the settebello is two points for sure: the search finds it."""
    for n, known in enumerate(sweeps_of_the_settebello(5)):
        codes = known.legal_codes()
        table = sum(1 << c for c in known.table)
        code = InformationSetSearch(RULES).best_code(known, codes, random.Random(n), 600)
        assert code >> CARD_BITS == table


def test_the_budget_is_the_number_of_iterations() -> None:
    known = some_opening(3)
    codes = known.legal_codes()
    search = InformationSetSearch(RULES)
    search.best_code(known, codes, random.Random(1), 50)
    assert search.iterations == 50
    search.best_code(known, codes, random.Random(1), 200)
    assert search.iterations == 250


def test_a_clock_stops_the_search_at_the_deadline() -> None:
    known = some_opening(3)
    codes = known.legal_codes()
    clock = TickingClock(0.001)
    search = InformationSetSearch(RULES)
    search.best_code(known, codes, random.Random(1), 10**6, clock=clock, deadline=0.02)
    assert search.iterations < 10**6
    assert clock.readings <= 0.02 / 0.001 + 1


def test_a_seed_fixes_the_choice() -> None:
    for seed in range(20):
        known = some_opening(seed)
        codes = known.legal_codes()
        if len(codes) < 3:
            continue
        first = InformationSetSearch(RULES).best_code(known, codes, random.Random(seed), 300)
        again = InformationSetSearch(RULES).best_code(known, codes, random.Random(seed), 300)
        assert first == again


def test_the_reading_moves_guesses_toward_deals_that_fit_the_plays() -> None:
    """With a reading the search draws its guesses from the pool by their weights: after the
    other seat's lay the choice still comes out legal and fixed by the seed."""
    for seed in range(60):
        match = opening(seed)
        rnd = match.round
        assert rnd is not None
        match.push_code(rnd.legal_codes()[0])
        if match.round is None:
            continue
        known = Observed.from_view(match.view_for(match.round.turn))
        reading = Inference(known, ChoiceModel(RULES))
        codes = known.legal_codes()
        if not reading.informative or len(codes) < 2:
            continue
        picks = {
            InformationSetSearch(RULES).best_code(
                known, codes, random.Random(seed), 200, reading=reading
            )
            for _ in range(2)
        }
        assert len(picks) == 1
        assert picks <= set(codes)
        return
    raise AssertionError("no position with an informative reading")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 30))
def test_hidden_cards_change_no_choice_of_the_tree(seed: int, plays: int) -> None:
    views = twin_views(RULES, seed, plays)
    if views is None:
        return
    view, twin_view = views
    players = [StrongPlayer(seed, tree=150) for _ in range(2)]
    assert players[0].choose(view) == players[1].choose(twin_view)
    for extra in TWO_PLAYER_SETTINGS:
        players = [StrongPlayer(seed, tree=150, **extra) for _ in range(2)]  # type: ignore[arg-type]
        assert players[0].choose(view) == players[1].choose(twin_view), extra


#: The two-player tree's settings other than the defaults: each must decide from the seat's
#: view alone too.
TWO_PLAYER_SETTINGS: tuple[dict[str, object], ...] = (
    {"duel_policy": True, "final_share": 0.3},
    {"rollouts": 2, "rollout_weight": 0.5, "exact_last": True},
    {"greedy_reading": True},
    {"fixed_splits": 16, "tree_pool": 300, "leaf_plies": 2},
    {"duel_policy": True, "tree_greedy": True},
)


SETTINGS = (
    {"bias": 1.0},
    {"prime_splits": 8},
    {"horizon": 2},
    {"final_share": 0.3},
    {"rollouts": 1, "rollout_weight": 0.5},
    {"exact_last": True},
    {"opponent_policy": True},
    {"fixed_splits": 16, "pool": 300},
    {"leaf_plies": 2},
)


def test_each_setting_keeps_the_choice_legal_and_fixed_by_the_seed() -> None:
    for n, setting in enumerate(SETTINGS):
        known = some_opening(40 + n)
        codes = known.legal_codes()
        picks = {
            InformationSetSearch(RULES, **setting).best_code(  # type: ignore[arg-type]
                known, codes, random.Random(n), 300
            )
            for _ in range(2)
        }
        assert len(picks) == 1
        assert picks <= set(codes)


def test_tree_greedy_plays_the_other_seat_as_the_greedy_player_at_two_players() -> None:
    """With two players, ``duel_policy`` and ``tree_greedy``, the other seat's plays in the
    tree are the greedy player's choice (read from the guess), and only that seat's."""
    search = StrongPlayer(3, duel_policy=True, tree_greedy=True)._tree_for(RULES)
    greedy = search.greedy
    assert greedy is not None
    movers: list[int] = []

    class Watched:
        def pick(self, rnd: Round, codes: list[int]) -> int:
            movers.append(rnd.turn)
            return greedy.pick(rnd, codes)

    search.greedy = Watched()  # type: ignore[assignment]
    known = some_opening(3)
    search.best_code(known, known.legal_codes(), random.Random(3), 200)
    assert movers
    assert set(movers) == {1 - known.seat}


class _LeafWatch:
    """A leaf that notes how many plays were left in each position it judged."""

    def __init__(self, leaf: object) -> None:
        self.leaf = leaf
        self.plays_left: list[int] = []

    def value(self, rnd: object, split: int) -> float:
        self.plays_left.append(rnd.plays_left)  # type: ignore[attr-defined]
        return self.leaf.value(rnd, split)  # type: ignore[attr-defined]


@pytest.mark.parametrize("leaf_plies", [0, 2])
def test_leaf_plies_are_played_into_the_next_deal_before_the_leaf(leaf_plies: int) -> None:
    """The tree stops at the end of the hands in play (two players: every sixth play); with
    ``leaf_plies`` the leaf judges that many plays later, unless the round is over."""
    known = some_opening(7)
    search = InformationSetSearch(RULES, leaf_plies=leaf_plies)
    watch = search.leaf = _LeafWatch(search.leaf)  # type: ignore[assignment]
    search.best_code(known, known.legal_codes(), random.Random(7), 200)
    assert len(watch.plays_left) == 200
    assert {n % 6 for n in watch.plays_left if n} == {(6 - leaf_plies) % 6}


def test_the_leaf_averages_the_primiera_over_the_splits_asked_for() -> None:
    assert InformationSetSearch(RULES, prime_splits=8).leaf.prime_splits == 8
    assert InformationSetSearch(RULES).leaf.prime_splits == 1


def test_more_splits_still_sweep_the_settebello() -> None:
    for n, known in enumerate(sweeps_of_the_settebello(3)):
        codes = known.legal_codes()
        table = sum(1 << c for c in known.table)
        search = InformationSetSearch(RULES, prime_splits=8)
        assert search.best_code(known, codes, random.Random(n), 600) >> CARD_BITS == table


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 30))
def test_a_tree_through_the_next_deal_changes_no_choice_by_hidden_cards(
    seed: int, plays: int
) -> None:
    """Past the hands in play the tree deals the next cards from its guess, never the stock."""
    views = twin_views(RULES, seed, plays)
    if views is None:
        return
    view, twin_view = views
    players = [StrongPlayer(seed, tree=150, horizon=2) for _ in range(2)]
    assert players[0].choose(view) == players[1].choose(twin_view)


def pairs_positions(rules: RuleSet, seed: int) -> list[SeatView]:
    """The first moments of one random round with two pairs with a choice to make (cards
    still hidden): the seat to move's view."""
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    match = Match(rules, 0)
    rnd = match.deal(deck)
    found = []
    while not rnd.finished and rnd.plays_left > 3:
        codes = rnd.legal_codes()
        if len(codes) > 1:
            found.append(match.view_for(rnd.turn))
        match.push_code(codes[rng.randrange(len(codes))])
        if len(found) >= 3:
            break
    return found


PAIRS_SETTINGS = (
    {},
    {"tree_plies": 4},
    {"opponent_policy": False},
    {"tree_greedy": True},
    {"partner_policy": True},
)


@pytest.mark.parametrize("extra", PAIRS_SETTINGS, ids=str)
@pytest.mark.parametrize("rules", PAIRS, ids=lambda r: r.describe())
def test_the_pairs_tree_plays_legal_plays_fixed_by_the_seed(
    rules: RuleSet, extra: dict[str, object]
) -> None:
    """With two pairs (``pairs_tree``) the tree decides: it spends its iterations, and its
    choice is legal and the same for the same seed."""
    searched = 0
    for seed in range(4):
        for view in pairs_positions(rules, seed):
            legal = set(Observed.from_view(view).legal_codes())
            players = [StrongPlayer(seed, pairs_tree=120, **extra) for _ in range(2)]  # type: ignore[arg-type]
            picks = [p.choose(view) for p in players]
            assert picks[0] == picks[1]
            assert picks[0].code in legal
            searched += players[0].evaluations == 120
    assert searched >= 6


@settings(max_examples=20, deadline=None)
@given(
    rules=st.sampled_from(PAIRS),
    seed=st.integers(0, 10**6),
    plays=st.integers(0, 30),
    endgame=st.sampled_from((None, 0)),
)
def test_hidden_cards_change_no_choice_of_the_pairs_tree(
    rules: RuleSet, seed: int, plays: int, endgame: int | None
) -> None:
    views = twin_views(rules, seed, plays)
    if views is None:
        return
    view, twin_view = views
    players = [StrongPlayer(seed, pairs_tree=150, endgame_plays=endgame) for _ in range(2)]
    assert players[0].choose(view) == players[1].choose(twin_view)


def test_the_pairs_tree_leaves_two_players_alone() -> None:
    """``pairs_tree`` is for two pairs only: at two players the choice is the default's."""
    for seed in range(6):
        known = some_opening(seed)
        codes = known.legal_codes()
        picks = {
            StrongPlayer(seed, **extra).best_code(known, codes, random.Random(seed))  # type: ignore[arg-type]
            for extra in ({}, {"pairs_tree": 500})
        }
        assert len(picks) == 1


def test_a_ply_limit_stops_the_tree_before_the_end_of_the_hands() -> None:
    """With ``plies`` the iterations stop that many plays from the root (scopone's hands
    last the whole round): the tree then holds no line longer than that."""
    views = pairs_positions(PAIRS[1], 5)
    known = Observed.from_view(views[0])
    codes = known.legal_codes()
    search = InformationSetSearch(PAIRS[1], plies=3)
    children = search.root_children(known, codes, random.Random(5), 400)

    def depth(nodes: dict) -> int:
        return max((1 + depth(n.children) for n in nodes.values()), default=0)

    assert depth(children) == 3
