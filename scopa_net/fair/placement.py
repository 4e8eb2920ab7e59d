"""Where each card may land: the deal plan checked card by card, the moment cards arrive.

A seat knows, once the joint seed is out, which deck positions the deal plan (protocol.md
section 4) sends to it, to the table and to every other seat, deal by deal. :class:`Placement`
holds one round's plan for one seat and refuses, on arrival:

- a ``deal`` whose hand is not exactly the positions this deal gives the seat, or whose table
  cards are not exactly the opening positions;
- a play of a position the plan never dealt to the player who played it (so far in the round),
  or one already played;
- a deck position or a card seen twice in the round.

The hash of each card against the commitment is :class:`~scopa_net.fair.commitments.ArrivalCheck`'s
job; this is the routing.
"""

from __future__ import annotations

from collections.abc import Iterable

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE, deal_plan
from scopa_net.fair.errors import DuplicateCardError, MisroutedCardError
from scopa_net.rules import RuleSet


class Placement:
    """One seat's check of where every card of one round lands."""

    def __init__(self, rules: RuleSet, seat: int, dealer: int) -> None:
        self.rules = rules
        self.seat = seat
        self.dealer = dealer
        self.plan = deal_plan(rules, dealer)
        self.deals_seen = 0
        self.card_at: dict[int, int] = {}
        """deck position -> card, for every card seen this round."""
        self.played: set[int] = set()

    def _targets_so_far(self) -> dict[int, int]:
        """deck position -> where the plan sends it, for the deals that have happened."""
        out = {}
        for deal in self.plan[: self.deals_seen]:
            for i, target in enumerate(deal.targets):
                out[deal.start + i] = target
        return out

    def _see(self, pos: int, card: int, what: str) -> None:
        known = self.card_at.get(pos)
        if known is not None and known != card:
            raise DuplicateCardError(
                f"{what}: deck position {pos} arrived again, now as {CARDS[card]} "
                f"(it was {CARDS[known]})"
            )
        for other, seen in self.card_at.items():
            if seen == card and other != pos:
                raise DuplicateCardError(
                    f"{what}: {CARDS[card]} arrived at deck position {pos}, but it already "
                    f"arrived at position {other}"
                )
        self.card_at[pos] = card

    def deal(self, hand: Iterable[tuple[int, int]], table: Iterable[tuple[int, int]]) -> None:
        """A ``deal`` arrived: (pos, card) pairs for the seat's hand and the table."""
        hand, table = list(hand), list(table)
        k = self.deals_seen
        if k >= len(self.plan):
            raise MisroutedCardError(
                f"deal {k + 1} arrived, but a round with dealer seat {self.dealer} has only "
                f"{len(self.plan)} deals"
            )
        deal = self.plan[k]
        self.deals_seen += 1
        want_hand = [deal.start + i for i, t in enumerate(deal.targets) if t == self.seat]
        want_table = [deal.start + i for i, t in enumerate(deal.targets) if t == TABLE]
        for what, got, want in (
            ("your hand", sorted(p for p, _ in hand), want_hand),
            ("the table", sorted(p for p, _ in table), want_table),
        ):
            if got != want:
                raise MisroutedCardError(
                    f"deal {k + 1}: {what} received deck positions {got}; the deal plan with "
                    f"dealer seat {self.dealer} gives it {want}"
                )
        for pos, card in (*hand, *table):
            self._see(pos, card, f"deal {k + 1}")

    def play(self, seat: int, pos: int, card: int) -> None:
        """Seat ``seat`` played the card at deck position ``pos``."""
        target = self._targets_so_far().get(pos)
        if target != seat:
            owner = (
                "not yet dealt"
                if target is None
                else ("a table card" if target == TABLE else f"dealt to seat {target}")
            )
            raise MisroutedCardError(
                f"seat {seat} played deck position {pos} ({CARDS[card]}), which is {owner}, "
                "not a card of theirs"
            )
        if pos in self.played:
            raise DuplicateCardError(f"deck position {pos} ({CARDS[card]}) was played twice")
        self.played.add(pos)
        self._see(pos, card, f"seat {seat}'s play")
