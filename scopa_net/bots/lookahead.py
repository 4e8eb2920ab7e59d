"""Search a guessed deal to the end of the cards in hand, then judge what is left.

Playing a guessed position to the end of the round with a cheap policy (a playout) spends
most of its time on later deals whose cards were guessed anyway, and its result is noisy.
:class:`DealSearch` instead searches the guessed hands (partners maximising together,
opponents minimising, by alpha-beta; or, with ``caution`` below 1, the opponents' answers
blended with the ones a choice model expects, see :class:`DealSearch`) until the hands run out
or a ply limit is reached, and then values the position with :class:`Leaf`: the expected
margin of the round's score lines, given the captured piles and the cards still to be won.

The leaf's model of the future: each card not yet captured goes to either side with even
odds. Most cards and most coins are then binomial tails (exact, from a table); the settebello
(and the variants' single cards) count half a point of nothing until taken; the primiera, whose
key does not add up card by card, is read from random splits of the remaining cards drawn
per guessed deal (the same split for every candidate play, so it blurs none of their
differences). On top of that, the seat to move next at the leaf threatens the table: if its
hand (it is part of the guessed deal) can sweep, its side is credited the sweep, and its best
capture is credited at a discount.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from math import comb, exp
from typing import Protocol

from scopa_net.bots.evaluation import FastScorer, card_weights, margin
from scopa_net.bots.inference import ChoiceModel
from scopa_net.cards import COINS_MASK, FULL_MASK, RE_BELLO, SETTEBELLO
from scopa_net.plays import CARD_BITS, CARD_FIELD
from scopa_net.round import Round
from scopa_net.rules import RuleSet, Variant


class Policy(Protocol):
    """A seat's one play in a guessed position (the playout policy's, the greedy player's)."""

    def pick(self, rnd: Round, codes: Sequence[int]) -> int: ...


#: What :meth:`Leaf.features` returns, in order; each is side 0's edge.
FEATURES = (
    "sweeps",  # sweeps made so far, side 0's minus side 1's
    "cards",  # P(side 0 ends with most cards) - P(side 1 does), cards left 50:50
    "coins",  # the same for most coins
    "singles",  # the settebello (and re bello) taken: +1 side 0's, -1 side 1's
    "primiera",  # who wins the primiera if the cards left split as the random split says
    "capture",  # the best capture (card weights) of the seat to move, + for side 0
    "sweep",  # 1 if the seat to move can sweep the table, + for side 0
    "tempo",  # +1 if side 0 is to move
    "holder",  # +1 if side 0 captured last (it takes the table at the end), -1 if side 1
)
#: Bits each further split of the primiera figure is the previous one turned by.
SPLIT_TURN = 7
#: The hand-set weights of before (one point a line, half a capture, a sweep a point).
HAND_WEIGHTS = (1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 1.0, 0.0, 0.0)
#: Plies searched at most before the leaf: a whole deal with two players; twice round the
#: table with four (a deal lasts 12 plays there: 8 measured +0.21 [-0.12, 0.54] points a round
#: better than 4, the whole deal 0.31 [0.03, 0.59] worse than 8); three in scopone, whose ten-card
#: hands branch too much for more within the budget.
DEFAULT_MAX_PLIES = {2: 6, 4: 8}
LONG_HANDS_MAX_PLIES = 3
#: Pairs of piles whose fixed-split primiera figure a leaf keeps at most (cleared when full).
PRIMIERA_MEMO_SIZE = 50_000
#: Positions the transposition table keeps at most (cleared when full).
MEMO_SIZE = 50_000
#: A deal number past every round's last: searched to it, a guess is searched to the end.
LAST_DEAL = 1000


def max_plies_for(rules: RuleSet) -> int:
    if rules.hand_size > 3:
        return LONG_HANDS_MAX_PLIES
    return DEFAULT_MAX_PLIES.get(rules.players, 4)


@cache
def fixed_splits_of(count: int) -> tuple[int, ...]:
    """``count`` splits of the deck (40-bit masks: side 0's cards), each card to either side
    with even odds, the same in every process (drawn from a fixed seed)."""
    rng = random.Random("scopa-net leaf splits")
    return tuple(rng.getrandbits(40) for _ in range(count))


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
    """The expected round margin of an unfinished two-sided position (see module docstring).

    The value is a weighted sum of :meth:`features`: :data:`HAND_WEIGHTS` unless given.
    ``benchmarks/fit_leaf.py`` fits weights to self-play outcomes; those predict outcomes
    better but decided worse (-0.15 points a round against ``greedy``), so they do not ship.
    Fitted again where the information-set trees ask the leaf, at each deal's start
    (``fit_leaf.py --rounds 20000 [--players 4 --deal-starts] --prime-splits 8|16``, medium
    against itself, seed 1, 2026-12-07) and given to ``hard`` against ``medium``, deck by deck
    against the hand-set weights on the same decks of seed 1 (``round_duplicates.py
    hard:leaf=W medium --rounds 200 --paired F``): two players +0.008 [-0.145, 0.160] over
    198 decks (W 0.970/0.801/0.975/1.144/0.626/1.184/1.226/-0.715/-0.002, think median 59 ms);
    four players -0.522 [-0.945, -0.099] over the first 69 decks (stopped; W
    0.976/0.817/0.957/1.119/0.574/1.173/1.289/-0.704/0.026). A closer fit of the outcome under
    ``medium``'s play is no better guide for the search. Nor is the other way from the fitted
    capture weight: at four players, capture 0.25 and the rest hand-set, -0.150 [-0.354,
    0.054] over 200 decks (think median 39.6 ms).
    """

    __slots__ = (
        "_fixed",
        "_prime_memo",
        "_prime_sum",
        "_primes",
        "_re_bello",
        "_side_of",
        "_weights",
        "coefficients",
        "fixed_splits",
        "prime_splits",
        "scorer",
    )

    def __init__(
        self,
        rules: RuleSet,
        coefficients: Sequence[float] | None = None,
        prime_splits: int = 1,
        fixed_splits: int = 0,
    ) -> None:
        self.prime_splits = prime_splits
        """Random splits of the cards left that the primiera figure averages over (each the
        last one turned by :data:`SPLIT_TURN` bits)."""
        self.fixed_splits = fixed_splits
        """Above 0: the primiera figure is instead the mean over this many splits, the same
        for every position (:func:`fixed_splits_of`), kept by the pair of piles: no noise from
        one call to the next, and a pair met again costs a look-up (``split`` is unused)."""
        self._fixed = fixed_splits_of(fixed_splits)
        self._prime_memo: dict[tuple[int, int], float] = {}
        self.scorer = FastScorer(rules)
        self._primes = self.scorer._primes
        self._prime_sum = rules.has(Variant.PRIMIERA_SUM)
        self._re_bello = rules.has(Variant.RE_BELLO)
        self._side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self._weights = card_weights(rules)
        self.coefficients = tuple(HAND_WEIGHTS if coefficients is None else coefficients)
        if len(self.coefficients) != len(FEATURES):
            raise ValueError(f"a leaf needs {len(FEATURES)} weights, not {coefficients!r}")

    def value(self, rnd: Round, split: int) -> float:
        """Side 0's expected margin; ``split`` is the random split (a 40-bit mask: side 0's)."""
        if not rnd.plays_left:
            t = self.scorer.totals(rnd.piles, rnd.sweeps)
            return t[0] - t[1]
        v = 0.0
        for w, f in zip(self.coefficients, self.features(rnd, split), strict=True):
            v += w * f
        return v

    def features(self, rnd: Round, split: int) -> tuple[float, ...]:
        """The figures the value weighs, each as side 0's edge (see :data:`FEATURES`)."""
        p0, p1 = rnd.piles
        rest = FULL_MASK & ~(p0 | p1)
        sweeps = float(rnd.sweeps[0] - rnd.sweeps[1])
        cards = lead_odds(rest.bit_count(), p1.bit_count() - p0.bit_count())
        coins0 = (p0 & COINS_MASK).bit_count()
        coins1 = (p1 & COINS_MASK).bit_count()
        coins = lead_odds((rest & COINS_MASK).bit_count(), coins1 - coins0)
        singles = 0.0
        bello = SETTEBELLO.bit
        if p0 & bello:
            singles += 1.0
        elif p1 & bello:
            singles -= 1.0
        if self._re_bello:
            if p0 & RE_BELLO.bit:
                singles += 1.0
            elif p1 & RE_BELLO.bit:
                singles -= 1.0
        if self._fixed:
            primiera = self._fixed_primiera(p0, p1, rest)
        else:
            primiera = self._random_primiera(p0, p1, rest, split)
        # The seat to move threatens the table with the hand the guess gave it.
        capture = sweep = 0.0
        weights = self._weights
        table_mask = rnd.table_mask
        sweep_counts = rnd.plays_left > 1 or rnd.rules.sweep_on_last_play
        for code in rnd.legal_codes():
            taken = code >> CARD_BITS
            if not taken:
                continue
            gain = weights[code & CARD_FIELD]
            m = taken
            while m:
                low = m & -m
                gain += weights[low.bit_length() - 1]
                m ^= low
            capture = max(capture, gain)
            if taken == table_mask and sweep_counts:
                sweep = 1.0
        sign = 1.0 if self._side_of[rnd.turn] == 0 else -1.0
        last = rnd.last_capturer
        holder = 0.0 if last is None or not table_mask else 1.0 if last == 0 else -1.0
        return (
            sweeps,
            cards,
            coins,
            singles,
            primiera,
            sign * capture,
            sign * sweep,
            sign,
            holder,
        )

    def _random_primiera(self, p0: int, p1: int, rest: int, split: int) -> float:
        """The primiera figure over ``prime_splits`` splits turned from ``split``."""
        primiera = 0.0
        for _ in range(self.prime_splits):
            k0 = self._prime_key(p0 | (rest & split))
            k1 = self._prime_key(p1 | (rest & ~split))
            primiera += 1.0 if k0 > k1 else -1.0 if k1 > k0 else 0.0
            split = (split >> SPLIT_TURN | split << (40 - SPLIT_TURN)) & FULL_MASK
        return primiera / self.prime_splits

    def _fixed_primiera(self, p0: int, p1: int, rest: int) -> float:
        """The primiera figure over the fixed splits, kept by the pair of piles."""
        memo = self._prime_memo
        figure = memo.get((p0, p1))
        if figure is None:
            if len(memo) >= PRIMIERA_MEMO_SIZE:
                memo.clear()
            key = self._prime_key
            total = 0
            for split in self._fixed:
                k0 = key(p0 | (rest & split))
                k1 = key(p1 | (rest & ~split))
                total += 1 if k0 > k1 else -1 if k1 > k0 else 0
            figure = memo[(p0, p1)] = total / len(self._fixed)
        return figure

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

    __slots__ = (
        "_answering",
        "_deal",
        "_memo",
        "_side",
        "_side_of",
        "_split",
        "caution",
        "leaf",
        "max_plies",
        "memo",
        "model",
        "nodes",
        "policy",
        "scorer",
    )

    def __init__(
        self,
        rules: RuleSet,
        max_plies: int | None = None,
        *,
        coefficients: Sequence[float] | None = None,
        caution: float = 1.0,
        prime_splits: int = 1,
        model: ChoiceModel | None = None,
        memo: bool = False,
        policy: Policy | None = None,
    ) -> None:
        if rules.side_count != 2:
            raise ValueError(f"deal search needs two sides, not {rules.side_count!r}")
        self.policy = policy
        """If given, the other side's seats play this policy's pick (one answer each, from the
        hand the guess gives them) instead of their best answer: a model of an opponent that
        plays by what it sees now, not by every card the guess shows the search."""
        self.memo = memo
        """Remember the values of positions searched to the round's end (a transposition
        table, kept across the guesses of a decision until :meth:`forget`: the key holds
        every hand, so a value stays true for any guess that reaches the position)."""
        self._memo: dict[tuple, tuple[float, float]] = {}
        self.leaf = Leaf(rules, coefficients, prime_splits)
        self.scorer = self.leaf.scorer
        self._side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self.max_plies = max_plies_for(rules) if max_plies is None else max_plies
        self.caution = caution
        """How much the other side is taken to answer perfectly: 1 is plain minimax; below
        1 its value is ``caution * worst + (1 - caution) * average`` of its answers, as it
        does not see the searching seat's hand that the guess shows the search."""
        self.model = model
        """If given, that average is weighted by how likely the model finds each answer."""
        self.nodes = 0
        self._split = 0
        self._deal = 0
        self._side = 0
        self._answering = -1

    def value(
        self, rnd: Round, side: int, split: int, deal: int, plies: int, *, wary: bool = True
    ) -> float:
        """``side``'s value of ``rnd`` (the candidate already played), searching at most
        ``plies`` more plays and no further than deal number ``deal``; ``wary=False`` searches
        plain minimax whatever the ``caution`` (for a position both sides can know fully)."""
        self._split = split
        self._deal = deal
        self._side = side
        # With a policy, which side answers by it is part of a remembered position.
        self._answering = -1 if self.policy is None else side
        if wary and self.caution < 1.0:
            v = self._search_wary(rnd, plies)
        else:
            v = self._search(rnd, plies, -1000.0, 1000.0)
        return v if side == 0 else -v

    def forget(self) -> None:
        """Empty the transposition table (``memo``); a player does at each decision."""
        self._memo.clear()

    def _settled(self, rnd: Round) -> float:
        """Side 0's value where the search stops: the score if the round is over, else the
        leaf's."""
        if not rnd.plays_left:
            return float(margin(self.scorer.totals(rnd.piles, rnd.sweeps), 0))
        return self.leaf.value(rnd, self._split)

    def _search_wary(self, rnd: Round, plies: int) -> float:
        """Side 0's value with the other side's answers blended (see ``caution``); no
        pruning, as an average needs every answer's value."""
        self.nodes += 1
        if not rnd.plays_left or plies <= 0 or rnd.next_deal > self._deal:
            return self._settled(rnd)
        codes = rnd.legal_codes()
        mover = self._side_of[rnd.turn]
        table = rnd.table_mask
        last = len(codes) - 1
        values = []
        for i, code in enumerate(codes):
            child = rnd if i == last else rnd.copy()  # the last answer may change rnd itself
            child.push_code(code)
            values.append(self._search_wary(child, plies - 1))
        best = max(values) if mover == 0 else min(values)
        if mover == self._side:
            return best
        c = self.caution
        model = self.model
        if model is None:
            return c * best + (1.0 - c) * sum(values) / len(values)
        sharp = model.sharpness
        odds = [exp(sharp * model.play_score(table, code)) for code in codes]
        mean = sum(o * v for o, v in zip(odds, values, strict=True)) / sum(odds)
        return c * best + (1.0 - c) * mean

    def _search(self, rnd: Round, plies: int, alpha: float, beta: float) -> float:
        """Side 0's value (side 0 maximises)."""
        self.nodes += 1
        if not rnd.plays_left or plies <= 0 or rnd.next_deal > self._deal:
            return self._settled(rnd)
        if self.memo and plies >= rnd.plays_left and not rnd.stock_count:
            return self._search_memo(rnd, alpha, beta)
        codes = self._answers(rnd)
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

    def _answers(self, rnd: Round) -> list[int]:
        """The plays searched at ``rnd``: every legal one, captures first (cutoffs come
        sooner), or the policy's one for the other side's seats (``policy``)."""
        codes = rnd.legal_codes()
        if len(codes) > 1:
            policy = self.policy
            if policy is not None and self._side_of[rnd.turn] != self._side:
                return [policy.pick(rnd, codes)]
            codes.sort(key=_capture_order)
        return codes

    def _search_memo(self, rnd: Round, alpha: float, beta: float) -> float:
        """Side 0's exact value of a position with the stock gone, searched to the end, by
        alpha-beta with the transposition table ``memo``. An entry is the bounds known on the
        value still to come (the sweeps made so far left out, so that positions reached with
        other sweeps share it): (low, high)."""
        if not rnd.plays_left:
            return float(margin(self.scorer.totals(rnd.piles, rnd.sweeps), 0))
        s0, s1 = rnd.sweeps
        made = float(s0 - s1)
        key = (
            self._answering,
            rnd.turn,
            rnd.table_mask,
            rnd.piles[0],
            rnd.last_capturer,
            *map(tuple, rnd.hands),
        )
        memo = self._memo
        bounds = memo.get(key)
        low, high = -1000.0, 1000.0
        if bounds is not None:
            low, high = bounds[0] + made, bounds[1] + made
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha = max(alpha, low)
            beta = min(beta, high)
        a0, b0 = alpha, beta
        codes = self._answers(rnd)
        maximising = self._side_of[rnd.turn] == 0
        best = -1000.0 if maximising else 1000.0
        last = len(codes) - 1
        for i, code in enumerate(codes):
            child = rnd if i == last else rnd.copy()
            child.push_code(code)
            self.nodes += 1
            v = self._search_memo(child, alpha, beta)
            if maximising:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if alpha >= beta:
                break
        # best is exact inside (a0, b0); a lower bound at or above b0, an upper one at or
        # below a0.
        if best <= a0:
            high = min(high, best)
        elif best >= b0:
            low = max(low, best)
        else:
            low = high = best
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = (low - made, high - made)
        return best


def _capture_order(code: int) -> int:
    return -(code >> CARD_BITS).bit_count()
