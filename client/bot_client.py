"""A computer player at a table over the network: the same players as in the host, driven by
a :class:`~scopa_net.client.network_session.NetworkSession` like any person's client.

``scopa-net bots`` runs many of these; the load benchmark does too.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import trio

from scopa_net.bots.base import Player
from scopa_net.client.session import MatchOver, MatchStarted, Session
from scopa_net.errors import IllegalPlayError
from scopa_net.server.thinking import ThinkClock, choose_off_loop

RETRY_AFTER = 0.5
"""After a refused move, decide again on the next event, or after this long at the latest."""


async def play_as_bot(
    session: Session, player: Player, clock: ThinkClock | None = None
) -> MatchOver | None:
    """Play the seat until the match ends; returns the match result (None if cut short).

    A thinking player (one built with ``clock``, see :func:`~scopa_net.server.thinking.
    table_player`) decides on a worker thread, so the other bots of this process play on."""
    while True:
        refused = await _move_if_turn(session, player, clock)
        with trio.move_on_after(RETRY_AFTER if refused else math.inf):
            try:
                event = await session.events.receive()
            except trio.EndOfChannel:
                return None
            if isinstance(event, MatchOver):
                return event


async def play_matches(
    session: Session,
    player: Player,
    clock: ThinkClock | None = None,
    *,
    play_again: Callable[[MatchOver], bool],
    on_match: Callable[[MatchOver], None] | None = None,
) -> int:
    """Play the seat's matches until its table closes; returns how many ended.

    After each match the seat answers "play again?" (protocol.md 3.11) with ``play_again``
    (told the match's result): a yes plays the new match if everyone agrees, a no closes the
    table. The session must stay for the vote (a ``NetworkSession`` with ``offer_rematch``).
    ``on_match`` is told each match's result as it ends."""
    finished = 0
    while True:
        result = await play_as_bot(session, player, clock)
        if result is None:
            return finished
        finished += 1
        if on_match is not None:
            on_match(result)
        await session.rematch(play_again(result))  # type: ignore[attr-defined]
        if not await _rematch_begins(session):
            return finished


async def _rematch_begins(session: Session) -> bool:
    """Wait for the vote's outcome: True once the new match has begun, False when the
    table closes instead (someone said no, this seat too, or the time to answer ran out)."""
    while True:
        try:
            event = await session.events.receive()
        except trio.EndOfChannel:
            return False
        if isinstance(event, MatchStarted):
            return True


async def _move_if_turn(session: Session, player: Player, clock: ThinkClock | None) -> bool:
    """Move if it is this seat's turn; True if the host refused the move."""
    view = session.view
    if view is None or not view.my_turn or view.round_over:
        return False
    try:
        await session.submit(await choose_off_loop(player, view, clock))
    except IllegalPlayError:
        # The host had moved on before our view did (a void deal, say), or asked us to
        # slow down: decide again with what comes next.
        return True
    return False
