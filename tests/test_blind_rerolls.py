"""A blind host that re-rolls a round (protocol.md 9: "no re-roll"): it opens a round again
with a new round id once it has seen cards of its deal, behind a catch-up that resets what the
seat checks. The seat's witness stops it, naming the round, whatever came between."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
import trio
from blind_driver import BlindDriver, new_blind_table
from faultproxy import FaultProxy
from helpers import blind_kings_on_the_table, seat_for_reconnection, verify_pinned
from hosting import create, start_host
from journal_copies import copy_journal, put_back
from session_watch import said_into, until
from table_driver import KEY

from scopa_net.blind_witness import BlindWitness
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import (
    DealCheckFailedError,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import SeatStore
from scopa_net.fair.blind.party_secrets import PartyKey
from scopa_net.fair.blind.record import blind_digest
from scopa_net.fair.commitments import (
    commit_message,
    end_message,
    public_key_bytes,
    rules_hash,
    sign,
)
from scopa_net.fair.errors import ComputerPartyError, RerolledRoundError, ScoreMismatchError
from scopa_net.fair.plain_words import what_failed
from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import BlindTable
from scopa_net.wire import messages as m

REROLLED = 2


def dealt_into_round_2() -> tuple[BlindDriver, m.BlindRound]:
    """Ada (seat 0) and the host's computer player at a blind table to 16, played until the
    host has relayed round 2's first deal (it has seen that deal's table and its computer's
    hand); round 2's ``blind_round`` as the host sent it."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    log = driver.table.seats[0].log
    for _ in range(5000):
        opened = [e for e in log if isinstance(e, m.BlindRound) and e.round_no == REROLLED]
        if opened and any(
            isinstance(e, m.BlindDeal) and e.round_id == opened[0].round_id for e in log
        ):
            driver.catch_up()
            return driver, opened[0]
        assert driver.step()
    raise AssertionError("round 2 was never dealt")


def opened_again(first: m.BlindRound) -> m.BlindRound:
    """``first`` opened again by its host: a new round id, the same number, link and people,
    signed with the host's key (a host that re-rolls holds it)."""
    round_id = bytes(reversed(first.round_id))
    host = PartyKey(first.key.point, first.key.proof, first.key.sign_key)
    digest = blind_digest(round_id, first.people, host)
    rules = rules_hash(RuleSet.of(2, 16))
    sig = sign(KEY, commit_message(round_id, first.round_no, first.prev, digest, rules))
    return dataclasses.replace(first, round_id=round_id, sig=sig, seq=first.seq + 100)


def test_a_round_opened_again_behind_a_snapshot_of_the_present_stops_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host deals round 2, cuts Ada off and, at her resume, sends the table as it stands
    (protocol.md 3.4: a host's choice; 9.7 says a blind host should send the round from its
    start): her client resets its checks of the round in play (``resynced``). Then the host
    opens round 2 again with a fresh round id. Before the fix the blind witness, no longer
    following the chain, took the new round 2 as the next round and played it; now it stops,
    the person reads what a re-roll lets a blind host do, and the evidence keeps the round
    thrown away, which verify reports never revealed."""
    driver, first = dealt_into_round_2()
    witness: BlindWitness = driver.witnesses[0]
    witness.resynced()  # what the client does with a snapshot past its last event
    again = opened_again(first)
    with pytest.raises(RerolledRoundError) as stopped:
        witness.observe(again)
    assert str(stopped.value) == (
        f"round {REROLLED} was opened again (round id {again.round_id.hex()}), after round "
        f"{REROLLED} had been opened: round numbers only go up"
    )
    assert what_failed(stopped.value) == (
        "the host threw away a round it had opened and opened it again with a new shuffle: a "
        "host that does this can shuffle until it likes the deal, once it has seen the "
        "players' seeds (at a blind table, the first cards it dealt)"
    )
    evidence = tmp_path / "evidence.scopa"
    evidence.write_bytes(witness.evidence(stopped.value).encode())
    status, out = verify_pinned(public_key_bytes(KEY), evidence, capsys)
    assert status == 1, out
    assert f"saved as evidence when the client stopped: round {REROLLED}, re-rolled round" in out
    assert f"round {REROLLED}: FAILED: not revealed" in out, out  # the round thrown away
    assert out.rstrip().endswith("NOT VERIFIED"), out


def test_a_round_opened_again_while_it_is_in_play_stops_the_seat_as_a_re_roll() -> None:
    """The host deals round 2 and, with no catch-up at all, opens round 2 again: the witness
    stopped it before as a broken chain ("a new round opened while the last one was still
    open"), whose words to the person say nothing of a re-roll; now it is one, naming both
    rounds and that the host had dealt cards of the one it threw away."""
    driver, first = dealt_into_round_2()
    again = opened_again(first)
    with pytest.raises(RerolledRoundError) as stopped:
        driver.witnesses[0].observe(again)
    assert str(stopped.value) == (
        f"round {REROLLED} (round id {again.round_id.hex()}) was opened while round "
        f"{REROLLED} (round id {first.round_id.hex()}) was still in play: the host threw round "
        f"{REROLLED} away after dealing its cards, without a reveal"
    )


@pytest.mark.parametrize("void", [False, True], ids=["played", "void for its kings"])
async def test_a_round_dealt_then_opened_anew_after_the_host_put_its_journal_back_stops_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, void: bool
) -> None:
    """Ada plays our real host's blind table with its computer player. Her host's journal is
    copied during round 1; round 2 is opened and dealt (the host has seen its table and its
    computer's hand); the host is stopped and started again from the copy, so her resume gets
    ``stale`` and her client follows the host's events from the start, and the host, having
    lost round 2, opens it anew with a fresh shuffle: a re-roll behind the excuse of a journal
    put back. Before the fix her client took the new round 2 (the blind witness was made
    again from nothing, knowing no round it saw) and played on; now it stops, as at an
    ordinary table. With ``void``, the first round 2 is void for its kings (planned seeds),
    revealed at once: her evidence holds the round opened again, never revealed, so verify
    says NOT VERIFIED (before, the file held round 1 alone and verify said UNFINISHED, as of
    a file saved mid-match)."""
    if void:
        plan_a_kings_void_round_2(monkeypatch)
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    said: list[str] = []
    again_key: list[bytes] = []
    rerolled: list[int] = []  # 2: one later after a deal void for its kings (1 in 600)

    async def ada_plays(nursery: trio.Nursery) -> None:
        first = await start_host(nursery, db=str(db), bot_delay=0, grace=600)
        proxy = FaultProxy(first.port)
        await nursery.start(proxy.serve)
        choice = TableChoice(create=create(RuleSet.of(2, 16), bots=1, blind=True))
        async with open_network_session(
            "127.0.0.1", proxy.port, choice, name="Ada", data_dir=tmp_path / "ada",
            store=SeatStore(tmp_path / "seats"),
        ) as ada:  # fmt: skip
            nursery.start_soon(said_into, ada, said)

            def turn() -> bool:
                return ada.view is not None and ada.view.my_turn

            def round_no() -> int:
                return 0 if ada.view is None else ada.view.round_number

            await until(turn, 60)
            copy_journal(db, copy)  # in the round she first plays in: the next is re-rolled
            rerolled.append(round_no() + 1)
            while round_no() < rerolled[0]:
                await until(lambda: turn() or round_no() >= rerolled[0], 60)
                if round_no() < rerolled[0]:
                    await ada.submit(legal_plays(ada.view)[0])
                    await until(lambda: not turn() or round_no() >= rerolled[0], 60)
            await until(turn, 60)  # round 2 dealt, her hand on her screen
            await first.shutdown()
            first.journal.close()
            put_back(copy, db)
            again = await start_host(nursery, db=str(db), bot_delay=0, grace=600)
            again_key.append(again.public_key)
            proxy.target_port = again.port
            await until(lambda: any("older copy of its journal" in t for t in said), 30)
            while True:  # she plays what the host deals again, until her client stops
                await until(turn, 60)
                await ada.submit(legal_plays(ada.view)[0])
                await until(lambda: not turn(), 60)

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            with pytest.raises(DealCheckFailedError) as stopped:
                await ada_plays(nursery)
            nursery.cancel_scope.cancel()
    (again_no,) = rerolled
    assert re.fullmatch(
        rf"DEAL CHECK FAILED in round {again_no}: re-rolled round: round {again_no} was "
        rf"opened again \(round id [0-9a-f]{{32}}\) after the host put its events back to an "
        rf"older copy: before that this seat saw round {again_no} opened \(round id "
        r"[0-9a-f]{32}\) and cards of it dealt, so the host could have seen cards of that deal",
        stopped.value.banner.splitlines()[0],
    ), stopped.value.banner
    status, out = verify_pinned(again_key[0], stopped.value.evidence, capsys)
    assert status == 1, out
    assert f"saved as evidence when the client stopped: round {again_no}, re-rolled round" in out
    if void:
        assert f"round {again_no}: FAILED: not revealed" in out, out
    assert out.rstrip().endswith("NOT VERIFIED"), out


def plan_a_kings_void_round_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first host's round 2 and Ada's seed for it shuffle three kings onto its opening
    table (helpers.blind_kings_on_the_table); the host started again opens its own."""
    round_id, host_seed, (ada_seed,) = blind_kings_on_the_table(RuleSet.of(2, 16), 1)
    start_round = BlindTable.start_round
    planned: list[bool] = []

    def round_2_planned(table: BlindTable, rid: bytes, seed: bytes) -> None:
        if table.round_no == 1 and not planned:
            planned.append(True)
            rid, seed = round_id, host_seed
        start_round(table, rid, seed)

    witness_init = BlindWitness.__init__

    def ada_planned(witness: BlindWitness, *args: Any, **kw: Any) -> None:
        kept = kw.get("seed_for")
        kw["seed_for"] = lambda rid: ada_seed if rid == round_id else kept and kept(rid)
        witness_init(witness, *args, **kw)

    monkeypatch.setattr(BlindTable, "start_round", round_2_planned)
    monkeypatch.setattr(BlindWitness, "__init__", ada_planned)


def test_a_round_the_host_voids_saying_its_own_check_failed_without_cause_stops_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host deals round 1, sees the table and its computer's hand, and voids the round
    ``failed_check`` naming no seat (its own party's check, 9.6), though every card opened
    right; the same dealer deals again. Before the fix Ada's witness passed it as "void: the
    host (party 0) stopped without cause", and the host could do so round after round until
    it liked the cards (three in a row went by, and verify said VERIFIED); now her seat stops at
    the reveal that proves the void groundless, and verify refuses the round."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    log = driver.table.seats[0].log
    for _ in range(5000):
        if any(isinstance(e, m.BlindDeal) for e in log):
            break
        assert driver.step()
    driver.catch_up()
    driver.table._void("failed_check", None)  # the cheat: "a card did not open"
    with pytest.raises(RerolledRoundError) as stopped:
        driver.run()
    assert str(stopped.value) == (
        "round 1 was voided by the host, saying its own check of a card failed, but its reveal "
        "shows every party's part right: the host threw the round away after dealing its first "
        "cards, without cause"
    )
    witness = driver.witnesses[0]
    assert witness.round_no == 1
    evidence = tmp_path / "evidence.scopa"
    evidence.write_bytes(witness.evidence(stopped.value).encode())
    status, out = verify_pinned(public_key_bytes(KEY), evidence, capsys)
    assert status == 1, out
    assert "saved as evidence when the client stopped: round 1, re-rolled round" in out
    assert "round 1: FAILED: re-rolled round: round 1 was voided by the host" in out, out
    assert out.rstrip().endswith("NOT VERIFIED"), out


def test_a_match_the_host_ends_early_naming_a_winner_stops_the_seat() -> None:
    """Once round 1 of a blind match to 16 is revealed, the host signs a ``match_end`` naming
    Ada's side the winner at the scores so far, no side near 16. The ordinary witness stops
    such an end (5.9); before the fix the blind one checked only its signature, and her
    client said she had won."""
    driver = BlindDriver(new_blind_table(RuleSet.of(2, 16), bots=1), seed=5)
    log = driver.table.seats[0].log
    for _ in range(5000):
        if any(isinstance(e, m.RoundReveal) for e in log):
            break
        assert driver.step()
    driver.catch_up()
    (sheet,) = [e for e in log if isinstance(e, m.RoundEnd)]
    scores = tuple(sheet.scores)
    sig = sign(KEY, end_message(driver.table.chain, scores, 0))
    early = m.MatchEnd(seq=log[-1].seq + 1, scores=scores, winner=0, sig=sig)
    with pytest.raises(ScoreMismatchError) as stopped:
        driver.witnesses[0].observe(early)
    assert str(stopped.value) == (
        f"the host ended the match naming the side of seat 0 the winner, with scores "
        f"{list(scores)}; the rounds played give scores {list(scores)}, nobody the winner "
        "(playing to 16)"
    )


def test_a_round_naming_the_hosts_computer_player_among_its_people_stops_the_seat() -> None:
    """The host names its own computer player's seat among a round's ``people`` (9.5.1: never
    a seat a computer holds), signed as any round: it would play that party with a key of its
    own, and could then call that "person" away (void ``absent``) after seeing the first
    cards, to deal again. Before the fix the blind witness never looked at who holds the seats
    ``people`` names."""
    driver, first = dealt_into_round_2()
    witness = driver.witnesses[0]
    witness.resynced()  # so that only the people check is left to catch it
    round_id = bytes(range(16))
    host = PartyKey(first.key.point, first.key.proof, first.key.sign_key)
    people = (0, 1)  # seat 1: the host's computer player
    digest = blind_digest(round_id, people, host)
    rules = rules_hash(RuleSet.of(2, 16))
    sig = sign(KEY, commit_message(round_id, 3, first.prev, digest, rules))
    planted = dataclasses.replace(first, round_id=round_id, round_no=3, people=people, sig=sig)
    witness.computer_seats = frozenset({1})  # as the seat's client reads seat_status
    with pytest.raises(ComputerPartyError) as stopped:
        witness.observe(planted)
    assert str(stopped.value) == (
        "round 3: the host named seat 1 among the round's people, a seat a computer holds; "
        "only a seat a person plays is a party"
    )
    assert what_failed(stopped.value).startswith(
        "the host made a seat a computer holds a party of the round, with a key of its own choosing"
    )


def test_a_blind_table_closed_after_a_rounds_first_deal_keeps_that_round_for_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host deals round 2, sees its table and its computer's hand, and closes the table as
    it restarts (``no_such_table``, ``table_closed_on_restart``): the match, with that deal, is
    thrown away. At an ordinary table Ada reads in which round and after what the host closed
    it, and her transcript keeps that round; at a blind table, before, she read only the
    host's words and her transcript ended at round 1 (verify: unfinished, as any match cut
    short). Now she reads it too, and verify reports round 2 never revealed."""
    from types import SimpleNamespace

    from scopa_net.client.reconnection import Reconnection
    from scopa_net.client.session_errors import RefusedError

    driver, _ = dealt_into_round_2()
    witness = driver.witnesses[0]
    saved: list[dict[str, bool]] = []
    seat = seat_for_reconnection(
        tmp_path,
        seat=0,
        table_id=1,
        witness=witness,
        _transcripts=SimpleNamespace(saved=None, save_transcript=lambda **kw: saved.append(kw)),
    )
    closed = RefusedError("no_such_table", "gone", why="table_closed_on_restart", version=5)
    assert Reconnection(seat).seat_lost_words(closed) == (
        "The host at club:7311 no longer holds seat 0 at table 1 for you (the host says: gone). "
        f"It closed the table in round {REROLLED}, after its first cards were dealt: the host "
        "had seen some of that deal's cards and never finished or revealed it (a host that does "
        "this can throw away a deal it does not like), so verify reports that round as never "
        f"revealed. Your transcript of its rounds played so far is in {tmp_path / 'transcripts'}, "
        "to check with `scopa-net verify FILE`."
    )
    assert saved == [{"abandoned": True}]
    kept = tmp_path / "kept.scopa"
    kept.write_bytes(witness.transcript_with_abandoned().encode())
    status, out = verify_pinned(public_key_bytes(KEY), kept, capsys)
    assert status == 1, out
    assert f"round {REROLLED}: FAILED: not revealed" in out, out
    assert out.rstrip().endswith("NOT VERIFIED"), out


def test_a_void_naming_ada_silent_after_a_deal_is_said_as_the_hosts_word_with_what_to_do() -> None:
    """The host deals round 2, sees its first cards, and voids it ``absent`` naming Ada, still
    connected, "silent past the deadline" for her shares (9.7): the one way protocol.md leaves
    a blind host to call off a deal it dislikes, once per person per round. Before, Ada read
    "you did not send your shares within the host's deadline (30 s)" as a fact of her own
    doing; now she reads it as the host's word, and, the deal under way, what it lets a host
    do and what to do."""
    from types import SimpleNamespace

    from scopa_net.client.table_words import TableWords

    driver, first = dealt_into_round_2()
    seat = SimpleNamespace(
        witness=driver.witnesses[0],
        _seat=0,
        _seating=SimpleNamespace(
            seats=[SimpleNamespace(connected=True, kind="human")] * 2,
            names=["Ada", "bot 1"],
            away_names={},
            stepped_away=set(),
        ),
    )
    words = TableWords(seat, loss_said_after=0, loss_held_for=0)
    void = m.RoundVoid(seq=1, round_id=first.round_id, reason="absent", offender=0)
    assert words.void_line(void) == (
        f"Round {REROLLED} is void: the host says your shares did not reach it within its "
        "deadline (30 s). Nobody saw your cards; the same dealer deals again. Once may be a "
        "slow network; but a host can say so to call off a deal it dislikes once it has seen "
        "its first cards: if it happens again, stop playing at this host."
    )


async def test_our_client_stops_at_a_round_naming_the_hosts_computer_player_among_its_people(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end, over loopback TCP: our host, made to count its own computer player's seat
    as a person's (so its ``blind_round`` names that seat among the people, a host that would
    play that party itself), and Ada's real client, which reads the seats' holders from
    ``seat_status`` and stops at that round with a banner naming the seat and what it lets a
    host do."""
    monkeypatch.setattr(BlindTable, "_person", lambda self, seat: True)

    async def ada_plays(nursery: trio.Nursery) -> None:
        host = await start_host(nursery, bot_delay=0)
        choice = TableChoice(create=create(RuleSet.of(2, 16), bots=1, blind=True))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path / "ada"
        ) as ada:
            async for _ in ada.events:
                pass

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            with pytest.raises(DealCheckFailedError) as stopped:
                await ada_plays(nursery)
            nursery.cancel_scope.cancel()
    lines = stopped.value.banner.splitlines()
    assert lines[0] == (
        "DEAL CHECK FAILED in round 1: computer party: round 1: the host named bot 1 among "
        "the round's people, a seat a computer holds; only a seat a person plays is a party"
    ), lines
    assert (
        "What this means: the host made a seat a computer holds a party of the round, with a "
        "key of its own choosing, as if a person played it: it could then say that person "
        "dropped, to call off a deal it dislikes once it has seen its first cards."
    ) in lines, lines
