"""A seat caught up by snapshot at an ordinary table (protocol.md 3.4, 5.10) checks the match
from the snapshot on as a seat that saw every event does: the dealer of the first round it
follows, round numbers, every play and score replayed, and the match end's scores and winner.
Our host, made to cheat once Ada (seat 0, with the host's computer player in seat 1) has been
caught up, is stopped by her witness; before, after a catch-up the ordinary witness took the
dealer from the card positions, replayed no round and checked only the end's signature."""

from __future__ import annotations

import copy
import dataclasses
import re

import pytest
from chain_rewritten import (
    witness_stops_at_round_1_linked_elsewhere,
    witness_stops_at_round_2_rewritten,
)
from table_driver import KEY, Driver, fill, new_table

from scopa_net.fair.commitments import (
    commit_message,
    deck_digest,
    public_key_bytes,
    rules_hash,
    sign,
)
from scopa_net.fair.errors import (
    BrokenChainError,
    MisroutedCardError,
    RerolledRoundError,
    ScoreMismatchError,
)
from scopa_net.fair.plain_words import what_failed
from scopa_net.fair.verifier import verify_transcript
from scopa_net.rules import RuleSet
from scopa_net.scoring import RoundScore
from scopa_net.server import table as table_module
from scopa_net.server.table import Phase
from scopa_net.wire import messages as m
from scopa_net.witness import DealWitness

CAUGHT_UP = 2
"""The round at whose start Ada is caught up by snapshot (as our host catches a seat up)."""

RULES = RuleSet.of(2, 16)


def ada_and_the_computer(seed: int = 5) -> Driver:
    """Ada (seat 0) and the host's computer player (seat 1), to 16: nobody else checks."""
    table = new_table(RULES, bots=1)
    fill(table)
    return Driver(table, seed=seed, watching={0})


def ada_caught_up(seed: int = 5, round_no: int = CAUGHT_UP, *, afresh: bool = False) -> Driver:
    """Ada and the host's computer player at an ordinary table to 16, round ``round_no``
    opened; Ada caught up by the snapshot our host sends then: the table as it stood just
    before that round's ``round_commit``, every event of the round after it (3.4).
    ``afresh``: her client started again (her seat taken back from disk), so it saw no round
    and has only the snapshot's word for the match before it."""
    driver = ada_and_the_computer(seed)
    driver.open_unread(round_no)
    if afresh:
        started_afresh(driver)
    driver.caught_up_at_the_round_opened(0, round_no)
    return driver


def started_afresh(driver: Driver) -> None:
    """Ada's client started again: a witness that saw no round of the match (mid-match, as a
    client taken back from disk makes it)."""
    driver.witnesses[0] = DealWitness(RULES, public_key_bytes(KEY), 0, mid_match=True)


def commits(driver: Driver) -> list[m.RoundCommit]:
    return [e for e in driver.table.seats[0].log if isinstance(e, m.RoundCommit)]


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_an_honest_match_caught_up_at_a_rounds_start_is_replayed_to_its_end(seed: int) -> None:
    """Nothing is found at an honest host, and every round from the catch-up on is replayed on
    the match so far (its plays and score), not only its cards checked."""
    driver = ada_caught_up(seed)
    driver.run()
    assert driver.table.phase is Phase.OVER
    witness = driver.witnesses[0]
    assert witness.replays_plays
    later = [v for v in witness.verdicts if v.round_no >= CAUGHT_UP]
    assert later
    assert all(v.error is None for v in later)
    assert all("verified (dealer seat" in v.note or "void" in v.note for v in later), later
    assert witness.result.sig is not None


def test_an_honest_match_caught_up_before_its_first_deal_is_replayed_from_round_1() -> None:
    driver = ada_caught_up(round_no=1)
    driver.run()
    witness = driver.witnesses[0]
    assert witness.verdicts[0].round_no == 1
    assert all("verified (dealer seat" in v.note or "void" in v.note for v in witness.verdicts)


def test_a_dealer_the_host_keeps_after_a_catch_up_stops_the_seat() -> None:
    """Round 1 played out, the host deals round 2 from the seat that dealt round 1 (the deal
    should pass on). The snapshot Ada was caught up with names round 1's dealer and its end,
    so her witness knows who deals round 2; before, it took the dealer the cards showed. (Her
    client started again, so round 1's end is the snapshot's word: a client that checked
    round 1 itself takes its own chain up again, and its deal plan refuses the deal.)"""
    driver = ada_and_the_computer()
    driver.run_until_round_over(CAUGHT_UP - 1)
    started_afresh(driver)
    match = driver.table.match
    assert match is not None
    due = match.dealer
    match.dealer = (due + 1) % 2  # the cheat
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    point = driver.table.catch_up_point(0)
    assert point is not None
    driver.caught_up_by_snapshot(0, point[1])
    with pytest.raises(MisroutedCardError) as stopped:
        driver.run()
    assert str(stopped.value) == (
        f"round {CAUGHT_UP}'s dealer is seat {match.dealer}, but seat {due} deals it (the next "
        "seat after a round played out, the same after a void, as the snapshot you were caught "
        "up with gives it)"
    )


def test_a_dealer_the_host_skips_in_a_later_round_stops_the_seat() -> None:
    """After the catch-up the rotation goes on being checked: the host deals round 3 from
    the wrong seat (as a seat that saw every event is told)."""
    driver = ada_caught_up()
    driver.run_until_round_over(CAUGHT_UP)
    match = driver.table.match
    assert match is not None
    match.dealer = (match.dealer + 1) % 2  # the cheat
    with pytest.raises(MisroutedCardError) as stopped:
        driver.run()
    assert str(stopped.value).startswith("deal 1: your hand received deck positions")


def test_points_the_host_adds_after_a_catch_up_stop_the_seat_at_the_match_end() -> None:
    """The host gives its computer player's side 5 points it never scored, just after Ada is
    caught up: the match ends on the host's sums. Her witness adds up the snapshot's points
    and every round since, and refuses the signed end. (Her client started again: one that
    checked round 1 itself adds up the rounds it played, below.)"""
    driver = ada_caught_up(afresh=True)
    match = driver.table.match
    assert match is not None
    match.scores[1] += 5  # the cheat
    driver.check_views = False  # (the host's own view shows its sums)
    with pytest.raises(ScoreMismatchError) as stopped:
        driver.run()
    end = [e for e in driver.table.seats[0].log if isinstance(e, m.MatchEnd)][-1]
    told = list(end.scores)
    assert re.fullmatch(
        r"the host ended the match naming the side of seat \d the winner, with scores "
        + re.escape(str(told))
        + r"; the snapshot you were caught up with and the rounds since give scores "
        + re.escape(str([told[0], told[1] - 5]))
        + r", (nobody|the side of seat \d) the winner \(playing to 16\)",
        str(stopped.value),
    ), str(stopped.value)


def test_a_sheet_the_plays_do_not_give_after_a_catch_up_stops_the_seat_at_its_reveal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The host's sheet for round 2, the first Ada follows after the catch-up, gives its side
    a point its cards did not take: replayed, the round does not score so."""
    real = table_module.score_lines

    def one_more(result: RoundScore) -> tuple[m.ScoreLineInfo, ...]:
        lines = real(result)
        first = lines[0]
        more = dataclasses.replace(first, points=(first.points[0], first.points[1] + 1))
        return (more, *lines[1:])

    driver = ada_caught_up()
    monkeypatch.setattr(table_module, "score_lines", one_more)
    driver.check_views = False  # (the host's own view shows the plays' sheet)
    with pytest.raises(ScoreMismatchError) as stopped:
        driver.run()
    assert re.fullmatch(
        r"the recorded round score \(\d+, \d+\) is not what the plays give: \(\d+, \d+\)",
        str(stopped.value),
    ), str(stopped.value)
    assert driver.witnesses[0].round_no == CAUGHT_UP


def test_a_round_the_snapshot_shows_dealt_opened_again_stops_a_seat_that_never_saw_it() -> None:
    """A client that starts afresh (its seat taken back from disk) is caught up with a
    snapshot of the present showing round 2 dealt; the host then opens round 2 again with a
    new round id. The snapshot told the seat that round 2 was dealt: a round number never
    opened twice (5.2) covers it too."""
    driver = ada_and_the_computer()
    driver.open_unread(CAUGHT_UP)
    for _ in range(5000):
        driver.catch_up()
        if driver.mirrors[0].view.round_number == CAUGHT_UP:
            break
        assert driver.step()
    snapshot = driver.table.snapshot(0)
    assert snapshot.round_no == CAUGHT_UP
    fresh = DealWitness(driver.table.rules, public_key_bytes(KEY), 0, mid_match=True)
    fresh.resynced(snapshot)
    first = commits(driver)[-1]
    round_id = bytes(reversed(first.round_id))
    digest = deck_digest(round_id, first.card_hashes)
    signed = commit_message(round_id, first.round_no, first.prev, digest, rules_hash(RULES))
    again = m.RoundCommit(
        seq=snapshot.seq + 1,
        round_id=round_id,
        round_no=first.round_no,
        prev=first.prev,
        card_hashes=first.card_hashes,
        digest=digest,
        sig=sign(KEY, signed),
    )
    with pytest.raises(RerolledRoundError) as stopped:
        fresh.observe(again)
    assert str(stopped.value).endswith(
        f"after round {CAUGHT_UP} had been opened: round numbers only go up"
    )
    assert what_failed(stopped.value).startswith("the host threw away a round it had opened")


def caught_up_mid_round(driver: Driver) -> tuple[DealWitness, m.Snapshot]:
    """A witness of seat 0 caught up by a snapshot of the present while round 2 is being
    played (a host of protocol 4, or a seat that changed hands): it cannot follow that round,
    and carries the match on over its ``round_end``."""
    driver.open_into_play(CAUGHT_UP)
    snapshot = driver.table.snapshot(0)
    assert snapshot.round_no == CAUGHT_UP
    assert not snapshot.round_over
    witness = DealWitness(driver.table.rules, public_key_bytes(KEY), 0, mid_match=True)
    witness.resynced(snapshot)
    return witness, snapshot


def test_an_honest_match_caught_up_in_a_round_under_way_is_replayed_to_its_end() -> None:
    driver = ada_and_the_computer()
    witness, snapshot = caught_up_mid_round(driver)
    driver.run()
    driver.read_after(0, witness, snapshot)
    assert witness.replays_plays
    assert witness.result.sig is not None
    assert all(v.error is None for v in witness.verdicts)
    assert witness.verdicts[0].round_no == CAUGHT_UP + 1  # (round 2 not followed)
    assert all("verified (dealer seat" in v.note or "void" in v.note for v in witness.verdicts)


def test_points_the_host_adds_in_the_round_under_way_at_the_catch_up_stop_the_seat() -> None:
    """The snapshot shows round 2 under way; the host then adds 5 points to its side. The
    witness adds round 2's sheet, as its ``round_end`` lines give it, to the snapshot's
    points, and refuses the match end, as the seat that saw every event does."""
    driver = ada_and_the_computer()
    witness, snapshot = caught_up_mid_round(driver)
    match = driver.table.match
    assert match is not None
    match.scores[1] += 5  # the cheat
    driver.check_views = False  # (the host's own view shows its sums)
    with pytest.raises(ScoreMismatchError):  # Ada, who saw every event, at the match end
        driver.run()
    with pytest.raises(ScoreMismatchError) as stopped:  # and the seat caught up, as well
        driver.read_after(0, witness, snapshot)
    assert "; the snapshot you were caught up with and the rounds since give scores" in str(
        stopped.value
    )


def test_a_first_dealer_the_host_picks_after_a_catch_up_before_round_1_stops_the_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Caught up before anything was dealt, at round 1's start, the seat knows the first
    dealer is 5.6's draw from round 1's joint seed: the host dealing from another seat is
    refused by the deal plan, as at a seat that saw every event."""
    drawn = table_module.first_dealer
    monkeypatch.setattr(
        table_module,
        "first_dealer",
        lambda joint, round_id, players: (drawn(joint, round_id, players) + 1) % players,
    )
    driver = ada_caught_up(round_no=1)
    with pytest.raises(MisroutedCardError) as stopped:
        driver.run()
    assert str(stopped.value).startswith("deal 1: your hand received deck positions")


def test_points_a_snapshot_changes_of_a_round_the_seat_checked_stop_the_seat_at_once() -> None:
    """Ada saw round 1 played out and revealed, and replayed it; the host then adds 5 points
    to its side and catches her up at round 2's start. The snapshot stands at round 1, which
    she checked: its points are not those her replay gave, and she stops as she reads it
    (before, she carried the host's sums on to the match end, which then added up)."""
    driver = ada_and_the_computer()
    driver.run_until_round_over(1)
    assert driver.witnesses[0].verdicts[-1].round_no == 1
    match = driver.table.match
    assert match is not None
    honest = list(match.scores)
    match.scores[1] += 5  # the cheat
    driver.check_views = False  # (the host's own view shows its sums)
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    point = driver.table.catch_up_point(0)
    assert point is not None
    with pytest.raises(ScoreMismatchError) as stopped:
        driver.caught_up_by_snapshot(0, point[1])
    told = [honest[0], honest[1] + 5]
    assert re.fullmatch(
        r"the snapshot you were caught up with gives, after round 1, scores "
        + re.escape(str(told))
        + r" and seat (\d) the next deal; the rounds you saw give scores "
        + re.escape(str(honest))
        + r" and seat \1 the next deal",
        str(stopped.value),
    ), str(stopped.value)


def test_a_chain_the_host_rewrites_behind_a_snapshot_of_a_round_she_checked_stops_her() -> None:
    """Ada saw round 1 revealed and replayed it. While she is away the host links round 2 to
    another chain hash than round 1's (a history rewritten for the others), and catches her up
    with the snapshot of round 2's start, which stands at round 1. She holds round 1's chain
    hash herself: round 2's ``prev`` is compared with it and she stops at its ``round_commit``
    (before, after a catch-up the link was taken as it came). Her evidence holds round 2 as it
    was opened, so ``verify`` refuses the file on its own."""
    witness_stops_at_round_2_rewritten(ada_and_the_computer())


@pytest.mark.parametrize("round_no", [1, CAUGHT_UP])
def test_a_seat_caught_up_at_a_round_it_checked_keeps_a_transcript_from_round_1(
    round_no: int,
) -> None:
    """Caught up by the snapshot of round ``round_no``'s start, standing at the last round
    Ada saw revealed (or at none, before round 1), her witness takes its own chain up again:
    it follows the match as a seat that saw every event, and its transcript, from round 1,
    verifies whole (before, it was a seat caught up mid-match, whose client saved none)."""
    driver = ada_caught_up(round_no=round_no)
    driver.run()
    witness = driver.witnesses[0]
    assert not witness.mid_match
    transcript = witness.transcript()
    assert [r.round_no for r in transcript.rounds] == list(range(1, len(transcript.rounds) + 1))
    verdict = verify_transcript(transcript)
    assert verdict.ok, verdict.lines()


def test_round_1_linked_elsewhere_after_a_snapshot_of_nothing_dealt_stops_the_seat() -> None:
    """Caught up before anything was dealt, the seat checks the match from its start: round
    1's ``prev`` must be the zero hash, as at a seat that saw every event."""
    witness_stops_at_round_1_linked_elsewhere(ada_and_the_computer())


def test_a_round_passed_unseen_after_a_snapshot_of_her_last_round_is_told_to_her() -> None:
    """A snapshot of the present taken while round 2's seeds are exchanged stands at round 1,
    which Ada checked, but she never sees round 2 opened: round 3 cannot be tied to her chain.
    Her witness says so (the match before round 3 is the host's word) and checks on from the
    snapshot, as after any catch-up; it does not take round 3's link for a broken chain."""
    driver = ada_and_the_computer()
    driver.run_until_round_over(1)
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    snapshot = driver.table.snapshot(0)
    assert snapshot.round_no == 1
    assert snapshot.round_over
    witness = copy.deepcopy(driver.witnesses[0])  # (the driver's Ada commits for the seat)
    witness.resynced(snapshot)
    assert witness.takes_chain_up
    driver.run()
    driver.read_after(0, witness, snapshot)
    assert witness.mid_match
    told = [n for n in witness.take_notices() if "you did not see the round between" in n]
    assert told[0] == (
        "round 3 follows round 1, the last the snapshot you were caught up with showed dealt, "
        "and you did not see the round between: the match before it is the host's word, as your "
        "transcript of this match says"
    )
    assert all(v.error is None for v in witness.verdicts)


def test_a_seat_caught_up_twice_at_a_round_it_checked_still_holds_the_host_to_its_chain() -> None:
    """Ada's connection drops again while she is being caught up, before round 2 opens in her
    sight: she is caught up a second time with the same snapshot. She still holds round 1's
    chain hash (before, the second snapshot found her chain already put aside and the link
    was taken as it came), and her evidence holds round 2 as it was opened."""
    driver = ada_and_the_computer()
    driver.run_until_round_over(1)
    driver.table.chain = bytes(range(32))  # the cheat: round 2 links elsewhere
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    point = driver.table.catch_up_point(0)
    assert point is not None
    driver.caught_up_by_snapshot(0, point[1])
    driver.caught_up_by_snapshot(0, point[1])  # (again)
    witness = driver.witnesses[0]
    assert witness.takes_chain_up
    with pytest.raises(BrokenChainError) as stopped:
        driver.run()
    assert str(stopped.value).startswith(
        f"round 2 links to {bytes(range(32)).hex()}, not to round 1's"
    )
    evidence = witness.evidence(stopped.value)
    assert [r.round_no for r in evidence.rounds] == [1, 2]


def test_an_honest_match_caught_up_twice_at_a_round_she_checked_keeps_a_transcript() -> None:
    """The same two catch-ups at an honest host: her transcript, from round 1 and with no
    ``caught_up``, verifies whole."""
    driver = ada_caught_up()
    driver.caught_up_at_the_round_opened(0, CAUGHT_UP)  # (again)
    driver.run()
    witness = driver.witnesses[0]
    assert not witness.mid_match
    transcript = witness.transcript()
    assert transcript.caught_up is None
    assert [r.round_no for r in transcript.rounds] == list(range(1, len(transcript.rounds) + 1))
    verdict = verify_transcript(transcript)
    assert verdict.ok, verdict.lines()
