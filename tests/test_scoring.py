"""Round scoring, line by line, including the worked examples from the rule sources."""

from __future__ import annotations

from positions import cards

from scopa_net.rules import RuleSet
from scopa_net.scoring import primiera_key, primiera_total, score_round

TWO = RuleSet()
SUM = RuleSet.of(2, 11, ["primiera=sum"])
COURT_ZERO = RuleSet.of(2, 11, ["court_prime=0"])


def pile(text: str) -> int:
    return sum(1 << i for i in cards(text))


def test_primiera_worked_example_is_76() -> None:
    # Seven of cups, seven of coins, six of clubs, ace of swords: 21 + 21 + 18 + 16.
    assert primiera_total(pile("7h 7d 6b As"), TWO) == (4, 76)


def test_best_card_per_suit_counts_once() -> None:
    assert primiera_total(pile("7d 6d Ad 5h 2h"), TWO) == (2, 21 + 15)


def test_three_sevens_and_a_missing_suit_lose_to_one_seven_and_three_aces() -> None:
    sevens = pile("7d 7h 7s")  # 63, three suits
    seven_and_aces = pile("7b Ad Ah As")  # 21 + 48 = 69, four suits
    for rules in (TWO, SUM):
        line = score_round(rules, [sevens, seven_and_aces], [0, 0]).line("primiera")
        assert line.points == (0, 1), rules
        assert line.figures == (63, 69)


def test_missing_suit_rules_differ_where_more_suits_meet_a_higher_total() -> None:
    three_sevens = pile("7d 7h 7s")  # 3 suits, 63
    four_courts = pile("Kd Kh Ks Kb")  # 4 suits, 40
    default = score_round(TWO, [three_sevens, four_courts], [0, 0]).line("primiera")
    assert default.points == (0, 1)  # all four suits beat a side missing one
    summed = score_round(SUM, [three_sevens, four_courts], [0, 0]).line("primiera")
    assert summed.points == (1, 0)  # a missing suit counts 0: 63 > 40


def test_between_sides_missing_suits_more_suits_wins() -> None:
    two_suits = pile("7d 7h")  # 42
    three_suits = pile("2d 2h 2s")  # 36
    assert primiera_key(three_suits, TWO) > primiera_key(two_suits, TWO)
    assert score_round(TWO, [two_suits, three_suits], [0, 0]).line("primiera").winner == 1


def test_equal_suits_higher_total_and_exact_tie_scores_nobody() -> None:
    a, b = pile("7d 7h 6s"), pile("6d 7h 7s")
    assert score_round(TWO, [a, b], [0, 0]).line("primiera").winner is None
    c = pile("6d 6h 6s")
    assert score_round(TWO, [a, c], [0, 0]).line("primiera").winner == 0


def test_court_cards_hold_a_suit_even_worth_zero() -> None:
    assert primiera_total(pile("Kd 7h 7s 7b"), COURT_ZERO) == (4, 63)
    only_courts = pile("Kd Jh Qs Kb")
    assert primiera_total(only_courts, COURT_ZERO) == (4, 0)
    assert primiera_total(only_courts, TWO) == (4, 40)
    # Four suits of courts still beat three sevens by default, even at 0 each.
    line = score_round(COURT_ZERO, [only_courts, pile("7d 7h 7s")], [0, 0]).line("primiera")
    assert line.winner == 0


def test_cards_coins_settebello_and_sweeps() -> None:
    side0 = pile("Ad 2d 3d 4d 5d 6d 7h 7s 7b Ah As Ab Jd Jh Js Jb Qd Qh Qs Qb Kb")  # 21 cards
    side1 = (1 << 40) - 1 - side0
    score = score_round(TWO, [side0, side1], [2, 1])
    assert score.line("cards").figures == (21, 19)
    assert score.line("cards").points == (1, 0)
    assert score.line("coins").figures == (8, 2)
    assert score.line("coins").points == (1, 0)
    assert score.line("settebello").points == (0, 1)
    assert score.line("sweeps").points == (2, 1)
    assert score.totals == tuple(sum(line.points[s] for line in score.lines) for s in range(2))


def test_twenty_cards_each_is_a_tie_for_nobody() -> None:
    side0 = pile("Ad 2d 3d 4d 5d Ah 2h 3h 4h 5h As 2s 3s 4s 5s Ab 2b 3b 4b 5b")
    side1 = (1 << 40) - 1 - side0
    score = score_round(TWO, [side0, side1], [0, 0])
    assert score.line("cards").points == (0, 0)
    assert score.line("coins").points == (0, 0)


def test_three_players_need_a_strict_plurality() -> None:
    three = RuleSet(3)
    a = pile("Ad 2d 3d 4h 5h")  # 5 cards, 3 coins
    b = pile("4d 5d 6d 6h 7h")  # 5 cards, 3 coins
    c = pile("Ab 2b")  # 2 cards
    score = score_round(three, [a, b, c], [0, 0, 0])
    assert score.line("cards").winner is None  # 5, 5, 2: a tie for the lead
    assert score.line("coins").winner is None
    d = pile("Ab 2b 3b 4b 5b 6b")
    score = score_round(three, [a, b, d], [0, 0, 0])
    assert score.line("cards").winner == 2
    assert score.line("cards").points == (0, 0, 1)


def test_settebello_uncaptured_scores_for_nobody() -> None:
    score = score_round(TWO, [pile("Ad"), pile("Ah")], [0, 0])
    assert score.line("settebello").points == (0, 0)
