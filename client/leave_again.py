"""A ``leave`` the host refused "not now" (protocol.md 3.1: ``error storage``, its journal cannot
be written just now, or ``error rate_limited``): the seat is still the player's and the
connection seated, so the same ``leave`` goes again after :mod:`~scopa_net.client.not_now`'s
pauses while the person waits, for :data:`LEAVE_PATIENCE` at most; then the client closes with
the seat still held by the host, and says so."""

from __future__ import annotations

from scopa_net.client.not_now import WHY

LEAVE_PATIENCE = 15.0
"""Seconds a refused ``leave`` is sent again for, from its first refusal: past them, no other
try begins (the host that cannot save for that long is not about to)."""


def leave_goes_again(code: str) -> str:
    """The one line a person reads while their leave waits for a host that refused it."""
    return (
        f"Leaving: {WHY[code]}; your leave goes to it again by itself, "
        f"for up to {LEAVE_PATIENCE:.0f} s."
    )


def leave_held(code: str, again: str, away: bool) -> str:
    """The one line a person reads when the host still refused their leave (``away``: their
    stepping away) after :data:`LEAVE_PATIENCE`: the seat is held, what becomes of it, and
    how to leave later (``again``: the command that takes the seat back)."""
    what, did = ("step away", "stepped away") if away else ("leave", "left")
    return (
        f"You have not {did}: {WHY[code]}, and it kept refusing your {what}. Your seat is "
        "still yours there, as a closed client's (a computer plays it once its grace period "
        f"is over); {again} takes it back, and `quit` there lets you {what} again."
    )
