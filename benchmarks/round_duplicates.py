"""Two computer players on duplicate rounds: each deck is played twice, the sides swapped.

A round is the unit the players think in (they never look at the match score), so single
rounds measure points a round with less noise per CPU second than whole matches do. Each
player is a level name, optionally with the hard player's settings, such as
``hard:lookahead=False`` (the playout method of before), ``hard:nodes=16000`` or
``hard:leaf=1/1/1/1/1/0.5/1/0/0`` (the leaf's weights, :data:`scopa_net.bots.lookahead.FEATURES`)::

    nice -n 10 python benchmarks/round_duplicates.py hard hard:lookahead=False --rounds 200
    nice -n 10 python benchmarks/round_duplicates.py hard medium --players 4 --rounds 100
    nice -n 10 python benchmarks/round_duplicates.py expert:think=0.2 expert:think=0.05

``--knowing partner|opponents|everyone`` (measurement only, never a level) hands player A's
guesses the true hands of those seats, as they are when it decides, the other hidden cards
still guessed: what knowing them would be worth to A's method, beside the oracle's ceiling
(:mod:`scopa_net.bots.oracle`), which knows the stock's order too::

    nice -n 10 python benchmarks/round_duplicates.py hard medium --players 4 --rounds 200 \
        --knowing opponents --paired plain.m

``hard:tree=0`` is hard's determinized search at two players (before the information-set
search, :mod:`scopa_net.bots.ismcts`).

It prints A's margin over B in points a round with a 95% interval over the decks, and each
side's think time per move in CPU seconds (median, 99th percentile, maximum); every 20 decks
it prints the figure and A's think times so far, so a run cut short still says something.
``--margins FILE`` keeps each deck's margin; a later run on the same seed and player B
given ``--paired FILE`` also prints its difference from that run deck by deck, with less
spread than either alone::

    python benchmarks/round_duplicates.py hard medium --rounds 300 --margins old.m
    python benchmarks/round_duplicates.py hard:caution=1 medium --rounds 300 --paired old.m
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import scopa_net.bots.ismcts
import scopa_net.bots.strong
from scopa_net.bots.base import Player
from scopa_net.bots.levels import make_player
from scopa_net.bots.observed import Observed
from scopa_net.bots.sampling import World, sample_world
from scopa_net.bots.stats import mean_interval
from scopa_net.bots.strong import StrongPlayer
from scopa_net.cards import CARDS
from scopa_net.commands.options import BOT_LEVELS
from scopa_net.match import Match
from scopa_net.round import Round
from scopa_net.rules import RuleSet

EVERY = 20
#: ``--knowing``'s seats, as steps round the table from the seat deciding.
KNOWING = {"partner": (2,), "opponents": (1, 3), "everyone": (1, 2, 3)}


class ToldHands:
    """Measurement only: while :attr:`round` is set, every guess hard's searches draw gets the
    true hands of the seats ``steps`` round the table from the one deciding (of them, those
    that are other seats); the rest of the unseen cards are placed at random as before."""

    def __init__(self, steps: tuple[int, ...]) -> None:
        self.steps = steps
        self.round: Round | None = None

    def install(self) -> None:
        """Make hard's searches draw their guesses here (for the rest of the process)."""
        for module in (scopa_net.bots.ismcts, scopa_net.bots.strong):
            module.sample_world = self.sample_world  # type: ignore[attr-defined]

    def sample_world(self, known: Observed, rng: random.Random) -> World:
        rnd = self.round
        if rnd is None:
            return sample_world(known, rng)
        players = known.rules.players
        told = {(known.seat + step) % players for step in self.steps} - {known.seat}
        hands: list[tuple[int, ...]] = [()] * players
        taken: set[int] = set()
        for s in told:
            hands[s] = tuple(rnd.hands[s])
            taken.update(rnd.hands[s])
        cards = [c for c in known.unseen if c not in taken]
        rng.shuffle(cards)
        at = 0
        for s, count in enumerate(known.hand_counts):
            if s != known.seat and s not in told:
                hands[s] = tuple(cards[at : at + count])
                at += count
        return World(tuple(hands), tuple(cards[at:]))


def build(spec: str, seed: int) -> Player:
    """A player from ``LEVEL[:key=value,...]`` (settings only for hard; ``expert:think=S``
    for expert's budget, taken without a clock so each deck is reproducible)."""
    name, _, rest = spec.partition(":")
    level = BOT_LEVELS.get(name, name)
    if not rest:
        return make_player(level, seed)
    if level == "expert" and rest.startswith("think="):
        return make_player(level, seed, think=float(rest.removeprefix("think=")))
    if level != "strong":
        raise SystemExit(f"settings are for hard only (and expert:think=S), not {name!r}")
    settings: dict[str, bool | int | float | str | tuple[float, ...]] = {}
    for part in rest.split(","):
        key, _, value = part.partition("=")
        if value in ("True", "False"):
            settings[key] = value == "True"
        elif "/" in value:
            settings[key] = tuple(float(v) for v in value.split("/"))
        elif value.lstrip("-").replace(".", "", 1).isdigit():
            number = float(value)
            settings[key] = int(number) if number.is_integer() else number
        else:
            settings[key] = value
    return StrongPlayer(seed, **settings)  # type: ignore[arg-type]


def play_deck(
    a: str, b: str, rules: RuleSet, seed: int, deck_no: int, *, told: ToldHands | None = None
) -> tuple[float, list[float], list[float]] | None:
    """A's mean margin over the two plays of one deck, and each side's think times; with
    ``told``, A's seats decide with those hands told."""
    rng = random.Random(f"deck|{seed}|{deck_no}")
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = rng.randrange(rules.players)
    margins = []
    think: tuple[list[float], list[float]] = ([], [])
    for a_side in (0, 1):
        specs = (a, b) if a_side == 0 else (b, a)
        players = [
            build(
                specs[rules.side_of(s)], random.Random(f"bot|{seed}|{deck_no}|{s}").getrandbits(32)
            )
            for s in range(rules.players)
        ]
        match = Match(rules, dealer)
        rnd = match.deal(deck)
        if rnd.void:
            return None
        while not rnd.finished:
            seat = rnd.turn
            if told is not None:
                told.round = rnd if rules.side_of(seat) == a_side else None
            started = time.process_time()
            play = players[seat].choose(match.view_for(seat))
            think[0 if rules.side_of(seat) == a_side else 1].append(time.process_time() - started)
            match.play(play, seat, exact=True)
        totals = rnd.score().totals
        margins.append(totals[a_side] - totals[1 - a_side])
    return sum(margins) / 2, think[0], think[1]


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"median {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {ordered[-1] * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="player A: LEVEL or hard:key=value,...")
    parser.add_argument("b", help="player B, likewise")
    parser.add_argument("--rounds", type=int, default=100, help="decks, each played twice")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--margins",
        type=argparse.FileType("w"),
        help="file that gets 'DECK MARGIN' a line as each deck finishes",
    )
    parser.add_argument(
        "--paired",
        type=Path,
        help="an earlier run's --margins file (same seed and player B): also print this run "
        "minus that one, deck by deck",
    )
    parser.add_argument(
        "--knowing",
        choices=sorted(KNOWING),
        help="measurement only: A's guesses get these seats' true hands",
    )
    args = parser.parse_args()
    rules = RuleSet.of(args.players, 11, args.variant)
    told = None
    if args.knowing is not None:
        told = ToldHands(KNOWING[args.knowing])
        told.install()
    margins: list[float] = []
    finished: list[tuple[int, float]] = []
    think_a: list[float] = []
    think_b: list[float] = []
    started = time.perf_counter()
    for deck_no in range(args.rounds):
        played = play_deck(args.a, args.b, rules, args.seed, deck_no, told=told)
        if played is None:
            continue  # a void deal: nothing was played
        margins.append(played[0])
        finished.append((deck_no, played[0]))
        if args.margins is not None:
            print(deck_no, played[0], file=args.margins, flush=True)
        think_a += played[1]
        think_b += played[2]
        if len(margins) % EVERY == 0 and len(margins) < args.rounds:
            so_far = mean_interval(margins).text()
            think = spread(think_a)
            print(f"  after {len(margins)} decks: {so_far}; A's think {think}", flush=True)
    elapsed = time.perf_counter() - started
    figure = mean_interval(margins).text() if len(margins) > 1 else f"{margins[0]:.3f}"
    knowing = "" if args.knowing is None else f" (A told the {args.knowing}' hands)"
    print(
        f"{args.a} v {args.b}{knowing}: {len(margins)} decks, each played twice; {rules.describe()}"
    )
    print(f"A minus B, points a round [95% CI over decks]: {figure}")
    print(f"think per move, CPU: A {spread(think_a)}; B {spread(think_b)}")
    print(f"wall time {elapsed:.0f} s")
    if args.paired is not None:
        print(paired_text(dict(finished), read_margins(args.paired)))


def read_margins(path: Path) -> dict[int, float]:
    """A ``--margins`` file: A's margin by deck number."""
    margins = {}
    for line in path.read_text().splitlines():
        deck, margin = line.split()
        margins[int(deck)] = float(margin)
    return margins


def paired_text(new: dict[int, float], old: dict[int, float]) -> str:
    """This run minus an earlier one on the decks both finished. With the same decks and the
    same player B, the luck of the cards cancels deck by deck, so the spread is far smaller
    than either run's own."""
    decks = sorted(new.keys() & old.keys())
    if len(decks) < 2:
        return f"paired: only {len(decks)} decks in both runs"
    diff = mean_interval([new[d] - old[d] for d in decks]).text()
    return f"this run minus the earlier one, {len(decks)} decks [95% CI over decks]: {diff}"


if __name__ == "__main__":
    main()
