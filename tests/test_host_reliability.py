"""The host under bad networks and bad peers, over real loopback TCP (RELIABILITY.md).

Each test states its pass criterion in its docstring. The CI runs a few seeds; ``--runslow``
runs many more.
"""

from __future__ import annotations

import contextlib
import random

import msgpack
import pytest
import trio
import trio.testing
from faultproxy import FaultProxy
from hosting import MakeHost, create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    NetworkSession,
    SessionError,
    TableChoice,
    connect,
    open_network_session,
)
from scopa_net.client.session import MatchOver
from scopa_net.dealing import TABLE, seat_positions
from scopa_net.fair.verifier import verify_transcript
from scopa_net.mirror import dealer_from_positions
from scopa_net.plays import Play
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import Phase
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.errors import ErrorCode, LocalProtocolError
from scopa_net.wire.framing import FrameReader

FAST = {
    "handshake_timeout": 0.5,
    "frame_timeout": 0.5,
    "heartbeat_interval": 0.3,
    "silence_timeout": 1.0,
    "send_timeout": 0.5,
    "max_lag": 40,
}


def seed_cases(short: int, long: int) -> list:
    """Seeds 0..long-1 as test cases; those from ``short`` on run only with ``--runslow``."""
    return [*range(short), *(pytest.param(s, marks=pytest.mark.slow) for s in range(short, long))]


class RecordingBot:
    """Plays a seat with a computer player and remembers every move the host acknowledged."""

    def __init__(self, session: NetworkSession, level: str, seed: int) -> None:
        self.session = session
        self.player = make_player(level, seed)
        self.acked: list[tuple[int, int]] = []  # (round number, card index)

    async def run(self) -> MatchOver | None:
        session = self.session
        original = session.submit

        async def submit(play: object) -> object:
            view = session.view
            record = await original(play)  # type: ignore[arg-type]
            assert view is not None
            self.acked.append((view.round_number, record.play.card.index))
            return record

        session.submit = submit  # type: ignore[method-assign]
        return await play_as_bot(session, self.player)


def plays_by_round(session: NetworkSession) -> dict[int, list[int]]:
    """Card indices each round's transcript shows played, by the round's own number (a void
    deal has a number too, so counting the rounds with plays would shift the ones after it)."""
    assert session.witness is not None
    return {
        record.round_no: [p.code & 63 for p in record.plays]
        for record in session.witness.transcript().rounds
    }


@pytest.mark.parametrize("seed", seed_cases(3, 25))
async def test_connections_cut_at_random_points_lose_and_repeat_nothing(
    seed: int, make_host: MakeHost, nursery: trio.Nursery
) -> None:
    """Pass: every game finishes; each client's final view equals the host's; every
    acknowledged move is in the record exactly once; every round verifies."""
    rng = random.Random(seed)
    # The chaos below resumes the seat every 1-12 events, which a fast host gets through
    # more than resume_burst times in resume_window: this test is about cuts, not that limit.
    host = await make_host(bot_delay=0.005, resume_burst=1000)
    proxy = FaultProxy(host.port, seed=seed)
    await nursery.start(proxy.serve)
    rules = RuleSet.of(2, 3)
    choice = TableChoice(create=create(rules, bots=1))

    async def chaos(
        session: NetworkSession, proxy: FaultProxy = proxy, rng: random.Random = rng
    ) -> None:
        """Cut every connection after a random number (1-12) of new events."""
        while True:
            start = session.mirror.seq if session.mirror else 0
            wait_for = rng.randint(1, 12)
            while (session.mirror.seq if session.mirror else 0) < start + wait_for:
                await trio.sleep(0.002)
            proxy.cut_all()

    with trio.fail_after(60):
        async with open_network_session("127.0.0.1", proxy.port, choice, name="ann") as session:
            nursery.start_soon(chaos, session)
            bot = RecordingBot(session, "greedy", seed)
            result = await bot.run()
    assert result is not None
    assert proxy.cuts > 0
    table = host.tables[session.table_id].table
    assert session.mirror is not None
    assert session.mirror.view == table.view_for(session.seat)
    played = plays_by_round(session)
    for round_no, card in bot.acked:
        assert played[round_no].count(card) == 1
    assert verify_transcript(session.witness.transcript()).ok
    assert session.verdict_failures == []


async def test_a_match_through_a_proxy_that_slices_frames_into_pieces(
    host: Host, nursery: trio.Nursery
) -> None:
    """Pass: frames cut into 1-7 byte pieces give a whole match that verifies, as unsliced."""
    proxy = FaultProxy(host.port, slice_bytes=True, seed=3)
    await nursery.start(proxy.serve)
    with trio.fail_after(60):
        async with open_network_session(
            "127.0.0.1",
            proxy.port,
            TableChoice(create=create(RuleSet.of(2, 3), bots=1)),
            name="ann",
        ) as session:
            result = await play_as_bot(session, make_player("random", 3))
    assert result is not None
    assert session.verdict_failures == []
    assert verify_transcript(session.witness.transcript()).ok


async def test_no_client_ever_receives_another_seats_hidden_card() -> None:
    """Pass: across whole 4-player matches, every byte each client received is decoded, and
    no card reaches a seat before it is its own or public (dealt face up, or played)."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery)
        proxy = FaultProxy(host.port, capture=True)
        await nursery.start(proxy.serve)
        rules = RuleSet.of(4, 4)
        sessions: list[NetworkSession] = []

        async def player(n: int, choice: TableChoice) -> None:
            async with open_network_session("127.0.0.1", proxy.port, choice, name=f"p{n}") as s:
                sessions.append(s)
                await play_as_bot(s, make_player("greedy", n))

        with trio.fail_after(90):
            async with open_network_session(
                "127.0.0.1", proxy.port, TableChoice(create=create(rules)), name="p0"
            ) as first:
                sessions.append(first)
                async with trio.open_nursery() as players:
                    for n in (1, 2, 3):
                        players.start_soon(player, n, TableChoice(table_id=first.table_id))
                    await play_as_bot(first, make_player("greedy", 0))
        nursery.cancel_scope.cancel()
    checked = 0
    for stream in proxy.captured:
        reader = FrameReader()
        reader.receive_data(bytes(stream))
        messages = []
        while isinstance(payload := reader.next_frame(), bytes):
            messages.append(decode(payload))
        checked += check_no_hidden_cards(rules, messages)
    assert checked >= 4


def check_no_hidden_cards(rules: RuleSet, messages: list[m.Message]) -> int:
    """Replay one client's messages; returns 1 if it was a seated client, else 0."""
    seat = next((x.seat for x in messages if isinstance(x, m.Joined)), None)
    if seat is None:
        return 0
    known: set[int] = set()
    for msg in messages:
        if isinstance(msg, m.RoundCommit):
            known = set()
            dealer = None
        elif isinstance(msg, m.Deal):
            if msg.table:  # the first deal of a round tells us the dealer
                dealer = dealer_from_positions(rules, seat, {c.pos for c in msg.hand})
            assert dealer is not None
            assert {c.pos for c in msg.hand} <= set(seat_positions(rules, dealer, seat))
            assert {c.pos for c in msg.table} <= set(seat_positions(rules, dealer, TABLE))
            known |= {c.card for c in msg.hand} | {c.card for c in msg.table}
        elif isinstance(msg, m.Played):
            taken = {i for i in range(40) if msg.captured >> i & 1}
            assert taken <= known, "a capture named cards this seat never saw on the table"
            if msg.seat == seat:
                assert msg.card in known
            known.add(msg.card)
        elif isinstance(msg, m.Snapshot):
            known |= set(msg.hand) | set(msg.table)
    return 1


async def test_two_resumes_racing_for_one_seat(host: Host, nursery: trio.Nursery) -> None:
    """Pass: both racing resumes are answered in turn; the newer holds the seat and the older
    is told it was superseded and closed; a legal move sent from the stale connection is not
    applied, while the same move from the connection holding the seat is."""
    choice = TableChoice(create=create(RuleSet.of(2, 5), bots=1))
    session = NetworkSession("127.0.0.1", host.port, choice, name="ann")
    nursery.start_soon(session.run)
    await session.connected.wait()
    task = host.tables[session.table_id]
    token, seat = session._token, session.seat
    # Wait for ann's turn in play, so that a move from her seat would be legal.
    with trio.fail_after(20):
        while not (
            task.table.phase is Phase.PLAY
            and task.table.match is not None
            and task.table.match.round is not None
            and task.table.match.round.turn == seat
        ):
            await trio.sleep(0.01)
    links = []
    for _ in range(2):
        link, _ = await connect("127.0.0.1", host.port)
        links.append(link)
    resume = m.Resume(table_id=session.table_id, seat=seat, token=token, last_seq=0)
    async with trio.open_nursery() as racing:
        for link in links:
            racing.start_soon(link.send, resume)
    answers = []
    for link in links:
        with trio.fail_after(5):
            while True:
                msg = await link.receive()
                if isinstance(msg, m.Resumed | m.Error | m.Bye):
                    answers.append(msg)
                    break
    # The token presented was the newest, and its successor unused when the second
    # resume came: both are answered, each with its own epoch.
    assert [type(a) for a in answers] == [m.Resumed, m.Resumed], answers
    epochs = [a.epoch for a in answers]  # type: ignore[attr-defined]
    assert len(set(epochs)) == 2
    winner = epochs.index(max(epochs))
    loser = links[1 - winner]
    with trio.fail_after(5):
        while not isinstance(msg := await loser.receive(), m.Bye):
            pass
    assert msg.reason == ErrorCode.SUPERSEDED.value
    rnd = task.table.match.round
    history = list(rnd.history)
    assert rnd.turn == seat
    play = Play.from_code(rnd.legal_codes()[0])
    move = {"after": task.table.seats[seat].seq, "card": play.card.index}
    move["captured"] = play.captured_mask
    # The stale connection sends a legal move anyway (raw bytes: our codec would refuse to).
    stale = encode(m.Play(move_id=7, **move))
    with trio.move_on_after(0.5), contextlib.suppress(trio.BrokenResourceError):
        await loser.stream.send_all(stale)
    # The same move from the connection holding the seat is accepted: the stale one was
    # not applied before it, and cannot be after it (the turn has passed). The holder first
    # reads the events replayed to it, as a client does before it chooses a move.
    with trio.fail_after(5):
        while getattr(await links[winner].receive(), "seq", -1) < move["after"]:
            pass
    await links[winner].send(m.Play(move_id=8, **move))
    with trio.fail_after(5):
        while not isinstance(reply := await links[winner].receive(), m.Ack | m.Reject):
            pass
    assert isinstance(reply, m.Ack), reply
    assert reply.move_id == 8, reply
    assert not reply.duplicate, reply
    # Exactly one move of this seat was applied (the bot may have answered it since).
    new = [h for h in rnd.history if h not in history]
    assert [h[:2] for h in new if h[0] == seat] == [(seat, play.code)], new
    assert new[0][:2] == (seat, play.code)
    assert task.table.seats[seat].moves.keys() >= {8}
    assert 7 not in task.table.seats[seat].moves
    for link in links:
        await link.aclose()


async def test_bad_tokens_are_refused_and_never_seat_anyone(host: Host) -> None:
    """Pass: wrong, expired and already-rotated tokens get `bad_token`, an empty one closes
    the connection as a bad field; the table's seats are unchanged by all of them."""
    choice = TableChoice(create=create(RuleSet.of(3, 5), bots=1))
    async with open_network_session("127.0.0.1", host.port, choice, name="ann") as session:
        table = host.tables[session.table_id].table
        before = [(s.kind, s.name) for s in table.seats]
        first_token = session._token

        async def resume(token: bytes, seat: int) -> m.Message:
            link, _ = await connect("127.0.0.1", host.port)
            try:
                await link.send(
                    m.Resume(table_id=session.table_id, seat=seat, token=token, last_seq=0)
                )
                with trio.fail_after(5):
                    while True:
                        msg = await link.receive()
                        if isinstance(msg, m.Resumed | m.Error | m.Bye):
                            return msg
            finally:
                await link.aclose()

        wrong = await resume(b"\x00" * 16, session.seat)
        assert isinstance(wrong, m.Error)
        assert wrong.code == "bad_token"
        open_seat = await resume(first_token, 1)
        assert isinstance(open_seat, m.Error)
        assert open_seat.code == "bad_token"
        # Rotate twice: the first token is then dead.
        for _ in range(2):
            ok = await resume(session._token if _ else first_token, session.seat)
            assert isinstance(ok, m.Resumed)
            session._token = ok.token
        rotated = await resume(first_token, session.seat)
        assert isinstance(rotated, m.Error)
        assert rotated.code == "bad_token"
        # An empty token cannot even be sent through our codec; send it raw.
        link, _ = await connect("127.0.0.1", host.port)
        raw = msgpack.packb(
            {
                "t": "resume",
                "table_id": session.table_id,
                "seat": 0,
                "token": b"",
                "last_seq": 0,
            }
        )
        await link.stream.send_all(len(raw).to_bytes(4, "big") + raw)
        with trio.fail_after(5):
            bye = await link.receive()
        await link.aclose()
        assert isinstance(bye, m.Bye)
        assert bye.reason == "bad_field"
        assert [(s.kind, s.name) for s in table.seats] == before


async def _expect_closed(
    port: int, payload: bytes, *, drip: float = 0.0, within: float = 3.0
) -> str:
    """Send ``payload`` (a byte at a time every ``drip`` seconds) while reading; returns the
    reason of the host's ``bye`` (or "reset"/"closed"), and fails unless the host ends the
    connection within ``within`` seconds."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    received = bytearray()
    reset = False

    async def send() -> None:
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            if drip:
                for b in payload:
                    await stream.send_all(bytes([b]))
                    await trio.sleep(drip)
            else:
                await stream.send_all(payload)

    try:
        with trio.fail_after(within):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(send)
                while True:
                    try:
                        data = await stream.receive_some(65536)
                    except trio.BrokenResourceError:
                        reset, data = True, b""
                    if not data:
                        break
                    received += data
                nursery.cancel_scope.cancel()
    finally:
        await trio.aclose_forcefully(stream)
    reader = FrameReader()
    reader.receive_data(bytes(received))
    last = "reset" if reset else "closed"
    while isinstance(frame := reader.next_frame(), bytes):
        msg = decode(frame)
        if isinstance(msg, m.Bye):
            last = msg.reason
    return last


async def test_hostile_peers_are_closed_within_their_limits_while_tables_play_on(
    make_host: MakeHost,
) -> None:
    """Pass: silence, a byte-a-second hello, a 2^31 length prefix, deep nesting and garbage
    are each closed within their limit, and a bot match at another table finishes meanwhile.

    The smoke test over real TCP, with shrunk limits and a generous bound; the exact moment
    each peer is closed, at the host's real settings, is checked in virtual time in
    test_host_limits_virtual.py (with the client that stops reading)."""
    host = await make_host(**FAST)
    port = host.port
    results: list[object] = []

    async def honest_match() -> None:
        async with open_network_session(
            "127.0.0.1", port, TableChoice(create=create(RuleSet.of(2, 3), bots=1)), name="ok"
        ) as session:
            results.append(await play_as_bot(session, make_player("random", 1)))

    hello = m.Hello(version=m.PROTOCOL_VERSION, client="slow")

    async with trio.open_nursery() as attacks:
        attacks.start_soon(honest_match)
        outcomes = {}

        async def attack(name: str, payload: bytes, drip: float = 0.0) -> None:
            outcomes[name] = await _expect_closed(port, payload, drip=drip)

        attacks.start_soon(attack, "silent", b"")
        # Says hello, then nothing: never answers a ping.
        attacks.start_soon(attack, "mute", encode(hello))
        attacks.start_soon(attack, "drip", encode(hello), 0.2)
        attacks.start_soon(attack, "huge", (2**31).to_bytes(4, "big"))
        deep = b"\x91" * 20000 + b"\x00"
        attacks.start_soon(attack, "deep", len(deep).to_bytes(4, "big") + deep)
        attacks.start_soon(attack, "garbage", b"\x00\x00\x00\x05\xc1\xc1\xc1\xc1\xc1")
    assert outcomes["silent"] == "timeout"
    assert outcomes["mute"] == "timeout"
    # The host closes with unread dribble in its buffer, so TCP may reset before the bye.
    assert outcomes["drip"] in ("timeout", "reset")
    assert outcomes["huge"] == "bad_frame"
    assert outcomes["deep"] in ("bad_frame", "bad_field")
    assert outcomes["garbage"] in ("bad_frame", "bad_field")
    assert results
    assert results[0] is not None


async def test_a_full_table_and_five_players_get_clear_errors(host: Host) -> None:
    """Pass: joining a full table says so; a five-player table cannot even be asked for."""
    async with open_network_session(
        "127.0.0.1", host.port, TableChoice(create=create(RuleSet.of(2), bots=1)), name="a"
    ) as first:
        with pytest.raises(SessionError, match="table_full"):
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=first.table_id), name="b"
            ):
                pass
    with pytest.raises(LocalProtocolError, match="5 players"):
        m.RulesInfo(players=5, target=11, variants=())
