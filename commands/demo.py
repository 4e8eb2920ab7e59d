"""A computer-versus-computer round printed as text: the engine on show, no network."""

from __future__ import annotations

import random
from collections.abc import Callable

from scopa_net.cards import CARDS
from scopa_net.match import Match
from scopa_net.notation import Scheme, format_card
from scopa_net.rules import RuleSet


def play_demo_match(
    rules: RuleSet, seed: int, out: Callable[[str], None], rounds: int = 1
) -> Match:
    """Play ``rounds`` rounds (or to the end of the match) with random legal plays."""
    rng = random.Random(seed)
    match = Match(rules, first_dealer=rng.randrange(rules.players))
    out(f"Rules: {rules.describe()}")
    while not match.over and len(match.results) < rounds:
        deck = list(CARDS)
        rng.shuffle(deck)
        rnd = match.deal(deck)
        table = " ".join(format_card(c, Scheme.NEUTRAL) for c in rnd.table_cards)
        if rnd.void:
            out(f"Void deal (three or more kings on the table: {table}); dealing again.")
            continue
        out(f"Round {len(match.results) + 1}, dealer seat {rnd.dealer}. Table: {table}")
        while not rnd.finished:
            seat = rnd.turn
            plays = rnd.legal_plays()
            record = match.play(plays[rng.randrange(len(plays))], seat, exact=True)
            note = "  SCOPA!" if record.sweep else ""
            out(f"  seat {seat}: {record.play}{note}")
        if rnd.leftover:
            left = " ".join(format_card(c) for c in rnd.leftover_cards)
            out(f"  {_side(rules, rnd.last_capturer)} captured last and takes the table: {left}")
        result = match.results[-1]
        for line in result.lines:
            out(f"  {line.name:<11} figures {line.figures}  points {line.points}")
        score = ", ".join(
            f"{_side(rules, side)}: {points}" for side, points in enumerate(match.scores)
        )
        out(f"  match score: {score}")
    if match.over:
        winner = _side(rules, match.winner)
        out(f"{winner[0].upper()}{winner[1:]} win{'s' * winner.startswith('seat ')} the match.")
    return match


def _side(rules: RuleSet, side: int | None) -> str:
    """A side as the demo's lines name players: "seat 1", or "seats 0 and 2" for a pair."""
    if side is None:
        return "nobody"
    seats = rules.seats_of(side)
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"
