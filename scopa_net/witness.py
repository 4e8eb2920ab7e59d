"""One seat's witness of the fair-deal flow: checks every card on arrival, keeps the transcript.

A client (or a bot, or a test) feeds :meth:`DealWitness.observe` every table event its seat
receives, in order. The witness checks the host's commitment and signature when a round opens,
each card against the committed hashes the moment it arrives, the seat's own seed in the
relayed lists, and at the host's reveal it verifies the whole round by re-deriving the deck and
replaying every play through the rules engine (:func:`scopa_net.fair.verifier.verify_transcript`).
Problems raise :class:`~scopa_net.fair.errors.FairnessError` at once, naming what does not match.

:meth:`DealWitness.transcript` is what ``scopa-net verify`` checks offline.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from scopa_net.fair.commitments import (
    ZERO_CHAIN,
    ArrivalCheck,
    check_signature,
    commit_message,
    deck_digest,
    joint_seed,
    reveal_message,
    rules_hash,
    seat_commitment,
)
from scopa_net.fair.errors import (
    BrokenChainError,
    CommitmentMismatchError,
    DigestMismatchError,
    FairnessError,
    ReplayedRoundError,
)
from scopa_net.fair.hashing import same_bytes
from scopa_net.fair.transcript import (
    DealtCard,
    MatchResult,
    PlayEntry,
    RoundRecord,
    Transcript,
    VoidNotice,
)
from scopa_net.fair.verifier import RoundVerdict, verify_transcript
from scopa_net.plays import play_code
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


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
        self.rules = rules
        self.host_key = host_key
        self.seat = seat
        self._rules_digest = rules_hash(rules)
        self.rounds: list[RoundRecord] = []
        self.current: RoundRecord | None = None
        self._check: ArrivalCheck | None = None
        self._seen_ids: set[bytes] = set()
        self._chain: bytes | None = None if mid_match else ZERO_CHAIN
        self.my_seed: bytes | None = None
        self.result = MatchResult((0,) * rules.side_count, None)
        self.verdicts: list[RoundVerdict] = []
        self.on_verdict: Callable[[RoundVerdict], None] | None = None

    # --- the seat's own seed ------------------------------------------------------------

    def my_commitment(self, seed: bytes) -> bytes:
        """Remember the seed this seat will reveal, and return its commitment."""
        if self.current is None:
            raise ValueError("no round is open to commit to")
        self.my_seed = seed
        return seat_commitment(self.current.round_id, self.seat, seed)

    # --- events -------------------------------------------------------------------------

    def observe(self, event: m.Message) -> RoundVerdict | None:
        """Check one event; returns the round's verdict when the host reveals its seed."""
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is None:
            return None
        opens = isinstance(event, m.RoundCommit | m.MatchEnd)
        if self.mid_match and self.current is None and not opens:
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
        self._seen_ids.add(e.round_id)
        self.my_seed = None
        self._check = None
        self.current = RoundRecord.opened(
            round_id=e.round_id,
            round_no=e.round_no,
            prev=e.prev,
            card_hashes=e.card_hashes,
            digest=e.digest,
            sig=e.sig,
        )

    def _on_SeedCommits(self, e: m.SeedCommits) -> None:  # noqa: N802
        rec = self._open(e.round_id)
        if self.my_seed is not None:
            mine = seat_commitment(rec.round_id, self.seat, self.my_seed)
            if not same_bytes(e.commits[self.seat], mine):
                raise CommitmentMismatchError("the host relayed a commitment that is not ours")
        self.current = dataclasses.replace(rec, commits=tuple(e.commits))

    def _on_SeedReveals(self, e: m.SeedReveals) -> None:  # noqa: N802
        rec = self._open(e.round_id)
        if self.my_seed is not None and not same_bytes(e.seeds[self.seat], self.my_seed):
            raise CommitmentMismatchError("the host relayed a seed that is not ours")
        commits = rec.commits or ()
        for seat, (commit, seed) in enumerate(zip(commits, e.seeds, strict=True)):
            if not same_bytes(seat_commitment(rec.round_id, seat, seed), commit):
                raise CommitmentMismatchError(f"seat {seat}'s seed does not match its commitment")
        self.current = dataclasses.replace(rec, seeds=tuple(e.seeds))
        self._check = ArrivalCheck(
            rec.round_id, rec.card_hashes, joint_seed(rec.round_id, rec.digest, e.seeds)
        )

    def _on_Deal(self, e: m.Deal) -> None:  # noqa: N802
        rec, check = self._open(), self._arrivals()
        for c in (*e.hand, *e.table):
            check.check(c.pos, c.card, c.salt)
        hand = tuple(DealtCard(c.pos, c.card, c.salt) for c in e.hand)
        table = tuple(DealtCard(c.pos, c.card, c.salt) for c in e.table)
        self.current = dataclasses.replace(rec, hand=rec.hand + hand, table=rec.table + table)

    def _on_Played(self, e: m.Played) -> None:  # noqa: N802
        rec, check = self._open(), self._arrivals()
        check.check(e.pos, e.card, e.salt)
        entry = PlayEntry(e.seat, play_code(e.card, e.captured), e.pos, e.salt)
        self.current = dataclasses.replace(rec, plays=(*rec.plays, entry))

    def _on_RoundVoid(self, e: m.RoundVoid) -> None:  # noqa: N802
        rec = self._open(e.round_id)
        self.current = dataclasses.replace(rec, void=VoidNotice(e.reason, e.offender))

    def _on_RoundEnd(self, e: m.RoundEnd) -> None:  # noqa: N802
        rec = self._open()
        totals = tuple(sum(line.points[side] for line in e.lines) for side in range(len(e.scores)))
        self.current = dataclasses.replace(rec, score=totals)
        self.result = MatchResult(tuple(e.scores), None)

    def _on_RoundReveal(self, e: m.RoundReveal) -> RoundVerdict:  # noqa: N802
        rec = dataclasses.replace(self._open(e.round_id), host_seed=e.host_seed)
        chain = rec.chain_hash()
        check_signature(
            self.host_key,
            e.sig,
            reveal_message(rec.round_id, e.host_seed, chain),
            f"round {rec.round_no}'s reveal",
        )
        self.rounds.append(dataclasses.replace(rec, reveal_sig=e.sig))
        self.current = None
        self._chain = chain
        if self.mid_match:
            verdict = RoundVerdict(
                rec.round_no,
                None,
                "cards and signatures checked (seat taken mid-match: the round is not replayed)",
            )
            self.verdicts.append(verdict)
            return verdict
        verdict = verify_transcript(self.transcript()).rounds[-1]
        self.verdicts.append(verdict)
        if verdict.error is not None:
            raise verdict.error
        return verdict

    def _on_MatchEnd(self, e: m.MatchEnd) -> None:  # noqa: N802
        self.result = MatchResult(tuple(e.scores), e.winner)

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
        return Transcript(self.rules, self.host_key, self.seat, tuple(self.rounds), self.result)
