"""One seat's witness of the fair-deal flow: checks every card on arrival, keeps the transcript.

A client (or a bot, or a test) feeds :meth:`DealWitness.observe` every table event its seat
receives, in order. The witness checks the host's commitment and signature when a round opens,
each card against the committed hashes the moment it arrives, the seat's own seed in the
relayed lists, and at the host's reveal it verifies the whole round by re-deriving the deck and
replaying every play through the rules engine (:func:`scopa_net.fair.verifier.verify_transcript`).
Problems raise :class:`~scopa_net.fair.errors.FairnessError` at once, naming what does not match;
the seat must then stop (:meth:`DealWitness.evidence` is the transcript to keep). What is worth
telling the player but proves nothing against the host (a seed left out, a round no person's
seed shuffled, a receipt that never came) is queued as a notice (:meth:`take_notices`).

:meth:`DealWitness.transcript` is what ``scopa-net verify`` checks offline.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from scopa_net.chain_rejoin import Rejoin, chain_kept, taken_up
from scopa_net.fair.check_names import check_name
from scopa_net.fair.commitments import (
    ZERO_CHAIN,
    ArrivalCheck,
    check_signature,
    commit_message,
    counted_seats,
    deck_digest,
    end_message,
    joint_seed,
    receipt_message,
    reveal_message,
    rules_hash,
    seat_commitment,
)
from scopa_net.fair.errors import (
    BadReceiptError,
    BrokenChainError,
    CommitmentMismatchError,
    DigestMismatchError,
    FairnessError,
    HostLiedError,
    MisroutedCardError,
    ReplayedRoundError,
    RerolledRoundError,
    ScoreMismatchError,
    SeedsHiddenError,
    VoidMismatchError,
)
from scopa_net.fair.hashing import same_bytes
from scopa_net.fair.placement import Placement
from scopa_net.fair.shuffle import first_dealer
from scopa_net.fair.transcript import (
    SEATED_ABSENT,
    SEATED_COMPUTER,
    SEATED_FORMAT_VERSION,
    SEATED_PERSON,
    VOID_KINGS,
    DealtCard,
    MatchResult,
    PlayEntry,
    Receipt,
    RoundRecord,
    Stopped,
    Transcript,
    VoidNotice,
)
from scopa_net.fair.verifier import RoundByRoundVerifier, RoundVerdict, check_seated
from scopa_net.match_so_far import AS_THE_SNAPSHOT_GIVES, SO_FAR, MatchSoFar
from scopa_net.plays import play_code
from scopa_net.rules import RuleSet
from scopa_net.transcript_shape import KeptShape, TranscriptShape, result_as_told
from scopa_net.wire import messages as m

if TYPE_CHECKING:
    from scopa_net.fair.blind.record import BlindRound


Revealed = TypeVar("Revealed", RoundRecord, "BlindRound")


PLAYED = "the rounds played give"
"""Where a seat that followed the match from its start has the match's points from (for the
words of a match end that does not add up)."""


def check_match_end(verifier: RoundByRoundVerifier, rules: RuleSet, e: m.MatchEnd) -> None:
    """5.9 and 6.2: the match's end says the scores and winner its rounds, as ``verifier``
    checked them, give, on the points a snapshot told if it carried them on
    (:class:`ScoreMismatchError` if not; nothing once a round failed)."""
    given = verifier.match_result
    if given is None:
        return  # a round failed: the seat stopped there
    check_end_gives(rules, e, *given, SO_FAR if verifier.from_a_snapshot else PLAYED)


def check_match_end_caught_up(
    rules: RuleSet, e: m.MatchEnd, verifier: RoundByRoundVerifier | None, so_far: MatchSoFar | None
) -> None:
    """The match's end at a seat caught up by snapshot (protocol.md 5.10, 9.7): against the
    rounds replayed since (``verifier``), or, none replayed yet, the points the snapshot and
    the rounds that ended since give (``so_far``); nothing to check without either."""
    if verifier is not None:
        check_match_end(verifier, rules, e)
    elif so_far is not None:
        check_end_gives(rules, e, so_far.scores, so_far.winner, SO_FAR)


def check_end_gives(
    rules: RuleSet,
    e: m.MatchEnd,
    scores: tuple[int, ...],
    winner: int | None,
    basis: str = PLAYED,
) -> None:
    """The match's end names ``scores`` and ``winner``, what ``basis`` gives
    (:class:`ScoreMismatchError` if not)."""
    if tuple(e.scores) != scores or e.winner != winner:

        def who(side: int | None) -> str:
            return "nobody the winner" if side is None else f"the side of seat {side} the winner"

        raise ScoreMismatchError(
            f"the host ended the match naming {who(e.winner)}, with scores "
            f"{list(e.scores)}; {basis} scores {list(scores)}, "
            f"{who(winner)} (playing to {rules.target})"
        )


def opened_by(e: m.RoundCommit) -> RoundRecord:
    """The round as its ``round_commit`` ``e`` announces it (5.2)."""
    return RoundRecord.opened(
        round_id=e.round_id,
        round_no=e.round_no,
        prev=e.prev,
        card_hashes=e.card_hashes,
        digest=e.digest,
        sig=e.sig,
    )


def revealed(host_key: bytes, record: Revealed, e: m.RoundReveal) -> tuple[Revealed, bytes]:
    """The finished round ``record`` with the host's ``round_reveal`` signature, checked over
    the round's chain hash (5.7, 9.5.8), and that chain hash."""
    chain = record.chain_hash()
    check_signature(
        host_key,
        e.sig,
        reveal_message(record.round_id, e.host_seed, chain),
        f"round {record.round_no}'s reveal",
    )
    return dataclasses.replace(record, reveal_sig=e.sig), chain


TOLD_BEFORE_A_JOURNAL_PUT_BACK = (
    "the host put its events back to an older copy: before that this seat saw"
)
"""How a re-rolled round's words say when this seat saw the round first: before a ``stale``
resume (:attr:`DealWitness.told_since`)."""
TOLD_BEFORE_A_FRESH_CLIENT = "this seat's client was started afresh: the client before it saw"
"""The same for a seat taken back from disk, whose earlier client kept the round there."""


class DealWitness:
    """What one seat saw of every round, checked as it arrived."""

    def __init__(
        self, rules: RuleSet, host_key: bytes, seat: int, *, mid_match: bool = False
    ) -> None:
        """``mid_match``: the seat was taken in a match already under way. The earlier rounds
        were never seen, so the chain starts at the first round opened from here, events of
        the round in progress are let pass, and each round is checked card by card and by
        signature but not replayed (the match before it is unknown)."""
        self.mid_match = mid_match
        self.caught_up = False
        """Caught up by a snapshot (:meth:`resynced`): the seat's own, not taken mid-match."""
        self.rules = rules
        self.host_key = host_key
        self.seat = seat
        self._rules_digest = rules_hash(rules)
        self.rounds: list[RoundRecord] = []
        self.current: RoundRecord | None = None
        self._check: ArrivalCheck | None = None
        self._seen_ids: set[bytes] = set()
        self._highest_opened = 0
        """The highest ``round_no`` of a ``round_commit`` seen in this match (or that a
        snapshot showed dealt), kept when a snapshot makes the chain lost: a host never opens
        a round number twice (5.2)."""
        self.told_before: dict[int, RoundRecord] = {}
        """By round number, the rounds this seat saw opened before the host put its events
        back to an older copy (a journal restored, protocol.md 3.3), or before its client was
        started afresh (a seat taken back from disk): the host may tell the rounds again, but
        not open one whose seeds were out with another shuffle."""
        self.told_since = TOLD_BEFORE_A_JOURNAL_PUT_BACK
        """What came between the rounds of :attr:`told_before` and now, in the words of a
        re-rolled round (:data:`TOLD_BEFORE_A_FRESH_CLIENT` for a seat taken back from disk)."""
        self.computer_seats: frozenset[int] = frozenset()
        """The computer players' seats (``kind`` bot) as this seat knows them now: set by the
        client from ``seat_status`` before it hands over a ``round_commit``."""
        self.absent_seats: set[int] = set()
        """The people's seats whose player was not connected when the round in play was
        opened and has not come back since (the client keeps it from ``seat_status``): no
        commitment can have come from them."""
        self._computers_in_round: frozenset[int] = frozenset()
        """The computer players' seats when the round in play was opened: they send no seed."""
        self._cut_short: RoundRecord | None = None
        """The round a snapshot cut short (its record as far as this seat saw it), until the
        next round opens: what the evidence shows if the host opens that round again."""
        self._chain: bytes | None = None if mid_match else ZERO_CHAIN
        self.my_seed: bytes | None = None
        self.revealed = False
        """Whether this seat has sent its seed for the round under way."""
        self.dealer: int | None = None
        """The dealer of the round under way (or the next), once known."""
        self._placement: Placement | None = None
        self._notices: list[str] = []
        self.result = MatchResult((0,) * rules.side_count, None)
        self.verdicts: list[RoundVerdict] = []
        self.on_verdict: Callable[[RoundVerdict], None] | None = None
        self._verifier: RoundByRoundVerifier | None = None
        """Checks each round once, as it ends, carrying the match on."""
        self.so_far: MatchSoFar | None = None
        """After a catch-up by snapshot, until a round is revealed that the checks can start
        from: the match as the snapshot told it (the host's word), carried on over the rounds
        that end unfollowed and checked against the rounds that follow (:meth:`resynced`)."""
        self.shape = TranscriptShape.of(mid_match=mid_match)
        """Which of :attr:`rounds` the transcript holds, and what it says of a catch-up by
        snapshot (``caught_up``, protocol.md 6.1)."""
        self._commit_due: int | None = None
        """After a catch-up by a snapshot that shows the round of this seat's receipted seed
        over (its ``seed_reveals`` unseen): that round's number. The snapshot is then the one
        just before the next round's ``round_commit`` (protocol.md 3.4), which must be the next
        event (:meth:`_next_round_due`)."""
        self._rejoin: Rejoin | None = None
        """After a catch-up by a snapshot that stands at the last round this seat saw
        revealed (or at no round dealt), until the next ``round_commit``: the chain hash that
        round must link to, and the match as this seat checked it (:meth:`_rejoined`)."""

    # --- the seat's own seed ------------------------------------------------------------

    def my_commitment(self, seed: bytes) -> bytes:
        """Remember the seed this seat will reveal, and return its commitment."""
        if self.current is None:
            raise ValueError("no round is open to commit to")
        self.my_seed = seed
        return seat_commitment(self.current.round_id, self.seat, seed)

    def seed_in_play(self) -> tuple[bytes, bytes] | None:
        """(round id, seed) of this seat's seed for the round under way, until the seeds are
        out: what a client keeps so that a restarted client reveals the same seed."""
        rec = self.current
        if rec is None or self.my_seed is None or rec.seeds is not None:
            return None
        return rec.round_id, self.my_seed

    def restore_seed(self, round_id: bytes, seed: bytes) -> None:
        """Take back a seed kept by :meth:`seed_in_play` (after the round's ``round_commit``
        was seen again)."""
        if self.current is not None and same_bytes(self.current.round_id, round_id):
            self.my_seed = seed

    def should_reveal(self) -> bool:
        """Whether the host relayed this seat's commitment and still waits for its seed."""
        rec = self.current
        return (
            rec is not None
            and self.my_seed is not None
            and rec.commits is not None
            and rec.commits[self.seat] is not None
            and rec.seeds is None
            and rec.receipt is None
        )

    def snapshot_skips_seeds(self, shows_round: int, *, over: bool = False) -> None:
        """A snapshot showing round ``shows_round`` as the last dealt (``over``: played out or
        void, the next not dealt) is about to skip events of the round in play: if this seat
        revealed its seed and has not seen the round's ``seed_reveals``, it can no longer see
        whether its seed counted. Holding the host's receipt for it, while the snapshot shows
        that round (or an earlier one) as the last dealt and not over, that is a failed check:
        the receipt was to prove a seed left out, and a host replays that round's events to a
        seat that revealed (protocol.md 3.4, 5.4). That round over, the snapshot is the one
        just before the next round's ``round_commit`` (a host keeps the latest round's events
        only): that ``round_commit`` must come next. Without a receipt, or past that round
        (the seat was away for all of it), a notice."""
        due, self._commit_due = self._commit_due, None
        if due is not None and shows_round <= due:
            # (caught up again before the round_commit an earlier snapshot stood before)
            raise self._seeds_hidden(due)
        rec = self.current
        if rec is None or rec.seeds is not None or not self.revealed or self.my_seed is None:
            return
        mine = seat_commitment(rec.round_id, self.seat, self.my_seed)
        held = rec.receipt is not None and same_bytes(rec.receipt.seed_hash, mine)
        if held and shows_round < rec.round_no:
            raise self._seeds_hidden(rec.round_no)
        if held and shows_round == rec.round_no:
            if not over:
                raise self._seeds_hidden(rec.round_no)
            self._commit_due = rec.round_no
        receipt = "with the host's receipt for yours" if held else "with no receipt for yours"
        self._notices.append(
            f"round {rec.round_no}: you revealed your seed ({receipt}), and the host sent the "
            "table as it stands before you saw the round's seeds: whether your seed counted "
            "cannot be checked, nor whether the host dealt that round as it opened it: unseen "
            "here, it could have left your seed out, or thrown that deal away and dealt the "
            "round again (only another person at the table saw that round). If it happens "
            "again, stop playing at this host"
        )

    @staticmethod
    def _seeds_hidden(round_no: int) -> SeedsHiddenError:
        return SeedsHiddenError(
            f"round {round_no}: the host signed a receipt for your seed, then caught "
            "this seat up by snapshot before it saw the round's seeds relayed: whether your "
            "seed counted cannot be checked; the receipt is kept in your transcript"
        )

    def _next_round_due(self, event: m.Message) -> None:
        """The first event after a snapshot that showed the round of this seat's receipted
        seed over (:attr:`_commit_due`): the next round's ``round_commit``, as 3.4 sends it,
        or :class:`SeedsHiddenError` (a snapshot of the present, the round's events hidden)."""
        due, self._commit_due = self._commit_due, None
        assert due is not None
        if not (isinstance(event, m.RoundCommit) and event.round_no == due + 1):
            raise self._seeds_hidden(due)

    def resynced(self, snapshot: m.Snapshot | None = None) -> None:
        """The seat was caught up by a snapshot and missed events: forget the round under way
        and check cards again from the next ``round_commit`` (the chain before it can no
        longer be followed, unless the snapshot stands at the last round this seat saw
        revealed and the next round links to it: :meth:`_rejoined`; else the transcript
        starts again after it, with what the snapshot told, :attr:`shape`). What ``snapshot``
        tells of the match (protocol.md 3.4, 5.10: the last round dealt, the points, the
        dealer) is carried on, and every round followed from here is checked against it as
        a seat that saw every event checks it: a round number above the last dealt, the
        dealer of the first round followed, every round replayed and scored on the points so
        far, the chain from its reveal on, and the match's end. Without ``snapshot``, as a
        seat taken mid-match: cards and signatures only. A snapshot that stands at the last
        round this seat saw revealed must give the points and dealer it replayed
        (:meth:`MatchSoFar.check_against`; raised before anything is forgotten)."""
        self._caught_up_again()
        so_far = None if snapshot is None else MatchSoFar.told_by(snapshot, self.rules)
        kept = self.shape.caught_up(len(self.rounds), so_far)  # (in the evidence, too)
        self.result = result_as_told(self.result, so_far, len(self.rounds))
        if so_far is not None and self.rounds:
            so_far.check_against(self._verifier, self.rounds[-1].round_no)
        self._rejoin = self._chain_kept(so_far, kept)
        self.mid_match = True
        self._cut_short = self.current or self._cut_short
        self.caught_up = True
        self.current = None
        self._check = None
        self._placement = None
        self._chain = None
        self.dealer = None
        self.my_seed = None
        self._verifier = None
        self.so_far = so_far
        if self.so_far is not None:
            self._highest_opened = max(self._highest_opened, self.so_far.last_dealt)

    def _caught_up_again(self) -> None:
        """Caught up again before the next round opened in this seat's sight (its connection
        dropped during the catch-up): the seat is as it was before the first of these
        snapshots (its chain, its replay, its transcript's shape), so that the new one is
        checked and taken up as that one was."""
        rejoin, self._rejoin = self._rejoin, None
        if rejoin is None:
            return
        self._chain, self._verifier, self.mid_match = (
            rejoin.chain,
            rejoin.verifier,
            rejoin.mid_match,
        )
        self.shape.put_back(rejoin.kept)

    def _chain_kept(self, so_far: MatchSoFar | None, kept: KeptShape) -> Rejoin | None:
        """What this seat can take up again after a snapshot that stands at the last round it
        saw revealed (or at no round dealt): :func:`chain_kept`."""
        return chain_kept(
            so_far,
            last_revealed=self.rounds[-1].round_no if self.rounds else 0,
            chain=self._chain,
            verifier=self._verifier,
            mid_match=self.mid_match,
            kept=kept,
        )

    def _rejoined(self, e: m.RoundCommit) -> None:
        """The first ``round_commit`` after a snapshot that stands at the last round this seat
        saw revealed (or at no round dealt): numbered next, it must link to that round's chain
        hash as this seat holds it (*broken chain* if not), and the seat then follows the match
        as it did before the catch-up, the chain unbroken."""
        try:
            rejoin = taken_up(self._rejoin, e.round_no, e.prev, self._notices)
        except BrokenChainError:
            self._cut_short = opened_by(e)  # the round that does not link, in the evidence
            raise
        finally:
            self._rejoin = None
        if rejoin is None:
            return
        self._chain = rejoin.chain
        self.shape.put_back(rejoin.kept)  # the chain did not break
        if rejoin.round_no == 1 or rejoin.verifier is not None:
            self.mid_match = rejoin.mid_match
            self._verifier = rejoin.verifier
            self.so_far = None
            self.dealer = rejoin.dealer

    def sat_down(self, snapshot: m.Snapshot) -> None:
        """A seat taken in a match under way (a ``join``): it carries the snapshot it sat down
        with on as a seat caught up by one does (protocol.md 5.10 lets a client do so), so
        that every round it follows is replayed and scored on the match as the snapshot told
        it, and its transcript (version 7) says so."""
        self.resynced(snapshot)
        self.caught_up = False  # (its own words: a seat taken mid-match)

    @property
    def takes_chain_up(self) -> bool:
        """Whether the snapshot this seat was just caught up with stands at the last round it
        saw revealed (or at no round dealt): the next round, if numbered next, links to the
        seat's own chain and the seat follows the match as before (:meth:`_rejoined`)."""
        return self._rejoin is not None

    @property
    def replays_plays(self) -> bool:
        """Whether the rounds are replayed, plays and scores, on the match so far: from the
        match's start, or after a catch-up by snapshot from the first round revealed since
        (False for a seat taken mid-match)."""
        return not self.mid_match or self._verifier is not None

    def _follows_first(self) -> bool:
        """Whether the round under way is the first this seat follows since a catch-up by
        snapshot (whose dealer the snapshot gives)."""
        return self.so_far is not None and self._verifier is None

    def _joined_how(self) -> str:
        """How this seat came into a match it did not follow from its start."""
        return "caught up mid-match" if self.caught_up else "seat taken mid-match"

    def take_notices(self) -> list[str]:
        """What the player should be told that is not a failed check (then forgotten)."""
        out, self._notices = self._notices, []
        return out

    # --- events -------------------------------------------------------------------------

    def observe(self, event: m.Message) -> RoundVerdict | None:
        """Check one event; returns the round's verdict when the host reveals its seed."""
        if self._commit_due is not None and not isinstance(event, m.Snapshot):
            self._next_round_due(event)
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is None:
            return None
        opens = isinstance(event, m.RoundCommit | m.MatchEnd)
        if self.mid_match and self.current is None and not opens:
            if isinstance(event, m.RoundEnd) and self._follows_first():
                assert self.so_far is not None  # (a round under way at the catch-up, played out)
                self.shape.round_ended(self.so_far, event.lines, event.round_no)
                self.result = MatchResult(tuple(event.scores), None)  # (the host's last word)
            return None  # the tail of a round that began before this seat was taken
        return handler(event)

    def _on_RoundCommit(self, e: m.RoundCommit) -> None:  # noqa: N802
        if e.round_id in self._seen_ids:
            raise ReplayedRoundError(f"round id {e.round_id.hex()} was used before")
        if self._chain is not None and not same_bytes(e.prev, self._chain):
            raise BrokenChainError(
                f"round {e.round_no} links to {e.prev.hex()}, not to the previous round "
                f"{self._chain.hex()}"
            )
        if not same_bytes(deck_digest(e.round_id, e.card_hashes), e.digest):
            raise DigestMismatchError(f"round {e.round_no}: the digest does not match the hashes")
        check_signature(
            self.host_key,
            e.sig,
            commit_message(e.round_id, e.round_no, e.prev, e.digest, self._rules_digest),
            f"round {e.round_no}'s commitment",
        )
        self._no_reroll(e)
        self._rejoined(e)
        if self._chain is not None and self.rounds and e.round_no != self.rounds[-1].round_no + 1:
            raise BrokenChainError(
                f"round {e.round_no} follows round {self.rounds[-1].round_no}; numbers go up by one"
            )
        self._seen_ids.add(e.round_id)
        self._highest_opened = max(self._highest_opened, e.round_no)
        self._computers_in_round = self.computer_seats
        self._cut_short = None
        self.my_seed = None
        self.revealed = False
        self._check = None
        self._placement = None
        if self._follows_first():
            assert self.so_far is not None
            self.dealer = self.so_far.dealer  # (None: no round dealt, the host's word past 1)
        self.current = opened_by(e)

    def _no_reroll(self, e: m.RoundCommit) -> None:
        """5.2 and 5.4: a round, once opened, is played (or void for kings) and revealed
        before the next opens, and no round number is opened twice. A host that opens a
        round again has thrown a shuffle away, perhaps after seeing the seats' seeds."""
        told = self.told_before.get(e.round_no)
        if (
            told is not None
            and told.commits is not None
            and not same_bytes(told.round_id, e.round_id)
        ):
            self._cut_short = told  # the round thrown away, in the evidence
            raise RerolledRoundError(
                f"round {e.round_no} was opened again (round id {e.round_id.hex()}) after "
                f"{self.told_since} round {e.round_no} opened (round id "
                f"{told.round_id.hex()}) and the seeds' commitments relayed, so the host could "
                "have seen that deal"
            )
        rec = self.current
        if rec is not None:
            seeds = "after the seeds were relayed" if rec.seeds is not None else "unfinished"
            raise RerolledRoundError(
                f"round {e.round_no} (round id {e.round_id.hex()}) was opened while round "
                f"{rec.round_no} (round id {rec.round_id.hex()}) was still in play: the host "
                f"threw round {rec.round_no} away {seeds}, without a reveal"
            )
        if e.round_no <= self._highest_opened:
            raise RerolledRoundError(
                f"round {e.round_no} was opened again (round id {e.round_id.hex()}), after "
                f"round {self._highest_opened} had been opened: round numbers only go up"
            )

    def opened_rounds(self) -> dict[int, RoundRecord]:
        """By round number, every round of the match this seat saw opened, as far as it saw
        it (for :attr:`told_before` of the witness that follows the host's events again)."""
        opened = {r.round_no: r for r in self.rounds}
        for rec in (self._cut_short, self.current):
            if rec is not None:
                opened[rec.round_no] = rec
        return {**self.told_before, **opened}

    def _on_SeedCommits(self, e: m.SeedCommits) -> None:  # noqa: N802
        rec = self._open(e.round_id)
        if rec.commits is not None:
            raise BrokenChainError(f"round {rec.round_no}: the commitments were relayed twice")
        self._per_seat(e.commits, "commitments")
        # Kept before any check, so that evidence shows what the host relayed, and for whom.
        rec = dataclasses.replace(rec, commits=tuple(e.commits), seated=self._seated())
        self.current = rec
        check_seated(rec)
        relayed = e.commits[self.seat]
        if self.my_seed is not None:
            mine = seat_commitment(rec.round_id, self.seat, self.my_seed)
            if relayed is None:
                others = any(c is not None for c in e.commits)
                alone = (
                    ""
                    if others
                    else ("; with no other person's seed in, the host alone chose the deal")
                )
                self._notices.append(
                    f"round {rec.round_no}: the host says your seed commitment did not arrive "
                    "in time, so your seed is left out of this round (a commitment gets no "
                    f"receipt: nothing can prove it came){alone}. Once may be a slow network; "
                    "if it happens again, stop playing at this host (scopa-net verify, given "
                    "your transcripts, counts the seeds left out by seat)"
                )
            elif not same_bytes(relayed, mine):
                raise CommitmentMismatchError("the host relayed a commitment that is not ours")

    def _seated(self) -> tuple[str, ...]:
        """By seat, who could send its seed as this seat knows it now (``seated``,
        protocol.md 6.1): a computer player's seat when the round was opened, a person's seat
        nobody's client has held since then (never this seat), or a person's."""

        def kind(seat: int) -> str:
            if seat in self._computers_in_round:
                return SEATED_COMPUTER
            if seat in self.absent_seats and seat != self.seat:
                return SEATED_ABSENT
            return SEATED_PERSON

        return tuple(kind(seat) for seat in range(self.rules.players))

    def _on_SeedReceipt(self, e: m.SeedReceipt) -> None:  # noqa: N802
        rec = self._open(e.round_id)
        if e.seat != self.seat:
            raise BadReceiptError(f"a receipt for seat {e.seat} reached seat {self.seat}")
        check_signature(
            self.host_key,
            e.sig,
            receipt_message(rec.round_id, e.seat, e.seed_hash),
            f"round {rec.round_no}'s seed receipt",
        )
        if self.my_seed is not None:
            mine = seat_commitment(rec.round_id, self.seat, self.my_seed)
            if not same_bytes(e.seed_hash, mine):
                raise BadReceiptError(
                    f"round {rec.round_no}: the host acknowledged a seed other than ours"
                )
        self.current = dataclasses.replace(rec, receipt=Receipt(e.seed_hash, e.sig))

    def _on_SeedReveals(self, e: m.SeedReveals) -> None:  # noqa: N802
        rec = self._open(e.round_id)
        if rec.commits is None or rec.seeds is not None:
            raise BrokenChainError(f"round {rec.round_no}: seeds relayed out of turn")
        self._per_seat(e.seeds, "seeds")
        # Kept before any check, so that evidence shows what the host published.
        rec = dataclasses.replace(rec, seeds=tuple(e.seeds), excluded=tuple(e.excluded))
        self.current = rec
        mine, reason = e.seeds[self.seat], e.excluded[self.seat]
        if self.my_seed is not None and mine is not None and not same_bytes(mine, self.my_seed):
            raise CommitmentMismatchError("the host relayed a seed that is not ours")
        own_commit = rec.commits[self.seat]
        receipt = rec.receipt
        if (
            reason is not None
            and receipt is not None
            and own_commit is not None
            and same_bytes(receipt.seed_hash, own_commit)
        ):
            raise HostLiedError(
                f"round {rec.round_no}: the host left your seed out ({reason}) although it "
                "signed a receipt for it; the receipt is kept in your transcript as proof"
            )
        counted = counted_seats(rec.round_id, rec.commits, e.seeds, e.excluded)
        self._tell_exclusions(rec, counted)
        joint = joint_seed(rec.round_id, rec.digest, [e.seeds[s] for s in counted])
        self._check = ArrivalCheck(rec.round_id, rec.card_hashes, joint)
        from_the_start = not self.mid_match and not self.rounds
        if self._follows_first():
            assert self.so_far is not None
            from_the_start = self.so_far.starts_afresh(rec.round_no)
        if self.dealer is None and from_the_start:
            self.dealer = first_dealer(joint, rec.round_id, self.rules.players)

    def _tell_exclusions(self, rec: RoundRecord, counted: tuple[int, ...]) -> None:
        assert rec.excluded is not None
        if self.revealed and rec.excluded[self.seat] is not None and rec.receipt is None:
            self._notices.append(
                f"round {rec.round_no}: you revealed your seed, but the host says it never came, "
                "and it sent no receipt for it: your seed is left out, so the host could pick "
                "between the deal with it and the deal without it. Once may be a slow network; "
                "if it happens again, stop playing at this host (scopa-net verify, given your "
                "transcripts, counts the seeds left out by seat)"
            )
        for seat, reason in enumerate(rec.excluded):
            if reason is not None:
                who = "your" if seat == self.seat else f"seat {seat}'s"
                self._notices.append(
                    f"round {rec.round_no}: {who} seed is left out ({reason.replace('_', ' ')})"
                )
        if not counted:
            self._notices.append(
                f"round {rec.round_no}: not fair-checked: no player seed (the host alone "
                "chose this deal)"
            )

    def _per_seat(self, values: tuple, what: str) -> None:
        if len(values) != self.rules.players:
            raise BrokenChainError(f"{len(values)} {what} at a {self.rules.players}-player table")

    def _placed(self) -> Placement:
        if self._placement is None:
            if self.dealer is None:
                raise FairnessError("cards arrived before the dealer of the round was known")
            self._placement = Placement(self.rules, self.seat, self.dealer)
        return self._placement

    def _on_Deal(self, e: m.Deal) -> None:  # noqa: N802
        rec, check = self._open(), self._arrivals()
        for c in (*e.hand, *e.table):
            check.check(c.pos, c.card, c.salt)
        if self._placement is None and self.mid_match:
            self._dealer_of(rec, {c.pos for c in e.hand})
        self._placed().deal(((c.pos, c.card) for c in e.hand), ((c.pos, c.card) for c in e.table))
        hand = tuple(DealtCard(c.pos, c.card, c.salt) for c in e.hand)
        table = tuple(DealtCard(c.pos, c.card, c.salt) for c in e.table)
        self.current = dataclasses.replace(rec, hand=rec.hand + hand, table=rec.table + table)

    def _dealer_of(self, rec: RoundRecord, hand: set[int]) -> None:
        """The first deal of a round, at a seat that did not see the match from its start:
        seated mid-match (or caught up by a snapshot of no round dealt, past round 1), the
        dealer is the one whose first deal gives these positions (the host's word); after a
        catch-up by snapshot, the one it gives (:class:`MisroutedCardError` if another's, as
        the deal plan refuses it at a seat that saw every event, in words that name it; a
        first dealer other than the seeds draw is the deal plan's to refuse, as at any seat)."""
        from scopa_net.mirror import dealer_from_positions

        try:
            dealt_by = dealer_from_positions(self.rules, self.seat, hand)
        except ValueError:
            return  # no dealer's plan: the deal plan's check says so
        due, told = self.dealer, self.so_far if self._follows_first() else None
        if due is None:
            self.dealer = dealt_by
        elif dealt_by != due and told is not None and told.dealer is not None:
            raise MisroutedCardError(
                f"round {rec.round_no}'s dealer is seat {dealt_by}, but seat {due} deals it "
                f"(the next seat after a round played out, the same after a void"
                f"{AS_THE_SNAPSHOT_GIVES})"
            )

    def _on_Played(self, e: m.Played) -> None:  # noqa: N802
        rec, check = self._open(), self._arrivals()
        check.check(e.pos, e.card, e.salt)
        self._placed().play(e.seat, e.pos, e.card)
        entry = PlayEntry(e.seat, play_code(e.card, e.captured), e.pos, e.salt)
        self.current = dataclasses.replace(rec, plays=(*rec.plays, entry))

    def _on_RoundVoid(self, e: m.RoundVoid) -> None:  # noqa: N802
        rec = self._open(e.round_id)
        kings = sum(1 for c in rec.table if c.card >= 36)
        if e.reason != VOID_KINGS or kings < 3 or rec.plays:
            raise VoidMismatchError(
                f"round {rec.round_no} was called void ({e.reason}) with {kings} kings on the "
                "opening table; the only void is three or more kings, before any play"
            )
        self.current = dataclasses.replace(rec, void=VoidNotice(e.reason, None))

    def _on_RoundEnd(self, e: m.RoundEnd) -> None:  # noqa: N802
        rec = self._open()
        if e.round_no != rec.round_no:
            raise BrokenChainError(
                f"the score sheet is for round {e.round_no}, but round {rec.round_no} is in play"
            )
        totals = tuple(sum(line.points[side] for line in e.lines) for side in range(len(e.scores)))
        self.current = dataclasses.replace(rec, score=totals)
        self.result = MatchResult(tuple(e.scores), None)
        if self.dealer is not None:
            self.dealer = (self.dealer + 1) % self.rules.players  # the deal passes on

    def _on_RoundReveal(self, e: m.RoundReveal) -> RoundVerdict:  # noqa: N802
        rec, chain = revealed(
            self.host_key, dataclasses.replace(self._open(e.round_id), host_seed=e.host_seed), e
        )
        self.rounds.append(rec)
        self.current = None
        self._chain = chain
        if self._follows_first():
            self._carry_on(rec)
        if self.mid_match and self._verifier is None:
            verdict = RoundVerdict(
                rec.round_no,
                None,
                f"cards and signatures checked ({self._joined_how()}: the round is not replayed)",
            )
            self.verdicts.append(verdict)
            return verdict
        if self._verifier is None:
            self._verifier = RoundByRoundVerifier(self.rules, self.host_key, self.seat)
            for earlier in self.rounds[:-1]:
                self._verifier.add(earlier)
        verdict = self._verifier.add(self.rounds[-1])
        self.verdicts.append(verdict)
        if verdict.error is not None:
            raise verdict.error
        return verdict

    def _carry_on(self, rec: RoundRecord) -> None:
        """From ``rec``, the first round revealed since a catch-up by snapshot, the rounds are
        replayed and scored on the match as the snapshot told it (:attr:`so_far`)."""
        so_far = self.so_far
        assert so_far is not None
        dealer = None if self._placement is None else self._placement.dealer
        self._verifier = so_far.verifier(
            RoundByRoundVerifier,
            self.host_key,
            self.seat,
            round_no=rec.round_no,
            prev=rec.prev,
            dealer=dealer,
        )
        if self._verifier is not None:
            self.so_far = None
            self.shape.replayed_from(so_far, dealer)

    def _on_MatchEnd(self, e: m.MatchEnd) -> None:  # noqa: N802
        if self.current is not None:
            raise BrokenChainError("the match ended while a round was still open")
        self._told_rounds_reached()
        if self._chain is not None:
            check_signature(
                self.host_key,
                e.sig,
                end_message(self._chain, e.scores, e.winner),
                "the match end",
            )
        self.result = MatchResult(tuple(e.scores), e.winner, e.sig)
        if not self.mid_match:
            self._check_result(e)
        else:
            check_match_end_caught_up(self.rules, e, self._verifier, self.so_far)

    def _told_rounds_reached(self) -> None:
        """A match told again (after a ``stale`` resume, or to a client started afresh) ends
        only once it has reached every round this seat saw opened with its commitments out:
        ending it before one of them tells the match otherwise (5.2), as a match ended while
        that round was open would have."""
        for told in sorted(self.told_before.values(), key=lambda r: r.round_no):
            if told.commits is not None and told.round_no > self._highest_opened:
                self._cut_short = told  # the round the match was told without, in the evidence
                raise BrokenChainError(
                    f"the host ended the match after round {self._highest_opened}, but "
                    f"{self.told_since} round {told.round_no} opened (round id "
                    f"{told.round_id.hex()}) and the seeds' commitments relayed, so the host "
                    "told the match otherwise"
                )

    def _check_result(self, e: m.MatchEnd) -> None:
        """5.9 and 6.2: the match's end says the scores and winner its rounds give (the
        signed end is kept first, so that the evidence shows what the host signed)."""
        if self._verifier is None:
            self._verifier = RoundByRoundVerifier(self.rules, self.host_key, self.seat)
        check_match_end(self._verifier, self.rules, e)

    # --- helpers ------------------------------------------------------------------------

    def _open(self, round_id: bytes | None = None) -> RoundRecord:
        if self.current is None:
            raise FairnessError("an event of a round arrived with no round open")
        if round_id is not None and not same_bytes(round_id, self.current.round_id):
            raise FairnessError(
                f"an event names round {round_id.hex()}, not the open round "
                f"{self.current.round_id.hex()}"
            )
        return self.current

    def _arrivals(self) -> ArrivalCheck:
        if self._check is None:
            raise FairnessError("cards arrived before every seat's seed was revealed")
        return self._check

    def transcript(self) -> Transcript:
        """Everything this seat can prove about the match so far (finished rounds only)."""
        return self._transcript(tuple(self.rounds))

    @property
    def keeps_transcript(self) -> bool:
        """Whether this seat's transcript can be checked: it followed the match from its
        start, or it knows what the snapshot it was caught up with told of the match before
        the rounds it followed since (protocol.md 6.1, version 7)."""
        return self.shape.keeps_transcript

    def abandoned(self) -> RoundRecord | None:
        """The round in play if its seeds were relayed (so the host knew its deal) and it
        was never revealed: what a match closed now leaves unfinished."""
        rec = self.current
        return rec if rec is not None and rec.seeds is not None else None

    def transcript_with_abandoned(self) -> Transcript:
        """:meth:`transcript` with :meth:`abandoned`'s round last, unfinished (protocol.md
        6.1), so that ``scopa-net verify`` reports it never revealed."""
        rec = self.abandoned()
        rounds = tuple(self.rounds) + (() if rec is None else (rec,))
        return self._transcript(rounds)

    def evidence(self, error: FairnessError) -> Transcript:
        """The transcript to keep after a failed check: every round so far, the round under
        way as far as it got (with this seat's receipt, if any), and what failed."""
        in_play = self.current or self._cut_short
        rounds = tuple(self.rounds) + (() if in_play is None else (in_play,))
        stopped = Stopped(self.round_no, check_name(error), str(error)[:1000] or "-")
        return self._transcript(rounds, stopped)

    def _transcript(
        self, rounds: tuple[RoundRecord, ...], stopped: Stopped | None = None
    ) -> Transcript:
        """A transcript of ``rounds`` as this seat writes it: version 5, each round saying who
        could send each seat's seed (protocol.md 6.1)."""
        return Transcript(
            self.rules,
            self.host_key,
            self.seat,
            self.shape.rounds(rounds),
            self.result,
            stopped=stopped,
            plain_version=SEATED_FORMAT_VERSION,
            **self.shape.transcript_keys(),
        )

    @property
    def round_no(self) -> int:
        """The number of the round under way (or the last one), 0 before the first."""
        if self.current is not None:
            return self.current.round_no
        # (After a snapshot the rounds opened since the last revealed one were not followed.)
        last = self.rounds[-1].round_no if self.rounds else 0
        cut = self._cut_short.round_no if self._cut_short is not None else 0
        return max(last, self._highest_opened, cut)
