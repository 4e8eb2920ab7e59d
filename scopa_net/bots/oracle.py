"""The oracle: a player that sees every hidden card. For measurement only.

It states the ceiling in the arena: how much a perfect reader of the table could gain over
``greedy``, so the figure of a fair level can be read as a share of that value. It is not a
:class:`~scopa_net.bots.base.Player`: it has no ``choose(view)``, it needs the whole
:class:`~scopa_net.round.Round` (every hand and the stock in dealing order), and no level
name, command option or wire number leads to it. Only the arena core builds it, for the
measurement-only level name :data:`ORACLE`; ``tests/test_bots_oracle.py`` proves it cannot be
reached from the network or from the play, host, join and bots commands.

The ceiling measured (``benchmarks/arena_progress.py oracle medium --matches 1000 --cpu-think
--seed 1 [--players 4]``, 2026-12-07; think median 2.1 ms, max 27 ms CPU): two players
+2.232 [2.167, 2.297] points a round over ``medium``, where ``hard`` gets +0.979 [0.908,
1.051] on the same seed (44% of the ceiling); four players (two pairs) +2.386 [2.318, 2.455],
where a pair of ``hard`` gets +0.672 [0.596, 0.748] (28%); scopone scientifico (``--players 4
--variant scopone_scientifico``; think median 9.5 ms, max 58 ms) +2.183 [2.073, 2.293], where
a pair of ``hard`` got +0.931 [0.788, 1.073] over 660 matches (43%).

Which hidden cards that value lies in, at four players: ``hard`` told some seats' true hands
(its guesses place only the rest; ``round_duplicates.py hard medium --players 4 --rounds 200
--seed 1 --knowing K --paired F``, deck by deck against hard's own row on the same decks,
2026-12-07). Told the opponents' hands: +1.025 [0.572, 1.478] points a round over the first 80
decks (stopped; the row +2.000 [1.666, 2.334], against +0.975 untold on those decks); told the
partner's (each of the pair the other's): +0.212 [-0.139, 0.564] over the first 120 (the row
+1.046 [0.742, 1.349], against +0.833 untold). So the gap to the ceiling is the opponents'
hands (and the stock's order, which the oracle knows too), not the partner's: knowing the
partner's hand, all that signals between partners could pass, is worth a fifth of a point at
most. With two players the same holds: told the other seat's hand (round_duplicates.py hard
medium --rounds 120 --seed 1 --knowing opponents --paired F) +1.105 [0.816, 1.395] over 119
decks (the row +1.979 [1.724, 2.234], against +0.874 untold; think median 48 ms), so told that
hand hard comes within about a quarter of a point of the oracle's +2.232 (over matches, not
decks); the rest is the stock's order. At both player counts the other side's hand is the value
a reading could reach for, and the reading of today places it only about the 80th percentile of
the guesses (see ``read_partner`` in :class:`~scopa_net.bots.strong.StrongPlayer`).
"""

from __future__ import annotations

import random

from scopa_net.bots.search import ExactSearch, Playouts
from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet

#: The arena's name for the oracle. Deliberately not in :data:`scopa_net.bots.levels.LEVELS`.
ORACLE = "oracle"
#: Plays left (after the one chosen) at which the oracle searches exactly to the end.
ORACLE_EXACT_PLAYS = 8
#: Playouts per legal play before that.
ORACLE_PLAYOUTS = 40


class Oracle:
    """Search on the true deal: exact near the end of the round, playouts before."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._tools: dict[RuleSet, tuple[Playouts, ExactSearch | None]] = {}

    def choose_seeing(self, rnd: Round) -> Play:
        """The best play for the seat to move in ``rnd``, knowing every card in it."""
        codes = sorted(rnd.legal_codes())
        if len(codes) == 1:
            return Play.from_code(codes[0])
        rules = rnd.rules
        tools = self._tools.get(rules)
        if tools is None:
            exact = ExactSearch(rules) if rules.side_count == 2 else None
            tools = self._tools[rules] = (Playouts(rules), exact)
        playouts, exact = tools
        side = rules.side_of(rnd.turn)
        history = ",".join(str(code) for _, code, _ in rnd.history)
        rng = random.Random(f"oracle|{self.seed}|{rnd.dealer}|{rnd.table_mask}|{history}")
        values: list[float] = []
        for code in codes:
            child = rnd.copy()
            child.push_code(code)
            if exact is not None and child.plays_left <= ORACLE_EXACT_PLAYS:
                values.append(exact.value(child, side))
                continue
            total = 0
            for _ in range(ORACLE_PLAYOUTS):
                total += playouts.play_out(child.copy(), side, rng)
            values.append(total / ORACLE_PLAYOUTS)
        return Play.from_code(codes[values.index(max(values))])
