"""A plain, deliberately naive Scopa round: lists of Card objects, itertools for the sums.

It is written straight from the rules with no attention to speed, as an independent oracle:
``test_differential.py`` plays random rounds through it and through the real engine and checks
that they agree on every legal play and every pile, and ``benchmarks/engine.py`` uses it as the
baseline a clear implementation reaches.
"""

from __future__ import annotations

from itertools import combinations

from scopa_net.cards import Card, Rank, Suit
from scopa_net.rules import RuleSet, Variant


def capture_options(card: Card, table: list[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
    """Every group ``card`` may take from ``table`` (empty list: it is laid on the table)."""
    if rules.has(Variant.QUINDICI):
        return [
            group
            for size in range(1, len(table) + 1)
            for group in combinations(table, size)
            if card.value + sum(c.value for c in group) == 15
        ]
    singles = [(c,) for c in table if c.value == card.value]
    if singles:
        return singles
    if rules.has(Variant.ASSO_PIGLIA_TUTTO) and card.rank == Rank.ACE and table:
        return [tuple(table)]
    return [
        group
        for size in range(2, len(table) + 1)
        for group in combinations(table, size)
        if sum(c.value for c in group) == card.value
    ]


class NaiveRound:
    """One round, dealt and played the obvious way."""

    def __init__(self, rules: RuleSet, dealer: int, deck: list[Card]) -> None:
        self.rules = rules
        self.n = rules.players
        self.deck = list(deck)
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self.table: list[Card] = []
        self.piles: list[list[Card]] = [[] for _ in range(rules.side_count)]
        self.sweeps = [0] * rules.side_count
        self.last_capturer: int | None = None
        self.turn = (dealer + 1) % self.n
        self.dealer = dealer
        self.first_deal = True
        self.deal()

    def deal(self) -> None:
        for _ in range(self.rules.hand_size):
            for j in range(self.n):
                self.hands[(self.dealer + 1 + j) % self.n].append(self.deck.pop(0))
        if self.first_deal:
            for _ in range(self.rules.opening_table_cards):
                self.table.append(self.deck.pop(0))
            self.first_deal = False

    @property
    def finished(self) -> bool:
        return not self.deck and not any(self.hands)

    def legal(self) -> list[tuple[Card, tuple[Card, ...]]]:
        plays = []
        for card in self.hands[self.turn]:
            groups = capture_options(card, self.table, self.rules)
            plays += [(card, g) for g in groups] if groups else [(card, ())]
        return plays

    def play(self, card: Card, group: tuple[Card, ...]) -> None:
        self.hands[self.turn].remove(card)
        side = self.rules.side_of(self.turn)
        last_play = not self.deck and not any(self.hands)
        if group:
            for c in group:
                self.table.remove(c)
            self.piles[side] += [card, *group]
            self.last_capturer = side
            if not self.table and (not last_play or self.rules.sweep_on_last_play):
                self.sweeps[side] += 1
        else:
            self.table.append(card)
        if last_play:
            if self.last_capturer is not None:
                self.piles[self.last_capturer] += self.table
                self.table = []
            return
        self.turn = (self.turn + 1) % self.n
        if not any(self.hands):
            self.deal()

    def coins(self, side: int) -> int:
        return sum(1 for c in self.piles[side] if c.suit == Suit.COINS)
