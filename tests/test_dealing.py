"""The deck-position mapping that protocol.md documents."""

from __future__ import annotations

import pytest
from helpers import RULE_SETS

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE, deal_plan
from scopa_net.round import Round
from scopa_net.rules import RuleSet


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_every_position_is_dealt_exactly_once(rules: RuleSet) -> None:
    for dealer in range(rules.players):
        plan = deal_plan(rules, dealer)
        positions = [d.start + i for d in plan for i in range(len(d.targets))]
        assert positions == list(range(40))
        counts = [sum(t == s for d in plan for t in d.targets) for s in range(rules.players)]
        assert len(set(counts)) == 1
        assert sum(t == TABLE for d in plan for t in d.targets) == rules.opening_table_cards


def test_one_card_at_a_time_starting_right_of_the_dealer() -> None:
    plan = deal_plan(RuleSet(4), dealer=2)
    first = plan[0].targets
    assert first[:12] == (3, 0, 1, 2) * 3
    assert first[12:] == (TABLE,) * 4
    assert plan[1].start == 16
    assert plan[1].targets == (3, 0, 1, 2) * 3


def test_the_round_deals_by_the_plan() -> None:
    rnd = Round(RuleSet(2), 1, CARDS)
    # Dealer 1: seat 0 takes positions 0, 2, 4; seat 1 takes 1, 3, 5; the table 6..9.
    assert sorted(rnd.hands[0]) == [0, 2, 4]
    assert sorted(rnd.hands[1]) == [1, 3, 5]
    assert rnd.table == [6, 7, 8, 9]


def test_bad_dealer_is_refused() -> None:
    with pytest.raises(ValueError, match="not a seat"):
        deal_plan(RuleSet(2), 2)
