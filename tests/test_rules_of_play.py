"""One example per rule of play in RULES.md (captures, sweeps, the end of a round)."""

from __future__ import annotations

import pytest
from positions import make_round, options

from scopa_net.cards import CARDS
from scopa_net.errors import AmbiguousPlayError, IllegalPlayError, IllegalReason
from scopa_net.notation import parse_card
from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet, Variant

TWO = RuleSet()


def play_of(card: str, takes: str = "") -> Play:
    return Play(parse_card(card), tuple(parse_card(t) for t in takes.split()))


def test_rank_capture_takes_exactly_one_matching_card() -> None:
    rnd = make_round(TWO, {0: "5s", 1: "2b"}, "5h 3d 2d", stock=6)
    assert options(rnd, "5s") == {frozenset({"5h"})}


def test_rank_beats_sum_the_seeds_knave_on_1_3_4_8() -> None:
    # A knave (8) on a table of ace, 3, 4 and a knave takes only the knave, never 1+3+4.
    rnd = make_round(TWO, {0: "Jd", 1: "2b"}, "As 3h 4b Jb", stock=6)
    assert options(rnd, "Jd") == {frozenset({"Jb"})}


def test_choice_among_equal_single_matches() -> None:
    rnd = make_round(TWO, {0: "6s", 1: "2b"}, "6d 6h 4b", stock=6)
    assert options(rnd, "6s") == {frozenset({"6d"}), frozenset({"6h"})}
    with pytest.raises(AmbiguousPlayError) as info:
        rnd.play(parse_card("6s"))
    assert {str(p) for p in info.value.options} == {"6s x 6d", "6s x 6h"}
    assert "'6s'" in str(info.value)


def test_sum_capture_when_no_single_card_matches() -> None:
    rnd = make_round(TWO, {0: "7b", 1: "2b"}, "5s 2h 4d As Kd", stock=6)
    assert options(rnd, "7b") == {frozenset({"5s", "2h"}), frozenset({"4d", "2h", "As"})}


def test_sum_choice_among_equal_groups_is_the_players() -> None:
    rnd = make_round(TWO, {0: "Kb", 1: "2b"}, "6s 4d 7h 3h", stock=6)
    record = rnd.play(play_of("Kb", "7h 3h"))
    assert {str(c) for c in record.play.captured} == {"7h", "3h"}
    assert [str(c) for c in rnd.table_cards] == ["4d", "6s"]


def test_a_card_that_can_capture_must_capture() -> None:
    rnd = make_round(TWO, {0: "6s 2b", 1: "2h"}, "2d 4h", stock=6)
    before = rnd.copy()
    with pytest.raises(IllegalPlayError) as info:
        rnd.play(play_of("6s"), exact=True)
    assert info.value.reason is IllegalReason.MUST_CAPTURE
    assert rnd.legal_codes() == before.legal_codes()
    assert rnd.table == before.table
    assert rnd.hands == before.hands


def test_a_card_that_cannot_capture_stays_on_the_table() -> None:
    rnd = make_round(TWO, {0: "Kb", 1: "2b"}, "6s 3d", stock=6)
    assert options(rnd, "Kb") == {frozenset()}
    rnd.play(play_of("Kb"))
    assert sorted(str(c) for c in rnd.table_cards) == ["3d", "6s", "Kb"]


def test_combination_refused_while_a_single_card_matches() -> None:
    rnd = make_round(TWO, {0: "6s", 1: "2b"}, "6d 4h 2h", stock=6)
    with pytest.raises(IllegalPlayError) as info:
        rnd.play(play_of("6s", "4h 2h"))
    assert info.value.reason is IllegalReason.SINGLE_CARD_MATCHES


def test_group_that_does_not_add_up_is_refused() -> None:
    rnd = make_round(TWO, {0: "7s", 1: "2b"}, "5d 3h As", stock=6)
    with pytest.raises(IllegalPlayError) as info:
        rnd.play(play_of("7s", "5d 3h"))
    assert info.value.reason is IllegalReason.WRONG_SUM


def test_card_not_in_hand_and_not_your_turn() -> None:
    rnd = make_round(TWO, {0: "7s", 1: "2b"}, "5d", stock=6)
    with pytest.raises(IllegalPlayError) as info:
        rnd.play(play_of("7d"))
    assert info.value.reason is IllegalReason.NOT_IN_HAND
    with pytest.raises(IllegalPlayError) as info:
        rnd.play(play_of("2b"), seat=1)
    assert info.value.reason is IllegalReason.NOT_YOUR_TURN
    with pytest.raises(IllegalPlayError) as info:
        rnd.play(play_of("7s", "Kd"))
    assert info.value.reason is IllegalReason.NOT_ON_TABLE


def test_sweep_scores_for_the_side() -> None:
    rnd = make_round(TWO, {0: "7s", 1: "2b"}, "5d 2h", stock=6)
    record = rnd.play(play_of("7s", "5d 2h"))
    assert record.sweep
    assert rnd.sweeps == [1, 0]


def test_sweep_on_the_next_to_last_play_counts() -> None:
    rnd = make_round(TWO, {0: "7s", 1: "2b"}, "5d 2h", stock=0)
    assert rnd.play(play_of("7s", "5d 2h")).sweep
    assert rnd.sweeps == [1, 0]


def test_no_sweep_on_the_last_play_of_the_round() -> None:
    rnd = make_round(TWO, {1: "7s"}, "5d 2h", stock=0, turn=1, last_capturer=0)
    record = rnd.play(play_of("7s", "5d 2h"))
    assert not record.sweep
    assert rnd.sweeps == [0, 0]
    assert rnd.finished


def test_scopone_scientifico_counts_a_sweep_on_the_last_play() -> None:
    rules = RuleSet(4, variants=frozenset({Variant.SCOPONE_SCIENTIFICO}))
    rnd = make_round(rules, {3: "7s"}, "5d 2h", stock=0, turn=3)
    assert rnd.play(play_of("7s", "5d 2h")).sweep
    assert rnd.sweeps == [0, 1]


def test_last_capturer_takes_the_rest_and_it_is_no_sweep() -> None:
    rnd = make_round(TWO, {0: "5s", 1: "Kb"}, "5d 3h", stock=0, piles={0: "", 1: ""})
    rnd.play(play_of("5s", "5d"))
    rnd.play(play_of("Kb"))
    assert rnd.finished
    assert {str(c) for c in rnd.leftover_cards} == {"3h", "Kb"}
    assert rnd.sweeps == [0, 0]
    assert rnd.piles[0] & parse_card("Kb").bit


def test_leftover_counts_for_nobody_when_nobody_captured() -> None:
    rnd = make_round(TWO, {0: "5s", 1: "Kb"}, "4d 3h", stock=0)
    rnd.play(play_of("5s"))
    rnd.play(play_of("Kb"))
    assert rnd.finished
    assert rnd.leftover == 0
    assert not rnd.piles[0] & parse_card("5s").bit
    assert not rnd.piles[1] & parse_card("5s").bit


def test_play_order_runs_to_the_next_seat_and_the_next_deal_comes_when_hands_empty() -> None:
    rnd = Round(RuleSet(3), 1, CARDS)
    assert rnd.turn == 2
    seen = []
    for _ in range(9):
        seen.append(rnd.turn)
        rnd.push_code(rnd.legal_codes()[0])
    assert seen == [2, 0, 1] * 3
    assert rnd.turn == 2
    assert [len(h) for h in rnd.hands] == [3, 3, 3]
    assert rnd.stock_count == 40 - 4 - 18


def test_void_deal_with_three_kings_on_the_table() -> None:
    deck = list(CARDS)
    # 2 players, dealer 0: positions 6..9 are the table. Put three kings there.
    kings = [c for c in deck if c.rank == 10][:3]
    rest = [c for c in deck if c not in kings]
    deck = rest[:6] + kings + rest[6:]
    rnd = Round(TWO, 0, deck)
    assert rnd.void
    assert rnd.finished
    assert rnd.legal_codes() == []
    with pytest.raises(IllegalPlayError) as info:
        rnd.play(rnd.hand(1)[0])
    assert info.value.reason is IllegalReason.ROUND_OVER


def test_two_kings_on_the_table_is_a_normal_deal() -> None:
    deck = list(CARDS)
    kings = [c for c in deck if c.rank == 10][:2]
    rest = [c for c in deck if c not in kings]
    deck = rest[:6] + kings + rest[6:]
    assert not Round(TWO, 0, deck).void


def test_scopone_scientifico_deal_has_no_table_so_is_never_void() -> None:
    rules = RuleSet(4, variants=frozenset({Variant.SCOPONE_SCIENTIFICO}))
    kings_first = sorted(CARDS, key=lambda c: -c.rank)
    rnd = Round(rules, 0, kings_first)
    assert not rnd.void
    assert rnd.table == []
    assert [len(h) for h in rnd.hands] == [10] * 4


def test_deck_must_hold_each_card_once() -> None:
    with pytest.raises(ValueError, match="exactly once"):
        Round(TWO, 0, [*CARDS[:39], CARDS[0]])
