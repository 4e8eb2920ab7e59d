"""Reading the table: how likely a guessed deal is, given what the other seats chose to do.

Uniform guesses (:mod:`scopa_net.bots.sampling`) treat every placement of the unseen cards
as equally likely. People do not play at random, though: a player who laid a card on the
table while holding one that took the settebello probably did not hold that card. This module
turns each other seat's earlier choices into a weight for a guessed deal.

The model is the usual one for imperfect play: a seat picks among the plays its hand allowed
with probability proportional to ``exp(sharpness * score)``, where ``score`` is a plain
capture-minded value of the play (see :func:`play_score`). A guessed deal's weight is the
product, over the other seats' choices since their current hand was dealt, of how likely the
choice was with the hand that deal gives them at that moment: the cards it holds now plus
the ones they have played since. Earlier hands were played out in full and are known, so they
say nothing about hidden cards.

It reads only the seat's knowledge (:class:`~scopa_net.bots.observed.Observed`) and the guess.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import lru_cache

from scopa_net.bots.evaluation import card_weights
from scopa_net.bots.observed import Observed
from scopa_net.bots.sampling import World
from scopa_net.cards import BIT, VALUE, indices_of
from scopa_net.plays import CARD_BITS, CARD_FIELD
from scopa_net.rules import RuleSet, Variant

SWEEP_POINTS = 1.0
#: Cost of laying a card that leaves a table one card could sweep, in rough round points.
SWEEP_RISK = 0.6
#: How sure the model is that players pick the better-looking play (0 is "at random").
DEFAULT_SHARPNESS = 2.0
QUINDICI_TOTAL = 15


@lru_cache(maxsize=1 << 16)
def _captures(table_mask: int, value: int, quindici: bool, apt: bool) -> tuple[int, ...]:
    """The table cards (as masks) a card of ``value`` may take; empty if it must be laid."""
    if not table_mask:
        return ()
    cards = list(indices_of(table_mask))
    if quindici:
        want = QUINDICI_TOTAL - value
        return tuple(m for m in _subset_masks(cards) if _sum(m) == want)
    same = [BIT[c] for c in cards if VALUE[c] == value]
    if same:
        return tuple(same)
    if value == 1 and apt:
        return (table_mask,)
    return tuple(m for m in _subset_masks(cards) if m.bit_count() >= 2 and _sum(m) == value)


def _subset_masks(cards: list[int]) -> list[int]:
    masks = [0]
    for c in cards:
        masks += [m | BIT[c] for m in masks]
    return masks[1:]


def _sum(mask: int) -> int:
    return sum(VALUE[c] for c in indices_of(mask))


class ChoiceModel:
    """Scores plays the way a sensible player sees them, for one rule set."""

    __slots__ = ("_apt", "_quindici", "sharpness", "weights")

    def __init__(self, rules: RuleSet, sharpness: float = DEFAULT_SHARPNESS) -> None:
        self.weights = card_weights(rules)
        self._quindici = rules.has(Variant.QUINDICI)
        self._apt = rules.has(Variant.ASSO_PIGLIA_TUTTO)
        self.sharpness = sharpness

    def play_score(self, table_mask: int, code: int) -> float:
        """What a play looks worth one move ahead: captures gain, lays risk a sweep."""
        w = self.weights
        card = code & CARD_FIELD
        taken = code >> CARD_BITS
        if taken:
            score = 2.0 + w[card] + sum(w[c] for c in indices_of(taken))
            if taken == table_mask:
                score += SWEEP_POINTS
            return score
        score = -w[card]
        total = _sum(table_mask) + VALUE[card]
        if self._quindici:
            if 5 <= total <= 14:
                score -= SWEEP_RISK
        elif total <= 10:
            score -= SWEEP_RISK
        return score

    def best_score(self, table_mask: int, card: int) -> float:
        """The best score among the plays of ``card`` on this table."""
        takes = _captures(table_mask, VALUE[card], self._quindici, self._apt)
        if not takes:
            return self.play_score(table_mask, card)
        return max(self.play_score(table_mask, card | (m << CARD_BITS)) for m in takes)


class Decision:
    """One earlier choice of another seat, made from a hand that is still partly hidden."""

    __slots__ = ("chosen", "known", "seat", "strengths")

    def __init__(
        self, seat: int, chosen: float, known: Sequence[int], strengths: dict[int, float]
    ) -> None:
        self.seat = seat
        self.chosen = chosen
        """``sharpness * score`` of the play made."""
        self.known = tuple(known)
        """Cards of that hand we have seen since (played from it), the chosen one included."""
        self.strengths = strengths
        """``exp(sharpness * best score)`` of every card that hand might have held."""


class Inference:
    """The weight of guessed deals for one decision, from the other seats' choices."""

    __slots__ = ("decisions",)

    def __init__(self, known: Observed, model: ChoiceModel, *, skip: int | None = None) -> None:
        """``skip`` is a seat whose choices are not read (a partner read some other way)."""
        self.decisions = _decisions(known, model, skip)

    @property
    def informative(self) -> bool:
        return bool(self.decisions)

    def weight(self, world: World) -> float:
        """How likely the other seats' choices were if ``world`` is the truth (unnormalised)."""
        return math.exp(self.log_weight(world))

    def log_weight(self, world: World) -> float:
        """The logarithm of :meth:`weight` (no underflow however many choices were read)."""
        log_w = 0.0
        for d in self.decisions:
            strengths = d.strengths
            total = 0.0
            for c in d.known:
                total += strengths[c]
            for c in world.hands[d.seat]:
                total += strengths[c]
            log_w += d.chosen - math.log(total)
        return log_w


def tables_before(known: Observed) -> list[int]:
    """The table (a mask) before each play of ``known.history``, rebuilt backwards from the
    table now."""
    history = known.history
    tables = [0] * len(history)
    table = 0
    for c in known.table:
        table |= BIT[c]
    for i in range(len(history) - 1, -1, -1):
        code = history[i][1]
        taken = code >> CARD_BITS
        table = table | taken if taken else table & ~BIT[code & CARD_FIELD]
        tables[i] = table
    return tables


def seen_before(known: Observed, tables: list[int]) -> list[int]:
    """What had been seen (played, taken or on the table) before each play of
    ``known.history``, a mask each; ``tables`` is :func:`tables_before`'s."""
    seen = [0] * len(known.history)
    shown = 0
    for i, (_, code, _) in enumerate(known.history):
        seen[i] = shown | tables[i]
        shown |= BIT[code & CARD_FIELD] | code >> CARD_BITS
    return seen


def _decisions(known: Observed, model: ChoiceModel, skip: int | None) -> list[Decision]:
    """The other seats' choices made from the hands they hold now."""
    history = known.history
    tables = tables_before(known)
    hidden = known.unseen
    scale = model.sharpness
    decisions: list[Decision] = []
    for seat, i, later in choices_from_hidden_hands(known):
        if seat == skip:
            continue
        code = history[i][1]
        t = tables[i]
        strengths = {c: math.exp(scale * model.best_score(t, c)) for c in (*hidden, *later)}
        decisions.append(Decision(seat, scale * model.play_score(t, code), later, strengths))
    return decisions


def choices_from_hidden_hands(known: Observed) -> Iterator[tuple[int, int, list[int]]]:
    """Every other seat's play from the hand it holds now: (seat, index of the play in
    ``known.history``, the cards it has played from that hand since, that play's first)."""
    history = known.history
    for seat, held in enumerate(known.hand_counts):
        if seat == known.seat or not held:
            continue
        played = known.rules.hand_size - held
        if played <= 0:
            continue
        mine = [i for i, (s, _, _) in enumerate(history) if s == seat][-played:]
        for n, i in enumerate(mine):
            yield seat, i, [history[j][1] & CARD_FIELD for j in mine[n:]]
