"""A host slow to answer a move (stopped, or its connection stalled): the person's screen says
that the move is on its way, answers the commands that need only the client at once, and
refuses another move at once instead of queueing it for later. The whole app over loopback
TCP against a real host."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import pytest
import trio
from app_driver import run_app
from hosting import Holding, create, start_host
from prompt_toolkit.input import PipeInput

from scopa_net.client import render
from scopa_net.client.asking import Asking
from scopa_net.client.client_state import ClientState
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.session import ConnectionState
from scopa_net.client.toolbar import toolbar_text
from scopa_net.rules import RuleSet

HELD = 1.6
"""Seconds the host's answer to the first move is held back: past the client's SLOW_ANSWER."""


def opener_for(
    name: str, connect_to: Callable[[int], Awaitable[trio.abc.Stream]]
) -> Callable[[], AbstractAsyncContextManager[NetworkSession]]:
    """``name``'s session at a new two-player table (one computer) of a real loopback host, each
    connection opened by ``connect_to(port)``: the ``opener`` of :func:`run_app`."""

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)

            async def connect() -> trio.abc.Stream:
                return await connect_to(host.port)

            choice = TableChoice(create=create(RuleSet.of(2, 4), bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name=name, connector=connect
            ) as session:
                yield session
            nursery.cancel_scope.cancel()

    return opener


def holding(wires: list[Holding]) -> Callable[[int], Awaitable[trio.abc.Stream]]:
    """Connections that can hold back what the host sends, each kept in ``wires``."""

    async def connect_to(port: int) -> trio.abc.Stream:
        wires.append(Holding(await trio.open_tcp_stream("127.0.0.1", port)))
        return wires[-1]

    return connect_to


def test_a_move_the_host_is_slow_to_answer_leaves_the_screen_answering() -> None:
    """Carla's host froze after her move: `board` and `hint` printed nothing, a second move
    queued silently, and when the host came back every queued line ran at once against a
    game that had moved on ("illegal play: ... it is not your turn", "A hint is for your
    turn."). Now, while the answer is held back: `board` and `hint` answer at once, the
    second move is refused at once, the move says after a second that it is waiting for the
    host, and nothing typed meanwhile runs later."""
    wires: list[Holding] = []
    sent: list[str] = []

    opener = opener_for("Ada", holding(wires))

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        def on_change() -> None:
            view = state.view
            if not sent and view is not None and view.my_turn and not view.round_over:
                sent.append(legal_plays(view)[0].text())
                trio.lowlevel.spawn_system_task(wires[-1].hold_for, HELD)
                move = sent[0]
                pipe.send_text(f"{move}\rboard\rhint\r{move}\r")
            elif sent and len(sent) == 1 and view is not None and not view.my_turn:
                sent.append("quit")  # the move landed: leave
                pipe.send_text("quit\r")
            elif state.asking is Asking.CONFIRM_QUIT and len(sent) == 2:
                sent.append("y")
                pipe.send_text("y\r")

        return on_change

    status, text, _ = run_app(RuleSet.of(2, 4), driver, opener=opener, plain=True)
    assert status == 0, text
    move = sent[0]
    refused = f"Your last move ({move}) is still on its way to the host: wait for its answer."
    in_order = [
        f"Your move {move} is on its way.",  # after the board
        f"No hint now: your move {move} is on its way to the host.",
        # The move went before the second was typed: said first (Bea read the refusal, then
        # "Sent Qd; waiting for the host..." about the move it was refused for).
        f"Sent {move}; waiting for the host...",
        refused,
        "You played ",  # her own move, in her words
    ]
    places = [text.find(line) for line in in_order]
    assert -1 not in places, (places, text)
    assert places == sorted(places), (places, text)
    assert text.count(refused) == 1, text
    assert text.count(f"Sent {move}; waiting for the host...") == 1, text
    for replayed in ("not your turn", "A hint is for your turn.", "too many lines"):
        assert replayed not in text, text


def test_a_move_typed_while_the_host_is_away_is_queued_on_the_toolbar_until_sent() -> None:
    """The tester typed 2s while the host was away: the line said "queued: 2s goes to the
    host as soon as the connection is back" but the toolbar already said "move sent". Now the
    toolbar says "move queued" until the move is on the wire, then "move sent"."""
    wires: list[trio.abc.Stream] = []
    down: list[bool] = [False]
    bars: list[str] = []

    async def connect_to(port: int) -> trio.abc.Stream:
        if down[0]:
            raise OSError("the host is away")
        wires.append(await trio.open_tcp_stream("127.0.0.1", port))
        return wires[-1]

    opener = opener_for("Ada", connect_to)

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        typed: list[str] = []

        def on_change() -> None:
            view = state.view
            bar = render.plain([toolbar_text(state)])
            if not bars or bars[-1] != bar:
                bars.append(bar)
            if not down[0] and not typed and view is not None and view.my_turn:
                down[0] = True  # the host goes away at Ada's turn
                trio.lowlevel.spawn_system_task(trio.aclose_forcefully, wires[-1])
            elif down[0] and not typed and state.connection is ConnectionState.RECONNECTING:
                typed.append(legal_plays(view)[0].text())
                pipe.send_text(f"{typed[0]}\r")
            elif down[0] and state.move_queued:
                down[0] = False  # back: the next try connects
            elif typed and len(typed) == 1 and view is not None and not view.my_turn:
                typed.append("quit")  # the move landed: leave
                pipe.send_text("quit\ry\r")

        return on_change

    status, text, _ = run_app(RuleSet.of(2, 4), driver, opener=opener, plain=True)
    assert status == 0, text
    assert "goes to the host as soon as the connection is back" in text, text
    turns = [b.split(" | ")[1] for b in bars if " | " in b]
    queued = turns.index("move queued")
    assert "move sent" in turns[queued:], turns
    assert "move sent" not in turns[:queued], turns
    assert "reconnecting" in next(b for b in bars if "move queued" in b), bars


def test_a_move_long_unanswered_on_a_live_connection_is_counted_on_the_toolbar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bea's network stalled for 20 s after her move: her toolbar said "move sent | ... |
    connected" all along, as if all were well. Once the move has waited a while (5 s; 1.5 s
    here) the toolbar counts the silence, calmly, with no line printed; the answer ends it."""
    monkeypatch.setattr("scopa_net.client.typed_moves.NO_ANSWER_SHOWN", 1.5)
    wires: list[Holding] = []
    sent: list[str] = []
    bars: list[str] = []

    opener = opener_for("Bea", holding(wires))

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        def on_change() -> None:
            view = state.view
            bar = render.plain([toolbar_text(state)])
            if not bars or bars[-1] != bar:
                bars.append(bar)
            if not sent and view is not None and view.my_turn and not view.round_over:
                sent.append(legal_plays(view)[0].text())
                trio.lowlevel.spawn_system_task(wires[-1].hold_for, 2.6)
                pipe.send_text(f"{sent[0]}\r")
            elif len(sent) == 1 and view is not None and not view.my_turn:
                sent.append("quit")  # the move landed: leave
                pipe.send_text("quit\ry\r")

        return on_change

    status, text, _ = run_app(RuleSet.of(2, 4), driver, opener=opener, plain=True)
    assert status == 0, text
    counted = [b for b in bars if "no answer from the host for" in b]
    assert counted, bars
    assert all("move sent" in b for b in counted), counted
    assert re.search(r"\| no answer from the host for 2 s $", counted[0]), counted
    after = bars[bars.index(counted[-1]) + 1 :]
    assert after, bars
    assert all("no answer" not in b for b in after), bars
    assert "no answer" not in text, text
