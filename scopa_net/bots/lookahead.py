"""Search a guessed deal to the end of the cards in hand, then judge what is left.

Playing a guessed position to the end of the round with a cheap policy (a playout) spends
most of its time on later deals whose cards were guessed anyway, and its result is noisy.
:class:`DealSearch` instead searches the guessed hands exactly (alpha-beta, partners
maximising together, opponents minimising) until the hands run out or a ply limit is reached,
and then values the position with :class:`Leaf`: the expected margin of the round's score
lines, given the captured piles and the cards still to be won.

The leaf's model of the future: each card not yet captured goes to either side with even
odds. Most cards and most coins are then binomial tails (exact, from a table); the settebello
(and the variants' single cards) count half a point of nothing until taken; the primiera, whose
key does not add up card by card, is read from one random split of the remaining cards drawn
per guessed deal (the same split for every candidate play, so it blurs none of their
differences). On top of that, the seat to move next at the leaf threatens the table: if its
hand (it is part of the guessed deal) can sweep, its side is credited the sweep, and its best
capture is credited at a discount.
"""

from __future__ import annotations

from functools import cache
from math import comb

from scopa_net.bots.evaluation import FastScorer, card_weights, margin
from scopa_net.cards import COINS_MASK, FULL_MASK, RE_BELLO, SETTEBELLO
from scopa_net.plays import CARD_BITS, CARD_FIELD
from scopa_net.round import Round
from scopa_net.rules import RuleSet, Variant

#: Share of the next seat's best capture (in card weights) its side is credited at a leaf.
CAPTURE_SHARE = 0.5
#: Plies searched at most before the leaf: a whole deal with two players; once round the
#: table with four (a deal lasts 12 plays there); three in scopone, whose ten-card hands
#: branch too much for more within the budget.
DEFAULT_MAX_PLIES = {2: 6, 4: 4}
LONG_HANDS_MAX_PLIES = 3


def max_plies_for(rules: RuleSet) -> int:
    if rules.hand_size > 3:
        return LONG_HANDS_MAX_PLIES
    return DEFAULT_MAX_PLIES.get(rules.players, 4)


@cache
def lead_odds(remaining: int, behind: int) -> float:
    """P(side 0 ends strictly ahead) − P(side 1 does), when side 0 trails by ``behind`` and
    each of ``remaining`` cards goes to either side with even odds."""
    # Side 0 gets X ~ Bin(remaining, 1/2): it leads iff 2X > remaining + behind.
    total = 2**remaining
    ahead = level = 0
    for x in range(remaining + 1):
        diff = 2 * x - remaining - behind
        if diff > 0:
            ahead += comb(remaining, x)
        elif diff == 0:
            level += comb(remaining, x)
    return (2 * ahead + level - total) / total


class Leaf:
    """The expected round margin of an unfinished two-sided position (see module docstring)."""

    __slots__ = (
        "_prime_sum",
        "_primes",
        "_quindici",
        "_re_bello",
        "_side_of",
        "_weights",
        "scorer",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.scorer = FastScorer(rules)
        self._primes = self.scorer._primes
        self._prime_sum = rules.has(Variant.PRIMIERA_SUM)
        self._re_bello = rules.has(Variant.RE_BELLO)
        self._quindici = rules.has(Variant.QUINDICI)
        self._side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self._weights = card_weights(rules)

    def value(self, rnd: Round, split: int) -> float:
        """Side 0's expected margin; ``split`` is the random split (a 40-bit mask: side 0's)."""
        p0, p1 = rnd.piles
        if not rnd.plays_left:
            t = self.scorer.totals(rnd.piles, rnd.sweeps)
            return t[0] - t[1]
        rest = FULL_MASK & ~(p0 | p1)
        v = float(rnd.sweeps[0] - rnd.sweeps[1])
        v += lead_odds(rest.bit_count(), p1.bit_count() - p0.bit_count())
        coins0 = (p0 & COINS_MASK).bit_count()
        coins1 = (p1 & COINS_MASK).bit_count()
        v += lead_odds((rest & COINS_MASK).bit_count(), coins1 - coins0)
        bello = SETTEBELLO.bit
        if p0 & bello:
            v += 1.0
        elif p1 & bello:
            v -= 1.0
        if self._re_bello:
            if p0 & RE_BELLO.bit:
                v += 1.0
            elif p1 & RE_BELLO.bit:
                v -= 1.0
        q0 = p0 | (rest & split)
        q1 = p1 | (rest & ~split)
        k0 = self._prime_key(q0)
        k1 = self._prime_key(q1)
        if k0 > k1:
            v += 1.0
        elif k1 > k0:
            v -= 1.0
        # The seat to move threatens the table with the hand the guess gave it.
        codes = rnd.legal_codes()
        best = 0.0
        weights = self._weights
        table_mask = rnd.table_mask
        sweep_counts = rnd.plays_left > 1 or rnd.rules.sweep_on_last_play
        for code in codes:
            taken = code >> CARD_BITS
            if not taken:
                continue
            gain = weights[code & CARD_FIELD]
            m = taken
            while m:
                low = m & -m
                gain += weights[low.bit_length() - 1]
                m ^= low
            gain *= CAPTURE_SHARE
            if taken == table_mask and sweep_counts:
                gain += 1.0
            best = max(best, gain)
        return v + best if self._side_of[rnd.turn] == 0 else v - best

    def _prime_key(self, pile: int) -> int:
        suits = total = 0
        for m, best in self._primes:
            held = pile & m
            if held:
                suits += 1
                total += best[held]
        return total if self._prime_sum else suits * 1000 + total


class DealSearch:
    """Alpha-beta over a guessed position until the hands in play run out (or ``max_plies``),
    valued by :class:`Leaf`; exact to the end once the stock is gone. Two sides only."""

    __slots__ = ("_deal", "_side_of", "_split", "leaf", "max_plies", "nodes", "scorer")

    def __init__(self, rules: RuleSet, max_plies: int | None = None) -> None:
        if rules.side_count != 2:
            raise ValueError(f"deal search needs two sides, not {rules.side_count!r}")
        self.leaf = Leaf(rules)
        self.scorer = self.leaf.scorer
        self._side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self.max_plies = max_plies_for(rules) if max_plies is None else max_plies
        self.nodes = 0
        self._split = 0
        self._deal = 0

    def value(self, rnd: Round, side: int, split: int, deal: int, plies: int) -> float:
        """``side``'s value of ``rnd`` (the candidate already played), searching at most
        ``plies`` more plays and no further than deal number ``deal``."""
        self._split = split
        self._deal = deal
        v = self._search(rnd, plies, -1000.0, 1000.0)
        return v if side == 0 else -v

    def _search(self, rnd: Round, plies: int, alpha: float, beta: float) -> float:
        """Side 0's value (side 0 maximises)."""
        self.nodes += 1
        if not rnd.plays_left:
            t = self.scorer.totals(rnd.piles, rnd.sweeps)
            return float(margin(t, 0))
        if plies <= 0 or rnd.next_deal != self._deal:
            return self.leaf.value(rnd, self._split)
        codes = rnd.legal_codes()
        if len(codes) > 1:
            codes.sort(key=_capture_order)
        maximising = self._side_of[rnd.turn] == 0
        best = -1000.0 if maximising else 1000.0
        last = len(codes) - 1
        for i, code in enumerate(codes):
            child = rnd if i == last else rnd.copy()
            child.push_code(code)
            v = self._search(child, plies - 1, alpha, beta)
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
    return -(code >> CARD_BITS).bit_count()
