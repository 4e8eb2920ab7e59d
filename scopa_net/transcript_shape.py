"""Which rounds a seat's transcript holds, and what it says of a catch-up by snapshot
(``caught_up``, protocol.md 6.1 version 7, 9.8 version 8): one owner for the ordinary witness
and the blind one.

A seat that follows the match from its start keeps every round. Once a snapshot catches it up
and it does not take its own chain up again (:mod:`scopa_net.chain_rejoin`), its file holds
the rounds it followed from the start, then those it followed since the latest snapshot, and
what that snapshot told of the match before them (the host's word), carried on over the rounds
that ended unfollowed and settled by the first round replayed since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from scopa_net.fair.transcript import CaughtUp, MatchResult
from scopa_net.match_so_far import MatchSoFar
from scopa_net.wire import messages as m

KeptShape = tuple[int | None, int, CaughtUp | None]
"""A transcript's shape before a catch-up (:meth:`TranscriptShape.kept`), put back when the
seat takes its chain up again."""

Round = TypeVar("Round")


@dataclass
class TranscriptShape:
    """Where, in a witness's rounds, the chain it followed broke, and what the snapshot told."""

    first_break: int | None = None
    """Where the chain this seat followed from the match's start broke (a catch-up by snapshot
    it did not take up again; 0 for a seat taken mid-match); None while it has not."""
    since: int = 0
    """Where the rounds followed since the latest break begin."""
    told: CaughtUp | None = None
    """After a break, what the snapshot told of the match before the rounds followed since,
    as carried on (the transcript's ``caught_up``)."""

    @classmethod
    def of(cls, *, mid_match: bool) -> TranscriptShape:
        """A seat's shape as it sits down: taken mid-match, it holds no round from the start."""
        return cls(first_break=0 if mid_match else None)

    def kept(self) -> KeptShape:
        return (self.first_break, self.since, self.told)

    def put_back(self, kept: KeptShape) -> None:
        """As before a catch-up: the seat took its own chain up again (or was caught up again
        before the next round opened, and the new snapshot is taken up as that one was)."""
        self.first_break, self.since, self.told = kept

    def caught_up(self, held: int, so_far: MatchSoFar | None) -> KeptShape:
        """A catch-up by the snapshot ``so_far`` was told by (None: a seat taken mid-match with
        no snapshot), the witness holding ``held`` rounds: the rounds from here are those
        followed since. Returns the shape before it."""
        kept = self.kept()
        self.first_break = held if self.first_break is None else self.first_break
        self.since = held
        self.told = None if so_far is None else so_far.caught_up()
        return kept

    def round_ended(
        self, so_far: MatchSoFar, lines: Sequence[m.ScoreLineInfo], round_no: int
    ) -> None:
        """A round the seat did not follow ended in its sight (its ``round_end``): its points
        count in what the snapshot told, carried on."""
        so_far.round_ended(lines, round_no)
        self.told = so_far.caught_up()

    def replayed_from(self, so_far: MatchSoFar, dealer: int | None) -> None:
        """The first round replayed since the catch-up (dealt by ``dealer``, as the seat read
        it) is replayed on ``so_far``: what the file says it is replayed on."""
        self.told = CaughtUp(
            self.told.round_no if self.told is not None else so_far.last_dealt,
            so_far.scores,
            so_far.dealer if so_far.dealer is not None else dealer,
        )

    @property
    def keeps_transcript(self) -> bool:
        """Whether the seat's transcript can be checked: it followed the match from its start,
        or it knows what the snapshot it was caught up with told."""
        return self.first_break is None or self.told is not None

    def rounds(self, rounds: tuple[Round, ...]) -> tuple[Round, ...]:
        """The rounds the file holds: those followed from the match's start, then those since
        the latest snapshot (a round between two catch-ups is left out: it links to neither)."""
        if self.first_break is None:
            return rounds
        return rounds[: self.first_break] + rounds[self.since :]

    @property
    def caught_up_key(self) -> CaughtUp | None:
        """The file's ``caught_up``: None for a seat that followed the whole chain."""
        return None if self.first_break is None else self.told


def result_as_told(result: MatchResult, so_far: MatchSoFar | None, held: int) -> MatchResult:
    """A file's ``result`` after a catch-up: a seat that holds no round and saw no signed end
    has the snapshot's points, the host's word (6.1)."""
    if so_far is not None and not held and result.sig is None:
        return MatchResult(so_far.scores, None)
    return result


__all__ = ["KeptShape", "TranscriptShape", "result_as_told"]
