"""A match played in this process: the player's seat against computer players.

The computer players come from :mod:`scopa_net.bots` when it is installed (``choose(view)``);
otherwise a uniformly random legal play from a seeded :class:`random.Random`. Deck orders come
from the operating system's randomness (:class:`random.SystemRandom`) unless a seed is given,
which makes the whole match repeatable (for tests and for showing a game to someone).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace

import trio

from scopa_net.cards import CARDS, Card
from scopa_net.client.moves import legal_plays
from scopa_net.client.session import (
    ConnectionState,
    Event,
    MatchOver,
    Message,
    RoundOver,
    RoundStarted,
    ViewChanged,
    VoidDeal,
)
from scopa_net.commands.options import MAX_BOT_DELAY
from scopa_net.errors import IllegalPlayError, IllegalReason
from scopa_net.match import Match
from scopa_net.plays import Play, PlayRecord
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView

#: Pause before each computer play, so a person can follow; capped to keep games moving.
DEFAULT_DELAY = 0.8
MAX_DELAY = MAX_BOT_DELAY
EVENT_BUFFER = 64

Chooser = Callable[[SeatView], Play]


class RandomChooser:
    """Any legal play, uniformly, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def __call__(self, view: SeatView) -> Play:
        return self._rng.choice(legal_plays(view))


def bot_levels() -> tuple[str, ...]:
    """The computer-player levels available here (just ``random`` without the bots package)."""
    try:
        from scopa_net.bots.levels import LEVELS
    except ImportError:
        return ("random",)
    return tuple(LEVELS)


def make_chooser(level: str, seed: int, think: float | None = None) -> Chooser:
    """A computer player of ``level``; ValueError naming the levels if there is none.

    A thinking level (``expert``) gets no clock here: its ``think`` seconds become a fixed
    amount of search, so a seeded practice match stays repeatable."""
    try:
        from scopa_net.bots.levels import make_player
    except ImportError:
        if level != "random":
            raise ValueError(f"unknown level {level!r}; levels: random") from None
        return RandomChooser(seed)
    return make_player(level, seed, think=think).choose


def _thinks(level: str) -> bool:
    try:
        from scopa_net.bots.levels import THINKING_LEVELS
    except ImportError:
        return False
    return level in THINKING_LEVELS


class LocalSession:
    """A :class:`~scopa_net.client.session.Session` whose table is a :class:`Match` in this
    process. Start it with :func:`open_local_session`."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        seat: int = 0,
        name: str = "You",
        level: str = "random",
        seed: int | None = None,
        delay: float = DEFAULT_DELAY,
        think: float | None = None,
    ) -> None:
        if not 0 <= seat < rules.players:
            raise ValueError(f"invalid seat: {seat!r}; this table has seats 0-{rules.players - 1}")
        if not 0 <= delay <= MAX_DELAY:
            raise ValueError(f"invalid delay: {delay!r}; choose 0 to {MAX_DELAY} seconds")
        self.rules = rules
        self._seat = seat
        self._rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        bot_seed = self._rng.randrange(2**32)
        self._bots: dict[int, Chooser] = {
            s: make_chooser(level, bot_seed + s, think) for s in range(rules.players) if s != seat
        }
        self._thinks = _thinks(level)
        self._names = tuple(name if s == seat else f"bot {s}" for s in range(rules.players))
        self._delay = delay
        self._match = Match(rules, first_dealer=self._rng.randrange(rules.players))
        self._send, self._receive = trio.open_memory_channel[Event](EVENT_BUFFER)
        self._played = trio.Event()
        self._voids = 0
        """Void deals so far: each took a round's number, as on a host's table."""
        self._redeal = False
        """The round in play deals a void one again."""

    # --- the Session protocol -----------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    @property
    def view(self) -> SeatView | None:
        return None if self._match.round is None else self._mine()

    @property
    def connection(self) -> ConnectionState:
        return ConnectionState.LOCAL

    @property
    def events(self) -> trio.MemoryReceiveChannel[Event]:
        return self._receive

    async def submit(self, play: Play) -> PlayRecord:
        rnd = self._match.round
        if rnd is None or rnd.finished or self._match.over:
            raise IllegalPlayError(IllegalReason.ROUND_OVER, str(play))
        record = self._match.play(play, self._seat, exact=True)
        self._played.set()
        await self._emit_play(record)
        return record

    async def say(self, text: str) -> None:
        await self._send.send(Message(seat=self._seat, text=text))

    # --- running the table --------------------------------------------------------------------

    def _deck(self) -> list[Card]:
        deck = list(CARDS)
        self._rng.shuffle(deck)
        return deck

    async def _emit_play(self, record: PlayRecord) -> None:
        await self._send.send(ViewChanged(view=self._mine(), record=record))

    def _mine(self) -> SeatView:
        """This seat's view, its round numbered as a host numbers it: void deals count."""
        view = self._match.view_for(self._seat)
        return replace(view, round_number=view.round_number + self._voids, redeal=self._redeal)

    async def _choose(self, seat: int, view: SeatView) -> Play:
        """A computer seat's play; a thinking level decides on a worker thread, so the screen
        stays responsive meanwhile."""
        if not self._thinks:
            return self._bots[seat](view)
        from scopa_net.server.thinking import ABANDON_ON_CANCEL

        return await trio.to_thread.run_sync(self._bots[seat], view, **{ABANDON_ON_CANCEL: True})

    async def run(self) -> None:
        """Deal and play rounds until a side wins; the event channel closes at the end."""
        async with self._send:
            match = self._match
            void = False
            while not match.over:
                rnd = match.deal(self._deck())
                self._redeal, void = void, rnd.void
                view = self._mine()
                if rnd.void:
                    self._voids += 1
                    await self._send.send(VoidDeal(view=view))
                    continue
                await self._send.send(RoundStarted(view=view))
                while not rnd.finished:
                    seat = rnd.turn
                    if seat == self._seat:
                        self._played = trio.Event()
                        await self._played.wait()
                        continue
                    await trio.sleep(self._delay)
                    choice = await self._choose(seat, match.view_for(seat))
                    await self._emit_play(match.play(choice, seat, exact=True))
                result = match.results[-1]
                await self._send.send(
                    RoundOver(
                        view=self._mine(),
                        score=result,
                        match_scores=tuple(match.scores),
                    )
                )
                await trio.sleep(self._delay)
            assert match.winner is not None
            await self._send.send(
                MatchOver(
                    winner=match.winner,
                    match_scores=tuple(match.scores),
                    rounds=len(match.results),
                    voids=self._voids,
                )
            )


@asynccontextmanager
async def open_local_session(rules: RuleSet, **options: object) -> AsyncIterator[LocalSession]:
    """A running :class:`LocalSession`; leaving the block stops it."""
    session = LocalSession(rules, **options)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(session.run)
        yield session
        nursery.cancel_scope.cancel()
