"""The client's own legality check agrees with the engine's, from views alone."""

from __future__ import annotations

import random

import pytest
from helpers import RULE_SETS, match_dealt, shuffled_deck
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.client.moves import legal_plays, resolve_play
from scopa_net.errors import AmbiguousPlayError, IllegalPlayError, IllegalReason
from scopa_net.match import Match
from scopa_net.notation import parse_card, parse_play
from scopa_net.plays import Play
from scopa_net.rules import RuleSet


@settings(max_examples=25, deadline=None)
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**32))
def test_legal_plays_from_the_view_match_the_engine(rules: RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    match = Match(rules, first_dealer=rng.randrange(rules.players))
    deck = shuffled_deck(rng)
    rnd = match.deal(deck)
    while not rnd.finished:
        mover = rnd.turn
        engine = sorted(rnd.legal_plays(), key=lambda p: p.code)
        assert legal_plays(match.view_for(mover)) == engine
        other = (mover + 1) % rules.players
        assert legal_plays(match.view_for(other)) == []
        for play in engine:
            assert resolve_play(match.view_for(mover), play) == play
        match.play(rng.choice(engine), mover, exact=True)


def test_a_bare_card_with_one_outcome_resolves_to_it() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h")
    view = match.view_for(0)
    assert resolve_play(view, Play(parse_card("7d"))) == Play(parse_card("7d"), (parse_card("7h"),))
    assert resolve_play(view, Play(parse_card("3s"))) == Play(parse_card("3s"))


def test_a_bare_card_with_several_groups_lists_them() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h")
    with pytest.raises(AmbiguousPlayError) as info:
        resolve_play(match.view_for(0), Play(parse_card("7d")))
    groups = {tuple(str(c) for c in p.captured) for p in info.value.options}
    assert groups == {("2b", "5s"), ("3h", "4h")}


@pytest.mark.parametrize(
    ("seat", "text", "reason"),
    [
        (1, "2h", IllegalReason.NOT_YOUR_TURN),
        (0, "Jd", IllegalReason.NOT_IN_HAND),
        (0, "7d x 5s+2s", IllegalReason.NOT_ON_TABLE),
        (0, "7d x 3h+4h", IllegalReason.SINGLE_CARD_MATCHES),
    ],
)
def test_illegal_plays_say_why(seat: int, text: str, reason: IllegalReason) -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 7h 3h 4h")
    card, group = parse_play(text)
    with pytest.raises(IllegalPlayError) as info:
        resolve_play(match.view_for(seat), Play(card, group or ()))
    assert info.value.reason is reason
