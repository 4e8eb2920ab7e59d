"""Every benchmark runs to the end with tiny parameters, so a broken benchmark is caught.

These are not speed checks: the figures are not read, only that each benchmark finishes and
prints its figures and its baseline.
"""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from helpers import shuffled_deck

from scopa_net.bots.observed import Observed
from scopa_net.match import Match
from scopa_net.rules import RuleSet

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

TINY = {
    "arena_progress.py": ["expert", "medium", "--matches", "2", "--target", "1", "--think", "0.01"],
    "bots.py": ["--rounds", "1", "--runs", "1", "--positions", "5"],
    "chaos_soak.py": ["--minutes", "0.1", "--seats", "2", "--quiet"],
    "client.py": ["--runs", "1", "--positions", "5"],
    "engine.py": ["--runs", "1", "--rounds", "10", "--tables", "5"],
    "fairness.py": ["--runs", "1", "--repeats", "1", "--blind-runs", "1"],
    "fit_leaf.py": ["--rounds", "20"],
    "protocol.py": ["--runs", "1", "--frames", "50", "--repeats", "1"],
    "gc_probe.py": ["/dev/null", "--version"],
    "load.py": [
        *("--tables", "2", "--bot-delay", "0.05", "--duration", "1", "--warmup", "0.5"),
        *("--baseline-seconds", "0.25"),
    ],
    "load_against.py": ["--help"],  # a real run installs a commit: see its own tests
    "loop_stall.py": ["--decisions", "2", "--players", "2"],
    "reading.py": ["--rounds", "2", "--guesses", "20"],
    "stage_probe.py": ["/dev/null", "--version"],
    "count_probe.py": ["/dev/null", "--version"],
    "reader_floor.py": ["--connections", "8", "--rate", "50", "--seconds", "1", "--runs", "1"],
    "round_duplicates.py": ["hard:nodes=200", "hard:lookahead=False,playouts=20", "--rounds", "2"],
}

#: What each one prints once it has measured its figures and its baseline.
LAST_WORDS = {
    "arena_progress.py": "expert minus medium, points per round",
    "bots.py": "full rounds per second",
    "chaos_soak.py": "problems: 0",
    "client.py": "render the whole board",
    "engine.py": "legal-play generation",
    "fairness.py": "4 players",
    "fit_leaf.py": "held-out mean squared error",
    "protocol.py": "4 players",
    "gc_probe.py": "scopa-net",
    "load.py": "ours, against the echo in its own process",
    "load_against.py": "--commit COMMIT",
    "loop_stall.py": "longest stall, baseline / host",
    "reading.py": "greedy 32",
    "stage_probe.py": "scopa-net",
    "count_probe.py": "scopa-net",
    "reader_floor.py": "us of CPU each",
    "round_duplicates.py": "think per move, CPU",
}


def benchmark_module(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark script ``name`` imported as a module (it is not a package's)."""
    module_name = name.removesuffix(".py") + "_benchmark"
    spec = importlib.util.spec_from_file_location(module_name, BENCHMARKS / name)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, module_name, module)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def run_benchmark(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The benchmark script ``name`` run with ``args`` to its end (within two minutes)."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / name), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_every_benchmark_has_a_tiny_run() -> None:
    assert sorted(p.name for p in BENCHMARKS.glob("*.py")) == sorted(TINY)


#: ``load.py``'s tiny run is the one of :func:`test_one_tiny_load_run_reports_every_figure`,
#: which also reads its journal folder, its collector and what ``load_against.py`` compares:
#: a run takes seconds, so one run serves them all.
@pytest.mark.parametrize("name", sorted(set(TINY) - {"load.py"}))
def test_benchmark_runs_with_tiny_parameters(name: str) -> None:
    done = run_benchmark(name, *TINY[name])
    assert done.returncode == 0, done.stdout + done.stderr
    assert LAST_WORDS[name] in done.stdout, done.stdout


def test_the_engine_benchmark_prints_what_its_memories_hold() -> None:
    done = run_benchmark("engine.py", "--memory", "20")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "after 20 checked 2-player rounds the memories hold" in done.stdout, done.stdout


def test_the_leaf_fit_samples_only_deal_starts_when_asked() -> None:
    """``fit_leaf.py --deal-starts`` with four players takes a deal's first position only
    (where the trees ask the leaf): three-card hands, so 3 of a round's 36 plays."""

    def fitted(*args: str) -> int:
        done = run_benchmark("fit_leaf.py", "--players", "4", "--rounds", "10", *args)
        assert done.returncode == 0, done.stdout + done.stderr
        found = re.search(r"; (\d+) positions fitted", done.stdout)
        assert found is not None, done.stdout
        return int(found.group(1))

    starts, every = fitted("--deal-starts"), fitted()
    assert 0 < starts <= 3 * 8
    assert every >= 10 * starts


def run_load(*args: str) -> subprocess.CompletedProcess[str]:
    """``load.py`` with ``args``, run to its end (it must succeed)."""
    done = run_benchmark("load.py", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_load_soak_replaces_finished_tables() -> None:
    """``load.py --soak`` plays matches to their end and goes on at new tables, without a
    failure (what its memory-growth line is measured over)."""
    done = run_load(
        *("--soak", "--tables", "2", "--bot-delay", "0.01", "--duration", "4", "--warmup", "0.5"),
        *("--baseline-seconds", "0.25"),
    )
    replaced = done.stdout.split("tables replaced: ")[1].split()[0]
    assert int(replaced) > 0, done.stdout
    assert "failures: 0" in done.stdout, done.stdout


def test_one_tiny_load_run_reports_every_figure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One tiny ``load.py`` run, with ``--journal-dir DIR`` and ``--gc-log FILE``: it prints
    every figure to its last line, each one ``load_against.py`` compares (by the words
    ``load.py`` prints today); it makes the host's journal (and the commit baselines) in a
    folder of its own under DIR, says so, and leaves DIR as it found it; it runs the host under
    gc_probe.py and prints its collections and the census of what it tracks."""
    journals = tmp_path / "journals"
    journals.mkdir()
    log = tmp_path / "gc.log"
    done = run_load(*TINY["load.py"], "--journal-dir", str(journals), "--gc-log", str(log))
    assert LAST_WORDS["load.py"] in done.stdout, done.stdout

    assert f"journal under {journals}" in done.stdout, done.stdout
    assert "durability: the host's own commits" in done.stdout, done.stdout
    assert list(journals.iterdir()) == []

    assert "host collector, generation 2:" in done.stdout, done.stdout
    assert "host objects tracked by the collector at the end:" in done.stdout, done.stdout
    assert "then a full collection of everything" in done.stdout, done.stdout
    # Which allocator holds what, at both ends of the window (pymalloc, glibc malloc, SQLite).
    assert "host allocators, KiB at the window's start -> end (change):" in done.stdout
    assert re.search(r"given back by malloc_trim\(0\): [\d.]+ MiB of [\d.]+", done.stdout)
    for name in ("pymalloc_used", "pymalloc_arenas", "malloc_used", "sqlite"):
        assert re.search(rf"^  {name} +[\d,]+ -> [\d,]+ \([+-][\d,]+\)$", done.stdout, re.M), (
            done.stdout
        )

    against = benchmark_module("load_against.py", monkeypatch)
    run = against.read_report(done.stdout)
    assert sorted(run.figures) == sorted(against.FIGURES), done.stdout
    assert all(value > 0 for value in run.figures.values()), run.figures
    failed = done.stdout.replace("failures: 0", "failures: 3")
    with pytest.raises(SystemExit, match="a run failed or printed no figures"):
        against.read_report(failed)
    table = against.summary([run], [run], "abc1234")
    assert table[0].split() == ["figure", "abc1234", "now", "now/before"]
    assert all(line.endswith("1.00") for line in table[1 : len(against.FIGURES) + 1]), table


def test_a_journal_dir_that_is_not_a_folder_is_one_line_of_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    refused = run_benchmark("load.py", "--journal-dir", str(missing))
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines()[-1] == (
        f"load.py: error: --journal-dir: {missing} is not a folder"
    )


def test_load_against_an_unknown_commit_is_one_line_of_error() -> None:
    done = run_benchmark("load_against.py", "--commit", "no-such-commit", "--runs", "1")
    assert done.returncode == 1
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith("load_against.py: git cannot find commit 'no-such-commit' here:")
    ), done.stderr


def test_the_soak_reads_the_host_after_each_minutes_give_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The memory line of a soak is read at each minute's lowest point, just after the host
    has handed its free heap back (what glibc keeps in between depends on the moment)."""
    load = benchmark_module("load.py", monkeypatch)
    assert load.TRIM_INTERVAL == 60
    # A saw-tooth that climbs through each minute and falls back at its trim: level lows.
    readings = [100 + (second % 60) for second in range(185)]
    assert load.minute_lows(readings) == [100, 100, 100]  # the last 5 s make no minute
    assert load.slope(load.minute_lows(readings)) == 0
    # The lows themselves rise by 3 KiB a minute, however high each minute peaks.
    rising = [100 + 3 * (second // 60) + (second % 60) * 2 for second in range(240)]
    assert load.minute_lows(rising) == [100, 103, 106, 109]
    assert load.slope(load.minute_lows(rising)) == pytest.approx(3.0)


def run_arena_progress(*args: str) -> subprocess.CompletedProcess[str]:
    return run_benchmark("arena_progress.py", *args)


def test_two_arena_rows_are_compared_pair_by_pair(tmp_path: Path) -> None:
    """``--combine ROW --paired OTHER`` prints the first row minus the other over the deck
    pairs both played; a row against itself differs by exactly nothing."""
    row = ["medium", "easy", "--matches", "6", "--target", "1"]
    first, second = tmp_path / "first.pkl", tmp_path / "second.pkl"
    for pairs, save in (("0:2", first), ("1:3", second)):
        done = run_arena_progress(*row, "--pairs", pairs, "--save", str(save))
        assert done.returncode == 0, done.stdout + done.stderr
    done = run_arena_progress(*row, "--combine", str(first), "--paired", str(first), str(second))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "combined: 2 of 3 pairs from 1 files" in done.stdout
    assert (
        "paired: this row minus the --paired one, medium minus easy per round, pair by pair"
        " over the 2 deck pairs both played: 0.000 [0.000, 0.000]"
    ) in done.stdout
    # Only pair 1 is in both rows: too few to give an interval.
    done = run_arena_progress(*row, "--combine", str(first), "--paired", str(second))
    assert "paired: 1 deck pairs in both rows, too few to compare" in done.stdout


def test_the_paired_arena_line_is_the_mean_difference_of_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    arena_progress = benchmark_module("arena_progress.py", monkeypatch)
    from scopa_net.bots.arena import GameResult

    def pair(a_points: int, b_points: int) -> tuple[GameResult, GameResult]:
        # Two one-round matches, level A on side 0 and then on side 1.
        return (
            GameResult(0, 0, (a_points, b_points), 1, ((), ())),
            GameResult(1, 1, (b_points, a_points), 1, ((), ())),
        )

    row = {0: pair(3, 1), 1: pair(2, 2), 2: pair(4, 0)}  # A ahead by 2, 0, 4 a round
    other = {0: pair(2, 2), 1: pair(1, 3), 5: pair(0, 4)}  # 0, -2 (and a pair not in row)
    line = arena_progress._paired_line(row, other, ("hard", "medium"))
    # Differences 2 and 2 over the two shared pairs: exactly 2, no spread.
    assert line.endswith(
        "hard minus medium per round, pair by pair over the 2 deck pairs both "
        "played: 2.000 [2.000, 2.000]"
    ), line


def test_the_arena_comparison_needs_a_row_to_compare(tmp_path: Path) -> None:
    done = run_arena_progress("medium", "easy", "--paired", str(tmp_path / "x.pkl"))
    assert done.returncode == 2
    assert "--paired compares with the row of --combine: give both" in done.stderr
    missing = tmp_path / "missing.pkl"
    done = run_arena_progress("medium", "easy", "--combine", str(missing))
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"arena_progress.py: cannot read {missing}: No such file or directory"
    )


def test_the_reading_benchmark_scores_readings_against_the_uniform_guess() -> None:
    """Each reading's log-loss a card is set against the uniform guess's on the same guesses:
    the uniform row is the baseline itself, and a reading keeps at most the guesses drawn."""
    done = run_benchmark("reading.py", "--rounds", "3", "--guesses", "50")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"hard against medium, 2 players: \d+ decisions in 3 rounds", done.stdout)
    rows = re.findall(
        r"^  (.+?) +log-loss a card ([\d.]+)  \(([\d.]+) of uniform\)  effective guesses "
        r"(\d+) of 50$",
        done.stdout,
        re.MULTILINE,
    )
    assert [name for name, *_ in rows] == [
        "uniform",
        "choice 2",
        "choice 6",
        "greedy 4",
        "greedy 8",
        "greedy 32",
        "replay 4",
        "replay 8",
        "replay 32",
        "exact 1000",
    ]
    uniform = float(rows[0][1])
    assert rows[0][2] == "1.000"
    assert rows[0][3] == "50"
    for _, loss, ratio, guesses in rows[1:]:
        assert float(ratio) == pytest.approx(float(loss) / uniform, abs=0.002)
        assert 1 <= int(guesses) <= 50
    bad = run_benchmark("reading.py", "--other", "grandmaster")
    assert bad.returncode == 2
    assert "reading.py: error: no level 'grandmaster'; levels: easy, medium, hard, expert" in (
        bad.stderr
    )


def test_the_load_benchmark_times_one_moves_stages(tmp_path: Path) -> None:
    """``load.py --stages F`` runs the host under benchmarks/stage_probe.py and prints each
    stage of a move over the window; it times one table only, and one probe at a time."""
    stages = tmp_path / "stages.txt"
    done = run_load(
        *("--tables", "1", "--bot-delay", "0.05", "--duration", "2", "--warmup", "0.5"),
        *("--baseline-seconds", "0.25", "--stages", str(stages)),
    )
    found = re.search(r"one move's stages over (\d+) moves \(us\): p10 p50 p90", done.stdout)
    assert found, done.stdout
    assert int(found.group(1)) > 5
    names = ["decode", "to table", "table", "to thread", "commit", "back", "first write"]
    for name in names:
        assert re.search(rf"^  {name} +[\d.]+ +[\d.]+ +[\d.]+$", done.stdout, re.MULTILINE), name
    assert stages.read_text().splitlines()[0] == "stages " + ",".join(names)
    for args, words in (
        (("--tables", "2"), "--stages times one move at a time: give --tables 1"),
        (("--tables", "1", "--gc-log", str(tmp_path / "gc")), "under a probe of their own"),
    ):
        refused = run_benchmark("load.py", "--stages", str(stages), *args)
        assert refused.returncode == 2
        assert words in refused.stderr


def test_the_load_benchmark_counts_what_the_host_does_per_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``load.py --counts F`` runs the host under benchmarks/count_probe.py and prints what it
    counted in the window per move: one ``Table.play`` a move (the host's count against the
    load generator's), the socket calls, and with ``COUNT_PROBE_CPU=1`` the main thread's CPU
    by stage."""
    monkeypatch.setenv("COUNT_PROBE_CPU", "1")
    counts = tmp_path / "counts.txt"
    done = run_load(*TINY["load.py"], "--counts", str(counts))
    found = re.search(r"host's counts in the window, per move \((\d+) moves\)", done.stdout)
    assert found, done.stdout
    assert int(found.group(1)) > 5, done.stdout
    per_move = {
        name: float(count)
        for count, name in re.findall(r"^ +([\d.]+)  (\S.*)$", done.stdout, re.MULTILINE)
    }
    assert 0.5 <= per_move["moves (Table.play)"] <= 1.5, per_move
    assert per_move["os.write"] >= 1, per_move
    assert per_move["os.read"] >= 0.5, per_move
    assert per_move["cpu: main thread busy (epoll wait to epoll wait)"] > 0, per_move
    assert "cpu: take_now (a move applied)" in per_move, per_move


def test_the_stage_report_takes_the_moves_of_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    load = benchmark_module("load.py", monkeypatch)
    text = "stages a,b\n" + "".join(
        f"{100 + n}.0 {n}.0 {10 * n}.0\n" for n in range(1, 21)
    )  # moves at wall times 101..120
    lines = load.stage_report(text, (105.0, 114.0))  # the moves 5..14
    assert lines[0] == "one move's stages over 10 moves (us): p10 p50 p90"
    assert lines[1].split() == ["a", "6.0", "10.0", "14.0"]
    assert lines[2].split() == ["b", "60.0", "100.0", "140.0"]
    assert lines[3].split() == ["in", "all", "110.0"]
    assert load.stage_report("stages a,b\n", (0.0, 1.0)) == ["stages: no move timed in the window"]


@pytest.mark.parametrize("knowing", ["partner", "opponents", "everyone"])
def test_the_told_hands_are_the_true_ones_and_the_rest_is_guessed(
    knowing: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``round_duplicates.py --knowing``: a guess holds the told seats' true hands, and the
    other seats' hands and the stock are the rest of the unseen cards, in their counts."""
    duplicates = benchmark_module("round_duplicates.py", monkeypatch)
    told = duplicates.ToldHands(duplicates.KNOWING[knowing])
    rules = RuleSet.of(4)
    match = Match(rules, 0)
    rnd = match.deal(shuffled_deck(random.Random(3)))
    for _ in range(5):
        match.push_code(rnd.legal_codes()[0])
    seat = rnd.turn
    known = Observed.from_view(match.view_for(seat))
    told.round = rnd
    steps = duplicates.KNOWING[knowing]
    worlds = [told.sample_world(known, random.Random(draw)) for draw in range(5)]
    for world in worlds:
        for s in range(4):
            assert len(world.hands[s]) == (0 if s == seat else known.hand_counts[s])
            if s != seat and (s - seat) % 4 in steps:
                assert world.hands[s] == tuple(rnd.hands[s])
        placed = [c for h in world.hands for c in h] + list(world.stock)
        assert sorted(placed) == sorted(known.unseen)
    untold = [s for s in range(4) if s != seat and (s - seat) % 4 not in steps]
    if untold:
        assert any(w.hands[s] != tuple(rnd.hands[s]) for w in worlds for s in untold)


def test_a_row_told_the_opponents_hands_says_so() -> None:
    done = run_benchmark(
        "round_duplicates.py",
        "hard:nodes=200",
        "medium",
        "--players",
        "4",
        "--rounds",
        "1",
        "--knowing",
        "opponents",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(A told the opponents' hands)" in done.stdout
