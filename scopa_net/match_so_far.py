"""What a snapshot tells a seat caught up by it about the match before the rounds it follows
(protocol.md 9.7): the last round dealt, the match points, the dealer of the next round.

It is the host's word (a snapshot carries no signature), carried on over the rounds that end
in the seat's sight without the seat following them, and then checked against every round the
seat does follow: their numbers, their dealer, their scores and the signed match end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from scopa_net.fair.errors import ScoreMismatchError
from scopa_net.fair.transcript import CaughtUp
from scopa_net.fair.verifier import RoundByRoundVerifier
from scopa_net.match import match_winner
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m

SO_FAR = "the snapshot you were caught up with and the rounds since give"
"""Where a seat caught up by snapshot has the match's points from (for the words of a match
end that does not add up)."""

AS_THE_SNAPSHOT_GIVES = ", as the snapshot you were caught up with gives it"
"""Said after the rotation's words when the dealer it expected came from the snapshot."""

Verifier = TypeVar("Verifier", bound=RoundByRoundVerifier)


def _plus(scores: Sequence[int], lines: Sequence[m.ScoreLineInfo]) -> tuple[int, ...]:
    return tuple(s + sum(line.points[side] for line in lines) for side, s in enumerate(scores))


@dataclass
class MatchSoFar:
    """The match as a snapshot left it, for the next round the seat follows."""

    rules: RuleSet
    last_dealt: int
    """The snapshot's ``round_no``: every round opened after it has a higher number."""
    scores: tuple[int, ...]
    """The match points by side before the next round the seat follows."""
    dealer: int | None
    """The seat that deals that round: None while no round was dealt (the first dealer is
    drawn from the first round whose keys all came, which the seat may not have seen)."""

    @classmethod
    def told_by(cls, snapshot: m.Snapshot, rules: RuleSet) -> MatchSoFar:
        """From a snapshot's ``round_no``, ``dealer``, ``scores``, ``round_over``,
        ``round_score`` and ``void_deal`` (3.9): after a round played out its points count and
        the next seat deals; after a void one the same seat deals again; a round still in play
        is carried on by :meth:`round_ended` when it ends."""
        if snapshot.round_no == 0:
            return cls(rules, 0, (0,) * rules.side_count, None)
        scores, dealer = tuple(snapshot.scores), snapshot.dealer
        if snapshot.round_over and snapshot.round_score is not None:
            scores = _plus(scores, snapshot.round_score)
            dealer = (dealer + 1) % rules.players
        return cls(rules, snapshot.round_no, scores, dealer)

    def check_against(self, seen: RoundByRoundVerifier | None, last_revealed: int) -> None:
        """A snapshot that stands at round ``last_revealed``, the last round this seat saw
        revealed and replayed (``seen``: its verifier), tells nothing of the match the seat
        did not check: its points and next dealer are those the rounds replayed give
        (:class:`ScoreMismatchError` if not; nothing to compare for a seat that replays no
        round, or once a round failed)."""
        if seen is None or last_revealed == 0 or self.last_dealt != last_revealed:
            return
        given, due = seen.match_result, seen.next_dealer
        if given is None or due is None:
            return
        if self.scores != given[0] or self.dealer != due:
            raise ScoreMismatchError(
                f"the snapshot you were caught up with gives, after round {last_revealed}, "
                f"scores {list(self.scores)} and seat {self.dealer} the next deal; the rounds "
                f"you saw give scores {list(given[0])} and seat {due} the next deal"
            )

    def round_ended(self, lines: Sequence[m.ScoreLineInfo], round_no: int = 0) -> None:
        """A round the seat did not follow (``round_no``) was played out (its ``round_end``,
        whose lines are the host's word): its points count, and the deal passes to the next
        seat."""
        self.last_dealt = max(self.last_dealt, round_no)
        self.scores = _plus(self.scores, lines)
        if self.dealer is not None:
            self.dealer = (self.dealer + 1) % self.rules.players

    def starts_afresh(self, round_no: int) -> bool:
        """Whether round ``round_no`` is the match's first, with nothing dealt before it: it
        is checked as from the match's start (its first dealer drawn as 5.6 and 9.5.5 say,
        linked to the zero hash)."""
        return self.last_dealt == 0 and round_no == 1

    def verifier(
        self,
        kind: type[Verifier],
        host_key: bytes,
        seat: int,
        *,
        round_no: int,
        prev: bytes,
        dealer: int | None,
    ) -> Verifier | None:
        """The verifier (``kind``: an ordinary or a blind table's) that checks the first
        round revealed since the catch-up (``round_no``, linked to ``prev``, dealt by
        ``dealer`` as the seat read it) and every round after it, the match before it as
        these points and this dealer say; None while the dealer is unknown (no round dealt
        at the snapshot, that round not the match's first, and ``dealer`` None: a blind round
        void before its keys)."""
        if self.starts_afresh(round_no):
            return kind(self.rules, host_key, seat)
        if self.dealer is not None:
            dealer = self.dealer
        if dealer is None:
            return None
        return kind.carried_on(
            self.rules,
            host_key,
            seat,
            round_no=round_no,
            prev=prev,
            dealer=dealer,
            scores=self.scores,
        )

    def caught_up(self, round_no: int | None = None) -> CaughtUp:
        """What a transcript says of this (``caught_up``, protocol.md 6.1): the last round
        dealt (``round_no``, once a later round ended unfollowed), the points, the dealer."""
        last = self.last_dealt if round_no is None else max(round_no, self.last_dealt)
        return CaughtUp(last, self.scores, self.dealer)

    @property
    def winner(self) -> int | None:
        """The side these points make the match's winner (5.9), if any."""
        return match_winner(self.rules, self.scores)


__all__ = ["AS_THE_SNAPSHOT_GIVES", "SO_FAR", "MatchSoFar"]
