"""Information-set Monte Carlo tree search for two sides, over the hands in play.

The determinized search of :mod:`scopa_net.bots.strong` solves each guessed deal as if every
card were face up, then averages: in each guess its own later plays already know the other
hand (strategy fusion), and the other side's answers know this seat's hand. Here, instead,
one tree is grown for the decision (single-observer ISMCTS, Cowling, Powley and Whitehouse
2012). Each iteration draws a guess agreeing with the seat's view (weighted by the reading of
the other seat's choices, :mod:`scopa_net.bots.inference`, through a resampled pool), and
walks the tree by the plays made. A node is what this seat has seen so far, so its own later
choices are shared by every guess that leads there, and it cannot pick them by cards it does
not see. Each step picks by UCB among the plays legal in this guess (a child's trials are
counted only while it was available: the other seat's plays depend on the guess). The tree
stops at the end of the hands in play (the next deal's cards are chance); a new node is valued
by playing the deal out with the playout policy of :mod:`scopa_net.bots.search` and judging
the position left with the leaf of :mod:`scopa_net.bots.lookahead`, the round's expected
margin, or the score itself once the round is over.

Everything is read from :class:`~scopa_net.bots.observed.Observed` and the random source the
caller hands in; with an iteration budget (no clock) a decision is fixed by them.

With two pairs the tree is the same: a node is still what this seat has seen, the partner's
and the opponents' plays in it are made from the guess, and the values are side totals (the
partners' choices maximise their side's, the opponents' minimise it). The reading may be any
object with ``log_weight`` (with two pairs, the greedy reading, and the partner's signals).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import accumulate
from math import exp, log, sqrt
from typing import Protocol

from scopa_net.bots.greedy import GreedyPolicy
from scopa_net.bots.inference import ChoiceModel
from scopa_net.bots.lookahead import LAST_DEAL, DealSearch, Leaf
from scopa_net.bots.observed import Observed
from scopa_net.bots.sampling import World, sample_world
from scopa_net.bots.search import Playouts
from scopa_net.round import Round
from scopa_net.rules import RuleSet

#: The UCB exploration constant, in round points (the leaf's margins span a few points).
DEFAULT_EXPLORATION = 1.4
#: Guesses drawn uniformly per decision (at least, budget allowing), then drawn again from
#: evenly or by the reading's weights.
POOL_SIZE = 256
#: Iterations per guess in the pool, for longer searches ...
POOL_REUSE = 8
#: ... up to this many guesses (building one costs about as much as an iteration).
MAX_POOL = 2048
#: How many times the clock is read: once per this many iterations.
CLOCK_EVERY = 16


class Reading(Protocol):
    """How likely a guess is, by what the other seats did (:mod:`scopa_net.bots.inference`)."""

    def log_weight(self, world: World) -> float: ...


class _Node:
    """What this seat has seen after a sequence of plays: the statistics of the play that led
    here (side 0's total value, visits, times available) and the plays tried from here."""

    __slots__ = ("available", "children", "prior", "total", "visits")

    def __init__(self, prior: float = 0.0) -> None:
        self.children: dict[int, _Node] = {}
        self.total = 0.0
        self.visits = 0
        self.available = 0
        self.prior = prior
        """How good the play that led here looks one move ahead, to its mover (``bias``)."""


class InformationSetSearch:
    """Single-observer ISMCTS over the current deal, for rule sets with two sides."""

    __slots__ = (
        "bias",
        "exact_last",
        "exploration",
        "final_share",
        "greedy",
        "horizon",
        "iterations",
        "leaf",
        "leaf_plies",
        "model",
        "opponent_policy",
        "partner_policy",
        "playouts",
        "plies",
        "policy_share",
        "pool",
        "rollout_weight",
        "rollouts",
        "rules",
    )

    def __init__(
        self,
        rules: RuleSet,
        *,
        exploration: float = DEFAULT_EXPLORATION,
        coefficients: Sequence[float] | None = None,
        bias: float = 0.0,
        prime_splits: int = 1,
        horizon: int = 1,
        opponent_policy: bool = False,
        partner_policy: bool = False,
        greedy: bool = False,
        plies: int = 0,
        final_share: float = 0.0,
        rollouts: int = 0,
        rollout_weight: float = 0.5,
        exact_last: bool = False,
        policy_share: float = 1.0,
        fixed_splits: int = 0,
        pool: int = 0,
        leaf_plies: int = 0,
    ) -> None:
        if rules.side_count != 2:
            raise ValueError(f"information-set search needs two sides, not {rules.side_count!r}")
        if rollouts and plies:
            # The playouts reshuffle every card in hand: only right at the start of a deal.
            raise ValueError("rollouts need leaves at the start of a deal (plies=0)")
        self.rules = rules
        self.exploration = exploration
        self.bias = bias
        """Progressive bias: a play's one-move score (the choice model's) times this, over
        its visits plus one, is added to its UCB score, and untried plays are tried best
        first; 0 tries them in random order and adds nothing. Measured at 1.0 against 0:
        -0.035 [-0.189, 0.118] points a round against ``medium`` over 198 paired decks."""
        self.model = ChoiceModel(rules)
        self.horizon = horizon
        """Deals the tree spans: 1 stops at the end of the hands in play, 2 goes on through
        the next deal (dealt from the guess), and so on. Measured at 2 against 1, 2,000
        iterations: -0.056 [-0.262, 0.151] points a round against ``medium`` over 198 paired
        decks, at twice the think."""
        self.opponent_policy = opponent_policy
        """The other side's plays in the tree are the playout policy's (a greedy player's
        kind of choice) instead of its best by the tree's statistics."""
        self.policy_share = policy_share
        """With ``opponent_policy``, the share of the other side's plays in the tree made by
        the policy (each drawn at random); the rest are its best by the tree's statistics."""
        self.partner_policy = partner_policy
        """With two pairs, the partner's plays in the tree are the playout policy's too (they
        depend on the partner's guessed hand) instead of its best by the tree's statistics,
        which this seat's view keys and so cannot depend on that hand."""
        self.greedy = GreedyPolicy(rules) if greedy else None
        """If set, the seats that play by a policy in the tree (``opponent_policy``,
        ``partner_policy``) play the greedy player's choice
        (:class:`~scopa_net.bots.greedy.GreedyPolicy`) instead of the playout policy's."""
        self.plies = plies
        """Plays the tree and its playouts go at most, the leaf judging the position then
        (0: no limit but the deals the tree spans)."""
        self.final_share = final_share
        """0 picks the most tried play; above 0, the play of best mean value among those
        tried at least this share of the most tried one's visits."""
        self.rollouts = rollouts
        """Playouts of the rest of the round (by the playout policy, the cards not yet
        dealt at the leaf shuffled anew for each) a leaf's value blends in; 0: none."""
        self.rollout_weight = rollout_weight
        """The playouts' share of the leaf's value when ``rollouts``."""
        self.leaf = Leaf(rules, coefficients, prime_splits, fixed_splits)
        self.exact_last = (
            DealSearch(rules, coefficients=coefficients, memo=True) if exact_last else None
        )
        """With two players, a leaf at the start of the last deal (where both seats see every
        card left) is valued by exact minimax to the round's end instead of the leaf's
        figures; None: not."""
        self.pool = pool
        """Guesses drawn for a decision's pool; 0: :func:`pool_size` of its iterations."""
        self.leaf_plies = leaf_plies
        """Plays of the next deal (dealt from the guess) made by the playout policy before the
        leaf judges, where the tree stops at a deal's end; 0: none."""
        self.playouts = Playouts(rules, noise=0.0)
        self.iterations = 0
        """Iterations run so far (for benchmarks and tests)."""

    def best_code(
        self,
        known: Observed,
        codes: Sequence[int],
        rng: random.Random,
        iterations: int,
        *,
        reading: Reading | None = None,
        clock: Callable[[], float] | None = None,
        deadline: float | None = None,
    ) -> int:
        """The most tried of ``codes`` after ``iterations`` iterations (fewer if ``clock``
        passes ``deadline``; the pool of guesses, sized for ``iterations``, then stops growing
        too, so a generous budget costs nothing once the clock decides)."""
        tried = self.root_children(
            known, codes, rng, iterations, reading=reading, clock=clock, deadline=deadline
        )
        sign = 1.0 if known.side == 0 else -1.0
        if self.final_share > 0.0 and tried:
            most = max(n.visits for n in tried.values())
            floor = max(1.0, self.final_share * most)
            return max(
                (k for k in codes if k in tried and tried[k].visits >= floor),
                key=lambda k: (sign * tried[k].total / tried[k].visits, tried[k].visits),
            )

        def rank(code: int) -> tuple[int, float]:
            node = tried.get(code)
            return (-1, 0.0) if node is None else (node.visits, sign * node.total)

        return max(codes, key=rank)

    def root_values(
        self,
        known: Observed,
        codes: Sequence[int],
        rng: random.Random,
        iterations: int,
        *,
        reading: Reading | None = None,
        clock: Callable[[], float] | None = None,
        deadline: float | None = None,
    ) -> dict[int, tuple[int, float]]:
        """The search of :meth:`best_code`, and for each play of ``codes`` tried: its visits
        and its mean value to this seat's side."""
        tried = self.root_children(
            known, codes, rng, iterations, reading=reading, clock=clock, deadline=deadline
        )
        sign = 1.0 if known.side == 0 else -1.0
        return {k: (n.visits, sign * n.total / n.visits) for k, n in tried.items() if n.visits}

    def root_children(
        self,
        known: Observed,
        codes: Sequence[int],
        rng: random.Random,
        iterations: int,
        *,
        reading: Reading | None = None,
        clock: Callable[[], float] | None = None,
        deadline: float | None = None,
    ) -> dict[int, _Node]:
        """The root's children after the search: the plays of ``codes`` tried."""
        size = self.pool or pool_size(iterations)
        draw = _guesses(known, rng, reading, size, clock=clock, deadline=deadline)
        root = _Node()
        side_of = tuple(self.rules.side_of(s) for s in range(self.rules.players))
        deal = None
        stop = 0
        c = self.exploration
        leaf = self.leaf
        pick = self.playouts.pick
        policy_pick = pick if self.greedy is None else self.greedy.pick
        getrandbits = rng.getrandbits
        rand = rng.random
        bias = self.bias
        play_score = self.model.play_score
        by_policy = tuple(
            (self.opponent_policy and side_of[s] != known.side)
            or (self.partner_policy and s != known.seat and side_of[s] == known.side)
            for s in range(self.rules.players)
        )
        policy_share = self.policy_share
        rollouts = self.rollouts
        share = self.rollout_weight
        exact = self.exact_last
        leaf_plies = self.leaf_plies
        done = 0
        for done in range(1, iterations + 1):
            rnd = draw()
            if deal is None:
                deal = rnd.next_deal + self.horizon - 1
                stop = max(0, rnd.plays_left - self.plies) if self.plies else 0
            node = root
            path = [root]
            expanded = False
            while rnd.plays_left > stop and rnd.next_deal <= deal:
                legal = codes if node is root else rnd.legal_codes()
                children = node.children
                if by_policy[rnd.turn] and (policy_share >= 1.0 or rand() < policy_share):
                    code = legal[0] if len(legal) == 1 else policy_pick(rnd, legal)
                    child = children.get(code)
                    if child is None:
                        child = children[code] = _Node()
                    node = child
                    rnd.push_code(code)
                    path.append(node)
                    continue
                untried = [k for k in legal if k not in children]
                if untried:
                    if len(untried) == 1:
                        code = untried[0]
                        prior = play_score(rnd.table_mask, code) if bias else 0.0
                    elif bias:
                        table = rnd.table_mask
                        prior, code = max((play_score(table, k), k) for k in untried)
                    else:
                        code = untried[int(rand() * len(untried))]
                        prior = 0.0
                    children[code] = child = _Node(prior)
                    for k in legal:
                        tried = children.get(k)
                        if tried is not None:
                            tried.available += 1
                    rnd.push_code(code)
                    path.append(child)
                    expanded = True
                    break
                sign = 1.0 if side_of[rnd.turn] == 0 else -1.0
                best = None
                best_score = -1e18
                for k in legal:
                    ch = children[k]
                    ch.available += 1
                    score = sign * ch.total / ch.visits + c * sqrt(log(ch.available) / ch.visits)
                    if bias:
                        score += bias * ch.prior / (ch.visits + 1)
                    if score > best_score:
                        best_score = score
                        best = k
                assert best is not None
                node = children[best]
                rnd.push_code(best)
                path.append(node)
            if expanded:
                while rnd.plays_left > stop and rnd.next_deal <= deal:
                    legal = rnd.legal_codes()
                    rnd.push_code(legal[0] if len(legal) == 1 else pick(rnd, legal))
            if leaf_plies and not stop:
                for _ in range(leaf_plies):
                    if not rnd.plays_left:
                        break
                    legal = rnd.legal_codes()
                    rnd.push_code(legal[0] if len(legal) == 1 else pick(rnd, legal))
            if exact is not None and rnd.plays_left and not rnd.stock_count:
                value = exact.value(rnd, 0, 0, LAST_DEAL, rnd.plays_left, wary=False)
            else:
                value = leaf.value(rnd, getrandbits(40))
            if rollouts and rnd.plays_left:
                value = (1.0 - share) * value + share * self._rolled(rnd, rollouts, rng)
            for n in path:
                n.visits += 1
                n.total += value
            if done % CLOCK_EVERY == 0 and _past(clock, deadline):
                break
        self.iterations += done
        return root.children

    def _rolled(self, rnd: Round, count: int, rng: random.Random) -> float:
        """Side 0's mean margin over ``count`` playouts of ``rnd`` to the round's end, the
        cards in hand and in the stock (all dealt from the guess) shuffled anew for each."""
        playouts = self.playouts  # without noise: they draw nothing from ``rng``
        starts = rnd._plan.starts
        total = 0.0
        for _ in range(count):
            sim = rnd.copy()
            start = starts[sim.next_deal]
            future = list(sim.deck[start:])
            sizes = [len(h) for h in sim.hands]
            for h in sim.hands:
                future += h
            rng.shuffle(future)
            at = 0
            hands = []
            for n in sizes:
                hands.append(future[at : at + n])
                at += n
            sim.hands = hands
            sim.deck = (*sim.deck[:start], *future[at:])
            total += playouts.play_out(sim, 0, rng)
        return total / count


def _past(clock: Callable[[], float] | None, deadline: float | None) -> bool:
    """Whether ``clock`` reads past ``deadline`` (never, without both)."""
    return clock is not None and deadline is not None and clock() > deadline


def pool_size(iterations: int) -> int:
    """Guesses in the pool an ``iterations``-long search draws from."""
    return max(1, min(iterations, max(POOL_SIZE, min(MAX_POOL, iterations // POOL_REUSE))))


def _guesses(
    known: Observed,
    rng: random.Random,
    reading: Reading | None,
    size: int,
    *,
    clock: Callable[[], float] | None = None,
    deadline: float | None = None,
) -> Callable[[], Round]:
    """A function returning a fresh guessed position each call, drawn from ``size`` uniform
    guesses: evenly, or with a reading, by their weights (sampling-importance-resampling).
    Each guess is built once and copied per draw, which costs far less than dealing anew.
    Past ``deadline`` by ``clock`` the pool stops growing (a short budget gets a small pool)."""
    worlds = []
    built = []
    for i in range(size):
        if i and i % CLOCK_EVERY == 0 and _past(clock, deadline):
            break
        world = sample_world(known, rng)
        worlds.append(world)
        built.append(known.position(world.hands, world.stock))
    size = len(built)
    if reading is None:

        def evenly() -> Round:
            return built[int(rng.random() * size)].copy()

        return evenly
    logs = [reading.log_weight(w) for w in worlds]
    top = max(logs)
    cum = list(accumulate(exp(x - top) for x in logs))
    choices = rng.choices

    def resampled() -> Round:
        return choices(built, cum_weights=cum)[0].copy()

    return resampled
