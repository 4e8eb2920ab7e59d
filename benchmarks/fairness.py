"""How long one round's fair-deal work takes, against replaying the round in the engine alone.

The fair-deal work of one round, for a 2-player and a 4-player table: the host derives its
deck and signs the commitment; every seat commits its seed; the seeds are checked against the
commitments and mixed into the joint seed; each seat derives the shuffle and checks every card
it sees on arrival (its hand, the table, every play); finally one seat verifies the whole round
from its transcript (host seed, commitments, signatures, every card, and a replay with
``exact=True``). The baselines, measured in the same run: the engine replay of the same round
alone (dealing it and making every play checked), and bare SHA-256 of the transcript's bytes.

Blind tables (protocol.md section 9), beside it, for a table where every seat is a person
(so one party per seat plus the host): the *blind-dealing work* of one round, all parties
together (keys and key proofs checked by every party, every shuffle, its proof and its
signature checked by every other party, every deal's shares made, relayed and opened by every
party), the *play work* (every play proven by its owner and checked by every other party), the
*reveal* (every party re-deriving the round from the seeds), one play proof checked alone, and
one shuffle proof made and checked alone. The blind figures are this process's CPU time (the
machine is shared, and a wall clock there counts the other programs too), beside the CPU time
of one scalar multiplication, the unit all the blind work is made of; the ratio is to today's
fair-deal work per round, in CPU time, in the same run.

Last, a blind seat's round-end check (what its witness runs at each ``round_reveal``): the
round alone, with the match state carried on from the rounds before, at round 1 and at round 10
of one match, beside the whole transcript checked again (what the witness did before it checked
round by round), in CPU time.

Run: ``python benchmarks/fairness.py [--runs 7] [--repeats 200] [--blind-runs 5]``. Prints
medians over many repetitions, in milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import random
import statistics
import time
from collections.abc import Callable, Iterator

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE
from scopa_net.fair.blind import party as party_module
from scopa_net.fair.blind.cards import CARD_POINTS
from scopa_net.fair.blind.group import hash_to_scalar, mul, sub
from scopa_net.fair.blind.party import play_context
from scopa_net.fair.blind.plan import owner
from scopa_net.fair.blind.proofs import check_dleq
from scopa_net.fair.blind.shuffle_proof import ShuffleClaim, check_shuffle_proof, prove_shuffle
from scopa_net.fair.blind.simulate import BlindTable, simulate_blind_match
from scopa_net.fair.blind.verifier import BlindRoundByRoundVerifier, verify_any
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


def median_ms(
    work: Callable[[], object],
    runs: int,
    repeats: int,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Median over ``runs`` runs of the mean time of one call, each run ``repeats`` calls."""
    samples = []
    for _ in range(runs):
        start = clock()
        for _ in range(repeats):
            work()
        samples.append((clock() - start) / repeats * 1000)
    return statistics.median(samples)


BLIND_RUNS = 5
CHECKS = 20


def blind_round_ms(rules: RuleSet, seed: int) -> dict[str, float]:
    """One blind round, every party in this process, timed phase by phase (milliseconds).
    Every card is played in deal order: a proof costs the same whatever the order. Each
    party checks each shuffle proof itself, as in its own process at a real table: not from
    the answers :func:`check_shuffle_proof` remembers."""
    with unremembered_shuffle_proofs():
        return _blind_round_ms(rules, seed)


@contextlib.contextmanager
def unremembered_shuffle_proofs() -> Iterator[None]:
    cached = party_module.check_shuffle_proof
    party_module.check_shuffle_proof = check_shuffle_proof.__wrapped__
    try:
        yield
    finally:
        party_module.check_shuffle_proof = cached


def _blind_round_ms(rules: RuleSet, seed: int) -> dict[str, float]:
    table = BlindTable(rules, random.Random(seed), tuple(range(rules.players)))
    clock = time.process_time
    start = clock()
    table.keys_and_shuffle(seed % rules.players)
    deal_ms = clock() - start
    plays_ms = 0.0
    deck = table.trace_deck()
    for k, deal in enumerate(table.host.plan, 1):
        start = clock()
        table.open_deal(k)
        deal_ms += clock() - start
        start = clock()
        for i, seat in enumerate(deal.targets):
            if seat != TABLE:
                table.play(seat, deck[deal.start + i])
        plays_ms += clock() - start
    start = clock()
    table.reveal()
    reveal_ms = clock() - start
    host = table.host
    play = host.plays[-1]
    by = owner(play.seat, table.people)
    u, v = host.deck[play.pos]
    card = deck[play.pos]
    context = play_context(host.round_id, by, play.pos, card)
    last = table.parties[-1]
    claim = ShuffleClaim(host.round_id, last.party, host.joint, host.decks[-2], host.decks[-1])
    start = clock()
    proof = prove_shuffle(last.secrets, claim)
    prove_ms = clock() - start
    start = clock()
    assert check_shuffle_proof.__wrapped__(claim, proof)
    verify_ms = clock() - start
    start = clock()
    for _ in range(CHECKS):
        d = sub(sub(v, host._share_sum(play.pos)), CARD_POINTS[card])
        assert check_dleq(host.keys[by].point, u, d, play.proof, context)
    check_ms = (clock() - start) / CHECKS
    return {
        "deal": deal_ms * 1000,
        "plays": plays_ms * 1000,
        "reveal": reveal_ms * 1000,
        "one play check": check_ms * 1000,
        "shuffle prove": prove_ms * 1000,
        "shuffle check": verify_ms * 1000,
    }


def scalar_mult_ms(runs: int) -> float:
    """One libsodium scalar multiplication, the unit all the blind work is made of: the same
    figure on a quiet machine and a busy one says how loaded this run was."""
    point, scalar = CARD_POINTS[0], hash_to_scalar(b"benchmark", b"1")
    return median_ms(lambda: mul(scalar, point), runs, 200, time.process_time)


def bench_blind(rules: RuleSet, fair: float, runs: int) -> None:
    samples = [blind_round_ms(rules, seed) for seed in range(runs)]
    median = {k: statistics.median(s[k] for s in samples) for k in samples[0]}
    unit = scalar_mult_ms(max(runs, 3))
    parties = rules.players + 1
    print(
        f"blind, {rules.describe()}, {parties} parties (median of {runs} rounds, CPU time): "
        f"blind-dealing work {median['deal']:.1f} ms ({median['deal'] / fair:.0f}x today's "
        f"fair-deal work); plays {median['plays']:.1f} ms (all {40 - 4} proven and checked "
        f"by {parties - 1} parties each); reveal {median['reveal']:.1f} ms (every party); one "
        f"play proof checked {median['one play check']:.2f} ms; one shuffle proof made "
        f"{median['shuffle prove']:.1f} ms, checked {median['shuffle check']:.1f} ms (each seat "
        f"checks {parties - 1} a round, in the dealing work); one scalar multiplication "
        f"{unit:.3f} ms in this run (dealing = {median['deal'] / unit:.0f} of them)"
    )


def bench_blind_witness(runs: int) -> None:
    match = simulate_blind_match(RuleSet.of(2, 99), 5, max_rounds=10).transcripts[0]
    rounds = match.rounds

    def check_at(n: int) -> float:
        def once() -> float:
            checker = BlindRoundByRoundVerifier(match.rules, match.host_key, match.seat)
            for record in rounds[: n - 1]:
                checker.add(record)
            start = time.process_time()
            assert checker.add(rounds[n - 1]).ok
            return time.process_time() - start

        return statistics.median(once() for _ in range(runs)) * 1000

    whole = median_ms(lambda: verify_any(match), runs, 1, time.process_time)
    print(
        f"blind witness round-end check, round by round (2 players, 3 parties, CPU time): at "
        f"round 1 {check_at(1):.1f} ms, at round {len(rounds)} {check_at(len(rounds)):.1f} ms; "
        f"the whole {len(rounds)}-round transcript checked again: {whole:.1f} ms"
    )


def bench(rules: RuleSet, runs: int = RUNS, repeats: int = REPEATS) -> float:
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
    fair_cpu = median_ms(fairness_round, runs, repeats, time.process_time)
    replay = median_ms(engine_replay, runs, repeats)
    sha = median_ms(lambda: hashlib.sha256(data).digest(), runs, repeats)
    print(
        f"{rules.describe()}: fair-deal work per round {fair:.2f} ms (median of {runs} runs of "
        f"{repeats}); engine replay alone {replay:.3f} ms (ratio {fair / replay:.1f}x); "
        f"SHA-256 of the {len(data)}-byte transcript {sha:.4f} ms (ratio {fair / sha:.0f}x)"
    )
    return fair_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--repeats", type=int, default=REPEATS, help="calls timed in each run")
    parser.add_argument("--blind-runs", type=int, default=BLIND_RUNS, help="blind rounds timed")
    args = parser.parse_args()
    bench_blind_witness(args.blind_runs)
    for rules in (RuleSet.of(2), RuleSet.of(4)):
        fair = bench(rules, args.runs, args.repeats)
        bench_blind(rules, fair, args.blind_runs)


if __name__ == "__main__":
    main()
