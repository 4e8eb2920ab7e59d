"""Who held each seat as a blind round's parties were fixed (protocol.md 9.5.1, 9.8 ``seated``).

At ``blind_round`` a seat's client knows, from ``seat_status`` and the ``snapshot``, which
seats a person holds and which a computer holds; a round whose ``people`` name a seat a computer
holds gives the host a party of its own choosing. The client keeps what it knew in its
transcript (version 6), and :func:`check_parties` is the one check, used live on arrival and by
the verifier on the file alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scopa_net.fair.errors import ComputerPartyError
from scopa_net.fair.transcript import SEATED_COMPUTER, SEATED_PERSON

BLIND_SEATED_KINDS = (SEATED_PERSON, SEATED_COMPUTER)
"""A blind round's ``seated`` entries: a seat a person holds, or one a computer holds (a computer
player's, or an open seat)."""


def seated_by_seat(computer_held: Iterable[int], players: int) -> tuple[str, ...]:
    """``seated`` for a round: ``computer`` for each seat in ``computer_held``, else ``person``."""
    held = frozenset(computer_held)
    return tuple(SEATED_COMPUTER if s in held else SEATED_PERSON for s in range(players))


def check_parties(round_no: int, people: Sequence[int], seated: Sequence[str]) -> None:
    """9.5.1 and 9.9 step 1: no seat of ``people`` is one ``seated`` says a computer holds
    (:class:`ComputerPartyError` naming the first such seat)."""
    for seat in people:
        if seat < len(seated) and seated[seat] == SEATED_COMPUTER:
            raise ComputerPartyError(
                f"round {round_no}: the host named seat {seat} among the round's people, a "
                "seat a computer holds; only a seat a person plays is a party"
            )


__all__ = ["BLIND_SEATED_KINDS", "check_parties", "seated_by_seat"]
