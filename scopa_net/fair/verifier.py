"""Check a whole transcript: every commitment, every card, every play, every score.

For each round, in order: the chain (round number, link to the previous round, no repeated
round id), the host's commit signature, the digest over the card hashes, the seats' seeds
against their commitments, the revealed host seed against every committed hash, every card the
seat saw against the deck the seeds give, where each card was sent, a replay of every play
through the rules engine (``exact=True``: every play must be legal as recorded), the round's
score, and the host's reveal signature over the whole public round. Then the match result.

A failed round does not stop the others: later rounds still have their chain, signatures,
commitments and cards checked, but the engine replay stops at the first failure, since the
match state after it is unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE, seat_positions
from scopa_net.errors import AmbiguousPlayError, IllegalPlayError
from scopa_net.fair.check_names import check_line
from scopa_net.fair.commitments import (
    LEFT_OUT_WORDS,
    ZERO_CHAIN,
    ArrivalCheck,
    HostDeck,
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
    AbsentSeatSeedError,
    BadReceiptError,
    BrokenChainError,
    ComputerSeedError,
    DigestMismatchError,
    EmptyTranscriptError,
    FairnessError,
    HostLiedError,
    HostSeedMismatchError,
    IllegalPlayRecordedError,
    IncompleteRoundError,
    MisroutedCardError,
    NotRevealedError,
    ReplayedRoundError,
    ScoreMismatchError,
    SwappedCardError,
    UnfinishedMatchError,
    VoidMismatchError,
    WrongSaltError,
)
from scopa_net.fair.hashing import same_bytes
from scopa_net.fair.shuffle import first_dealer
from scopa_net.fair.transcript import (
    SEATED_ABSENT,
    SEATED_COMPUTER,
    VOID_KINGS,
    CaughtUp,
    DealtCard,
    MatchResult,
    PlayEntry,
    RoundRecord,
    Transcript,
)
from scopa_net.match import Match, match_winner
from scopa_net.plays import CARD_FIELD, Play
from scopa_net.rules import RuleSet


@dataclass(frozen=True, slots=True)
class RoundVerdict:
    round_no: int
    error: FairnessError | None
    note: str
    """What was checked, for a round without error ("verified", "void: ...")."""
    fair_checked: bool = True
    """False when no person's seed counted in the joint seed: the host alone chose the deck."""

    @property
    def ok(self) -> bool:
        return self.error is None

    def text(self) -> str:
        if self.error is not None:
            return f"round {self.round_no}: FAILED: {check_line(self.error)}"
        return f"round {self.round_no}: {self.note}"


@dataclass(frozen=True, slots=True)
class MatchVerdict:
    rounds: tuple[RoundVerdict, ...]
    result_error: FairnessError | None
    result_note: str
    finished: bool = True
    """Whether the transcript ends with the host's signed match end."""
    caught_up_error: FairnessError | None = None
    """In a file of a seat caught up by snapshot (version 7): what the snapshot told of the
    last round the seat itself followed, contradicted by that round's replay."""
    unseen: str = ""
    """In a file of a seat caught up by snapshot: which rounds it could not check, and what
    the rounds after them are checked on (the host's word), a line for each catch-up."""

    @property
    def ok(self) -> bool:
        """Every round and the signed result verify (an unfinished match is not verified)."""
        return (
            self.result_error is None
            and self.caught_up_error is None
            and self.finished
            and all(r.ok for r in self.rounds)
        )

    @property
    def whole(self) -> bool:
        """Whether the file holds the whole match: no round this seat did not see."""
        return not self.unseen

    @property
    def not_fair_checked(self) -> int:
        """Rounds dealt with no person's seed in the joint seed."""
        return sum(1 for r in self.rounds if r.ok and not r.fair_checked)

    @property
    def failures(self) -> tuple[FairnessError, ...]:
        found = [r.error for r in self.rounds if r.error is not None]
        if self.caught_up_error is not None:
            found.append(self.caught_up_error)
        if self.result_error is not None:
            found.append(self.result_error)
        return tuple(found)

    def lines(self) -> list[str]:
        out = [r.text() for r in self.rounds]
        if self.caught_up_error is not None:
            name = type(self.caught_up_error).__name__
            out.append(f"caught up: FAILED: {name}: {self.caught_up_error}")
        if self.unseen:
            out.append(self.unseen)
        if self.result_error is not None:
            out.append(f"match result: FAILED: {check_line(self.result_error)}")
        else:
            out.append(f"match result: {self.result_note}")
        return out


def verify_transcript(transcript: Transcript) -> MatchVerdict:
    """Verify every round of ``transcript`` and its match result."""
    if transcript.blind:
        raise ValueError("a blind transcript: use scopa_net.fair.blind.verifier.verify_any")
    return _Verifier(transcript).run()


class RoundByRoundVerifier:
    """A match's rounds checked one at a time as they end, each once: what a seat's witness
    does at every round's end. The verdict of the n-th round added is the one
    :func:`verify_transcript` gives it in a transcript of those n rounds, and it costs the
    same at round 1 as at round 10 (the match state is carried on, not replayed again)."""

    blind = False
    """Whether the rounds are a blind table's (the blind verifier's subclass says so)."""

    def __init__(self, rules: RuleSet, host_key: bytes, seat: int) -> None:
        empty = Transcript(
            rules, host_key, seat, (), MatchResult((0,) * rules.side_count, None), blind=self.blind
        )
        self._verifier = self.checker(empty)
        self.checked = 0
        """Rounds checked so far."""
        self.from_a_snapshot = False
        """Whether the match before its first round is what a snapshot told
        (:meth:`carried_on`), not rounds this verifier checked."""

    @classmethod
    def carried_on(
        cls,
        rules: RuleSet,
        host_key: bytes,
        seat: int,
        *,
        round_no: int,
        prev: bytes,
        dealer: int,
        scores: Sequence[int],
    ) -> Self:
        """A verifier that starts in the middle of a match: its first round is ``round_no``,
        linked to ``prev``, dealt by ``dealer``, with the match points ``scores`` before it
        (what a snapshot told a seat caught up by it). From there on it checks as any."""
        v = cls(rules, host_key, seat)
        v.from_a_snapshot = True
        v.checked = round_no - 1
        v._verifier.prev = prev
        match = Match(rules, dealer)
        match.scores = list(scores)
        match.winner = match_winner(rules, match.scores)
        v._verifier.match = match
        return v

    @staticmethod
    def checker(transcript: Transcript) -> _Verifier:
        return _Verifier(transcript)

    @property
    def next_dealer(self) -> int | None:
        """The seat that deals the next round, as the rounds checked so far give it (5.6):
        None before the match's first deal, or once a round failed (the match state is then
        unknown)."""
        v = self._verifier
        return v.match.dealer if v.match is not None and v.replaying else None

    @property
    def match_result(self) -> tuple[tuple[int, ...], int | None] | None:
        """The match points by side and the winner (None: nobody yet) that the rounds checked
        so far give; None once a round failed (the match state is then unknown)."""
        v = self._verifier
        if not v.replaying:
            return None
        if v.match is None:
            return (0,) * v.rules.side_count, None
        return tuple(v.match.scores), v.match.winner

    def add(self, record: RoundRecord) -> RoundVerdict:
        """Check the round that follows those added before."""
        self.checked += 1
        return self._verifier.verify_round(record, self.checked)


def _rounds_named(first: int, last: int) -> str:
    """``round 3``, ``rounds 3 to 5``, or nothing when ``last`` is before ``first``."""
    if last < first:
        return ""
    return f"round {first}" if first == last else f"rounds {first} to {last}"


def check_seated(rec: RoundRecord) -> None:
    """5.4 and 6.2 step 3: no commitment relayed for a seat that ``rec.seated`` says no
    person's client held (a computer player's, or a person's nobody's client held since the
    round began): the host would have chosen that seed. Nothing to check without ``seated``."""
    if rec.seated is None or rec.commits is None:
        return
    for seat, (kind, commit) in enumerate(zip(rec.seated, rec.commits, strict=True)):
        if commit is None:
            continue
        if kind == SEATED_COMPUTER:
            raise ComputerSeedError(
                f"round {rec.round_no}: the host relayed a seed commitment for seat {seat}, "
                "a computer player's seat; only people's seats send seeds"
            )
        if kind == SEATED_ABSENT:
            raise AbsentSeatSeedError(
                f"round {rec.round_no}: the host relayed a seed commitment for seat {seat}, "
                "though no player's client has held that seat since the round began; only a "
                "person's own client sends their seed"
            )


class _Verifier:
    def __init__(self, transcript: Transcript) -> None:
        self.t = transcript
        self.rules = transcript.rules
        self.rules_digest = rules_hash(transcript.rules)
        self.match: Match | None = None
        self.replaying = True
        self.stopped_at: int | None = None
        self.seen_ids: set[bytes] = set()
        self.prev = ZERO_CHAIN
        self.mid_way: int | None = None
        """The round a blind file begins at, after round 1 (see :meth:`begin_mid_way`)."""
        self.dealer_as_recorded = False
        """A blind file's round followed mid-way, whose dealer is the one it records (the
        host's word): the match is taken up there, on :attr:`scores_before`
        (:meth:`take_up`, :meth:`begin_mid_way`)."""
        self.scores_before: Sequence[int] = (0,) * self.rules.side_count

    def run(self) -> MatchVerdict:
        takes = self.t.caught_ups
        if not self.t.rounds and not takes:
            return MatchVerdict(
                (), EmptyTranscriptError("the transcript holds no rounds: nothing to verify"), ""
            )
        verdicts = []
        expected_no = 1
        self.caught_up_error: FairnessError | None = None
        self.unseen = ""
        unseen: list[str] = []
        taken = 0  # the catch-ups whose rounds followed since began (6.2, one per entry)
        if not takes and self.t.blind and self.t.rounds[0].round_no > 1:
            expected_no = self.begin_mid_way(self.t.rounds[0])
            unseen.append(self.unseen)
        for record in self.t.rounds:
            while taken < len(takes) and record.round_no > takes[taken].round_no:
                self.check_caught_up(takes[taken])
                expected_no = self.take_up(takes[taken], record)
                unseen.append(self.unseen)
                taken += 1
            verdicts.append(self.verify_round(record, expected_no))
            expected_no += 1
        told = takes[-1] if takes else None
        self.untied = taken < len(takes) and not self.holds_told_round(told)
        if taken < len(takes):
            self.check_caught_up(takes[taken])
            held = [r.round_no for r in self.t.rounds]
            unseen.append(self.unseen_words(takes[-1], None, held[-1] if held else 0))
        self.unseen = "\n".join(unseen)
        signed = self.t.result.sig is not None
        try:
            note = self.result()
            error = None
        except FairnessError as exc:
            note, error = "", exc
        return MatchVerdict(tuple(verdicts), error, note, signed, self.caught_up_error, self.unseen)

    def begin_mid_way(self, first: RoundRecord) -> int:
        """A blind file that begins after round 1: its seat was caught up by snapshot
        mid-match, and a blind file records nothing of what the snapshot told (9.8). The chain
        starts mid-way: the first round's link goes to a round the file does not hold (not
        checked; it proves nothing either way), and every round after it must link to the one
        before, as ever. Its dealer is the host's word; the points before it are not known, so
        the match's total and end are not checked. Returns its number, the one due."""
        self.mid_way = n = first.round_no
        self.dealer_as_recorded = True
        self.prev = first.prev
        missed = _rounds_named(1, n - 1)
        them = "it" if n == 2 else "them"
        self.unseen = (
            f"not checked: {missed}: this seat did not see {them} (caught up by snapshot "
            f"mid-match; a blind file does not record what the snapshot told), so this file's "
            f"chain starts mid-way: round {n} links to a round the file does not hold, which "
            f"is not a sign the file was changed; round {n} on is checked, dealt by the seat "
            "the host says, each round's points but not the match's total"
        )
        return n

    def holds_told_round(self, told: CaughtUp | None) -> bool:
        """Whether the last round this file holds from the match's start is the round the
        snapshot stands at (so the chain and the match go on from it)."""
        if told is None:
            return True
        followed = [r.round_no for r in self.t.rounds if r.round_no <= told.round_no]
        return bool(followed) and followed[-1] == told.round_no

    def check_caught_up(self, told: CaughtUp) -> None:
        """A seat caught up by a snapshot that stands at the last round this file holds from
        the match's start: the snapshot's points and next dealer are those that round's replay
        gives (5.10), or the file itself holds the contradiction (*score mismatch*)."""
        followed = [r for r in self.t.rounds if r.round_no <= told.round_no]
        if not followed or followed[-1].round_no != told.round_no:
            return
        if not self.replaying or self.match is None:
            return
        scores, dealer = tuple(self.match.scores), self.match.dealer
        if scores != told.scores or dealer != told.dealer:
            self.caught_up_error = ScoreMismatchError(
                f"the snapshot this seat was caught up with gives, after round {told.round_no}, "
                f"scores {list(told.scores)} and seat {told.dealer} the next deal; the rounds in "
                f"this file, which the seat checked, give scores {list(scores)} and seat "
                f"{dealer} the next deal"
            )

    def take_up(self, told: CaughtUp, first: RoundRecord) -> int:
        """The first round the seat followed after its catch-up: linked to what came (the
        chain before it never reached this seat), replayed on the match as the snapshot told
        it, dealt by the snapshot's dealer (or, none told, by whichever seat its hand fits:
        the host's word). Returns its number, the one due."""
        followed = [r.round_no for r in self.t.rounds if r.round_no <= told.round_no]
        last = followed[-1] if followed else 0
        self.unseen = self.unseen_words(told, first.round_no, last)
        if told.round_no == 0 and first.round_no == 1:
            return 1  # (nothing dealt before it: checked as from the match's start)
        if last != told.round_no or first.round_no != last + 1:
            self.prev = first.prev  # (else linked to the round before, which the seat held)
        self.replaying, self.stopped_at = True, None
        dealer = told.dealer if told.dealer is not None else self.dealer_of(first)
        self.match = None if dealer is None else self.match_on(told.scores, dealer)
        self.scores_before, self.dealer_as_recorded = told.scores, dealer is None
        return first.round_no

    def match_on(self, scores: Sequence[int], dealer: int) -> Match:
        """The match as it stands before the next round: these points, this dealer."""
        match = Match(self.rules, dealer)
        match.scores = list(scores)
        match.winner = match_winner(self.rules, match.scores)
        return match

    def dealer_of(self, r: RoundRecord) -> int | None:
        """The dealer whose deal plan gives this seat the hand ``r`` records (the seat took
        it from its first deal, the host's word); seat 0 if none does (the routing check then
        says so). (A blind round records its dealer: None, read where the round is.)"""
        got = [c.pos for c in r.hand]
        for first_only in (False, True):
            for dealer in range(self.rules.players):
                plan = seat_positions(self.rules, dealer, self.t.seat, first_deal_only=first_only)
                if plan == got:
                    return dealer
        return 0

    UNTOLD_DEALER = "its dealer the one its cards fit"
    """How the line of :meth:`unseen_words` names the dealer of the first round followed
    since a snapshot that named none."""

    def unseen_words(self, told: CaughtUp, first: int | None, last: int) -> str:
        """The line that says which rounds a caught-up seat's file could not check: those
        after ``last`` (the last it holds from the match's start) and before ``first`` (the
        first it followed since the snapshot; None: none)."""
        missed_to = told.round_no if first is None else first - 1
        missed = _rounds_named(last + 1, missed_to)
        after = f"caught up by snapshot after round {told.round_no}"
        since_start = last == 0 and told.round_no > 0  # no round of its own from the start
        if since_start:
            # A newcomer, most often; or a seat that finished no round before it came back
            # (the file cannot tell them apart, 6.1).
            after = (
                f"it sat down in round {told.round_no}, or came back then having finished no "
                "round: the host's snapshot told it the match"
            )
        if first is None:
            what = f"{missed} and any after" if missed else f"rounds after {told.round_no}"
            if since_start:
                return f"not checked: {what}: {after}, and it followed no round since"
            return f"not checked: {what}: this seat was {after} and followed no round since"
        dealer = self.UNTOLD_DEALER if told.dealer is None else (f"seat {told.dealer} dealing")
        on = (
            f"round {first} on is replayed on the match as the snapshot told it (scores "
            f"{list(told.scores)}, {dealer})"
        )
        if not missed:
            return f"{after}, which this file holds: {on}"
        them = "it" if missed.startswith("round ") else "them"
        return (
            f"not checked: {missed}: this seat did not see {them} ({after}); {on}: the host's "
            "word, not checked here"
        )

    def verify_round(self, record: RoundRecord, expected_no: int) -> RoundVerdict:
        """Check the next round (the ``expected_no``-th) after those checked before it."""
        self.fair_checked = True
        try:
            note = self.round(record, expected_no)
            verdict = RoundVerdict(record.round_no, None, note, self.fair_checked)
        except FairnessError as exc:
            verdict = RoundVerdict(record.round_no, exc, "")
            if self.replaying:
                self.replaying = False
                self.stopped_at = record.round_no
        self.prev = record.chain_hash()
        return verdict

    # --- one round ------------------------------------------------------------------------

    def check_link(self, r: RoundRecord, expected_no: int) -> None:
        """6.2.1 (and 9.9 step 1): the round number due, linked to the round before, with a
        round id not used before in the match."""
        if r.round_no != expected_no:
            raise BrokenChainError(f"round number {r.round_no} where {expected_no} was due")
        if not same_bytes(r.prev, self.prev):
            raise BrokenChainError(
                f"prev {r.prev.hex()} is not the chain hash of the round before ({self.prev.hex()})"
            )
        if r.round_id in self.seen_ids:
            raise ReplayedRoundError(f"round id {r.round_id.hex()} was already used")
        self.seen_ids.add(r.round_id)

    def round(self, r: RoundRecord, expected_no: int) -> str:
        rules = self.rules
        self.check_link(r, expected_no)
        check_signature(
            self.t.host_key,
            r.sig,
            commit_message(r.round_id, r.round_no, r.prev, r.digest, self.rules_digest),
            f"round {r.round_no}'s commitment",
        )
        if not same_bytes(deck_digest(r.round_id, r.card_hashes), r.digest):
            raise DigestMismatchError(
                f"the 40 card hashes do not hash to the committed digest {r.digest.hex()}"
            )
        if r.void is not None and r.void.reason != VOID_KINGS:
            raise VoidMismatchError(
                f"the round is void for {r.void.reason!r}; once seeds are out the only void "
                "is three or more kings on the opening table"
            )
        check_seated(r)
        if r.commits is None or r.seeds is None or r.excluded is None:
            raise NotRevealedError("the seats' seeds were never relayed for this round")
        if not len(r.commits) == len(r.seeds) == len(r.excluded) == rules.players:
            raise BrokenChainError(
                f"seed lists of the wrong length at a {rules.players}-player table"
            )
        counted = counted_seats(r.round_id, r.commits, r.seeds, r.excluded)
        self.check_receipt(r)
        self.fair_checked = bool(counted)
        joint = joint_seed(r.round_id, r.digest, [r.seeds[s] for s in counted])
        arrival = ArrivalCheck(r.round_id, r.card_hashes, joint)
        seen = [*r.hand, *r.table, *(self.played_card(n, p) for n, p in enumerate(r.plays, 1))]
        if r.host_seed is None:
            for c in seen:
                arrival.check(c.pos, c.card, c.salt)
            raise NotRevealedError(
                f"the host has not revealed its seed; the {len(seen)} cards seen so far match "
                "their commitments"
            )
        host = self.host_deck(r)
        for c in seen:
            self.check_card(host, arrival.perm, c)
        deck = host.deck(arrival.perm)
        if self.replaying:
            note = self.replay(r, deck, joint)
        else:
            note = (
                "commitments and cards verified; play not replayed "
                f"(round {self.stopped_at} failed)"
            )
        self.check_reveal(r)
        if not counted:
            return f"not fair-checked: no player seed (the host alone chose the deck); {note}"
        left_out = [
            f"seat {s} {LEFT_OUT_WORDS.get(x, x)}"
            for s, x in enumerate(r.excluded)
            if x is not None
        ]
        if left_out:
            note += f"; seeds left out: {', '.join(left_out)}"
        return note

    def check_receipt(self, r: RoundRecord) -> None:
        """This seat's receipt, if it holds one: signed by the host, and consistent with what
        the record says became of the seed."""
        receipt = r.receipt
        if receipt is None:
            return
        seat = self.t.seat
        check_signature(
            self.t.host_key,
            receipt.sig,
            receipt_message(r.round_id, seat, receipt.seed_hash),
            f"round {r.round_no}'s seed receipt",
        )
        assert r.commits is not None and r.seeds is not None and r.excluded is not None
        commit, seed, reason = r.commits[seat], r.seeds[seat], r.excluded[seat]
        if commit is None:
            raise BadReceiptError("a receipt for a seed whose commitment was never relayed")
        if same_bytes(receipt.seed_hash, commit):
            if reason is not None:
                raise HostLiedError(
                    f"the host signed a receipt for this seat's seed, which opens its "
                    f"commitment, then left it out of the joint seed ({reason})"
                )
            return
        published = None if seed is None else seat_commitment(r.round_id, seat, seed)
        if (
            reason != "bad_reveal"
            or published is None
            or not same_bytes(published, receipt.seed_hash)
        ):
            raise HostLiedError(
                "the host's receipt names a seed other than the one the record publishes "
                "for this seat"
            )

    @staticmethod
    def played_card(n: int, p: PlayEntry) -> DealtCard:
        card = p.code & CARD_FIELD
        if card >= len(CARDS):
            raise IllegalPlayRecordedError(f"play {n}: code {p.code} names no card")
        return DealtCard(p.pos, card, p.salt)

    def host_deck(self, r: RoundRecord) -> HostDeck:
        assert r.host_seed is not None
        host = HostDeck.derive(r.host_seed, r.round_id)
        for place, (ours, theirs) in enumerate(zip(host.card_hashes, r.card_hashes, strict=True)):
            if not same_bytes(ours, theirs):
                raise HostSeedMismatchError(
                    f"the revealed host seed {r.host_seed.hex()} gives card hash {place} = "
                    f"{ours.hex()}, but {theirs.hex()} was committed"
                )
        return host

    @staticmethod
    def check_card(host: HostDeck, perm: Sequence[int], c: DealtCard) -> None:
        card, salt = host.dealt(perm, c.pos)
        if c.card != card:
            raise SwappedCardError(
                f"deck position {c.pos} holds {CARDS[card]} (index {card}), but "
                f"{CARDS[c.card]} (index {c.card}) arrived"
            )
        if not same_bytes(c.salt, salt):
            raise WrongSaltError(
                f"deck position {c.pos} ({CARDS[card]}) arrived with salt {c.salt.hex()}, "
                f"committed salt is {salt.hex()}"
            )

    def check_reveal(self, r: RoundRecord) -> None:
        if r.host_seed is None or r.reveal_sig is None:
            raise NotRevealedError("the host has not revealed its seed for this round")
        check_signature(
            self.t.host_key,
            r.reveal_sig,
            reveal_message(r.round_id, r.host_seed, r.chain_hash()),
            f"round {r.round_no}'s reveal",
        )

    # --- the engine replay ----------------------------------------------------------------

    def replay(self, r: RoundRecord, deck: Sequence[int], joint: bytes) -> str:
        rules = self.rules
        if self.match is None:
            self.match = Match(rules, first_dealer(joint, r.round_id, rules.players))
        match = self.match
        if not match.needs_deal:
            raise IncompleteRoundError("a round was dealt after the match was over")
        rnd = match.deal([CARDS[i] for i in deck])
        self.check_routing(r, rnd.dealer, first_deal_only=rnd.void)
        if rnd.void:
            if r.void is None or r.void.reason != VOID_KINGS or r.plays or r.score is not None:
                raise VoidMismatchError(
                    "the opening table holds three or more kings, so the deal is void, but the "
                    "round is not recorded as a void deal with no plays"
                )
            return f"void deal (kings on the table), dealer seat {rnd.dealer}; verified"
        if r.void is not None:
            raise VoidMismatchError(
                f"the round is recorded void ({r.void.reason!r}) but the deal was good"
            )
        for n, p in enumerate(r.plays, 1):
            if rnd.finished:
                raise IncompleteRoundError(f"play {n} comes after the round was over")
            try:
                match.play(Play.from_code(p.code), p.seat, exact=True)
            except IllegalPlayError as exc:
                why = f"illegal play: {exc.text!r}: {exc.reason.of_seat(p.seat)}"
                raise IllegalPlayRecordedError(f"play {n} by seat {p.seat}: {why}") from None
            except AmbiguousPlayError as exc:
                raise IllegalPlayRecordedError(f"play {n} by seat {p.seat}: {exc}") from None
        if not rnd.finished:
            raise IncompleteRoundError(
                f"the round was revealed after {len(r.plays)} plays, with {rnd.plays_left} "
                "still to play"
            )
        totals = match.results[-1].totals
        if r.score is None or tuple(r.score) != totals:
            raise ScoreMismatchError(
                f"the recorded round score {r.score} is not what the plays give: {totals}"
            )
        score = "-".join(map(str, totals))
        return f"verified (dealer seat {rnd.dealer}, {len(r.plays)} plays, round score {score})"

    def check_routing(self, r: RoundRecord, dealer: int, *, first_deal_only: bool) -> None:
        checks = (
            ("your hand", self.t.seat, r.hand),
            ("the table", TABLE, r.table),
        )
        for what, target, cards in checks:
            want = seat_positions(self.rules, dealer, target, first_deal_only=first_deal_only)
            got = [c.pos for c in cards]
            if got != want:
                raise MisroutedCardError(
                    f"{what} received deck positions {got}; the deal plan with dealer seat "
                    f"{dealer} gives it {want}"
                )

    # --- the end --------------------------------------------------------------------------

    def check_end_signature(self) -> None:
        claimed = self.t.result
        assert claimed.sig is not None
        check_signature(
            self.t.host_key,
            claimed.sig,
            end_message(self.prev, claimed.scores, claimed.winner),
            "the match end",
        )

    def result_as_told(self, told: CaughtUp) -> str:
        """The match end of a seat caught up by a snapshot that followed no round since, and
        whose rounds stop before the one the snapshot stands at: its signature cannot be tied
        to a round this file holds (5.10), and its scores and winner are checked against the
        points the snapshot told, carried on (*score mismatch*)."""
        scores, winner = told.scores, match_winner(self.rules, told.scores)
        if self.t.result.sig is None:
            return self.unsigned_result(scores, "the points the snapshot told")
        return self.signed_result(scores, winner, "what the points the snapshot told give")

    def unsigned_result(self, scores: tuple[int, ...], are_not: str) -> str:
        """A result without a signed match end: it names no winner, and its scores are
        ``scores`` (*unfinished match*, *score mismatch*, said as not ``are_not``)."""
        claimed = self.t.result
        if claimed.winner is not None:
            raise UnfinishedMatchError(
                f"the result names side {claimed.winner} the winner, but carries no signed "
                "match end"
            )
        if tuple(claimed.scores) != scores:
            raise ScoreMismatchError(
                f"the scores so far {claimed.scores} are not {are_not}: {scores}"
            )
        return f"UNFINISHED: no signed match end; scores so far {scores}"

    def signed_result(self, scores: tuple[int, ...], winner: int | None, is_not: str) -> str:
        """A signed result's scores and winner are ``scores`` and ``winner`` (*score
        mismatch*, said as not ``is_not``)."""
        claimed = self.t.result
        if tuple(claimed.scores) != scores or claimed.winner != winner:
            raise ScoreMismatchError(
                f"the recorded match result (scores {claimed.scores}, winner {claimed.winner}) "
                f"is not {is_not} (scores {scores}, winner {winner})"
            )
        if winner is None:
            return f"verified: scores {scores}, match not finished"
        return f"verified: scores {scores}, side {winner} wins"

    def result(self) -> str:
        told = self.t.caught_ups[-1] if self.t.caught_ups else None
        if self.mid_way is not None:
            if self.t.result.sig is not None:
                self.check_end_signature()
            return (
                f"not checked: the points before round {self.mid_way}, which this file does "
                "not hold, are not known here"
            )
        if told is not None and getattr(self, "untied", False):
            return self.result_as_told(told)
        if not self.replaying:
            if self.t.result.sig is not None:
                self.check_end_signature()
            return f"not checked (round {self.stopped_at} failed)"
        match = self.match
        scores = tuple(match.scores) if match is not None else (0,) * self.rules.side_count
        winner = match.winner if match is not None else None
        if self.t.result.sig is None:
            return self.unsigned_result(scores, "what the plays give")
        self.check_end_signature()
        return self.signed_result(scores, winner, "what the plays give")
