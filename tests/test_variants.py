"""One example per named variant in RULES.md, and the refused combinations."""

from __future__ import annotations

import pytest
from positions import cards, make_round, options

from scopa_net.cards import CARDS
from scopa_net.errors import IllegalPlayError, IllegalReason, RuleSetError
from scopa_net.notation import parse_card
from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet, Variant
from scopa_net.scoring import score_round


def rules_with(*names: str, players: int = 2) -> RuleSet:
    return RuleSet.of(players, 11, names)


def test_scopone_deals_nine_each_and_four_to_the_table_with_no_stock() -> None:
    rnd = Round(rules_with("scopone", players=4), 0, CARDS)
    assert [len(h) for h in rnd.hands] == [9, 9, 9, 9]
    assert len(rnd.table) == 4
    assert rnd.stock_count == 0


def test_scopone_scientifico_deals_ten_each_and_an_empty_table() -> None:
    rnd = Round(rules_with("scopone_scientifico", players=4), 0, CARDS)
    assert [len(h) for h in rnd.hands] == [10, 10, 10, 10]
    assert rnd.table == []
    assert rnd.stock_count == 0
    # The opening player can only feed the table.
    assert all(code < 64 for code in rnd.legal_codes())


def test_asso_piglia_tutto_ace_takes_the_whole_table_as_a_sweep() -> None:
    rnd = make_round(rules_with("asso_piglia_tutto"), {0: "Ad", 1: "2b"}, "5s 7d Kh", stock=6)
    assert options(rnd, "Ad") == {frozenset({"5s", "7d", "Kh"})}
    assert rnd.play(parse_card("Ad")).sweep
    assert rnd.table == []
    assert rnd.sweeps == [1, 0]


def test_asso_piglia_tutto_with_an_ace_on_the_table_pairs_by_rank() -> None:
    rnd = make_round(rules_with("asso_piglia_tutto"), {0: "Ad", 1: "2b"}, "As 7d Kh", stock=6)
    assert options(rnd, "Ad") == {frozenset({"As"})}
    with pytest.raises(IllegalPlayError):
        rnd.play(Play(parse_card("Ad"), tuple(parse_card(t) for t in ["As", "7d", "Kh"])))


def test_asso_piglia_tutto_ace_on_an_empty_table_just_lies_there() -> None:
    rnd = make_round(rules_with("asso_piglia_tutto"), {0: "Ad", 1: "2b"}, "", stock=6)
    assert options(rnd, "Ad") == {frozenset()}
    assert not rnd.play(parse_card("Ad")).sweep
    assert [str(c) for c in rnd.table_cards] == ["Ad"]


def test_asso_piglia_tutto_is_no_sweep_on_the_last_play() -> None:
    rules = rules_with("asso_piglia_tutto")
    rnd = make_round(rules, {1: "Ad"}, "5s 7d", stock=0, turn=1)
    assert not rnd.play(parse_card("Ad")).sweep
    assert rnd.sweeps == [0, 0]


def test_asso_piglia_tutto_refuses_a_part_of_the_table() -> None:
    rnd = make_round(rules_with("asso_piglia_tutto"), {0: "Ad", 1: "2b"}, "5s 7d", stock=6)
    with pytest.raises(IllegalPlayError) as info:
        rnd.play(Play(parse_card("Ad"), (parse_card("5s"),)))
    assert info.value.reason is IllegalReason.ACE_TAKES_ALL


def test_quindici_five_takes_a_king() -> None:
    rnd = make_round(rules_with("quindici"), {0: "5d", 1: "2b"}, "Ks 7h 3h 5b", stock=6)
    # 5 + K = 15 and 5 + 7 + 3 = 15; there is no rank rule (the 5 of clubs is no match).
    assert options(rnd, "5d") == {frozenset({"Ks"}), frozenset({"7h", "3h"})}


def test_quindici_card_that_makes_no_fifteen_is_laid() -> None:
    rnd = make_round(rules_with("quindici"), {0: "2d", 1: "2b"}, "As 3h", stock=6)
    assert options(rnd, "2d") == {frozenset()}


def test_quindici_sweep() -> None:
    rnd = make_round(rules_with("quindici"), {0: "7d", 1: "2b"}, "Js", stock=6)
    assert rnd.play(parse_card("7d")).sweep


def test_re_bello_point() -> None:
    rules = rules_with("re_bello")
    piles = [sum(1 << i for i in cards("Kd 2s")), sum(1 << i for i in cards("3s"))]
    line = score_round(rules, piles, [0, 0]).line("re_bello")
    assert line.points == (1, 0)


def test_napola_scores_the_run_of_coins_from_the_ace() -> None:
    rules = rules_with("napola")
    run_of_five = sum(1 << i for i in cards("Ad 2d 3d 4d 5d 7d"))
    assert score_round(rules, [run_of_five, 0], [0, 0]).line("napola").points == (5, 0)
    full = sum(1 << i for i in cards("Ad 2d 3d 4d 5d 6d 7d Jd Qd Kd"))
    assert score_round(rules, [0, full], [0, 0]).line("napola").points == (0, 10)
    no_three = sum(1 << i for i in cards("Ad 2d 4d 5d"))
    assert score_round(rules, [no_three, 0], [0, 0]).line("napola").points == (0, 0)


def test_six_players_default_two_teams_of_three_alternating() -> None:
    rules = RuleSet(6)
    assert rules.side_count == 2
    assert [rules.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]


def test_six_as_three_pairs_partners_opposite() -> None:
    rules = rules_with("six_as_three_pairs", players=6)
    assert rules.side_count == 3
    assert rules.seats_of(0) == (0, 3)
    assert rules.seats_of(1) == (1, 4)


def test_four_players_partners_opposite() -> None:
    assert RuleSet(4).seats_of(0) == (0, 2)
    assert RuleSet(4).seats_of(1) == (1, 3)


def test_variants_combine_where_they_make_sense() -> None:
    rules = rules_with("scopone_scientifico", "asso_piglia_tutto", "napola", players=4)
    assert rules.has(Variant.NAPOLA)
    assert rules.hand_size == 10


@pytest.mark.parametrize(
    ("players", "variants", "complaint"),
    [
        (5, (), "5 players"),
        (7, (), "7 players"),
        (2, ("scopone",), "scopone is for 4 players"),
        (3, ("scopone_scientifico",), "for 4 players"),
        (4, ("scopone", "scopone_scientifico"), "not both"),
        (2, ("asso_piglia_tutto", "quindici"), "contradict"),
        (4, ("six_as_three_pairs",), "for 6 players"),
        (2, ("briscola",), "unknown variant 'briscola'"),
    ],
)
def test_impossible_rule_sets_are_refused_with_a_clear_error(
    players: int, variants: tuple[str, ...], complaint: str
) -> None:
    with pytest.raises(RuleSetError, match=complaint):
        RuleSet.of(players, 11, variants)


@pytest.mark.parametrize("target", [0, 100, -3])
def test_target_out_of_range_is_refused(target: int) -> None:
    with pytest.raises(RuleSetError, match="out of range"):
        RuleSet(2, target)


@pytest.mark.parametrize("target", [1, 11, 16, 21, 31, 99])
def test_usual_targets_are_accepted(target: int) -> None:
    assert RuleSet(2, target).target == target


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Napola", "napola"),
        ("napoli", "napola"),
        ("scopa d'assi", "asso_piglia_tutto"),
        ("ace sweeps", "asso_piglia_tutto"),
        ("Re Bello", "re_bello"),
        ("scopone-scientifico", "scopone_scientifico"),
        ("scopa di quindici", "quindici"),
        ("primiera sum", "primiera=sum"),
    ],
)
def test_a_variant_under_a_name_players_use_is_refused_naming_ours(typed: str, meant: str) -> None:
    """A player who has always called it scopa d'assi, or napoli, typed that and read only the
    list of our names: which of them was the game they meant? The refusal says it."""
    with pytest.raises(RuleSetError) as refused:
        RuleSet.of(4, 11, [typed])
    assert str(refused.value).startswith(f"unknown variant {typed!r}; did you mean {meant}? ")
    assert "known variants: scopone, " in str(refused.value)


def test_an_unknown_variant_with_no_near_name_lists_the_known_ones() -> None:
    with pytest.raises(RuleSetError) as refused:
        RuleSet.of(2, 11, ["briscola"])
    assert str(refused.value).startswith("unknown variant 'briscola'; known variants: scopone, ")
