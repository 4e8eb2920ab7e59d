"""Playing again after a match (protocol.md 3.11), over loopback TCP: network clients and a
computer player agree, a new match begins with a fresh chain; a decline, a leave or the end of
the linger time closes the table and sends every seated connection back to the lobby."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import partial

import pytest
import trio
import trio.testing
from hosting import MakeHost, create, serve_then_close, start_memory_host
from person_screen import PersonScreen
from rawseat import RawSeat

from scopa_net.bots.levels import make_player
from scopa_net.client.asking import Asking
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.session import Message, RoundStarted
from scopa_net.fair.commitments import ZERO_CHAIN
from scopa_net.fair.transcript import decode
from scopa_net.fair.verifier import verify_transcript
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m

SHORT = RuleSet.of(2, 1)
"""A match to 1 point: over after a round or two."""


async def heard(session: NetworkSession, text: str) -> None:
    with trio.fail_after(20):
        async for event in session.events:
            if isinstance(event, Message) and text in event.text:
                return
    raise AssertionError(f"the session ended before {text!r}")


async def test_a_player_and_a_computer_play_again_with_a_fresh_chain(
    tmp_path, make_host: MakeHost
) -> None:
    host = await make_host(bot_delay=0.01)
    choice = TableChoice(create=create(SHORT, bots=1))
    async with open_network_session(
        "127.0.0.1", host.port, choice, name="ann", data_dir=tmp_path, offer_rematch=True
    ) as session:
        first = await play_as_bot(session, make_player("random", 1))
        assert first is not None
        first_witness = session.witness
        await session.rematch(True)
        # The bot agreed from the start: one answer is enough.
        await heard(session, "a new match begins")
        assert session.match_no == 2
        assert session.view is None  # nothing dealt yet in the new match
        with trio.fail_after(20):
            async for event in session.events:
                if isinstance(event, RoundStarted):
                    break
        # The round that started, as the event saw it (the session may be on to the next
        # already: a random deal is void about once in 600, and the same dealer deals again).
        view = event.view
        assert view.round_number == 1
        assert view.scores == (0, 0)
        assert session.witness is not first_witness
        assert session.witness.opened_rounds()[1].prev == ZERO_CHAIN
        second = await play_as_bot(session, make_player("random", 2))
        assert second is not None
        assert session.verdict_failures == []
        await session.rematch(False)
        await heard(session, "no rematch")
    files = sorted(p.name for p in (tmp_path / "transcripts").iterdir())
    assert len(files) == 2
    assert files[0].endswith("-match2.scopa")
    for name in files:
        assert verify_transcript(decode((tmp_path / "transcripts" / name).read_bytes())).ok


async def _two_players_to_the_end(
    port: int, connect: Callable[[], Awaitable[RawSeat]] | None = None
) -> tuple[RawSeat, RawSeat]:
    """Two bare clients at a table of two, each playing its first legal play on its turn,
    until both have ``match_end``. ``connect`` opens a client (TCP to ``port`` by default)."""
    connect = connect or partial(RawSeat.connect, port)
    a = await connect()
    table_id = await a.create(create(SHORT))
    await a.join(table_id, 0, name="ann")
    b = await connect()
    await b.join(table_id, 1, name="bob")
    move = 0
    with trio.fail_after(60):
        while not all(any(isinstance(e, m.MatchEnd) for e in c.received) for c in (a, b)):
            for raw in (a, b):
                if raw.mirror is not None and raw.view.my_turn and raw.my_plays():
                    move += 1
                    await raw.play(move, raw.my_plays()[0])
            async with trio.open_nursery() as drain:
                for raw in (a, b):
                    drain.start_soon(_drain, raw)
    return a, b


async def _drain(raw: RawSeat) -> None:
    """Read whatever arrives in the next moment."""
    with trio.move_on_after(0.05):
        while True:
            await raw.receive()


async def test_two_players_agree_and_play_a_second_match(host: Host, nursery: trio.Nursery) -> None:
    a, b = await _two_players_to_the_end(host.port)
    # Before the match ends a rematch is refused; now it opens a vote.
    await a.send(m.Rematch(agree=True))
    opened = await b.until(lambda e: isinstance(e, m.RematchStatus))
    assert isinstance(opened, m.RematchStatus)
    assert (opened.state, opened.votes, opened.match_no) == ("open", ("yes", "waiting"), 1)
    assert 0 < opened.seconds <= 60
    await b.send(m.Rematch(agree=True))
    agreed = await a.until(lambda e: isinstance(e, m.RematchStatus) and e.state != "open")
    assert (agreed.state, agreed.votes, agreed.seconds) == ("agreed", ("yes", "yes"), 0)
    commit = await a.until(lambda e: isinstance(e, m.RoundCommit))
    assert commit.round_no == 1
    assert commit.prev == ZERO_CHAIN
    async with trio.open_nursery() as both:  # each must read to send its seeds
        for raw in (a, b):
            both.start_soon(raw.until, lambda e: isinstance(e, m.Deal))
    assert a.view.round_number == b.view.round_number == 1
    assert a.view.scores == b.view.scores == (0, 0)
    # The table is full and in play again: not listed.
    lobby = await RawSeat.connect(host.port)
    await lobby.send(m.ListTables())
    listing = await lobby.until(lambda e: isinstance(e, m.Tables))
    assert listing.tables == ()
    for raw in (a, b, lobby):
        await raw.aclose()


async def _memory_host(nursery: trio.Nursery) -> Callable[[], Awaitable[RawSeat]]:
    """An in-process host whose connections are memory streams (for virtual time)."""
    host = Host(HostConfig(db=":memory:", advertise=False), Journal(":memory:"))
    await nursery.start(partial(serve_then_close, host, listen=False))

    async def connect() -> RawSeat:
        client, server = trio.testing.memory_stream_pair()
        nursery.start_soon(host.handle_stream, server, "mem", "mem")
        return await RawSeat.over(client)

    return connect


async def _until_left(*raws: RawSeat) -> None:
    """Every client reads (answering pings) until the host sends it ``left``."""
    async with trio.open_nursery() as both:
        for raw in raws:
            both.start_soon(partial(raw.until, lambda e: isinstance(e, m.Left), timeout=120))


@pytest.mark.parametrize("how", ["decline", "leave"])
async def test_a_decline_or_a_leave_ends_the_vote_and_the_table_closes_on_time(
    how: str, autojump_clock: trio.testing.MockClock
) -> None:
    """In virtual time: a "no" (or a leave) declines at once; the table still lingers for the
    rest of its 60 s, then every seated connection gets ``left``, after every event of its
    seat, and is back in the lobby, where the table is gone."""
    async with trio.open_nursery() as nursery:
        connect = await _memory_host(nursery)
        a, b = await _two_players_to_the_end(0, connect)
        ended = trio.current_time()
        await a.send(m.Rematch(agree=True))
        await b.until(lambda e: isinstance(e, m.RematchStatus))
        if how == "decline":
            await b.send(m.Rematch(agree=False))
        else:
            await b.send(m.Leave())
            await b.until(lambda e: isinstance(e, m.Left))
        declined = await a.until(lambda e: isinstance(e, m.RematchStatus) and e.state != "open")
        assert (declined.state, declined.votes) == ("declined", ("yes", "no"))
        assert trio.current_time() - ended < 5
        await a.send(m.Rematch(agree=True))  # the vote is over: no second one
        refused = await a.until(lambda e: isinstance(e, m.Error))
        assert (refused.code, refused.ref) == ("wrong_phase", "rematch")
        seated = (a, b) if how == "decline" else (a,)  # b left already
        await _until_left(*seated)
        assert 59 <= trio.current_time() - ended <= 61
        for raw in seated:
            assert raw.received[-1] == m.Left(table_id=raw.table_id, seat=raw.seat)
        # Back in the lobby: the connection can ask for tables; the table is gone.
        await a.send(m.ListTables())
        await a.until(lambda e: isinstance(e, m.Tables))
        await a.send(m.Resume(table_id=a.table_id, seat=0, token=a.token, last_seq=a.seq))
        error = await a.until(lambda e: isinstance(e, m.Error))
        assert error.code == "no_such_table"
        nursery.cancel_scope.cancel()


async def test_a_rematch_is_refused_before_the_match_ends(host: Host) -> None:
    raw = await RawSeat.connect(host.port)
    table_id = await raw.create(create(SHORT, bots=1))
    await raw.join(table_id, 0)
    await raw.send(m.Rematch(agree=True))
    error = await raw.until(lambda e: isinstance(e, m.Error))
    assert (error.code, error.ref) == ("wrong_phase", "rematch")
    await raw.aclose()


async def test_an_unanswered_vote_expires_and_the_table_closes(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """In virtual time: the vote stays open for the rest of the 60 s linger time, then is
    declined with the missing answer still ``waiting``, and both connections get ``left``."""
    async with trio.open_nursery() as nursery:
        connect = await _memory_host(nursery)
        a, b = await _two_players_to_the_end(0, connect)
        ended = trio.current_time()
        await trio.sleep(20)
        await a.send(m.Rematch(agree=True))
        opened = await b.until(lambda e: isinstance(e, m.RematchStatus))
        assert opened.state == "open"
        assert 38 <= opened.seconds <= 41
        await _until_left(a, b)
        for raw in (a, b):
            assert raw.received[-1] == m.Left(table_id=raw.table_id, seat=raw.seat)
            expired = [e for e in raw.received if isinstance(e, m.RematchStatus)][-1]
            assert (expired.state, expired.votes) == ("declined", ("yes", "waiting"))
        assert 59 <= trio.current_time() - ended <= 61
        nursery.cancel_scope.cancel()


async def test_two_network_clients_play_again_and_then_stop(
    host: Host, nursery: trio.Nursery
) -> None:
    """The client's side of 3.11 with two people: each is told who the vote waits for, both
    agree, both play the second match with every deal verified, and one "no" ends both."""
    choice = TableChoice(create=create(SHORT))
    async with (
        open_network_session("127.0.0.1", host.port, choice, name="ann", offer_rematch=True) as ann,
        open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(table_id=ann.table_id),
            name="bob",
            offer_rematch=True,
        ) as bob,
    ):
        for match in (1, 2):
            async with trio.open_nursery() as both:
                for n, session in enumerate((ann, bob)):
                    both.start_soon(play_as_bot, session, make_player("random", n))
            assert ann.match_no == bob.match_no == match
            if match == 1:
                await ann.rematch(True)
                await heard(bob, "rematch: waiting for you;")  # his own screen: not "bob"
                await bob.rematch(True)
                for session in (ann, bob):
                    await heard(session, "a new match begins")
        await bob.rematch(False)
        for session in (ann, bob):
            await heard(session, "no rematch")
        for session in (ann, bob):
            assert session.verdict_failures == []
            assert session.rounds_verified >= 2


async def test_a_player_who_drops_after_the_match_is_shown_away_and_can_still_answer(
    host: Host,
) -> None:
    a, b = await _two_players_to_the_end(host.port)
    table_id, token, last = b.table_id, b.token, b.seq
    await b.aclose()
    away = await a.until(lambda e: isinstance(e, m.SeatStatus) and e.seat == 1)
    assert (away.kind, away.connected, away.grace, away.stand_in) == ("human", False, 0, False)
    await a.send(m.Rematch(agree=True))
    opened = await a.until(lambda e: isinstance(e, m.RematchStatus))
    assert (opened.state, opened.votes) == ("open", ("yes", "waiting"))
    back = await RawSeat.connect(host.port)
    await back.send(m.Resume(table_id=table_id, seat=1, token=token, last_seq=last))
    await back.until(lambda e: isinstance(e, m.RematchStatus))  # replayed: the vote is open
    await back.send(m.Rematch(agree=True))
    agreed = await a.until(lambda e: isinstance(e, m.RematchStatus) and e.state != "open")
    assert agreed.state == "agreed"
    for raw in (a, back):
        await raw.aclose()


async def test_a_player_lost_as_the_match_ends_gets_no_stand_in_when_the_grace_runs_out(
    make_host: MakeHost,
) -> None:
    """One player's connection is lost after their last card of a round, and the other's last
    card ends the match inside the first one's grace period. When that grace period runs out
    the match is over: the other reads the lost player away with no grace and no computer
    standing in (protocol.md 3.11), never a stand-in announced after `match_end` (the host did
    that, now and then, in CI)."""
    host = await make_host(grace=0.4)
    seats = [await RawSeat.connect(host.port)]
    table_id = await seats[0].create(create(SHORT))
    await seats[0].join(table_id, 0, name="ann")
    seats.append(await RawSeat.connect(host.port))
    await seats[1].join(table_id, 1, name="bob")
    move = 0
    with trio.fail_after(60):
        while not any(isinstance(e, m.MatchEnd) for e in seats[0].received + seats[1].received):
            for n, raw in enumerate(seats):
                if raw.mirror is None or not raw.view.my_turn or not raw.my_plays():
                    continue
                other = seats[1 - n]
                last_but_one = raw.view.stock_count == 0 and raw.view.hand_counts == (1, 1)
                move += 1
                await raw.play(move, raw.my_plays()[0])
                if not last_but_one:
                    continue
                # The other's card ends the round: this player is cut before it.
                token, last = raw.token, raw.seq
                await raw.aclose()
                await other.until(
                    lambda e, n=n: isinstance(e, m.SeatStatus) and e.seat == n and e.grace > 0
                )
                mark = len(other.received)
                move += 1
                await other.play(move, other.my_plays()[0])
                while not any(isinstance(e, m.RoundEnd) for e in other.received[mark:]):
                    await _drain(other)
                if any(isinstance(e, m.MatchEnd) for e in other.received):
                    lost, told = n, other
                    break
                back = await RawSeat.connect(host.port)  # a tie: the player is back at once
                back.mirror = raw.mirror  # the events replayed carry the view on
                assert token is not None
                await back.send(m.Resume(table_id=table_id, seat=n, token=token, last_seq=last))
                await back.until(lambda e: isinstance(e, m.Resumed))
                seats[n] = back
            else:
                for raw in seats:
                    await _drain(raw)
        await trio.sleep(0.8)  # past the lost player's grace period
        await _drain(told)
    end = next(i for i, e in enumerate(told.received) if isinstance(e, m.MatchEnd))
    after = [e for e in told.received[end:] if isinstance(e, m.SeatStatus) and e.seat == lost]
    assert after, "the player at the table was never told the other is away"
    assert (after[-1].connected, after[-1].grace, after[-1].stand_in) == (False, 0, False)
    assert not any(e.stand_in for e in after)
    await told.aclose()


async def test_a_client_that_offers_no_rematch_declines_at_once(
    host: Host, nursery: trio.Nursery
) -> None:
    """A program that plays one match (a bot client, say) declines when the match ends, so the
    person at the table is told at once instead of waiting out the minute."""
    choice = TableChoice(create=create(SHORT))
    async with (
        open_network_session("127.0.0.1", host.port, choice, name="ann", offer_rematch=True) as ann,
        open_network_session(
            "127.0.0.1", host.port, TableChoice(table_id=ann.table_id), name="bot"
        ) as bot,
    ):
        async with trio.open_nursery() as both:
            for n, session in enumerate((ann, bot)):
                both.start_soon(play_as_bot, session, make_player("random", n))
        with trio.fail_after(5):
            await heard(ann, "no rematch")


async def test_history_keeps_the_first_match_while_the_rematch_is_played_and_after(
    tmp_path, make_host: MakeHost, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    """`scopa-net history` lost the first match once the table played again (the rematch
    marked the table in play), and showed only the second after it ended. Both matches are
    listed now, by number, while the second is played and after it."""
    from scopa_net.commands.main import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    db = tmp_path / "host.db"
    host = await make_host(bot_delay=0.01, db=str(db))
    choice = TableChoice(create=create(SHORT, bots=1))

    def history() -> list[str]:
        assert main(["history", "--db", str(db)]) == 0
        return capsys.readouterr().out.splitlines()

    async def listed(count: int) -> list[str]:
        """History once it lists ``count`` matches over (the host writes the end a moment
        after the players hear it; until then the match is listed as in play)."""
        with trio.fail_after(10):
            while (
                len(lines := [x for x in history() if ", in play" not in x]) < count
                or "no matches yet" in lines
            ):
                await trio.sleep(0.05)
        return lines

    async with open_network_session(
        "127.0.0.1", host.port, choice, name="ann", offer_rematch=True
    ) as session:
        assert await play_as_bot(session, make_player("random", 1)) is not None
        (first,) = await listed(1)
        assert first.startswith("table 1 'test table': started ")
        await session.rematch(True)
        await heard(session, "a new match begins")
        with trio.fail_after(20):
            async for event in session.events:
                # (a deal void for its kings, about 1 in 600, is dealt again at once)
                if isinstance(event, RoundStarted) and event.view.to_move is not None:
                    break
        # Before: "no finished matches"; now the first, numbered, and the second in play.
        (numbered, playing) = history()
        assert numbered == first.replace("'test table': ", "'test table', match 1: ", 1)
        assert re.fullmatch(
            r"table 1 'test table', match 2: started [-\d :]+, in play: "
            rf"ann: 0 - bot 1: 0, round {event.view.round_number} in play",
            playing,
        ), playing
        assert await play_as_bot(session, make_player("random", 2)) is not None
        await session.rematch(False)
        await heard(session, "no rematch")
    after = await listed(2)
    # Each match says when it started and ended (both said when the table opened, as
    # "opened"; then the first match said when it started, and the second when it ended).
    assert after[0] == numbered
    assert re.match(
        r"table 1 'test table', match 2: started [-\d :]+, ended [\d:]+: ann: \d+ - bot 1: \d+; "
        r"\w[\w ]* won",
        after[1],
    )

    # Each match exports on its own (before, only the last one could be), and each verifies.
    exported = []
    for n in (1, 2):
        out = tmp_path / f"match{n}.scopa"
        command = ["history", "--db", str(db), "--export", "1", "--match", str(n)]
        assert main([*command, "--out", str(out)]) == 0
        assert f"wrote {out} (match {n} of 2, " in capsys.readouterr().out
        exported.append(decode(out.read_bytes()))
        assert verify_transcript(exported[-1]).ok
    first_ids = {r.round_id for r in exported[0].rounds}
    assert first_ids.isdisjoint(r.round_id for r in exported[1].rounds)
    monkeypatch.chdir(tmp_path)
    assert main(["history", "--db", str(db), "--export", "1"]) == 0  # the last match
    assert (tmp_path / "table1-match2-seat0.scopa").read_bytes() == (
        tmp_path / "match2.scopa"
    ).read_bytes()
    capsys.readouterr()
    assert main(["history", "--db", str(db), "--export", "1", "--match", "3"]) == 2
    assert capsys.readouterr().err == "scopa-net: --match 3: table 1 has played 2 matches\n"


async def test_nobody_answers_play_again_and_each_screen_says_why_the_table_closes(
    autojump_clock: trio.testing.MockClock, tmp_path
) -> None:
    """In virtual time, two people's screens over a real host: nobody answers "Play again
    with the same players?". Before s38 the question gave no time limit and the table then
    closed with only "Connection: closed." on both screens; now the question says how long
    there is, and the end says why."""
    screens: list[PersonScreen] = []
    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, bot_delay=0.01)

        async def person(name: str, choice: TableChoice, seated: trio.Event) -> None:
            async with open_network_session(
                "mem",
                0,
                choice,
                name=name,
                connector=net.connect,
                offer_rematch=True,
                data_dir=tmp_path / name,
            ) as session:
                screen = PersonScreen(session)
                screens.append(screen)
                seated.set()
                await screen.play()

        ada_seated, bruno_seated = trio.Event(), trio.Event()
        nursery.start_soon(person, "Ada", TableChoice(create=create(SHORT)), ada_seated)
        await ada_seated.wait()
        table_id = screens[0].session.table_id
        nursery.start_soon(person, "Bruno", TableChoice(table_id=table_id), bruno_seated)
        with trio.fail_after(600):
            await bruno_seated.wait()
        ended_at: list[float] = []
        with trio.fail_after(600):
            while not all("closing" in s.text for s in screens):
                await trio.sleep(1)
                if not ended_at and any("Play again" in s.text for s in screens):
                    ended_at.append(trio.current_time())
        nursery.cancel_scope.cancel()
    for screen in screens:
        asked = [line for line in screen.lines if line.startswith("Play again")]
        assert asked == [
            "Play again with the same players? Answer within 60 s: the table closes then."
        ]
        assert "Table: no rematch (nobody answered in time): the table is closing" in screen.lines
        # The question ends with that line (the prompt read "y/n?" on, and a late "n" said
        # "No rematch." as if it counted): a y or n typed now is told it came too late.
        assert screen.controller.state.asking is Asking.NOTHING
        assert await screen.type("n") == [
            "Too late: the vote on playing again is over and the table is closing; that answer "
            "was not sent."
        ]
    assert 58 <= trio.current_time() - ended_at[0] <= 62


@pytest.mark.parametrize("blind", [False, True], ids=["ordinary", "blind"])
async def test_a_seat_left_during_the_match_agrees_and_stays_open_in_the_rematch(
    blind: bool, tmp_path, make_host: MakeHost
) -> None:
    """Bob leaves for good during match 1; a computer plays his seat to the end. Ann answers
    yes to "Play again?". Before the fix the open seat counted as a "no": Ann read "no rematch
    (bot 1 said no): the table is closing", so once anyone left the table could never play
    again. Now the computer standing in agrees like any computer player, the new match starts
    at once with the seat open for a newcomer (listed in the lobby), and one takes it."""
    host = await make_host(bot_delay=0.01)
    choice = TableChoice(create=create(SHORT, blind=blind))
    async with open_network_session(
        "127.0.0.1", host.port, choice, name="ann", offer_rematch=True, data_dir=tmp_path / "a"
    ) as ann:
        join = TableChoice(table_id=ann.table_id)
        async with open_network_session(
            "127.0.0.1", host.port, join, name="bob", data_dir=tmp_path / "b"
        ) as bob:
            with trio.fail_after(20):
                async for event in bob.events:
                    if isinstance(event, RoundStarted):
                        break
            await bob.leave()
        assert await play_as_bot(ann, make_player("random", 1)) is not None
        await ann.rematch(True)
        await heard(ann, "a new match begins")
        with trio.fail_after(20):
            async for event in ann.events:
                if isinstance(event, RoundStarted):
                    break
        assert ann.match_no == 2
        lobby = await RawSeat.connect(host.port)
        await lobby.send(m.ListTables())
        listing = await lobby.until(lambda e: isinstance(e, m.Tables))
        (table,) = listing.tables
        assert [s.kind for s in table.seats] == ["human", "open"]
        await lobby.join(table.id, 1, name="cleo")
        await heard(ann, "cleo")
        await lobby.aclose()


async def test_a_player_who_left_after_the_match_is_named_as_gone_not_as_a_seat_that_said_no(
    host: Host,
) -> None:
    """Bob leaves once the match is over; Ann then answers yes. Her screen said "no rematch
    (seat 1 said no)", blaming a seat nobody holds (at a table where a computer had stood in,
    "bot 1 said no"); it names Bob, who left."""
    choice = TableChoice(create=create(SHORT))
    async with open_network_session(
        "127.0.0.1", host.port, choice, name="ann", offer_rematch=True
    ) as ann:
        join = TableChoice(table_id=ann.table_id)
        async with open_network_session(
            "127.0.0.1", host.port, join, name="bob", offer_rematch=True
        ) as bob:
            async with trio.open_nursery() as both:
                for n, session in enumerate((ann, bob)):
                    both.start_soon(play_as_bot, session, make_player("random", n))
            await bob.leave()
        await heard(ann, "bob left")
        await ann.rematch(True)
        await heard(ann, "no rematch (bob left): the table is closing")


async def test_a_person_away_at_the_vote_is_waited_for_and_may_come_back_and_agree(
    host: Host,
) -> None:
    """Bob steps away during the match (his seat kept, a computer standing in) and is still
    away when Ann answers yes: unlike a seat its person left, his answer is awaited, not given
    for him; he comes back, agrees, and the new match begins."""
    a = await RawSeat.connect(host.port)
    table_id = await a.create(create(SHORT))
    await a.join(table_id, 0, name="ann")
    b = await RawSeat.connect(host.port)
    await b.join(table_id, 1, name="bob")
    async with trio.open_nursery() as both:  # each must read to send its seeds
        for raw in (a, b):
            both.start_soon(raw.until, lambda e: isinstance(e, m.Deal))
    await b.send(m.Leave(away=True))
    await b.until(lambda e: isinstance(e, m.Left))
    token, last = b.token, b.seq
    await b.aclose()
    move = 0
    with trio.fail_after(30):
        while not any(isinstance(e, m.MatchEnd) for e in a.received):
            if a.mirror is not None and a.view.my_turn and a.my_plays():
                move += 1
                await a.play(move, a.my_plays()[0])
            await _drain(a)
    await a.send(m.Rematch(agree=True))
    opened = await a.until(lambda e: isinstance(e, m.RematchStatus))
    assert (opened.state, opened.votes) == ("open", ("yes", "waiting"))
    back = await RawSeat.connect(host.port)
    await back.send(m.Resume(table_id=table_id, seat=1, token=token, last_seq=last))
    await back.until(lambda e: isinstance(e, m.RematchStatus))
    await back.send(m.Rematch(agree=True))
    agreed = await a.until(lambda e: isinstance(e, m.RematchStatus) and e.state != "open")
    assert (agreed.state, agreed.votes) == ("agreed", ("yes", "yes"))
    for raw in (a, back):
        await raw.aclose()
