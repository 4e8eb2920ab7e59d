"""The 40-card pack: suits, ranks, capture values and prime values.

Every card has an index from 0 to 39, ordered by capture value first and suit second
(``index = (value - 1) * 4 + suit``), so sorting indices sorts cards by value. The rules
engine works on these indices and on 40-bit masks (bit ``index`` set when the card is in
the set); the :class:`Card` objects are the readable face of the same numbers.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field


class Suit(enum.IntEnum):
    """The four suits, with their Italian and French names."""

    COINS = 0
    CUPS = 1
    SWORDS = 2
    CLUBS = 3

    @property
    def italian(self) -> str:
        return ("denari", "coppe", "spade", "bastoni")[self]

    @property
    def french(self) -> str:
        return ("diamonds", "hearts", "spades", "clubs")[self]

    @property
    def glyph(self) -> str:
        return "♦♥♠♣"[self]


class Rank(enum.IntEnum):
    """Ranks by capture value: ace 1 up to seven 7, knave 8, knight 9, king 10."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    KNAVE = 8
    KNIGHT = 9
    KING = 10

    @property
    def is_court(self) -> bool:
        return self >= Rank.KNAVE


#: Prime (primiera) value of each rank with court cards worth 10.
PRIME_VALUE: dict[Rank, int] = {
    Rank.SEVEN: 21,
    Rank.SIX: 18,
    Rank.ACE: 16,
    Rank.FIVE: 15,
    Rank.FOUR: 14,
    Rank.THREE: 13,
    Rank.TWO: 12,
    Rank.KNAVE: 10,
    Rank.KNIGHT: 10,
    Rank.KING: 10,
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Use :data:`CARDS` or :func:`card` rather than building new ones."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    """0..39: ``(value - 1) * 4 + suit``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", (self.rank - 1) * 4 + self.suit)

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def value(self) -> int:
        """Capture value: 1..10."""
        return int(self.rank)

    @property
    def prime(self) -> int:
        """Prime value with court cards worth 10 (the default scale)."""
        return PRIME_VALUE[self.rank]

    def __str__(self) -> str:
        """The canonical short form, e.g. ``7d`` (``scopa_net.notation`` has the others)."""
        return CANONICAL_RANK_LETTERS[self.rank - 1] + CANONICAL_SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self.rank.name}, {self.suit.name})"


CANONICAL_RANK_LETTERS = "A234567JQK"
"""Rank letters of the canonical notation, ace to king."""
CANONICAL_SUIT_LETTERS = "dhsb"
"""Suit letters of the canonical notation, in :class:`Suit` order: coins, cups, swords, clubs."""

#: All 40 cards, ``CARDS[i].index == i``.
CARDS: tuple[Card, ...] = tuple(Card(Rank(i // 4 + 1), Suit(i % 4)) for i in range(40))

SETTEBELLO = CARDS[(7 - 1) * 4 + Suit.COINS]
RE_BELLO = CARDS[(10 - 1) * 4 + Suit.COINS]

# Flat tables for the engine's inner loops (indexed by card index).
VALUE: tuple[int, ...] = tuple(c.value for c in CARDS)
SUIT: tuple[int, ...] = tuple(int(c.suit) for c in CARDS)
BIT: tuple[int, ...] = tuple(1 << i for i in range(40))
FULL_MASK = (1 << 40) - 1
SUIT_MASK: tuple[int, ...] = tuple(sum(1 << c.index for c in CARDS if c.suit == s) for s in Suit)
COINS_MASK = SUIT_MASK[Suit.COINS]
VALUE_MASK: tuple[int, ...] = tuple(
    sum(1 << c.index for c in CARDS if c.value == v) for v in range(11)
)
"""VALUE_MASK[v]: the four cards of capture value v (index 0 is empty)."""
KINGS_MASK = sum(1 << c.index for c in CARDS if c.rank == Rank.KING)
ACES_MASK = sum(1 << c.index for c in CARDS if c.rank == Rank.ACE)


def card(rank: Rank | int, suit: Suit | int) -> Card:
    """The card of this rank (1..10) and suit."""
    return CARDS[(int(rank) - 1) * 4 + int(suit)]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def indices_of(mask: int) -> Iterator[int]:
    """Card indices set in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a mask, in index order (by value, then suit)."""
    return tuple(CARDS[i] for i in indices_of(mask))
