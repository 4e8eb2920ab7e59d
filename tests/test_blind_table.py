"""The host's blind table without sockets: whole matches, the journal replayed, and every
person's message checked before the host relays it (protocol.md 9.5, 9.6)."""

from __future__ import annotations

import dataclasses

import msgpack
import pytest
from blind_document_verifier import verify as document_verify
from blind_driver import BlindDriver, gone_past_grace, new_blind_table
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from helpers import drive_until_waiting_on, one_wrong_share
from table_driver import KEY

from scopa_net import blind_witness
from scopa_net.blind_witness import BlindWitness
from scopa_net.bots.levels import make_player
from scopa_net.dealing import TABLE
from scopa_net.fair.blind.deck import deck_message, parse_deck
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.group import ORDER
from scopa_net.fair.blind.party import BlindParty, SignedShares
from scopa_net.fair.blind.record import BlindRound, blind_first_dealer, shares_message
from scopa_net.fair.blind.simulate import reseal_blind
from scopa_net.fair.blind.verifier import BlindRoundByRoundVerifier, verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.commitments import fingerprint, public_key_bytes, reveal_message, sign
from scopa_net.fair.errors import (
    BadSignatureError,
    BrokenChainError,
    FairnessError,
    MisroutedCardError,
    NotRevealedError,
    TranscriptFormatError,
    VoidMismatchError,
)
from scopa_net.fair.transcript import Transcript, VoidNotice
from scopa_net.plays import play_code
from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.table import Phase, TableError, token_hash
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


@pytest.mark.parametrize(
    "phase", [Phase.KEYS, Phase.SHUFFLE, Phase.OPEN, Phase.PLAY, Phase.SEEDS, Phase.BETWEEN]
)
def test_a_blind_table_rebuilt_from_its_journal_is_the_same_table(phase: Phase) -> None:
    """A host restarted at any stage of a blind round (9.7): the table rebuilt from its journal
    has the same per-seat logs, the same round in play and the same catch-up points, and the
    round goes on with the seats' own witnesses: no void, every round verified."""
    table = new_blind_table(RuleSet.of(3, 11), bots=1)
    driver = BlindDriver(table, seed=5)
    for _ in range(1500):  # into round 2, at ``phase``
        if table.round_no >= 2 and table.phase is phase:
            break
        driver.step()
    assert table.phase is phase
    entries = list(table.pending)
    again = BlindTable(1, "blind", table.rules, KEY, bots=1, bot_level=1)
    again.replay(entries)
    assert [s.log for s in again.seats] == [s.log for s in table.seats]
    assert again.phase is table.phase
    assert again.round_start == table.round_start
    # ... and plays on: the seats' witnesses carry on against the rebuilt table.
    driver.table = again
    while len(again.blind_history) < 3:
        assert driver.step()
    driver.catch_up()
    assert all(r.void is None or r.void.reason == "kings" for r in again.blind_history)
    assert len(driver.verdicts) == 3 * len(driver.people)
    assert all("verified" in note for _, note in driver.verdicts)


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
        table.blind_shuffle(0, shuffle.round_id, swapped, shuffle.proof, shuffle.sig)
    with pytest.raises(TableError, match="turn"):
        table.blind_shuffle(1, shuffle.round_id, shuffle.deck, shuffle.proof, shuffle.sig)
    table.blind_shuffle(0, shuffle.round_id, shuffle.deck, shuffle.proof, shuffle.sig)


def at_a_play() -> tuple[BlindTable, BlindDriver]:
    """A two-person blind table whose round waits on a person's play."""
    table = new_blind_table(RuleSet.of(2, 3))
    driver = BlindDriver(table, seed=3)
    while not (table.phase is Phase.PLAY and table.to_act()):
        driver.step()
    driver.catch_up()
    return table, driver


def test_the_host_refuses_a_play_whose_proof_names_another_card() -> None:
    table, driver = at_a_play()
    seat = table.to_act()[0][0]
    witness = driver.witnesses[seat]
    hand = sorted(witness.party.owned.items())
    (_, card), (other_pos, _) = hand[0], hand[1]
    _, proof = witness.play_proof(card)
    with pytest.raises(TableError) as info:  # the proof of one card, claimed for another
        table.play(seat, 1, table.seats[seat].seq, card, 0, pos=other_pos, proof=proof)
    assert info.value.code is ErrorCode.ILLEGAL_PLAY
    assert info.value.reason == "not_in_hand"  # 3.5's table, 9.5 step 7
    assert info.value.message.startswith("bad play proof (party ")
    played = [e for e in table.seats[seat].log if isinstance(e, m.Played)]
    assert played == []


def test_a_play_proof_whose_e_or_z_is_raised_by_l_is_refused_by_the_host_and_every_seat() -> None:
    """9.2: ``z + l`` proves the same play in other bytes; the host refuses it on arrival, and
    so does every other seat's party (and the verifier, tests/test_blind_from_the_document.py),
    so a relaying host cannot change a play's proof bytes."""
    table, driver = at_a_play()
    seat = table.to_act()[0][0]
    other = driver.witnesses[1 - seat].party
    assert other is not None
    play = make_player("random", 0).choose(driver.mirrors[seat].view)
    pos, proof = driver.witnesses[seat].play_proof(play.card.index)
    code = play_code(play.card.index, play.captured_mask)
    for half in (0, 1):
        scalars = [proof[:32], proof[32:]]
        raised = int.from_bytes(scalars[half], "little") + ORDER
        scalars[half] = raised.to_bytes(32, "little")
        changed = b"".join(scalars)
        with pytest.raises(TableError) as info:
            table.play(
                seat,
                1,
                table.seats[seat].seq,
                play.card.index,
                play.captured_mask,
                pos=pos,
                proof=changed,
            )
        assert info.value.code is ErrorCode.ILLEGAL_PLAY
        with pytest.raises(BlindCheckError, match="proof does not show"):
            other.check_play(seat, pos, code, changed)
    assert other.check_play(seat, pos, code, proof) == play.card.index
    table.play(
        seat, 1, table.seats[seat].seq, play.card.index, play.captured_mask, pos=pos, proof=proof
    )


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
    from scopa_net.commands.join_tables import describe_table

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

    from scopa_net.commands import join, join_tables

    monkeypatch.setattr(join_tables, "ask_host", lambda host, port, **_: ((), b"k" * 32))
    monkeypatch.setattr(join_tables, "check_host_key", lambda *a, **kw: None)
    parser = argparse.ArgumentParser()
    join.register(parser.add_subparsers())
    args = parser.parse_args(["join", "h", "--create", "--players", "4", *flags])
    choice = join_tables.table_choice(args, "h", 1, input)
    assert choice is not None
    assert choice.create is not None
    assert choice.create.blind is blind


def test_a_person_back_in_a_round_that_began_without_them_cannot_play_it() -> None:
    """9.7: the round began while seat 1's person was away, so its cards are the host's. The
    person comes back during it: the host still plays the seat, and a play from the person is
    refused with a message that says why."""
    table = new_blind_table(RuleSet.of(3, 1), bots=1)
    driver = BlindDriver(table, seed=4)
    driver.hold = {1}
    table.set_status(1, connected=False, stand_in=True, grace=0)
    for _ in range(2000):
        rnd = table.match.round if table.match else None
        if table.phase is Phase.PLAY and rnd is not None and rnd.turn == 1:
            break
        assert driver.step()
    assert table.blind_round is not None
    assert table.blind_round.people == (0,)
    table.set_status(1, connected=True, stand_in=False, grace=0)  # back, seat taken again
    assert table.host_plays(1)
    assert not table.host_plays(0)
    with pytest.raises(TableError, match="a computer plays this seat for the host this round"):
        table.play(1, 77, table.seats[1].seq, 0, 0, pos=0, proof=bytes(64))
    assert (1, "play") in table.to_act()


@pytest.mark.parametrize("phase", [Phase.KEYS, Phase.SHUFFLE, Phase.OPEN, Phase.PLAY])
def test_a_person_gone_past_grace_at_any_stage_voids_the_round_and_the_match_goes_on(
    phase: Phase,
) -> None:
    """9.7 at every stage of a round: the person whose grace ended is named in an ``absent``
    void, their seed never comes, the other person's seat accepts the void and the match
    goes on with a computer holding the seat for the host. Every transcript of the match (the
    present person's, and the host's export for every seat, also read back from its file)
    verifies: the void round passes (9.9; before the keys, as *void before the keys*) and every
    later round is replayed through the rules to the signed result."""
    table, driver = gone_past_grace(phase)
    assert table.phase is Phase.OVER
    first = table.blind_history[0]
    assert first.void is not None
    assert (first.void.reason, first.void.offender) == ("absent", 1)
    assert first.seeds is not None
    assert first.seeds[2] is None  # seat 1's party: its seed never revealed
    assert (first.dealer is None) is (phase is Phase.KEYS)
    assert all(r.people == (0,) for r in table.blind_history[1:])
    notes = [note for seat, note in driver.verdicts if seat == 0]
    assert notes[0].startswith("void: seat 1 absent")
    assert all("verified" in note for note in notes[1:])
    transcripts = [driver.witnesses[0].transcript()]  # seat 1's client read nothing more
    transcripts += [table.transcript_for(seat) for seat in range(table.rules.players)]
    for t in transcripts:
        for again in (t, decode_any(t.encode())):
            verdict = verify_any(again)
            assert verdict.ok, verdict.lines()
            assert len(verdict.rounds) == len(table.blind_history) >= 2
            void, *later = verdict.rounds
            assert void.note.startswith("void: seat 1 absent")
            assert ("before every key came" in void.note) is (phase is Phase.KEYS)
            assert all(r.note.startswith("verified (dealer seat") for r in later), verdict.lines()
            assert verdict.result_note.startswith("verified: scores")


@pytest.fixture(scope="module")
def void_before_keys() -> Transcript:
    """The host's export of a match whose round 1 was void before every key came."""
    table, _ = gone_past_grace(Phase.KEYS)
    return table.transcript_for(0)


def first_round_error(t: Transcript, *, linked: bool = True) -> FairnessError:
    """Round 1's failure; with ``linked`` (round 1's chain hash unchanged, or re-linked by
    the test), every later round still verifies."""
    verdict = verify_any(t)
    first, *later = verdict.rounds
    assert first.error is not None, verdict.lines()
    assert all(r.ok for r in later) is linked, verdict.lines()
    return first.error


def resealed(t: Transcript, **changes: object) -> Transcript:
    """Round 1 changed, and every round re-linked and re-signed by the host's own key (a
    dishonest host signing what it altered): the void's own check must catch it."""
    first = dataclasses.replace(t.rounds[0], **changes)
    return reseal_blind(dataclasses.replace(t, rounds=(first, *t.rounds[1:])), KEY)


def test_a_void_before_the_keys_naming_a_present_person_or_a_computer_is_refused(
    void_before_keys: Transcript,
) -> None:
    """The seat named absent must be a person's whose seed alone never came (9.9)."""
    t = void_before_keys
    assert verify_any(resealed(t)).ok  # re-signing alone changes nothing
    present = resealed(t, void=VoidNotice("absent", 0))  # seat 0 revealed its seed
    error = first_round_error(present)
    assert isinstance(error, NotRevealedError)
    assert "parties [2] missing" in str(error)
    computer = resealed(t, void=VoidNotice("absent", 2))  # seat 2 is the host's computer
    assert isinstance(first_round_error(computer), VoidMismatchError)
    kings = resealed(t, void=VoidNotice("kings", None))
    assert "kings void before anything was dealt" in str(first_round_error(kings))
    # A seat that stopped sent its seed: the void may not leave it out (9.9).
    stopped = resealed(t, void=VoidNotice("failed_check", 1))
    error = first_round_error(stopped)
    assert isinstance(error, NotRevealedError)
    assert "failed check" in str(error)
    # Another person's seed nil: absent at the reveal (9.7); nothing was encrypted under any
    # person's key yet, so the stop is judged all the same.
    stopped = resealed(t, void=VoidNotice("failed_check", 0))
    note = verify_any(stopped).rounds[0].note
    assert note == (
        "void: seat 0 (party 1) stopped without cause before every key came; seat 1 absent at "
        "the reveal (its seed never came); nothing dealt"
    )
    seeds = t.rounds[0].seeds
    assert seeds is not None
    every_seed = resealed(t, void=VoidNotice("failed_check", 0), seeds=(*seeds[:2], bytes(32)))
    # Nothing wrong in the record: the round passes, naming the seat that stopped (9.9).
    note = verify_any(every_seed).rounds[0].note
    assert (
        note == "void: seat 0 (party 1) stopped without cause before every key came; nothing dealt"
    )
    assert isinstance(first_round_error(resealed(t, seeds=None)), NotRevealedError)


def test_a_void_before_the_keys_without_the_hosts_signature_is_refused(
    void_before_keys: Transcript,
) -> None:
    t = void_before_keys
    first = t.rounds[0]
    unsigned = dataclasses.replace(first, reveal_sig=None)
    error = first_round_error(dataclasses.replace(t, rounds=(unsigned, *t.rounds[1:])))
    assert isinstance(error, NotRevealedError)
    other = Ed25519PrivateKey.from_private_bytes(bytes(32))
    assert first.seeds is not None
    assert first.seeds[0] is not None
    forged = sign(other, reveal_message(first.round_id, first.seeds[0], first.chain_hash()))
    wrong_key = dataclasses.replace(first, reveal_sig=forged)
    error = first_round_error(dataclasses.replace(t, rounds=(wrong_key, *t.rounds[1:])))
    assert isinstance(error, BadSignatureError)


def test_a_tampered_void_before_the_keys_is_refused(void_before_keys: Transcript) -> None:
    t = void_before_keys
    first = t.rounds[0]
    assert first.seeds is not None
    # Not re-signed: the host's reveal signature covers every seed.
    seeds = (first.seeds[0], bytes(32), None)
    changed = dataclasses.replace(first, seeds=seeds)
    tampered = dataclasses.replace(t, rounds=(changed, *t.rounds[1:]))
    assert isinstance(first_round_error(tampered, linked=False), BadSignatureError)
    # Re-signed: the host's seed must give the key it committed.
    error = first_round_error(resealed(t, seeds=(bytes(32), *first.seeds[1:])))
    assert isinstance(error, BlindCheckError)
    assert (error.check, error.party) == ("wrong secret", 0)
    # Re-signed: nothing may be recorded past the keys.
    assert isinstance(first_round_error(resealed(t, score=(0, 0, 0))), BrokenChainError)
    # Every byte of round 1 in the file, flipped: unreadable, or round 1 refused.
    data = t.encode()
    record = msgpack.packb(first.to_wire(), use_bin_type=True)
    start = data.index(record)
    for offset in range(start, start + len(record)):
        flipped = bytearray(data)
        flipped[offset] ^= 0x01
        try:
            again = decode_any(bytes(flipped))
        except TranscriptFormatError:
            continue
        checker = BlindRoundByRoundVerifier(again.rules, again.host_key, again.seat)
        assert not checker.add(again.rounds[0]).ok, offset


def test_scopa_net_verify_reads_a_void_before_the_keys_as_a_passing_round(
    void_before_keys: Transcript, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a person reads: round 1 void naming the seat, every later round verified."""
    from scopa_net.commands.main import main as cli_main

    path = tmp_path / "void-before-keys.scopa"
    path.write_bytes(void_before_keys.encode())
    pin = fingerprint(public_key_bytes(KEY))
    assert cli_main(["verify", "--pin", pin, str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "round 1: void: seat 1 absent before every key came; nothing dealt" in lines
    assert any(line.startswith("round 2: verified (dealer seat") for line in lines), out
    assert "FAILED" not in out
    assert "not revealed" not in out


def seat_0_reads(
    table: BlindTable, seeds: dict[bytes, bytes], events: list[m.Message]
) -> BlindWitness:
    """Seat 0's witness after reading ``events``, its party's seeds looked up in ``seeds``."""
    witness = BlindWitness(
        table.rules, public_key_bytes(KEY), 0, new_seed=bytes, seed_for=seeds.get
    )
    for event in events:
        witness.observe(event)
    return witness


def test_the_first_deal_after_a_void_before_the_keys_draws_the_first_dealer() -> None:
    """9.5.5: round 1 void before the keys draws no dealer; round 2, the match's first deal,
    draws it from its own keys. Seat 0's whole log read again by a fresh witness (with the
    seeds seat 0 used) verifies; the same log with round 2's dealer changed is refused."""
    table, _ = gone_past_grace(Phase.KEYS)
    history = table.blind_history
    assert history[0].dealer is None
    assert history[1].dealer == blind_first_dealer(
        history[1].round_id, history[1].keys, table.rules.players
    )
    seeds = {r.round_id: r.seeds[1] for r in history if r.seeds is not None}
    log = table.seats[0].log
    assert table.seats[0].base == 0

    assert [v.note.split(";")[0] for v in seat_0_reads(table, seeds, log).verdicts][:2] == [
        "void: seat 1 absent before every key came",
        f"verified (dealer seat {history[1].dealer}, 36 plays, round score "
        + "-".join(map(str, history[1].score or ()))
        + ")",
    ]
    keys_at = next(
        i
        for i, e in enumerate(log)
        if isinstance(e, m.BlindKeys) and e.round_id == history[1].round_id
    )
    other = (history[1].dealer + 1) % table.rules.players
    lied = [*log[:keys_at], dataclasses.replace(log[keys_at], dealer=other)]
    with pytest.raises(BrokenChainError, match="round 2 is the match's first deal"):
        seat_0_reads(table, seeds, lied)


def test_a_later_rounds_dealer_is_checked_when_blind_keys_names_it() -> None:
    """9.5.3: after the match's first deal, the dealer ``blind_keys`` names must be 5.6's
    rotation of the rounds before; a seat refuses another on arrival (*misrouted card*, as
    an ordinary seat's deal plan refuses a deal from another dealer, naming the dealer),
    before it reads a deal with the wrong plan."""
    table = new_blind_table(RuleSet.of(2, 4))
    driver = BlindDriver(table, seed=4)
    driver.run()
    history = table.blind_history
    assert len(history) >= 2
    assert history[0].void is None  # played out: the next seat deals
    assert history[0].dealer is not None
    assert history[1].dealer == (history[0].dealer + 1) % table.rules.players
    log = table.seats[0].log
    assert table.seats[0].base == 0
    keys_at = next(
        i
        for i, e in enumerate(log)
        if isinstance(e, m.BlindKeys) and e.round_id == history[1].round_id
    )
    seeds = {r.round_id: r.seeds[1] for r in history if r.seeds is not None}

    assert (
        len(seat_0_reads(table, seeds, log[: keys_at + 1]).verdicts) == 1
    )  # the honest log reads on
    same = history[0].dealer  # the same dealer again, as after a void
    lied = [*log[:keys_at], dataclasses.replace(log[keys_at], dealer=same)]
    with pytest.raises(MisroutedCardError, match=rf"round 2's dealer is seat {same}, but seat"):
        seat_0_reads(table, seeds, lied)


@pytest.mark.parametrize("phase", [Phase.SHUFFLE, Phase.OPEN, Phase.PLAY])
def test_the_absent_person_reading_their_seat_log_again_accepts_their_own_void(
    phase: Phase,
) -> None:
    """The person named in an ``absent`` void comes back (a new client, the same seeds from
    disk) and reads their seat's log from the start: their own seed was withheld on purpose
    (9.7), so the reveal without it is not a seed "relayed altered", and the deck they made
    but the host never relayed is not part of the round. The rounds a computer played in their
    seat are checked from what every party relayed (an observer, 9.5), and the saved transcript
    verifies to the signed end."""
    table, driver = gone_past_grace(phase)
    gone = driver.witnesses[1]
    assert gone.party is not None
    seeds = {gone.party.round_id: gone.party.secrets.seed}
    witness = BlindWitness(
        table.rules, public_key_bytes(KEY), 1, new_seed=bytes, seed_for=seeds.get
    )
    assert table.seats[1].base == 0
    for event in table.seats[1].log:
        witness.observe(event)
    void, *later = [v.note for v in witness.verdicts]
    assert void.startswith("void: seat 1 absent")
    # The rounds after it, played by a computer for the host, are checked all the same.
    assert len(later) == len(table.blind_history) - 1 >= 1
    assert all(note.startswith("verified (dealer seat") for note in later), later
    assert witness.result == driver.witnesses[0].result
    verdict = verify_any(witness.transcript())
    assert verdict.ok, verdict.lines()
    assert verdict.result_note.startswith("verified: scores")
    # 9.8: its seed is in no record, so the void round holds no hand of theirs, and a
    # verifier written from the document alone accepts the file too.
    assert witness.transcript().rounds[0].hand == ()
    outsider = document_verify(witness.transcript().encode())
    assert outsider.rounds[0].ok, outsider.rounds[0]


def test_the_absent_person_back_before_the_keys_accepts_their_own_void() -> None:
    """As above, for a person gone before sending their key: the void before the keys names
    them, the reveal carries no seed of theirs, and their client reads it without alarm."""
    table, driver = gone_past_grace(Phase.KEYS)
    gone = driver.witnesses[1]
    assert gone.party is not None
    seeds = {gone.party.round_id: gone.party.secrets.seed}
    witness = BlindWitness(
        table.rules, public_key_bytes(KEY), 1, new_seed=bytes, seed_for=seeds.get
    )
    for event in table.seats[1].log:
        witness.observe(event)
    void, *later = [v.note for v in witness.verdicts]
    assert void.startswith("void: seat 1 absent before every key came")
    assert all(note.startswith("verified (dealer seat") for note in later), later
    verdict = verify_any(witness.transcript())
    assert verdict.ok, verdict.lines()
    assert len(verdict.rounds) == len(table.blind_history)


@pytest.mark.parametrize("phase", [Phase.KEYS, Phase.SHUFFLE])
def test_a_seat_voided_absent_at_the_deadline_is_not_waited_for_and_its_late_seed_refused(
    phase: Phase,
) -> None:
    """9.7: the host does not wait for the absent person's seed, and a seed that comes late
    anyway (a person slow past the deadline, still connected) is refused: the record of an
    ``absent`` void has exactly that party's seed missing, and every seat verifies it."""
    table = new_blind_table(RuleSet.of(3, 1), bots=1)
    driver = BlindDriver(table, seed=4)
    drive_until_waiting_on(driver, phase, 1)
    driver.hold = {1}  # seat 1's client is slow: nothing of it reaches the host for now
    driver.witnesses[1].take_outgoing()
    driver.deliver()
    driver.catch_up()
    assert table.phase is phase
    assert [seat for seat, _ in table.to_act()] == [1]
    table.close_seeds()  # the deadline: the round is void, naming the seat awaited
    void = table.blind_round.party.void_notice
    assert void is not None
    assert (void.reason, void.offender) == ("absent", 1)
    assert table.phase is Phase.SEEDS
    assert table.to_act() == [(0, "reveal")]  # seat 1 is not waited for
    driver.hold = set()  # seat 1's messages come in now, its seed among them
    driver.catch_up()
    driver.witnesses[1].take_outgoing()
    assert driver.witnesses[1].current is not None
    seed = driver.witnesses[1].current.party.secrets.seed
    with pytest.raises(TableError, match="absent"):
        table.blind_reveal(1, void_round := table.blind_round.party.round_id, seed)
    driver.run()
    first = table.blind_history[0]
    assert first.round_id == void_round
    assert first.seeds is not None
    assert first.seeds[2] is None
    for t in (driver.witnesses[0].transcript(), table.transcript_for(0)):
        verdict = verify_any(t)
        assert verdict.ok, verdict.lines()
        assert verdict.rounds[0].note.startswith("void: seat 1 absent")


def to_play(driver: BlindDriver) -> None:
    table = driver.table
    for _ in range(300):
        driver.catch_up()
        if table.phase is Phase.PLAY:
            return
        driver.step()
    raise AssertionError("the round never reached its plays")


def test_a_seat_that_stops_mid_round_voids_it_failed_check_and_the_match_goes_on() -> None:
    """9.6: seat 1 stops (a check it imagined failing) and sends its seed; the host voids the
    round ``failed_check`` naming seat 1, the other person reveals, every part checks out, so
    the round passes naming seat 1 and a computer plays seat 1 from the next round. A host
    rebuilt from its journal just after the stop is the same table."""
    table = new_blind_table(RuleSet.of(3, 3), bots=1)
    driver = BlindDriver(table, seed=4, stop_on_failure=True)
    to_play(driver)
    witness = driver.witnesses[1]
    driver.stopped[1] = FairnessError("imagined")
    (reveal,) = witness.stop()
    assert isinstance(reveal, m.BlindReveal)
    table.blind_reveal(1, reveal.round_id, reveal.seed)
    assert table.phase is Phase.SEEDS
    voids = [e for e in table.seats[0].log if isinstance(e, m.RoundVoid)]
    assert [(v.reason, v.offender) for v in voids] == [("failed_check", 1)]
    again = BlindTable(1, "blind", table.rules, KEY, bots=1, bot_level=1)
    again.replay(list(table.pending))
    assert [s.log for s in again.seats] == [s.log for s in table.seats]
    assert (again.phase, again.sitting_out) == (table.phase, {1})
    with pytest.raises(TableError):  # a second seed from the seat is refused
        table.blind_reveal(1, reveal.round_id, reveal.seed)
    driver.run()
    assert table.phase is Phase.OVER
    first, *later = table.blind_history
    assert first.void == VoidNotice("failed_check", 1)
    assert later
    assert all(r.people == (0,) for r in later)
    notes = [note for seat, note in driver.verdicts if seat == 0]
    assert notes[0].startswith("void: seat 1 (party 2) stopped without cause")
    assert all(note.startswith("verified") for note in notes[1:]), notes
    # The stopped seat read the round's reveal: nothing named, and its record is the round.
    assert witness.named is None
    assert witness.rounds[0].chain_hash() == first.chain_hash()
    for seat in (0, 1):
        verdict = verify_any(table.transcript_for(seat))
        assert verdict.ok, verdict.lines()
        assert "stopped without cause" in verdict.rounds[0].note


def until_the_first_round_is_over(driver: BlindDriver) -> None:
    """Step the driver until the table's first blind round is over, and let every seat read."""
    for _ in range(300):
        if driver.table.blind_history:
            break
        driver.step()
    driver.catch_up()


def test_a_card_the_hosts_own_party_cannot_open_voids_the_round_naming_no_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """9.6: party 2 (seat 1's client) signs a wrong share for a table card, which opens to
    no card point at the host too: it relays the deal, voids
    the round ``failed_check`` with no offender, every seat (each stopping at that card)
    gives its seed, and the reveal names party 2, whose share was wrong."""
    monkeypatch.setattr(blind_witness, "BlindParty", one_wrong_share(2, TABLE))
    table = new_blind_table(RuleSet.of(3, 3), bots=1)
    driver = BlindDriver(table, seed=4, stop_on_failure=True)
    until_the_first_round_is_over(driver)
    (first,) = table.blind_history
    assert first.void == VoidNotice("failed_check", None)
    assert sorted(driver.stopped) == [0, 1]
    for seat in (0, 1):
        named = driver.witnesses[seat].named
        assert isinstance(named, BlindCheckError)
        assert (named.check, named.party) == ("bad share", 2)
        error = verify_any(driver.witnesses[seat].transcript()).rounds[0].error
        assert isinstance(error, BlindCheckError)
        assert (error.check, error.party) == ("bad share", 2)
    # The next round waits a pause, without the party proven at fault (seat 1): a client
    # that cheats every round made the host void and journal 15 rounds a second (audit).
    assert table.blind_round is not None
    assert 1 not in table.blind_round.people
    before_next = BlindTable(1, "blind", table.rules, KEY, bots=1, bot_level=1)
    before_next.replay(list(table.pending)[:-1])  # up to the next round's entry
    assert before_next.phase is Phase.BETWEEN
    assert before_next.pause_before_round == 2.0


def test_a_blind_table_every_person_has_left_waits_for_one_and_deals_when_one_comes() -> None:
    """The last person to leave a blind table crashed the host's table task (a round dealt by
    no person's party: `BlindRound: people: 0 items`), in the player's own terminal under
    `play --lan`, and again at every start of the host from its journal."""
    table = new_blind_table(RuleSet.of(2))
    driver = BlindDriver(table, seed=5)
    while table.round_no < 1 or table.phase is not Phase.BETWEEN:
        assert driver.step()
    table.leave(0)
    table.leave(1)
    assert not table.needs_round
    assert driver.step() is False  # nothing to do: no round is dealt without a person
    assert table.round_no == 1
    table.join(1, "back", token_hash(b"back" * 4))
    assert table.needs_round
    table.start_round(bytes(range(16)), bytes(32))
    assert table.blind_round is not None
    assert table.blind_round.people == (1,)


def seat_1_reads_its_match_again() -> tuple[BlindTable, BlindRound, BlindWitness]:
    """A 2-player blind match to 1, played out; its first round; and a new client's witness
    for seat 1 holding the seeds seat 1's client chose (as a seat taken back from disk)."""
    table = new_blind_table(RuleSet.of(2, 1))
    driver = BlindDriver(table, seed=3)
    seeds: dict[bytes, bytes] = {}
    driver.witnesses[1].on_seed = seeds.__setitem__
    driver.run()
    witness = BlindWitness(
        table.rules, public_key_bytes(KEY), 1, new_seed=bytes, seed_for=seeds.get
    )
    return table, table.blind_history[0], witness


def test_own_seed_relayed_altered_stops_the_seat_with_the_round_kept() -> None:
    """A seat's own seed relayed as another value is a *wrong secret* ("relayed altered"; nil
    is not: 9.7 counts the person absent at the reveal); the seat then reads the round's
    reveal, whose signature is over the seeds the host relayed (the witness keeps them:
    before, it checked the signature without them and reported a bad signature), and its
    evidence holds the round and names it (before: "round 0", and no round)."""
    table, first, witness = seat_1_reads_its_match_again()
    events = iter(table.seats[1].log)
    for event in events:
        if isinstance(event, m.BlindReveals):
            assert event.round_id == first.round_id
            withheld = dataclasses.replace(event, seeds=(*event.seeds[:2], bytes(32)))
            with pytest.raises(BlindCheckError, match="relayed altered") as failed:
                witness.observe(withheld)
            break
        witness.observe(event)
    assert witness.stop(withheld) == []  # its seed went at the round's end already
    # The host signs the record it relayed, the seed left out.
    chain = dataclasses.replace(first, seeds=withheld.seeds).chain_hash()
    assert first.seeds is not None
    assert first.seeds[0] is not None
    sig = sign(KEY, reveal_message(first.round_id, first.seeds[0], chain))
    while witness.awaits_reveal:
        event = next(events)
        if isinstance(event, m.RoundReveal):
            event = dataclasses.replace(event, sig=sig)
        witness.observe_stopped(event)
    assert isinstance(witness.named, BlindCheckError), witness.named
    assert (witness.named.check, witness.named.party) == ("wrong secret", 2)
    evidence = witness.evidence(failed.value)
    assert evidence.stopped is not None
    assert evidence.stopped.round_no == 1
    assert [r.round_id for r in evidence.rounds] == [first.round_id]
    assert evidence.rounds[0].seeds == withheld.seeds


def test_own_seed_relayed_nil_in_a_round_played_out_counts_the_seat_absent_at_the_reveal() -> None:
    """9.7: at any round's end the host relays nil for a person whose seed did not come in
    time (gone past their grace period, or too slow); the seat's own client, reading its seed
    nil, accepts it and tells its person they are counted absent; the round (played out)
    stands with its score."""
    table, first, witness = seat_1_reads_its_match_again()
    assert first.seeds is not None
    assert first.seeds[0] is not None
    withheld = (*first.seeds[:2], None)
    sig = sign(
        KEY,
        reveal_message(
            first.round_id,
            first.seeds[0],
            dataclasses.replace(first, seeds=withheld).chain_hash(),
        ),
    )
    verdict = None
    for event in table.seats[1].log:
        if isinstance(event, m.BlindReveals) and event.round_id == first.round_id:
            event = dataclasses.replace(event, seeds=withheld)
        elif isinstance(event, m.RoundReveal) and event.round_id == first.round_id:
            event = dataclasses.replace(event, sig=sig)
        found, _ = witness.observe(event)
        if found is not None:
            verdict = found
            break
    assert verdict is not None
    assert verdict.ok, verdict.text()
    assert verdict.note.endswith("seat 1 absent at the reveal (its seed never came)")
    assert witness.rounds[0].hand == ()
    assert witness.rounds[0].score == first.score
    notices = witness.take_notices()
    assert any("you are counted absent at its reveal" in n for n in notices), notices


def test_a_seed_that_does_not_give_the_published_key_is_refused_not_relayed() -> None:
    """9.5 step 8: the host checks a person's seed against the key that party published
    before relaying it. It used to relay any 32 bytes, and every other person's client then
    stopped on a *wrong secret*: one wrong seed put every honest person out of the match.
    Refused, the right seed still goes through and the match verifies."""
    table = new_blind_table(RuleSet.of(3, 1))
    driver = BlindDriver(table, seed=5)
    refused: list[TableError] = []
    send = driver.send

    def a_wrong_seed_first(seat: int, msg: m.Message) -> None:
        if isinstance(msg, m.BlindReveal) and not refused:
            with pytest.raises(TableError) as wrong:
                table.blind_reveal(seat, msg.round_id, bytes(range(32)))
            refused.append(wrong.value)
        send(seat, msg)

    driver.send = a_wrong_seed_first  # type: ignore[method-assign]
    driver.run()
    assert [(e.code, e.message) for e in refused] == [
        (ErrorCode.BAD_FIELD, "the seed does not give the key this party published")
    ]
    assert table.phase is Phase.OVER
    assert driver.verdicts
    assert all(note.startswith("verified") for _, note in driver.verdicts), driver.verdicts


IDENTITY = (1).to_bytes(32, "little")
"""The encoding of the group's neutral element (x = 0, y = 1): a point, but of order 1."""


def _resigned_shuffle(witness: BlindWitness, msg: m.BlindShuffle, pos: int, item: bytes):
    """``msg`` with deck position ``pos`` replaced by ``item``, signed again by the party."""
    party = witness.party
    assert party is not None
    deck = (*msg.deck[:pos], item, *msg.deck[pos + 1 :])
    message = deck_message(msg.round_id, party.party, parse_deck(deck), msg.proof)
    return deck, party.secrets.sign(message)


@pytest.mark.parametrize(
    "item", [bytes(range(64)), IDENTITY * 2, IDENTITY + bytes(32)], ids=["noise", "identity", "u1"]
)
def test_a_signed_deck_holding_a_non_point_is_refused_as_a_bad_field(item: bytes) -> None:
    """9.5 step 2: a deck that is not 40 valid pairs of points ends the connection with
    bye bad_field. It was taken (its signature verifies) and the host's party failed later
    multiplying it (``GroupError`` in open_deal): the table task stopped for everyone."""
    table, driver = started()
    while table.phase is Phase.KEYS:
        driver.deliver()
        driver.catch_up()
    (shuffle,) = driver.witnesses[0].take_outgoing()
    deck, sig = _resigned_shuffle(driver.witnesses[0], shuffle, 7, item)
    with pytest.raises(TableError) as info:
        table.blind_shuffle(0, shuffle.round_id, deck, shuffle.proof, sig)
    assert info.value.code is ErrorCode.BAD_FIELD
    assert info.value.message == "deck position 7 is not a pair of points"
    assert len(table.blind_round.party.decks) == 1  # nothing relayed; the honest one still goes
    table.blind_shuffle(0, shuffle.round_id, shuffle.deck, shuffle.proof, shuffle.sig)


def test_a_signed_share_that_is_not_a_point_voids_the_round_and_never_stops_the_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """9.6: party 2 signs 32 bytes that encode no point as its share of a table card. The
    host's party cannot open that card: the host relays the deal and voids the round
    ``failed_check`` naming no seat, like any wrong share; the reveal names party 2 and the
    table goes on to its next round (an auditor's check that no such share stops the host)."""

    class NotAPoint(BlindParty):
        def open_deal(self, k: int) -> SignedShares:
            honest = super().open_deal(k)
            if self.party != 2 or k != 1:
                return honest
            shares = (b"\xff" * 32, *honest.shares[1:])
            self._sent[k] = shares
            sig = self.secrets.sign(shares_message(self.round_id, 2, k, shares))
            return SignedShares(shares, sig)

    monkeypatch.setattr(blind_witness, "BlindParty", NotAPoint)
    table = new_blind_table(RuleSet.of(3, 3), bots=1)
    driver = BlindDriver(table, seed=4, stop_on_failure=True)
    until_the_first_round_is_over(driver)
    assert table.blind_history[0].void == VoidNotice("failed_check", None)
    for seat in (0, 1):
        named = driver.witnesses[seat].named
        assert isinstance(named, BlindCheckError)
        assert (named.check, named.party) == ("bad share", 2)
    assert table.phase in (Phase.BETWEEN, Phase.KEYS)


def test_a_connected_person_silent_past_a_deadline_sits_out_until_they_resume() -> None:
    """9.7: a person still connected who sends no key before the deadline voids the round
    ``absent``, and then sits out (a computer plays the seat) until they resume it. Found by
    an outside audit: the host dealt the same people again, and a silent client voided every
    round of the match, 30 seconds at a time, for ever."""
    table = new_blind_table(RuleSet.of(3, 11), bots=1)
    driver = BlindDriver(table, seed=4)
    drive_until_waiting_on(driver, Phase.KEYS, 1)
    driver.hold = {1}  # seat 1's client is connected but sends nothing
    driver.witnesses[1].take_outgoing()
    driver.deliver()
    driver.catch_up()
    assert [seat for seat, _ in table.to_act()] == [1]
    table.close_seeds()
    assert table.seats[1].connected
    assert table.sitting_out == {1}
    again = BlindTable(1, "blind", table.rules, KEY, bots=1, bot_level=1)
    again.replay(list(table.pending))
    assert again.sitting_out == {1}
    driver.hold = set()
    while table.round_no < 2:
        assert driver.step()
    assert table.blind_round is not None
    assert table.blind_round.people == (0,)  # seat 1 sits this round out
    table.resume(1, token_hash(bytes([9]) * 16))  # back: from the next round it plays
    while table.round_no < 3 and driver.step():
        pass
    assert table.round_no == 3, "the match ended before a third round"
    assert table.blind_round.people == (0, 1)
    driver.run()
    verdict = verify_any(table.transcript_for(0))
    assert verdict.ok, verdict.lines()
