"""The capture rules' bit-mask machinery (``scopa_net.captures``), and both of the engine's
paths against the naive reference engine on random plays of every variant."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from helpers import RULE_SETS, shuffled_deck
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_engine import NaiveRound, capture_options

from scopa_net import captures
from scopa_net.captures import UP_TO, adding_up, capture_rule, forget, in_lay_order
from scopa_net.cards import BIT, CARDS, VALUE, indices_of
from scopa_net.plays import CARD_BITS, Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet

masks = st.integers(0, (1 << 40) - 1)


def brute_force_groups(cards: int, total: int) -> list[int]:
    """Every non-empty group of ``cards`` adding up to ``total``, by trying them all."""
    found = []
    present = list(indices_of(cards))
    for size in range(1, len(present) + 1):
        for group in combinations(present, size):
            if sum(VALUE[c] for c in group) == total:
                found.append(sum(BIT[c] for c in group))
    return sorted(found)


@settings(max_examples=300, deadline=None)
@given(masks, st.integers(1, 14), st.integers(0, 12))
def test_adding_up_finds_exactly_the_groups_that_add_up(mask: int, total: int, keep: int) -> None:
    # Keep a dozen cards at most, as a table holds: trying every group stays quick.
    cards = 0
    for c in list(indices_of(mask & UP_TO[total]))[:keep]:
        cards |= BIT[c]
    assert list(adding_up(cards, total)) == brute_force_groups(cards, total)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RULE_SETS), st.integers(0, 39), masks, st.randoms(use_true_random=False))
def test_a_rule_answers_what_the_reference_engine_answers(
    rules: RuleSet, card: int, mask: int, rng: random.Random
) -> None:
    table = [CARDS[c] for c in list(indices_of(mask & ~BIT[card]))[:8]]
    rng.shuffle(table)  # the order the table cards were laid in
    laid = [c.index for c in table]
    table_mask = sum(BIT[c] for c in laid)
    mine = capture_rule(rules).codes(card, table_mask, laid)
    theirs = capture_options(CARDS[card], table, rules)
    assert sorted(mine) == (sorted(Play(CARDS[card], g).code for g in theirs) or [card])
    # Asked again, from memory, the answer is the same.
    assert capture_rule(rules).codes(card, table_mask, laid) == mine


def test_groups_that_add_up_are_listed_in_lay_order() -> None:
    """A seven on 5, 2, 4, 3 laid in that order: 5+2 (laid first and second) comes before
    4+3 (third and fourth), although 4 and 3 are the lower cards."""
    rules = RuleSet()
    five, two, four, three = (CARDS[(v - 1) * 4] for v in (5, 2, 4, 3))
    seven = CARDS[(7 - 1) * 4 + 1]
    rest = [c for c in CARDS if c not in (five, two, four, three, seven)]
    rnd = Round.from_position(
        rules,
        dealer=1,
        turn=0,
        hands=[[seven.index], []],
        table=[five.index, two.index, four.index, three.index],
        stock=[],
        piles=[0, sum(c.bit for c in rest)],
        sweeps=[0, 0],
        last_capturer=None,
    )
    taken = [code >> CARD_BITS for code in rnd.legal_codes()]
    assert taken == [five.bit | two.bit, four.bit | three.bit]
    # The same groups as Round.groups lists them, and index order when laid lowest first.
    assert taken == [m for s, m in rnd.groups if s == 7]
    by_index = tuple(sorted(rnd.legal_codes()))
    assert in_lay_order(by_index, rnd.laid) == tuple(rnd.legal_codes())
    assert in_lay_order(by_index, sorted(rnd.table)) == by_index


def _random_rounds_codes(rules: RuleSet, seed: int, count: int) -> list[list[list[int]]]:
    """Every legal_codes answer of ``count`` seeded random rounds."""
    rng = random.Random(seed)
    rounds = []
    for _ in range(count):
        rnd = Round(rules, 0, shuffled_deck(rng))
        seen = []
        while not rnd.finished:
            codes = rnd.legal_codes()
            seen.append(codes)
            rnd.push_code(codes[rng.randrange(len(codes))])
        rounds.append(seen)
    return rounds


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_memories_full_to_their_limit_give_the_same_answers(rules: RuleSet) -> None:
    forget()
    roomy = _random_rounds_codes(rules, 5, 4)
    forget()
    captures.set_limits(10, 10)
    try:
        assert _random_rounds_codes(rules, 5, 4) == roomy
        stats = captures.memory_stats()
    finally:
        captures.set_limits(captures.MEMORY_LIMIT, captures.CARD_MEMORY_LIMIT)
    rule = capture_rule(rules)
    assert all(len(memory) <= 10 for memory in rule.known)
    assert all(held <= 10 for name, (held, _, _) in stats.items() if "by cards" not in name)
    assert stats[f"{rule.name} shapes"][2] > 10  # it did fill, and let go


def test_a_full_memory_lets_go_of_its_oldest_quarter() -> None:
    worked_out = []

    def square(n: int) -> int:
        worked_out.append(n)
        return n * n

    memory = captures.BoundedMemory(square, 8)
    assert [memory[n] for n in range(8)] == [n * n for n in range(8)]
    assert memory[3] == 9
    assert memory.misses == 8  # remembered: not worked out again
    assert memory[8] == 64
    assert sorted(memory) == [2, 3, 4, 5, 6, 7, 8]  # the first two of eight let go
    assert memory.get(0) is None
    assert memory.misses == 9
    memory.forget()
    assert not memory
    assert memory.misses == 0


def test_forget_empties_every_memory_that_memory_sizes_counts() -> None:
    rng = random.Random(8)
    rnd = Round(RuleSet(), 0, shuffled_deck(rng))
    while not rnd.finished:
        codes = rnd.legal_codes()
        rnd.push_code(codes[rng.randrange(len(codes))])
    assert any(captures.memory_sizes().values())
    forget()
    assert not any(captures.memory_sizes().values())


def _three_ways(rules: RuleSet, seed: int) -> None:
    """Play one random round through the naive engine, the fast path and the checked path at
    once, checking that all three offer the same plays and end with the same piles."""
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    dealer = rng.randrange(rules.players)
    fast = Round(rules, dealer, deck)
    checked = Round(rules, dealer, deck)
    if fast.void:
        assert checked.void
        return
    naive = NaiveRound(rules, dealer, deck)
    while not naive.finished:
        legal = naive.legal()
        theirs = sorted(Play(card, group).code for card, group in legal)
        assert sorted(fast.legal_codes()) == theirs
        assert fast.legal_codes() == [p.code for p in checked.legal_plays()]
        card, group = legal[rng.randrange(len(legal))]
        play = Play(card, group)
        seat = fast.turn
        sweep = fast.push_code(play.code)
        record = checked.play(play, seat, exact=True)
        assert (record.seat, record.play, record.sweep) == (seat, play, sweep)
        naive.play(card, group)
    assert fast.finished
    assert checked.finished
    assert fast.sweeps == checked.sweeps == naive.sweeps
    for side in range(rules.side_count):
        assert fast.piles[side] == checked.piles[side] == sum(c.bit for c in naive.piles[side])
    assert fast.score() == checked.score()
    assert fast.history == checked.history


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(RULE_SETS), st.integers(0, 2**32 - 1))
def test_fast_and_checked_paths_agree_with_the_reference_on_random_plays(
    rules: RuleSet, seed: int
) -> None:
    _three_ways(rules, seed)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_every_variant_agrees_after_the_memory_is_emptied(rules: RuleSet) -> None:
    forget()
    for seed in range(3):
        _three_ways(rules, seed)
