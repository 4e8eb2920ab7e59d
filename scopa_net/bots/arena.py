"""Duplicate-deal matches between two levels, and what they add up to.

A *pair* is one sequence of deck orders played twice to the end of a match: first with level
A on side 0 and level B on side 1, then with the sides swapped, the same decks dealt in the
same order from the same first dealer. Luck of the cards then falls on both levels alike.
Everything is seeded from the arena seed and the pair's number, so a pair plays the same
wherever and whenever it runs; the caller supplies the clock that times the decisions, and
runs pairs in parallel if it likes (see :mod:`scopa_net.commands.arena`).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from scopa_net.bots.base import Player
from scopa_net.bots.levels import make_player
from scopa_net.bots.oracle import ORACLE, Oracle
from scopa_net.bots.stats import Estimate, mean_interval, wilson_interval
from scopa_net.cards import CARDS
from scopa_net.match import Match
from scopa_net.rules import RuleSet

#: A match that lasts this many deals is stopped (it cannot happen at sane targets).
MAX_DEALS = 1000


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    level_a: str
    level_b: str
    pairs: int
    rules: RuleSet = field(default_factory=RuleSet)
    seed: int = 0
    think_a: float | None = None
    """Level A's time budget per move in seconds (thinking levels only; None: the default)."""
    think_b: float | None = None

    def __post_init__(self) -> None:
        if self.rules.side_count != 2:
            raise ValueError(
                f"the arena needs two sides; {self.rules.players} players make "
                f"{self.rules.side_count}"
            )
        if self.pairs < 1:
            raise ValueError(f"pairs must be at least 1, not {self.pairs!r}")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One match: which side level A sat on, who won, points and rounds, think times."""

    a_side: int
    winner: int
    points: tuple[int, int]
    """Match points by side."""
    rounds: int
    think: tuple[tuple[float, ...], tuple[float, ...]]
    """Seconds per decision, by side."""

    @property
    def a_won(self) -> bool:
        return self.winner == self.a_side

    @property
    def a_points(self) -> int:
        return self.points[self.a_side]

    @property
    def b_points(self) -> int:
        return self.points[1 - self.a_side]


def play_game(
    config: ArenaConfig,
    pair: int,
    a_side: int,
    clock: Callable[[], float],
    think_clock: Callable[[], float] | None = None,
) -> GameResult:
    """One match of pair ``pair``, level A on side ``a_side``.

    ``clock`` times the decisions for the report; ``think_clock`` (``clock`` if None) is the
    one thinking levels keep their budget by. The command passes the process's CPU time
    there, so a budget buys the same search however busy the machine is.
    """
    rules = config.rules
    decks = random.Random(f"decks|{config.seed}|{pair}")
    first_dealer = decks.randrange(rules.players)
    sides = [(config.level_a, config.think_a), (config.level_b, config.think_b)]
    if a_side == 1:
        sides.reverse()
    players = [
        _seat_player(
            *sides[rules.side_of(s)], _bot_seed(config.seed, pair, s), think_clock or clock
        )
        for s in range(rules.players)
    ]
    think: tuple[list[float], list[float]] = ([], [])
    match = Match(rules, first_dealer)
    deals = 0
    while not match.over:
        deals += 1
        if deals > MAX_DEALS:
            raise RuntimeError(f"pair {pair} lasted more than {MAX_DEALS} deals")
        deck = list(CARDS)
        decks.shuffle(deck)
        rnd = match.deal(deck)
        while not rnd.finished:
            seat = rnd.turn
            view = match.view_for(seat)
            player = players[seat]
            start = clock()
            seeing = isinstance(player, Oracle)
            play = player.choose_seeing(rnd) if seeing else player.choose(view)
            think[rules.side_of(seat)].append(clock() - start)
            match.play(play, seat, exact=True)
    assert match.winner is not None
    return GameResult(
        a_side=a_side,
        winner=match.winner,
        points=(match.scores[0], match.scores[1]),
        rounds=len(match.results),
        think=(tuple(think[0]), tuple(think[1])),
    )


def _seat_player(
    level: str, think: float | None, seed: int, clock: Callable[[], float]
) -> Player | Oracle:
    """The player behind one seat; the oracle (measurement only) is built here and only here."""
    if level == ORACLE:
        return Oracle(seed)
    return make_player(level, seed, think=think, clock=clock)


def play_pair(
    config: ArenaConfig,
    pair: int,
    clock: Callable[[], float],
    think_clock: Callable[[], float] | None = None,
) -> tuple[GameResult, GameResult]:
    """Both matches of a pair: level A on side 0, then on side 1, on the same decks."""
    return (
        play_game(config, pair, 0, clock, think_clock),
        play_game(config, pair, 1, clock, think_clock),
    )


def _bot_seed(seed: int, pair: int, seat: int) -> int:
    """A seat keeps its seed in both matches of a pair: only the level behind it changes."""
    return random.Random(f"bot|{seed}|{pair}|{seat}").getrandbits(32)


@dataclass(frozen=True, slots=True)
class LevelFigures:
    level: str
    wins: int
    win_rate: Estimate
    points_per_round: float
    think_median: float | None
    think_max: float | None


@dataclass(frozen=True, slots=True)
class ArenaReport:
    matches: int
    rounds: int
    a: LevelFigures
    b: LevelFigures
    margin_per_round: Estimate
    """Level A's points minus level B's, per round, with an interval over pairs."""


def pair_margin(first: GameResult, second: GameResult) -> float:
    """Level A's points minus level B's per round over a pair's two matches (one deck
    order, the seats swapped): the unit the arena's interval is taken over."""
    margin = first.a_points - first.b_points + second.a_points - second.b_points
    return margin / (first.rounds + second.rounds)


def summarise(config: ArenaConfig, pairs: Iterable[tuple[GameResult, GameResult]]) -> ArenaReport:
    games: list[GameResult] = []
    pair_margins: list[float] = []
    for first, second in pairs:
        games += (first, second)
        pair_margins.append(pair_margin(first, second))
    if not games:
        raise ValueError("no games to summarise")
    n = len(games)
    rounds = sum(g.rounds for g in games)
    a_wins = sum(g.a_won for g in games)
    a_think = [t for g in games for t in g.think[g.a_side]]
    b_think = [t for g in games for t in g.think[1 - g.a_side]]
    a = LevelFigures(
        config.level_a,
        a_wins,
        wilson_interval(a_wins, n),
        sum(g.a_points for g in games) / rounds,
        statistics.median(a_think) if a_think else None,
        max(a_think, default=None),
    )
    b = LevelFigures(
        config.level_b,
        n - a_wins,
        wilson_interval(n - a_wins, n),
        sum(g.b_points for g in games) / rounds,
        statistics.median(b_think) if b_think else None,
        max(b_think, default=None),
    )
    if len(pair_margins) >= 2:
        margin = mean_interval(pair_margins)
    else:
        value = pair_margins[0]
        margin = Estimate(value, float("-inf"), float("inf"))
    return ArenaReport(n, rounds, a, b, margin)


def format_report(
    config: ArenaConfig, report: ArenaReport, names: tuple[str, str] | None = None
) -> str:
    """The report as printed; ``names`` are what to call the two sides (the level names a
    person typed, such as ``hard``), by default the players' own names."""
    name_a, name_b = names or (config.level_a, config.level_b)
    lines = [
        f"{name_a} v {name_b}: {report.matches} matches "
        f"({_count(report.matches // 2, 'duplicate pair')}), {report.rounds} rounds; "
        f"{config.rules.describe()}; seed {config.seed}",
        f"{'level':<8} {'wins':>5}  {'win rate [95% CI]':<24} {'pts/round':>9} "
        f"{'think median':>13} {'think max':>10}",
    ]
    budgets = [
        f"{level} thinks {think:g} s a move"
        for level, think in ((name_a, config.think_a), (name_b, config.think_b))
        if think is not None
    ]
    if budgets:
        lines.insert(1, "; ".join(budgets))
    for name, fig in ((name_a, report.a), (name_b, report.b)):
        median = "-" if fig.think_median is None else f"{fig.think_median * 1000:.1f} ms"
        worst = "-" if fig.think_max is None else f"{fig.think_max * 1000:.1f} ms"
        lines.append(
            f"{name:<8} {fig.wins:>5}  {fig.win_rate.text():<24} "
            f"{fig.points_per_round:>9.3f} {median:>13} {worst:>10}"
        )
    margin = report.margin_per_round
    if math.isinf(margin.low):
        lines.append(f"{name_a} minus {name_b}, points per round: {margin.value:.3f} (one pair)")
    else:
        lines.append(
            f"{name_a} minus {name_b}, points per round [95% CI over pairs]: {margin.text()}"
        )
    return "\n".join(lines)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"
