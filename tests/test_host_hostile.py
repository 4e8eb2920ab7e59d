"""What an outside auditor found attacking a real host from protocol.md alone, over loopback TCP.

Each test pins one statement of the document (section numbers in the docstrings) that the host
did not keep, or that the document left unsaid, with the bytes the auditor sent.
"""

from __future__ import annotations

import logging
import secrets

import msgpack
import pytest
import trio
from hosting import MakeHost, create
from rawseat import RawSeat

from scopa_net.client.network_session import FORFEIT, NetworkSession, TableChoice
from scopa_net.client.session import Message
from scopa_net.fair.commitments import seat_commitment
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.framing import FrameReader


async def all_closed(host: Host) -> None:
    """Wait until the host has finished with every connection (logged all it will)."""
    with trio.fail_after(10):
        while host._sessions:
            await trio.sleep(0.01)


async def test_answers_owed_before_a_peers_bye_are_dropped_quietly(
    make_host: MakeHost, caplog: pytest.LogCaptureFixture
) -> None:
    """3.1: a ``bye`` ends the connection at once, and the answers owed to the frames before it
    in the same burst are dropped. They were, but each ``pong`` so dropped wrote an ERROR line
    ("host sent out of order") to the host's log: any peer could fill it."""
    caplog.set_level(logging.DEBUG, logger="scopa_net.host")
    host = await make_host()
    raw = await RawSeat.connect(host.port)
    await raw.stream.send_all(
        encode(m.Ping(nonce=7)) + encode(m.Bye(reason="quit", message="goodbye"))
    )
    assert await raw.stream.receive_some(65536) == b""  # no pong, no bye: it said bye first
    await raw.aclose()
    await all_closed(host)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert errors == []
    assert any("pong dropped in state closed" in r.getMessage() for r in caplog.records)


async def answers_to(port: int, data: bytes) -> list[m.Message]:
    """Everything the host sends after ``welcome`` in answer to ``data`` (written at once),
    until it closes the connection."""
    raw = await RawSeat.connect(port)
    await raw.stream.send_all(data)
    received = bytearray()
    with trio.fail_after(10):
        while chunk := await raw.stream.receive_some(65536):
            received += chunk
    await raw.aclose()
    reader = FrameReader()
    reader.receive_data(bytes(received))
    messages = []
    while isinstance(frame := reader.next_frame(), bytes):
        messages.append(decode(frame))
    return messages


def kinds(messages: list[m.Message]) -> list[str]:
    return [f"bye {x.reason}" if isinstance(x, m.Bye) else x.TYPE for x in messages]


async def test_a_fifth_ping_in_one_write_gets_the_four_pongs_owed_then_bye(host: Host) -> None:
    """3.1, 3.6: a fifth ``ping`` while four are unanswered is ``rate_limited``. Five in one
    write got the bye and not one pong: the host read all five before it wrote anything, and
    on closing dropped the four answers it owed. A ping counts as unanswered until the host has
    written its pong; the four owed go out before the bye."""
    five = b"".join(encode(m.Ping(nonce=n)) for n in range(5))
    answers = await answers_to(host.port, five)
    assert kinds(answers) == ["pong"] * 4 + ["bye rate_limited"]
    assert [x.nonce for x in answers[:4]] == [0, 1, 2, 3]  # type: ignore[attr-defined]
    four = b"".join(encode(m.Ping(nonce=n)) for n in range(4)) + encode(
        m.Bye(reason="quit", message="")
    )
    assert await answers_to(host.port, four) == []  # the peer's own bye: owed answers dropped


@pytest.mark.parametrize(
    ("after", "reason"),
    [(b"\0\0\0\0", "bad_frame"), (encode(m.ListTables()), "out_of_order")],
    ids=["a bad frame", "a second list_tables"],
)
async def test_the_host_sends_what_it_owes_before_its_own_bye(
    host: Host, after: bytes, reason: str
) -> None:
    """3.1: a ``list_tables`` followed in the same write by a frame the host refuses got only
    the ``bye``: the ``tables`` owed to the first frame was lost. It now goes first."""
    answers = await answers_to(host.port, encode(m.ListTables()) + after)
    assert kinds(answers) == ["tables", f"bye {reason}"]


async def test_a_stream_cut_inside_a_frame_is_a_bad_frame(
    host: Host, caplog: pytest.LogCaptureFixture
) -> None:
    """1, 3.8: "a connection that closes in the middle of a frame has sent a ``bad_frame``".
    The host answered the auditor's cut frame (a length of 19, then 4 bytes, then the write
    side shut) with ``bye quit`` and logged nothing: it took the cut for a peer leaving."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    raw = await RawSeat.connect(host.port)
    await raw.stream.send_all(bytes.fromhex("00000013 82a174a4"))
    await raw.stream.send_eof()  # type: ignore[attr-defined]
    bye = await raw.until(lambda msg: isinstance(msg, m.Bye))
    assert bye.reason == "bad_frame"  # type: ignore[attr-defined]
    await raw.aclose()
    await all_closed(host)
    said = [r.getMessage() for r in caplog.records]
    assert any("bad_frame: stream ended inside a frame (4 of 19 bytes)" in x for x in said), said


async def test_a_forfeit_seat_is_taken_from_its_connection(
    make_host: MakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5.4: a seat with three bad reveals is forfeit: "a computer player takes it for the rest
    of the match ... and its token is dead". The host made the seat a bot's but left the
    offender's connection on it: it went on getting the seat's ``deal`` (its cards), its plays
    were acknowledged and its chat relayed as that seat. Now the connection gets the
    ``seat_status`` that says so, then ``left``, and nothing of the seat after. (One bad reveal
    forfeits here, to keep the test to one round.)"""
    monkeypatch.setattr("scopa_net.server.table.MAX_OFFENCES", 1)
    host = await make_host()
    raw = await RawSeat.connect(host.port, auto_seeds=False)
    table_id = await raw.create(create(RuleSet.of(2, 11), bots=1))
    await raw.join(table_id, 0)
    token = raw.token
    commit = await raw.until(lambda msg: isinstance(msg, m.RoundCommit))
    assert isinstance(commit, m.RoundCommit)
    seed = secrets.token_bytes(32)
    good = seat_commitment(commit.round_id, 0, seed)
    await raw.send(m.SeedCommit(round_id=commit.round_id, commit=good))
    await raw.until(lambda msg: isinstance(msg, m.SeedCommits))
    await raw.send(m.SeedReveal(round_id=commit.round_id, seed=bytes(32)))  # not that seed
    start = len(raw.received)
    await raw.until(lambda msg: isinstance(msg, m.Left))
    last = raw.received[start:]
    assert [x.TYPE for x in last] == ["seed_receipt", "seed_reveals", "seat_status", "left"]
    reveals, status, left = last[1:]
    assert isinstance(reveals, m.SeedReveals)
    assert reveals.excluded == ("bad_reveal", None)
    assert isinstance(status, m.SeatStatus)
    assert (status.seat, status.kind) == (0, "bot")
    assert left == m.Left(table_id=table_id, seat=0)
    # Back in the lobby: nothing more of the table comes (a table event here would be out of
    # order for the raw client's own state machine), and the lobby answers.
    await raw.send(m.ListTables())
    await raw.until(lambda msg: isinstance(msg, m.Tables))
    assert not any(isinstance(x, m.Deal) for x in raw.received)
    # A move or a line for the table is out of order now, and ends the connection.
    await raw.send_unchecked(m.Say(text="I am still here"))
    bye = await raw.until(lambda msg: isinstance(msg, m.Bye))
    assert bye.reason == "out_of_order"  # type: ignore[attr-defined]
    await raw.aclose()
    # The token is dead.
    again = await RawSeat.connect(host.port)
    assert token is not None
    await again.send(m.Resume(table_id=table_id, seat=0, token=token, last_seq=0))
    error = await again.until(lambda msg: isinstance(msg, m.Error))
    assert error.code == "bad_token"  # type: ignore[attr-defined]
    await again.aclose()


class LyingSession(NetworkSession):
    """Our own client, made to reveal another seed than the one it committed to."""

    async def _table_event(self, e: m.Message) -> bool:
        over = await super()._table_event(e)
        if isinstance(e, m.RoundCommit):
            self._seed = bytes(32)  # after its commitment went
        return over


async def test_the_client_tells_its_person_the_seat_is_forfeit(
    make_host: MakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5.4: the real client, on its seat's forfeit and the ``left`` after it, says why in one
    line and stops (it had said nothing, and played on as the bot's seat)."""
    monkeypatch.setattr("scopa_net.server.table.MAX_OFFENCES", 1)
    host = await make_host()
    choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
    session = LyingSession("127.0.0.1", host.port, choice, name="liar", check_deals=False)
    heard: list[str] = []

    async def listen() -> None:
        async for event in session.events:
            if isinstance(event, Message):
                heard.append(event.text)

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(listen)
            await session.run()  # returns: the host's left ends the session
    assert FORFEIT in heard
    assert FORFEIT.startswith("Your seat is forfeit: three of the seeds this client revealed")
    assert session.end_note == FORFEIT


async def test_a_control_character_in_text_is_bad_field(host: Host) -> None:
    """1, 3.8: text may hold no control character; the code for one is ``bad_field`` (the
    document named none)."""
    join = {"t": "join", "table_id": 1, "seat": None, "name": "a\nb", "password": None}
    body = msgpack.packb(join)
    answers = await answers_to(host.port, len(body).to_bytes(4, "big") + body)
    assert kinds(answers) == ["bye bad_field"]
    assert "control character" in answers[0].message  # type: ignore[attr-defined]


async def test_a_resume_for_a_seat_the_table_lacks_is_bad_token(host: Host) -> None:
    """3.3, 3.8: ``join`` for seat 5 at a 2-player table is ``seat_taken``; a ``resume`` for it
    is ``bad_token``, like any seat its token does not hold (the document did not say)."""
    raw = await RawSeat.connect(host.port)
    table_id = await raw.create(create(RuleSet.of(2, 11), bots=1))
    await raw.send(m.Resume(table_id=table_id, seat=5, token=bytes(16), last_seq=0))
    error = await raw.until(lambda msg: isinstance(msg, m.Error))
    assert (error.code, error.ref) == ("bad_token", "resume")  # type: ignore[attr-defined]
    await raw.send(m.Join(table_id=table_id, seat=5, name="ann", password=None))
    error = await raw.until(lambda msg: isinstance(msg, m.Error))
    assert (error.code, error.ref) == ("seat_taken", "join")  # type: ignore[attr-defined]
    await raw.aclose()


async def test_a_say_fails_its_first_check_in_the_documented_order(make_host: MakeHost) -> None:
    """3.7: the seat's chat rate is checked before the length: a 201-character line sent
    while over the rate is ``rate_limited``, later ``chat_too_long``; refused lines count
    toward no chat limit."""
    host = await make_host(chat_window=0.5, bot_delay=30.0)
    raw = await RawSeat.connect(host.port)
    await raw.join(await raw.create(create(RuleSet.of(2, 11), bots=1)), 0)
    long = "x" * 201

    async def say(text: str) -> str:
        await raw.send(m.Say(text=text))
        answer = await raw.until(
            lambda msg: (
                (isinstance(msg, m.Chat) and msg.seat == 0)
                or (isinstance(msg, m.Error) and msg.ref == "say")
            )
        )
        return answer.code if isinstance(answer, m.Error) else "chat"

    assert [await say(f"line {n}") for n in range(5)] == ["chat"] * 5
    assert await say(long) == "rate_limited"
    await trio.sleep(0.6)
    assert await say(long) == "chat_too_long"
    assert [await say(f"again {n}") for n in range(5)] == ["chat"] * 5  # none counted
    await raw.aclose()
