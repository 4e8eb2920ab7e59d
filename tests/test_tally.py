"""The score keeper's core: hands, undo, the end of the game, saving, and the guided count."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.cards import CARDS, COINS_MASK, RE_BELLO, SETTEBELLO, cards_of
from scopa_net.match import match_winner
from scopa_net.notation import format_card
from scopa_net.rules import RuleSet
from scopa_net.scoring import napola_run, score_round
from scopa_net.tally import (
    SCORING_VARIANTS,
    Ask,
    Guide,
    Hand,
    How,
    Tally,
    TallyError,
)

NAMES = {2: "Ada Bruno", 3: "Ada Bruno Carla", 4: "Ada Bruno Carla Dino", 6: "A B C D E F"}


def new(players: int = 2, target: int = 11, variants: tuple[str, ...] = ()) -> Tally:
    return Tally.new(NAMES[players].split(), target=target, variants=variants)


# --- the guided count is scored by the game's own scoring ----------------------------------


@st.composite
def dealt_round(draw: st.DrawFn) -> tuple[RuleSet, list[int], list[int]]:
    """A finished round's piles: every card to some side (the last capturer takes what is
    left, so a count whose cards do not make 40 is a typo the count refuses), and sweeps."""
    players = draw(st.sampled_from([2, 3, 4, 6]))
    variants = draw(
        st.sets(st.sampled_from([v for v in SCORING_VARIANTS if v.value != "six_as_three_pairs"]))
    )
    if players == 6 and draw(st.booleans()):
        variants.add("six_as_three_pairs")
    rules = RuleSet.of(players, 11, variants)
    owners = draw(st.lists(st.integers(0, rules.side_count - 1), min_size=40, max_size=40))
    piles = [0] * rules.side_count
    for card, owner in zip(CARDS, owners, strict=True):
        piles[owner] |= card.bit
    sweeps = [draw(st.integers(0, min(5, p.bit_count()))) for p in piles]
    return rules, piles, sweeps


def count_by_guide(tally: Tally, piles: list[int], sweeps: list[int]) -> Guide:
    """Answer every question of the guided count as a person with these piles would."""
    guide = Guide(tally)

    def holder(card_bit: int) -> str:
        side = next((s for s, p in enumerate(piles) if p & card_bit), None)
        return "nobody" if side is None else tally.names[tally.rules.seats_of(side)[0]]

    while not guide.done:
        ask, side = guide.asking
        if ask is Ask.CARDS:
            guide.answer(" ".join(str(p.bit_count()) for p in piles))
        elif ask is Ask.COINS:
            guide.answer(" ".join(str((p & COINS_MASK).bit_count()) for p in piles))
        elif ask is Ask.SETTEBELLO:
            guide.answer(holder(SETTEBELLO.bit))
        elif ask is Ask.PRIMIERA:
            assert side is not None
            held = cards_of(piles[side])
            guide.answer(" ".join(format_card(c) for c in held) or "-")
        elif ask is Ask.SWEEPS:
            guide.answer(" ".join(map(str, sweeps)))
        elif ask is Ask.RE_BELLO:
            guide.answer(holder(RE_BELLO.bit))
        else:
            guide.answer(" ".join(str(napola_run(p)) for p in piles))
    return guide


@settings(max_examples=150, deadline=None)
@given(dealt_round())
def test_a_counted_hand_scores_as_the_engine_scores_the_same_piles(round_) -> None:
    rules, piles, sweeps = round_
    names = NAMES[rules.players].split()
    tally = Tally(rules, tuple(names))
    guide = count_by_guide(tally, piles, sweeps)
    assert guide.sheet() == score_round(rules, piles, sweeps)
    hand = guide.hand()
    assert hand.points == score_round(rules, piles, sweeps).totals
    assert hand.how is How.COUNTED


@settings(max_examples=80, deadline=None)
@given(dealt_round())
def test_the_best_card_of_each_suit_gives_the_same_primiera_as_all_the_cards(round_) -> None:
    rules, piles, sweeps = round_
    tally = Tally(rules, tuple(NAMES[rules.players].split()))
    whole = count_by_guide(tally, piles, sweeps)
    assert all(len(count.best) == count.suits for count in whole.primiera)
    best_only = Guide(tally)
    # Answer the primiera with only the best cards: the keys come out the same.
    answers = iter(
        [
            " ".join(str(p.bit_count()) for p in piles),
            " ".join(str((p & COINS_MASK).bit_count()) for p in piles),
        ]
    )
    best_only.answer(next(answers))
    best_only.answer(next(answers))
    holder = next((s for s, p in enumerate(piles) if p & SETTEBELLO.bit), None)
    best_only.answer("nobody" if holder is None else tally.names[rules.seats_of(holder)[0]])
    for count in whole.primiera:
        best_only.answer(" ".join(format_card(c) for c in count.best) or "-")
    assert [p.key for p in best_only.primiera] == [p.key for p in whole.primiera]


def test_a_primiera_worked_out_as_a_person_would() -> None:
    tally = new(2)
    guide = Guide(tally)
    assert guide.answer("22") == "Cards: Ada 22, Bruno 18."
    assert guide.answer("6") == "Coins: Ada 6, Bruno 4."
    guide.answer("ada")
    said = guide.answer("7d 6h As Kb")
    assert said == "Primiera, Ada: 7d 21 + 6h 18 + As 16 + Kb 10 = 65, 4 suits."
    said = guide.answer("6d 7h 7s")
    assert said == "Primiera, Bruno: 6d 18 + 7h 21 + 7s 21 = 60, 3 suits."
    guide.answer("0 2")
    sheet = guide.sheet()
    assert sheet.line("primiera").winner == 0  # four suits beat three, whatever the totals
    assert sheet.totals == (4, 2)


def test_the_primiera_rule_in_play_decides() -> None:
    """primiera=sum: a missing suit counts 0 and the totals alone compare."""
    for variants, winner in (((), 0), (("primiera=sum",), 1)):
        guide = Guide(new(2, variants=variants))
        for answer in ("20", "5", "bruno", "Kd Kh Ks Kb", "7d 7h 7s"):
            guide.answer(answer)
        guide.answer("0 0")
        assert guide.sheet().line("primiera").winner == winner  # 40 in 4 suits v 63 in 3


def test_ties_score_nobody() -> None:
    guide = Guide(new(2))
    for answer in ("20", "5", "bruno", "6d 7h 7s", "7d 7b 6h"):
        guide.answer(answer)
    guide.answer("0 0")
    sheet = guide.sheet()
    assert sheet.totals == (0, 1)  # the settebello, which cannot be tied
    assert [line.name for line in sheet.lines if line.winner is None] == [
        "cards",
        "coins",
        "primiera",
        "sweeps",
    ]


def test_a_side_that_took_coins_has_a_coin_in_its_primiera() -> None:
    """The primiera was not checked against the coins counted: a side that took coins was
    given a primiera with none (or none at all), and one took fewer cards than it named. The
    refusal said "add Bruno's best coin", and the coin typed alone was then taken as the whole
    primiera and refused: it says to type the primiera again, the coin in it."""
    guide = Guide(new(2))
    for answer in ("20", "4", "ada", "7d 6h 7s 6b"):
        guide.answer(answer)
    for primiera in ("7h 5s 5b", "-"):
        with pytest.raises(TallyError) as said:
            guide.answer(primiera)
        assert (
            str(said.value)
            == "Bruno took 6 coins, so the primiera holds coins: type Bruno's primiera again "
            "with Bruno's best coin in it"
        )
    assert guide.answer("6d 7h 5s") == "Primiera, Bruno: 6d 18 + 7h 21 + 5s 15 = 54, 3 suits."


def test_a_primiera_names_no_more_cards_besides_coins_than_were_taken() -> None:
    guide = Guide(new(2))
    for answer in ("36", "8", "ada", "7d 7h 7s 7b"):
        guide.answer(answer)
    with pytest.raises(TallyError) as said:
        guide.answer("6d 6h 6s 6b")
    assert str(said.value) == "Bruno took 2 cards besides coins, not 3"
    assert guide.answer("6d 6h 6s") == "Primiera, Bruno: 6d 18 + 6h 18 + 6s 18 = 54, 3 suits."


def test_two_sides_cannot_both_hold_a_whole_suit() -> None:
    """Ada took ten cards besides coins and named only cups (so every cup), yet Bruno's
    primiera with 6h in it was taken too, and the hand scored."""
    guide = Guide(new(2))
    for answer in ("20", "10", "ada", "7d 7h"):
        guide.answer(answer)
    with pytest.raises(TallyError) as said:
        guide.answer("6h Ks Kb")
    assert str(said.value) == (
        "Ada took 10 cards besides coins, all cups by the primiera, but 1 of the 10 cups went "
        "elsewhere (Bruno 6h): only 9 are left for Ada; type Bruno's primiera again, or 'undo' "
        "to go back"
    )
    assert guide.answer("7s Kb") == "Primiera, Bruno: 7s 21 + Kb 10 = 31, 2 suits."
    # The counts fit exactly: Ada every cup, Bruno every sword and club (and all the coins).
    guide = Guide(new(2))
    for answer in ("10 30", "0 10", "bruno", "6h"):
        guide.answer(answer)
    with pytest.raises(TallyError, match=r"^Ada took 10 cards besides coins, all cups .*Bruno 7h"):
        guide.answer("7d 7h 7s")
    assert guide.answer("7d 7s 7b") == "Primiera, Bruno: 7d 21 + 7s 21 + 7b 21 = 63, 3 suits."


def test_the_count_refuses_what_cannot_be_and_keeps_going() -> None:
    guide = Guide(new(2, variants=("napola",)))
    bad = ["", "x", "41", "20 21", "20 20 0"]
    for answer in bad:
        with pytest.raises(TallyError):
            guide.answer(answer)
    assert guide.asking == (Ask.CARDS, None)
    with pytest.raises(TallyError, match=r"'30 9' make 39; all 40 are taken by the end of a hand"):
        guide.answer("30 9")  # a typo: the last capturer takes what is left
    guide.answer("34 6")
    with pytest.raises(TallyError, match="Bruno took 6 cards, so not 7 coins"):
        guide.answer("3 7")
    guide.answer("10 0")
    with pytest.raises(TallyError, match="Bruno took no coins"):
        guide.answer("bruno")
    with pytest.raises(TallyError, match="nobody here is called"):
        guide.answer("zed")
    guide.answer("ada")
    with pytest.raises(TallyError, match="named twice"):
        guide.answer("7h 7h")
    # Ada took every coin, so the settebello, her best coin; and 24 cards of three suits.
    with pytest.raises(TallyError) as said:
        guide.answer("6d 7h 6s 7b")
    assert str(said.value) == (
        "Ada took the settebello, so Ada's best coin is 7d, not 6d: type it with the best card "
        "of each other suit"
    )
    with pytest.raises(TallyError, match="Ada took the settebello, so Ada's best coin is 7d: "):
        guide.answer("7h 6s 7b")
    with pytest.raises(TallyError) as said:
        guide.answer("7d 7h 6s")
    assert str(said.value) == (
        "Ada took 24 cards besides coins (ten a suit), so at least 3 other suits, not 2: type "
        "Ada's primiera again with the best card of each"
    )
    guide.answer("7d 7h 6s 7b")
    with pytest.raises(TallyError, match="went to Ada already"):
        guide.answer("7h")
    with pytest.raises(TallyError, match="7d went to Ada already"):
        guide.answer("settebello")
    with pytest.raises(TallyError, match="took 0 coins"):
        guide.answer("6d")
    with pytest.raises(TallyError, match=r"Bruno took 6 cards besides coins .*, not 0: type"):
        guide.answer("-")  # 6 cards hold a suit at least
    guide.answer("6h")
    guide.answer("1 0")
    with pytest.raises(TallyError, match="only one napola"):
        guide.answer("3 3")
    with pytest.raises(TallyError, match="3 to 10"):
        guide.answer("2 0")
    guide.answer("4 0")
    assert guide.done
    assert guide.sheet().line("napola").points == (4, 0)


# --- entering hands, undo, and the end --------------------------------------------------------

Op = tuple[str, int, int]


def ops() -> st.SearchStrategy[list[Op]]:
    op = st.tuples(
        st.sampled_from(["add", "total", "commit", "undo"]), st.integers(0, 5), st.integers(0, 6)
    )
    return st.lists(op, max_size=40)


def apply(tally: Tally, op: Op) -> Tally:
    kind, side, points = op
    side %= tally.side_count
    if kind == "add":
        return tally.add(side, points)
    if kind == "total":
        return tally.set_total(side, points)
    if kind == "commit":
        return tally.commit()
    return tally.undo()[0]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 3, 4, 6]), st.integers(1, 21), st.booleans(), ops())
def test_every_entry_is_undone_exactly_and_every_state_saves_and_loads(
    players: int, target: int, cappotto: bool, steps: list[Op]
) -> None:
    tally = new(players, target, ("cappotto",) if cappotto else ())
    for op in steps:
        try:
            after = apply(tally, op)
        except TallyError:
            continue  # refused: nothing to change
        if op[0] == "commit":  # the hand goes; what was being entered went into it
            assert after.undo()[0] == replace(tally, draft=())
        elif op[0] != "undo":
            assert after.undo()[0] == tally
        assert Tally.from_dict(json.loads(json.dumps(after.to_dict()))) == after
        tally = after
        assert tally.scores == tuple(
            map(sum, zip(*(h.points for h in tally.hands), strict=True))
        ) or (not tally.hands)
        assert tally.winner == (match_winner(tally.rules, tally.scores) if tally.hands else None)
        rows = tally.standings()
        assert [r.points for r in rows] == sorted(tally.scores, reverse=True)
        assert all(r.to_go == max(0, target - r.points) for r in rows)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=12))
def test_the_game_ends_at_the_first_hand_that_wins_and_takes_no_more(
    hands: list[tuple[int, int]],
) -> None:
    tally = new(2, 11)
    for points in hands:
        if tally.over:
            with pytest.raises(TallyError, match="the game is over"):
                tally.commit(Hand(points, How.TOTAL))
            with pytest.raises(TallyError, match="the game is over"):
                tally.add(0, 1)
            break
        tally = tally.commit(Hand(points, How.TOTAL))
        a, b = tally.scores
        assert tally.over == ((a >= 11 or b >= 11) and a != b)


def test_level_past_the_target_means_one_more_hand() -> None:
    tally = new(2, 11).commit(Hand((11, 11), How.TOTAL))
    assert not tally.over
    assert tally.status() == "Ada and Bruno are level at 11: one more hand, Bruno to deal."
    tally = tally.commit(Hand((0, 0), How.TOTAL))
    assert not tally.over
    tally = tally.commit(Hand((1, 0), How.TOTAL))
    assert tally.winner == 0
    assert tally.status() == "Ada wins, 12-11."


def test_cappotto_ends_the_game_only_where_it_is_on() -> None:
    plain = new(4, 21).commit(Hand((7, 0), How.TOTAL))
    assert not plain.over
    capp = new(4, 21, ("cappotto",)).commit(Hand((7, 0), How.TOTAL))
    assert capp.winner == 0
    assert capp.status() == "Ada & Carla win by cappotto, 7-0."


def test_partners_and_names() -> None:
    tally = new(4)
    assert tally.labels == ("Ada & Carla", "Bruno & Dino")
    assert tally.side_named("carla") == 0
    assert tally.side_named("Din") == 1
    assert tally.side_named("2") == 1
    six = new(6)
    assert six.side_count == 2
    assert six.label(0) == "A & C & E"
    pairs = Tally.new(["A", "B", "C", "D", "E", "F"], variants=["six_as_three_pairs"])
    assert pairs.labels == ("A & D", "B & E", "C & F")
    with pytest.raises(TallyError, match="could be"):
        Tally.new(["Anna", "Anton"]).side_named("an")
    for names, words in (
        (["Ada"], "1 player is not a Scopa table"),
        (["Ada", "ada"], "names must differ"),
        (["Ada", "undo"], "would read as the command"),
        (["Ada", "no"], "a word the tally uses"),
        (["Ada", "B+C"], "invalid name"),
        (["A", "B", "C", "D", "E"], "5 players cannot play"),
    ):
        with pytest.raises(TallyError, match=words):
            Tally.new(names)


def test_a_saved_tally_that_is_not_one_is_refused_in_one_line() -> None:
    good = new(2).add(0, 2).to_dict()
    for broken in ({}, {**good, "version": 9}, {**good, "names": ["Ada"]}, {**good, "hands": [1]}):
        with pytest.raises(TallyError):
            Tally.from_dict(broken)
