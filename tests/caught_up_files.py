"""The transcripts of a seat caught up by snapshot (protocol.md 5.10, 6.1 version 7), made on a
table driven without sockets: the cases our verifier's tests and the JavaScript verifier's
tests both read."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from table_driver import KEY, Driver, fill, new_table

from scopa_net.fair.commitments import public_key_bytes
from scopa_net.fair.errors import ScoreMismatchError
from scopa_net.fair.transcript import Transcript
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.witness import DealWitness

RULES = RuleSet.of(2, 16)


def ada_and_the_computer() -> Driver:
    """Ada (seat 0, watched) against a computer player, a match to 16."""
    table = new_table(RULES, bots=1)
    fill(table)
    return Driver(table, seed=5, watching={0})


def caught_up_while_playing(driver: Driver, round_no: int) -> DealWitness:
    """Seat 0's witness caught up by a snapshot of the present while round ``round_no`` is
    played, having read the match on to its end."""
    driver.open_into_play(round_no)
    snapshot = driver.table.snapshot(0)
    witness = DealWitness(driver.table.rules, public_key_bytes(KEY), 0, mid_match=True)
    witness.resynced(snapshot)
    driver.run()
    driver.read_after(0, witness, snapshot)
    return witness


def caught_up_in_round_2() -> DealWitness:
    """Ada's witness caught up by a snapshot of the present while round 2 is played, having
    read the match on to its end."""
    return caught_up_while_playing(ada_and_the_computer(), 2)


class StoppedBySnapshot(NamedTuple):
    """A seat stopped by a snapshot that contradicts a round it checked: its witness, why it
    stopped, and the scores and dealer the round gave before the host changed them."""

    witness: DealWitness
    error: ScoreMismatchError
    honest: list[int]
    dealer: int


def stopped_by_5_points_added() -> StoppedBySnapshot:
    """Ada checked round 1; the host adds 5 points to its side and catches her up at round 2's
    start: her witness stops on the snapshot."""
    driver = ada_and_the_computer()
    driver.run_until_round_over(1)
    match = driver.table.match
    assert match is not None
    honest, dealer = list(match.scores), match.dealer
    match.scores[1] += 5  # the cheat
    driver.check_views = False
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    point = driver.table.catch_up_point(0)
    assert point is not None
    witness = driver.witnesses[0]
    with pytest.raises(ScoreMismatchError) as stopped:
        driver.caught_up_by_snapshot(0, point[1])
    return StoppedBySnapshot(witness, stopped.value, honest, dealer)


def caught_up_in_the_last_round() -> Transcript:
    """A seat caught up by a snapshot of the present while a match to 1 plays its round 1,
    which ends the match: the seat follows no round, and its file holds none (and a match end
    it cannot tie to one)."""
    rules = RuleSet.of(2, 1)
    for seed in range(1, 30):
        table = new_table(rules, bots=1)
        fill(table)
        driver = Driver(table, seed=seed, watching={0})
        transcript = caught_up_while_playing(driver, 1).transcript()
        if not transcript.rounds and transcript.result.sig is not None:
            return transcript
    raise AssertionError("no match ended in its first round")


def caught_up_after_the_end() -> tuple[DealWitness, m.Snapshot]:
    """A client started afresh once the match is over, caught up with a snapshot of its end
    (it never saw ``match_end``): its witness, and that snapshot."""
    driver = ada_and_the_computer()
    driver.run()
    snapshot = driver.table.snapshot(0)
    witness = DealWitness(RULES, public_key_bytes(KEY), 0, mid_match=True)
    witness.resynced(snapshot)
    return witness, snapshot
