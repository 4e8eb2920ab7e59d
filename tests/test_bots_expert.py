"""The expert level: a time budget it keeps to with the caller's clock, more guesses for more
time, and inference that makes deals fitting the other seats' choices likelier."""

from __future__ import annotations

import random
import time

import pytest
from helpers import TickingClock

from scopa_net.bots.arena import ArenaConfig, format_report, play_pair, summarise
from scopa_net.bots.expert import ITERATIONS_PER_SECOND, ExpertPlayer
from scopa_net.bots.inference import ChoiceModel, Inference
from scopa_net.bots.levels import THINKING_LEVELS, make_player
from scopa_net.bots.observed import Observed
from scopa_net.bots.sampling import World
from scopa_net.cards import CARDS, SETTEBELLO
from scopa_net.commands.main import main
from scopa_net.match import Match
from scopa_net.rules import RuleSet


def dealt(seed: int, rules: RuleSet, dealer: int) -> tuple[random.Random, Match]:
    """A match of ``rules`` whose first round is dealt from a deck shuffled by ``seed``, and
    the random source that shuffled it."""
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    match = Match(rules, dealer)
    match.deal(deck)
    return rng, match


def opening_view(seed: int, plays: int = 0):
    rng, match = dealt(seed, RuleSet.of(2), 0)
    rnd = match.round
    assert rnd is not None
    for _ in range(plays):
        codes = rnd.legal_codes()
        match.push_code(codes[rng.randrange(len(codes))])
    return match.view_for(rnd.turn)


def view_with_choices(min_codes: int = 3):
    for seed in range(200):
        view = opening_view(seed, 1)
        if len(Observed.from_view(view).legal_codes()) >= min_codes:
            return view
    raise AssertionError("no position with enough choices")


def test_the_budget_in_playouts_grows_with_think_time() -> None:
    view = view_with_choices()
    short, long = ExpertPlayer(5, think=0.01), ExpertPlayer(5, think=0.1)
    short.choose(view)
    long.choose(view)
    assert short.evaluations >= 1
    assert long.evaluations > 5 * short.evaluations
    # Two players with cards hidden: the budget is information-set search iterations.
    assert long.evaluations <= 0.1 * ITERATIONS_PER_SECOND


def test_with_a_clock_the_expert_stops_when_the_budget_is_spent() -> None:
    view = view_with_choices()
    # The clock moves 1 ms a reading: a 50 ms budget (40 ms spent searching) allows a few
    # dozen readings, whatever the machine's speed.
    clock = TickingClock(0.001)
    player = ExpertPlayer(5, think=0.05, clock=clock)
    player.choose(view)
    assert clock.readings <= 0.05 / 0.001 + 2
    more = TickingClock(0.001)
    patient = ExpertPlayer(5, think=0.5, clock=more)
    patient.choose(view)
    assert patient.evaluations > 5 * player.evaluations


def four_player_view(variants: tuple[str, ...] = ()):
    """The first seat's view at the start of a four-player round with a choice to make."""
    rules = RuleSet.of(4, variants=variants)
    for seed in range(200):
        _, match = dealt(seed, rules, 3)
        rnd = match.round
        if rnd is not None and not rnd.void and len(rnd.legal_codes()) >= 3:
            return match.view_for(rnd.turn)
    raise AssertionError("no four-player opening with a choice")


def test_with_two_pairs_the_expert_searches_hards_tree_with_its_budget() -> None:
    """At four players the expert grows the information-set tree hard grows, for as many
    iterations as its budget buys (hard: a fixed 2,000); in scopone, as hard, it does not."""
    view = four_player_view()
    for think in (0.05, 0.2):
        expert = ExpertPlayer(3, think=think)
        expert.choose(view)
        assert expert.evaluations == round(think * ITERATIONS_PER_SECOND)
    scopone = four_player_view(("scopone_scientifico",))
    expert = ExpertPlayer(3, think=0.05)
    tree = expert._tree_for(RuleSet.of(4, variants=("scopone_scientifico",)))
    expert.choose(scopone)
    assert tree.iterations == 0  # the determinized search decided


def test_a_seed_fixes_the_expert_without_a_clock() -> None:
    view = view_with_choices()
    assert ExpertPlayer(9, think=0.02).choose(view) == ExpertPlayer(9, think=0.02).choose(view)


def test_make_player_passes_the_budget_to_thinking_levels_only() -> None:
    assert {"expert"} == THINKING_LEVELS
    expert = make_player("expert", 1, think=0.25)
    assert isinstance(expert, ExpertPlayer)
    assert expert.think == 0.25
    assert make_player("expert", 1).think == 1.0
    assert not isinstance(make_player("strong", 1, think=0.25), ExpertPlayer)
    with pytest.raises(ValueError, match="think"):
        ExpertPlayer(1, think=0)


def test_an_opponent_who_laid_a_card_beside_the_settebello_holds_no_seven() -> None:
    """Seat 1 laid a card when the settebello lay on the table: a deal giving it a seven
    (which had to take the settebello and would have been worth far more) is less likely."""
    rules = RuleSet.of(2)
    seven = next(c for c in CARDS if c.value == 7 and c != SETTEBELLO)
    for seed in range(500):
        _, match = dealt(seed, rules, 0)
        rnd = match.round
        assert rnd is not None
        if SETTEBELLO.index not in rnd.table or rnd.turn != 1:
            continue
        codes = [c for c in rnd.legal_codes() if not c >> 6]
        if not codes:
            continue
        match.push_code(codes[0])
        if match.round is None or match.round.turn != 0:
            continue
        known = Observed.from_view(match.view_for(0))
        if seven.index not in known.unseen:
            continue
        reading = Inference(known, ChoiceModel(rules))
        assert reading.informative
        others = [c for c in known.unseen if CARDS[c].value != 7]
        with_seven = World(((), (seven.index, *others[:1])), tuple(others[1:]))
        without = World(((), tuple(others[:2])), (seven.index, *others[2:]))
        assert reading.weight(with_seven) < 0.2 * reading.weight(without)
        return
    raise AssertionError("no opening found where seat 1 laid a card beside the settebello")


def test_arena_pits_expert_budgets_against_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "expert", "expert", "--think", "0.02", "--think-b", "0.01"]
    argv += ["--matches", "2", "--target", "2", "--jobs", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "expert thinks 0.02 s a move; expert thinks 0.01 s a move" in out


@pytest.mark.parametrize("bad", ["0", "-1", "soon"])
def test_arena_refuses_a_bad_think_budget(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "expert", "medium", "--think", bad]) == 2
    err = capsys.readouterr().err
    assert "seconds" in err
    assert "Traceback" not in err


def test_arena_report_names_the_budget() -> None:
    config = ArenaConfig("expert", "greedy", 1, RuleSet.of(2, 1), seed=2, think_a=0.01)
    report = summarise(config, [play_pair(config, 0, time.perf_counter)])
    assert "expert thinks 0.01 s a move" in format_report(config, report)
