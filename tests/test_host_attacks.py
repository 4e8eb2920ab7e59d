"""A hostile peer against a real host over loopback TCP, on the paths added last (heartbeats,
tokens, seats taken and given up, the host's own log). Each test is an attack that found a
defect, kept so that it stays fixed, but the last (the race for a last seat: cheap, and raced
nowhere else); protocol.md's section is in each docstring."""

from __future__ import annotations

import logging

import pytest
import trio
from document_hostile import Peer, SeatedPeer, create, join, packed
from helpers import host_said
from hosting import MakeHost


async def test_a_peer_that_talks_but_never_answers_a_ping_is_never_sent_a_fifth(
    make_host: MakeHost, caplog: pytest.LogCaptureFixture
) -> None:
    """3.1, 3.6: at most four pings are unanswered, and any bytes received are a sign of life.
    A peer that sent a request now and then (each gap longer than the host's ping interval)
    but never a `pong` got a ping at every gap; at the fifth the host's own state machine
    refused its ping: the connection ended with no `bye`, and the host's log said, as an
    ERROR, "host sent out of order: rate_limited: more than 4 pings unanswered"."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    host = await make_host(heartbeat_interval=0.1, silence_timeout=5.0)
    peer = await Peer.connect(host.port)
    await peer.hello()
    peer.answer_pings = False
    pings = tables = 0
    with trio.fail_after(10):
        for _ in range(8):
            await trio.sleep(0.2)  # a gap past the ping interval: the host pings
            await peer.send({"t": "list_tables"})
            while (message := await peer.next()) is not None and message["t"] == "ping":
                pings += 1
            assert message is not None, "the host closed the connection, with no bye"
            assert message["t"] == "tables", message
            tables += 1
    assert tables == 8
    assert pings == 4  # one at each of the first four gaps, none past four unanswered
    assert await peer.stays_open()
    await peer.aclose()
    assert not [line for line in host_said(caplog) if "out of order" in line]


async def test_joining_and_leaving_over_and_over_keeps_the_hosts_memory_of_tokens_bounded(
    make_host: MakeHost,
) -> None:
    """3.6 (Memory): the host holds what it keeps to a bound. A table remembers the tokens it
    issued this run (3.3: a token of an earlier run is held to the journal it started from),
    but forgot a dead one only when its seat was resumed: a peer that joined and left again
    and again (twenty requests a second, forever) grew that memory by one token a join."""
    host = await make_host(bot_delay=30.0)  # the computer in the seat left plays slowly
    peer = await Peer.connect(host.port)
    await peer.hello()
    await peer.send(create(players=2, bots=1))
    table_id = (await peer.reply("table_created"))["table"]["id"]
    task = host.tables[table_id]
    for _ in range(20):
        await peer.send(join(table_id, seat=0))
        await peer.reply("joined")
        await peer.send({"t": "leave", "away": False})
        await peer.reply("left")
    # Every token but the last holder's is dead (3.3: eight at most per seat are good).
    assert len(task._issued) == 1, len(task._issued)
    await peer.aclose()


@pytest.mark.parametrize("pings", [2, 4, 5])
async def test_pings_that_share_a_nonce_are_each_answered(
    make_host: MakeHost, caplog: pytest.LogCaptureFixture, pings: int
) -> None:
    """3.1, 3.6: each `ping` is answered by a `pong` with its nonce, and at most four are
    unanswered; nothing says two pings in flight need two nonces. Two pings sharing one in a
    write got no pong at all: the host counted them as one unanswered ping, so its own state
    machine refused the second pong, the connection ended with no `bye`, and the host's log
    said, as an ERROR, "host sent out of order: pong 7 answers no ping" (any peer could fill
    the log so). Now they count as the pings they are: up to four get their pongs, a fifth
    the four pongs then `bye rate_limited`, as with distinct nonces."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    host = await make_host()
    peer = await Peer.connect(host.port)
    await peer.hello()
    await peer.send_raw(packed({"t": "ping", "nonce": 7}) * pings)
    if pings <= 4:
        assert [(await peer.reply("pong"))["nonce"] for _ in range(pings)] == [7] * pings
        assert await peer.stays_open()
        await peer.aclose()
    else:
        ending = await peer.ending()
        assert [(m["t"], m["nonce"]) for m in ending.before] == [("pong", 7)] * 4
        assert ending.reason == "rate_limited"
    assert not [line for line in host_said(caplog) if "out of order" in line]


@pytest.mark.parametrize("how", ["join refused", "resume refused", "after leaving"])
async def test_a_deal_failed_bye_from_a_connection_holding_no_seat_stops_no_table(
    make_host: MakeHost, how: str
) -> None:
    """3.8: `bye deal_failed` from a seated player makes the host tell the table why the seat
    left. From a connection that had asked the table for something and held no seat there (a
    `join` refused, even for a wrong password; a `resume` refused; a seat it left), the table
    made an `error` answering a `bye`, a message no `error` may name: that raised inside the
    table's task, which stopped the table as on a host fault, ending every player's connection
    with `bye internal`. Anyone on the LAN could so stop any table, password or not."""
    host = await make_host(bot_delay=0.2)
    ada = await SeatedPeer.connect(host.port)
    await ada.hello()
    await ada.send(create(players=2, bots=1))
    table_id = (await ada.reply("table_created"))["table"]["id"]
    await ada.sit(table_id, name="Ada")
    await ada.follow(lambda seat: seat.dealt, timeout=10)
    mallory = await Peer.connect(host.port)
    await mallory.hello()
    if how == "join refused":
        await mallory.send(join(table_id, seat=ada.seat_no, name="Mallory"))
        assert (await mallory.reply("error"))["code"] == "seat_taken"
    elif how == "resume refused":
        resume = {"t": "resume", "table_id": table_id, "seat": 0, "token": bytes(16)}
        await mallory.send({**resume, "last_seq": 0})
        assert (await mallory.reply("error"))["code"] == "bad_token"
    else:
        opener = await Peer.connect(host.port)
        await opener.hello()
        await opener.send(create(players=2))
        other = (await opener.reply("table_created"))["table"]["id"]
        await mallory.send(join(other, name="Mallory"))
        await mallory.reply("snapshot")
        await mallory.send({"t": "leave", "away": False})
        await mallory.reply("left")
        table_id = other
        await opener.aclose()
    await mallory.send({"t": "bye", "reason": "deal_failed", "message": "round 1: a lie"})
    assert (await mallory.ending()).bye is None  # it said bye: nothing comes back
    assert table_id in host.tables
    assert await ada.stays_open()
    await ada.follow(lambda seat: seat.my_turn, timeout=10)
    card, takes = ada.legal()
    await ada.send({"t": "play", "move_id": 1, "after": ada.last_seq, "card": card,
                    "captured": takes})  # fmt: skip
    assert (await ada.reply("ack", "reject"))["t"] == "ack"
    await ada.aclose()


async def test_the_words_of_a_deal_failed_bye_reach_the_hosts_log_cleaned(
    make_host: MakeHost, caplog: pytest.LogCaptureFixture
) -> None:
    """3.3 (Names), 3.8: the host makes what a peer says safe before anyone reads it. The
    message of a seated player's `bye deal_failed` went into the host's log as sent: the codec
    refuses controls, but not a bidi override, a line separator or a zero-width space, so a
    peer could turn round or break the line its organiser reads (the table's chat had it
    cleaned)."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    host = await make_host(bot_delay=5.0)
    ada = await SeatedPeer.connect(host.port)
    await ada.hello()
    await ada.send(create(players=2, bots=1))
    table_id = (await ada.reply("table_created"))["table"]["id"]
    await ada.sit(table_id, name="Ada")
    said = "round 1: \u202eelbat\u202c the\u2028deck\u200b was \u2066wrong\u2069"
    await ada.send({"t": "bye", "reason": "deal_failed", "message": said})
    await ada.ending()
    with trio.fail_after(5):
        while not [line for line in host_said(caplog) if "deal check failed" in line]:
            await trio.sleep(0.01)
    (line,) = [line for line in host_said(caplog) if "deal check failed" in line]
    assert line.endswith(
        "Ada left: the deal check failed at their seat (round 1: elbat the deck was wrong)"
    )


async def test_the_host_forgets_an_address_once_its_last_connection_is_closed(
    make_host: MakeHost,
) -> None:
    """3.6 (Connections, Memory): the host counts the connections from each address, to
    refuse the 33rd. It kept a count of 0 for every address it had ever heard from, so peers
    coming from ever new addresses (an IPv6 host listening on `::` hears from as many as a
    LAN's /64 holds) grew that memory without end. Here fifty loopback addresses connect,
    say hello and go."""
    host = await make_host()
    for last in range(2, 52):
        sock = trio.socket.socket()
        await sock.bind((f"127.0.0.{last}", 0))
        await sock.connect(("127.0.0.1", host.port))
        peer = Peer(trio.SocketStream(sock))
        await peer.hello()
        await peer.aclose()
    with trio.fail_after(5):
        while host._sessions:
            await trio.sleep(0.01)
    assert dict(host._per_address) == {}


async def test_connections_refused_in_a_burst_are_logged_once_then_counted(
    make_host: MakeHost, caplog: pytest.LogCaptureFixture
) -> None:
    """3.6 (Connections): past its limit the host refuses a connection with `bye
    too_many_connections`. It also wrote a line to its log for every one refused, so a peer
    opening connection after connection filled its organiser's screen as fast as it could
    connect. The first refusal of a burst is logged, the rest counted, and the count said
    once the host takes a connection again."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    host = await make_host(max_connections_per_address=2)
    held = [await Peer.connect(host.port) for _ in range(2)]
    for peer in held:
        await peer.hello()
    for _ in range(30):
        refused = await Peer.connect(host.port)
        assert (await refused.ending()).reason == "too_many_connections"
    await held.pop().aclose()
    with trio.fail_after(5):
        while len(host._sessions) > 1:
            await trio.sleep(0.01)
    again = await Peer.connect(host.port)
    await again.hello()
    said = [line for line in host_said(caplog) if "refused" in line]
    assert len(said) == 2, said
    assert said[0].endswith("refused: at most 2 connections from one address")
    assert said[1] == "29 more connections refused since (at most 2 connections from one address)"
    await again.aclose()
    await held[0].aclose()


async def test_two_connections_racing_for_the_last_seat_one_sits_the_other_is_told(
    make_host: MakeHost,
) -> None:
    """3.3: a `join` for a seat not open is `seat_taken`, and with seat nil at a table with
    none open `table_full`; either leaves the connection in the lobby. Two joins for the
    last seat, written at once on two connections (one naming it, one not), five times over:
    one sits, the other is refused and stays, and the seat is held once. (Found nothing.)"""
    host = await make_host(bot_delay=30.0)
    owner = await Peer.connect(host.port)
    await owner.hello()
    for _ in range(5):
        await owner.send(create(players=3, bots=1))
        table_id = (await owner.reply("table_created"))["table"]["id"]
        await owner.send(join(table_id, seat=0, name="Owner"))
        await owner.reply("snapshot")
        racers = [await Peer.connect(host.port) for _ in range(2)]
        for peer in racers:
            await peer.hello()
        async with trio.open_nursery() as race:
            race.start_soon(racers[0].send, join(table_id, seat=None, name="Nil"))
            race.start_soon(racers[1].send, join(table_id, seat=1, name="One"))
        answers = [await peer.reply("joined", "error") for peer in racers]
        assert sorted(a["t"] for a in answers) == ["error", "joined"], answers
        (refusal,) = [a for a in answers if a["t"] == "error"]
        assert (refusal["code"], refusal["message"]) in {
            ("table_full", f"table {table_id} has no open seat"),
            ("seat_taken", "seat 1 is taken"),
        }, refusal
        loser = racers[answers.index(refusal)]
        assert await loser.stays_open()
        seats = host.tables[table_id].table.seats
        assert [s.kind.value for s in seats] == ["human", "human", "bot"]
        for peer in racers:
            await peer.aclose()
        await owner.send({"t": "leave", "away": False})
        await owner.reply("left")
    await owner.aclose()
