"""How long one round's fair-deal work takes, against replaying the round in the engine alone.

The fair-deal work of one round, for a 2-player and a 4-player table: the host derives its
deck and signs the commitment; every seat commits its seed; the seeds are checked against the
commitments and mixed into the joint seed; each seat derives the shuffle and checks every card
it sees on arrival (its hand, the table, every play); finally one seat verifies the whole round
from its transcript (host seed, commitments, signatures, every card, and a replay with
``exact=True``). The baselines, measured in the same run: the engine replay of the same round
alone (dealing it and making every play checked), and bare SHA-256 of the transcript's bytes.

Run: ``python benchmarks/fairness.py [--runs 7] [--repeats 200]``. Prints medians over many
repetitions, in milliseconds.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Callable

from scopa_net.cards import CARDS
from scopa_net.fair.commitments import (
    ArrivalCheck,
    HostDeck,
    check_reveals,
    commit_message,
    joint_seed,
    rules_hash,
    seat_commitment,
    sign,
)
from scopa_net.fair.simulate import simulate_match
from scopa_net.fair.verifier import verify_transcript
from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet

REPEATS = 200
RUNS = 7


def median_ms(work: Callable[[], object], runs: int, repeats: int) -> float:
    """Median over ``runs`` runs of the mean time of one call, each run ``repeats`` calls."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(repeats):
            work()
        samples.append((time.perf_counter() - start) / repeats * 1000)
    return statistics.median(samples)


def bench(rules: RuleSet, runs: int = RUNS, repeats: int = REPEATS) -> None:
    sim = simulate_match(rules, 1, max_rounds=1)
    transcripts = sim.transcripts
    record = transcripts[0].rounds[0]
    assert record.seeds is not None and record.host_seed is not None
    seeds = record.seeds
    host_key = sim.host_private_key
    data = transcripts[0].encode()

    def fairness_round() -> None:
        host = HostDeck.derive(record.host_seed, record.round_id)
        sign(
            host_key,
            commit_message(record.round_id, 1, record.prev, host.digest, rules_hash(rules)),
        )
        commits = [seat_commitment(record.round_id, s, seed) for s, seed in enumerate(seeds)]
        check_reveals(record.round_id, commits, seeds)
        joint = joint_seed(record.round_id, host.digest, seeds)
        for t in transcripts:
            r = t.rounds[0]
            check = ArrivalCheck(r.round_id, host.card_hashes, joint)
            for c in (*r.hand, *r.table):
                check.check(c.pos, c.card, c.salt)
            for p in r.plays:
                check.check(p.pos, p.code & 63, p.salt)
        # One round of a match not yet over: every round verifies (the match is unfinished).
        assert all(r.ok for r in verify_transcript(transcripts[0]).rounds)

    played = sim.match.round
    assert played is not None and not played.void, "pick a seed whose first deal is good"
    deck = [CARDS[i] for i in played.deck]
    dealer = played.dealer

    def engine_replay() -> None:
        rnd = Round(rules, dealer, deck)
        for p in record.plays:
            rnd.play(Play.from_code(p.code), p.seat, exact=True)
        rnd.score()

    fair = median_ms(fairness_round, runs, repeats)
    replay = median_ms(engine_replay, runs, repeats)
    sha = median_ms(lambda: hashlib.sha256(data).digest(), runs, repeats)
    print(
        f"{rules.describe()}: fair-deal work per round {fair:.2f} ms (median of {runs} runs of "
        f"{repeats}); engine replay alone {replay:.3f} ms (ratio {fair / replay:.1f}x); "
        f"SHA-256 of the {len(data)}-byte transcript {sha:.4f} ms (ratio {fair / sha:.0f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--repeats", type=int, default=REPEATS, help="calls timed in each run")
    args = parser.parse_args()
    for rules in (RuleSet.of(2), RuleSet.of(4)):
        bench(rules, args.runs, args.repeats)


if __name__ == "__main__":
    main()
