"""The deal search and its leaf: exact where nothing is left to guess, sound odds elsewhere."""

from __future__ import annotations

import random
from math import comb

import pytest
from helpers import shuffled_deck

from scopa_net.bots.evaluation import margin
from scopa_net.bots.inference import ChoiceModel
from scopa_net.bots.lookahead import (
    FEATURES,
    LAST_DEAL,
    DealSearch,
    Leaf,
    fixed_splits_of,
    lead_odds,
)
from scopa_net.bots.search import ExactSearch, Playouts
from scopa_net.match import Match
from scopa_net.plays import CARD_BITS
from scopa_net.round import Round
from scopa_net.rules import RuleSet
from scopa_net.scoring import primiera_key


def position_after(rules: RuleSet, seed: int, plays: int) -> Round:
    rng = random.Random(seed)
    match = Match(rules, 0)
    rnd = match.deal(shuffled_deck(rng))
    for _ in range(plays):
        if rnd.finished:
            break
        codes = rnd.legal_codes()
        match.push_code(codes[rng.randrange(len(codes))])
    return rnd


@pytest.mark.parametrize("remaining", [0, 1, 2, 7, 20])
@pytest.mark.parametrize("behind", [-3, -1, 0, 1, 2, 5])
def test_lead_odds_are_the_binomial_tails(remaining: int, behind: int) -> None:
    ahead = sum(comb(remaining, x) for x in range(remaining + 1) if 2 * x > remaining + behind)
    back = sum(comb(remaining, x) for x in range(remaining + 1) if 2 * x < remaining + behind)
    assert lead_odds(remaining, behind) == pytest.approx((ahead - back) / 2**remaining)
    assert lead_odds(remaining, -behind) == pytest.approx(-lead_odds(remaining, behind))


def test_lead_odds_at_the_edges() -> None:
    assert lead_odds(0, 0) == 0  # level, nothing left: nobody takes the line
    assert lead_odds(0, -1) == 1
    assert lead_odds(3, 4) == -1  # three cards cannot close a gap of four
    assert lead_odds(10, 0) == 0


@pytest.mark.parametrize("seed", range(4))
def test_the_last_deal_is_searched_exactly(seed: int) -> None:
    """Two players, stock gone: the deal search reaches the end and agrees with exact search."""
    rules = RuleSet.of(2)
    rnd = position_after(rules, seed, 30)
    assert rnd.stock_count == 0
    assert rnd.plays_left == 6
    search = DealSearch(rules)
    exact = ExactSearch(rules)
    for side in (0, 1):
        got = search.value(rnd.copy(), side, split=0, deal=rnd.next_deal, plies=6)
        assert got == exact.value(rnd.copy(), side)


def test_a_finished_round_is_valued_by_its_score() -> None:
    rules = RuleSet.of(2)
    rnd = position_after(rules, 1, 40)
    assert rnd.finished
    leaf = Leaf(rules)
    assert leaf.value(rnd, split=0) == margin(rnd.score().totals, 0)


def test_the_leaf_is_the_same_seen_from_either_side() -> None:
    """Swapping the sides' piles and sweeps (and the random split) negates the value, as long
    as no seat to move has a capture to credit."""
    rules = RuleSet.of(2)
    for seed in range(20):
        rnd = position_after(rules, seed, 12)
        if rnd.finished or any(code >> CARD_BITS for code in rnd.legal_codes()):
            continue
        leaf = Leaf(rules)
        mirror = rnd.copy()
        mirror.piles = rnd.piles[::-1]
        mirror.sweeps = rnd.sweeps[::-1]
        split = random.Random(seed).getrandbits(40)
        rest = ((1 << 40) - 1) & ~(rnd.piles[0] | rnd.piles[1])
        assert leaf.value(rnd, split) == pytest.approx(-leaf.value(mirror, rest & ~split))


@pytest.mark.parametrize("variants", [(), ("primiera=sum",)])
def test_fixed_splits_give_the_primiera_over_those_splits_whatever_the_split(
    variants: tuple[str, ...],
) -> None:
    """With ``fixed_splits`` the primiera figure is the mean, over the same fixed splits of the
    cards left, of who wins the primiera by the scoring's own key; the split handed in does
    not move it, and asking again (from the memo) gives the same figure."""
    rules = RuleSet.of(2, 11, variants)
    leaf = Leaf(rules, fixed_splits=16)
    at = FEATURES.index("primiera")
    for seed in range(10):
        rnd = position_after(rules, seed, 4 * seed)
        if rnd.finished:
            continue
        p0, p1 = rnd.piles
        rest = ((1 << 40) - 1) & ~(p0 | p1)
        wins = 0
        for split in fixed_splits_of(16):
            k0 = primiera_key(p0 | (rest & split), rules)
            k1 = primiera_key(p1 | (rest & ~split), rules)
            wins += (k0 > k1) - (k1 > k0)
        figures = {leaf.features(rnd, split)[at] for split in (0, 12345, (1 << 40) - 1)}
        assert figures == {wins / 16}


def test_a_sweep_threat_costs_the_side_that_leaves_it() -> None:
    """A leaf where the seat to move can sweep is worth a point more to its side."""
    rules = RuleSet.of(2)
    leaf = Leaf(rules)
    found = 0
    for seed in range(200):
        rnd = position_after(rules, seed, 7)
        if rnd.finished:
            continue
        table = rnd.table_mask
        sweeps = [c for c in rnd.legal_codes() if table and c >> CARD_BITS == table]
        if not sweeps:
            continue
        found += 1
        quiet = rnd.copy()
        quiet.hands[quiet.turn] = []  # nothing to play: no threat
        mover = rnd.side_of(rnd.turn)
        gap = leaf.value(rnd, 0) - leaf.value(quiet, 0)
        assert (gap if mover == 0 else -gap) >= 1.0
    assert found


@pytest.mark.parametrize("seed", range(3))
def test_the_endgame_search_runs_through_the_last_deals_exactly(seed: int) -> None:
    """Searched past the end of the deal (the endgame), a guessed position with cards still
    in the stock is valued as exact search values it: the stock order is part of the guess."""
    rules = RuleSet.of(2)
    rnd = position_after(rules, seed, 24)
    assert rnd.stock_count == 6
    search = DealSearch(rules)
    exact = ExactSearch(rules)
    for side in (0, 1):
        got = search.value(rnd.copy(), side, split=0, deal=LAST_DEAL, plies=rnd.plays_left)
        assert got == exact.value(rnd.copy(), side)


@pytest.mark.parametrize("seed", range(3))
def test_a_wary_search_blends_the_answers_between_worst_and_average(seed: int) -> None:
    """With ``caution`` 1 the blended search is minimax; lower, the other side's answers
    count by their average too, so the searching side's value can only rise."""
    rules = RuleSet.of(2)
    rnd = position_after(rules, seed, 13)
    plain = DealSearch(rules)
    nearly = DealSearch(rules, caution=1 - 1e-12)
    trusting = DealSearch(rules, caution=0.0)
    modelled = DealSearch(rules, caution=0.0, model=ChoiceModel(rules))
    for side in (0, 1):
        args = (side, 0, rnd.next_deal, 5)
        minimax = plain.value(rnd.copy(), *args)
        assert nearly.value(rnd.copy(), *args) == pytest.approx(minimax)
        assert trusting.value(rnd.copy(), *args) >= minimax - 1e-9
        assert modelled.value(rnd.copy(), *args) >= minimax - 1e-9
        assert minimax != leaf_only(rules, rnd, side)  # the search did look ahead


def leaf_only(rules: RuleSet, rnd: Round, side: int) -> float:
    value = Leaf(rules).value(rnd.copy(), 0)
    return value if side == 0 else -value


@pytest.mark.parametrize(
    ("players", "variants", "plays", "seed"),
    [
        *((2, (), 31, seed) for seed in range(3)),
        *((4, (), 26, seed) for seed in range(3)),
        # The deepest search (18 plays left) once: it took 21 s a seed under coverage.
        (4, ("scopone_scientifico",), 22, 0),
        *((4, ("scopone_scientifico",), 26, seed) for seed in range(3)),
    ],
)
def test_the_transposition_table_keeps_the_exact_values(
    players: int, variants: tuple[str, ...], plays: int, seed: int
) -> None:
    """Searched to the end with the stock gone, the remembered values are the plain search's,
    for either side, while the memo fills across calls, and it saves nodes."""
    rules = RuleSet.of(players, 11, variants)
    rnd = position_after(rules, seed, plays)
    assert rnd.stock_count == 0
    assert rnd.plays_left > 4
    plain = DealSearch(rules)
    memo = DealSearch(rules, memo=True)
    for code in rnd.legal_codes():
        child = rnd.copy()
        child.push_code(code)
        for side in (0, 1):
            args = (side, 0, LAST_DEAL, child.plays_left)
            assert memo.value(child.copy(), *args) == plain.value(child.copy(), *args)
    assert memo._memo
    assert memo.nodes < plain.nodes
    memo.forget()
    assert not memo._memo


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("memo", [False, True])
def test_a_policy_answers_for_the_other_side(seed: int, memo: bool) -> None:
    """With ``policy`` the other side's seats play the policy's one answer (from the hands of
    the guess) and the searching side's take their best: the value is that of a plain
    recursion doing so, for either side, never below minimax, and above it somewhere."""
    rules = RuleSet.of(4)
    rnd = position_after(rules, seed, 26)
    assert rnd.stock_count == 0
    policy = Playouts(rules)
    search = DealSearch(rules, policy=policy, memo=memo)
    minimax = DealSearch(rules)
    above = 0
    for code in rnd.legal_codes():
        child = rnd.copy()
        child.push_code(code)
        for side in (0, 1):
            args = (side, 0, LAST_DEAL, child.plays_left)
            got = search.value(child.copy(), *args)
            assert got == policy_answered(rules, child.copy(), side, policy)
            worst = minimax.value(child.copy(), *args)
            assert got >= worst
            above += got > worst
        search.forget()
    assert above


def policy_answered(rules: RuleSet, rnd: Round, side: int, policy: Playouts) -> float:
    """``side``'s margin at the end of ``rnd``: its seats choose the best, the others the
    policy's play."""
    if not rnd.plays_left:
        return float(margin(policy.scorer.totals(rnd.piles, rnd.sweeps), side))
    codes = rnd.legal_codes()
    if rules.side_of(rnd.turn) != side:
        codes = [policy.pick(rnd, codes)]
    values = []
    for code in codes:
        child = rnd.copy()
        child.push_code(code)
        values.append(policy_answered(rules, child, side, policy))
    return max(values)
