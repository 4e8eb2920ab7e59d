"""The host's blind table without sockets: whole matches, the journal replayed, and every
person's message checked before the host relays it (protocol.md 9.5, 9.6)."""

from __future__ import annotations

import dataclasses

import pytest
from blind_driver import BlindDriver, new_blind_table
from table_driver import KEY

from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.table import Phase, TableError
from scopa_net.wire import messages as m
from scopa_net.wire.errors import ErrorCode


@pytest.mark.parametrize(("players", "bots"), [(2, 0), (3, 1), (4, 2)])
def test_a_blind_match_plays_to_its_end_and_every_seat_verifies_every_round(
    players: int, bots: int
) -> None:
    table = new_blind_table(RuleSet.of(players, 3), bots=bots)
    driver = BlindDriver(table, seed=players)
    driver.run()
    assert table.phase is Phase.OVER
    rounds = len(table.blind_history)
    assert rounds >= 1
    assert len(driver.verdicts) == rounds * len(driver.people)
    assert all("verified" in note for _, note in driver.verdicts)


def test_a_blind_table_rebuilt_from_its_journal_is_the_same_table() -> None:
    table = new_blind_table(RuleSet.of(3, 2), bots=1)
    driver = BlindDriver(table, seed=5)
    for _ in range(60):  # into the first round's play
        driver.step()
    entries = list(table.pending)
    again = BlindTable(1, "blind", table.rules, KEY, bots=1, bot_level=1)
    again.replay(entries)
    assert [s.log for s in again.seats] == [s.log for s in table.seats]
    assert again.phase is table.phase
    # ... and plays on: the seats' witnesses carry on against the rebuilt table.
    driver.table = again
    driver.run()
    assert again.phase is Phase.OVER


def started(seed: int = 1) -> tuple[BlindTable, BlindDriver]:
    table = new_blind_table(RuleSet.of(2, 3))
    driver = BlindDriver(table, seed)
    driver.step()  # the round opens
    driver.catch_up()
    return table, driver


def test_the_host_refuses_a_key_whose_proof_does_not_verify() -> None:
    table, driver = started()
    (key,) = [msg for msg in driver.witnesses[0].take_outgoing() if isinstance(msg, m.BlindKey)]
    forged = dataclasses.replace(key.key, point=driver.witnesses[1].take_outgoing()[0].key.point)
    with pytest.raises(TableError) as info:
        table.blind_key(0, key.round_id, forged)
    assert info.value.code is ErrorCode.BAD_FIELD
    assert "proof" in info.value.message
    assert table.blind_round.keys[1] is None  # nothing relayed


def test_the_host_refuses_a_deck_or_shares_not_signed_by_the_seat() -> None:
    table, driver = started()
    while table.phase is Phase.KEYS:
        driver.deliver()
        driver.catch_up()
    (shuffle,) = driver.witnesses[0].take_outgoing()
    assert isinstance(shuffle, m.BlindShuffle)
    swapped = (shuffle.deck[1], shuffle.deck[0], *shuffle.deck[2:])
    with pytest.raises(TableError, match="not signed"):
        table.blind_shuffle(0, shuffle.round_id, swapped, shuffle.sig)
    with pytest.raises(TableError, match="turn"):
        table.blind_shuffle(1, shuffle.round_id, shuffle.deck, shuffle.sig)
    table.blind_shuffle(0, shuffle.round_id, shuffle.deck, shuffle.sig)


def test_the_host_refuses_a_play_whose_proof_names_another_card() -> None:
    table = new_blind_table(RuleSet.of(2, 3))
    driver = BlindDriver(table, seed=3)
    while not (table.phase is Phase.PLAY and table.to_act()):
        driver.step()
    driver.catch_up()
    seat = table.to_act()[0][0]
    witness = driver.witnesses[seat]
    hand = sorted(witness.party.owned.items())
    (_, card), (other_pos, _) = hand[0], hand[1]
    _, proof = witness.play_proof(card)
    with pytest.raises(TableError) as info:  # the proof of one card, claimed for another
        table.play(seat, 1, table.seats[seat].seq, card, 0, pos=other_pos, proof=proof)
    assert info.value.code is ErrorCode.ILLEGAL_PLAY
    played = [e for e in table.seats[seat].log if isinstance(e, m.Played)]
    assert played == []


def test_a_blind_event_encoded_once_for_every_seat_is_the_plain_encoding() -> None:
    """The host encodes a table event once for all seats: optional keys are left out there
    exactly as in the message's own map (a blind ``played`` carries a proof, no salt)."""
    import msgpack

    from scopa_net.wire.codec import decode, encode

    for event in (
        m.Played(seq=3, seat=1, card=5, captured=0, sweep=False, pos=9, salt=None, proof=b"p" * 64),
        m.Played(seq=3, seat=1, card=5, captured=0, sweep=False, pos=9, salt=b"s" * 16),
        m.RoundVoid(seq=4, round_id=bytes(16), reason="absent", offender=0),
        m.RoundVoid(seq=4, round_id=bytes(16), reason="kings"),
    ):
        for seq in (3, 300):
            msg = event.with_seq(seq)
            frame = encode(msg)
            assert frame[4:] == msgpack.packb(msg.to_map(), use_bin_type=True)
            assert decode(frame[4:]) == msg
