"""Checking a play against what the seat can see, before it is sent anywhere.

A seat's view holds its hand, the table and every play of the round, so the client can rebuild
a round that agrees with everything it knows (the hidden cards placed in any order) and ask the
engine the same questions the host will: which plays are legal, and why one is not.
"""

from __future__ import annotations

from scopa_net.bots.observed import Observed
from scopa_net.errors import IllegalPlayError, IllegalReason
from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.view import SeatView


def position_of(view: SeatView) -> Round:
    """A round consistent with ``view`` at this seat's turn (the hidden cards placed in any
    order); ValueError if it is not this seat's turn or the view does not add up."""
    return Observed.from_view(view).any_position()


def legal_plays(view: SeatView) -> list[Play]:
    """The seat's legal plays now: empty unless it is this seat's turn."""
    if not view.my_turn:
        return []
    return sorted(position_of(view).legal_plays(), key=lambda p: p.code)


def resolve_play(view: SeatView, play: Play) -> Play:
    """The one legal play ``play`` stands for (a bare card may stand for its only capture).

    Raises :class:`~scopa_net.errors.IllegalPlayError` with the engine's reason, or
    :class:`~scopa_net.errors.AmbiguousPlayError` listing the choices when a bare card could
    take more than one group.
    """
    text = str(play)
    if view.round_over or view.to_move is None:
        raise IllegalPlayError(IllegalReason.ROUND_OVER, text)
    if not view.my_turn:
        raise IllegalPlayError(IllegalReason.NOT_YOUR_TURN, text)
    return Play.from_code(position_of(view).resolve(play, view.seat))
