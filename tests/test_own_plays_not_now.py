"""A ``play`` answered "not now" (protocol.md 3.5, 3.6: ``storage`` or ``rate_limited``, given
before the host looks at the move) says nothing of the move: an honest host gives it even to a
move sent again after a resume that it had applied. Over real loopback with a real host whose
journal refuses writes (SQLite's page limit, as a full disk does): Ada's client holds the
``played`` of her move read in the replay, keeps the move unanswered, says so in one line and
sends the same move again until the host answers it (a repeat). Before, it took the refusal
for the move's answer and stopped with "DEAL CHECK FAILED ... changed play" (a false
accusation of an honest host), or, for a move typed there, told Ada to "try again"."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from full_journal import free_the_journal, until_the_journal_fails
from hosting import CutOff, Through, create, start_host
from person_screen import Player, sit, until
from rawplayer import close_links

from scopa_net.bots.levels import make_player
from scopa_net.cards import CARDS
from scopa_net.client.own_plays import AFTER_IT_WAS_PUT_OFF, play_words, taken_otherwise
from scopa_net.client.session import ConnectionState
from scopa_net.errors import IllegalPlayError
from scopa_net.mirror import SeatMirror
from scopa_net.plays import Play
from scopa_net.rules import RuleSet
from scopa_net.server.table import Table
from scopa_net.wire import messages as m

PLAY = b"\xa4play"
"""The bytes of a ``play`` frame's type, as msgpack writes them."""


class CutThenHeld:
    """Ada's network: the connection her move leaves on is cut just after it (the move reaches
    the host, its answer does not reach her); on the connection she comes back on, the move
    sent again is held until ``let_go`` is set (her ``resume`` goes through first)."""

    def __init__(self, port: int) -> None:
        self.network = CutOff(port, wrap=self._wrap)
        self.cut_next = False
        self.held = trio.Event()
        self.let_go = trio.Event()
        self._connections = 0

    def _wrap(self, inner: trio.abc.Stream) -> trio.abc.Stream:
        self._connections += 1
        return _Watched(inner, self, first=self._connections == 1)


class _Watched(Through):
    def __init__(self, inner: trio.abc.Stream, network: CutThenHeld, *, first: bool) -> None:
        super().__init__(inner)
        self.watch = network
        self.first = first

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        is_play = PLAY in bytes(data)
        if is_play and not self.first:
            self.watch.held.set()
            await self.watch.let_go.wait()
        await self.inner.send_all(data)
        if is_play and self.first and self.watch.cut_next:
            self.watch.cut_next = False
            await self.watch.network.cut()


def plays_at_host(table: Table, seat: int) -> int:
    """How many plays of the round the host has recorded for ``seat``."""
    view = SeatMirror(table.snapshot(seat)).view
    return sum(record.seat == seat for record in view.plays)


async def test_a_move_sent_again_and_refused_for_the_host_s_disk_goes_again_unjudged(
    tmp_path: Path,
) -> None:
    """Ada's move reaches the host as her network drops; back, her client sends it again, and
    the host, whose disk now refuses writes, answers it ``reject storage``. Her client holds
    the ``played`` of that move (read in the replay) and says in one line that the move goes
    again; once the host can save, the move sent again is answered as the repeat it is, and
    Ada plays on. Before, her client stopped with "DEAL CHECK FAILED in round 1: changed play:
    the host recorded a play for your seat, ..., that you did not make"."""
    async with trio.open_nursery() as nursery:
        host = await start_host(
            nursery, db=str(tmp_path / "host.db"), grace=60, bot_delay=0.01, chat_lines=10_000
        )
        net = CutThenHeld(host.port)
        ada = await sit(
            nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 11), bots=1),
            connector=net.network.connect,
        )  # fmt: skip
        await until(lambda: ada.session.table_id is not None)
        (task,) = host.tables.values()
        await until(lambda: _my_turn(ada), 20)
        view = ada.controller.state.view
        assert view is not None
        before = plays_at_host(task.table, view.seat)
        net.cut_next = True
        nursery.start_soon(ada.type, make_player("random", 3).choose(view).text())
        await until(lambda: not net.network.up, 10)
        await until(lambda: plays_at_host(task.table, view.seat) > before, 10)  # applied
        net.network.up = True
        await net.held.wait()  # back in her seat, the move sent again is on its way
        assert ada.session.connection is ConnectionState.CONNECTED
        chatter = await until_the_journal_fails(host)
        net.let_go.set()
        await until(lambda: "goes to the host again" in ada.text, 10)
        await trio.sleep(1.5)  # refused again meanwhile: still one line
        free_the_journal(host)
        await until(lambda: not ada.session._unacked, 20)
        await until(lambda: _my_turn(ada), 20)
        await ada.type(make_player("random", 4).choose(ada.controller.state.view).text())
        await close_links()
        del chatter
        nursery.cancel_scope.cancel()
    assert "DEAL CHECK FAILED" not in ada.text, ada.text
    assert ada.session.deal_failure is None
    again = [line for line in ada.lines if "goes to the host again" in line]
    assert len(again) == 1, ada.lines
    assert not [line for line in ada.lines if "try again" in line], ada.lines


def _my_turn(player: Player) -> bool:
    view = player.controller.state.view
    return view is not None and view.my_turn and not view.round_over and not player.session._unacked


async def test_a_move_refused_for_the_rate_limit_goes_again_by_itself(tmp_path: Path) -> None:
    """Ada's client sent three moves the host refused (cards not in her hand), using up the
    host's limit of refused moves (three here, one more each 2 s); her next move, a good one,
    is answered ``reject rate_limited``. She reads one line saying it goes again by itself,
    and it is played. Before, she read "not played: ...: the host asks you to slow down; try
    again", and had to type it again."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, request_burst=3, request_rate=0.5)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 11), bots=1))
        await until(lambda: _my_turn(ada), 20)
        view = ada.controller.state.view
        assert view is not None
        not_hers = [c for c in CARDS if c not in view.hand and c not in view.table][:3]
        for card in not_hers:
            with pytest.raises(IllegalPlayError, match="not in your hand"):
                await ada.session.submit(Play(card))
        play = make_player("random", 3).choose(view)
        with trio.fail_after(15):
            printed = await ada.type(play.text())
        nursery.cancel_scope.cancel()
    again = [line for line in ada.lines if "goes to the host again" in line]
    assert again == [
        f"Your move {play.text()} goes to the host again in a moment, by itself: the host "
        "asks this client to slow down."
    ], printed
    assert not [line for line in ada.lines if "not played" in line], ada.lines
    assert ada.session.view is not None
    assert any(r.seat == ada.session.seat and r.play == play for r in ada.session.view.plays)


def test_a_move_put_off_then_refused_as_taken_is_said_as_put_off() -> None:
    """A move refused for now, sent again exactly as first sent, and then answered
    ``move_id_taken``: the host says it applied that move as another play (protocol.md 3.5).
    The banner says when it went again: after the host put it off, not as a connection came
    back (there was no drop)."""
    sent = m.Play(move_id=5, after=3, card=CARDS[26].index, captured=1 << CARDS[25].index)
    said = str(taken_otherwise(sent, AFTER_IT_WAS_PUT_OFF))
    assert said == (
        f"the host answered your play of {play_words(sent.card, sent.captured)}, sent again "
        "after the host put it off (storage or rate_limited), that it had applied that move as "
        "another play (move_id_taken): it recorded another play than the one you sent"
    )
