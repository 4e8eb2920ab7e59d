"""The host's engine at a blind table plays a guessed deck, corrected card by card, and ends
the round exactly as the true deck does."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE, deal_plan
from scopa_net.fair.blind.hidden import guessed_deck, learn
from scopa_net.round import Round
from scopa_net.rules import RuleSet


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 4, 6]), st.randoms(use_true_random=False), st.data())
def test_a_guessed_round_ends_as_the_true_one(
    players: int, rng: random.Random, data: st.DataObject
) -> None:
    rules = RuleSet.of(players)
    dealer = rng.randrange(players)
    truth = list(range(40))
    rng.shuffle(truth)
    bots = set(data.draw(st.sets(st.integers(0, players - 1))))
    plan = deal_plan(rules, dealer)

    def opened(deal: int) -> dict[int, int]:
        """What the host opens in a deal: the table and its computer players' cards."""
        d = plan[deal]
        return {
            d.start + i: truth[d.start + i]
            for i, t in enumerate(d.targets)
            if t == TABLE or t in bots
        }

    known = opened(0)
    real = Round(rules, dealer, [CARDS[c] for c in truth])
    host = Round(rules, dealer, [CARDS[c] for c in guessed_deck(known)])
    if real.void:
        assert host.void
        return
    where = {c: pos for pos, c in enumerate(truth)}
    deals = 1
    while not real.finished:
        codes = real.legal_codes()
        code = codes[rng.randrange(len(codes))]
        learn(host, known, where[code & 63], code & 63)
        assert code in host.legal_codes()
        real.push_code(code)
        host.push_code(code)
        if host.next_deal > deals:  # the engine dealt the next hand: the host opens it
            for pos, card in opened(deals).items():
                learn(host, known, pos, card)
            deals += 1
        assert host.table == real.table
        assert host.piles == real.piles
        for seat in bots:
            assert sorted(host.hands[seat]) == sorted(real.hands[seat])
    assert host.finished
    assert host.score().totals == real.score().totals


def test_learning_refuses_contradictions() -> None:
    rules = RuleSet.of(2)
    known = {36: 5}
    rnd = Round(rules, 0, [CARDS[c] for c in guessed_deck(known)])
    with pytest.raises(ValueError, match="already known"):
        learn(rnd, known, 36, 6)
    with pytest.raises(ValueError, match="two positions"):
        guessed_deck({0: 1, 1: 1})
