"""Search a guessed four-seat position (two pairs, scopone) with the partner's play modelled.

:class:`~scopa_net.bots.lookahead.DealSearch` lets every seat of a guessed deal play as if
it saw the whole guess: the partner then "knows" this seat's hand and plans with it, which
the real partner cannot, and each of its plies multiplies the search by its hand. Here the
partner plays what a plain capture-minded player would on that table with its guessed hand
(:meth:`~scopa_net.bots.search.Playouts.pick`, which reads only its own hand and the table):
one branch instead of many, so the same nodes buy several times the guesses, and the
search counts on the captures the partner will really make. The opponents are searched
(they minimise, by alpha-beta) or, with ``opponents="policy"``, play that same model too.
The searching seat's own later plies are always searched. The position where the search
stops is valued by :class:`~scopa_net.bots.lookahead.Leaf`, as in the deal search.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.bots.evaluation import margin
from scopa_net.bots.lookahead import Leaf, _capture_order
from scopa_net.bots.search import Playouts
from scopa_net.round import Round
from scopa_net.rules import RuleSet

#: How the other seats' plies are chosen: searched (best for their side) or by the policy.
OPPONENT_MODES = ("search", "policy")
#: Plies searched at most before the leaf, by hand size: four players with three-card
#: hands, and scopone's ten-card hands.
PARTNER_MAX_PLIES = {3: 8, 10: 4}


class PartnerSearch:
    """Alpha-beta over a guessed position of two pairs, the searcher's partner playing the
    policy (see the module docstring); the same interface as ``DealSearch``."""

    __slots__ = (
        "_deal",
        "_seat",
        "_side_of",
        "_split",
        "leaf",
        "max_plies",
        "nodes",
        "opponents",
        "policy",
        "scorer",
    )

    def __init__(
        self,
        rules: RuleSet,
        max_plies: int | None = None,
        *,
        coefficients: Sequence[float] | None = None,
        opponents: str = "search",
    ) -> None:
        if rules.side_count != 2 or rules.players != 4:
            raise ValueError(f"partner search needs two pairs, not {rules.players!r} players")
        if opponents not in OPPONENT_MODES:
            raise ValueError(f"opponents must be one of {OPPONENT_MODES}, not {opponents!r}")
        self.leaf = Leaf(rules, coefficients)
        self.scorer = self.leaf.scorer
        self.policy = Playouts(rules)
        self._side_of = tuple(rules.side_of(s) for s in range(rules.players))
        if max_plies is None:
            max_plies = PARTNER_MAX_PLIES.get(rules.hand_size, 4)
        self.max_plies = max_plies
        self.opponents = opponents
        self.nodes = 0
        self._split = 0
        self._deal = 0
        self._seat = 0

    def value(
        self, rnd: Round, side: int, split: int, deal: int, plies: int, *, wary: bool = True
    ) -> float:
        """``side``'s value of ``rnd`` (the candidate already played: the searching seat is
        the last to have played), searching at most ``plies`` more plays and no further than
        deal number ``deal``. ``wary`` is the deal search's; the partner is always modelled."""
        self._split = split
        self._deal = deal
        self._seat = rnd.history[-1][0]
        v = self._search(rnd, plies, -1000.0, 1000.0)
        return v if side == 0 else -v

    def _settled(self, rnd: Round) -> float:
        if not rnd.plays_left:
            return float(margin(self.scorer.totals(rnd.piles, rnd.sweeps), 0))
        return self.leaf.value(rnd, self._split)

    def _search(self, rnd: Round, plies: int, alpha: float, beta: float) -> float:
        """Side 0's value (side 0 maximises)."""
        self.nodes += 1
        if not rnd.plays_left or plies <= 0 or rnd.next_deal > self._deal:
            return self._settled(rnd)
        codes = rnd.legal_codes()
        turn = rnd.turn
        if len(codes) > 1 and turn != self._seat:
            partner = self._side_of[turn] == self._side_of[self._seat]
            if partner or self.opponents == "policy":
                codes = [self.policy.pick(rnd, codes)]
        if len(codes) > 1:
            codes.sort(key=_capture_order)
        maximising = self._side_of[turn] == 0
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
