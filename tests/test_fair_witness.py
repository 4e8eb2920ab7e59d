"""A seat's witness, event by event: where each card lands, receipts, and a catch-up by
snapshot that must not raise a false alarm."""

from __future__ import annotations

import dataclasses

import pytest
from table_driver import KEY, Driver, fill, new_table

from scopa_net.fair.commitments import public_key_bytes, receipt_message, sign
from scopa_net.fair.errors import (
    BadReceiptError,
    DuplicateCardError,
    FairnessError,
    MisroutedCardError,
)
from scopa_net.fair.placement import Placement
from scopa_net.rules import RuleSet
from scopa_net.server.table import Phase
from scopa_net.wire import messages as m
from scopa_net.witness import DealWitness


def test_placement_follows_the_deal_plan_deal_by_deal() -> None:
    rules = RuleSet.of(2)
    place = Placement(rules, seat=0, dealer=1)  # seat 0 is dealt first: positions 0, 2, 4
    with pytest.raises(MisroutedCardError, match=r"your hand received deck positions \[1, 3, 5\]"):
        Placement(rules, 0, 1).deal([(1, 10), (3, 11), (5, 12)], [(6, 0), (7, 1), (8, 2), (9, 3)])
    place.deal([(0, 10), (2, 11), (4, 12)], [(6, 0), (7, 1), (8, 2), (9, 3)])
    place.play(1, 1, 20)  # seat 1 plays a card dealt to it
    with pytest.raises(MisroutedCardError, match="dealt to seat 0"):
        place.play(1, 0, 10)  # not seat 1's card
    with pytest.raises(MisroutedCardError, match="not yet dealt"):
        place.play(1, 11, 21)  # a card of the next deal
    with pytest.raises(MisroutedCardError, match="a table card"):
        place.play(1, 6, 0)
    with pytest.raises(DuplicateCardError, match="played twice"):
        place.play(1, 1, 20)
    with pytest.raises(DuplicateCardError, match="already arrived"):
        place.play(1, 3, 10)  # the card at seat 0's position 0, again
    place.deals_seen = 6
    with pytest.raises(MisroutedCardError, match="has only 6 deals"):
        place.deal([], [])


def play_to(table, driver: Driver, phase: Phase) -> None:
    while table.phase is not phase:
        driver.step()


def test_a_receipt_for_another_seat_or_seed_is_refused() -> None:
    table = new_table(RuleSet.of(2, 11))
    fill(table)
    driver = Driver(table, 11)
    play_to(table, driver, Phase.REVEAL)
    driver.step()  # seat 0 reveals: its receipt is in its log
    receipt = next(e for e in table.seats[0].log if isinstance(e, m.SeedReceipt))
    witness = driver.witnesses[0]
    for event in table.seats[0].log[driver.read[0] :]:
        if event is receipt:
            break
        witness.observe(event)
    with pytest.raises(BadReceiptError):
        witness.observe(dataclasses.replace(receipt, seat=1))
    with pytest.raises(FairnessError, match="signature"):
        witness.observe(dataclasses.replace(receipt, seed_hash=bytes(32)))
    signed_other = sign(KEY, receipt_message(receipt.round_id, 0, bytes(32)))
    with pytest.raises(BadReceiptError, match="other than ours"):
        witness.observe(dataclasses.replace(receipt, seed_hash=bytes(32), sig=signed_other))
    witness.observe(receipt)
    assert witness.current is not None
    assert witness.current.receipt is not None


def test_a_catch_up_by_snapshot_mid_round_raises_no_false_alarm() -> None:
    table = new_table(RuleSet.of(2, 5))
    fill(table)
    driver = Driver(table, 12)
    driver.run()
    log = table.seats[0].log
    commits = [i for i, e in enumerate(log) if isinstance(e, m.RoundCommit)]
    assert len(commits) >= 2
    witness = DealWitness(table.rules, public_key_bytes(KEY), 0)
    # Seat 0 follows round 1 up to its third play, misses the rest (a snapshot caught it
    # up), and goes on from there: no alarm, and round 2 on is checked card by card again.
    plays = [i for i, e in enumerate(log) if isinstance(e, m.Played)]
    for event in log[: plays[2]]:
        witness.observe(event)
    witness.resynced()
    for event in log[plays[6] :]:
        witness.observe(event)
    assert witness.verdicts
    assert all(v.ok for v in witness.verdicts)
    assert "not replayed" in witness.verdicts[-1].note
    assert witness.verdicts[0].round_no == 2
