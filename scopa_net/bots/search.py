"""Playing a guessed position to the end: a fast playout policy, and exact search.

Both work on a :class:`~scopa_net.round.Round` whose hidden cards have been guessed (see
:mod:`scopa_net.bots.sampling`), through the engine's fast path, and value the finished round
as a side's margin (:func:`scopa_net.bots.evaluation.margin`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scopa_net.bots.evaluation import FastScorer, card_weights, margin
from scopa_net.cards import VALUE
from scopa_net.plays import CARD_BITS, CARD_FIELD
from scopa_net.round import Round
from scopa_net.rules import RuleSet, Variant

SWEEP_POINTS = 1.0
#: Cost of a discard that leaves a table one card could sweep, in rough round points.
SWEEP_RISK = 0.6


class Playouts:
    """Plays rounds to the end with a cheap capture-minded policy, and scores them.

    The policy takes the capture worth most (a sweep first), and otherwise lays down the card
    that costs least while keeping the table out of one-card sweep range. With probability
    ``noise`` a play is chosen at random instead, so playouts explore.
    """

    __slots__ = ("_apt", "_quindici", "_weights", "noise", "rules", "scorer")

    def __init__(self, rules: RuleSet, noise: float = 0.1) -> None:
        self.rules = rules
        self.scorer = FastScorer(rules)
        self._weights = card_weights(rules)
        self._quindici = rules.has(Variant.QUINDICI)
        self._apt = rules.has(Variant.ASSO_PIGLIA_TUTTO)
        self.noise = noise

    def margin(self, rnd: Round, side: int) -> int:
        """The margin of a finished round for ``side``."""
        return margin(self.scorer.totals(rnd.piles, rnd.sweeps), side)

    def play_out(self, rnd: Round, side: int, rng: random.Random) -> int:
        """Finish ``rnd`` in place and return ``side``'s margin."""
        noise = self.noise
        rand = rng.random
        while rnd.plays_left:
            codes = rnd.legal_codes()
            if len(codes) == 1:
                code = codes[0]
            elif noise and rand() < noise:  # no draw at all without noise
                code = codes[int(rand() * len(codes))]
            else:
                code = self.pick(rnd, codes)
            rnd.push_code(code)
        return self.margin(rnd, side)

    def pick(self, rnd: Round, codes: Sequence[int]) -> int:
        """The policy's play among ``codes``."""
        weights = self._weights
        table_mask = rnd.table_mask
        total = 0
        for c in rnd.table:
            total += VALUE[c]
        best = codes[0]
        best_score = -1e9
        for code in codes:
            card = code & CARD_FIELD
            taken = code >> CARD_BITS
            if taken:
                score = 2.0 + weights[card]
                m = taken
                while m:
                    low = m & -m
                    score += weights[low.bit_length() - 1]
                    m ^= low
                if taken == table_mask:
                    score += SWEEP_POINTS
            else:
                score = -weights[card]
                after = total + VALUE[card]
                if self._quindici:
                    if 5 <= after <= 14:
                        score -= SWEEP_RISK
                elif after <= 10:
                    score -= SWEEP_RISK
                if self._apt and VALUE[card] != 1:
                    score -= 0.1
            if score > best_score:
                best_score = score
                best = code
        return best


class ExactSearch:
    """Perfect-information alpha-beta to the end of the round, for two-sided games.

    The value is the searching side's margin; the other side minimises it. It is exact for
    the guessed position, so it is worth it once few plays remain.
    """

    __slots__ = ("_side_of", "nodes", "scorer")

    def __init__(self, rules: RuleSet) -> None:
        if rules.side_count != 2:
            raise ValueError(f"exact search needs two sides, not {rules.side_count!r}")
        self.scorer = FastScorer(rules)
        self._side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self.nodes = 0

    def value(self, rnd: Round, side: int) -> int:
        return self._search(rnd, side, -1000, 1000)

    def _search(self, rnd: Round, side: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not rnd.plays_left:
            return margin(self.scorer.totals(rnd.piles, rnd.sweeps), side)
        codes = rnd.legal_codes()
        if len(codes) > 1:
            codes.sort(key=_capture_order)
        maximising = self._side_of[rnd.turn] == side
        best = -1000 if maximising else 1000
        last = len(codes) - 1
        for i, code in enumerate(codes):
            child = rnd if i == last else rnd.copy()
            child.push_code(code)
            v = self._search(child, side, alpha, beta)
            if maximising:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best


def _capture_order(code: int) -> int:
    """Search captures first, bigger ones before smaller: cutoffs come sooner."""
    return -(code >> CARD_BITS).bit_count()
