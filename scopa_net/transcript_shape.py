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
from typing import Any, TypeVar

from scopa_net.fair.transcript import CaughtUp, MatchResult
from scopa_net.match_so_far import MatchSoFar
from scopa_net.wire import messages as m

Segment = tuple[int, int, CaughtUp]
"""Rounds a seat followed between two catch-ups, kept: where they begin and end in the
witness's rounds, and what the first of the two snapshots told."""
KeptShape = tuple[int | None, int, CaughtUp | None, tuple[Segment, ...]]
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
    as carried on (the transcript's ``caught_up``, its last entry)."""
    earlier: tuple[Segment, ...] = ()
    """The rounds followed between two catch-ups, each with what the first of the two
    snapshots told (the file's earlier ``caught_up`` entries): kept, so that ``verify``
    checks them too."""

    @classmethod
    def of(cls, *, mid_match: bool) -> TranscriptShape:
        """A seat's shape as it sits down: taken mid-match, it holds no round from the start."""
        return cls(first_break=0 if mid_match else None)

    def kept(self) -> KeptShape:
        return (self.first_break, self.since, self.told, self.earlier)

    def put_back(self, kept: KeptShape) -> None:
        """As before a catch-up: the seat took its own chain up again (or was caught up again
        before the next round opened, and the new snapshot is taken up as that one was)."""
        self.first_break, self.since, self.told, self.earlier = kept

    def caught_up(self, held: int, so_far: MatchSoFar | None) -> KeptShape:
        """A catch-up by the snapshot ``so_far`` was told by (None: a seat taken mid-match with
        no snapshot), the witness holding ``held`` rounds: the rounds from here are those
        followed since. Returns the shape before it."""
        kept = self.kept()
        if self.first_break is None:
            self.first_break = held
        elif held > self.since and self.told is not None:  # rounds followed since the last
            self.earlier += ((self.since, held, self.told),)
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
        """The rounds the file holds: those followed from the match's start, those between
        two catch-ups (unless no snapshot told the match before them), then those since the
        latest snapshot."""
        if self.first_break is None:
            return rounds
        between = tuple(r for start, end, _ in self.earlier for r in rounds[start:end])
        return rounds[: self.first_break] + between + rounds[self.since :]

    @property
    def caught_up_key(self) -> tuple[CaughtUp, ...]:
        """The file's ``caught_up`` entries, in order: none for a seat that followed the whole
        chain (or that knows nothing of the match before the rounds it followed)."""
        if self.first_break is None or self.told is None:
            return ()
        return (*(told for _, _, told in self.earlier), self.told)

    def transcript_keys(self) -> dict[str, Any]:
        """:class:`~scopa_net.fair.transcript.Transcript`'s ``caught_up`` and
        ``caught_up_again`` for :attr:`caught_up_key`."""
        first, *again = self.caught_up_key or (None,)
        return {"caught_up": first, "caught_up_again": tuple(again)}


def result_as_told(result: MatchResult, so_far: MatchSoFar | None, held: int) -> MatchResult:
    """A file's ``result`` after a catch-up: a seat that holds no round and saw no signed end
    has the snapshot's points, the host's word (6.1)."""
    if so_far is not None and not held and result.sig is None:
        return MatchResult(so_far.scores, None)
    return result


__all__ = ["KeptShape", "Segment", "TranscriptShape", "result_as_told"]
