"""Who owns each seat's cards, and which positions each party shares in a deal.

Party 0 is the host and owns every seat no person plays (computer players); party ``p >= 1``
is the seat ``people[p - 1]`` and owns that seat's cards. In a deal, a party shares every
position it does not own: the other seats' cards and every table card.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.dealing import TABLE, Deal

HOST_PARTY = 0


def check_people(people: Sequence[int], players: int) -> tuple[int, ...]:
    """``people`` as a tuple, after checking it lists distinct seats in seat order."""
    people = tuple(people)
    if list(people) != sorted(set(people)) or any(not 0 <= s < players for s in people):
        raise ValueError(f"people must be distinct seats 0..{players - 1} in order: {people}")
    return people


def owner(seat: int, people: Sequence[int]) -> int:
    """The party that owns ``seat``'s cards."""
    return people.index(seat) + 1 if seat in people else HOST_PARTY


def party_seat(party: int, people: Sequence[int]) -> int | None:
    """The seat a person's party plays, or None for the host."""
    return None if party == HOST_PARTY else people[party - 1]


def shared_positions(deal: Deal, people: Sequence[int], party: int) -> tuple[int, ...]:
    """The positions of ``deal`` that ``party`` opens for others, in position order."""
    return tuple(
        deal.start + i
        for i, target in enumerate(deal.targets)
        if target == TABLE or owner(target, people) != party
    )


def read_positions(deal: Deal, people: Sequence[int], party: int) -> tuple[int, ...]:
    """The positions of ``deal`` that ``party`` reads: its own seats' cards and the table."""
    return tuple(
        deal.start + i
        for i, target in enumerate(deal.targets)
        if target == TABLE or owner(target, people) == party
    )
