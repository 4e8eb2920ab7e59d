"""A person's client in a test: a real session with the game's controller in front of it, and
every line its screen printed, read as plain text (as a person reads it).

Shared by the LAN screen tests (a test module may not import another, tests/test_suite_guards.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

import trio
from hosting import CutOff, create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client import render
from scopa_net.client.asking import Asking
from scopa_net.client.controller import Controller
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import (
    DealCheckFailedError,
    NetworkSession,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import SessionEndedError
from scopa_net.client.style import Display
from scopa_net.client.toolbar import toolbar_text
from scopa_net.errors import IllegalPlayError
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import Table
from scopa_net.wire.messages import CreateTable

if TYPE_CHECKING:
    from hosting import Network


class PersonScreen:
    """``lines``: what the screen printed; ``toolbars``: the toolbar after each event."""

    def __init__(self, session: NetworkSession) -> None:
        self.session = session
        self.lines: list[str] = []
        self.toolbars: list[str] = []
        self.controller = Controller(session, Display(), self._show, lambda: None)

    def _show(self, lines: object) -> None:
        self.lines += render.plain(lines).splitlines()  # type: ignore[arg-type]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def caught_up(self) -> bool:
        """Whether the screen has taken every event its session has sent it so far: one
        behind shows a board the table has left (a turn already played, a match over)."""
        return self.session.events.statistics().current_buffer_used == 0

    async def type(self, line: str) -> list[str]:
        """What typing ``line`` printed."""
        before = len(self.lines)
        await self.controller.handle_line(line)
        return self.lines[before:]

    async def until_dealt(self, seconds: float = 10) -> None:
        """Take events as the screen does until this person's cards are dealt."""
        await self.until_shown(lambda screen: screen.controller.state.in_match, seconds)

    async def until_shown(
        self, shown: Callable[[PersonScreen], object], seconds: float = 10
    ) -> None:
        """Take events as the screen does until ``shown(self)`` holds (:func:`in_play`: a
        round with plays to come)."""
        with trio.fail_after(seconds):
            async for event in self.session.events:
                self.controller.handle_event(event)
                if shown(self):
                    return

    async def play(
        self,
        between: Callable[[PersonScreen], Awaitable[None]] | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        """Take every event as the game's screen does and play at random on this person's
        turn (not while a question waits), until the session ends; ``between(self)`` after
        each event is what the person does then. ``seed``: the random player's (by default
        one more than three past the lines printed so far)."""
        player = make_player("random", len(self.lines) + 3 if seed is None else seed)
        async for event in self.session.events:
            self.controller.handle_event(event)
            self.toolbars.append(render.plain([toolbar_text(self.controller.state)]))
            if between is not None:
                await between(self)
            view = self.session.view
            asking = self.controller.state.asking is not Asking.NOTHING
            if view is not None and view.my_turn and not view.round_over and not asking:
                # Refused: the table moved on first (next event), or the session had ended (a
                # leave in ``between``...): its last events are taken, as the game's screen
                # takes a SessionEndedError (before, that move waited here for 5 s unanswered).
                with trio.move_on_after(5), suppress(IllegalPlayError, SessionEndedError):
                    await self.session.submit(player.choose(view))


class Player(PersonScreen):
    """One person at a LAN table (see :class:`PersonScreen`); ``crash()`` ends the client where
    it stands, as ``kill -9`` does (the seat stays on disk)."""

    def __init__(self, session: NetworkSession, scope: trio.CancelScope) -> None:
        super().__init__(session)
        self.scope = scope

    def crash(self) -> None:
        # Its socket closed first: killed, a client says no `bye` (one stopped in order does).
        link = self.session._link
        if link is not None and isinstance(link.stream, trio.SocketStream):
            link.stream.socket.close()
        self.scope.cancel()


async def play_when_asked(player: Player) -> None:
    """Type a legal card whenever it is this player's turn, until the match is over."""
    bot = make_player("random", 7)
    while not player.controller.state.match_over:
        view = player.controller.state.view
        if view is not None and view.my_turn and not view.round_over:
            await player.type(bot.choose(view).text())
        await trio.sleep(0.01)


async def plays_the_first_legal_card(player: Player) -> None:
    """Type the first legal card whenever it is this player's turn, for ever."""
    while True:
        view = player.session.view
        if view is not None and view.my_turn and not view.round_over and view.hand:
            await player.type(legal_plays(view)[0].text())
        await trio.sleep(0.01)


def in_play(screen: PersonScreen) -> bool:
    """A round with a play to come is on ``screen`` (a void deal, three kings on the table,
    has none: the same dealer deals again)."""
    view = screen.controller.state.view
    return view is not None and view.to_move is not None


async def until(predicate: Callable[[], object], seconds: float = 30) -> None:
    """Wait until ``predicate()`` holds (a test fails after ``seconds``)."""
    with trio.fail_after(seconds):
        while not predicate():
            await trio.sleep(0.01)


async def sit(
    nursery: trio.Nursery, host: Host, name: str, tmp: Path, folder: str = "", **options
) -> Player:
    """``name`` at a new table (``create=``) or at table ``table_id`` (``password=``), her
    seat kept in a store of her own under ``tmp`` (in ``folder``, by default her name), her
    screen taking every event (``resume_from=``: her seat taken back from disk)."""
    choice = TableChoice(
        create=options.pop("create", None),
        table_id=options.pop("table_id", None),
        password=options.pop("password", None),
    )
    data = tmp / (folder or name)
    opened = open_network_session(
        "127.0.0.1", host.port, choice, name=name, data_dir=data, store=SeatStore(data), **options
    )

    async def hold(task_status=trio.TASK_STATUS_IGNORED) -> None:
        with trio.CancelScope() as scope:
            async with opened as session:
                player = Player(session, scope)
                task_status.started(player)
                async for event in session.events:
                    player.controller.handle_event(event)

    return await nursery.start(hold)


async def take_back(nursery: trio.Nursery, host: Host, player: Player, tmp: Path) -> Player:
    """The same ``join`` again after ``player``'s client died: the seat comes back from disk."""
    back = await back_from_disk(nursery, host, player.session.name, tmp)
    await until(lambda: "Back in your seat" in back.text)
    return back


async def back_from_disk(nursery: trio.Nursery, host: Host, name: str, tmp: Path) -> Player:
    """``name``'s seat taken back from disk (her one kept seat, under ``tmp``), as ``join``
    again after her client died does: not waiting until she is back."""
    (record,) = SeatStore(tmp / name).records()
    return await sit(nursery, host, name, tmp, table_id=record.table_id, resume_from=record)


async def on_screen_at_memory_host(
    net: Network,
    name: str,
    choice: TableChoice,
    seated: trio.Event,
    *,
    tmp: Path,
    screens: dict[str, PersonScreen],
    between: Callable[[PersonScreen], Awaitable[None]] | None = None,
    **options: object,
) -> None:
    """``name``'s client over the in-memory ``net``, with a data folder and seat store of her
    own under ``tmp`` (a seat kept: she may step away), her screen ``screens[name]`` playing
    (:meth:`PersonScreen.play` with ``between``) once ``seated`` is set."""
    async with open_network_session(
        "mem",
        0,
        choice,
        name=name,
        connector=net.connect,
        data_dir=tmp / name,
        store=SeatStore(tmp / name),
        **options,  # type: ignore[arg-type]
    ) as session:
        screen = screens[name] = PersonScreen(session)
        seated.set()
        await screen.play(between)


async def seat_in_turn(
    nursery: trio.Nursery,
    person: Callable[[str, TableChoice, trio.Event], Awaitable[None]],
    names: Sequence[str],
    create: CreateTable,
    screens: dict[str, PersonScreen],
) -> None:
    """The first of ``names`` opens a table (``create``, as :func:`hosting.create` makes it),
    then each of the others takes a seat at it in turn, each once the one before sits."""
    seated = {name: trio.Event() for name in names}
    first, *others = names
    nursery.start_soon(person, first, TableChoice(create=create), seated[first])
    await seated[first].wait()
    table = TableChoice(table_id=screens[first].session.table_id)
    for name in others:
        nursery.start_soon(person, name, table, seated[name])
        await seated[name].wait()


async def opens_a_table(
    nursery: trio.Nursery, host: Host, name: str, tmp: Path, rules: RuleSet
) -> Player:
    """``name`` opens a table of ``rules`` at ``host`` (:func:`sit`), once it has a number."""
    player = await sit(nursery, host, name, tmp, create=create(rules))
    await until(lambda: player.session.table_id is not None)
    return player


async def sits_with(
    nursery: trio.Nursery, host: Host, name: str, tmp: Path, opener: Player
) -> Player:
    """``name`` sits at ``opener``'s table (:func:`sit`), once ``opener``'s screen says so."""
    player = await sit(nursery, host, name, tmp, table_id=opener.session.table_id)
    await until(lambda: f"{name} sat down at the table" in opener.text)
    return player


async def cut_off_after_round_1(
    nursery: trio.Nursery,
    tmp: Path,
    plays: Callable[[Player], Awaitable[None]],
    cheat: Callable[[Table], None],
) -> tuple[Host, Player]:
    """Ada plays round 1 of a match to 21 out against a host's computer player (``plays``
    typing for her), and her client replays it. Her network goes down before round 2 (give
    the table a pause before it), the host ``cheat``s, and once round 2 is opened her client
    resumes by itself: the host and her screen."""
    host = await start_host(nursery, replay_limit=1, bot_delay=0.01, grace=0.2)
    network = CutOff(host.port)
    ada = await sit(
        nursery, host, "Ada", tmp, create=create(RuleSet.of(2, 21), bots=1),
        connector=network.connect,
    )  # fmt: skip
    (task,) = host.tables.values()
    nursery.start_soon(plays, ada)
    await until(lambda: ada.session.witness is not None and ada.session.witness.verdicts)
    await network.cut()
    assert task.table.needs_round
    cheat(task.table)
    await until(lambda: task.table.round_no == 2)
    network.up = True  # her client resumes by itself
    return host, ada


async def deal_checks_failed(
    play: Callable[[], Awaitable[None]], seconds: float
) -> list[DealCheckFailedError]:
    """Run ``play`` (a person's client at a host made to cheat) for at most ``seconds``: the
    deal checks that stopped it, as raised in her screen's task."""
    failed: list[DealCheckFailedError] = []
    try:
        with trio.fail_after(seconds):
            await play()
    except* DealCheckFailedError as group:  # (raised in her screen's task)
        failed += [e for e in group.exceptions if isinstance(e, DealCheckFailedError)]
    return failed
