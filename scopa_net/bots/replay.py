"""Reading the other seats by replaying each of their choices with the guessed hand.

:class:`~scopa_net.bots.reading.GreedyReading` scores every card a seat might have held on its
own (its best play, judged from the cards the reader could not see) and takes the choice's
chance as a softmax over those cards. That misses what the rest of the hand does to a play's
worth: a seat holding the other 7 knows the next seat cannot take a 7 it lays, so it lays from
the pair; a seat with a card of its own that sweeps the table fears the sweep less.

Here each earlier choice is replayed as :class:`~scopa_net.bots.greedy.GreedyPlayer` would
have made it with the whole guessed hand: every legal play of that hand is scored from the
seat's own view then (the cards it had not seen: neither played, taken, on the table nor in
that hand), and the choice's chance is a softmax over those plays at ``sharpness``, mixed with
``floor`` of an even choice, so a seat that is no greedy player never rules a hand out. A
guessed deal's log weight is the sum of those chances' logarithms; each (choice, hand) pair is
scored once per reading.

It reads only the seat's knowledge (:class:`~scopa_net.bots.observed.Observed`) and the guess.

Measured, 2026-12-07, and not hard's default (``hard:replay=S``, off). How much it narrows
the guesses (``benchmarks/reading.py``, log-loss a card of where each unseen card is,
against the uniform guess's): at two players ``replay 32`` 0.950 (seed 1) and 0.943 (seed
2), and with no floor (``exact``: against ``medium``, which is the greedy player, the exact
chance of each of its choices, the most any reading of them can tell) 0.931 and 0.922,
against 0.946 and 0.939 for the greedy reading at sharpness 32 and 0.971 and 0.968 for
hard's own (the choice model at 2); at four players (seed 1) ``replay 32`` 0.945, ``exact``
0.929 (the partner, a hard player, read by the same model there), against 0.971 for hard's
own (the greedy reading at 4). So even read exactly, ``medium``'s choices take only about 7%
off the uniform guess's log-loss: the +1.0 point a round that hard would gain if told the
other hands (``round_duplicates.py --knowing opponents``) is not in them. Against
``medium``, deck by deck against the defaults on the same 200 decks (``round_duplicates.py
hard:replay=32,replay_floor=0.02 medium --rounds 200 --seed S --players P --paired BASE``):
two players +0.106 [-0.027, 0.239] (seed 1) and -0.045 [-0.172, 0.082] (seed 2), +0.030
[-0.062, 0.122] over the 398 decks of both, think median 53.5 and 50.9 ms, max 103 and 118
ms CPU (the defaults 58.5 and 50.8 ms beside them); four players (the partner read by the
greedy reading) -0.110 [-0.347, 0.127] (seed 1, think median 40.7 ms, max 141 ms) and -0.033
[-0.251, 0.186] (seed 2, 41.8 ms, max 143 ms), -0.071 [-0.232, 0.090] over the 400 decks
(the defaults' rows +0.848 and +0.660); ``hard:replay=8`` (floor 0.1) at four players -0.122
[-0.352, 0.107] (seed 1, think median 42.0 ms, max 138 ms). A sharper reading of ``medium``
The exact replay of ``medium`` at two players (``hard:replay=1000,replay_floor=0.001``, the
same way): +0.033 [-0.111, 0.176] (seed 1) and +0.075 [-0.066, 0.216] (seed 2), +0.054
[-0.046, 0.154] over the 398 decks (rows +0.909 and +0.932 against the defaults' +0.876 and
+0.858), think median 51.5 and 51.8 ms, max 101 and 103 ms CPU: within the noise, and a
reading fitted to ``medium`` alone. A sharper reading of ``medium`` does not clearly play
better, as the greedy reading at sharpness 32 did not before.
"""

from __future__ import annotations

import math

from scopa_net.bots.evaluation import card_weights
from scopa_net.bots.greedy import exposure_to, play_gain
from scopa_net.bots.inference import choices_from_hidden_hands, seen_before, tables_before
from scopa_net.bots.observed import Observed
from scopa_net.bots.sampling import World
from scopa_net.captures import capture_rule
from scopa_net.cards import BIT, FULL_MASK, indices_of
from scopa_net.rules import RuleSet

#: How sure the reading is that a seat makes the greedy player's choice (a softmax over the
#: greedy scores of its hand's plays, in rough round points).
DEFAULT_REPLAY_SHARPNESS = 8.0
#: The share of each choice taken as made at random among the hand's plays.
DEFAULT_REPLAY_FLOOR = 0.1
#: The least chance a choice is given (without a floor, a hand that rules it out).
TINY = 1e-30


class _Choice:
    """One earlier choice of another seat, to replay with each guessed hand."""

    __slots__ = ("chances", "code", "known", "next_hand", "plays_left", "seat", "seen", "table")

    def __init__(
        self,
        seat: int,
        code: int,
        *,
        known: int,
        table: int,
        seen: int,
        next_hand: int,
        plays_left: int,
    ) -> None:
        self.seat = seat
        self.code = code
        self.known = known
        """The cards of that hand seen since (played from it), the chosen one's included."""
        self.table = table
        self.seen = seen
        """Cards everybody had seen before the choice (played, taken or on the table)."""
        self.next_hand = next_hand
        self.plays_left = plays_left
        self.chances: dict[int, float] = {}
        """The choice's log chance by the hand's mask, as worked out so far."""


class ReplayReading:
    """The weight of guessed deals by replaying the other seats' choices as greedy plays."""

    __slots__ = ("_rule", "_sweep_last", "_weights", "choices", "floor", "rules", "sharpness")

    def __init__(
        self,
        known: Observed,
        sharpness: float = DEFAULT_REPLAY_SHARPNESS,
        floor: float = DEFAULT_REPLAY_FLOOR,
        *,
        skip: int | None = None,
    ) -> None:
        """``skip`` is a seat whose choices are not read (a partner read some other way)."""
        self.rules = known.rules
        self.sharpness = sharpness
        self.floor = floor
        self._weights = card_weights(known.rules)
        self._rule = capture_rule(known.rules)
        self._sweep_last = known.rules.sweep_on_last_play
        self.choices = _choices(known, skip)

    @property
    def informative(self) -> bool:
        return bool(self.choices)

    def weight(self, world: World) -> float:
        """How likely the other seats' choices were if ``world`` is the truth (unnormalised)."""
        return math.exp(self.log_weight(world))

    def log_weight(self, world: World) -> float:
        """The sum of each choice's log chance with the hand ``world`` gives its seat."""
        total = 0.0
        for choice in self.choices:
            hand = choice.known
            for c in world.hands[choice.seat]:
                hand |= BIT[c]
            chance = choice.chances.get(hand)
            if chance is None:
                chance = choice.chances[hand] = self.log_chance(choice, hand)
            total += chance
        return total

    def log_chance(self, choice: _Choice, hand: int) -> float:
        """The log chance that a greedy player holding ``hand`` (a mask) made ``choice``."""
        table = choice.table
        unseen = FULL_MASK & ~(choice.seen | hand)
        exposed = choice.plays_left > 1
        sweeps = choice.plays_left != 1 or self._sweep_last
        laid = tuple(indices_of(table))
        scores: list[float] = []
        chosen = None
        for c in indices_of(hand):
            for code in self._rule.codes(c, table, laid) if table else (c,):
                gain, after = play_gain(self._weights, table, code, sweeps)
                if exposed:
                    gain -= exposure_to(self.rules, self._weights, after, unseen, choice.next_hand)
                if code == choice.code:
                    chosen = gain
                scores.append(gain)
        if chosen is None:  # not a play of this hand (cannot happen with a consistent guess)
            return math.log(max(self.floor / len(scores), TINY))
        top = max(scores)
        sharp = self.sharpness
        total = sum(math.exp(sharp * (s - top)) for s in scores)
        softmax = math.exp(sharp * (chosen - top)) / total
        return math.log(max(self.floor / len(scores) + (1.0 - self.floor) * softmax, TINY))


def _choices(known: Observed, skip: int | None) -> list[_Choice]:
    """The other seats' choices made from the hands they hold now, with what each seat knew."""
    rules: RuleSet = known.rules
    history = known.history
    tables = tables_before(known)
    seen = seen_before(known, tables)
    choices: list[_Choice] = []
    for seat, i, later in choices_from_hidden_hands(known):
        if seat == skip:
            continue
        after_seat = (seat + 1) % rules.players
        # The next seat's hand then: what it holds now and has played since (same deal).
        next_hand = known.hand_counts[after_seat] + sum(
            1 for s, _, _ in history[i:] if s == after_seat
        )
        mask = 0
        for c in later:
            mask |= BIT[c]
        choices.append(
            _Choice(
                seat,
                history[i][1],
                known=mask,
                table=tables[i],
                seen=seen[i],
                next_hand=next_hand or rules.hand_size,
                plays_left=known.plays_left + len(history) - i,
            )
        )
    return choices
