"""protocol.md 3.5: a client checks a held ``played`` (a play of its own seat read while its
move's answer has not come) before it shows it. A real host over loopback, the answer to one
of Ada's moves held back on its way to her (:class:`AnswerHeld`) while the ``played`` it
caused reaches her first: her screen says "You play ..." only once the answer has judged
it hers, and a play the host changed stops her client with the changed-play banner and no
"You play" line before it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from answer_held import AnswerHeld
from app_driver import playing, run_app
from cheats import relay_another_card
from hosting import create, start_host
from person_screen import sit, until

from scopa_net.cards import CARDS
from scopa_net.client.held_screen import HeldScreen
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.session import ConnectionChanged, ConnectionState, Message, MoveQueued
from scopa_net.commands.options import EXIT_DEAL_FAILED
from scopa_net.notation import format_card
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


async def release_once_read(link: AnswerHeld, session: NetworkSession) -> None:
    """Let the held answer go once Ada's session has read the ``played`` it names, and her
    screen has had a moment to show what it would."""
    await until(lambda: link.answer is not None)
    assert link.answer is not None
    seq = getattr(link.answer, "seq", 0)
    await until(lambda: session.mirror is not None and session.mirror.seq >= seq)
    await trio.sleep(0.3)
    link.release.set()


async def test_her_play_read_before_its_answer_is_shown_once_the_answer_comes(
    tmp_path: Path,
) -> None:
    """Ada plays against the host's computer; the host's ``ack`` is held while her ``played``
    (and the computer's answer to it) reach her. Before the fix her screen said "You play
    ..." at once, before the ``ack`` that judges it; now it says nothing of it until then,
    and then her play and what followed, in order."""
    links: list[AnswerHeld] = []
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)

            async def connect() -> trio.abc.Stream:
                links.append(AnswerHeld(await trio.open_tcp_stream("127.0.0.1", host.port)))
                return links[-1]

            ada = await sit(
                nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 11), bots=1),
                connector=connect,
            )  # fmt: skip

            def her_turn() -> bool:
                view = ada.controller.state.view
                return view is not None and view.my_turn and not view.round_over

            await until(her_turn)
            view = ada.controller.state.view
            assert view is not None
            play = legal_plays(view)[0]
            shown = f"You play {format_card(play.card)}"  # (its suit's sign, its capture after)
            before = len(ada.lines)
            links[-1].armed = True
            nursery.start_soon(ada.type, play.text())
            await until(lambda: links[-1].answer is not None)
            answer = links[-1].answer
            assert isinstance(answer, m.Ack), answer
            mirror = ada.session.mirror
            await until(lambda: mirror is not None and mirror.seq >= answer.seq)
            await until(lambda: ada.caught_up)
            await trio.sleep(0.3)  # (time to print what it would)
            assert not [line for line in ada.lines[before:] if line.startswith("You play")], (
                ada.lines[before:]
            )
            links[-1].release.set()
            await until(lambda: any(line.startswith(shown) for line in ada.lines[before:]), 10)
            assert ada.session.deal_failure is None
            nursery.cancel_scope.cancel()


def test_a_play_changed_by_the_host_and_read_before_its_answer_shows_no_you_play(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host applies Ada's first move as a play of another card of hers, and her ``ack``
    is held while that ``played`` reaches her first. Before the fix her whole app printed
    "You play" and that card before the banner; now the banner is the first word of it."""
    changed: list[tuple[int, int, int, int]] = []
    relay_another_card(monkeypatch, 0, changed)
    rules = RuleSet.of(2, 11)

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            links: list[AnswerHeld] = []

            async def connect() -> trio.abc.Stream:
                links.append(AnswerHeld(await trio.open_tcp_stream("127.0.0.1", host.port)))
                links[-1].armed = len(links) == 1
                return links[-1]

            choice = TableChoice(create=create(rules, bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=data_home, connector=connect
            ) as session:
                nursery.start_soon(release_once_read, links[0], session)
                yield session
            nursery.cancel_scope.cancel()

    status, text, _ = run_app(rules, playing(), opener=opener, plain=True)
    assert changed, "the host never changed Ada's play: the test proves nothing"
    ((sent, _, relayed, _),) = changed
    assert status == EXIT_DEAL_FAILED, text
    lines = text.splitlines()
    (banner,) = [i for i, line in enumerate(lines) if "DEAL CHECK FAILED" in line]
    card, other = format_card(CARDS[sent]), format_card(CARDS[relayed])
    assert re.search(
        rf"DEAL CHECK FAILED in round \d+: changed play: the host recorded your play of {card} "
        rf"as {other} (taking|laying) .*; you sent {card} (taking|laying) ",
        lines[banner],
    ), lines[banner]
    assert not [line for line in lines[:banner] if "You play" in line], text  # (or "played")


def test_what_waits_for_a_held_play_goes_in_order_or_not_at_all() -> None:
    """Nothing waits until a play is held; then every event waits, in order, but the
    connection's state and a queued move's; released, they come out in order and nothing waits
    any more; dropped, none comes out."""
    screen = HeldScreen()
    line = Message(seat=None, text="bot 1 plays 3h")
    assert not screen.takes(line)
    screen.hold()
    said = [Message(seat=None, text="You play 4h"), line]
    assert all(screen.takes(event) for event in said)
    assert not screen.takes(ConnectionChanged(state=ConnectionState.RECONNECTING))
    assert not screen.takes(MoveQueued(queued=False))
    assert screen.release() == said
    assert not screen.holding
    assert not screen.takes(line)
    screen.hold()
    assert screen.takes(line)
    screen.drop()
    assert screen.release() == []
