"""The greedy player: the best-looking play one move ahead, as Scopa players reason it.

A capture is worth what it takes (cards, coins, the settebello, sevens and sixes for the
primiera) plus a point for a sweep. Any play is then charged for what it leaves the next
player: the chance that they hold a card sweeping the table, and the chance that they can
take the valuable cards lying on it. Odds come from counting the cards not yet seen.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.bots.base import decision_rng
from scopa_net.bots.evaluation import card_weights
from scopa_net.bots.observed import Observed
from scopa_net.bots.tactics import QUINDICI_TOTAL, holds_any, sweeping_values
from scopa_net.cards import BIT, FULL_MASK, VALUE, VALUE_MASK, indices_of
from scopa_net.plays import CARD_BITS, CARD_FIELD, Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet, Variant
from scopa_net.view import SeatView

SWEEP_POINTS = 1.0


class GreedyPlayer:
    """One-ply heuristic player; the seed only breaks ties between equal plays."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._weights: dict[RuleSet, tuple[float, ...]] = {}

    def choose(self, view: SeatView) -> Play:
        known = Observed.from_view(view)
        codes = known.legal_codes()
        if len(codes) == 1:
            return Play.from_code(codes[0])
        rng = decision_rng(self.seed, view)
        scored = [(self.score(known, code), rng.random(), code) for code in codes]
        return Play.from_code(max(scored)[2])

    def score(self, known: Observed, code: int) -> float:
        """How good ``code`` looks one move ahead, in rough round points."""
        rules = known.rules
        weights = self._weights.get(rules)
        if weights is None:
            weights = self._weights[rules] = card_weights(rules)
        card = code & CARD_FIELD
        taken = code >> CARD_BITS
        table = 0
        for c in known.table:
            table |= BIT[c]
        gain = 0.0
        if taken:
            after = table & ~taken
            gain += weights[card] + sum(weights[c] for c in indices_of(taken))
            last = known.plays_left == 1
            if not after and (not last or rules.sweep_on_last_play):
                gain += SWEEP_POINTS
        else:
            after = table | BIT[card]
        if known.plays_left > 1:
            gain -= exposure(known, weights, after)
        return gain


def exposure(known: Observed, weights: tuple[float, ...], table: int) -> float:
    """Expected loss from leaving ``table`` to the next player: a sweep, or its best cards."""
    if not table:
        return 0.0
    rules = known.rules
    nxt = (known.seat + 1) % rules.players
    hand = known.hand_counts[nxt] or rules.hand_size
    unseen_values = [VALUE[c] for c in known.unseen]
    n = len(unseen_values)
    sweepers = sweeping_values(rules, table)
    loss = SWEEP_POINTS * holds_any(n, sum(v in sweepers for v in unseen_values), hand)
    quindici = rules.has(Variant.QUINDICI)
    for c in indices_of(table):
        want = QUINDICI_TOTAL - VALUE[c] if quindici else VALUE[c]
        takers = unseen_values.count(want)
        loss += weights[c] * holds_any(n, takers, hand)
    return loss


class GreedyPolicy:
    """:meth:`GreedyPlayer.score`'s choice for the seat to move in a (guessed) round, read
    from the round itself: the seat's unseen cards are the ones not in its hand, on the
    table or captured, as its own view has them. For searches that model a seat as greedy."""

    __slots__ = ("_quindici", "hand_size", "rules", "sweep_last", "weights")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.weights = card_weights(rules)
        self.hand_size = rules.hand_size
        self.sweep_last = rules.sweep_on_last_play
        self._quindici = rules.has(Variant.QUINDICI)

    def pick(self, rnd: Round, codes: Sequence[int]) -> int:
        """The first of ``codes`` with the greedy player's best score."""
        weights = self.weights
        seat = rnd.turn
        mine = 0
        for c in rnd.hands[seat]:
            mine |= BIT[c]
        table = rnd.table_mask
        unseen = FULL_MASK & ~(mine | table)
        for pile in rnd.piles:
            unseen &= ~pile
        n = unseen.bit_count()
        nxt = (seat + 1) % self.rules.players
        hand = len(rnd.hands[nxt]) or self.hand_size
        exposed = rnd.plays_left > 1
        last = rnd.plays_left == 1
        best = codes[0]
        best_score = -1e18
        for code in codes:
            card = code & CARD_FIELD
            taken = code >> CARD_BITS
            gain = 0.0
            if taken:
                after = table & ~taken
                gain += weights[card]
                m = taken
                while m:
                    low = m & -m
                    gain += weights[low.bit_length() - 1]
                    m ^= low
                if not after and (not last or self.sweep_last):
                    gain += SWEEP_POINTS
            else:
                after = table | BIT[card]
            if exposed and after:
                gain -= self._exposure(after, unseen, n, hand)
            if gain > best_score:
                best_score = gain
                best = code
        return best

    def _exposure(self, table: int, unseen: int, n: int, hand: int) -> float:
        """:func:`exposure` of ``table``, the next seat's unseen cards ``unseen``."""
        weights = self.weights
        wanted = 0
        for v in sweeping_values(self.rules, table):
            wanted += (unseen & VALUE_MASK[v]).bit_count()
        loss = SWEEP_POINTS * holds_any(n, wanted, hand)
        quindici = self._quindici
        m = table
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            want = QUINDICI_TOTAL - VALUE[c] if quindici else VALUE[c]
            if 1 <= want <= 10:
                loss += weights[c] * holds_any(n, (unseen & VALUE_MASK[want]).bit_count(), hand)
        return loss
