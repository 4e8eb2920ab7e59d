"""Where each position of a shuffled deck goes: the one mapping from deck to hands and table.

The engine never shuffles. A round receives the deck order (40 cards, position 0 first) from
outside, normally from the fair-deal layer, and deals it by :func:`deal_plan`, which is also
written out in protocol.md so anyone can re-derive every hand from the revealed seeds:

- Deals follow one another from the top of the deck: deal ``k`` starts where deal ``k-1``
  stopped.
- In a deal, the cards go one at a time round the table starting with the seat to the
  dealer's right (seat ``dealer + 1``, in play order) and ending with the dealer, ``hand_size``
  times round: the ``j``-th card of pass ``p`` (``0 <= j < players``) is position
  ``start + p * players + j`` and goes to seat ``(dealer + 1 + j) % players``.
- The first deal of a round then lays ``opening_table_cards`` (4, or 0 in scopone
  scientifico) face up on the table: the next positions, in order.
- What is left after the first deal is the stock, dealt by later deals in the same way with
  nothing for the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from scopa_net.rules import RuleSet

TABLE = -1
"""Destination of a table card in a :class:`Deal`."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal: ``targets[i]`` is where deck position ``start + i`` goes (a seat, or TABLE)."""

    start: int
    targets: tuple[int, ...]

    @property
    def stop(self) -> int:
        return self.start + len(self.targets)


@cache
def deal_plan(rules: RuleSet, dealer: int) -> tuple[Deal, ...]:
    """Every deal of a round, in order, covering deck positions 0..39 exactly once."""
    n = rules.players
    if not 0 <= dealer < n:
        raise ValueError(f"dealer seat {dealer!r} is not a seat at a {n}-player table")
    deals = []
    start = 0
    for k in range(rules.deals_per_round):
        targets = [(dealer + 1 + j) % n for _ in range(rules.hand_size) for j in range(n)]
        if k == 0:
            targets += [TABLE] * rules.opening_table_cards
        deals.append(Deal(start, tuple(targets)))
        start += len(targets)
    assert start == 40, "a rule set's deals must use the whole pack"
    return tuple(deals)


def seat_positions(
    rules: RuleSet, dealer: int, seat: int, *, first_deal_only: bool = False
) -> list[int]:
    """The deck positions dealt to ``seat`` (or to the table, for ``seat == TABLE``) in a
    round, or in its first deal only."""
    deals = deal_plan(rules, dealer)
    if first_deal_only:
        deals = deals[:1]
    return [d.start + i for d in deals for i, t in enumerate(d.targets) if t == seat]
