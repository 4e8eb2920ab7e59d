"""A partnership convention: lay from a pair, and read the partner's lays by it.

Scopone players tell their partner about their hand through the cards they choose to lay,
never in words. The convention here is one of the plainest: when a seat lays a card (takes
nothing) and a lay of a value it holds twice or more is about as good as its best play, it
lays from that value. Its partner, reading a lay, then finds the guesses in which the layer
still held another card of that value likelier by :data:`SIGNAL_ODDS` than the others.

Both halves read only what the seat sees: its own hand, and the plays made face up.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.bots.observed import Observed
from scopa_net.bots.sampling import World
from scopa_net.cards import VALUE
from scopa_net.plays import CARD_BITS, CARD_FIELD

#: How much likelier a guess is for each of the partner's lays it agrees with.
SIGNAL_ODDS = 3.0
#: How far below the best play (points a round) a signalling lay may be and still be chosen.
SIGNAL_MARGIN = 0.15


def signalling_lay(
    codes: Sequence[int], values: Sequence[float], hand: Sequence[int], margin: float
) -> int | None:
    """The index of the best lay of a value ``hand`` holds twice or more, if its value is
    within ``margin`` of the best of ``values`` (one per code); None if there is none."""
    best = max(values)
    counts = [0] * 11
    for c in hand:
        counts[VALUE[c]] += 1
    found = None
    for i, code in enumerate(codes):
        if code >> CARD_BITS or counts[VALUE[code & CARD_FIELD]] < 2:
            continue
        if values[i] >= best - margin and (found is None or values[i] > values[found]):
            found = i
    return found


class PartnerSignals:
    """The partner's lays made from the hand it holds now, read by the convention."""

    __slots__ = ("laid", "later", "partner")

    def __init__(self, known: Observed) -> None:
        rules = known.rules
        partner = (known.seat + rules.players // 2) % rules.players
        self.partner = partner
        held = known.hand_counts[partner]
        played = rules.hand_size - held if held else 0
        mine = [code for s, code, _ in known.history if s == partner][-played:] if played else []
        self.laid: list[int] = []
        """Values of the partner's lays from its current hand."""
        self.later: list[tuple[int, ...]] = []
        """For each lay, the values the partner played after it (from the same hand)."""
        for n, code in enumerate(mine):
            if not code >> CARD_BITS:
                self.laid.append(VALUE[code & CARD_FIELD])
                self.later.append(tuple(VALUE[c & CARD_FIELD] for c in mine[n + 1 :]))

    @property
    def informative(self) -> bool:
        return bool(self.laid)

    def odds(self, world: World) -> float:
        """How much likelier ``world`` is than a uniform guess makes it, by the signals."""
        hand = [VALUE[c] for c in world.hands[self.partner]]
        odds = 1.0
        for value, later in zip(self.laid, self.later, strict=True):
            if value in hand or value in later:
                odds *= SIGNAL_ODDS
        return odds
