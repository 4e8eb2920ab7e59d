"""The capture rules' memory by value counts (``scopa_net.captures``) against the plain rule.

The engine remembers what a card takes by how many table cards of each value lie there, not by
the cards, and remembers one group as the mask of every card of its values. These properties tie
that to the plain answer: :meth:`CaptureRule.takes` on the very cards, groups that add up put in
lay order by :func:`in_lay_order`.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.captures import (
    NO_GROUP,
    SEVERAL_GROUPS,
    adding_up,
    capture_rule,
    forget,
    in_lay_order,
    lowest_suits,
    shape_of,
    value_counts,
)
from scopa_net.cards import BIT, VALUE, VALUE_MASK, indices_of
from scopa_net.plays import CARD_BITS
from scopa_net.rules import RuleSet

masks = st.integers(0, (1 << 40) - 1)
RULES = [RuleSet.of(2), RuleSet.of(2, 11, ["asso_piglia_tutto"]), RuleSet.of(2, 11, ["quindici"])]


@given(masks)
def test_value_counts_count_the_cards_of_each_value(mask: int) -> None:
    counts = value_counts(mask)
    for v in range(1, 11):
        assert (counts >> 4 * (v - 1)) & 15 == (mask & VALUE_MASK[v]).bit_count()
    like = lowest_suits(counts)
    for v in range(1, 11):  # the same number of cards of each value, the first suits
        n = (mask & VALUE_MASK[v]).bit_count()
        assert like & VALUE_MASK[v] == ((1 << n) - 1) << 4 * (v - 1)


def plain_codes(rules: RuleSet, card: int, table: int, laid: list[int]) -> tuple[int, ...]:
    """What ``card`` may take, by the plain rule on these very cards, in the engine's order."""
    rule = capture_rule(rules)
    part = table & rule.first[card] or table & rule.second[card]
    codes = tuple(card | g << CARD_BITS for g in rule.takes(VALUE[card], part))
    if rule.sum_total[card] and not part & rule.alike[card]:
        codes = in_lay_order(codes, laid)
    return codes or (card,)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(RULES),
    st.integers(0, 39),
    masks,
    st.integers(0, 12),
    st.randoms(use_true_random=False),
)
def test_what_a_card_takes_by_value_counts_is_what_the_plain_rule_takes(
    rules: RuleSet, card: int, mask: int, size: int, rng: random.Random
) -> None:
    cards = list(indices_of(mask & ~BIT[card]))
    laid, taken = cards[:size], cards[size : size + 8]
    rng.shuffle(laid)  # the order the table cards were laid in
    table = sum(BIT[c] for c in laid)
    expected = plain_codes(rules, card, table, laid)
    rule = capture_rule(rules)
    assert rule.codes(card, table, laid) == expected
    # From memory, and from the memory of the same counts with other suits, the same.
    assert rule.codes(card, table, laid) == expected
    forget()
    assert rule.codes(card, table, laid) == expected
    # The engine passes every card laid this round in lay order, taken ones included: the
    # cards no longer on the table change nothing.
    with_taken = laid.copy()
    for c in taken:
        with_taken.insert(rng.randrange(len(with_taken) + 1), c)
    assert rule.codes(card, table, with_taken) == expected


@settings(max_examples=300, deadline=None)
@given(masks, st.integers(1, 14), st.integers(0, 10))
def test_one_group_is_every_card_of_its_values(mask: int, total: int, keep: int) -> None:
    cards = 0
    for c in list(indices_of(mask))[:keep]:
        cards |= BIT[c]
    groups = adding_up(cards, total)
    shape = shape_of(groups)
    if not groups:
        assert shape == NO_GROUP
    elif len(groups) > 1:
        assert shape == SEVERAL_GROUPS
    else:
        assert groups == (cards & shape,)
    # The same counts with the suits coming first give the same shape.
    assert shape_of(adding_up(lowest_suits(value_counts(cards)), total)) == shape
