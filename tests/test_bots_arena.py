"""The arena: interval maths on known inputs, the summary of known games, a run end to end."""

from __future__ import annotations

import math
import re
from dataclasses import replace

import pytest

from scopa_net.bots.arena import ArenaConfig, GameResult, play_game, summarise
from scopa_net.bots.levels import make_player
from scopa_net.bots.stats import Z95, mean_interval, wilson_interval
from scopa_net.commands.arena import run_pairs
from scopa_net.commands.main import main
from scopa_net.rules import RuleSet


def test_wilson_interval_at_the_edges_has_closed_forms() -> None:
    z2 = Z95 * Z95
    none = wilson_interval(0, 10)
    assert none.value == 0
    assert none.low == pytest.approx(0, abs=1e-12)
    assert none.high == pytest.approx(z2 / (10 + z2))
    every = wilson_interval(10, 10)
    assert every.low == pytest.approx(10 / (10 + z2))
    assert every.high == pytest.approx(1)


def test_wilson_interval_for_half_of_a_hundred() -> None:
    # The textbook figure for 50 successes in 100 trials at 95%: 0.4038 to 0.5962.
    half = wilson_interval(50, 100)
    assert half.value == 0.5
    assert half.low == pytest.approx(0.4038, abs=1e-4)
    assert half.high == pytest.approx(0.5962, abs=1e-4)


def test_mean_interval_uses_the_sample_deviation() -> None:
    est = mean_interval([0.0, 1.0] * 50)
    assert est.value == 0.5
    half = Z95 * math.sqrt(25 / 99) / 10
    assert (est.low, est.high) == pytest.approx((0.5 - half, 0.5 + half))


@pytest.mark.parametrize(("successes", "trials"), [(-1, 5), (6, 5), (0, 0)])
def test_wilson_interval_refuses_impossible_counts(successes: int, trials: int) -> None:
    with pytest.raises(ValueError, match=repr(trials) if trials else "trials"):
        wilson_interval(successes, trials)


def game(a_side: int, winner: int, points: tuple[int, int], rounds: int) -> GameResult:
    return GameResult(a_side, winner, points, rounds, ((0.1, 0.3), (0.2,)))


def test_summary_of_known_games() -> None:
    config = ArenaConfig("strong", "greedy", 2)
    pairs = [
        # A wins on side 0 (12-5 in 3 rounds), loses on side 1 (11-9 for side 0 in 4).
        (game(0, 0, (12, 5), 3), game(1, 0, (11, 9), 4)),
        # A wins both: 11-2 in 2 rounds, 3-13 in 3 rounds.
        (game(0, 0, (11, 2), 2), game(1, 1, (3, 13), 3)),
    ]
    report = summarise(config, pairs)
    assert report.matches == 4
    assert report.rounds == 12
    assert report.a.wins == 3
    assert report.b.wins == 1
    assert report.a.win_rate == wilson_interval(3, 4)
    assert report.a.points_per_round == pytest.approx((12 + 9 + 11 + 13) / 12)
    assert report.b.points_per_round == pytest.approx((5 + 11 + 2 + 3) / 12)
    assert report.margin_per_round == mean_interval([(7 - 2) / 7, (9 + 10) / 5])
    assert report.a.think_median == pytest.approx(0.2)  # A's times: .1 .3 .2 .2 (side-swapped)
    assert report.a.think_max == pytest.approx(0.3)


def test_config_refuses_three_sides_and_no_pairs() -> None:
    with pytest.raises(ValueError, match="3 players"):
        ArenaConfig("greedy", "random", 1, RuleSet.of(3))
    with pytest.raises(ValueError, match="pairs"):
        ArenaConfig("greedy", "random", 0)


def test_unknown_level_is_named() -> None:
    with pytest.raises(ValueError, match="'clever'"):
        make_player("clever", 1)


def fake_clock() -> float:
    return 0.0


def test_a_pair_plays_the_same_decks_with_the_sides_swapped() -> None:
    """With one level on both sides the swap changes nothing at the table (same decks, same
    first dealer, same seed per seat), so the two matches mirror each other exactly."""
    config = ArenaConfig("greedy", "greedy", 1, RuleSet.of(2, 5), seed=4)
    first = play_game(config, 0, 0, fake_clock)
    second = play_game(config, 0, 1, fake_clock)
    assert first.rounds == second.rounds
    assert first.points == second.points
    assert first.winner == second.winner
    assert first.a_won != second.a_won


def test_pairs_are_reproducible_and_independent_of_the_worker_count() -> None:
    config = ArenaConfig("greedy", "random", 3, RuleSet.of(2, 5), seed=9)
    inline = [strip(p) for p in run_pairs(config, jobs=1)]
    pooled = [strip(p) for p in run_pairs(config, jobs=2)]
    assert inline == pooled
    other_seed = [strip(p) for p in run_pairs(replace(config, seed=10), jobs=1)]
    assert other_seed != inline


def strip(pair: tuple[GameResult, GameResult]) -> list[GameResult]:
    return [replace(g, think=((), ())) for g in pair]


def test_arena_command_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "arena",
            "greedy",
            "random",
            "--matches",
            "4",
            "--target",
            "3",
            "--jobs",
            "1",
            "--seed",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    # The report names the levels by their names today (the old names were given).
    assert "medium v easy: 4 matches (2 duplicate pairs)" in out
    assert "strong" not in out
    rows = [line.split() for line in out.splitlines()]
    rows = [r for r in rows if len(r) > 1 and r[0] in ("medium", "easy") and r[1].isdigit()]
    assert [r[0] for r in rows] == ["medium", "easy"]
    assert int(rows[0][1]) + int(rows[1][1]) == 4


def test_arena_command_at_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "arena",
            "random",
            "greedy",
            "--matches",
            "2",
            "--players",
            "4",
            "--jobs",
            "1",
            "--target",
            "2",
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "4 players" in out
    assert "easy v medium: 2 matches (1 duplicate pair)" in out
    # One pair gives no interval: the margin is said as it is, not as [-inf, inf].
    assert re.search(r"^easy minus medium, points per round: -?\d+\.\d{3} \(one pair\)$", out, re.M)
    assert "inf" not in out


def test_arena_command_refuses_no_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "random", "--matches", "0"]) == 2
    assert "--matches" in capsys.readouterr().err


def test_ctrl_c_stops_an_arena_on_several_processes_at_once() -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops the run in
    the middle of its matches: "stopped", status 130. It used to take a minute or more, with
    nothing on screen, because the process pool played every match already queued first (and
    its workers took their own Ctrl-C as one more failed match)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    arena = ["arena", "expert", "hard", "--think", "0.3", "--matches", "40", "--jobs", "2"]
    run = subprocess.Popen(
        [sys.executable, "-m", "scopa_net", *arena],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        time.sleep(3)  # the workers are in their first matches
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=30)  # 40 matches of experts take many minutes
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == 130, err
    assert err.strip().splitlines()[-1] == "scopa-net: stopped"
    assert "Traceback" not in err
    assert "wall time" not in out  # no report of a run that did not finish
