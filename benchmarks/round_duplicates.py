"""Two computer players on duplicate rounds: each deck is played twice, the sides swapped.

A round is the unit the players think in (they never look at the match score), so single
rounds measure points a round with less noise per CPU second than whole matches do. Each
player is a level name, optionally with the hard player's settings, such as
``hard:lookahead=False`` (the playout method of before), ``hard:nodes=16000`` or
``hard:leaf=1/1/1/1/1/0.5/1/0/0`` (the leaf's weights, :data:`scopa_net.bots.lookahead.FEATURES`)::

    nice -n 10 python benchmarks/round_duplicates.py hard hard:lookahead=False --rounds 200
    nice -n 10 python benchmarks/round_duplicates.py hard medium --players 4 --rounds 100

It prints A's margin over B in points a round with a 95% interval over the decks, and each
side's think time per move in CPU seconds (median, 99th percentile, maximum); every 20 decks
it prints the figure so far, so a run cut short still says something.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scopa_net.bots.base import Player
from scopa_net.bots.levels import make_player
from scopa_net.bots.stats import mean_interval
from scopa_net.bots.strong import StrongPlayer
from scopa_net.cards import CARDS
from scopa_net.commands.options import BOT_LEVELS
from scopa_net.match import Match
from scopa_net.rules import RuleSet

EVERY = 20


def build(spec: str, seed: int) -> Player:
    """A player from ``LEVEL[:key=value,...]`` (settings only for hard)."""
    name, _, rest = spec.partition(":")
    level = BOT_LEVELS.get(name, name)
    if not rest:
        return make_player(level, seed)
    if level != "strong":
        raise SystemExit(f"settings are for hard only, not {name!r}")
    settings: dict[str, bool | int | float | tuple[float, ...]] = {}
    for part in rest.split(","):
        key, _, value = part.partition("=")
        if value in ("True", "False"):
            settings[key] = value == "True"
        elif "/" in value:
            settings[key] = tuple(float(v) for v in value.split("/"))
        else:
            number = float(value)
            settings[key] = int(number) if number.is_integer() else number
    return StrongPlayer(seed, **settings)  # type: ignore[arg-type]


def play_deck(
    a: str, b: str, rules: RuleSet, seed: int, deck_no: int
) -> tuple[float, list[float], list[float]] | None:
    """A's mean margin over the two plays of one deck, and each side's think times."""
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
        help="file that gets 'DECK MARGIN' a line as each deck finishes, so two runs on the "
        "same seed can be compared deck by deck (see benchmarks/paired.py)",
    )
    args = parser.parse_args()
    rules = RuleSet.of(args.players, 11, args.variant)
    margins: list[float] = []
    think_a: list[float] = []
    think_b: list[float] = []
    started = time.perf_counter()
    for deck_no in range(args.rounds):
        played = play_deck(args.a, args.b, rules, args.seed, deck_no)
        if played is None:
            continue  # a void deal: nothing was played
        margins.append(played[0])
        if args.margins is not None:
            print(deck_no, played[0], file=args.margins, flush=True)
        think_a += played[1]
        think_b += played[2]
        if len(margins) % EVERY == 0 and len(margins) < args.rounds:
            so_far = mean_interval(margins).text()
            print(f"  after {len(margins)} decks: {so_far}", flush=True)
    elapsed = time.perf_counter() - started
    figure = mean_interval(margins).text() if len(margins) > 1 else f"{margins[0]:.3f}"
    print(f"{args.a} v {args.b}: {len(margins)} decks, each played twice; {rules.describe()}")
    print(f"A minus B, points a round [95% CI over decks]: {figure}")
    print(f"think per move, CPU: A {spread(think_a)}; B {spread(think_b)}")
    print(f"wall time {elapsed:.0f} s")


if __name__ == "__main__":
    main()
