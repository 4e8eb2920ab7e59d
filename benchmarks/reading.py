"""How well each reading of the other seats' choices tells where the hidden cards are.

Hard weights its guesses about the hidden cards by how likely the other seats' earlier choices
were with each guessed hand (:mod:`scopa_net.bots.inference`, :mod:`scopa_net.bots.reading`).
This plays rounds of one level (the decider, ``hard`` by default) against another (``medium``)
and, at each of the decider's choices while cards are hidden, draws ``--guesses`` uniform
guesses, weights them by each reading, and scores the chance each unseen card then has of
being with each other seat or in the stock against where it really is: the log-loss per
unseen card (lower is better) and the guesses' effective sample size. The uniform guess, no
reading at all, is the baseline, measured on the same guesses::

    nice -n 10 python benchmarks/reading.py --rounds 120 [--players 4] [--seed 2]

Measured 2026-12-04 (``--rounds 120``, seeds 1 and 2: 1,208 and 1,214 decisions): the choice
model at hard's sharpness (2) takes 2.7% and 3.7% off the uniform guess's log-loss, the
greedy reading at sharpness 32 (the best scored) 5.0% and 6.1%, keeping 750-780 of the 1,000
guesses' worth. Reading ``medium``'s choices tells little of its hand, however it is read.

The replay reading (:mod:`scopa_net.bots.replay`) and its sharpest form, ``exact`` (no
floor: against ``medium``, the greedy player, the exact chance of each of its choices with
each guessed hand, so the most any reading of them can tell), measured 2026-12-07
(``--rounds 60``, 606 and 608 decisions at two players, seeds 1 and 2; ``--rounds 40
--players 4``, 243, seed 1): at two players ``replay 32`` 0.950 and 0.943 of the uniform
log-loss, ``exact`` 0.931 and 0.922, against ``greedy 32``'s 0.946 and 0.939 and hard's
reading (``choice 2``) 0.971 and 0.968; at four players ``replay 32`` 0.945, ``exact`` 0.929
(the partner, a hard player, read by the same model), against ``greedy 32``'s 0.949 and
hard's (``greedy 4``) 0.971. Even read exactly, ``medium``'s choices take only 7-8% off
where the unseen cards are.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable

from scopa_net.bots.inference import ChoiceModel, Inference
from scopa_net.bots.levels import LEVELS, make_player
from scopa_net.bots.observed import Observed
from scopa_net.bots.reading import GreedyReading
from scopa_net.bots.replay import ReplayReading
from scopa_net.bots.sampling import World, is_certain, sample_world
from scopa_net.cards import CARDS
from scopa_net.commands.options import BOT_LEVELS
from scopa_net.match import Match
from scopa_net.rules import RuleSet

#: The readings scored: (kind, sharpness); kind "choice" is the choice model's reading,
#: "greedy" the greedy reading, "replay" each choice replayed with the guessed hand
#: (:mod:`scopa_net.bots.replay`, its default floor), "exact" the replay with no floor: against
#: ``medium``, the greedy player, the exact chance of its choices, so the most any reading of
#: them can tell.
READINGS = (
    ("choice", 2.0),
    ("choice", 6.0),
    ("greedy", 4.0),
    ("greedy", 8.0),
    ("greedy", 32.0),
    ("replay", 4.0),
    ("replay", 8.0),
    ("replay", 32.0),
    ("exact", 1000.0),
)
#: The least chance a card is given anywhere it could be (so one confident miss is not
#: infinite).
FLOOR = 1e-3

LogWeight = Callable[[World], float]


def reading_of(kind: str, sharpness: float, known: Observed) -> LogWeight | None:
    """The log-weight of a guess by this reading, or None when it tells guesses nothing apart."""
    reading: Inference | ReplayReading
    if kind == "choice":
        reading = Inference(known, ChoiceModel(known.rules, sharpness))
    elif kind == "replay":
        reading = ReplayReading(known, sharpness)
    elif kind == "exact":
        reading = ReplayReading(known, sharpness, 0.0)
    else:
        reading = GreedyReading(known, sharpness, {})
    return reading.log_weight if reading.informative else None


def score(
    worlds: list[World], log_weight: LogWeight | None, truth: dict[int, int]
) -> tuple[float, int, float]:
    """(summed log-loss, unseen cards scored, effective sample size) of one reading at one
    decision. ``truth`` gives each unseen card's holder: a seat, or -1 for the stock."""
    logs = [0.0] * len(worlds) if log_weight is None else [log_weight(w) for w in worlds]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    chance: dict[tuple[int, int], float] = {}
    for w, world in zip(weights, worlds, strict=True):
        for seat, hand in enumerate(world.hands):
            for c in hand:
                chance[c, seat] = chance.get((c, seat), 0.0) + w
        for c in world.stock:
            chance[c, -1] = chance.get((c, -1), 0.0) + w
    loss = 0.0
    for c, holder in truth.items():
        loss -= math.log(max(chance.get((c, holder), 0.0) / total, FLOOR))
    ess = total * total / sum(w * w for w in weights)
    return loss, len(truth), ess


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=120)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--guesses", type=int, default=1000)
    parser.add_argument("--decider", default="hard", help="the level whose choices are scored")
    parser.add_argument("--other", default="medium", help="the level the others play")
    args = parser.parse_args()
    decider, other = (BOT_LEVELS.get(name, name) for name in (args.decider, args.other))
    for name, level in ((args.decider, decider), (args.other, other)):
        if level not in LEVELS:
            parser.error(f"no level {name!r}; levels: {', '.join(BOT_LEVELS)}")
    rules = RuleSet.of(args.players)
    names = ["uniform", *(f"{kind} {sharpness:g}" for kind, sharpness in READINGS)]
    totals = {name: [0.0, 0, 0.0] for name in names}
    decisions = 0
    for n in range(args.rounds):
        rng = random.Random(f"reading|{args.seed}|{n}")
        deck = list(CARDS)
        rng.shuffle(deck)
        decider_seat = n % args.players
        players = [
            make_player(decider if s == decider_seat else other, rng.getrandbits(32))
            for s in range(args.players)
        ]
        match = Match(rules, rng.randrange(args.players))
        rnd = match.deal(deck)
        if rnd.void:
            continue
        while not rnd.finished:
            seat = rnd.turn
            view = match.view_for(seat)
            if seat == decider_seat:
                known = Observed.from_view(view)
                if not is_certain(known) and len(known.legal_codes()) > 1:
                    truth = dict.fromkeys(known.unseen, -1)
                    for s, hand in enumerate(rnd.hands):
                        if s != seat:
                            truth.update(dict.fromkeys(hand, s))
                    worlds = [sample_world(known, rng) for _ in range(args.guesses)]
                    readings = [None] + [reading_of(k, sh, known) for k, sh in READINGS]
                    for name, log_weight in zip(names, readings, strict=True):
                        loss, cards, ess = score(worlds, log_weight, truth)
                        totals[name][0] += loss
                        totals[name][1] += cards
                        totals[name][2] += ess
                    decisions += 1
            match.play(players[seat].choose(view), seat, exact=True)
    if not decisions:
        raise SystemExit("reading.py: no decision with hidden cards in these rounds")
    print(
        f"{args.decider} against {args.other}, {args.players} players: {decisions} decisions "
        f"in {args.rounds} rounds, {args.guesses} guesses each (seed {args.seed})"
    )
    base = totals["uniform"][0] / totals["uniform"][1]
    for name, (loss, cards, ess) in totals.items():
        per_card = loss / cards
        print(
            f"  {name:12} log-loss a card {per_card:.4f}  ({per_card / base:.3f} of uniform)"
            f"  effective guesses {ess / decisions:.0f} of {args.guesses}"
        )


if __name__ == "__main__":
    main()
