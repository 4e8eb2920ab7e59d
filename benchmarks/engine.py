"""Rules engine speed: random-play rounds per second and legal-play generation per second.

Each figure is the median of several runs in this one process (one core), printed beside the
same measurement of the naive reference engine in ``tests/reference_engine.py`` (a plain, clear
implementation) and the ratio between them. Times are this process's CPU time
(``time.process_time``), so that other work on a shared machine slows the figures less, and
the naive engine runs in turn with the others within each run: each ratio is the median of the
per-run ratios. Two paths are measured:

- the fast path (``legal_codes``/``push_code``), what the computer players simulate with;
- the checked path (``legal_plays``/``play``), what a local table and the host run for every
  move, and its replay form (every recorded play checked with ``exact=True``), what a seat's
  witness runs at the end of each round.

The loops are the same for every engine: deal, then a random pick among the legal plays until
the round ends. The pick is ``plays[int(fraction() * len(plays))]`` with ``fraction`` a seeded
``random.Random().random`` (one C call); until issue 13's second engine session (commit 370cc31)
it was ``rng.randrange(len(plays))``, Python code in the random module that cost 0.19 us a move,
7 us of a 2-player fast-path round's 60-70, and so held the fast path's ratio down (the engine
of commit 28a271c measured 8.0-8.2x at two and four players with that pick, 8.6-9.1x with this
one, in runs alternating on a shared machine; both engines always get the same pick). The pick's
own cost, and that of the one before, is printed apart. Scoring is left out of the fast and
checked rates, because the naive engine does not score (``--with-score`` puts it in; its cost is
printed apart too). The engine remembers the captures it has worked out, so every run plays new
decks (repeating them would flatter it) and the first run starts from an empty memory.

Last, the witness's whole round-end check of a 2-player round (``verify_transcript``: deck,
cards, signatures and the replay), in milliseconds, beside the engine replay alone.

    python benchmarks/engine.py [--runs 5] [--rounds 2000]

``--profile`` instead runs each path's loop once under cProfile (from an empty memory, on new
decks, as the first run does) and prints the entries with the most time of their own.

    python benchmarks/engine.py --profile [--rounds 2000] [--top 12]

``--memory ROUNDS`` instead plays that many checked rounds (new decks) from an empty memory and
prints how the engine's memories fill: at points along the way, each one's entries and how often
it was asked in vain, and the memory held (tracemalloc); last, how much they hold (what
``captures.forget`` frees) and how many answers each holds. ``--memory-limit`` and
``--card-limit`` try other bounds (any run).

    python benchmarks/engine.py --memory 100000 [--players 4] [--checkpoints 12]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from reference_engine import NaiveRound, capture_options

from scopa_net.captures import capture_rule, forget, memory_sizes, memory_stats, set_limits
from scopa_net.cards import CARDS
from scopa_net.fair.simulate import simulate_match
from scopa_net.fair.verifier import RoundByRoundVerifier, verify_transcript
from scopa_net.match import Match
from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet


def decks(count: int, seed: int) -> list[list]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = list(CARDS)
        rng.shuffle(deck)
        out.append(deck)
    return out


def fast_rounds(rules: RuleSet, deck_list: list[list], seed: int, score: bool = False) -> int:
    fraction = random.Random(seed).random
    done = 0
    for deck in deck_list:
        rnd = Round(rules, 0, deck)
        if rnd.void:
            continue
        while rnd.plays_left:
            codes = rnd.legal_codes()
            rnd.push_code(codes[int(fraction() * len(codes))])
        if score:
            rnd.score()
        done += 1
    return done


def checked_rounds(rules: RuleSet, deck_list: list[list], seed: int, score: bool = False) -> int:
    fraction = random.Random(seed).random
    done = 0
    for deck in deck_list:
        rnd = Round(rules, 0, deck)
        if rnd.void:
            continue
        while not rnd.finished:
            plays = rnd.legal_plays()
            rnd.play(plays[int(fraction() * len(plays))], rnd.turn, exact=True)
        if score:
            rnd.score()
        done += 1
    return done


def recorded_rounds(rules: RuleSet, deck_list: list[list], seed: int) -> list[tuple]:
    """Random rounds as the witness receives them: the deck and every play's seat and code.
    The naive engine plays them, so that the engine replays tables it has not seen."""
    fraction = random.Random(seed).random
    out = []
    for deck in deck_list:
        if Round(rules, 0, deck).void:  # dealing asks nothing of the capture rules
            continue
        rnd = NaiveRound(rules, 0, deck)
        plays = []
        while not rnd.finished:
            seat = rnd.turn
            card, group = (legal := rnd.legal())[int(fraction() * len(legal))]
            plays.append((seat, Play(card, group).code))
            rnd.play(card, group)
        out.append((0, deck, plays))
    return out


def replayed_rounds(rules: RuleSet, records: list[tuple]) -> int:
    """Replay recorded rounds as the witness does: a match, every play checked exactly."""
    for dealer, deck, plays in records:
        match = Match(rules, dealer)
        match.deal(deck)
        for seat, code in plays:
            match.play(Play.from_code(code), seat, exact=True)
    return len(records)


def naive_rounds(rules: RuleSet, deck_list: list[list], seed: int) -> int:
    fraction = random.Random(seed).random
    done = 0
    for deck in deck_list:
        rnd = NaiveRound(rules, 0, deck)
        while not rnd.finished:
            plays = rnd.legal()
            rnd.play(*plays[int(fraction() * len(plays))])
        done += 1
    return done


def median_rate(work: Callable[[], int], runs: int) -> float:
    rates = []
    for _ in range(runs):
        start = time.process_time()
        count = work()
        rates.append(count / (time.process_time() - start))
    return statistics.median(rates)


def interleaved_rates(works: dict[str, Callable[[], int]], runs: int) -> dict[str, list[float]]:
    """Each work's rate in each of ``runs`` runs, the works taking turns within a run."""
    rates: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(runs):
        for name, work in works.items():
            start = time.process_time()
            count = work()
            rates[name].append(count / (time.process_time() - start))
    return rates


def crowded_tables(count: int, seed: int) -> list[tuple[Round, list]]:
    """Rounds whose table holds 10 to 14 cards, with the seat to move holding 3 cards."""
    rng = random.Random(seed)
    rules = RuleSet()
    out = []
    while len(out) < count:
        cards = list(CARDS)
        rng.shuffle(cards)
        table = cards[: rng.randrange(10, 15)]
        hand = cards[len(table) : len(table) + 3]
        rest = cards[len(table) + 3 :]
        rnd = Round.from_position(
            rules,
            dealer=1,
            turn=0,
            hands=[[c.index for c in hand], []],
            table=[c.index for c in table],
            stock=[],
            piles=[0, sum(c.bit for c in rest)],
            sweeps=[0, 0],
            last_capturer=None,
        )
        out.append((rnd, hand, table))
    return out


def witness_round_end(runs: int, repeats: int) -> None:
    """The witness's round-end check of a 2-player round, and the engine replay inside it."""
    rules = RuleSet(2)
    seed = 1
    while True:  # the first match seed whose first deal is good
        sim = simulate_match(rules, seed, max_rounds=1)
        if sim.match.round is not None and not sim.match.round.void:
            break
        seed += 1
    transcript = sim.transcripts[0]
    played = sim.match.round
    plays = [(p.seat, p.code) for p in transcript.rounds[0].plays]
    records = [(played.dealer, [CARDS[i] for i in played.deck], plays)]
    assert all(r.ok for r in verify_transcript(transcript).rounds)

    def timed(work: Callable[[], object]) -> float:
        samples = []
        for _ in range(runs):
            start = time.process_time()
            for _ in range(repeats):
                work()
            samples.append((time.process_time() - start) / repeats * 1000)
        return statistics.median(samples)

    whole = timed(lambda: verify_transcript(transcript))
    replay = timed(lambda: replayed_rounds(rules, records))
    print(
        f"witness round-end check, 2 players, {len(plays)} plays: "
        f"verify_transcript {whole:.3f} ms, of which the engine replay {replay:.3f} ms"
    )
    # The witness checks each round once as it ends: the check at round 10 should cost what
    # the one at round 1 does (checking the whole transcript again grows with the match).
    long_match = simulate_match(RuleSet.of(2, 99), 5, max_rounds=10).transcripts[0]
    rounds = long_match.rounds

    def round_end(n: int) -> Callable[[], object]:
        def check() -> object:
            checker = RoundByRoundVerifier(long_match.rules, long_match.host_key, 0)
            for record in rounds[: n - 1]:
                checker.add(record)
            start = time.process_time()
            checker.add(rounds[n - 1])
            return time.process_time() - start

        return check

    def check_at(n: int) -> float:
        samples = [
            statistics.median(round_end(n)() for _ in range(max(1, repeats // 20))) * 1000
            for _ in range(runs)
        ]
        return statistics.median(samples)

    again = timed(lambda: verify_transcript(replace(long_match, rounds=rounds)))
    print(
        f"witness round-end check, round by round (2 players): at round 1 {check_at(1):.3f} ms, "
        f"at round {len(rounds)} {check_at(len(rounds)):.3f} ms; the whole {len(rounds)}-round "
        f"transcript checked again: {again:.3f} ms"
    )


def score_cost(runs: int) -> float:
    """CPU microseconds :meth:`Round.score` takes on a finished 2-player round."""
    rng = random.Random(2)
    finished = []
    for deck in decks(200, 11):
        rnd = Round(RuleSet(2), 0, deck)
        if rnd.void:
            continue
        while rnd.plays_left:
            codes = rnd.legal_codes()
            rnd.push_code(codes[rng.randrange(len(codes))])
        finished.append(rnd)
    samples = []
    for _ in range(runs):
        start = time.process_time()
        for rnd in finished:
            rnd.score()
        samples.append((time.process_time() - start) / len(finished) * 1e6)
    return statistics.median(samples)


def choice_cost(runs: int) -> tuple[float, float]:
    """CPU microseconds one random pick among three plays costs: the benchmark's own
    ``codes[int(fraction() * len(codes))]``, the same in every engine's loop, and
    ``codes[rng.randrange(len(codes))]``, the pick it used before (Python code in the random
    module that cost about as much as a fast-path move)."""
    rng = random.Random(1)
    fraction = rng.random
    codes = [1, 2, 3]
    count = 100_000
    picks = []
    before = []
    for _ in range(runs):
        start = time.process_time()
        for _ in range(count):
            codes[int(fraction() * len(codes))]
        middle = time.process_time()
        for _ in range(count):
            codes[rng.randrange(len(codes))]
        late = time.process_time()
        for _ in range(count):
            pass
        empty = time.process_time() - late
        picks.append((middle - start - empty) / count * 1e6)
        before.append((late - middle - empty) / count * 1e6)
    return statistics.median(picks), statistics.median(before)


def profile(rounds: int, top: int) -> None:
    """Each path's loop once under cProfile, from an empty memory, with its top entries."""
    for players in (2, 4):
        rules = RuleSet(players)
        seed = players * 1000
        fast_decks = decks(rounds, seed)
        checked_decks = decks(rounds, seed + 2)
        records = recorded_rounds(rules, decks(rounds, seed + 3), 7)
        works = {
            "fast path": lambda: fast_rounds(rules, fast_decks, 7),  # noqa: B023
            "checked path": lambda: checked_rounds(rules, checked_decks, 7),  # noqa: B023
            "checked replay": lambda: replayed_rounds(rules, records),  # noqa: B023
        }
        for name, work in works.items():
            forget()
            profiler = cProfile.Profile()
            profiler.runcall(work)
            print(f"--- {players}-player {name}, {rounds} rounds, under cProfile")
            stats = pstats.Stats(profiler)
            stats.sort_stats("tottime").print_stats(top)


def memory(rounds: int, players: int, checkpoints: int) -> None:
    """How the engine's memories fill over ``rounds`` checked rounds from an empty memory: at
    each of ``checkpoints`` points (evenly spaced on a log scale), the rounds and moves so far,
    each memory's entries, the answers it had to work out for every 1,000 moves since the last
    point, and the memory held (tracemalloc); last, what ``captures.forget`` frees."""
    rules = RuleSet(players)
    capture_rule(rules)  # so that its memories are listed
    forget()
    tracemalloc.start()
    marks = sorted({max(1, round(rounds ** (k / checkpoints))) for k in range(1, checkpoints + 1)})
    names = list(memory_stats())
    print(
        f"{players}-player checked rounds from an empty memory; limits: "
        + ", ".join(f"{name} {limit:,}" for name, (_, limit, _) in memory_stats().items())
    )
    print(
        "rounds     moves  traced MiB  entries (misses per 1,000 moves since the last line): "
        + "; ".join(names)
    )
    done = moves = 0
    last_moves = 0
    last_misses = dict.fromkeys(names, 0)
    fraction = random.Random(7).random
    deck_rng = random.Random(5)
    for mark in marks:
        while done < mark:
            deck = list(CARDS)
            deck_rng.shuffle(deck)
            rnd = Round(rules, 0, deck)
            done += 1
            while not rnd.finished:
                plays = rnd.legal_plays()
                rnd.play(plays[int(fraction() * len(plays))], rnd.turn, exact=True)
                moves += 1
        now = memory_stats()
        window = max(1, moves - last_moves) / 1000
        cells = "; ".join(
            f"{now[name][0]:,} ({(now[name][2] - last_misses[name]) / window:.1f})"
            for name in names
        )
        held = tracemalloc.get_traced_memory()[0] / 2**20
        print(f"{done:>7,} {moves:>9,} {held:8.2f}  {cells}")
        last_moves = moves
        last_misses = {name: now[name][2] for name in names}
    sizes = memory_sizes()
    held = tracemalloc.get_traced_memory()[0]
    forget()
    freed = held - tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    counts = ", ".join(f"{name} {count:,}" for name, count in sizes.items())
    held_mib = freed / 2**20
    print(
        f"after {rounds:,} checked {players}-player rounds the memories hold {held_mib:.1f} MiB: "
        f"{counts}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=500, help="crowded tables for legal plays")
    parser.add_argument("--repeats", type=int, default=200, help="round-end checks timed per run")
    parser.add_argument(
        "--with-score",
        action="store_true",
        help="score every round in the fast and checked paths (the naive engine has no scoring)",
    )
    parser.add_argument("--profile", action="store_true", help="profile each path's loop instead")
    parser.add_argument("--top", type=int, default=12, help="entries --profile prints")
    parser.add_argument(
        "--memory", type=int, metavar="ROUNDS", help="print the memories' size after ROUNDS instead"
    )
    parser.add_argument("--players", type=int, default=2, help="table size for --memory")
    parser.add_argument("--checkpoints", type=int, default=12, help="lines --memory prints")
    parser.add_argument("--memory-limit", type=int, help="bound of each memory")
    parser.add_argument("--card-limit", type=int, help="bound of each card's answers by cards")
    args = parser.parse_args()
    if args.memory_limit or args.card_limit:
        set_limits(args.memory_limit, args.card_limit)
    if args.profile:
        profile(args.rounds, args.top)
        return
    if args.memory:
        memory(args.memory, args.players, args.checkpoints)
        return
    scored = args.with_score
    version = sys.version.split()[0]
    print(f"engine benchmark, median of {args.runs} runs, one core, Python {version}")
    print("every run plays new decks; the first run of each table size starts from an empty memory")
    pick = choice_cost(args.runs)
    for players in (2, 4):
        rules = RuleSet(players)
        per_run: dict[str, list[float]] = {
            "naive": [],
            "fast path": [],
            "checked path": [],
            "checked replay": [],
        }
        for run in range(args.runs):
            # Every work has decks of its own, new in every run.
            seed = players * 1000 + run * 10
            fast_decks = decks(args.rounds, seed)
            naive_decks = decks(max(1, args.rounds // 10), seed + 1)
            checked_decks = decks(max(1, args.rounds // 4), seed + 2)
            records = recorded_rounds(rules, decks(max(1, args.rounds // 4), seed + 3), 7)
            if run == 0:
                forget()
            rates = interleaved_rates(
                {
                    "naive": lambda: naive_rounds(rules, naive_decks, 7),  # noqa: B023
                    "fast path": lambda: fast_rounds(rules, fast_decks, 7, scored),  # noqa: B023
                    "checked path": lambda: checked_rounds(rules, checked_decks, 7, scored),  # noqa: B023
                    "checked replay": lambda: replayed_rounds(rules, records),  # noqa: B023
                },
                1,
            )
            for name, rate in rates.items():
                per_run[name] += rate
        naive = per_run.pop("naive")
        for name, rate in per_run.items():
            ratios = [r / n for r, n in zip(rate, naive, strict=True)]
            print(
                f"{players}-player random rounds/s, {name + ':':15} {statistics.median(rate):8,.0f}"
                f"   naive baseline {statistics.median(naive):6,.0f}   ratio "
                f"{statistics.median(ratios):5.1f}x   (first run {ratios[0]:4.1f}x)"
            )
    pick, randrange_pick = pick
    print(
        f"the random pick among the plays, in every engine's loop: {pick:.2f} us a move "
        f"(a 2-player round has 36 moves: {36 * pick:.1f} us; the rng.randrange pick used "
        f"before: {randrange_pick:.2f} us a move, {36 * randrange_pick:.1f} us a round)"
    )
    print(
        f"scoring a round (Round.score), {'in' if scored else 'left out of'} the fast and "
        f"checked rates (the naive engine has no scoring; --with-score): "
        f"{score_cost(args.runs):.1f} us"
    )
    rules = RuleSet()
    table_sets = [crowded_tables(args.tables, 3 + run) for run in range(args.runs)]
    forget()

    def fast_legal(tables: list[tuple[Round, list]]) -> int:
        for rnd, _, _ in tables:
            rnd.legal_codes()
        return len(tables)

    def naive_legal(tables: list[tuple[Round, list]]) -> int:
        for _, hand, table in tables:
            for card in hand:
                capture_options(card, table, rules)
        return len(tables)

    # New tables in every run, as for the rounds; each run asks about its tables twice, so
    # the second time shows what remembering is worth.
    fast_rates = interleaved_rates(
        {str(run): lambda t=tables: fast_legal(t) for run, tables in enumerate(table_sets)}, 1
    )
    again_rates = interleaved_rates(
        {str(run): lambda t=tables: fast_legal(t) for run, tables in enumerate(table_sets)}, 1
    )
    naive_rates = interleaved_rates(
        {str(run): lambda t=tables: naive_legal(t) for run, tables in enumerate(table_sets)}, 1
    )
    fast = statistics.median(r for rates in fast_rates.values() for r in rates)
    again = statistics.median(r for rates in again_rates.values() for r in rates)
    naive = statistics.median(r for rates in naive_rates.values() for r in rates)
    print(
        f"legal-play generation, 10-14 table cards, calls/s: {fast:10,.0f} (asked again "
        f"{again:,.0f})   naive baseline {naive:8,.0f}   ratio {fast / naive:5.1f}x"
    )
    witness_round_end(args.runs, args.repeats)


if __name__ == "__main__":
    main()
