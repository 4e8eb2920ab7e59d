"""Checking a play against what the seat can see, before it is sent anywhere.

A seat's view holds its hand, the table and every play of the round, so the client can rebuild
a round that agrees with everything it knows (the hidden cards placed in any order) and ask the
engine the same questions the host will: which plays are legal, and why one is not.
"""

from __future__ import annotations

from scopa_net.cards import BIT, FULL_MASK, indices_of
from scopa_net.errors import IllegalPlayError, IllegalReason
from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.view import SeatView


def position_of(view: SeatView) -> Round:
    """A round consistent with ``view`` at the moment it shows; ValueError if no seat is to
    move (the round is over) or the view does not add up."""
    if view.to_move is None:
        raise ValueError("no seat is to move: the round is over or not dealt")
    rules = view.rules
    piles = [0] * rules.side_count
    last_capturer = None
    history = []
    seen = 0
    for record in view.plays:
        taken = record.play.captured_mask
        history.append((record.seat, record.play.code, record.sweep))
        seen |= record.play.card.bit | taken
        if taken:
            side = rules.side_of(record.seat)
            piles[side] |= taken | record.play.card.bit
            last_capturer = side
    for card in (*view.hand, *view.table):
        seen |= BIT[card.index]
    unseen = list(indices_of(FULL_MASK & ~seen))
    hands: list[list[int]] = []
    for seat, count in enumerate(view.hand_counts):
        if seat == view.seat:
            hands.append([c.index for c in view.hand])
        else:
            hands.append(unseen[:count])
            del unseen[:count]
    if len(unseen) != view.stock_count:
        raise ValueError(
            f"inconsistent view: {len(unseen)} unseen cards left for a stock of "
            f"{view.stock_count!r}"
        )
    return Round.from_position(
        rules,
        dealer=view.dealer,
        turn=view.to_move,
        hands=hands,
        table=[c.index for c in view.table],
        stock=unseen,
        piles=piles,
        sweeps=view.sweeps,
        last_capturer=last_capturer,
        history=history,
    )


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
