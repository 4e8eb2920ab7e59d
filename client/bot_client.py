"""A computer player at a table over the network: the same players as in the host, driven by
a :class:`~scopa_net.client.network_session.NetworkSession` like any person's client.

``scopa-net bots`` runs many of these; the load benchmark does too.
"""

from __future__ import annotations

from scopa_net.bots.base import Player
from scopa_net.client.session import MatchOver, Session
from scopa_net.errors import IllegalPlayError


async def play_as_bot(session: Session, player: Player) -> MatchOver | None:
    """Play the seat until the match ends; returns the match result (None if cut short)."""
    await _move_if_turn(session, player)
    async for event in session.events:
        if isinstance(event, MatchOver):
            return event
        await _move_if_turn(session, player)
    return None


async def _move_if_turn(session: Session, player: Player) -> None:
    view = session.view
    if view is not None and view.to_move == session.seat and not view.round_over:
        try:
            await session.submit(player.choose(view))
        except IllegalPlayError:
            # The host had moved on (a void deal, say) before our view did: the events on
            # their way will show the new position, and we decide again then.
            return
