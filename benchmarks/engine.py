"""Rules engine speed: random-play rounds per second and legal-play generation per second.

Each figure is the median of several runs in this one process (one core), printed beside the
same measurement of the naive reference engine in ``tests/reference_engine.py`` (a plain, clear
implementation) and the ratio between them.

    python benchmarks/engine.py [--runs 5] [--rounds 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from reference_engine import NaiveRound, capture_options

from scopa_net.cards import CARDS
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


def fast_rounds(rules: RuleSet, deck_list: list[list], seed: int) -> int:
    rng = random.Random(seed)
    done = 0
    for deck in deck_list:
        rnd = Round(rules, 0, deck)
        if rnd.void:
            continue
        while rnd.plays_left:
            codes = rnd.legal_codes()
            rnd.push_code(codes[rng.randrange(len(codes))])
        rnd.score()
        done += 1
    return done


def naive_rounds(rules: RuleSet, deck_list: list[list], seed: int) -> int:
    rng = random.Random(seed)
    done = 0
    for deck in deck_list:
        rnd = NaiveRound(rules, 0, deck)
        while not rnd.finished:
            plays = rnd.legal()
            rnd.play(*plays[rng.randrange(len(plays))])
        done += 1
    return done


def median_rate(work: Callable[[], int], runs: int) -> float:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        count = work()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=500, help="crowded tables for legal plays")
    args = parser.parse_args()
    version = sys.version.split()[0]
    print(f"engine benchmark, median of {args.runs} runs, one core, Python {version}")
    for players in (2, 4):
        rules = RuleSet(players)
        fast_decks = decks(args.rounds, players)
        naive_decks = fast_decks[: max(1, args.rounds // 10)]
        fast = median_rate(lambda: fast_rounds(rules, fast_decks, 7), args.runs)  # noqa: B023
        naive = median_rate(lambda: naive_rounds(rules, naive_decks, 7), args.runs)  # noqa: B023
        print(
            f"{players}-player random rounds/s: {fast:10,.0f}   naive baseline {naive:8,.0f}"
            f"   ratio {fast / naive:5.1f}x"
        )
    tables = crowded_tables(args.tables, 3)
    rules = RuleSet()

    def fast_legal() -> int:
        for rnd, _, _ in tables:
            rnd.legal_codes()
        return len(tables)

    def naive_legal() -> int:
        for _, hand, table in tables:
            for card in hand:
                capture_options(card, table, rules)
        return len(tables)

    fast = median_rate(fast_legal, args.runs)
    naive = median_rate(naive_legal, args.runs)
    print(
        f"legal-play generation, 10-14 table cards, calls/s: {fast:10,.0f}   "
        f"naive baseline {naive:8,.0f}   ratio {fast / naive:5.1f}x"
    )


if __name__ == "__main__":
    main()
