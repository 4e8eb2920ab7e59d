"""The rule set of a match: players, sides, target and variants, checked once on creation.

Variants are data, not ``if`` chains: a :class:`RuleSet` answers the questions the engine
asks (how many cards a deal gives, whether aces take all, which seats share a side), and the
engine asks only those questions.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from scopa_net.errors import RuleSetError
from scopa_net.variant_names import meant


class Variant(enum.Enum):
    """Named variants, off unless the host picks them. Values are the wire/CLI names."""

    SCOPONE = "scopone"
    SCOPONE_SCIENTIFICO = "scopone_scientifico"
    ASSO_PIGLIA_TUTTO = "asso_piglia_tutto"
    QUINDICI = "quindici"
    RE_BELLO = "re_bello"
    NAPOLA = "napola"
    PRIMIERA_SUM = "primiera=sum"
    COURT_PRIME_0 = "court_prime=0"
    CAPPOTTO = "cappotto"
    SIX_AS_THREE_PAIRS = "six_as_three_pairs"

    @property
    def summary(self) -> str:
        """What the variant changes, in one line (for ``--help`` and listings)."""
        return _VARIANT_SUMMARIES[self]

    @classmethod
    def parse(cls, name: str) -> Variant:
        """The variant called ``name``; :class:`RuleSetError` naming the known ones if none."""
        for v in cls:
            if v.value == name:
                return v
        names = tuple(v.value for v in cls)
        ours = meant(name, names)  # "napoli", "scopa d'assi": say which of ours it is
        guess = f"did you mean {ours}? " if ours else ""
        raise RuleSetError(f"unknown variant {name!r}; {guess}known variants: {', '.join(names)}")


_VARIANT_SUMMARIES = {
    Variant.SCOPONE: "4 players, nine cards each, four to the table, no stock",
    Variant.SCOPONE_SCIENTIFICO: "4 players, ten cards each, empty table; a last-play sweep counts",
    Variant.ASSO_PIGLIA_TUTTO: (
        "an ace takes the whole table and counts as a scopa (also called scopa d'assi)"
    ),
    Variant.QUINDICI: "capture cards that with the card played add up to 15",
    Variant.RE_BELLO: "one more point for the king of coins",
    Variant.NAPOLA: (
        "ace, two and three of coins score the length of the run of coins (also called napoli)"
    ),
    Variant.PRIMIERA_SUM: "primiera: a missing suit counts 0 and the totals are compared",
    Variant.COURT_PRIME_0: "primiera: court cards count 0",
    Variant.CAPPOTTO: "7 or more points while every other side has 0 wins at once",
    Variant.SIX_AS_THREE_PAIRS: "6 players as three teams of two, partners opposite",
}

PLAYER_COUNTS = (2, 3, 4, 6)
MIN_TARGET, MAX_TARGET = 1, 99
USUAL_TARGETS = (11, 16, 21, 31)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything agreed before a match. Invalid combinations raise :class:`RuleSetError`."""

    players: int = 2
    target: int = 11
    variants: frozenset[Variant] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise RuleSetError(f"players must be a whole number, not {self.players!r}")
        if self.players == 5:
            raise RuleSetError(
                "5 players cannot play: the 40-card pack does not divide among five hands "
                "once the table cards are laid; play with 2, 3, 4 or 6"
            )
        if self.players not in PLAYER_COUNTS:
            who = "1 player" if self.players == 1 else f"{self.players} players"
            raise RuleSetError(f"{who} is not a Scopa table; use 2, 3, 4 or 6")
        if isinstance(self.target, bool) or not isinstance(self.target, int):
            raise RuleSetError(f"target must be a whole number, not {self.target!r}")
        if not MIN_TARGET <= self.target <= MAX_TARGET:
            raise RuleSetError(
                f"target {self.target} is out of range; choose {MIN_TARGET} to {MAX_TARGET}"
            )
        variants = frozenset(
            v if isinstance(v, Variant) else Variant.parse(v) for v in self.variants
        )
        object.__setattr__(self, "variants", variants)
        has = variants.__contains__
        for v in (Variant.SCOPONE, Variant.SCOPONE_SCIENTIFICO):
            if has(v) and self.players != 4:
                raise RuleSetError(f"{v.value} is for 4 players, not {self.players}")
        if has(Variant.SCOPONE) and has(Variant.SCOPONE_SCIENTIFICO):
            raise RuleSetError("choose scopone or scopone_scientifico, not both")
        if has(Variant.ASSO_PIGLIA_TUTTO) and has(Variant.QUINDICI):
            raise RuleSetError(
                "asso_piglia_tutto and quindici contradict each other: "
                "in quindici an ace captures by making 15"
            )
        if has(Variant.SIX_AS_THREE_PAIRS) and self.players != 6:
            raise RuleSetError(f"six_as_three_pairs is for 6 players, not {self.players}")

    @classmethod
    def of(
        cls, players: int = 2, target: int = 11, variants: Iterable[str | Variant] = ()
    ) -> RuleSet:
        """Build from plain values, e.g. ``RuleSet.of(4, 21, ["napola"])``."""
        return cls(players, target, frozenset(variants))  # type: ignore[arg-type]

    def has(self, variant: Variant) -> bool:
        return variant in self.variants

    # --- sides ---------------------------------------------------------------------------

    @property
    def side_count(self) -> int:
        if self.players in (2, 3):
            return self.players
        if self.players == 6 and self.has(Variant.SIX_AS_THREE_PAIRS):
            return 3
        return 2

    def side_of(self, seat: int) -> int:
        """Partners share a side: opposite seats at 4 and (in pairs) at 6, alternate at 6."""
        return seat % self.side_count

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    # --- dealing -------------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        """Cards each player receives per deal."""
        if self.has(Variant.SCOPONE):
            return 9
        if self.has(Variant.SCOPONE_SCIENTIFICO):
            return 10
        return 3

    @property
    def opening_table_cards(self) -> int:
        return 0 if self.has(Variant.SCOPONE_SCIENTIFICO) else 4

    @property
    def deals_per_round(self) -> int:
        return (40 - self.opening_table_cards) // (self.hand_size * self.players)

    # --- play and scoring ----------------------------------------------------------------

    @property
    def sweep_on_last_play(self) -> bool:
        return self.has(Variant.SCOPONE_SCIENTIFICO)

    def describe(self) -> str:
        names = ", ".join(sorted(v.value for v in self.variants)) or "none"
        return f"{self.players} players, target {self.target}, variants: {names}"
