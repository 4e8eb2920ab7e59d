"""A game screen that reads instead of showing: it opens the session the command built (the
real one: host, table choice, seat) and keeps what the first deal showed the seat, then ends.
Put in place of ``scopa_net.client.launch.run_game_screen`` to run a whole ``play`` or
``join`` command line up to its first deal without a terminal."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

from scopa_net.client.session import Message, RoundStarted


@dataclass(frozen=True)
class FirstDeal:
    """What one seat saw up to its first deal."""

    table_id: int
    """0 for an offline game (no host, no tables)."""
    seat: int
    players: int
    names: tuple[str, ...]
    hand: tuple[str, ...]
    table: tuple[str, ...]
    notices: tuple[str, ...]
    """Lines the client told its player itself (such as how friends can join)."""


def reading_screen(
    seen: list[FirstDeal],
    *,
    while_open: Callable[[Any], Any] | None = None,
    limit: float = 60.0,
) -> Callable[..., int]:
    """A ``run_game_screen`` that appends each seat's ``FirstDeal`` to ``seen`` and returns 0.

    ``while_open(session)``, if given, is awaited (as a task) once the session is open, and the
    screen waits for it before closing the session: a friend joining a ``play --lan`` table."""

    def screen(open_session: Callable[[], Any], settings: object, **options: object) -> int:
        async def read() -> None:
            with trio.fail_after(limit):
                async with open_session() as session, trio.open_nursery() as nursery:
                    helper = trio.Event()
                    if while_open is not None:

                        async def run_helper() -> None:
                            await while_open(session)
                            helper.set()

                        nursery.start_soon(run_helper)
                    else:
                        helper.set()
                    notices: list[str] = []
                    async for event in session.events:
                        if isinstance(event, Message) and event.local:
                            notices.append(event.text)
                        if isinstance(event, RoundStarted):
                            view = event.view
                            seen.append(
                                FirstDeal(
                                    table_id=getattr(session, "table_id", 0),
                                    seat=session.seat,
                                    players=view.rules.players,
                                    names=tuple(session.names),
                                    hand=tuple(map(str, view.hand)),
                                    table=tuple(map(str, view.table)),
                                    notices=tuple(notices),
                                )
                            )
                            break
                    await helper.wait()
                    nursery.cancel_scope.cancel()

        trio.run(read)
        return 0

    return screen


def in_thread(function: Callable[[], object], name: str) -> Callable[[], Any]:
    """Start ``function`` in a thread; the returned coroutine function waits for its result
    (without blocking trio) and re-raises what it raised."""
    done = threading.Event()
    outcome: list[tuple[bool, object]] = []

    def run() -> None:
        try:
            outcome.append((True, function()))
        except BaseException as exc:
            outcome.append((False, exc))
        finally:
            done.set()

    threading.Thread(target=run, name=name, daemon=True).start()

    async def result() -> object:
        await trio.to_thread.run_sync(done.wait, abandon_on_cancel=True)
        ok, value = outcome[0]
        if not ok:
            raise value  # type: ignore[misc]
        return value

    return result
