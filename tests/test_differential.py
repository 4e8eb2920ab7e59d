"""The engine agrees with a naive implementation written straight from the rules."""

from __future__ import annotations

import random

from helpers import RULE_SETS, shuffled_deck
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_engine import NaiveRound

from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RULE_SETS), st.integers(0, 2**32 - 1))
def test_engine_matches_the_naive_rules(rules: RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    dealer = rng.randrange(rules.players)
    fast = Round(rules, dealer, deck)
    if fast.void:
        return
    naive = NaiveRound(rules, dealer, deck)
    while not fast.finished:
        assert not naive.finished
        assert fast.turn == naive.turn
        mine = sorted(p.code for p in fast.legal_plays())
        theirs = sorted(Play(c, g).code for c, g in naive.legal())
        assert mine == theirs
        card, group = naive.legal()[rng.randrange(len(mine))]
        fast.play(Play(card, group), exact=True)
        naive.play(card, group)
    assert naive.finished
    assert fast.sweeps == naive.sweeps
    for side in range(rules.side_count):
        assert fast.piles[side] == sum(c.bit for c in naive.piles[side])
