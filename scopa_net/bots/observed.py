"""What a seat knows at its turn, in the engine's fast form (card indices and masks).

Everything here is derived from a :class:`~scopa_net.view.SeatView`: the seat's hand, the
table, and the round's plays, all of which were made face up. From the plays we rebuild each
side's pile, the last capturer and the set of cards nobody has seen, which are exactly the
other hands and the stock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scopa_net.cards import BIT, FULL_MASK, indices_of
from scopa_net.round import Round
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView


class NotMyTurnError(ValueError):
    """A player was asked to choose for a view where its seat is not to move (caller's fault)."""


@dataclass(frozen=True, slots=True)
class Observed:
    """A seat's knowledge at its turn; ``unseen`` holds the other hands and the stock."""

    rules: RuleSet
    seat: int
    dealer: int
    hand: tuple[int, ...]
    table: tuple[int, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    piles: tuple[int, ...]
    sweeps: tuple[int, ...]
    last_capturer: int | None
    history: tuple[tuple[int, int, bool], ...]
    unseen: tuple[int, ...]

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    @property
    def plays_left(self) -> int:
        return self.stock_count + sum(self.hand_counts)

    @property
    def unseen_mask(self) -> int:
        m = 0
        for c in self.unseen:
            m |= BIT[c]
        return m

    @classmethod
    def from_view(cls, view: SeatView) -> Observed:
        """The knowledge in ``view``; :class:`NotMyTurnError` unless the seat is to move."""
        if view.to_move != view.seat:
            raise NotMyTurnError(
                f"seat {view.seat!r} cannot choose a play: the seat to move is {view.to_move!r}"
            )
        rules = view.rules
        piles = [0] * rules.side_count
        last_capturer = None
        history = []
        seen = 0
        for record in view.plays:
            code = record.play.code
            taken = record.play.captured_mask
            history.append((record.seat, code, record.sweep))
            seen |= record.play.card.bit | taken
            if taken:
                side = rules.side_of(record.seat)
                piles[side] |= taken | record.play.card.bit
                last_capturer = side
        hand = tuple(sorted(c.index for c in view.hand))
        table = tuple(sorted(c.index for c in view.table))
        for c in (*hand, *table):
            seen |= BIT[c]
        unseen = tuple(indices_of(FULL_MASK & ~seen))
        hidden = view.stock_count + sum(n for s, n in enumerate(view.hand_counts) if s != view.seat)
        if len(unseen) != hidden:
            raise ValueError(
                f"inconsistent view: {len(unseen)} unseen cards but {hidden} hidden "
                f"(hand counts {view.hand_counts!r}, stock {view.stock_count!r})"
            )
        return cls(
            rules=rules,
            seat=view.seat,
            dealer=view.dealer,
            hand=hand,
            table=table,
            hand_counts=tuple(view.hand_counts),
            stock_count=view.stock_count,
            piles=tuple(piles),
            sweeps=tuple(view.sweeps),
            last_capturer=last_capturer,
            history=tuple(history),
            unseen=unseen,
        )

    def position(self, others: Sequence[Sequence[int]], stock: Sequence[int]) -> Round:
        """The round with the hidden cards placed as guessed: ``others[s]`` is seat ``s``'s
        hand (ignored for this seat) and ``stock`` the undealt cards in dealing order."""
        hands = [self.hand if s == self.seat else others[s] for s in range(self.rules.players)]
        return Round.from_position(
            self.rules,
            dealer=self.dealer,
            turn=self.seat,
            hands=hands,
            table=self.table,
            stock=stock,
            piles=self.piles,
            sweeps=self.sweeps,
            last_capturer=self.last_capturer,
            history=self.history,
        )

    def any_position(self) -> Round:
        """A round consistent with this knowledge (hidden cards in index order): enough for
        anything that depends only on this seat's hand and the table, such as legal plays."""
        others: list[list[int]] = []
        rest = list(self.unseen)
        for s, count in enumerate(self.hand_counts):
            if s == self.seat:
                others.append([])
            else:
                others.append(rest[:count])
                rest = rest[count:]
        return self.position(others, rest)

    def legal_codes(self) -> list[int]:
        """The seat's legal plays as play codes, in a fixed order."""
        return sorted(self.any_position().legal_codes())
