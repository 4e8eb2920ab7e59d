"""A round dealt, then the person's client stopped, her seat taken back from disk by a new
client after the host was started again from an older copy of its journal (our real host,
over real loopback TCP, at an ordinary and at a blind table): the host may not use the new
client's fresh start to deal that round again (protocol.md 5.2: a round whose seeds were out
is not shuffled again; 9.10: a blind round once dealt is never opened anew)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
from faultproxy import FaultProxy
from hosting import create, start_host
from journal_copies import copy_journal, put_back
from session_watch import said_into, until
from table_driver import KEY

from scopa_net.blind_witness import BlindWitness, ToldRound
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import (
    DealCheckFailedError,
    NetworkSession,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import SeatStore
from scopa_net.commands.main import main
from scopa_net.fair.commitments import end_message, fingerprint, public_key_bytes, sign
from scopa_net.fair.errors import BrokenChainError
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.witness import TOLD_BEFORE_A_FRESH_CLIENT


def her_turn(ada: NetworkSession) -> bool:
    return ada.view is not None and ada.view.my_turn


def round_no(ada: NetworkSession) -> int:
    return 0 if ada.view is None else ada.view.round_number


@pytest.mark.parametrize("blind", [True, False], ids=["blind", "ordinary"])
async def test_a_round_dealt_again_to_a_client_taking_the_seat_back_stops_it(
    blind: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada plays our host's table with its computer player. The host's journal is
    copied in round 1; round 2 is opened and dealt (the host has seen its table and its
    computer's hand). Her client stops there (closed), and the host is started again from
    the copy. Her new client takes the seat back from disk and asks for the match from its
    start; the host, having lost round 2, opens it anew with a fresh shuffle. Before the fix
    the new client, which knew of no round, took the new round 2 and played on (a client
    that had not stopped is stopped by a ``stale`` resume, 5.2, 9.10). (At an ordinary table
    the host has seen every card of round 2 once its seeds are in.)"""
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    seats = SeatStore(tmp_path / "seats")
    keys: list[bytes] = []
    again_no: list[int] = []

    async def ada_plays(nursery: trio.Nursery) -> None:
        first = await start_host(nursery, db=str(db), bot_delay=0, grace=600)
        proxy = FaultProxy(first.port)
        await nursery.start(proxy.serve)
        choice = TableChoice(create=create(RuleSet.of(2, 16), bots=1, blind=blind))
        with trio.CancelScope() as closed:
            async with open_network_session(
                "127.0.0.1", proxy.port, choice, name="Ada", data_dir=tmp_path / "ada",
                store=seats,
            ) as ada:  # fmt: skip
                nursery.start_soon(said_into, ada, [])
                await until(lambda: her_turn(ada), 60)
                copy_journal(db, copy)  # in the round she first plays in: the next is re-rolled
                again_no.append(round_no(ada) + 1)
                while round_no(ada) < again_no[0]:
                    await until(lambda: her_turn(ada) or round_no(ada) >= again_no[0], 60)
                    if round_no(ada) < again_no[0]:
                        await ada.submit(legal_plays(ada.view)[0])
                        await until(lambda: not her_turn(ada) or round_no(ada) >= again_no[0], 60)
                await until(lambda: ada.view is not None and bool(ada.view.hand), 60)
                closed.cancel()  # her client stops, round 2 dealt
        await first.shutdown()
        first.journal.close()
        put_back(copy, db)
        again = await start_host(nursery, db=str(db), bot_delay=0, grace=600)
        keys.append(again.public_key)
        proxy.target_port = again.port
        (record,) = seats.records()
        async with open_network_session(
            "127.0.0.1", proxy.port, TableChoice(table_id=record.table_id), name="Ada",
            data_dir=tmp_path / "ada", store=seats, resume_from=record,
        ) as back:  # fmt: skip
            nursery.start_soon(said_into, back, [])
            while True:  # she plays what the host deals again, until her client stops
                await until(lambda: her_turn(back), 60)
                await back.submit(legal_plays(back.view)[0])
                await until(lambda: not her_turn(back), 60)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            with pytest.raises(DealCheckFailedError) as stopped:
                await ada_plays(nursery)
            nursery.cancel_scope.cancel()
    (n,) = again_no
    seen = (
        "and cards of it dealt, so the host could have seen cards of that deal"
        if blind
        else "and the seeds' commitments relayed, so the host could have seen that deal"
    )
    assert re.fullmatch(
        rf"DEAL CHECK FAILED in round {n}: re-rolled round: round {n} was opened again "
        rf"\(round id [0-9a-f]{{32}}\) after this seat's client was started afresh: the "
        rf"client before it saw round {n} opened \(round id [0-9a-f]{{32}}\) {seen}",
        stopped.value.banner.splitlines()[0],
    ), stopped.value.banner
    capsys.readouterr()
    assert main(["verify", "--pin", fingerprint(keys[0]), str(stopped.value.evidence)]) == 1
    out = capsys.readouterr().out
    assert f"saved as evidence when the client stopped: round {n}, re-rolled round" in out
    assert out.rstrip().endswith("NOT VERIFIED"), out


def test_a_match_ended_before_the_round_a_taken_back_seat_saw_dealt_stops_it() -> None:
    """A blind seat taken back from disk holds the host to the round an earlier client of it
    saw dealt (round 2 here). Told the match again, the host ends it (a signed end, no winner)
    before it reaches round 2: it told the match otherwise, as a match ended while round 2
    was open would have shown. Before the fix the end was taken (only the signature and the
    scores checked)."""
    witness = BlindWitness(RuleSet.of(2, 16), public_key_bytes(KEY), 0, new_seed=lambda: bytes(32))
    seen = bytes(range(16))
    witness.told_before = {2: ToldRound(seen, True, None)}
    witness.told_since = TOLD_BEFORE_A_FRESH_CLIENT
    scores = (0, 0)
    end = m.MatchEnd(
        seq=1, scores=scores, winner=None, sig=sign(KEY, end_message(bytes(32), scores, None))
    )
    with pytest.raises(BrokenChainError) as stopped:
        witness.observe(end)
    assert str(stopped.value) == (
        "the host ended the match after round 0, but this seat's client was started afresh: "
        f"the client before it saw round 2 opened (round id {seen.hex()}) and cards of it "
        "dealt, so the host told the match otherwise"
    )
