"""Twin matches for the no-peeking tests: equal for one seat's eyes, different behind them."""

from __future__ import annotations

import random

from helpers import shuffled_deck

from scopa_net.bots.observed import Observed
from scopa_net.cards import Card
from scopa_net.match import Match
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView

RULES = [
    RuleSet.of(2),
    RuleSet.of(3),
    RuleSet.of(4),
    RuleSet.of(6),
    RuleSet.of(4, 11, ["scopone_scientifico"]),
]


def advance(rules: RuleSet, deck: list[Card], codes: list[int]) -> Match:
    match = Match(rules, 0)
    match.deal(deck)
    for code in codes:
        match.push_code(code)
    return match


def twin_matches(rules: RuleSet, seed: int, plays: int) -> tuple[Match, Match] | None:
    """Two matches after the same ``plays`` plays that differ only in cards the seat to move
    has not seen; None when the round is over (or void) before then."""
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    match = Match(rules, 0)
    rnd = match.deal(deck)
    if rnd.void:
        return None
    codes = []
    for _ in range(plays):
        legal = rnd.legal_codes()
        if not legal or rnd.plays_left <= 1:
            break
        codes.append(legal[rng.randrange(len(legal))])
        match.push_code(codes[-1])
    seat = rnd.turn
    hidden = set(Observed.from_view(match.view_for(seat)).unseen)
    positions = [i for i, c in enumerate(deck) if c.index in hidden]
    moved = [deck[i] for i in positions]
    rng.shuffle(moved)
    other = deck.copy()
    for i, c in zip(positions, moved, strict=True):
        other[i] = c
    return advance(rules, deck, codes), advance(rules, other, codes)


def twin_views(rules: RuleSet, seed: int, plays: int) -> tuple[SeatView, SeatView] | None:
    """The seat to move's view in each of :func:`twin_matches` (asserted equal), or None."""
    twins = twin_matches(rules, seed, plays)
    if twins is None:
        return None
    one, two = twins
    assert one.round is not None
    seat = one.round.turn
    view, twin_view = one.view_for(seat), two.view_for(seat)
    assert view == twin_view
    return view, twin_view
