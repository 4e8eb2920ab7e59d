"""Round scoring, line by line.

One point each for most cards, most coins, the settebello and the primiera (a tie for the lead
scores nobody; at three sides the lead must be a strict plurality), plus one per sweep, plus the
variant lines (re bello, napola). Every line keeps the figures it was decided on, so a score
sheet can show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scopa_net.cards import (
    COINS_MASK,
    PRIME_VALUE,
    RE_BELLO,
    SETTEBELLO,
    SUIT_MASK,
    Rank,
    Suit,
    card,
)
from scopa_net.rules import RuleSet, Variant

CARDS_LINE = "cards"
COINS_LINE = "coins"
SETTEBELLO_LINE = "settebello"
PRIMIERA_LINE = "primiera"
SWEEPS_LINE = "sweeps"
RE_BELLO_LINE = "re_bello"
NAPOLA_LINE = "napola"


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of the score sheet.

    ``figures`` are what each side showed for the line (card count, coin count, primiera
    total, sweeps, napola run...); ``points`` what each side scored; ``winner`` the side that
    took a one-point line, or ``None`` (tied, nobody, or a line paid to several sides).
    """

    name: str
    figures: tuple[int, ...]
    points: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True, slots=True)
class RoundScore:
    lines: tuple[ScoreLine, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(col) for col in zip(*(line.points for line in self.lines), strict=True))

    def line(self, name: str) -> ScoreLine:
        for line in self.lines:
            if line.name == name:
                return line
        raise KeyError(name)


def strict_leader(figures: Sequence[int | tuple[int, ...]]) -> int | None:
    """The one side whose figure beats every other side's, or None on a tie for the lead."""
    best = max(figures)
    leaders = [i for i, f in enumerate(figures) if f == best]
    return leaders[0] if len(leaders) == 1 else None


def _one_point_line(name: str, figures: Sequence[int], winner: int | None) -> ScoreLine:
    points = tuple(1 if i == winner else 0 for i in range(len(figures)))
    return ScoreLine(name, tuple(figures), points, winner)


def prime_value(rank: Rank, rules: RuleSet) -> int:
    """A rank's worth on the prime scale (courts 10, or 0 under ``court_prime=0``)."""
    if rank.is_court and rules.has(Variant.COURT_PRIME_0):
        return 0
    return PRIME_VALUE[rank]


# Per suit, the cards in falling prime order: the first one a pile holds is its best.
_PRIME_ORDER = (
    Rank.SEVEN,
    Rank.SIX,
    Rank.ACE,
    Rank.FIVE,
    Rank.FOUR,
    Rank.THREE,
    Rank.TWO,
    Rank.KNAVE,
    Rank.KNIGHT,
    Rank.KING,
)
_BEST_FIRST: tuple[tuple[tuple[int, Rank], ...], ...] = tuple(
    tuple((card(rank, suit).bit, rank) for rank in _PRIME_ORDER) for suit in Suit
)


def primiera_total(pile: int, rules: RuleSet) -> tuple[int, int]:
    """(suits held, sum of the best prime value in each held suit) for a pile mask.

    A suit counts as held when the pile has any card of it, court cards included.
    """
    suits = 0
    total = 0
    for suit_mask, best_first in zip(SUIT_MASK, _BEST_FIRST, strict=True):
        if pile & suit_mask:
            suits += 1
            rank = next(rank for bit, rank in best_first if pile & bit)
            total += prime_value(rank, rules)
    return suits, total


def primiera_key(pile: int, rules: RuleSet) -> tuple[int, ...]:
    """What primiera compares: (suits, total) by default, the total alone for primiera=sum.

    By default a side holding more suits beats one holding fewer whatever the totals, and
    equal suit counts compare totals. Under ``primiera=sum`` a missing suit counts 0.
    """
    suits, total = primiera_total(pile, rules)
    return (total,) if rules.has(Variant.PRIMIERA_SUM) else (suits, total)


def napola_run(pile: int) -> int:
    """Length of the unbroken run of coins from the ace; 0 unless it reaches the three."""
    run = 0
    for rank in Rank:
        if pile & (1 << ((rank - 1) * 4)):  # coins are suit 0
            run += 1
        else:
            break
    return run if run >= 3 else 0


def score_round(rules: RuleSet, piles: Sequence[int], sweeps: Sequence[int]) -> RoundScore:
    """Score a finished round from each side's captured pile (a card mask) and sweeps."""
    return score_figures(
        rules,
        cards=[p.bit_count() for p in piles],
        coins=[(p & COINS_MASK).bit_count() for p in piles],
        settebello=_holder(piles, SETTEBELLO.bit),
        primiera=[primiera_key(p, rules) for p in piles],
        sweeps=sweeps,
        re_bello=_holder(piles, RE_BELLO.bit),
        napola=[napola_run(p) for p in piles],
    )


def _holder(piles: Sequence[int], bit: int) -> int | None:
    return next((i for i, p in enumerate(piles) if p & bit), None)


def score_figures(
    rules: RuleSet,
    *,
    cards: Sequence[int],
    coins: Sequence[int],
    settebello: int | None,
    primiera: Sequence[tuple[int, ...]],
    sweeps: Sequence[int],
    re_bello: int | None = None,
    napola: Sequence[int] = (),
) -> RoundScore:
    """Score a round from what each side showed: card and coin counts, the settebello's
    holder, primiera keys (:func:`primiera_key`), sweeps, and the variant figures (the re
    bello's holder, napola runs). Used for a played round and for a hand counted by people."""
    sides = len(cards)
    settebello_held = [int(i == settebello) for i in range(sides)]
    lines = [
        _one_point_line(CARDS_LINE, cards, strict_leader(cards)),
        _one_point_line(COINS_LINE, coins, strict_leader(coins)),
        _one_point_line(SETTEBELLO_LINE, settebello_held, settebello),
        _one_point_line(PRIMIERA_LINE, [key[-1] for key in primiera], strict_leader(primiera)),
        ScoreLine(SWEEPS_LINE, tuple(sweeps), tuple(sweeps), None),
    ]
    if rules.has(Variant.RE_BELLO):
        held = [int(i == re_bello) for i in range(sides)]
        lines.append(_one_point_line(RE_BELLO_LINE, held, re_bello))
    if rules.has(Variant.NAPOLA):
        runs = tuple(napola) or (0,) * sides
        holder = next((i for i, r in enumerate(runs) if r), None)
        lines.append(ScoreLine(NAPOLA_LINE, runs, runs, holder))
    return RoundScore(tuple(lines))
