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


def test_play_lan_blind_opens_a_blind_table_and_the_list_says_so(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play --lan --blind --humans 2`` asks the embedded host for a blind table; that table
    is blind, and ``join``'s table list marks it [blind]. (The embedded game here listens on
    loopback only and announces nothing: tests send nothing to the LAN.)"""
    import argparse

    import trio

    from scopa_net.client import embedded
    from scopa_net.client.network_session import list_tables
    from scopa_net.commands import play
    from scopa_net.commands.join import describe_table

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    asked: list[dict] = []
    real = embedded.open_embedded_game

    def on_loopback(rules, **kw):
        asked.append(kw)
        return real(rules, **{**kw, "lan": False, "port": 0})

    monkeypatch.setattr(embedded, "open_embedded_game", on_loopback)
    listed: list[m.TableInfo] = []

    def screen(open_session, settings, **_: object) -> int:
        async def look() -> None:
            async with open_session() as session:
                listed.extend(await list_tables("127.0.0.1", session.embedded_port))

        trio.run(look)
        return 0

    monkeypatch.setattr("scopa_net.client.launch.run_game_screen", screen)
    parser = argparse.ArgumentParser()
    play.register(parser.add_subparsers())
    args = parser.parse_args(["play", "--lan", "--blind", "--humans", "2"])
    settings = argparse.Namespace(name="Ada")
    assert play.run_lan(args, settings, RuleSet.of(2, 11), "random", 2, coach=False) == 0
    assert asked[0]["blind"] is True
    (table,) = listed
    assert table.blind
    assert "[blind]" in describe_table(table)


@pytest.mark.parametrize(
    ("flags", "blind"),
    [
        ((), True),  # four people: blind by default
        (("--bots", "3"), False),  # one person against computers: nothing to hide from
        (("--no-blind",), False),
        (("--bots", "3", "--blind"), True),
    ],
)
def test_join_create_is_blind_by_default_when_more_than_one_person_plays(
    monkeypatch: pytest.MonkeyPatch, flags: tuple[str, ...], blind: bool
) -> None:
    import argparse

    from scopa_net.commands import join

    monkeypatch.setattr(join, "ask_host", lambda host, port: ((), b"k" * 32))
    monkeypatch.setattr(join, "check_host_key", lambda *a, **kw: None)
    parser = argparse.ArgumentParser()
    join.register(parser.add_subparsers())
    args = parser.parse_args(["join", "h", "--create", "--players", "4", *flags])
    choice = join._table_choice(args, "h", 1, input)
    assert choice is not None
    assert choice.create is not None
    assert choice.create.blind is blind


@pytest.mark.parametrize("phase", [Phase.KEYS, Phase.SHUFFLE, Phase.OPEN, Phase.PLAY])
def test_a_person_gone_past_grace_at_any_stage_voids_the_round_and_the_match_goes_on(
    phase: Phase,
) -> None:
    """9.7 at every stage of a round: the person whose grace ended is named in an ``absent``
    void, their seed never comes, the other person's seat accepts the void and the match
    goes on with a computer holding the seat for the host."""
    table = new_blind_table(RuleSet.of(3, 1), bots=1)
    driver = BlindDriver(table, seed=4)
    for _ in range(300):
        driver.catch_up()
        if table.phase is phase and (phase is Phase.KEYS or (1, "play") in table.to_act()):
            break
        if table.phase is phase and any(seat == 1 for seat, _ in table.to_act()):
            break
        driver.step()
    assert table.phase is phase
    driver.hold = {1}  # seat 1's client is gone: it reads and sends nothing more
    driver.witnesses[1].take_outgoing()
    driver.deliver()
    driver.catch_up()
    table.set_status(1, connected=False, stand_in=True, grace=0)
    driver.run()
    assert table.phase is Phase.OVER
    first = table.blind_history[0]
    assert first.void is not None
    assert (first.void.reason, first.void.offender) == ("absent", 1)
    assert first.seeds is not None
    assert first.seeds[2] is None  # seat 1's party: its seed never revealed
    assert all(r.people == (0,) for r in table.blind_history[1:])
    notes = [note for seat, note in driver.verdicts if seat == 0]
    assert notes[0].startswith("void: seat 1 absent")
    assert all("verified" in note for note in notes[1:])
