"""The rules engine's memories stay bounded in a process that plays table after table."""

from __future__ import annotations

import random

from helpers import shuffled_deck

from scopa_net import round as engine
from scopa_net.match import Match
from scopa_net.rules import RuleSet


def _play(match: Match, rng: random.Random) -> None:
    rnd = match.deal(shuffled_deck(rng))
    while not rnd.finished:
        plays = rnd.legal_plays()
        match.play(plays[rng.randrange(len(plays))], rnd.turn, exact=True)


def test_tables_of_the_same_rules_share_their_round_plans() -> None:
    """Every table a host makes brings its own rule set, equal to the others: the plans are
    found by the players and variants, so they do not pile up table after table."""
    rng = random.Random(3)
    for table in range(30):
        match = Match(RuleSet.of(4, 1 + table % 3), table % 4)
        _play(match, rng)
    four = [key for key in engine._PLANS if key[0] == 4 and not key[1]]
    assert len(four) <= 4  # one for each dealer, whatever the tables' targets


def test_memory_stats_lists_every_memory_within_its_bound() -> None:
    rng = random.Random(4)
    for rules in (RuleSet(2), RuleSet.of(4, 11, ["quindici"]), RuleSet.of(2, 11, ["napola"])):
        _play(Match(rules, 0), rng)
    stats = engine.memory_stats()
    for name in ("plays", "score lines", "round plans", "play records", "default shapes"):
        assert name in stats
    assert "quindici shapes" in stats
    assert all(0 <= held <= bound for held, bound in stats.values())
    assert stats["plays"][0] > 0
    assert stats["round plans"][0] > 0
