"""The greedy player: the best-looking play one move ahead, as Scopa players reason it.

A capture is worth what it takes (cards, coins, the settebello, sevens and sixes for the
primiera) plus a point for a sweep. Any play is then charged for what it leaves the next
player: the chance that they hold a card sweeping the table, and the chance that they can
take the valuable cards lying on it. Odds come from counting the cards not yet seen.
"""

from __future__ import annotations

from scopa_net.bots.base import decision_rng
from scopa_net.bots.evaluation import card_weights
from scopa_net.bots.observed import Observed
from scopa_net.bots.tactics import QUINDICI_TOTAL, holds_any, sweeping_values
from scopa_net.cards import BIT, VALUE, indices_of
from scopa_net.plays import CARD_BITS, CARD_FIELD, Play
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
