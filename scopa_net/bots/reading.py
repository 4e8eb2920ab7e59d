"""Reading the other seats as the greedy player plays: captures, and what a lay exposes.

:class:`~scopa_net.bots.inference.Inference` scores each earlier choice with a capture-minded
model that does not look at what a lay leaves the next seat. Here a choice is scored as
:class:`~scopa_net.bots.greedy.GreedyPlayer` scores a play: what it takes, less what it
exposes to the next seat (:func:`~scopa_net.bots.greedy.exposure`), judged from the cards
nobody had seen when the choice was made. That is how a sensible player weighs a lay, so a
seat that laid a card leaving an easy sweep probably held nothing better to lay.

Scoring a choice this way costs a few hundred operations a card, so each choice's scores
are kept (by the round's plays up to it) and reused at every later decision of the round.
"""

from __future__ import annotations

import math
from dataclasses import replace

from scopa_net.bots.evaluation import card_weights
from scopa_net.bots.greedy import exposure, play_gain
from scopa_net.bots.inference import (
    Decision,
    Inference,
    _captures,
    choices_from_hidden_hands,
    seen_before,
    tables_before,
)
from scopa_net.bots.observed import Observed
from scopa_net.cards import FULL_MASK, VALUE, indices_of
from scopa_net.plays import CARD_BITS
from scopa_net.rules import Variant

#: Scores kept at most (one entry per earlier choice of a round); cleared when full.
CACHE_SIZE = 4096


class GreedyReading(Inference):
    """The weight of guessed deals by the other seats' choices, read as greedy plays."""

    __slots__ = ()

    def __init__(
        self,
        known: Observed,
        sharpness: float,
        cache: dict[tuple, dict[int, float]],
        *,
        skip: int | None = None,
    ) -> None:
        """``skip`` is a seat whose choices are not read (a partner that is no greedy player)."""
        self.decisions = _greedy_decisions(known, sharpness, cache, skip)


def _greedy_decisions(
    known: Observed, sharpness: float, cache: dict[tuple, dict[int, float]], skip: int | None
) -> list[Decision]:
    rules = known.rules
    history = known.history
    tables = tables_before(known)
    seen = seen_before(known, tables)
    if len(cache) > CACHE_SIZE:
        cache.clear()
    weights = card_weights(rules)
    quindici = rules.has(Variant.QUINDICI)
    apt = rules.has(Variant.ASSO_PIGLIA_TUTTO)
    decisions: list[Decision] = []
    for seat, i, later in choices_from_hidden_hands(known):
        if seat == skip:
            continue
        held = known.hand_counts[seat]
        code = history[i][1]
        t = tables[i]
        key = (rules, known.dealer, t, history[: i + 1])
        scores = cache.get(key)
        if scores is None:
            # The seat judged from the cards unseen then; the next seat held about as
            # many cards as this one did.
            unseen = tuple(indices_of(FULL_MASK & ~seen[i]))
            counts = (held + len(later),) * rules.players
            view = replace(known, seat=seat, unseen=unseen, hand_counts=counts)
            scores = cache[key] = {}
            for c in unseen:
                options = _captures(t, VALUE[c], quindici, apt) or (0,)
                scores[c] = max(_value(view, weights, t, c | m << CARD_BITS) for m in options)
            scores[-1] = _value(view, weights, t, code)
        strengths = {c: math.exp(sharpness * scores[c]) for c in (*known.unseen, *later)}
        decisions.append(Decision(seat, sharpness * scores[-1], later, strengths))
    return decisions


def _value(view: Observed, weights: tuple[float, ...], table: int, code: int) -> float:
    """The greedy player's score of ``code`` on ``table`` from ``view`` (not the last play)."""
    gain, after = play_gain(weights, table, code, True)
    return gain - exposure(view, weights, after)
