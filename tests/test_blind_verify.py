"""``scopa-net verify`` on blind transcripts (version 4, and 3): whole matches verify, every kind of
tampering is refused with the check that catches it, and two seats shown different tables
are reported."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from helpers import SwappedSharesParty, one_blind_round

from scopa_net.cards import CARDS
from scopa_net.client.files import names_beside
from scopa_net.commands.verify_files import verify_files
from scopa_net.fair.blind.cards import card_of
from scopa_net.fair.blind.deck import deck_message
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.group import sub
from scopa_net.fair.blind.party_secrets import PartySecrets
from scopa_net.fair.blind.plan import owner
from scopa_net.fair.blind.record import (
    BlindPlay,
    BlindRound,
    blind_first_dealer,
)
from scopa_net.fair.blind.simulate import BlindTable, reseal_blind, simulate_blind_match
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.errors import TranscriptFormatError
from scopa_net.fair.plain_words import what_failed
from scopa_net.fair.transcript import Transcript, decode
from scopa_net.rules import RuleSet


@pytest.fixture(scope="module")
def match():
    """A whole blind match to 1 point between two people and the host."""
    return simulate_blind_match(RuleSet.of(2, 1), 5)


@pytest.fixture(scope="module")
def bots_match():
    """Two rounds at a 4-player table: seats 0 and 2 people, 1 and 3 computer players."""
    return simulate_blind_match(RuleSet.of(4), 8, people=(0, 2), max_rounds=2)


def test_a_blind_match_verifies_for_every_seat(match) -> None:
    assert match.match.over
    for t in match.transcripts:
        assert t.blind
        data = t.encode()
        assert decode_any(data) == t
        verdict = verify_any(t)
        assert verdict.ok, verdict.lines()
        assert all(r.note.endswith("blind: seat 0, seat 1 and the host") for r in verdict.rounds)


def test_a_version_2_reader_refuses_a_blind_file_by_name(match) -> None:
    with pytest.raises(TranscriptFormatError, match="expected version 2"):
        decode(match.transcripts[0].encode())


def test_computer_players_seats_are_owned_by_the_host(bots_match) -> None:
    for t in bots_match.transcripts:
        assert [r.people for r in t.rounds] == [(0, 2), (0, 2)]
        verdict = verify_any(t)
        assert all(r.ok for r in verdict.rounds), verdict.lines()
        assert not verdict.finished


def altered(t: Transcript, key, **changes) -> Transcript:
    first = dataclasses.replace(t.rounds[0], **changes)
    return reseal_blind(dataclasses.replace(t, rounds=(first, *t.rounds[1:])), key)


def first_failure(t: Transcript) -> str:
    verdict = verify_any(t)
    assert not verdict.ok
    return verdict.failures[0].args[0]


def test_tampered_blind_transcripts_are_refused_naming_the_fault(match) -> None:
    t, key = match.transcripts[0], match.host_private_key
    r: BlindRound = t.rounds[0]
    play = r.plays[0]
    other = next(c for c in range(40) if c != play.code & 63)
    lie = BlindPlay(play.seat, other, play.pos, play.proof)
    assert first_failure(altered(t, key, plays=(lie, *r.plays[1:]))).startswith("bad play proof")
    decks = list(r.decks)
    decks[1] = (decks[1][1], decks[1][0], *decks[1][2:])
    assert "bad party signature (party 1)" in first_failure(altered(t, key, decks=tuple(decks)))
    seeds = (r.seeds[0], bytes(32), *r.seeds[2:])
    assert "wrong secret (party 1)" in first_failure(altered(t, key, seeds=seeds))
    table = (dataclasses.replace(r.table[0], card=(r.table[0].card + 1) % 40), *r.table[1:])
    assert first_failure(altered(t, key, table=table)).startswith("no card")
    assert "score" in first_failure(altered(t, key, score=(9, 9)))
    # Not resealed: the host's commit signature catches a changed host key.
    keys = (r.keys[1], *r.keys[1:])
    unsigned = dataclasses.replace(t, rounds=(dataclasses.replace(r, keys=keys), *t.rounds[1:]))
    assert "signature on round 1's commitment" in first_failure(unsigned)


def test_a_deck_more_than_the_parties_is_a_bad_deck_in_one_line(match, tmp_path: Path) -> None:
    """protocol.md 9.9 step 3: at most one deck per party. A record holding a fourth deck for
    three parties (the last one again, signed and proved) made `scopa-net verify` print a
    Python traceback (IndexError); it is a *bad deck*, naming no party, in one line."""
    t, key = match.transcripts[0], match.host_private_key
    r: BlindRound = t.rounds[0]
    extra = altered(
        t,
        key,
        decks=(*r.decks, r.decks[-1]),
        deck_sigs=(*r.deck_sigs, r.deck_sigs[-1]),
        deck_proofs=(*r.deck_proofs, r.deck_proofs[-1]),
    )
    assert first_failure(extra) == "bad deck: 4 decks recorded for 3 parties"
    path = tmp_path / "t.msgpack"
    path.write_bytes(extra.encode())
    lines: list[str] = []
    assert verify_files([path], lines.append) == 1
    (failed,) = [line for line in lines if "bad deck" in line]
    assert failed.strip() == "round 1: FAILED: bad deck: 4 decks recorded for 3 parties", lines


def test_a_changed_byte_is_refused(match, tmp_path: Path) -> None:
    data = bytearray(match.transcripts[0].encode())
    data[len(data) // 2] ^= 1
    path = tmp_path / "t.msgpack"
    path.write_bytes(bytes(data))
    lines: list[str] = []
    assert verify_files([path], lines.append) == 1
    assert lines[-1] == "NOT VERIFIED" or "invalid transcript" in lines[-1]


def test_the_command_verifies_blind_files_and_reports_two_tables(match, tmp_path: Path) -> None:
    a, b = (tmp_path / f"seat{s}.msgpack" for s in (0, 1))
    a.write_bytes(match.transcripts[0].encode())
    b.write_bytes(match.transcripts[1].encode())
    pin = fingerprint(match.transcripts[0].host_key)
    lines: list[str] = []
    assert verify_files([a, b], lines.append, pins={pin.replace("-", "")}) == 0, lines
    assert lines.count("VERIFIED") == 2
    assert not any("EQUIVOCATED" in line for line in lines)
    # The host shows seat 1 a round 1 without its first play, and signs that record too.
    t1 = match.transcripts[1]
    r = t1.rounds[0]
    t1 = altered(t1, match.host_private_key, score=r.score)  # same record, re-signed
    assert t1.rounds[0].chain_hash() == match.transcripts[0].rounds[0].chain_hash()
    other = dataclasses.replace(r, plays=r.plays[:1] + r.plays[2:])
    split = reseal_blind(
        dataclasses.replace(t1, rounds=(other, *t1.rounds[1:])), match.host_private_key
    )
    b.write_bytes(split.encode())
    lines = []
    assert verify_files([a, b], lines.append, pins={pin.replace("-", "")}) == 1
    assert any(line.startswith("HOST EQUIVOCATED: round ") for line in lines), lines


def test_a_seat_that_stops_without_cause_is_named() -> None:
    table, key = one_blind_round(1)
    table.stop(1)
    table.reveal()
    verdict = verify_any(table.transcript(key, 0))
    assert verdict.rounds[0].ok  # 9.9 step 8: a void naming the seat, counted like absent
    assert verdict.rounds[0].note.startswith("void: seat 1 (party 2) stopped without cause")


def test_a_stop_for_a_wrong_share_names_the_sharer() -> None:
    rng = random.Random(2)
    key = Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    table = BlindTable(RuleSet.of(2), rng, (0, 1), make={0: SwappedSharesParty})
    table.keys_and_shuffle(blind_first_dealer(table.round_id, [p.key for p in table.parties], 2))
    signed = [p.open_deal(1) for p in table.parties]
    found = []
    for p in table.parties:  # each seat reading a swapped position finds no card there
        try:
            p.take_deal(1, [s.shares for s in signed], [s.sig for s in signed])
        except BlindCheckError as exc:
            found.append((p.party, exc.check))
    assert found == [(1, "no card"), (2, "no card")]  # the host reads only the table
    # The seat that stopped reveals first; the round is void and every seed comes out.
    table.stop(0)
    with pytest.raises(BlindCheckError, match=r"bad share \(party 0\)"):
        table.reveal()
    verdict = verify_any(table.transcript(key, 1))
    error = verdict.rounds[0].error
    assert isinstance(error, BlindCheckError)
    assert (error.check, error.party) == ("bad share", 0)


def test_an_absent_void_keeps_the_absent_cards_secret_and_verifies() -> None:
    table, key = one_blind_round(3)
    for p in table.parties:
        p.void("absent", 1)
    absent = owner(1, table.people)
    table.reveal(absent=[absent])
    t = table.transcript(key, 0)
    verdict = verify_any(t)
    assert verdict.rounds[0].ok, verdict.lines()
    assert verdict.rounds[0].note.startswith("void: seat 1 absent")
    # Even with every other seed out, the absent seat's cards open to no card.
    host = table.host
    for pos, target in host._targets_so_far(1).items():
        if target == 1:
            v = host.deck[pos].v
            point = v
            for share in host._published[pos]:
                point = sub(point, share)
            assert card_of(point) is None


def test_no_changed_byte_verifies(match) -> None:
    """Flip one byte anywhere in a blind transcript: it is refused, as unreadable or as a
    round or result that does not verify, never verified."""
    data = match.transcripts[1].encode()
    rng = random.Random(7)
    for offset in rng.sample(range(len(data)), 12):
        changed = bytearray(data)
        changed[offset] ^= 1 << rng.randrange(8)
        try:
            t = decode_any(bytes(changed))
        except TranscriptFormatError:
            continue
        assert not verify_any(t).ok, offset


def resigned_decks(r: BlindRound, decks, proofs) -> tuple[bytes, ...]:
    """Each deck signed again by its party (its round signing key from its revealed seed),
    over ``proofs`` (None: a version 3 record's signature, over the deck alone)."""
    sigs = []
    for p, deck in enumerate(decks):
        party = PartySecrets(r.seeds[p], r.round_id, p)
        sigs.append(party.sign(deck_message(r.round_id, p, deck, proofs and proofs[p])))
    return tuple(sigs)


def test_a_deck_its_party_signed_but_did_not_prove_is_named(match) -> None:
    """Party 1 swaps two ciphertexts of its own deck after proving it, and signs the result
    with the proof it had: the signature holds, the proof does not (9.9 step 3), before the
    reveal could say which card moved."""
    t, key = match.transcripts[0], match.host_private_key
    r: BlindRound = t.rounds[0]
    decks = list(r.decks)
    decks[1] = (decks[1][1], decks[1][0], *decks[1][2:])
    sigs = resigned_decks(r, decks, r.deck_proofs)
    failure = first_failure(altered(t, key, decks=tuple(decks), deck_sigs=sigs))
    assert failure.startswith("bad shuffle proof (party 1)"), failure
    # Another party's proof in its place (signed again): refused the same way.
    proofs = (r.deck_proofs[0], r.deck_proofs[0], *r.deck_proofs[2:])
    sigs = resigned_decks(r, r.decks, proofs)
    failure = first_failure(altered(t, key, deck_proofs=proofs, deck_sigs=sigs))
    assert failure.startswith("bad shuffle proof (party 1)"), failure
    assert (
        "the deck from party 1 (a player) is not a shuffle of the deck it was given"
        in what_failed(verify_any(altered(t, key, deck_proofs=proofs, deck_sigs=sigs)).failures[0])
    )


def test_a_version_3_file_from_before_shuffle_proofs_still_verifies(match, tmp_path: Path) -> None:
    """Its rounds have no ``deck_proofs`` and deck signatures over the deck alone: read,
    verified as before (by the reveal), and written back byte for byte."""
    t, key = match.transcripts[0], match.host_private_key
    rounds = []
    for r in t.rounds:
        sigs = resigned_decks(r, r.decks, None)
        rounds.append(dataclasses.replace(r, deck_proofs=None, deck_sigs=sigs))
    old = reseal_blind(dataclasses.replace(t, rounds=tuple(rounds), blind_version=3), key)
    data = old.encode()
    assert decode_any(data).encode() == data
    assert decode_any(data).blind_version == 3
    verdict = verify_any(decode_any(data))
    assert verdict.ok, verdict.lines()
    assert all("its shuffles carry no proof" in r.note for r in verdict.rounds), verdict.lines()
    path = tmp_path / "old.msgpack"
    path.write_bytes(data)
    lines: list[str] = []
    assert verify_files([path], lines.append) == 0, lines


def test_a_proof_of_the_wrong_size_is_named_by_its_size_in_one_short_line(
    match, tmp_path: Path
) -> None:
    """A deck proof one byte short: the file is refused whole (9.8), and the line says how
    many bytes it holds instead of printing all 5279 of them (some 15,000 characters)."""
    t = match.transcripts[0]
    r: BlindRound = t.rounds[0]
    proofs = (r.deck_proofs[0][:-1], *r.deck_proofs[1:])
    short = dataclasses.replace(t, rounds=(dataclasses.replace(r, deck_proofs=proofs),))
    path = tmp_path / "short.scopa"
    path.write_bytes(short.encode())
    lines: list[str] = []
    assert verify_files([path], lines.append) == 1
    reason = next(line for line in lines if "deck_proofs" in line)
    assert reason.endswith("deck_proofs[0]: expected 5280 bytes, got 5279 bytes"), reason
    assert len(reason) < 200


def test_a_bad_play_proof_names_the_person_and_the_card(bots_match, tmp_path: Path) -> None:
    """A person reads seats and names, not party numbers or card numbers: the plain-words line
    and the verdict name the seat's person, and the card is written as cards are."""
    t, key = bots_match.transcripts[0], bots_match.host_private_key
    r: BlindRound = t.rounds[0]
    assert r.people == (0, 2)
    n, play = next((n, p) for n, p in enumerate(r.plays, 1) if p.seat == 2)
    other = next(c for c in range(40) if c != play.code & 63)
    lie = BlindPlay(play.seat, other, play.pos, play.proof)
    plays = (*r.plays[: n - 1], lie, *r.plays[n:])
    path = tmp_path / "transcripts" / "t.msgpack"
    path.parent.mkdir()
    path.write_bytes(altered(t, key, plays=plays).encode())
    names_beside(path).parent.mkdir()
    names_beside(path).write_text("Ada\nbot 1\nCarla\nbot 3\n", encoding="utf-8")
    lines: list[str] = []
    assert verify_files([path], lines.append) == 1
    assert (
        "round 1: a play's proof that its card came from the player's own hand does not hold: "
        "Carla (seat 2) cheated, or the record was changed"
    ) in lines, lines
    assert (
        "  round 1: FAILED: bad play proof, by Carla (seat 2, party 2): "
        f"play {n}: Carla (seat 2)'s proof does not show {CARDS[other]} at deck position "
        f"{play.pos}"
    ) in lines, lines


def test_who_shuffled_is_said_in_seats_not_parties(bots_match) -> None:
    """A person knows seats, not parties: 'blind: seat 0, seat 2 and the host' at a 4-seat
    table with two computers, and 'seat 1 and the host' at a 2-seat table with one. Not
    'people': a seat's client may be a computer player of its own (`scopa-net bots`)."""
    verdict = verify_any(bots_match.transcripts[0])
    assert all(r.note.endswith("blind: seat 0, seat 2 and the host") for r in verdict.rounds), [
        r.note for r in verdict.rounds
    ]
    one = simulate_blind_match(RuleSet.of(2, 1), 5, people=(1,), max_rounds=1)
    notes = [r.note for r in verify_any(one.transcripts[0]).rounds]
    assert notes
    assert all(n.endswith("blind: seat 1 and the host") for n in notes), notes


def absent_void_file(tmp_path: Path) -> Path:
    """Seat 0's transcript of a 2-seat blind table whose round 1 went void with seat 1 absent,
    written under ``tmp_path`` (no names beside it yet)."""
    table, key = one_blind_round(3)
    for p in table.parties:
        p.void("absent", 1)
    table.reveal(absent=[owner(1, table.people)])
    path = tmp_path / "transcripts" / "t.msgpack"
    path.parent.mkdir()
    path.write_bytes(table.transcript(key, 0).encode())
    return path


def test_an_absent_person_whose_seat_a_computer_took_is_not_called_the_computer(
    tmp_path: Path,
) -> None:
    """Ada and Bruno at a 2-seat blind table. Bruno (seat 1) was absent and round 1 is void;
    he left, and the names saved beside
    the file give his seat's last name, a computer's. verify must not call the absent one
    'bot 1': only people are counted absent."""
    path = absent_void_file(tmp_path)
    names_beside(path).parent.mkdir()
    names_beside(path).write_text("Ada\nbot 1\n", encoding="utf-8")
    lines: list[str] = []
    verify_files([path], lines.append, me="Ada")
    void = [line for line in lines if line.startswith("round 1: void: ")]
    assert void, lines
    assert void[0].startswith("round 1: void: seat 1 (now a computer player) absent; "), void
    assert "Ada (seat 0, you)" in lines[0]


def test_an_absent_void_of_someone_who_left_for_good_says_they_left(tmp_path: Path) -> None:
    """Bruno typed leave in round 1 of a blind table, which went void, and a computer
    finished the match in his seat. Ada's screen said "Round 1 is void: Bruno left the table",
    but verify on her file said "void: Bruno (seat 1) absent", as if he were away. With the
    names saved beside the file saying so (his in round 1, a computer's after, and the
    match's "Bruno, then a computer"), it says he left the table."""
    path = absent_void_file(tmp_path)
    names_beside(path).parent.mkdir()
    names_beside(path).write_text(
        "Ada\nbot 1\nmatch\tAda\tBruno, then a computer\nround 1\tAda\tBruno\n",
        encoding="utf-8",
    )
    lines: list[str] = []
    verify_files([path], lines.append, me="Ada")
    void = [line for line in lines if line.startswith("round 1: void: ")]
    assert void, lines
    assert void[0].startswith("round 1: void: Bruno (seat 1) left the table; "), void


@pytest.mark.parametrize(
    ("plays", "words"),
    [
        (
            1,
            "the card played before the round went void is proven to be from its player's own hand",
        ),
        (
            3,
            "the 3 cards played before the round went void are proven to be from their "
            "players' own hands",
        ),
    ],
)
def test_a_void_after_plays_says_what_was_checked_in_players_words(
    tmp_path: Path, plays: int, words: str
) -> None:
    """A round void for an absent person after some plays. The note read "the 1 card played
    before it proved to come from their players' own hands (a void round scores nothing, so
    it is not replayed)": bad grammar for one card, and "not replayed" (the verifier's word)
    read in game as a contradiction of "the same dealer deals again"."""
    from scopa_net.match import Match

    rng = random.Random(5)
    key = Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    table = BlindTable(RuleSet.of(2), rng, (0, 1))
    table.keys_and_shuffle(0)
    match = Match(table.rules, 0)
    rnd = match.deal([CARDS[i] for i in table.trace_deck()])
    table.open_deal(1)
    for _ in range(plays):
        code = rnd.legal_codes()[0]
        table.play(rnd.turn, code)
        match.push_code(code)
    gone = rnd.turn
    for p in table.parties:
        p.void("absent", gone)
    table.reveal(absent=[owner(gone, table.people)])
    path = tmp_path / "t.scopa"
    path.write_bytes(table.transcript(key, 1 - gone).encode())
    lines: list[str] = []
    pin = fingerprint(key.public_key().public_bytes_raw()).replace("-", "")
    verify_files([path], lines.append, pins={pin})
    (void,) = [line for line in lines if line.startswith("round 1: void: ")] or [str(lines)]
    assert void.endswith(f"absent; {words} (a void round scores nothing)"), void
