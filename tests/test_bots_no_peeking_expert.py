"""The expert and the inference behind it see only the seat's view, at every player count.

The twins of ``twins.py`` (as in ``test_bots_no_peeking``) agree on everything the seat to
move has seen and differ in the cards it has not: the expert (which reads the other seats'
choices) and the hard level with inference must choose alike from both, and weigh any guess
alike.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from twins import RULES, twin_views

from scopa_net.bots.expert import ExpertPlayer
from scopa_net.bots.inference import ChoiceModel, Inference
from scopa_net.bots.observed import Observed
from scopa_net.bots.sampling import sample_world
from scopa_net.bots.strong import StrongPlayer
from scopa_net.rules import RuleSet


@settings(max_examples=25, deadline=None)
@given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10**6),
    plays=st.integers(0, 30),
)
def test_hidden_cards_change_no_expert_choice(rules: RuleSet, seed: int, plays: int) -> None:
    views = twin_views(rules, seed, plays)
    if views is None:
        return
    view, twin_view = views
    for make in (
        lambda s: ExpertPlayer(s, think=0.004),
        lambda s: StrongPlayer(s, playouts=24, inference=True),
    ):
        assert make(seed).choose(view) == make(seed).choose(twin_view)
    model = ChoiceModel(rules)
    readings = [Inference(Observed.from_view(v), model) for v in (view, twin_view)]
    rng = random.Random(seed)
    for _ in range(3):
        world = sample_world(Observed.from_view(view), rng)
        assert readings[0].weight(world) == readings[1].weight(world)
