"""Our host's blind tables, played by an outsider: ``document_blind_client`` is written from
protocol.md section 9 alone (it imports nothing from scopa_net) and takes part in every step
of a blind round for its seat. It plays whole matches at our real host over loopback TCP with
one of our own clients and one of our computer players at the table, and every round passes
on both sides."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from blind_document_verifier import verify as document_verify
from document_blind_client import BlindCheckFailedError, BlindSeat, DocumentBlindClient
from helpers import imported_modules
from hosting import start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any

OUTSIDE = {
    "__future__", "collections", "dataclasses", "os", "trio", "nacl", "document_client",
    "document_referee", "blind_document_verifier",
}  # fmt: skip


def test_the_blind_client_imports_nothing_of_ours() -> None:
    path = Path(__file__).parent / "document_blind_client.py"
    assert imported_modules(path) <= OUTSIDE


async def ours_at(port: int, table_id: int, data: Path, out: list[NetworkSession]) -> None:
    """Our own client, playing at random, at the outsider's table."""
    choice = TableChoice(table_id=table_id)
    async with open_network_session("127.0.0.1", port, choice, name="Bea", data_dir=data) as s:
        out.append(s)
        await play_as_bot(s, make_player("random", 7))


async def blind_match(
    tmp_path: Path,
    stop: Callable[[DocumentBlindClient], bool] | None = None,
    **host_options: object,
) -> tuple[DocumentBlindClient, NetworkSession]:
    """A three-seat blind match to 1 point: the outsider (who opens the table), our client,
    our computer player. With ``stop``, the outsider drops its connection once ``stop`` says
    so, and resumes its seat at once."""
    ours: list[NetworkSession] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, **host_options)
            outsider = DocumentBlindClient("Ada")
            await outsider.connect("127.0.0.1", host.port)
            table_id = await outsider.create_table(players=3, target=1, bots=1)
            await outsider.join(table_id)
            async with trio.open_nursery() as people:
                people.start_soon(ours_at, host.port, table_id, tmp_path / "bea", ours)
                if stop is not None:
                    await outsider.play(stop)
                    await outsider.drop()
                    await outsider.connect("127.0.0.1", host.port)
                    await outsider.resume()
                await outsider.play()
                await outsider.quit()
            nursery.cancel_scope.cancel()
    (session,) = ours
    return outsider, session


def assert_both_sides_pass(outsider: DocumentBlindClient, session: NetworkSession, data: Path):
    seat = outsider.seat
    assert seat is not None
    assert seat.match_over, seat.result
    assert seat.result.startswith("verified")
    assert len(seat.verdicts) == len(seat.rounds)
    for r in seat.rounds:  # no one absent: every party's seed came, the outsider's too
        assert r.party is not None
        assert None not in r.record["seeds"]
        assert r.record["seeds"][r.party.number] == r.party.seed
    assert session.deal_failure is None
    assert session.verdict_failures == []
    assert session.rounds_verified == len(seat.rounds)
    (saved,) = (data / "transcripts").iterdir()
    assert verify_any(decode_any(saved.read_bytes())).ok  # our verifier, our side's file
    assert document_verify(saved.read_bytes()).ok  # and the outsider's verifier too


async def test_an_outsider_plays_a_whole_blind_match_with_our_client_and_computer(
    tmp_path: Path,
) -> None:
    outsider, session = await blind_match(tmp_path)
    assert_both_sides_pass(outsider, session, tmp_path / "bea")
    seat = outsider.seat
    assert seat is not None
    played = [r for r in seat.rounds if r.record["score"] is not None]
    assert played, "no round was played out"
    plays = [m for m in outsider.sent if m["t"] == "play"]
    assert len(plays) == len(outsider.acks)  # every play taken, none refused
    assert outsider.refused == []
    # What it wrote: one key, one shuffle, its shares of every deal (never of its own cards),
    # and its seed once each round was over.
    for r in seat.rounds:
        mine = [m for m in outsider.sent if m.get("round_id") == r.round_id]
        kinds = [m["t"] for m in mine]
        assert kinds.count("blind_key") == kinds.count("blind_shuffle") == 1
        assert kinds.count("blind_shares") == len(r.record["deals"])
        assert kinds[-1] == "blind_reveal"
        assert r.party is not None
        hand = {pos for pos, _ in r.record["hand"]}
        for m in (m for m in mine if m["t"] == "blind_shares"):
            assert len(m["shares"]) == len(seat._positions(r, m["deal"], r.party.number))
            assert not hand & set(seat._positions(r, m["deal"], r.party.number))


def last_event(kind: str, **fields: object) -> Callable[[DocumentBlindClient], bool]:
    """The outsider drops once it has read that event, before it answers it."""

    def now(client: DocumentBlindClient) -> bool:
        e = client.events[-1] if client.events else {}
        return e.get("t") == kind and all(e.get(k) == v for k, v in fields.items())

    return now


def a_play_on_its_way(client: DocumentBlindClient) -> bool:
    """Its second play of the match is sent, its `played` not yet read."""
    return sum(m["t"] == "play" for m in client.sent) == 2 and client.pending is not None


def its_turn_to_shuffle(client: DocumentBlindClient) -> bool:
    """The deck before its own has come: its shuffle is due."""
    r = client.seat.round if client.seat else None
    e = client.events[-1] if client.events else {}
    return bool(r and r.party and e.get("t") == "blind_deck" and e["party"] == r.party.number - 1)


def shares_sent(client: DocumentBlindClient) -> bool:
    """Its shares of deal 2 are written (the host may have them: a repeat is refused
    `wrong_phase` and changes nothing, 9.5.2), their `blind_deal` not yet read."""
    return (
        bool(client.sent)
        and client.sent[-1]["t"] == "blind_shares"
        and (client.sent[-1]["deal"] == 2)
    )


DROPS = {  # when it drops, and what it then owes the round
    "its key unsent": (last_event("blind_round", round_no=1), "blind_key"),
    "its shuffle unsent": (its_turn_to_shuffle, "blind_shuffle"),
    "its shares of deal 2 unsent": (last_event("blind_open", deal=2), "blind_shares"),
    "a play on its way": (a_play_on_its_way, "play"),
    "its shares of deal 2 sent, not yet relayed": (shares_sent, "blind_shares"),
    "its seed unsent": (last_event("round_end", round_no=1), "blind_reveal"),
}


@pytest.mark.parametrize(("when", "owed"), DROPS.values(), ids=DROPS.keys())
async def test_the_outsider_drops_mid_round_resumes_and_the_round_completes(
    tmp_path: Path, when: Callable[[DocumentBlindClient], bool], owed: str
) -> None:
    """9.7: the round waits for it within its grace period; back, it sends again what it owes
    (the host refuses a repeat it already had with `error wrong_phase`, 9.5.2), and the round
    completes and verifies on both sides."""
    outsider, session = await blind_match(tmp_path, stop=when, grace=600)
    resume = next(i for i, m in enumerate(outsider.sent) if m["t"] == "resume")
    assert outsider.sent[resume + 1]["t"] == owed  # sent again at once
    assert_both_sides_pass(outsider, session, tmp_path / "bea")


def replay(client: DocumentBlindClient, events: list[dict]) -> BlindSeat:
    """The events of the client's match taken again by a fresh seat, with the client's seeds."""
    seat = client.seat
    assert seat is not None
    assert client.pinned is not None
    seeds = iter([r.party.seed for r in seat.rounds if r.party is not None])
    again = BlindSeat(client.pinned, seat.table, client.seat_no, [], lambda: next(seeds))
    for event in events:
        again.take(event)
    return again


def flip(data: bytes, at: int = 0) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


def ours(e: dict) -> bool:
    """An event about our client's seat (seat 1, party 2), not the outsider's."""
    return e["seat"] == 1 if "seat" in e else e.get("party") == 2


TAMPERED = [
    # (event, which one, what is changed, the check that refuses it)
    ("blind_round", None, lambda e: e.update(sig=flip(e["sig"])), "blind_round signature"),
    ("blind_round", None, lambda e: e.update(people=[0]), "blind_round signature"),
    ("blind_keys", None, lambda e: e["keys"][2].update(proof=flip(e["keys"][2]["proof"])),
     r"bad key \(party 2\)"),
    ("blind_keys", None, lambda e: e.update(dealer=(e["dealer"] + 1) % 3), "the match's is"),
    ("blind_deck", ours, lambda e: e.update(sig=flip(e["sig"])), "bad party signature"),
    ("blind_deck", ours, lambda e: e.update(party=0), "out of party order"),
    ("blind_open", None, lambda e: e.update(shares=[flip(e["shares"][0]), *e["shares"][1:]]),
     r"bad party signature \(party 0's shares of deal 1\)"),
    ("blind_deal", None, lambda e: e["shares"][2].reverse(), r"bad party signature \(party 2"),
    ("played", ours, lambda e: e.update(proof=flip(e["proof"], 40)), r"bad play proof \(party 2"),
    ("played", ours, lambda e: e.update(card=(e["card"] + 1) % 40), "bad play proof"),
    ("played", ours, lambda e: e.update(pos=(e["pos"] + 1) % 40), "not dealt to it"),
    ("blind_reveals", None, lambda e: e["seeds"].__setitem__(1, flip(e["seeds"][1])),
     "relayed altered"),
    ("blind_reveals", None, lambda e: e["seeds"].__setitem__(2, flip(e["seeds"][2])),
     r"wrong secret: party 2"),
    ("round_reveal", None, lambda e: e.update(sig=flip(e["sig"])), "bad signature"),
    ("match_end", None, lambda e: e.update(scores=[s + 1 for s in e["scores"]]), "match_end"),
]  # fmt: skip


async def test_every_check_it_makes_refuses_an_event_of_a_real_match_tampered_with(
    tmp_path: Path,
) -> None:
    """One real blind match, recorded; taken again, it passes; each event altered in a way
    section 9 forbids is refused by the check that names it (9.6)."""
    outsider, _ = await blind_match(tmp_path)
    assert replay(outsider, outsider.events).match_over
    for kind, which, change, check in TAMPERED:
        events = copy.deepcopy(outsider.events)
        change(next(e for e in events if e["t"] == kind and (which is None or which(e))))
        with pytest.raises(BlindCheckFailedError, match=check):
            replay(outsider, events)


async def test_away_past_its_grace_period_it_is_absent_then_observes_the_next_round(
    tmp_path: Path,
) -> None:
    """9.7: the outsider drops owing its shares; its grace period ends, so the round is void
    `absent` naming it (its seed nil, its hand in no record); it comes back once the next
    round, which a computer plays for it, has begun, observes that round (its hand there the
    computer's, opened from the seeds after the reveal), and every round passes on both
    sides."""
    ours: list[NetworkSession] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=1)
            outsider = DocumentBlindClient("Ada")
            await outsider.connect("127.0.0.1", host.port)
            table_id = await outsider.create_table(players=3, target=1, bots=1)
            await outsider.join(table_id)
            async with trio.open_nursery() as people:
                people.start_soon(ours_at, host.port, table_id, tmp_path / "bea", ours)
                await outsider.play(last_event("blind_open", deal=2))
                await outsider.drop()
                while host.tables[table_id].table.round_no < 2:
                    await trio.sleep(0.05)
                await outsider.connect("127.0.0.1", host.port)
                await outsider.resume()
                await outsider.play()
                await outsider.quit()
            nursery.cancel_scope.cancel()
    seat = outsider.seat
    assert seat is not None
    assert seat.match_over, seat.result
    first, second = seat.rounds[0].record, seat.rounds[1].record
    assert first["void"] == {"reason": "absent", "offender": 0}
    assert first["seeds"][1] is None
    assert first["hand"] == []
    assert seat.verdicts[0] == "void: seat 0 absent"
    assert 0 not in second["people"]
    assert seat.rounds[1].party is None  # an observer
    assert len(second["hand"]) == 12  # the computer's cards, opened from the seeds
    assert len(seat.verdicts) == len(seat.rounds)
    (session,) = ours
    assert session.deal_failure is None
    assert session.verdict_failures == []
    (saved,) = (tmp_path / "bea" / "transcripts").iterdir()
    assert verify_any(decode_any(saved.read_bytes())).ok
    assert document_verify(saved.read_bytes()).ok


async def test_a_round_void_before_another_persons_key_passes_at_its_seat() -> None:
    """9.7, 9.9 (*void before the keys*): a person who drops before sending its key voids the
    round once its grace period ends; its `blind_reveals` has one seed per party, the host's
    and each person's (nil for the one absent), while the round's record holds the host's key
    alone. The outsider counted the seeds against the keys it had (one) and stopped on
    "blind_reveals without one seed per party"; it now plays on, and that round passes."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=1)
            ada, bruno = DocumentBlindClient("Ada"), DocumentBlindClient("Bruno")
            await ada.connect("127.0.0.1", host.port)
            table_id = await ada.create_table(players=3, target=1, bots=1)
            await ada.join(table_id)
            await bruno.connect("127.0.0.1", host.port)
            await bruno.join(table_id)
            await bruno.play(last_event("blind_round"))
            await bruno.drop()  # before its key
            await ada.play()
            await ada.quit()
            nursery.cancel_scope.cancel()
    seat = ada.seat
    assert seat is not None
    assert seat.match_over, seat.result
    first = seat.rounds[0].record
    assert first["void"] == {"reason": "absent", "offender": bruno.seat_no}
    assert len(first["keys"]) == 1
    assert first["seeds"][0] is not None
    assert first["seeds"][1 + first["people"].index(bruno.seat_no)] is None
    assert seat.verdicts[0].startswith(f"void: seat {bruno.seat_no} absent before every key")
    assert len(seat.verdicts) == len(seat.rounds)
