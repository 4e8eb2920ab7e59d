"""Round scoring, line by line.

One point each for most cards, most coins, the settebello and the primiera (a tie for the lead
scores nobody; at three sides the lead must be a strict plurality), plus one per sweep, plus the
variant lines (re bello, napola). Every line keeps the figures it was decided on, so a score
sheet can show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

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
    return figures.index(best) if figures.count(best) == 1 else None


def _one_point_line(name: str, figures: Sequence[int], winner: int | None) -> ScoreLine:
    return _line_of(name, tuple(figures), winner)


@lru_cache(maxsize=4096)
def _line_of(name: str, figures: tuple[int, ...], winner: int | None) -> ScoreLine:
    """A one-point line; lines are values, and a round's lines are mostly the same few."""
    points = tuple(1 if i == winner else 0 for i in range(len(figures)))
    return ScoreLine(name, figures, points, winner)


@lru_cache(maxsize=1024)
def _paid_line(name: str, figures: tuple[int, ...], winner: int | None) -> ScoreLine:
    """A line paying each side its figure (sweeps, napola)."""
    return ScoreLine(name, figures, figures, winner)


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


_BEST_RANK: dict[int, Rank] = {}
"""The best rank on the prime scale among cards of one suit, by their mask (filled as met)."""
BEST_RANK_LIMIT = 4 * 1023
"""How many masks :data:`_BEST_RANK` can hold: every non-empty set of one suit's ten cards."""


def _best_rank(held: int) -> Rank:
    """The best rank on the prime scale among ``held``, cards of one suit (a non-empty mask)."""
    rank = _BEST_RANK.get(held)
    if rank is None:
        suit = (held & -held).bit_length() - 1 & 3
        rank = _BEST_RANK[held] = next(r for bit, r in _BEST_FIRST[suit] if held & bit)
    return rank


#: Prime values by rank (index 0 unused): courts 10, and courts 0 under ``court_prime=0``.
_PRIME_SCALE = (0, *(PRIME_VALUE[rank] for rank in Rank))
_PRIME_SCALE_COURTS_0 = tuple(0 if r >= Rank.KNAVE else v for r, v in enumerate(_PRIME_SCALE))


def _options(rules: RuleSet) -> tuple[tuple[int, ...], bool, bool, bool]:
    """What the variants change in scoring: the prime scale, whether primiera compares totals
    alone, and whether the re bello and napola lines are scored."""
    return _options_of(rules.variants)


@lru_cache(maxsize=256)
def _options_of(variants: frozenset[Variant]) -> tuple[tuple[int, ...], bool, bool, bool]:
    return (
        _PRIME_SCALE_COURTS_0 if Variant.COURT_PRIME_0 in variants else _PRIME_SCALE,
        Variant.PRIMIERA_SUM in variants,
        Variant.RE_BELLO in variants,
        Variant.NAPOLA in variants,
    )


def primiera_total(pile: int, rules: RuleSet) -> tuple[int, int]:
    """(suits held, sum of the best prime value in each held suit) for a pile mask.

    A suit counts as held when the pile has any card of it, court cards included.
    """
    return _primiera_total(pile, _options(rules)[0])


def _primiera_total(pile: int, scale: tuple[int, ...]) -> tuple[int, int]:
    suits = 0
    total = 0
    for suit_mask in SUIT_MASK:
        held = pile & suit_mask
        if held:
            suits += 1
            total += scale[_best_rank(held)]
    return suits, total


def primiera_key(pile: int, rules: RuleSet) -> tuple[int, ...]:
    """What primiera compares: (suits, total) by default, the total alone for primiera=sum.

    By default a side holding more suits beats one holding fewer whatever the totals, and
    equal suit counts compare totals. Under ``primiera=sum`` a missing suit counts 0.
    """
    scale, by_sum, _, _ = _options(rules)
    suits, total = _primiera_total(pile, scale)
    return (total,) if by_sum else (suits, total)


def napola_run(pile: int) -> int:
    """Length of the unbroken run of coins from the ace; 0 unless it reaches the three."""
    run = 0
    while run < 10 and pile & (1 << (run * 4)):  # coins are suit 0: bits 0, 4, 8...
        run += 1
    return run if run >= 3 else 0


def score_round(rules: RuleSet, piles: Sequence[int], sweeps: Sequence[int]) -> RoundScore:
    """Score a finished round from each side's captured pile (a card mask) and sweeps."""
    napola = _options(rules)[3]
    return score_figures(
        rules,
        cards=[p.bit_count() for p in piles],
        coins=[(p & COINS_MASK).bit_count() for p in piles],
        settebello=_holder(piles, SETTEBELLO.bit),
        primiera=[primiera_key(p, rules) for p in piles],
        sweeps=sweeps,
        re_bello=_holder(piles, RE_BELLO.bit),
        napola=[napola_run(p) for p in piles] if napola else (),
    )


def _holder(piles: Sequence[int], bit: int) -> int | None:
    for i, p in enumerate(piles):
        if p & bit:
            return i
    return None


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
        _paid_line(SWEEPS_LINE, tuple(sweeps), None),
    ]
    _, _, with_re_bello, with_napola = _options(rules)
    if with_re_bello:
        held = [int(i == re_bello) for i in range(sides)]
        lines.append(_one_point_line(RE_BELLO_LINE, held, re_bello))
    if with_napola:
        runs = tuple(napola) or (0,) * sides
        holder = next((i for i, r in enumerate(runs) if r), None)
        lines.append(_paid_line(NAPOLA_LINE, runs, holder))
    return RoundScore(tuple(lines))


def memory_stats() -> dict[str, tuple[int, int]]:
    """Each memory of this module by name, with the answers it holds and its bound."""
    return {
        "score lines": (_line_of.cache_info().currsize, _line_of.cache_info().maxsize or 0),
        "paid lines": (_paid_line.cache_info().currsize, _paid_line.cache_info().maxsize or 0),
        "best ranks": (len(_BEST_RANK), BEST_RANK_LIMIT),
    }
