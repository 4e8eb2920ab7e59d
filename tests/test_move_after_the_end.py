"""A card typed once the session has ended is never held: the screen takes the session's
events after the session has moved on, so a person may type on a board that shows their turn
while the match there is already over and the session closed. Such a move used to wait for an
answer for ever (CI: Ada's card typed on her screen's last turn, after her own last play ended
the match, hung ``tests/test_own_plays.py`` until its time ran out)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from hosting import create, start_host
from person_screen import PersonScreen

from scopa_net.bots.levels import make_player
from scopa_net.client.network_session import (
    MoveUnansweredError,
    TableChoice,
    open_network_session,
)
from scopa_net.client.session import ConnectionState
from scopa_net.plays import Play
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
