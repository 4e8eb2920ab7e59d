"""RULES.md and protocol.md are enough to replay and score a match.

``document_referee.py`` is written from the two documents only (it imports nothing from
scopa_net). Random matches under every variant are played through the engine and replayed by
the referee from what a transcript holds (the rule set, the first dealer, each round's deck
order and the play codes): both must agree on every legal play, sweep, leftover, score line
(figures, points, winner as sent in `round_end`), match score and winner.
"""

from __future__ import annotations

import random

from document_referee import IllegalPlayError, RoundReplay, Table, match_winner
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.cards import CARDS
from scopa_net.match import Match
from scopa_net.rules import RuleSet
from scopa_net.wire.convert import score_lines

RULE_SETS = [
    (2, []),
    (3, []),
    (4, []),
    (6, []),
    (6, ["six_as_three_pairs"]),
    (4, ["scopone"]),
    (4, ["scopone_scientifico", "asso_piglia_tutto", "napola"]),
    (2, ["asso_piglia_tutto", "re_bello"]),
    (2, ["quindici", "primiera=sum"]),
    (4, ["quindici", "scopone", "court_prime=0"]),
    (3, ["court_prime=0", "napola", "cappotto"]),
    (2, ["primiera=sum", "court_prime=0", "re_bello", "cappotto"]),
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULE_SETS), st.sampled_from([1, 5, 11]), st.integers(0, 2**32 - 1))
def test_a_match_replayed_and_scored_from_the_documents(
    rule_set: tuple[int, list[str]], target: int, seed: int
) -> None:
    players, variants = rule_set
    rng = random.Random(seed)
    match = Match(RuleSet.of(players, target, variants), first_dealer=rng.randrange(players))
    table = Table(players, target, frozenset(variants))
    dealer = match.dealer  # the referee keeps its own rotation from here
    scores = [0] * table.sides
    rounds = 0
    while not match.over and rounds < 40:
        deck = list(CARDS)
        rng.shuffle(deck)
        rnd = match.deal(deck)
        replay = RoundReplay(table, dealer, [c.index for c in deck])
        assert replay.void == rnd.void
        if rnd.void:
            continue  # the same dealer deals again
        while not rnd.finished:
            codes = sorted(p.code for p in rnd.legal_plays())
            assert replay.legal() == codes
            seat = rnd.turn
            code = codes[rng.randrange(len(codes))]
            record = match.push_code(code)
            assert replay.play(seat, code) == record
        assert replay.over
        rounds += 1
        sheet = [
            (x.name, list(x.figures), list(x.points), x.winner) for x in match.results[-1].lines
        ]
        mine = [(x.name, x.figures, x.points, x.winner) for x in replay.score()]
        assert mine == sheet
        assert [
            (x.name, x.figures, x.points, x.winner) for x in score_lines(match.results[-1])
        ] == [(n, tuple(f), tuple(p), w) for n, f, p, w in mine]
        assert replay.leftover == [c.index for c in rnd.leftover_cards]
        scores = [s + sum(line.points[i] for line in replay.score()) for i, s in enumerate(scores)]
        assert scores == match.scores
        assert match_winner(table, scores) == match.winner
        dealer = (dealer + 1) % players  # "Dealer rotation"
        assert dealer == match.dealer
    assert match.over or rounds == 40


def test_the_referee_refuses_what_the_rules_forbid() -> None:
    """Same value before sums, must capture, and the turn, as RULES.md says."""
    table = Table(2, 11, frozenset())
    # Dealer 1: seat 0 gets positions 0, 2, 4; seat 1 gets 1, 3, 5; the table 6..9.
    seven_coins, three_swords, four_cups, seven_cups = 24, 10, 13, 25
    deck = [seven_coins, 1, 2, 3, 5, 6, three_swords, four_cups, seven_cups, 39]
    deck += [c for c in range(40) if c not in deck]
    replay = RoundReplay(table, 1, deck)
    assert sorted(replay.hands[0]) == sorted([seven_coins, 2, 5])
    assert sorted(replay.on_table) == sorted([three_swords, four_cups, seven_cups, 39])
    both = 1 << three_swords | 1 << four_cups
    for seat, code in [
        (0, seven_coins | both << 6),  # a sum while a seven lies there
        (0, seven_coins),  # laying a card that can capture
        (1, 1),  # not seat 1's turn
    ]:
        try:
            replay.play(seat, code)
        except IllegalPlayError:
            continue
        raise AssertionError(f"seat {seat} code {code} was allowed")
    assert replay.play(0, seven_coins | 1 << seven_cups << 6) is False
