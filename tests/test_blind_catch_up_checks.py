"""A seat caught up by snapshot at a blind table (protocol.md 9.7) checks the match from the
snapshot on as a seat that saw every event does: the dealer of every later round, the round
numbers and their chain, the scores and the signed match end. Our host, made to cheat once
Ada (seat 0, with the host's computer player in seat 1) has been caught up at round 2's start,
is stopped by her witness; before, after a catch-up the blind witness checked none of these."""

from __future__ import annotations

import copy
import re

import pytest
from blind_driver import BlindDriver, new_blind_table
from chain_rewritten import (
    REWRITTEN,
    witness_stops_at_round_1_linked_elsewhere,
    witness_stops_at_round_2_rewritten,
)
from table_driver import KEY

from scopa_net.blind_witness import BlindWitness
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.commitments import public_key_bytes
from scopa_net.fair.errors import (
    BadSignatureError,
    BrokenChainError,
    DealerMismatchError,
    MisroutedCardError,
    RerolledRoundError,
    ScoreMismatchError,
)
from scopa_net.fair.plain_words import what_failed
from scopa_net.match import Match
from scopa_net.rules import RuleSet
from scopa_net.server import blind_table as blind_table_module
from scopa_net.server import table as table_module
from scopa_net.wire import messages as m

CAUGHT_UP = 2
"""The round at whose start Ada is caught up by snapshot (as our host catches a person up)."""
MISDEALT = (
    "cards went where the deal does not send them (to your hand, or to the table): the host "
    "dealt out of order, or the record was changed"
)
"""What a person reads of a dealer out of turn: a misrouted deal, as at an ordinary table."""
DEALT_OUT_OF_TURN = (
    "the round was dealt by a seat whose turn it was not (the round's keys draw the match's "
    "first dealer; after that the deal passes to the next seat when a round is played out, and "
    "stays after a void): the host dealt out of turn, or the record was changed"
)
"""What a person reads of a first deal dealt by another seat than the keys draw."""


def ada_caught_up(seed: int = 5, *, afresh: bool = False) -> BlindDriver:
    """Ada and the host's computer player at a blind table to 16, round 1 played and round 2
    opened; Ada caught up by the snapshot our host sends a person then: the table as it stood
    just before round 2's ``blind_round``, every event of the round after it. ``afresh``: her
    client started again (her seat taken back from disk), so it saw no round and has only the
    snapshot's word for the match before it (one that checked round 1 itself takes its own
    chain up again, and checks the rest as a seat that saw every event)."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=seed)
    driver.open_unread(CAUGHT_UP)
    if afresh:
        driver.witnesses[0] = BlindWitness(
            driver.table.rules,
            public_key_bytes(KEY),
            0,
            new_seed=lambda: driver.rng.randbytes(32),
            mid_match=True,
        )
    driver.caught_up_at_the_round_opened(0, CAUGHT_UP)
    return driver


def blind_rounds(driver: BlindDriver) -> list[m.BlindRound]:
    return [e for e in driver.table.seats[0].log if isinstance(e, m.BlindRound)]


def deal_from_the_wrong_seat(driver: BlindDriver) -> tuple[Match, int]:
    """The cheat: the host deals the next round from the seat after the one due. Returns the
    match and the seat that was due."""
    match = driver.table.match
    assert match is not None
    due = match.dealer
    match.dealer = (due + 1) % 2  # the cheat
    return match, due


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_an_honest_match_caught_up_at_a_rounds_start_is_checked_to_its_end(seed: int) -> None:
    """Nothing is found at an honest host, and every round from the catch-up on is replayed on
    the match so far (its plays and score), not only its cards checked."""
    driver = ada_caught_up(seed)
    driver.run()
    assert driver.table.phase.value == "over"
    witness = driver.witnesses[0]
    assert witness.replays_plays
    later = [v for v in witness.verdicts if v.round_no >= CAUGHT_UP]
    assert later
    assert all(v.error is None for v in later)
    assert all("verified (dealer seat" in v.note or "void" in v.note for v in later), later


def test_an_honest_match_caught_up_between_rounds_is_checked_to_its_end() -> None:
    """The snapshot of the present, round 1 over (its sheet in it): the points and the dealer
    after it are carried on, and the match ends as they give."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=8)
    driver.run_until_round_over(1)
    driver.caught_up_by_snapshot(0, driver.table.snapshot(0))
    driver.run()
    assert driver.witnesses[0].replays_plays
    assert driver.witnesses[0].result.sig is not None  # the match end, read and checked


def test_a_dealer_the_host_keeps_after_a_catch_up_stops_the_seat() -> None:
    """Round 1 played out, the host deals round 2 from the seat that dealt round 1 (the
    deal should pass on). The snapshot Ada was caught up with names round 1's dealer and its
    end, so her witness knows who deals round 2. (Her client started again, so round 1's end
    is the snapshot's word.)"""
    driver = ada_caught_up(afresh=True)
    match, due = deal_from_the_wrong_seat(driver)
    with pytest.raises(MisroutedCardError) as stopped:
        driver.run()
    assert what_failed(stopped.value) == MISDEALT
    assert str(stopped.value) == (
        f"round {CAUGHT_UP}'s dealer is seat {match.dealer}, but seat {due} deals it (the next "
        "seat after a round played out, the same after a void, as the snapshot you were caught "
        "up with gives it)"
    )


def test_a_dealer_the_host_skips_in_a_later_round_stops_the_seat() -> None:
    """After the catch-up the rotation goes on being checked: the host deals round 3 from
    the wrong seat."""
    driver = ada_caught_up()
    driver.run_until_round_over(CAUGHT_UP)
    match, due = deal_from_the_wrong_seat(driver)
    with pytest.raises(MisroutedCardError) as stopped:
        driver.run()
    assert what_failed(stopped.value) == MISDEALT
    assert str(stopped.value) == (
        f"round {CAUGHT_UP + 1}'s dealer is seat {match.dealer}, but seat {due} deals it (the "
        "next seat after a round played out, the same after a void)"
    )


def test_points_the_host_adds_after_a_catch_up_stop_the_seat_at_the_match_end() -> None:
    """The host gives its computer player's side 5 points it never scored, just after Ada is
    caught up: the match ends on the host's sums. Her witness adds up the snapshot's points
    and every round since, and refuses the signed end. (Her client started again: one that
    checked round 1 itself adds up the rounds it played.)"""
    driver = ada_caught_up(afresh=True)
    match = driver.table.match
    assert match is not None
    honest = tuple(match.scores)
    match.scores[1] += 5  # the cheat
    with pytest.raises(ScoreMismatchError) as stopped:
        driver.run()
    end = [e for e in driver.table.seats[0].log if isinstance(e, m.MatchEnd)][-1]
    told = list(end.scores)
    assert told[1] >= 5
    assert honest != tuple(told)
    assert re.fullmatch(
        r"the host ended the match naming the side of seat \d the winner, with scores "
        + re.escape(str(told))
        + r"; the snapshot you were caught up with and the rounds since give scores "
        + re.escape(str([told[0], told[1] - 5]))
        + r", (nobody|the side of seat \d) the winner \(playing to 16\)",
        str(stopped.value),
    ), str(stopped.value)


@pytest.mark.parametrize("cheat", ["number", "link"])
def test_a_round_that_does_not_follow_the_last_one_revealed_stops_the_seat(cheat: str) -> None:
    """After round 2, followed from the catch-up, the host opens a round numbered 4 (a round 3
    this seat was never shown), or a round 3 linked to another history than round 2's: a
    seat that saw every event stops at either, and now one caught up does."""
    driver = ada_caught_up()
    driver.run_until_round_over(CAUGHT_UP)
    if cheat == "number":
        driver.table.round_no += 1
    else:
        driver.table.chain = bytes(32)
    with pytest.raises(BrokenChainError) as stopped:
        driver.run()
    opened = blind_rounds(driver)[-1]
    if cheat == "number":
        assert str(stopped.value) == (
            f"round {CAUGHT_UP + 2} is not the round after round {CAUGHT_UP}, the last revealed: "
            "round numbers go up by one"
        )
    else:
        assert str(stopped.value) == (
            f"round {opened.round_no} links to {bytes(32).hex()}, not to round {CAUGHT_UP}, "
            "the last revealed"
        )


def test_a_match_end_signed_over_another_chain_after_a_catch_up_stops_the_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The host signs the match's end over a chain hash that is not that of the rounds
    played (an end it could use for another history): checked since the first round revealed
    after the catch-up."""
    real = table_module.end_message
    monkeypatch.setattr(
        table_module, "end_message", lambda chain, scores, winner: real(bytes(32), scores, winner)
    )
    driver = ada_caught_up()
    with pytest.raises(BadSignatureError) as stopped:
        driver.run()
    assert str(stopped.value).startswith("the host's signature on the match end does not verify")


def test_a_round_the_snapshot_shows_dealt_opened_again_stops_a_seat_that_never_saw_it() -> None:
    """A client that starts afresh (its seat taken back from disk) is caught up with a
    snapshot of the present showing round 2 dealt; the host then opens round 2 again with a
    new round id. The snapshot told the seat that round 2 was dealt: a round number never
    opened twice (5.2) covers it too."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    driver.open_unread(CAUGHT_UP)
    for _ in range(5000):
        driver.catch_up()
        if driver.mirrors[0].view.round_number == CAUGHT_UP:
            break
        assert driver.step()
    snapshot = driver.table.snapshot(0)
    assert snapshot.round_no == CAUGHT_UP
    fresh = BlindWitness(
        driver.table.rules, public_key_bytes(KEY), 0, new_seed=lambda: bytes(32), mid_match=True
    )
    fresh.resynced(snapshot)
    first = blind_rounds(driver)[-1]
    again = m.BlindRound(
        seq=snapshot.seq + 1,
        round_id=bytes(reversed(first.round_id)),
        round_no=first.round_no,
        prev=first.prev,
        people=first.people,
        key=first.key,
        sig=first.sig,  # (the number is refused before the signature is read)
    )
    with pytest.raises(RerolledRoundError) as stopped:
        fresh.observe(again)
    assert str(stopped.value) == (
        f"round {CAUGHT_UP} was opened again (round id {again.round_id.hex()}), after round "
        f"{CAUGHT_UP} had been opened: round numbers only go up"
    )
    assert what_failed(stopped.value).startswith("the host threw away a round it had opened")


def observer_caught_up_mid_round(driver: BlindDriver) -> tuple[BlindWitness, m.Snapshot]:
    """A witness of seat 1 (the computer player's, which no person plays: an observer of every
    round, as a person's seat sitting rounds out is, 9.7), caught up by a snapshot of the
    present while round 2 is being played: it cannot follow that round, and carries the match
    on over its ``round_end``."""
    in_play = driver.open_into_play(CAUGHT_UP)  # (one later after a kings void)
    snapshot = driver.table.snapshot(1)
    assert snapshot.round_no == in_play
    assert not snapshot.round_over
    witness = BlindWitness(
        driver.table.rules, public_key_bytes(KEY), 1, new_seed=lambda: bytes(32), mid_match=True
    )
    witness.resynced(snapshot)
    return witness, snapshot


def test_an_honest_match_caught_up_in_a_round_under_way_is_checked_to_its_end() -> None:
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    witness, snapshot = observer_caught_up_mid_round(driver)
    driver.run()
    driver.read_after(1, witness, snapshot)
    assert witness.replays_plays
    assert witness.result.sig is not None
    assert all(v.error is None for v in witness.verdicts)
    assert witness.verdicts[0].round_no == snapshot.round_no + 1  # (that round not followed)


def test_points_the_host_adds_in_the_round_under_way_at_the_catch_up_stop_the_seat() -> None:
    """The snapshot shows round 2 under way; the host then adds 5 points to its side. The
    witness adds round 2's sheet, as its ``round_end`` lines give it, to the snapshot's
    points, and refuses the match end, as Ada's does."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    witness, snapshot = observer_caught_up_mid_round(driver)
    match = driver.table.match
    assert match is not None
    match.scores[1] += 5  # the cheat
    with pytest.raises(ScoreMismatchError):  # Ada, who saw every event, at the match end
        driver.run()
    with pytest.raises(ScoreMismatchError) as stopped:  # and the seat caught up, as well
        driver.read_after(1, witness, snapshot)
    assert "; the snapshot you were caught up with and the rounds since give scores" in str(
        stopped.value
    )


def ada_caught_up_before_the_first_deal(seed: int = 5) -> BlindDriver:
    """As :func:`ada_caught_up`, at round 1's start: the snapshot shows no round dealt."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=seed)
    driver.open_unread(1)
    point = driver.table.catch_up_point(0)
    assert point is not None
    assert point[1].round_no == 0
    driver.caught_up_by_snapshot(0, point[1])
    return driver


def test_an_honest_match_caught_up_before_its_first_deal_is_checked_from_round_1() -> None:
    driver = ada_caught_up_before_the_first_deal()
    driver.run()
    witness = driver.witnesses[0]
    assert witness.verdicts[0].round_no == 1
    assert all("verified (dealer seat" in v.note or "void" in v.note for v in witness.verdicts)


def test_a_first_dealer_the_host_picks_after_a_catch_up_before_round_1_stops_the_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Caught up before anything was dealt, at round 1's start, the seat knows the first
    dealer is 9.5.5's draw from round 1's keys: the host naming another is stopped."""
    drawn = blind_table_module.blind_first_dealer
    monkeypatch.setattr(
        blind_table_module,
        "blind_first_dealer",
        lambda round_id, keys, players: (drawn(round_id, keys, players) + 1) % players,
    )
    driver = ada_caught_up_before_the_first_deal()
    with pytest.raises(DealerMismatchError) as stopped:
        driver.run()
    assert re.fullmatch(
        r"round 1 is the match's first deal: its dealer is seat (\d), but the round's keys draw "
        r"seat (?!\1)\d",
        str(stopped.value),
    ), str(stopped.value)
    assert what_failed(stopped.value) == DEALT_OUT_OF_TURN


def test_points_a_snapshot_changes_of_a_round_the_seat_checked_stop_the_seat_at_once() -> None:
    """Ada saw round 1 played out and revealed, and replayed it; the host then adds 5 points
    to its side and catches her up at round 2's start. The snapshot stands at round 1, which
    she checked: its points are not those her replay gave, and she stops as she reads it."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    driver.run_until_round_over(1)
    assert driver.witnesses[0].verdicts[-1].round_no == 1
    match = driver.table.match
    assert match is not None
    honest = list(match.scores)
    match.scores[1] += 5  # the cheat
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    point = driver.table.catch_up_point(0)
    assert point is not None
    with pytest.raises(ScoreMismatchError) as stopped:
        driver.caught_up_by_snapshot(0, point[1])
    assert str(stopped.value).startswith(
        f"the snapshot you were caught up with gives, after round 1, scores "
        f"{[honest[0], honest[1] + 5]} and seat "
    )
    assert f"; the rounds you saw give scores {honest} and seat " in str(stopped.value)


def test_a_chain_the_host_rewrites_behind_a_snapshot_of_a_round_she_checked_stops_her() -> None:
    """Ada saw round 1 revealed and replayed it. While she is away the host links round 2 to
    another chain hash than round 1's (a history rewritten for the others) and catches her up
    with the snapshot of round 2's start, which stands at round 1. She holds round 1's chain
    hash herself: round 2's ``prev`` is compared with it and she stops at its ``blind_round``
    (before, after a catch-up the link was taken as it came). Her evidence holds round 2 as it
    was opened, so ``verify`` refuses the file on its own."""
    witness_stops_at_round_2_rewritten(
        BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    )


@pytest.mark.parametrize("round_no", [1, CAUGHT_UP])
def test_a_seat_caught_up_at_a_round_it_checked_keeps_a_transcript_from_round_1(
    round_no: int,
) -> None:
    """Caught up by the snapshot of round ``round_no``'s start, standing at the last round
    Ada saw revealed (or at none, before round 1), her witness takes its own chain up again:
    it follows the match as a seat that saw every event, and its transcript, from round 1,
    verifies whole (before, it was a seat caught up mid-match, whose client saved none)."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    driver.open_unread(round_no)
    driver.caught_up_at_the_round_opened(0, round_no)
    driver.run()
    witness = driver.witnesses[0]
    assert not witness.mid_match
    assert witness.keeps_transcript
    transcript = witness.transcript()
    assert [r.round_no for r in transcript.rounds] == list(range(1, len(transcript.rounds) + 1))
    verdict = verify_any(transcript)
    assert verdict.ok, verdict.lines()


def test_round_1_linked_elsewhere_after_a_snapshot_of_nothing_dealt_stops_the_seat() -> None:
    """Caught up before anything was dealt, the seat checks the match from its start: round
    1's ``prev`` must be the zero hash, as at a seat that saw every event (before, it was
    checked only at round 1's reveal, after the seat had played the round)."""
    witness_stops_at_round_1_linked_elsewhere(
        BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    )


def test_a_round_passed_unseen_after_a_snapshot_of_her_last_round_is_told_to_her() -> None:
    """A snapshot of the present taken while round 2 is being set up stands at round 1, which
    Ada checked, but she never sees round 2 opened: round 3 cannot be tied to her chain. Her
    witness says so and checks on from the snapshot, as after any catch-up; it does not take
    round 3's link for a broken chain. Her transcript (version 8, protocol.md 9.8) holds round
    1 and the rounds from 3 on, and ``verify`` says round 2 was not checked (before, no
    transcript was kept)."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    driver.run_until_round_over(1)
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    snapshot = driver.table.snapshot(0)
    assert snapshot.round_no == 1
    assert snapshot.round_over or snapshot.void_deal  # (round 1 void for its kings: 1 in 600)
    seeds: dict[bytes, bytes] = {}
    driver.witnesses[0].on_seed = seeds.__setitem__
    witness = copy.deepcopy(driver.witnesses[0])  # (the driver's Ada plays for the seat)
    witness.seed_for = seeds.get  # (her party's seed, as a client keeps it with the seat)
    witness.resynced(snapshot)
    assert witness.takes_chain_up
    driver.run()
    driver.read_after(0, witness, snapshot)
    assert witness.mid_match
    assert witness.keeps_transcript
    told = [n for n in witness.take_notices() if "you did not see the round between" in n]
    assert told == [
        "round 3 follows round 1, the last the snapshot you were caught up with showed dealt, "
        "and you did not see the round between: the match before it is the host's word, as "
        "your transcript of this match says"
    ]
    assert all(v.error is None for v in witness.verdicts)
    transcript = decode_any(witness.transcript().encode())
    assert transcript.version == 8
    held = [r.round_no for r in transcript.rounds]
    assert held[:2] == [1, 3], held
    verdict = verify_any(transcript)
    assert all(r.ok for r in verdict.rounds), verdict.lines()
    assert verdict.unseen.startswith("not checked: round 2: this seat did not see it"), (
        verdict.unseen
    )
    assert not verdict.whole


def test_a_seat_caught_up_twice_at_a_round_it_checked_still_holds_the_host_to_its_chain() -> None:
    """Ada's connection drops again while she is being caught up, before round 2 opens in her
    sight: she is caught up a second time with the same snapshot. She still holds round 1's
    chain hash (before, the second snapshot found her chain already put aside and the link
    was taken as it came)."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    driver.run_until_round_over(1)
    driver.table.chain = REWRITTEN  # the cheat: round 2 links elsewhere
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    driver.caught_up_at_the_round_opened(0, 2)
    driver.caught_up_at_the_round_opened(0, 2)  # (again)
    assert driver.witnesses[0].takes_chain_up
    with pytest.raises(BrokenChainError) as stopped:
        driver.run()
    assert str(stopped.value).startswith(f"round 2 links to {REWRITTEN.hex()}, not to round 1's")


def test_an_honest_match_caught_up_twice_at_a_round_she_checked_keeps_a_transcript() -> None:
    """The same two catch-ups at an honest host: her transcript, from round 1, verifies whole."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    driver.open_unread(CAUGHT_UP)
    driver.caught_up_at_the_round_opened(0, CAUGHT_UP)
    driver.caught_up_at_the_round_opened(0, CAUGHT_UP)  # (again)
    driver.run()
    witness = driver.witnesses[0]
    assert witness.keeps_transcript
    transcript = witness.transcript()
    assert [r.round_no for r in transcript.rounds] == list(range(1, len(transcript.rounds) + 1))
    assert verify_any(transcript).ok
