"""What one seat may know: its own hand and everything public, nothing else.

A :class:`SeatView` is built only from public facts and the seat's own hand, so two matches
that differ only in cards the seat cannot see give equal views. The host sends a seat nothing
that is not in its view, and the computer players decide from views alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scopa_net.cards import Card
from scopa_net.plays import PlayRecord
from scopa_net.rules import RuleSet
from scopa_net.scoring import RoundScore

if TYPE_CHECKING:
    from scopa_net.match import Match


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

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat


def view_of(match: Match, seat: int) -> SeatView:
    rules = match.rules
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat {seat!r} is not a seat at this table")
    rnd = match.round
    side = rules.side_of(seat)
    if rnd is None:
        return SeatView(
            seat=seat,
            side=side,
            rules=rules,
            dealer=match.dealer,
            round_number=0,
            to_move=None,
            hand=(),
            table=(),
            hand_counts=(0,) * rules.players,
            stock_count=0,
            pile_counts=(0,) * rules.side_count,
            sweeps=(0,) * rules.side_count,
            scores=tuple(match.scores),
            plays=(),
            void_deal=False,
            round_over=False,
            leftover=(),
            round_score=None,
            winner=match.winner,
        )
    over = rnd.finished and not rnd.void
    scores = tuple(match.scores)
    if over and match.results:
        # The match score already includes this round's result; show it as before the round.
        scores = tuple(s - t for s, t in zip(scores, match.results[-1].totals, strict=True))
    return SeatView(
        seat=seat,
        side=side,
        rules=rules,
        dealer=rnd.dealer,
        round_number=len(match.results) + (0 if over else 1),
        to_move=rnd.to_move,
        hand=rnd.hand(seat),
        table=rnd.table_cards,
        hand_counts=tuple(len(h) for h in rnd.hands),
        stock_count=rnd.stock_count,
        pile_counts=tuple(p.bit_count() for p in rnd.piles),
        sweeps=tuple(rnd.sweeps),
        scores=scores,
        plays=rnd.plays,
        void_deal=rnd.void,
        round_over=over,
        leftover=rnd.leftover_cards,
        round_score=match.results[-1] if over else None,
        winner=match.winner,
    )
