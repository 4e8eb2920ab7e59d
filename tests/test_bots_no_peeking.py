"""Players see only their seat's view: hidden cards cannot change what they do.

Two matches are built that agree on everything one seat has seen (its hand, the table, every
play so far) but place the cards it has not seen differently, in the other hands and in the
stock. The views must be equal, and every level must make the same choice from them.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twins import RULES, twin_matches, twin_views

from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.levels import LEVELS, THINKING_LEVELS, make_player
from scopa_net.bots.observed import Observed
from scopa_net.bots.random_player import RandomPlayer
from scopa_net.bots.strong import StrongPlayer
from scopa_net.rules import RuleSet

#: Hard's settings that read or search differently from its defaults (the defaults are
#: covered below): each must decide from the seat's view alone too.
HARD_SETTINGS: list[dict[str, object]] = [
    {"signals": True, "endgame_plays": 11, "pairs_tree": 0},
    {"greedy_reading": True, "sharpness": 4.0},
    {"greedy_reading": False, "signals": False, "endgame_plays": 0},
    {"pool": 40, "sharpness": 2.0},
    {"greedy_margin": 0.3},
    {"memo": True, "endgame_plays": 13, "read_partner": False, "stock_endgame_plays": 19},
    {"pairs_tree": 0, "greedy_margin": 0.3, "pool": 40},
    {"pairs_tree": 150},
    {"pairs_tree": 150, "endgame_plays": 0, "signals": True},
    {"pairs_tree": 150, "tree_plies": 8, "opponent_policy": False},
    {
        "tree": 150,
        "duel_policy": 0.5,
        "final_share": 0.3,
        "exact_last": True,
        "rollouts": 1,
        "greedy_reading": True,
    },
    {"pairs_tree": 150, "tree_greedy": True, "partner_policy": True},
    {"deal_policy": True},
    {"pairs_tree": 0, "deal_policy": True},
    {"replay": 8.0},
    {"replay": 8.0, "replay_partner": True, "read_partner": False},
    {"pairs_tree": 0, "replay": 32.0, "replay_floor": 0.05, "pool": 40},
    {"fixed_splits": 16, "tree_pool": 300, "leaf_plies": 2},
    {"duel_policy": 1.0, "tree_greedy": True},
]


#: A position of a match: its rules, the seed of its deals and the plays made.
POSITIONS = given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10**6),
    plays=st.integers(0, 30),
)


@settings(max_examples=25, deadline=None)
@POSITIONS
def test_hidden_cards_change_neither_the_view_nor_the_choice(
    rules: RuleSet, seed: int, plays: int
) -> None:
    twins = twin_matches(rules, seed, plays)
    if twins is None:
        return
    one, two = twins
    assert one.round is not None
    assert two.round is not None
    seat = one.round.turn
    view = one.view_for(seat)
    assert view == two.view_for(seat)
    for make in (RandomPlayer, GreedyPlayer, lambda s: StrongPlayer(s, playouts=24)):
        assert make(seed).choose(view) == make(seed).choose(two.view_for(seat))


@pytest.mark.parametrize("extra", HARD_SETTINGS, ids=lambda extra: ",".join(map(str, extra)))
@settings(max_examples=10, deadline=None)
@POSITIONS
def test_hards_other_settings_decide_from_the_view_alone(
    extra: dict[str, object], rules: RuleSet, seed: int, plays: int
) -> None:
    """As above, for each of hard's settings kept for measuring, on positions of its own (ten
    each: the settings' twelve tests, each within the suite's guard of 60 s under coverage,
    where one test of all of them on the same 25 positions took 83 s on a slow machine)."""
    twins = twin_matches(rules, seed, plays)
    if twins is None:
        return
    one, two = twins
    assert one.round is not None
    seat = one.round.turn
    settings = {**small_trees(rules), **extra}
    hard = [StrongPlayer(seed, nodes=600, **settings) for _ in range(2)]  # type: ignore[arg-type]
    assert hard[0].choose(one.view_for(seat)) == hard[1].choose(two.view_for(seat))


def small_trees(rules: RuleSet) -> dict[str, int]:
    """Hard's information-set trees where it grows them, with 150 iterations instead of its
    2,000 (the defaults' own size is covered by the plain hard above): the settings then
    cost what the test can afford under coverage, within the suite's 60 s a test."""
    if rules.players == 2:
        return {"tree": 150}
    if rules.players == 4 and rules.hand_size <= 3:
        return {"pairs_tree": 150}
    return {}


def test_the_twins_really_differ_in_hidden_cards() -> None:
    """The test above is only worth something if the hidden cards do move."""
    differing = 0
    for seed in range(20):
        twins = twin_matches(RuleSet.of(2), seed, 3)
        if twins is None:
            continue
        one, two = twins
        assert one.round is not None
        assert two.round is not None
        seat = one.round.turn
        hands_one, hands_two = (
            [sorted(h) for s, h in enumerate(r.hands) if s != seat] for r in (one.round, two.round)
        )
        differing += hands_one != hands_two
    assert differing >= 10


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_observed_unseen_cards_are_the_other_hands_and_the_stock(rules: RuleSet) -> None:
    for seed in range(5):
        twins = twin_matches(rules, seed, 7)
        if twins is None:
            continue
        rnd = twins[0].round
        assert rnd is not None
        known = Observed.from_view(twins[0].view_for(rnd.turn))
        hidden = [c for s, h in enumerate(rnd.hands) if s != rnd.turn for c in h]
        hidden += rnd.deck[40 - rnd.stock_count :]
        assert sorted(hidden) == list(known.unseen)
        assert known.piles == tuple(rnd.piles)
        assert known.last_capturer == rnd.last_capturer
        assert known.legal_codes() == sorted(rnd.legal_codes())


@settings(max_examples=10, deadline=None)
@given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10**6),
    plays=st.integers(0, 30),
)
def test_every_level_by_name_sees_only_its_view(rules: RuleSet, seed: int, plays: int) -> None:
    """Each level as the host and the commands build it (``make_player``), expert included,
    at every player count: a level added later is covered without touching this test."""
    views = twin_views(rules, seed, plays)
    if views is None:
        return
    view, twin_view = views
    for level in LEVELS:
        # No clock: an expert's budget is then a fixed amount of search, so equal views must
        # give equal choices (a small budget keeps the test quick).
        think = 0.01 if level in THINKING_LEVELS else None
        choices = [make_player(level, seed, think=think).choose(v) for v in (view, twin_view)]
        assert choices[0] == choices[1], level
