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
        table = 0
        for c in known.table:
            table |= BIT[c]
        sweeps = known.plays_left != 1 or rules.sweep_on_last_play
        gain, after = play_gain(weights, table, code, sweeps)
        if known.plays_left > 1:
            gain -= exposure(known, weights, after)
        return gain


def play_gain(weights: Sequence[float], table: int, code: int, sweeps: bool) -> tuple[float, int]:
    """What ``code`` takes from ``table`` (its cards' weights, a point more for a sweep when
    ``sweeps``: clearing the table now is one), and the table it leaves."""
    card = code & CARD_FIELD
    taken = code >> CARD_BITS
    if not taken:
        return 0.0, table | BIT[card]
    after = table & ~taken
    gain = weights[card] + sum(weights[c] for c in indices_of(taken))
    if not after and sweeps:
        gain += SWEEP_POINTS
    return gain, after


def exposure(known: Observed, weights: tuple[float, ...], table: int) -> float:
    """Expected loss from leaving ``table`` to the next player: a sweep, or its best cards."""
    rules = known.rules
    hand = known.hand_counts[(known.seat + 1) % rules.players] or rules.hand_size
    unseen = 0
    for c in known.unseen:
        unseen |= BIT[c]
    return exposure_to(rules, weights, table, unseen, hand)


def exposure_to(
    rules: RuleSet, weights: Sequence[float], table: int, unseen: int, hand: int
) -> float:
    """:func:`exposure` for a next seat holding ``hand`` of the cards ``unseen`` (a mask) from
    where the mover sits."""
    if not table:
        return 0.0
    n = unseen.bit_count()
    wanted = 0
    for v in sweeping_values(rules, table):
        wanted += (unseen & VALUE_MASK[v]).bit_count()
    loss = SWEEP_POINTS * holds_any(n, wanted, hand)
    quindici = rules.has(Variant.QUINDICI)
    for c in indices_of(table):
        want = QUINDICI_TOTAL - VALUE[c] if quindici else VALUE[c]
        takers = (unseen & VALUE_MASK[want]).bit_count() if 1 <= want <= 10 else 0
        loss += weights[c] * holds_any(n, takers, hand)
    return loss


class GreedyPolicy:
    """:meth:`GreedyPlayer.score`'s choice for the seat to move in a (guessed) round, read
    from the round itself: the seat's unseen cards are the ones not in its hand, on the
    table or captured, as its own view has them. For searches that model a seat as greedy."""

    __slots__ = ("hand_size", "rules", "sweep_last", "weights")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.weights = card_weights(rules)
        self.hand_size = rules.hand_size
        self.sweep_last = rules.sweep_on_last_play

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
        hand = len(rnd.hands[(seat + 1) % self.rules.players]) or self.hand_size
        exposed = rnd.plays_left > 1
        sweeps = rnd.plays_left != 1 or self.sweep_last
        best = codes[0]
        best_score = -1e18
        for code in codes:
            gain, after = play_gain(weights, table, code, sweeps)
            if exposed:
                gain -= exposure_to(self.rules, weights, after, unseen, hand)
            if gain > best_score:
                best_score = gain
                best = code
        return best
