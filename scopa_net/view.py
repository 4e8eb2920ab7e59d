"""What one seat may know: its own hand and everything public, nothing else.

A :class:`SeatView` is built only from public facts and the seat's own hand, so two matches
that differ only in cards the seat cannot see give equal views. The host sends a seat nothing
that is not in its view, and the computer players decide from views alone. A match makes
the views of its seats (``Match.view_for``); this module knows nothing of matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scopa_net.cards import Card
from scopa_net.plays import PlayRecord
from scopa_net.rules import RuleSet
from scopa_net.scoring import RoundScore


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    side: int
    rules: RuleSet
    dealer: int
    round_number: int
    to_move: int | None
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    """Cards in each seat's hand, by seat (the seat's own included)."""
    stock_count: int
    pile_counts: tuple[int, ...]
    """Cards each side has captured this round, by side."""
    sweeps: tuple[int, ...]
    scores: tuple[int, ...]
    """Match points by side, before the round in play."""
    plays: tuple[PlayRecord, ...]
    """Every play of this round so far, in order: all of them were made face up."""
    void_deal: bool
    round_over: bool
    leftover: tuple[Card, ...]
    """At the end of a round, the cards the last capturer took from the table."""
    round_score: RoundScore | None
    winner: int | None
    blind: bool = False
    """A blind table (protocol.md 9): not even the host sees this seat's cards."""
    sitting_out: bool = False
    """A blind round this seat's person sits out: a computer plays the seat for the host, with
    cards no one else sees (protocol.md 9.7), so ``hand`` is empty and it is never our turn."""
    new_seat: bool = False
    """Sitting out the round during which this seat's person took it: they have not played
    at this table yet (a computer finishes the round for them)."""
    redeal: bool = field(default=False, compare=False)
    """This round is the one before it dealt again: that one was void (kings on the table, or a
    blind round stopped), and the same dealer deals again under the next number. Known from
    the events seen (``round_void``) or from a snapshot's ``redeal``, not from the cards on the
    table, so views that differ only here are equal."""

    @property
    def scores_now(self) -> tuple[int, ...]:
        """Match points by side with the round just over counted: ``scores`` plus its sheet
        once the round is scored (a snapshot, like this view, keeps them apart until the next
        deal)."""
        if not self.round_over or self.round_score is None:
            return self.scores
        return tuple(a + b for a, b in zip(self.scores, self.round_score.totals, strict=True))

    def captured_piles(self) -> tuple[int, ...]:
        """Each side's captured cards this round, as card masks, rebuilt from the plays (all
        made face up) and, once the round is over, the leftover the last capturer took."""
        piles = [0] * self.rules.side_count
        last = None
        for record in self.plays:
            if record.play.captured:
                last = self.rules.side_of(record.seat)
                piles[last] |= record.play.card.bit | record.play.captured_mask
        if last is not None:
            for card in self.leftover:
                piles[last] |= card.bit
        return tuple(piles)

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat and not self.sitting_out
