"""Plays as values: a card from the hand and the table cards it takes.

Inside the engine a play is one integer, its *code*: the played card's index in the low six
bits and the mask of captured table cards above them (``index | captured_mask << 6``). A code
of a card that captures nothing is just the card's index. :class:`Play` is the readable
form of the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scopa_net.cards import CARDS, Card, cards_of, mask_of
from scopa_net.notation import Scheme, format_card

CARD_BITS = 6
CARD_FIELD = (1 << CARD_BITS) - 1


def play_code(card_index: int, captured_mask: int = 0) -> int:
    return card_index | (captured_mask << CARD_BITS)


@dataclass(frozen=True, slots=True)
class Play:
    """A card played, and the table cards it takes (empty when it stays on the table)."""

    card: Card
    captured: tuple[Card, ...] = ()
    code: int = field(init=False, repr=False, compare=False)
    """The play's code (see the module's docstring)."""

    def __post_init__(self) -> None:
        taken = mask_of(self.captured)
        object.__setattr__(self, "captured", cards_of(taken))
        object.__setattr__(self, "code", play_code(self.card.index, taken))

    @property
    def captured_mask(self) -> int:
        return self.code >> CARD_BITS

    @classmethod
    def from_code(cls, code: int) -> Play:
        return play_of_code(code)

    @classmethod
    def from_wire(cls, card_index: int, captured_mask: int = 0) -> Play:
        """The play a ``play`` or ``played`` message names by its card and capture mask."""
        return play_of_code(play_code(card_index, captured_mask))

    def text(self, scheme: Scheme = Scheme.NEUTRAL) -> str:
        """``7d`` or ``7d x 5s+2b``; :func:`scopa_net.notation.parse_play` reads it back."""
        played = format_card(self.card, scheme)
        if not self.captured:
            return played
        return played + " x " + "+".join(format_card(c, scheme) for c in self.captured)

    def __str__(self) -> str:
        return self.text()


_PLAYS: dict[int, Play] = {}
PLAYS_LIMIT = 16_384
"""How many plays :func:`play_of_code` keeps before it starts again (some 4 MiB at most; a
few thousand codes come up in ten thousand random rounds)."""


def play_of_code(code: int) -> Play:
    """The :class:`Play` of a code. Plays are values, so each is built once and shared: the
    checked path asks for the same few plays again and again."""
    play = _PLAYS.get(code)
    if play is None:
        if len(_PLAYS) >= PLAYS_LIMIT:
            _PLAYS.clear()
        # The fields Play(card, captured) would work out, set directly: a code already holds
        # them in their one order (half the time of the checks in __post_init__).
        play = object.__new__(Play)
        object.__setattr__(play, "card", CARDS[code & CARD_FIELD])
        object.__setattr__(play, "captured", cards_of(code >> CARD_BITS))
        object.__setattr__(play, "code", code)
        _PLAYS[code] = play
    return play


def memory_stats() -> dict[str, tuple[int, int]]:
    """The plays :func:`play_of_code` holds, and its bound."""
    return {"plays": (len(_PLAYS), PLAYS_LIMIT)}


def plays_of_codes(codes: Iterable[int]) -> list[Play]:
    """:func:`play_of_code` of each code, in order."""
    try:
        return list(map(_PLAYS.__getitem__, codes))  # all built before: no call per code
    except KeyError:
        return list(map(play_of_code, codes))


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """A play as it happened: who made it, and whether it swept the table (a scopa)."""

    seat: int
    play: Play
    sweep: bool
