"""Computer player speed: the strong player's think time per move and its playout rate.

The baseline is the engine's bare random playout (``legal_codes`` + ``push_code`` with a
random choice, no scoring), measured in this same run on the same positions. The strong
player's playouts use a policy and score every finished round, so the ratio shows what the
policy and the bookkeeping cost. Think times come from whole rounds of strong against greedy
at the default budget; medians of several runs are quoted for the rates.

    python benchmarks/bots.py [--rounds 30] [--runs 5] [--players 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.search import Playouts
from scopa_net.bots.strong import DEFAULT_PLAYOUTS, StrongPlayer
from scopa_net.cards import CARDS
from scopa_net.match import Match
from scopa_net.round import Round
from scopa_net.rules import RuleSet


def start_positions(rules: RuleSet, count: int, seed: int) -> list[Round]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        deck = list(CARDS)
        rng.shuffle(deck)
        rnd = Round(rules, 0, deck)
        if not rnd.void:
            out.append(rnd)
    return out


def bare_rate(positions: list[Round], seed: int) -> float:
    """Plays per second of random playouts on the bare engine."""
    rng = random.Random(seed)
    plays = 0
    start = time.perf_counter()
    for root in positions:
        rnd = root.copy()
        while rnd.plays_left:
            codes = rnd.legal_codes()
            rnd.push_code(codes[rng.randrange(len(codes))])
            plays += 1
    return plays / (time.perf_counter() - start)


def policy_rate(rules: RuleSet, positions: list[Round], seed: int) -> float:
    """Plays per second of the strong player's playouts (policy, noise, scoring)."""
    playouts = Playouts(rules)
    rng = random.Random(seed)
    plays = 0
    start = time.perf_counter()
    for root in positions:
        rnd = root.copy()
        plays += rnd.plays_left
        playouts.play_out(rnd, 0, rng)
    return plays / (time.perf_counter() - start)


def think_times(rules: RuleSet, rounds: int, seed: int) -> tuple[list[float], int]:
    """Seconds per strong decision over ``rounds`` rounds against greedy, and evaluations."""
    rng = random.Random(seed)
    strong = StrongPlayer(seed)
    greedy = GreedyPlayer(seed)
    times: list[float] = []
    for r in range(rounds):
        match = Match(rules, r % rules.players)
        deck = list(CARDS)
        rng.shuffle(deck)
        rnd = match.deal(deck)
        while not rnd.finished:
            seat = rnd.turn
            view = match.view_for(seat)
            if rules.side_of(seat) == 0:
                start = time.perf_counter()
                play = strong.choose(view)
                times.append(time.perf_counter() - start)
            else:
                play = greedy.choose(view)
            match.play(play, seat, exact=True)
    return times, strong.evaluations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds of strong v greedy")
    parser.add_argument("--runs", type=int, default=5, help="repeats of the rate measurements")
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--positions", type=int, default=300, help="start positions timed")
    args = parser.parse_args()
    rules = RuleSet.of(args.players)
    positions = start_positions(rules, args.positions, 1)
    bare = statistics.median(bare_rate(positions, run) for run in range(args.runs))
    policy = statistics.median(policy_rate(rules, positions, run) for run in range(args.runs))
    print(f"{rules.describe()}; strong budget {DEFAULT_PLAYOUTS} playouts per move")
    print(f"bare engine random playouts : {bare:10.0f} plays/s (baseline)")
    print(f"strong's policy playouts    : {policy:10.0f} plays/s  ratio {policy / bare:.2f}")
    start = time.perf_counter()
    times, evaluations = think_times(rules, args.rounds, 7)
    elapsed = time.perf_counter() - start
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"strong think time over {len(times)} moves: median "
        f"{statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
        f"max {times[-1] * 1000:.1f} ms"
    )
    print(
        f"strong evaluations (guess x play, playout or exact): {evaluations / sum(times):.0f}/s "
        f"over {elapsed:.1f} s of play"
    )
    print(f"full rounds per second, bare engine: {bare / (40 - rules.opening_table_cards):.0f}")


if __name__ == "__main__":
    main()
