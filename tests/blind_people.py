"""People at a blind table in tests: each a real client session of their own (data folder,
seat store), and a plug that pulls one person's connections out at once, as ``kill -9`` of
their client does. Used by the tests of people who drop (test_blind_drops.py) and of a seat
taken back after a rematch (test_blind_rematch.py); ``people_play`` and its scenes, at any
table, by the tests of what people read (test_client_deal_words.py, test_names_on_screens.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import NoReturn

import pytest
import trio
from hosting import Network, create, start_memory_host
from person_screen import PersonScreen, in_play

from scopa_net.bots.base import Player
from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    Connector,
    DealCheckFailedError,
    NetworkSession,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import Message
from scopa_net.rules import RuleSet


@dataclass
class People:
    """The people of a blind-table test, each a real client of their own (data folder, seat
    store), and what became of each: their session while it runs, a failed deal check, and
    ``done[name]``, set when their client stops however it stops. ``ada_ready`` is set once
    Ada (who opens the table) sits."""

    tmp_path: Path
    names: Sequence[str] = ("Ada", "Bruno", "Carla")
    sessions: dict[str, NetworkSession] = field(default_factory=dict)
    failed: dict[str, DealCheckFailedError] = field(default_factory=dict)
    ada_ready: trio.Event = field(default_factory=trio.Event)

    def __post_init__(self) -> None:
        self.stores = {name: SeatStore(self.tmp_path / name) for name in self.names}
        self.done = {name: trio.Event() for name in self.names}

    def session(
        self, name: str, choice: TableChoice, connector: Connector, **options: object
    ) -> AbstractAsyncContextManager[NetworkSession]:
        """That person's client session, with their own data folder and seat store."""
        return open_network_session(
            "mem",
            0,
            choice,
            name=name,
            data_dir=self.tmp_path / name,
            store=self.stores[name],
            connector=connector,
            **options,  # type: ignore[arg-type]
        )

    def record_what_each_is_told(self, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
        """Every message each person's client gives its screen, by name, from now on."""
        said: dict[str, list[str]] = {name: [] for name in self.names}
        emit = NetworkSession._emit

        def recorded(session: NetworkSession, event: object) -> None:
            if isinstance(event, Message):
                for name, theirs in self.sessions.items():
                    if theirs is session:
                        said[name].append(event.text)
            emit(session, event)  # type: ignore[arg-type]

        monkeypatch.setattr(NetworkSession, "_emit", recorded)
        return said

    async def ada_opens(
        self,
        nursery: trio.Nursery,
        person: Callable[..., Awaitable[None]],
        rules: RuleSet,
        **options: object,
    ) -> int:
        """Ada (``person``, a :meth:`runner`'s) opens a blind table of ``rules``; its number,
        once she sits."""
        choice = TableChoice(create=create(rules, blind=True))
        nursery.start_soon(partial(person, "Ada", choice, **options))
        await self.ada_ready.wait()
        return self.sessions["Ada"].table_id

    def take_back(
        self,
        nursery: trio.Nursery,
        person: Callable[..., Awaitable[None]],
        name: str,
    ) -> None:
        """``name`` runs their client again (``person``, a :meth:`runner`'s): their seat and its
        seeds taken back from disk."""
        self.done[name] = trio.Event()
        (record,) = self.stores[name].records()
        choice = TableChoice(table_id=record.table_id, seat=record.seat)
        nursery.start_soon(partial(person, name, choice, resume_from=record))

    def take_back_on_screen(
        self,
        nursery: trio.Nursery,
        run: Callable[..., Awaitable[None]],
        name: str,
        key: str,
        between: Callable[[PersonScreen], Awaitable[None]],
    ) -> None:
        """``name`` runs their client again as ``run(name, key, choice, between,
        resume_from=...)`` (a screen kept as ``key``): their seat and its seeds taken back
        from disk."""
        (record,) = self.stores[name].records()
        back = TableChoice(table_id=record.table_id, seat=record.seat)
        nursery.start_soon(partial(run, name, key, back, between, resume_from=record))

    async def on_screen(
        self,
        name: str,
        choice: TableChoice,
        connect: Connector,
        screens: dict[str, PersonScreen],
        between: Callable[[PersonScreen], Awaitable[None]] | None = None,
        *,
        key: str | None = None,
        seated: trio.Event | None = None,
        **options: object,
    ) -> None:
        """``name``'s client at the table, drawn on a :class:`PersonScreen` kept as
        ``screens[key or name]``, playing at random with ``between`` looked at each board;
        ``seated`` is set once the session is open."""
        async with self.session(name, choice, connect, **options) as session:
            self.sessions[name] = session
            screen = screens[key or name] = PersonScreen(session)
            if seated is not None:
                seated.set()
            await screen.play(between)

    def on_screens(
        self,
        connect: Connector,
        screens: dict[str, PersonScreen],
        newcomer: str,
        newcomer_sat: trio.Event,
    ) -> Callable[..., Awaitable[None]]:
        """``run(name, choice, between=None)``: :meth:`on_screen` of ``name`` through
        ``connect``, drawn in ``screens``; ``newcomer_sat`` is set once ``newcomer`` sits."""

        def run(
            name: str,
            choice: TableChoice,
            between: Callable[[PersonScreen], Awaitable[None]] | None = None,
        ) -> Awaitable[None]:
            seated = newcomer_sat if name == newcomer else None
            return self.on_screen(name, choice, connect, screens, between, seated=seated)

        return run

    def runner(
        self,
        connect: Connector,
        plays: Callable[[NetworkSession, str], Awaitable[object]] | None = None,
    ) -> Callable[..., Awaitable[None]]:
        """``person(name, choice, connector=None, **options)``: that person's client at the
        table, playing at random until the match ends; ``plays(session, name)``: what the
        person does at the table instead."""

        async def person(
            name: str, choice: TableChoice, connector: Connector | None = None, **options: object
        ) -> None:
            try:
                async with self.session(name, choice, connector or connect, **options) as session:
                    self.sessions[name] = session
                    if name == "Ada":
                        self.ada_ready.set()
                    if plays is None:
                        await play_as_bot(session, make_player("random", len(name)))
                    else:
                        await plays(session, name)
            except DealCheckFailedError as exc:
                self.failed[name] = exc
            finally:
                self.done[name].set()

        return person


async def table_of(screens: dict[str, PersonScreen], name: str = "Ada") -> int:
    """The number of the table ``name`` sits at, once their screen knows it."""
    with trio.fail_after(600):
        while name not in screens or screens[name].session.table_id is None:
            await trio.sleep(0.1)
    return screens[name].session.table_id


async def play_one_card_then_hang(
    session: NetworkSession, player: Player, played: trio.Event
) -> NoReturn:
    """Play one card at the seat's next turn, then nothing more: a client about to be
    killed (``played`` is set once the card is in)."""
    while True:
        view = session.view
        if view is not None and view.my_turn and not view.round_over:
            await session.submit(player.choose(view))
            played.set()
            await trio.sleep_forever()
        await session.events.receive()


class Plug:
    """One person's connections to the host, pulled out at once: ``kill -9`` of their
    client (no ``bye``, no ``leave``; the host reads the end of the stream)."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.ends: list[trio.abc.Stream] = []

    async def connect(self) -> trio.abc.Stream:
        end = await self.net.connect()
        self.ends.append(end)
        return end

    async def pull(self) -> None:
        for end in self.ends:
            await trio.aclose_forcefully(end)
        self.ends.clear()


class SleepingLaptop:
    """One person's laptop whose lid closes once their hand shows: the host hears nothing
    more from them (:class:`Plug` pulled), their screen takes nothing in and they make no
    connection, until ``woken`` is set."""

    def __init__(self, net: Network) -> None:
        self.plug = Plug(net)
        self.asleep = False
        self.woken = trio.Event()

    async def connect(self) -> trio.abc.Stream:
        if self.asleep:
            await self.woken.wait()  # no connection while the lid is closed
        return await self.plug.connect()

    async def sleeps_at_the_first_hand(self, screen: PersonScreen) -> None:
        """``between`` for :meth:`People.on_screen`: the lid closes at the first hand shown in
        a round with plays to come (a deal void for its kings, about 1 in 600, shows a hand
        but is over at once: the lid closing then is between rounds)."""
        if not self.asleep and "Your hand " in screen.text and in_play(screen):
            self.asleep = True
            await self.plug.pull()  # the lid closes: the host hears nothing more from them
            await self.woken.wait()  # and their screen takes nothing in meanwhile

    async def ada_opens_a_table_for_two(
        self, nursery: trio.Nursery, people: People, screens: dict[str, PersonScreen]
    ) -> int:
        """Ada, on this laptop, opens a blind table for two to 11 points and plays at random
        there (her screen ``screens["Ada"]``) until the lid closes; its number, once she sits."""
        create_table = TableChoice(create=create(RuleSet.of(2, 11), blind=True))
        nursery.start_soon(
            partial(
                people.on_screen,
                "Ada",
                create_table,
                self.connect,
                screens,
                self.sleeps_at_the_first_hand,
            )
        )
        return await table_of(screens)


def checks(lines: list[str]) -> list[int]:
    """Where the verified rounds' deal checks are in ``lines``."""
    return [n for n, line in enumerate(lines) if line.startswith("Deal check: verified")]


async def people_play(
    people: People, create_table: object, plays: Callable[..., Awaitable[None]] | None = None
) -> None:
    """Ada opens the table ``create_table``, the others join it; each plays as ``plays``
    (None: all play at random to the end)."""
    async with trio.open_nursery() as nursery:
        _, net = await start_memory_host(nursery, bot_delay=0)
        person = people.runner(net.connect, plays)
        nursery.start_soon(partial(person, "Ada", TableChoice(create=create_table)))
        await people.ada_ready.wait()
        table = TableChoice(table_id=people.sessions["Ada"].table_id)
        for name in people.names[1:]:
            nursery.start_soon(partial(person, name, table))
        with trio.fail_after(3600):
            for name in people.names:
                await people.done[name].wait()
        nursery.cancel_scope.cancel()
    assert not people.failed


async def bruno_steps_away_after_round_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scored: list[int] | None = None
) -> list[str]:
    """Ada and Bruno at an ordinary table to 21: Bruno plays round 1, then steps away (his seed
    left out from round 2); Ada plays until round 3 is checked. What Ada was told. (After a
    deal void for its kings, about 1 in 600, Bruno plays the redeal: the number of the round
    he saw scored goes in ``scored``.)"""
    people = People(tmp_path, ("Ada", "Bruno"))
    said = people.record_what_each_is_told(monkeypatch)

    async def plays(session: NetworkSession, name: str) -> None:
        player = make_player("random", len(name))
        while True:
            view = session.view
            if name == "Bruno" and view is not None and view.round_score is not None:
                if scored is not None:
                    scored.append(view.round_number)
                await session.leave(away=True)
                return
            if name == "Ada" and len(checks(said["Ada"])) >= 3:
                await session.leave()
                return
            if view is not None and view.my_turn and not view.round_over:
                await session.submit(player.choose(view))
            await session.events.receive()

    await people_play(people, create(RuleSet.of(2, 21)), plays)  # ends at round 3
    return said["Ada"]
