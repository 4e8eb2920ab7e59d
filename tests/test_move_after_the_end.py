"""A card typed once the session has ended is never held: the screen takes the session's
events after the session has moved on, so a person may type on a board that shows their turn
while the match there is already over and the session closed. Such a move used to wait for an
answer for ever (CI: Ada's card typed on her screen's last turn, after her own last play ended
the match, hung ``tests/test_own_plays.py`` until its time ran out)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from answer_held import AnswerHeld
from hosting import CutOff, Through, create, start_host
from person_screen import PersonScreen, until

from scopa_net.bots.levels import make_player
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import (
    MoveUnansweredError,
    NetworkSession,
    TableChoice,
    open_network_session,
)
from scopa_net.client.session import ConnectionState
from scopa_net.plays import Play, PlayRecord
from scopa_net.rules import RuleSet


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


async def test_a_card_typed_after_the_session_ended_is_refused_at_once(tmp_path: Path) -> None:
    """Ada plays a short match against the host's computer over real loopback, to its end
    (her session then ends: no rematch is offered). A card she chose on her last turn, typed
    after that, is refused at once as a move the session will never answer, not held for
    ever, nor kept to be sent again."""
    last_turn: list[Play] = []

    async def on_each_event(screen: PersonScreen) -> None:
        view = screen.session.view
        if view is not None and view.my_turn and not view.round_over:
            last_turn[:] = [make_player("random", 3).choose(view)]

    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0)
        choice = TableChoice(create=create(RuleSet.of(2, 1), bots=1))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path / "Ada"
        ) as session:
            screen = PersonScreen(session)
            with trio.fail_after(60):
                await screen.play(on_each_event)  # until the session ends
            assert session.connection is ConnectionState.CLOSED
            assert last_turn, "Ada never had a turn: the test proves nothing"
            with trio.fail_after(5), pytest.raises(MoveUnansweredError) as raised:
                await session.submit(last_turn[0])
            assert str(raised.value) == (
                "the session had ended before that move was made: it was not sent"
            )
            assert session._unacked == {}  # nothing left waiting, nothing kept to send again
        nursery.cancel_scope.cancel()


class DropsAPlay(Through):
    """Ada's first connection: once ``armed``, the next ``play`` never leaves; her network
    goes down instead."""

    def __init__(self, inner: trio.abc.Stream, network: CutOff) -> None:
        super().__init__(inner)
        self.network = network
        self.armed = False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.armed and b"\xa4play" in bytes(data):
            self.armed = False
            await self.network.cut()
            return
        await self.inner.send_all(data)


async def a_turn_with_one_legal_play(session: NetworkSession) -> Play:
    """Play the first legal card on each of Ada's turns until one where she has one legal
    play, and the round goes on a while after it (two deals at least): that play."""
    while True:
        view = session.view
        if view is not None and view.my_turn and not view.round_over and not session._unacked:
            plays = legal_plays(view)
            if len(plays) == 1 and view.stock_count >= 12:
                return plays[0]
            await session.submit(plays[0])
        await trio.sleep(0.01)


async def test_a_computer_s_play_at_her_seat_is_not_taken_for_her_move_unanswered(
    tmp_path: Path,
) -> None:
    """Ada's move (her one legal play) never reaches the host: her network goes down as it
    leaves. Past the grace time the host's computer plays for her, the same card (the only
    one it can). Back, she sends her move again and reads the computer's play in the events
    replayed; the answer to her move is still on its way when her client closes. Before the
    fix ``submit`` returned the computer's play as her move's; now it says the session ended
    before the host answered it."""
    first: list[DropsAPlay] = []
    back: list[AnswerHeld] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0.3, grace=0.2)
            network = CutOff(host.port)

            def wrap(stream: trio.abc.Stream) -> trio.abc.Stream:
                if not first:
                    first.append(DropsAPlay(stream, network))
                    return first[0]
                back.append(AnswerHeld(stream))
                back[-1].armed = True  # (the answer to her move: never let go)
                return back[-1]

            network.wrap = wrap
            outcome: list[PlayRecord | MoveUnansweredError] = []

            async def ada_moves(session: NetworkSession, play: Play) -> None:
                try:
                    outcome.append(await session.submit(play))
                except MoveUnansweredError as exc:
                    outcome.append(exc)

            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path / "Ada",
                connector=network.connect,
            ) as session:  # fmt: skip
                nursery.start_soon(drain, session)
                play = await a_turn_with_one_legal_play(session)
                assert session.table_id is not None
                table = host.tables[session.table_id].table
                stood_in = len(table.computer_plays)
                first[0].armed = True
                nursery.start_soon(ada_moves, session, play)  # (outside the session's scope)
                await until(lambda: not network.up, 10)
                await until(lambda: len(table.computer_plays) > stood_in, 10)
                network.up = True  # her client comes back by itself
                await until(lambda: back and back[-1].answer is not None, 20)
                mirror = session.mirror
                await until(lambda: mirror is not None and mirror.seq >= table.seats[0].seq, 10)
                view = session.view
                assert view is not None
                theirs = [r for r in view.plays if r.seat == session.seat and r.play == play]
                assert theirs, "the computer's play for Ada is not in her events: proves nothing"
                assert outcome == []  # (her move waits for its answer as her client closes)
            await until(lambda: outcome, 5)
            (answered,) = outcome
            assert isinstance(answered, MoveUnansweredError), answered
            assert str(answered) == "the session ended before the host answered that move"
            nursery.cancel_scope.cancel()


async def drain(session: NetworkSession) -> None:
    """Take the session's events as a screen would (none is looked at here)."""
    async for _ in session.events:
        pass
