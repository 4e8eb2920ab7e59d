"""A round that never ends (a connected person who never plays: no turn timer stops it) keeps
every event since it began for replay (protocol.md 3.4), so the host bounds what a peer can
add to it: at most 20 seat changes per seat per round (3.6, Seat changes), and a host notice
carrying a player's words counted as a line of theirs (3.7). Over a real host on loopback."""

from __future__ import annotations

from pathlib import Path

import trio
from document_hostile import Peer, SeatedPeer, create, join
from hosting import MakeHost

from scopa_net.client.launch import session_failure
from scopa_net.client.network_session import SessionError, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.commands.options import EXIT_REFUSED
from scopa_net.server.host import Host
from scopa_net.wire import messages as m

LIMIT = 20  # protocol.md 3.6: seat changes per seat per round
DONE = (
    f"changed hands, come back or changed name {LIMIT} times this round, as many as this host "
    "allows; "
)


async def _stalled_round(host: Host, name: str = "Ada") -> tuple[int, Peer]:
    """A 3-seat table (a computer in seat 2) with a person in seat 0 who never sends a seed:
    once seat 1 is taken, its round opens and waits on them (the seed deadline is long)."""
    ada = await Peer.connect(host.port)
    await ada.hello()
    await ada.send(create(players=3, bots=1))
    table_id = (await ada.reply("table_created"))["table"]["id"]
    await ada.send(join(table_id, seat=0, name=name))
    await ada.reply("snapshot")
    return table_id, ada


def _kept(host: Host, table_id: int) -> list[int]:
    """How many events the host keeps in each seat's log."""
    return [len(seat.log) for seat in host.tables[table_id].table.seats]


async def test_joining_and_leaving_a_seat_over_and_over_in_a_round_is_refused_past_the_limit(
    make_host: MakeHost,
) -> None:
    """A peer joined and left seat 1 again and again while the round waited on Ada: each pair
    put two `seat_status` events in every seat's log, kept for as long as the round lasts
    (+15 MB per 3,000 pairs). Now the 21st `join` of the round is `rate_limited`, saying why,
    the connection stays open, and no seat's log grows however often it tries."""
    host = await make_host(bot_delay=30.0, seed_timeout=600.0)
    table_id, ada = await _stalled_round(host)
    mallory = await Peer.connect(host.port)
    await mallory.hello()
    await mallory.send(join(table_id, seat=1))
    await mallory.reply("joined")
    await mallory.reply("round_commit")  # the round opens: every event from here is kept
    joins = 0
    with trio.fail_after(20):
        for _ in range(2 * LIMIT):
            await mallory.send({"t": "leave", "away": False})
            await mallory.reply("left")
            await mallory.send(join(table_id, seat=1))
            answer = await mallory.reply("joined", "error")
            if answer["t"] == "error":
                break
            joins += 1
    assert joins == LIMIT
    assert answer["code"] == "rate_limited", answer
    assert answer["ref"] == "join"
    assert answer["message"] == f"seat 1 has {DONE}" + (
        "sit down there once the next round starts, or take another seat"
    )
    kept = _kept(host, table_id)
    assert max(kept) <= 2 * LIMIT + 10, kept  # the round's few events, and the changes
    for _ in range(10):
        await mallory.send(join(table_id, seat=1))
        assert (await mallory.reply("error"))["code"] == "rate_limited"
    assert _kept(host, table_id) == kept
    assert await mallory.stays_open()
    assert await ada.stays_open()
    await mallory.aclose()
    await ada.aclose()


async def test_a_person_joining_a_seat_at_the_limit_reads_one_line_saying_why(
    make_host: MakeHost, tmp_path: Path
) -> None:
    """Lea asks for seat 1 after it changed hands 20 times this round: `scopa-net join`
    said "the host stopped the session: ..." with status 1, as if a game had begun and
    failed. She reads that the host will not seat her just now, its words why and what to
    do, and status 4 (the host said no)."""
    host = await make_host(bot_delay=30.0, seed_timeout=600.0)
    table_id, ada = await _stalled_round(host)
    mallory = await Peer.connect(host.port)
    await mallory.hello()
    await mallory.send(join(table_id, seat=1))
    await mallory.reply("joined")
    await mallory.reply("round_commit")
    for _ in range(LIMIT):
        await mallory.send({"t": "leave", "away": False})
        await mallory.reply("left")
        await mallory.send(join(table_id, seat=1))
        await mallory.reply("joined")
    await mallory.send({"t": "leave", "away": False})
    await mallory.reply("left")
    choice = TableChoice(table_id=table_id, seat=1)
    store = SeatStore(tmp_path)
    refused: list[SessionError] = []
    try:
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Lea", data_dir=tmp_path, store=store
        ):
            raise AssertionError("Lea was seated")
    except* SessionError as group:
        refused = list(group.exceptions)  # type: ignore[arg-type]
    (failure,) = [session_failure(exc) for exc in refused]
    assert str(failure) == "the host will not seat you just now: seat 1 has " + DONE + (
        "sit down there once the next round starts, or take another seat"
    )
    assert failure.status == EXIT_REFUSED
    assert not store.records()
    await mallory.aclose()
    await ada.aclose()


async def test_coming_back_and_saying_the_deal_failed_over_and_over_is_bounded(
    make_host: MakeHost,
) -> None:
    """A seated peer resumed on a new connection and ended it with `bye deal_failed`, over and
    over: each time a `seat_status` came back and went, and a host notice with the peer's own
    words went to the table's chat, outside every chat limit, about twice a second. Now the
    notice is a line of the seat's (5 in the chat window, here a minute), and the 21st return
    of the round is `rate_limited`, its token still good."""
    host = await make_host(bot_delay=30.0, seed_timeout=600.0, resume_burst=100, chat_window=60.0)
    table_id, ada = await _stalled_round(host)
    mallory = await Peer.connect(host.port)
    await mallory.hello()
    await mallory.send(join(table_id, seat=1))
    token, returns = (await mallory.reply("joined"))["token"], 0
    await mallory.reply("round_commit")
    with trio.fail_after(30):
        for _ in range(2 * LIMIT):
            await mallory.send({"t": "bye", "reason": "deal_failed", "message": "round 1: lies"})
            await mallory.ending()
            mallory = await Peer.connect(host.port)
            await mallory.hello()
            resume = {"t": "resume", "table_id": table_id, "seat": 1, "token": token}
            await mallory.send({**resume, "last_seq": 0})
            answer = await mallory.reply("resumed", "error")
            if answer["t"] == "error":
                break
            token, returns = answer["token"], returns + 1
    assert returns == LIMIT
    assert (answer["code"], answer["ref"]) == ("rate_limited", "resume"), answer
    assert answer["message"] == f"your seat has {DONE}" + (
        "it is still yours: come back once the next round starts"
    )
    log = host.tables[table_id].table.seats[0].log
    notices = [e for e in log if isinstance(e, m.Chat) and e.seat is None]
    assert len(notices) == 5, notices  # the seat's chat rate: 5 lines in its window
    assert notices[0].text == "Mallory left: the deal check failed at their seat (round 1: lies)"
    host.tables[table_id].table.check_token(1, token)  # the refused resume burnt nothing
    assert await ada.stays_open()
    await mallory.aclose()
    await ada.aclose()


async def test_a_person_who_steps_away_and_back_and_renames_in_a_round_never_meets_the_limit(
    make_host: MakeHost,
) -> None:
    """The honest case: in one round Ada steps away and comes back five times, loses her
    connection and comes back twice, and changes her name three times; every one is taken,
    and the others read each."""
    host = await make_host(bot_delay=30.0, seed_timeout=600.0)
    table_id, bruno = await _stalled_round(host, "Bruno")
    ada = await SeatedPeer.connect(host.port)
    await ada.hello()
    await ada.sit(table_id, seat=1, name="Ada")
    await ada.follow(lambda peer: any(e["t"] == "round_commit" for e in peer.tracked.events))
    for _ in range(5):
        await ada.send({"t": "leave", "away": True})
        await ada.reply("left")
        await ada.aclose()
        await ada.take_back(host.port)
    for _ in range(2):
        await ada.aclose()  # the connection lost: no leave
        await ada.take_back(host.port)
    for name in ("Ada B", "Ada C", "Ada D"):
        await ada.send({"t": "rename", "name": name})
        await ada.follow(lambda peer, name=name: peer.tracked.events[-1].get("name") == name)
    with trio.fail_after(5):  # Bruno reads the table up to Ada's last name
        while not [e for e in bruno.heard if e.get("name") == "Ada D"]:
            await bruno.next()
    statuses = [e for e in bruno.heard if e["t"] == "seat_status" and e["seat"] == 1]
    assert [(e["name"], e["connected"]) for e in statuses[-5:]] == [
        ("Ada", False),
        ("Ada", True),
        ("Ada B", True),
        ("Ada C", True),
        ("Ada D", True),
    ]
    assert not [e for e in ada.tracked.replies if e["t"] == "error"]
    await ada.aclose()
    await bruno.aclose()
