"""The host's table state machine, driven without sockets: whole matches, fair deals checked by
every seat's witness, journal replay, refusals, and what each seat's log may contain."""

from __future__ import annotations

import random

import pytest
from table_driver import Driver, fill, new_table

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE, seat_positions
from scopa_net.fair.errors import CardCheckError
from scopa_net.fair.verifier import verify_transcript
from scopa_net.rules import RuleSet
from scopa_net.server.table import (
    MAX_OFFENCES,
    Phase,
    SeatKind,
    Table,
    TableError,
    token_hash,
)
from scopa_net.wire import messages as m
from scopa_net.wire.errors import ErrorCode


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet.of(2, 11),
        RuleSet.of(3, 5),
        RuleSet.of(4, 11),
        RuleSet.of(6, 4),
        RuleSet.of(4, 5, ["scopone"]),
    ],
    ids=lambda r: r.describe(),
)
def test_a_whole_match_verifies_for_every_seat(rules: RuleSet) -> None:
    table = new_table(rules)
    fill(table)
    driver = Driver(table, 7)
    driver.run()
    assert table.phase is Phase.OVER
    assert table.match is not None
    assert table.match.over
    for witness in driver.witnesses:
        assert witness.verdicts
        assert all(v.ok for v in witness.verdicts)
        verdict = verify_transcript(witness.transcript())
        assert verdict.ok, verdict.lines()
        assert witness.result.winner == table.match.winner


def test_replaying_the_journal_rebuilds_the_same_table() -> None:
    table = new_table(RuleSet.of(2, 3))
    fill(table)
    driver = Driver(table, 3)
    entries = list(table.take_pending())
    for _ in range(150):
        driver.step()
        entries += table.take_pending()
    twin = new_table(RuleSet.of(2, 3))
    twin.replay(entries)
    for a, b in zip(table.seats, twin.seats, strict=True):
        assert a.log == b.log
        assert a.moves == b.moves
        assert a.epoch == b.epoch
    assert twin.phase is table.phase
    assert twin.chain == table.chain
    assert twin.view_for(0) == table.view_for(0)


def test_a_seat_is_dealt_only_its_own_cards() -> None:
    rules = RuleSet.of(4, 3)
    table = new_table(rules)
    fill(table)
    Driver(table, 11).run()
    dealers = {record.round_id: dealer for record, _, _, dealer in table.history}
    for seat, s in enumerate(table.seats):
        round_id = b""
        hands_seen = 0
        for event in s.log:
            if isinstance(event, m.RoundCommit):
                round_id = event.round_id
            elif isinstance(event, m.Deal):
                dealer = dealers[round_id]
                assert {c.pos for c in event.hand} <= set(seat_positions(rules, dealer, seat))
                assert {c.pos for c in event.table} <= set(seat_positions(rules, dealer, TABLE))
                hands_seen += len(event.hand)
        assert hands_seen > 0


def two_seats_in_play() -> tuple[Table, Driver]:
    """A two-player table, both seats taken, driven (seed 5) until its first round is in
    play."""
    table = new_table(RuleSet.of(2))
    fill(table)
    driver = Driver(table, 5)
    while table.phase is not Phase.PLAY:
        driver.step()
    return table, driver


def test_duplicate_move_ids_are_acknowledged_and_applied_once() -> None:
    table, driver = two_seats_in_play()
    driver.catch_up()
    seat = table.match.round.turn
    play = table.match.round.legal_plays()[0]
    after = table.seats[seat].seq
    seq, dup = table.play(seat, 42, after, play.card.index, play.captured_mask)
    assert not dup
    history = len(table.match.round.history)
    again, dup = table.play(seat, 42, after, play.card.index, play.captured_mask)
    assert dup
    assert again == seq
    assert len(table.match.round.history) == history


def test_a_repeated_move_id_is_judged_after_its_event_was_trimmed_from_the_log() -> None:
    """A seat's log is trimmed in long matches (the host keeps what a resume may still ask
    for); a move sent again after that is still acknowledged with its own seq, and another
    play under its id still refused. Before, the repeat read the log as if nothing had been
    trimmed: a later event, or past the end."""
    table, driver = two_seats_in_play()
    driver.catch_up()
    seat = table.match.round.turn
    play = table.match.round.legal_plays()[0]
    seq, _ = table.play(seat, 42, table.seats[seat].seq, play.card.index, play.captured_mask)
    for _ in range(6):  # more events, so that trimming moves the log's start past the move
        driver.step()
    s = table.seats[seat]
    s.committed = s.seq
    s.trim(2)
    assert s.base >= seq
    again, dup = table.play(seat, 42, 0, play.card.index, play.captured_mask)
    assert (again, dup) == (seq, True)
    with pytest.raises(TableError) as refused:  # the same card, another capture
        table.play(seat, 42, 0, play.card.index, play.captured_mask ^ 1)
    assert refused.value.code is ErrorCode.MOVE_ID_TAKEN
    assert f"move 42 was a different play (seq {seq})" in str(refused.value)


def test_refusals_change_nothing() -> None:
    table, _ = two_seats_in_play()
    table.take_pending()
    rnd = table.match.round
    seat, other = rnd.turn, 1 - rnd.turn
    before = [list(s.log) for s in table.seats]
    card = rnd.hands[other][0]
    with pytest.raises(TableError) as info:
        table.play(other, 1, 10**6, card, 0)
    assert info.value.code is ErrorCode.NOT_YOUR_TURN
    with pytest.raises(TableError) as info:
        table.play(seat, 2, 0, rnd.hands[seat][0], 0)
    assert info.value.code is ErrorCode.STALE
    assert info.value.current_seq == table.seats[seat].seq
    with pytest.raises(TableError) as info:
        table.play(seat, 3, 10**6, rnd.hands[other][0], 0)
    assert info.value.code is ErrorCode.ILLEGAL_PLAY
    assert info.value.reason == "not_in_hand"
    with pytest.raises(TableError) as info:
        table.say(seat, "x" * 201)
    assert info.value.code is ErrorCode.CHAT_TOO_LONG
    assert [list(s.log) for s in table.seats] == before
    assert table.take_pending() == []


def test_tokens_wrong_empty_and_rotated_are_refused() -> None:
    table = new_table(RuleSet.of(2))
    table.join(0, "ann", token_hash(b"a" * 16))
    table.check_token(0, b"a" * 16)
    for bad in (b"", b"b" * 16, b"a" * 17):
        with pytest.raises(TableError) as info:
            table.check_token(0, bad)
        assert info.value.code is ErrorCode.BAD_TOKEN
    table.resume(0, token_hash(b"c" * 16))
    # The previous token stays good until the new one is used (a lost `resumed` reply).
    assert table.check_token(0, b"a" * 16) == token_hash(b"a" * 16)
    assert table.check_token(0, b"c" * 16) == token_hash(b"c" * 16)
    table.resume(0, token_hash(b"d" * 16))
    with pytest.raises(TableError, match="token") as info:
        table.check_token(0, b"a" * 16)  # its successor "c" was used: dead
    assert info.value.code is ErrorCode.BAD_TOKEN
    table.check_token(0, b"c" * 16)
    table.resume(0, token_hash(b"e" * 16), presented=token_hash(b"c" * 16))  # "d" was lost
    table.check_token(0, b"d" * 16)  # never used, nor its successor "e": still good
    table.check_token(0, b"e" * 16)
    table.resume(0, token_hash(b"f" * 16))
    for dead in (b"c", b"d"):
        with pytest.raises(TableError) as info:
            table.check_token(0, dead * 16)
        assert info.value.code is ErrorCode.BAD_TOKEN
    with pytest.raises(TableError) as info:
        table.check_token(1, b"c" * 16)  # an open seat has no token
    assert info.value.code is ErrorCode.BAD_TOKEN
    table.leave(0)
    with pytest.raises(TableError) as info:
        table.check_token(0, b"f" * 16)  # expired with the seat
    assert info.value.code is ErrorCode.BAD_TOKEN


def test_full_table_and_taken_seat() -> None:
    table = new_table(RuleSet.of(2), bots=1)
    table.join(None, "ann", token_hash(b"a" * 16))
    with pytest.raises(TableError) as info:
        table.join(None, "bob", token_hash(b"b" * 16))
    assert info.value.code is ErrorCode.TABLE_FULL
    with pytest.raises(TableError) as info:
        table.join(1, "bob", token_hash(b"b" * 16))
    assert info.value.code is ErrorCode.SEAT_TAKEN


def test_a_bad_reveal_is_excluded_published_and_counted_and_the_round_goes_on() -> None:
    table = new_table(RuleSet.of(2, 21))
    fill(table)
    driver = Driver(table, 1)
    for n in range(MAX_OFFENCES):
        while not (table.phase is Phase.COMMIT and table.to_act()):
            driver.step()
        driver.catch_up()
        round_id = table.round.record.round_id
        table.seed_commit(0, round_id, driver.witnesses[0].my_commitment(b"\x01" * 32))
        table.seed_commit(1, round_id, driver.witnesses[1].my_commitment(b"\x02" * 32))
        driver.witnesses[1].my_seed = None  # this seat lies about its seed: no self-check
        table.seed_reveal(0, round_id, b"\x01" * 32)
        table.seed_reveal(1, round_id, b"\x03" * 32)  # not the seed it committed to
        assert table.phase is Phase.PLAY  # no void, no re-roll
        reveals = [e for e in table.seats[0].log if isinstance(e, m.SeedReveals)][-1]
        assert reveals.excluded == (None, "bad_reveal")
        assert reveals.seeds[1] == b"\x03" * 32
        # Each seat got a receipt for what it sent, and only its own.
        receipts = [e for e in table.seats[1].log if isinstance(e, m.SeedReceipt)]
        assert receipts[-1].seat == 1
        assert len(receipts) == n + 1
        assert table.seats[1].offences == n + 1
        driver.catch_up()  # every witness accepts the exclusion the record proves
    assert table.seats[1].kind is SeatKind.BOT
    driver.run()
    for seat in (0, 1):
        verdict = verify_transcript(driver.witnesses[seat].transcript())
        assert verdict.ok, verdict.lines()


def test_a_missing_reveal_is_shown_not_punished() -> None:
    table = new_table(RuleSet.of(3, 11))
    fill(table)
    driver = Driver(table, 4)
    table.start_round(bytes(range(16)), bytes(32))
    driver.catch_up()
    round_id = table.round.record.round_id
    for seat in range(3):
        table.seed_commit(seat, round_id, driver.witnesses[seat].my_commitment(bytes([seat]) * 32))
    table.seed_reveal(0, round_id, bytes(32))
    assert table.phase is Phase.REVEAL
    table.close_seeds()  # the deadline: seats 1 and 2 never revealed
    assert table.phase is Phase.PLAY
    reveals = [e for e in table.seats[0].log if isinstance(e, m.SeedReveals)][-1]
    assert reveals.excluded == (None, "no_reveal", "no_reveal")
    assert [s.offences for s in table.seats] == [0, 0, 0]
    driver.catch_up()
    assert any("seat 1's seed is left out" in n for n in driver.witnesses[0].take_notices())


def test_commitments_that_never_come_are_shown_and_the_round_is_dealt_at_once() -> None:
    table = new_table(RuleSet.of(2, 11))
    fill(table)
    driver = Driver(table, 6)
    table.start_round(bytes(range(16)), bytes(32))
    table.close_seeds()  # the commit deadline: nobody committed, so nothing else to wait for
    assert table.phase is Phase.PLAY
    reveals = [e for e in table.seats[0].log if isinstance(e, m.SeedReveals)][-1]
    assert reveals.excluded == ("no_commit", "no_commit")
    assert reveals.seeds == (None, None)
    driver.catch_up()
    assert any("not fair-checked" in n for n in driver.witnesses[0].take_notices())


def test_computer_players_send_no_seed_and_a_round_without_people_is_not_fair_checked() -> None:
    table = new_table(RuleSet.of(2, 1), bots=1)
    fill(table)
    driver = Driver(table, 3)
    table.start_round(bytes(range(16)), bytes(32))
    assert table.to_act() == [(0, "commit")]  # the bot seat is not asked
    table.set_status(0, connected=False, stand_in=True, grace=0)  # the person is gone
    assert table.phase is Phase.PLAY  # nobody to wait for: dealt from the host's list alone
    driver.catch_up()
    notices = driver.witnesses[1].take_notices()
    assert any("not fair-checked: no player seed" in n for n in notices)
    driver.run()
    verdict = verify_transcript(driver.witnesses[1].transcript())
    assert verdict.ok
    assert verdict.not_fair_checked >= 1
    assert verdict.rounds[0].note.startswith("not fair-checked: no player seed")


def test_a_witness_catches_a_card_that_was_not_committed() -> None:
    table, driver = two_seats_in_play()
    seat_log = table.seats[0].log
    deal = next(e for e in seat_log if isinstance(e, m.Deal))
    index = seat_log.index(deal)
    forged = m.DealtCard(
        pos=deal.hand[0].pos, card=(deal.hand[0].card + 1) % 40, salt=deal.hand[0].salt
    )
    seat_log[index] = m.Deal(
        seq=deal.seq, hand=(forged, *deal.hand[1:]), table=deal.table, stock=deal.stock
    )
    with pytest.raises(CardCheckError) as info:
        driver.catch_up()
    assert type(info.value) is CardCheckError
    assert str(info.value).startswith(
        f"deck position {forged.pos}: {CARDS[forged.card]} with salt {forged.salt.hex()} "
        "does not match committed hash"
    )


def void_round_values(players: int) -> tuple[bytes, bytes, list[bytes]]:
    """Round id, host seed and seat seeds whose shuffle puts 3+ kings on the opening table."""
    from scopa_net.fair.commitments import HostDeck, joint_seed
    from scopa_net.fair.shuffle import deck_permutation

    rng = random.Random(2024)
    start = 3 * players
    while True:
        round_id, host_seed = rng.randbytes(16), rng.randbytes(32)
        seeds = [rng.randbytes(32) for _ in range(players)]
        deck = HostDeck.derive(host_seed, round_id)
        perm = deck_permutation(joint_seed(round_id, deck.digest, seeds), round_id)
        order = deck.deck(perm)
        if sum(1 for c in order[start : start + 4] if c >= 36) >= 3:
            return round_id, host_seed, seeds


def test_a_void_deal_of_kings_is_redealt_and_verifies() -> None:
    table = new_table(RuleSet.of(2, 3))
    fill(table)
    driver = Driver(table, 9)
    round_id, host_seed, seeds = void_round_values(2)
    table.start_round(round_id, host_seed)
    driver.catch_up()
    for seat in range(2):
        commit = driver.witnesses[seat].my_commitment(seeds[seat])
        table.seed_commit(seat, round_id, commit)
    for seat in range(2):
        table.seed_reveal(seat, round_id, seeds[seat])
    driver.catch_up()
    assert table.phase is Phase.BETWEEN
    assert table.match.round.void
    assert all(w.verdicts[-1].ok and "void" in w.verdicts[-1].note for w in driver.witnesses)
    assert driver.mirrors[0].view.void_deal
    dealer = table.match.dealer
    assert not any(table.snapshot(seat).redeal for seat in range(2))  # round 1 is not one
    while driver.mirrors[0].view.round_number < 2:
        driver.step()
    # A seat caught up by snapshot in round 2 reads it as the redeal, as the others do
    # (the driver checks at every step that each snapshot says what the events said).
    assert all(table.snapshot(seat).redeal for seat in range(2))
    assert all(mirror.view.redeal for mirror in driver.mirrors)
    driver.run()
    assert table.history[1][3] == dealer  # the same dealer dealt again
    for witness in driver.witnesses:
        assert verify_transcript(witness.transcript()).ok
    # One round numbering: the void is round 1, the redeal round 2, and every score sheet,
    # snapshot and view carries the number of its round_commit.
    last_commit = 0
    ends = []
    for event in table.seats[0].log:
        if isinstance(event, m.RoundCommit):
            last_commit = event.round_no
        elif isinstance(event, m.RoundEnd):
            assert event.round_no == last_commit
            ends.append(event.round_no)
    assert ends[0] == 2
    assert table.snapshot(0).round_no == table.dealt_round_no == last_commit
    assert driver.mirrors[0].view.round_number == last_commit
    # A seat caught up by snapshot learns the void too (it counted none: "after 2 rounds").
    assert table.snapshot(0).voids == 1


def test_a_snapshot_names_the_plays_a_computer_made_for_an_away_person() -> None:
    """A seat caught up by snapshot showed a stand-in's plays under the person's own name:
    the snapshot now says which plays of the round were a computer's for a person."""
    table, driver = two_seats_in_play()
    while not table.snapshot(1).plays:
        driver.step()  # a play by whoever leads, a person's own
    table.set_status(0, connected=False, stand_in=True, grace=0)  # a computer stands in
    made = len(table.snapshot(1).plays)
    while len(table.snapshot(1).plays) < made + 2:
        driver.step()
    snap = table.snapshot(1)
    expected = tuple(i for i, p in enumerate(snap.plays) if i >= made and p.seat == 0)
    assert expected
    assert snap.computer_plays == expected
    # Who a computer stands in for now is said too, and unsaid once the person is back.
    assert snap.stand_ins == (0,)
    table.set_status(0, connected=True, stand_in=False, grace=0)
    driver.step()
    assert table.snapshot(1).stand_ins == ()


def test_a_snapshot_names_who_held_a_seat_that_changed_hands_at_each_of_its_plays() -> None:
    """p1 leaves in the middle of a round, a computer plays the open seat, Carla takes it and
    renames herself: a seat caught up by snapshot named every play of seat 1 after Carla,
    where a seat that saw the events reads p1, bot 1, then Carlotta (her new name)."""
    table, driver = two_seats_in_play()

    def plays_of_seat_1() -> int:
        return sum(1 for p in table.snapshot(0).plays if p.seat == 1)

    def until_seat_1_plays() -> None:
        made = plays_of_seat_1()
        while plays_of_seat_1() == made:
            driver.step()

    until_seat_1_plays()
    table.leave(1)
    until_seat_1_plays()
    table.join(1, "Carla", token_hash(b"c" * 16))
    until_seat_1_plays()
    table.rename(1, "Carlotta")
    driver.catch_up()  # (which checks each seat's snapshot against its events)
    snap = table.snapshot(0)
    assert [n for n, p in zip(snap.makers, snap.plays, strict=True) if p.seat == 1] == [
        "p1",
        "bot 1",
        "Carlotta",
    ]
    assert {n for n, p in zip(snap.makers, snap.plays, strict=True) if p.seat == 0} == {"p0"}
    assert table.snapshot(1).makers == snap.makers


def test_a_rename_is_made_safe_told_apart_told_to_every_seat_and_replayed() -> None:
    table = new_table(RuleSet.of(3, 11), bots=1)
    table.join(0, "Ada", token_hash(b"a" * 16))
    table.join(1, "Bruno", token_hash(b"b" * 16))
    entries = list(table.take_pending())
    assert table.rename(1, "\u202eada\u200b ") == "ada (2)"  # cleaned, then told apart
    assert table.rename(1, "ada (2)") is None  # the name it has: nothing happens
    assert table.rename(0, "Carla") == "Carla"
    entries += table.take_pending()
    assert [e[0] for e in entries].count("rename") == 2
    for s in table.seats:
        renames = [e for e in s.log if isinstance(e, m.SeatStatus) and e.kind == "human"]
        assert [(e.seat, e.name) for e in renames[-2:]] == [(1, "ada (2)"), (0, "Carla")]
        assert all(e.connected and not e.stand_in for e in renames[-2:])
    assert table.snapshot(2).seats[0].name == "Carla"
    with pytest.raises(TableError) as refused:
        table.rename(2, "Robot")  # the bot's seat
    assert refused.value.code is ErrorCode.WRONG_PHASE
    twin = new_table(RuleSet.of(3, 11), bots=1)
    twin.replay(entries)
    assert [s.name for s in twin.seats] == ["Carla", "ada (2)", table.seats[2].name]
    assert [s.log for s in twin.seats] == [s.log for s in table.seats]
