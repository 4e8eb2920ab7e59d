"""Our host's blind tables, played by an outsider: ``document_blind_client`` is written from
protocol.md section 9 alone (it imports nothing from scopa_net) and takes part in every step
of a blind round for its seat. It plays whole matches at our real host over loopback TCP with
one of our own clients and one of our computer players at the table, and every round passes
on both sides."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from blind_document_verifier import verify as document_verify
from document_blind_client import DocumentBlindClient
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


DROPS = {  # when it drops, and what it then owes the round
    "its key unsent": (last_event("blind_round", round_no=1), "blind_key"),
    "its shuffle unsent": (its_turn_to_shuffle, "blind_shuffle"),
    "its shares of deal 2 unsent": (last_event("blind_open", deal=2), "blind_shares"),
    "a play on its way": (a_play_on_its_way, "play"),
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
