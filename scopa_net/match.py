"""A match: rounds one after another until a side wins.

After each round the deal passes one seat to the right (the next seat in play order). A side
wins when, after a round, it has reached the target and is strictly ahead of every other side;
sides level at the top play on. Under ``cappotto`` a side with 7 or more points while every
other side has none wins at once.

The first dealer is an input: the fair-deal layer draws it verifiably.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.cards import Card
from scopa_net.errors import IllegalPlayError, IllegalReason
from scopa_net.plays import Play, PlayRecord
from scopa_net.round import Round
from scopa_net.rules import RuleSet, Variant
from scopa_net.scoring import RoundScore, strict_leader
from scopa_net.view import SeatView

CAPPOTTO_POINTS = 7


class Match:
    """The game object: the rule set, the running score, and the round in play."""

    def __init__(self, rules: RuleSet, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first dealer {first_dealer!r} is not a seat")
        self.rules = rules
        self.dealer = first_dealer
        self.scores = [0] * rules.side_count
        self.round: Round | None = None
        self.results: list[RoundScore] = []
        self.void_deals = 0
        self.winner: int | None = None

    @property
    def round_number(self) -> int:
        """1 for the first round; counts rounds scored so far plus the one in play."""
        in_play = self.round is not None and not self.round.finished
        return len(self.results) + (1 if in_play else 0)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def needs_deal(self) -> bool:
        """True when the next step is a deal (at the start, after a round, after a void deal)."""
        return not self.over and (self.round is None or self.round.finished)

    def deal(self, deck: Sequence[Card]) -> Round:
        """Deal the next round from a deck order. A void deal (three or four kings on the
        table) is returned with ``void`` set; the same dealer then deals again."""
        if not self.needs_deal:
            raise ValueError("cannot deal now: a round is in play or the match is over")
        rnd = Round(self.rules, self.dealer, deck)
        self.round = rnd
        if rnd.void:
            self.void_deals += 1
        return rnd

    def legal_plays(self) -> list[Play]:
        return [] if self.round is None else self.round.legal_plays()

    def play(
        self, play: Play | Card, seat: int | None = None, *, exact: bool = False
    ) -> PlayRecord:
        """One checked play in the current round; scores the round when it ends."""
        if self.round is None or self.winner is not None:
            raise IllegalPlayError(IllegalReason.ROUND_OVER, str(play))
        record = self.round.play(play, seat, exact=exact)
        if self.round.finished:
            self._close_round()
        return record

    def push_code(self, code: int) -> bool:
        """Unchecked fast path, as :meth:`Round.push_code`."""
        assert self.round is not None
        sweep = self.round.push_code(code)
        if self.round.finished:
            self._close_round()
        return sweep

    def _close_round(self) -> None:
        assert self.round is not None
        result = self.round.score()
        self.results.append(result)
        self.scores = [s + t for s, t in zip(self.scores, result.totals, strict=True)]
        self.winner = match_winner(self.rules, self.scores)
        self.dealer = (self.dealer + 1) % self.rules.players

    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.scores = self.scores.copy()
        other.results = self.results.copy()
        other.round = None if self.round is None else self.round.copy()
        return other

    def view_for(self, seat: int) -> SeatView:
        """Exactly what ``seat`` may know now: never another hand, never the deck order."""
        return view_of(self, seat)


def match_winner(rules: RuleSet, scores: Sequence[int]) -> int | None:
    """The side that has won after a round, if any."""
    if rules.has(Variant.CAPPOTTO):
        for side, points in enumerate(scores):
            others = [p for s, p in enumerate(scores) if s != side]
            if points >= CAPPOTTO_POINTS and all(p == 0 for p in others):
                return side
    leader = strict_leader(scores)
    if leader is not None and scores[leader] >= rules.target:
        return leader
    return None


def won_by_cappotto(rules: RuleSet, scores: Sequence[int]) -> bool:
    """Whether the match is won by ``cappotto`` alone: its winner is short of the target
    (at or past it, the win is an ordinary one)."""
    winner = match_winner(rules, scores)
    return winner is not None and scores[winner] < rules.target


def view_of(match: Match, seat: int) -> SeatView:
    rules = match.rules
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat {seat!r} is not a seat at this table")
    rnd = match.round
    side = rules.side_of(seat)
    if rnd is None:
        return SeatView(
            seat=seat,
            side=side,
            rules=rules,
            dealer=match.dealer,
            round_number=0,
            to_move=None,
            hand=(),
            table=(),
            hand_counts=(0,) * rules.players,
            stock_count=0,
            pile_counts=(0,) * rules.side_count,
            sweeps=(0,) * rules.side_count,
            scores=tuple(match.scores),
            plays=(),
            void_deal=False,
            round_over=False,
            leftover=(),
            round_score=None,
            winner=match.winner,
        )
    over = rnd.finished and not rnd.void
    scores = tuple(match.scores)
    if over and match.results:
        # The match score already includes this round's result; show it as before the round.
        scores = tuple(s - t for s, t in zip(scores, match.results[-1].totals, strict=True))
    return SeatView(
        seat=seat,
        side=side,
        rules=rules,
        dealer=rnd.dealer,
        round_number=len(match.results) + (0 if over else 1),
        to_move=rnd.to_move,
        hand=rnd.hand(seat),
        table=rnd.table_cards,
        hand_counts=tuple(len(h) for h in rnd.hands),
        stock_count=rnd.stock_count,
        pile_counts=tuple(p.bit_count() for p in rnd.piles),
        sweeps=tuple(rnd.sweeps),
        scores=scores,
        plays=rnd.plays,
        void_deal=rnd.void,
        round_over=over,
        leftover=rnd.leftover_cards,
        round_score=match.results[-1] if over else None,
        winner=match.winner,
    )
