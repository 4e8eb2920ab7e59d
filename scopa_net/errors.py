"""Error types of the core, split by whose fault and what kind.

Each is a :class:`ValueError` whose message quotes the input that caused it, so a caller can
show it to a player as it is.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Generic, TypeVar

from scopa_net.typed import shown

Option = TypeVar("Option")
"""What an ambiguous play could mean: a ``scopa_net.plays.Play`` (kept generic so that this
module, which every other one imports, imports none of them)."""


class NotationError(ValueError):
    """Text that does not name a card (or a play)."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"invalid card: {shown(text)}: {reason}")


class AmbiguousNotationError(NotationError):
    """Text that could name more than one card, such as ``7c`` (cups or clubs?)."""


class RuleSetError(ValueError):
    """A rule set that cannot be played (5 players, scopone for 2, an unknown variant...)."""


class IllegalReason(enum.Enum):
    """Why a play was refused."""

    ROUND_OVER = "the round is over"
    NOT_YOUR_TURN = "it is not your turn"
    NOT_IN_HAND = "that card is not in your hand"
    NOT_ON_TABLE = "a card you named is not on the table"
    MUST_CAPTURE = "that card can capture, so it must"
    SINGLE_CARD_MATCHES = (
        "a single card of the same value is on the table; take it, not a combination"
    )
    WRONG_SUM = "those cards do not add up to the card played"
    ACE_TAKES_ALL = "an ace takes the whole table (asso piglia tutto)"

    def of_seat(self, seat: int) -> str:
        """The reason said of ``seat`` to someone else (a verifier reading the record), where
        :attr:`value` speaks to the person who played. The seat comes last, so that a name
        added after it (``seat 1 (Bruno)``) reads well."""
        return {
            IllegalReason.NOT_YOUR_TURN: f"it is not the turn of seat {seat}",
            IllegalReason.NOT_IN_HAND: f"that card is not in the hand of seat {seat}",
            IllegalReason.NOT_ON_TABLE: f"a card named by seat {seat} is not on the table",
        }.get(self, self.value)


class IllegalPlayError(ValueError):
    """A play the rules forbid. The game is left exactly as it was."""

    def __init__(self, reason: IllegalReason, text: str) -> None:
        self.reason = reason
        self.text = text
        super().__init__(f"illegal play: {text!r}: {reason.value}")


class AmbiguousPlayError(ValueError, Generic[Option]):
    """A card that can capture in more than one way, played without saying which."""

    def __init__(self, text: str, options: Sequence[Option]) -> None:
        self.text = text
        self.options = tuple(options)
        listed = "; ".join(str(p) for p in self.options)
        super().__init__(f"ambiguous play: {text!r} can take any of: {listed}")
