"""A card typed again while the same move, typed on the same board, still waits for the
host's answer with nobody waiting for it (its typing ended first: a move kept with the seat)
is that move, not a second one: the person is answered once, about the card played (real
host on loopback)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
import trio
from hosting import CutOff, Through, create, start_host
from person_screen import Player, sit, until

from scopa_net.client.moves import legal_plays
from scopa_net.client.session import ConnectionState
from scopa_net.rules import RuleSet


class Gate:
    """Whether a network takes nothing in just now (open until :meth:`hold`)."""

    def __init__(self) -> None:
        self._open = trio.Event()
        self._open.set()

    def hold(self) -> None:
        """From now, what is sent waits until :meth:`let_go`."""
        if self._open.is_set():
            self._open = trio.Event()

    def let_go(self) -> None:
        self._open.set()

    async def passed(self) -> None:
        """Wait until the gate is open."""
        await self._open.wait()


class HeldSends(Through):
    """A connection whose sends wait while its ``gate`` is held."""

    def __init__(self, inner: trio.abc.Stream, gate: Gate) -> None:
        super().__init__(inner)
        self.gate = gate

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.gate.passed()
        await self.inner.send_all(data)


def her_turn(player: Player) -> bool:
    view = player.session.view
    return view is not None and view.my_turn and not view.round_over and bool(view.hand)


async def typing_cut_short(player: Player, card: str, said: str) -> None:
    """``player`` types ``card``; that typing ends (cancelled) once the screen has said
    ``said`` once more, before the host can answer the move."""
    before = sum(said in line for line in player.lines)
    async with trio.open_nursery() as typing:
        typing.start_soon(player.type, card)
        await until(lambda: sum(said in line for line in player.lines) > before)
        typing.cancel_scope.cancel()


@pytest.mark.parametrize("cut_while", ["queued", "sent"])
async def test_a_card_typed_again_on_the_same_board_is_played_and_answered_once(
    tmp_path: Path, cut_while: str
) -> None:
    """Ada's network is down at her turn (the host keeps her seat 30 s before a computer
    plays it). She types a card, and that typing ends before any answer; she types the same
    card again, and her network is back. ``cut_while``: the first typing ends while its move
    waits for the connection, or while it is being sent (the network taking nothing in).
    Before, those were two moves: the first was played as her client got back, and the
    second, refused, printed "Your move ... was not played: the table moved on while the
    connection was down", of the card she saw played."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0, grace=30)
        gate = Gate()
        network = CutOff(host.port, wrap=partial(HeldSends, gate=gate))
        ada = await sit(
            nursery, host, "Ada", tmp_path,
            create=create(RuleSet.of(2, 11), bots=1), connector=network.connect,
        )  # fmt: skip
        await until(lambda: her_turn(ada))
        card = legal_plays(ada.session.view)[0]
        if cut_while == "sent":
            gate.hold()
            await typing_cut_short(ada, card.text(), f"Sent {card.text()}; waiting")
        await network.cut()
        gate.let_go()
        await until(lambda: ada.session.connection is ConnectionState.RECONNECTING)
        if cut_while == "queued":
            await typing_cut_short(ada, card.text(), "queued:")
        typed: list[list[str]] = []

        async def types_again() -> None:
            typed.append(await ada.type(card.text()))

        queued = sum("queued:" in line for line in ada.lines)
        nursery.start_soon(types_again)
        await until(lambda: sum("queued:" in line for line in ada.lines) > queued)
        network.up = True  # her client gets back by itself
        with trio.fail_after(30):
            await until(lambda: typed)
        nursery.cancel_scope.cancel()
    (lines,) = typed
    assert not [line for line in ada.lines if "not played" in line], ada.text
    assert "Traceback" not in ada.text, ada.text
    view = ada.session.mirror.view
    assert any(r.seat == ada.session.seat and r.play == card for r in view.plays), lines
