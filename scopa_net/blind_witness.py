"""One seat at a blind table (protocol.md section 9): its party, its checks, its transcript.

The blind counterpart of :class:`~scopa_net.witness.DealWitness`, sans-IO. A client feeds
:meth:`BlindWitness.observe` every table event its seat receives, in order; the witness runs the
seat's :class:`~scopa_net.fair.blind.party.BlindParty` for each round (its key, its shuffle, its
shares, its play proofs, its seed), checks everything the host relays as 9.6 says, and queues
what the seat must send (:meth:`take_outgoing`). A ``blind_deal`` opens the seat's own cards:
:meth:`for_mirror` turns it into the ``deal`` the seat's board is built from, so the rest of the
client is the same as at any table. At each ``round_reveal`` that round alone is checked with the
blind verifier, the match state carried on from the rounds before (as the ordinary witness does);
a failed check raises :class:`~scopa_net.fair.errors.FairnessError` naming the party.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable

from scopa_net.chain_rejoin import Rejoin, chain_kept, taken_up
from scopa_net.fair.blind import errors as checks
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.party import BlindParty
from scopa_net.fair.blind.party_secrets import PartyKey
from scopa_net.fair.blind.record import (
    VOID_ABSENT,
    BlindRound,
    blind_digest,
    blind_first_dealer,
)
from scopa_net.fair.blind.seated import check_parties, seated_by_seat
from scopa_net.fair.blind.verifier import BlindRoundByRoundVerifier
from scopa_net.fair.check_names import check_name
from scopa_net.fair.commitments import (
    ZERO_CHAIN,
    check_signature,
    commit_message,
    end_message,
    rules_hash,
)
from scopa_net.fair.errors import (
    BrokenChainError,
    ComputerPartyError,
    DealerMismatchError,
    FairnessError,
    MisroutedCardError,
    ReplayedRoundError,
    RerolledRoundError,
)
from scopa_net.fair.transcript import (
    BLIND_SEATED_FORMAT_VERSION,
    MatchResult,
    Stopped,
    Transcript,
)
from scopa_net.fair.verifier import RoundVerdict
from scopa_net.match_so_far import AS_THE_SNAPSHOT_GIVES, MatchSoFar
from scopa_net.plays import play_code
from scopa_net.rules import RuleSet
from scopa_net.transcript_shape import TranscriptShape, result_as_told
from scopa_net.wire import messages as m
from scopa_net.witness import (
    TOLD_BEFORE_A_JOURNAL_PUT_BACK,
    check_match_end_caught_up,
    revealed,
)

NO_SALT = bytes(16)
"""The salt a blind table's cards show on the seat's board (there is none: 9)."""


def party_key(info: m.KeyInfo) -> PartyKey:
    return PartyKey(info.point, info.proof, info.sign_key)


@dataclasses.dataclass
class _Round:
    round_id: bytes
    round_no: int
    prev: bytes
    sig: bytes
    people: tuple[int, ...]
    host: PartyKey
    """The host party's key, as the round's commitment carries it."""
    party: BlindParty | None
    """None when this seat is not a party this round (a computer played it for the host)."""
    score: tuple[int, ...] | None = None
    over: bool = False
    relayed_decks: int = 0
    """Decks the host relayed (``blind_deck``): this party's own is in its record as soon as
    it is made, but a round void before the host relayed it has it in nobody else's."""
    seated: tuple[str, ...] | None = None
    """Who held each seat as this seat's client knew it at ``blind_round`` (9.8 ``seated``)."""

    def public(self, party: BlindParty, **kw: object) -> BlindRound:
        """The round's public record, as the host relayed it."""
        r = party.public_round(
            round_no=self.round_no,
            prev=self.prev,
            sig=self.sig,
            **kw,  # type: ignore[arg-type]
        )
        n = self.relayed_decks
        proofs = None if r.deck_proofs is None else r.deck_proofs[:n]
        return dataclasses.replace(
            r,
            decks=r.decks[:n],
            deck_proofs=proofs,
            deck_sigs=r.deck_sigs[:n],
            seated=self.seated,
        )


def refused_round(e: m.BlindRound, host: PartyKey, seated: tuple[str, ...]) -> BlindRound:
    """The record of a ``blind_round`` this seat refused on arrival (its people name a seat a
    computer holds): what the host signed and what the seat knew, nothing after it, so that
    the evidence shows it to ``scopa-net verify`` (9.9 step 1)."""
    return BlindRound(
        round_id=e.round_id,
        round_no=e.round_no,
        prev=e.prev,
        dealer=None,
        people=e.people,
        keys=(host,),
        sig=e.sig,
        decks=(),
        deck_proofs=(),
        deck_sigs=(),
        deals=(),
        hand=(),
        table=(),
        plays=(),
        void=None,
        score=None,
        seeds=None,
        reveal_sig=None,
        seated=seated,
    )


@dataclasses.dataclass(frozen=True)
class ToldRound:
    """A round this seat saw opened: its id, whether cards of it were dealt, and its record
    as far as the seat saw it (None for a round revealed, whose record is kept already)."""

    round_id: bytes
    dealt: bool
    unfinished: _Round | None


class BlindWitness:
    """What one seat saw of every blind round, checked as it arrived."""

    def __init__(
        self,
        rules: RuleSet,
        host_key: bytes,
        seat: int,
        *,
        new_seed: Callable[[], bytes],
        mid_match: bool = False,
        seed_for: Callable[[bytes], bytes | None] | None = None,
    ) -> None:
        """``new_seed()``: a fresh 32-byte party seed (the client's own randomness).
        ``seed_for(round_id)``: a seed kept on disk for that round (a client taking its seat
        back continues the round with the same party secrets), or None for a fresh one."""
        self.rules = rules
        self.host_key = host_key
        self.seat = seat
        self.mid_match = mid_match
        self.caught_up = False
        """Caught up by a snapshot (:meth:`resynced`): the seat's own, not taken mid-match."""
        self.seed_for = seed_for
        self.new_seed = new_seed
        self._rules_digest = rules_hash(rules)
        self.rounds: list[BlindRound] = []
        self.current: _Round | None = None
        self._seen_ids: set[bytes] = set()
        self._highest_opened = 0
        """The highest round number opened in this seat's sight: kept through a catch-up by
        snapshot, so that a round opened again behind one is still seen as a re-roll."""
        self._chain: bytes | None = None if mid_match else ZERO_CHAIN
        self._verifier = None if mid_match else BlindRoundByRoundVerifier(rules, host_key, seat)
        """Checks each round once at its reveal; None once the seat cannot follow the match
        from its start (taken mid-match, caught up by a snapshot, or a round it sat out)."""
        self._outgoing: list[m.Message] = []
        self._notices: list[str] = []
        self.owed: m.Message | None = None
        """The last message this seat sent for the stage under way: sent again after a
        reconnection (the host refuses a repeat quietly)."""
        self.result = MatchResult((0,) * rules.side_count, None)
        self.verdicts: list[RoundVerdict] = []
        self.people: tuple[int, ...] = ()
        """The seats people play in the round under way (or the last): parties 1.."""
        self.on_seed: Callable[[bytes, bytes], None] | None = None
        """Called with (round_id, seed) when a round's seed is chosen, to keep it on disk."""
        self.stopped = False
        """A check failed (:meth:`stop`): only the round's void and reveal are read now."""
        self.named: FairnessError | None = None
        """After :meth:`stop`: what the round's reveal found, naming the party at fault."""
        self._stopped_in: _Round | None = None
        """The round under way when :meth:`stop` was called: the evidence holds it and names
        it even after its reveal was read (or failed to verify)."""
        self.computer_seats: frozenset[int] = frozenset()
        """The seats no person holds as the next round opens (a computer player's, an open
        seat, as ``seat_status`` says): never a party (9.5.1)."""
        self.told_before: dict[int, ToldRound] = {}
        """Rounds this seat saw opened before the host put its events back to an older copy
        (``stale``, protocol.md 3.3), or before its client was started afresh (a seat taken
        back from disk), by number: one of them dealt is never opened anew."""
        self.told_since = TOLD_BEFORE_A_JOURNAL_PUT_BACK
        """What came between the rounds of :attr:`told_before` and now, in the words of a
        re-rolled round (``TOLD_BEFORE_A_FRESH_CLIENT`` for a seat taken back from disk)."""
        self._cut_short: _Round | None = None
        """The round under way when a snapshot caught this seat up, as far as it saw it."""
        self._so_far: MatchSoFar | None = None
        """After a catch-up by snapshot, until a round is revealed that the checks can start
        from: the match as the snapshot told it (the host's word), checked against the rounds
        that follow (:meth:`resynced`)."""
        self._refused: BlindRound | None = None
        """A ``blind_round`` refused on arrival (it names a computer's seat a party, or does
        not link to the chain this seat took up again): the evidence ends with it."""
        self._rejoin: Rejoin | None = None
        """After a catch-up by a snapshot that stands at the last round this seat saw
        revealed (or at no round dealt), until the next ``blind_round``: the chain hash that
        round must link to, and the match as this seat checked it (:meth:`_rejoined`)."""
        self.shape = TranscriptShape.of(mid_match=mid_match)
        """Which of :attr:`rounds` the transcript holds, and what it says of a catch-up by
        snapshot (``caught_up``, protocol.md 9.8 version 8)."""

    # --- what the client reads --------------------------------------------------------

    @property
    def party(self) -> BlindParty | None:
        return None if self.current is None else self.current.party

    def take_outgoing(self) -> list[m.Message]:
        out, self._outgoing = self._outgoing, []
        return out

    def take_notices(self) -> list[str]:
        out, self._notices = self._notices, []
        return out

    def seed_in_play(self) -> tuple[bytes, bytes] | None:
        if self.current is None or self.current.party is None or self.current.party.observer:
            return None
        return self.current.round_id, self.current.party.secrets.seed

    def gone_at_reveal(self, e: m.BlindReveals) -> tuple[tuple[int, ...], str | None, int | None]:
        """The other people whose seed ``e`` (the round under way's ``blind_reveals``) leaves
        out, by seat in party order, leaving out this seat and the seat an ``absent`` void
        names (the void said so already): each was gone at the reveal (9.7). With the round's
        void reason and offender (None, None: played out)."""
        cur = self.current
        if cur is None or cur.party is None or e.round_id != cur.round_id:
            return (), None, None
        v = cur.party.void_notice
        named = v.offender if v is not None and v.reason == VOID_ABSENT else None
        gone = tuple(
            cur.people[p - 1]
            for p, seed in enumerate(e.seeds)
            if seed is None
            and 1 <= p <= len(cur.people)
            and cur.people[p - 1] not in (self.seat, named)
        )
        return gone, None if v is None else v.reason, None if v is None else v.offender

    def play_proof(self, card: int) -> tuple[int, bytes]:
        """The deck position of ``card`` in this seat's hand and the proof for playing it."""
        party = self.party
        if party is None:
            raise FairnessError("no blind round is in play at this seat")
        played = {p.pos for p in party.plays}
        for pos, held in party.owned.items():
            if held == card and pos not in played:
                return pos, party.prove_play(pos, card)
        raise FairnessError(f"card {card} is not in this seat's hand")

    def resynced(
        self, snapshot: m.Snapshot | None = None, *, so_far: MatchSoFar | None = None
    ) -> None:
        """Caught up by a snapshot: the round under way cannot be followed any more (its
        record is kept aside, as the evidence should the host open that round again). What
        ``snapshot`` tells of the match (9.7: the last round dealt, the points, the dealer)
        is carried on, and every round followed from here is checked against it: a round
        number above the last dealt, the dealer of the next round, its play and score
        replayed on the points so far, the chain from its reveal on, and the match's end.
        ``so_far``: that match already carried on from the snapshot (by the ordinary
        table's witness the client held before it read a ``blind_round``). A snapshot that
        stands at the last round this seat saw revealed must give the points and dealer it
        replayed (:meth:`MatchSoFar.check_against`; raised before anything is forgotten),
        and the next round, if numbered next, must link to this seat's own chain hash of it
        (:meth:`_rejoined`)."""
        rejoin, self._rejoin = self._rejoin, None
        if rejoin is not None:  # caught up again before the next round opened here: as before
            self._chain, self._verifier, self.mid_match = (
                rejoin.chain,
                rejoin.verifier,
                rejoin.mid_match,
            )
            self.shape.put_back(rejoin.kept)
        if so_far is None and snapshot is not None:
            so_far = MatchSoFar.told_by(snapshot, self.rules)
        kept = self.shape.caught_up(len(self.rounds), so_far)  # (in the evidence, too)
        self.result = result_as_told(self.result, so_far, len(self.rounds))
        if so_far is not None and self.rounds:
            so_far.check_against(self._verifier, self.rounds[-1].round_no)
        self._rejoin = chain_kept(
            so_far,
            last_revealed=self.rounds[-1].round_no if self.rounds else 0,
            chain=self._chain,
            verifier=self._verifier,
            mid_match=self.mid_match,
            kept=kept,
        )
        if self.current is not None and self.current.party is not None:
            self._cut_short = self.current
        self.mid_match = True
        self.caught_up = True
        self.current = None
        self._chain = None
        self._verifier = None
        self._so_far = so_far
        if so_far is not None:
            self._highest_opened = max(self._highest_opened, so_far.last_dealt)

    @property
    def takes_chain_up(self) -> bool:
        """Whether the snapshot this seat was just caught up with stands at the last round it
        saw revealed (or at no round dealt): the next round, if numbered next, links to the
        seat's own chain and the seat follows the match as before (:meth:`_rejoined`)."""
        return self._rejoin is not None

    def _rejoined(self, e: m.BlindRound, host: PartyKey, seated: tuple[str, ...]) -> None:
        """The first ``blind_round`` after a snapshot that stands at the last round this seat
        saw revealed (or at no round dealt): numbered next, it must link to that round's chain
        hash as this seat holds it (*broken chain* if not; the round in the evidence), and the
        seat then follows the match as it did before the catch-up, the chain unbroken (its
        transcript, too, from round 1)."""
        try:
            rejoin = taken_up(self._rejoin, e.round_no, e.prev, self._notices)
        except BrokenChainError:
            self._refused = refused_round(e, host, seated)  # the round that does not link
            raise
        finally:
            self._rejoin = None
        if rejoin is None:
            return
        self._chain = rejoin.chain
        self.shape.put_back(rejoin.kept)  # the chain did not break
        if rejoin.round_no == 1 or rejoin.verifier is not None:
            self.mid_match = rejoin.mid_match
            self._verifier = rejoin.verifier or BlindRoundByRoundVerifier(
                self.rules, self.host_key, self.seat
            )
            self._so_far = None

    @property
    def replays_plays(self) -> bool:
        """Whether the rounds are replayed, plays and scores, on the match so far: from the
        match's start, or after a catch-up by snapshot from the first round revealed since
        (False for a seat taken mid-match)."""
        return self._verifier is not None

    @property
    def needs_me(self) -> bool:
        """This seat's person is a party of a round still in play: were they to go (leave or
        step away), the round would be void ``absent`` (9.7), for everyone."""
        cur = self.current
        return cur is not None and not cur.over and cur.party is not None and not cur.party.observer

    @property
    def round_no(self) -> int:
        """The round in play: the one open, else the last opened in this seat's sight (a round
        whose record a catch-up by snapshot dropped is still the one it stopped in)."""
        if self.current is not None:
            return self.current.round_no
        return max(self.rounds[-1].round_no if self.rounds else 0, self._highest_opened)

    # --- a failed check -------------------------------------------------------------------

    def stop(self, failed: m.Message | None = None) -> list[m.Message]:
        """A check failed at this seat (on the event ``failed``): it plays no more (5.10), but
        first (9.6) it gives its seed for the round under way, if the host does not have it
        yet, so that the reveal can name the party at fault. Returns what to send before
        leaving; after it, feed :meth:`observe_stopped` what arrives, while
        :attr:`awaits_reveal`."""
        self.stopped = True
        self._outgoing = []
        cur = self.current
        self._stopped_in = cur or self._stopped_in
        if cur is None or cur.party is None or cur.party.observer or cur.party.absent:
            return []
        if isinstance(failed, m.Played):
            self._record_play(failed)
        if cur.over:
            return []  # sent at the round's end already
        cur.over = True
        return [m.BlindReveal(round_id=cur.round_id, seed=cur.party.stop())]

    def _record_play(self, e: m.Played) -> None:
        party = self.party
        assert party is not None
        if e.proof is not None and all(p.pos != e.pos for p in party.plays):
            party.record_play(e.seat, e.pos, play_code(e.card, e.captured), e.proof)

    @property
    def awaits_reveal(self) -> bool:
        """Stopped in a round this seat is a party of, whose reveal has not come yet."""
        cur = self.current
        return self.stopped and cur is not None and cur.party is not None

    def observe_stopped(self, e: m.Message) -> None:
        """After :meth:`stop`: the round's ``round_void``, ``blind_reveals`` and
        ``round_reveal``, checked as the verifier does (9.9); everything else is passed over.
        What the reveal finds wrong, naming the party, goes in :attr:`named`."""
        cur = self.current
        if cur is None or cur.party is None or not self.stopped:
            return
        if not isinstance(e, m.Played) and getattr(e, "round_id", None) != cur.round_id:
            return
        party = cur.party
        try:
            if isinstance(e, m.Played):
                self._record_play(e)
            elif isinstance(e, m.BlindDeck):  # relayed before the host had the seed
                self._record_deck(cur, e)
            elif isinstance(e, m.RoundVoid):
                party.void(e.reason, e.offender)
            elif isinstance(e, m.BlindReveals):
                party.take_reveals(e.seeds)  # keeps the seeds even when it names a fault
            elif isinstance(e, m.RoundReveal):
                self._on_reveal(e)
        except FairnessError as exc:
            self.named = self.named or exc
        if isinstance(e, m.RoundReveal):
            self.current = None  # the round's record is complete: nothing more to read

    # --- events -------------------------------------------------------------------------

    def observe(self, event: m.Message) -> tuple[RoundVerdict | None, m.Deal | None]:
        """Check one event. Returns the round's verdict at ``round_reveal``, and for a
        ``blind_deal`` the ``deal`` it opened for this seat's board."""
        return self._observe(event)

    def _observe(self, e: m.Message) -> tuple[RoundVerdict | None, m.Deal | None]:
        if isinstance(e, m.BlindRound):
            self._on_round(e)
            return None, None
        if isinstance(e, m.MatchEnd):
            self._on_match_end(e)
            return None, None
        cur = self.current
        if cur is None and isinstance(e, m.RoundEnd) and self._so_far is not None:
            # (a round under way when the snapshot was taken, played out)
            self.shape.round_ended(self._so_far, e.lines, e.round_no)
            self.result = MatchResult(tuple(e.scores), None)  # (the host's last word)
        if cur is None or cur.party is None:
            if isinstance(e, m.RoundReveal) and cur is not None:
                self.current = None
                self._chain = None  # a round this seat did not take part in
                self._verifier = None
            return None, None
        party = cur.party
        if isinstance(e, m.BlindKeys):
            self._same_round(e.round_id)
            keys = tuple(party_key(k) for k in e.keys)
            party.take_keys(keys)  # refuses a host key other than the one committed
            party.start(e.dealer)  # in the record as named, even should the check fail
            self._check_dealer(cur, keys, e.dealer)
        elif isinstance(e, m.BlindDeck):
            self._same_round(e.round_id)
            self._record_deck(cur, e)
            if e.party == party.party - 1 and not party.observer:
                signed = party.my_deck()
                self._send(
                    m.BlindShuffle(
                        round_id=cur.round_id, deck=signed.deck, proof=signed.proof, sig=signed.sig
                    )
                )
        elif isinstance(e, m.BlindOpen):
            self._same_round(e.round_id)
            party.take_open(e.deal, e.shares, e.sig)  # the host's shares, before anyone's
            if party.observer:
                return None, None
            signed = party.open_deal(e.deal)
            self._send(
                m.BlindShares(
                    round_id=cur.round_id, deal=e.deal, shares=signed.shares, sig=signed.sig
                )
            )
        elif isinstance(e, m.BlindDeal):
            self._same_round(e.round_id)
            opened = party.take_deal(e.deal, e.shares, e.sigs)
            # An observer opens only the table: the seat's cards this round are the host's.
            hand = tuple(m.DealtCard(pos=c.pos, card=c.card, salt=NO_SALT) for c in opened.hand)
            table = tuple(m.DealtCard(pos=c.pos, card=c.card, salt=NO_SALT) for c in opened.table)
            return None, m.Deal(seq=e.seq, hand=hand, table=table, stock=e.stock)
        elif isinstance(e, m.Played):
            if e.proof is None:
                raise BlindCheckError("bad play proof", "a play at a blind table without a proof")
            if e.seat == self.seat:
                # Our own play, perhaps chosen by a client before this one (a seat taken back
                # from disk): the proof is deterministic, so make it here to compare.
                with contextlib.suppress(BlindCheckError):
                    party.prove_play(e.pos, e.card)
            party.take_play(e.seat, e.pos, play_code(e.card, e.captured), e.proof)
        elif isinstance(e, m.RoundVoid):
            self._same_round(e.round_id)
            party.void(e.reason, e.offender)
            self._round_over()
        elif isinstance(e, m.RoundEnd):
            if e.round_no != cur.round_no:
                raise BrokenChainError(
                    f"the score sheet is for round {e.round_no}, but {cur.round_no} is in play"
                )
            cur.score = tuple(
                sum(line.points[side] for line in e.lines) for side in range(len(e.scores))
            )
            self.result = MatchResult(tuple(e.scores), None)
            self._round_over()
        elif isinstance(e, m.BlindReveals):
            self._same_round(e.round_id)
            party.take_reveals(e.seeds)
            if not party.observer and party.seed_left_out and not party.absent:
                # The host counts this person absent at the reveal (9.7): an absent void naming
                # another seat, or any other round's end.
                v = party.void_notice
                if v is not None and v.reason == VOID_ABSENT:
                    what, then = "the void round's reveal", "counted absent too"
                else:
                    what, then = "the round's reveal", "counted absent at its reveal"
                if v is None:
                    then += ", and the round's score stands (every card was played in the open)"
                else:
                    then += ", and your cards stay secret"
                self._notices.append(
                    f"round {cur.round_no}: your seed is not in {what} (it came too late, or "
                    f"you were away past your grace period): you are {then}"
                )
        elif isinstance(e, m.RoundReveal):
            self._same_round(e.round_id)
            return self._on_reveal(e), None
        return None, None

    @staticmethod
    def _record_deck(cur: _Round, e: m.BlindDeck) -> None:
        """A party's deck, checked, in the round's record (one whose shuffle proof fails is in
        it all the same: the record proves that party's fault)."""
        assert cur.party is not None
        try:
            cur.party.take_deck(e.party, e.deck, e.proof, e.sig)
        except BlindCheckError as exc:
            if exc.check == checks.BAD_SHUFFLE_PROOF:
                cur.relayed_decks = e.party + 1
            raise
        cur.relayed_decks = e.party + 1

    def _on_round(self, e: m.BlindRound) -> None:
        try:
            self._open_round(e)
        except FairnessError:
            self._highest_opened = max(self._highest_opened, e.round_no)  # stopped in it
            raise

    def _open_round(self, e: m.BlindRound) -> None:
        if e.round_id in self._seen_ids:
            raise ReplayedRoundError(f"round id {e.round_id.hex()} was used before")
        self._no_reroll(e)
        if self._chain is not None:  # (followed from the match's start, or from a reveal)
            last = self.rounds[-1].round_no if self.rounds else 0
            after = f"round {last}, the last revealed" if last else "the match's start"
            if e.round_no != last + 1:
                raise BrokenChainError(
                    f"round {e.round_no} is not the round after {after}: round numbers go up by one"
                )
            if e.prev != self._chain:
                raise BrokenChainError(
                    f"round {e.round_no} links to {e.prev.hex()}, not to {after}"
                )
        host = party_key(e.key)
        digest = blind_digest(e.round_id, e.people, host)
        check_signature(
            self.host_key,
            e.sig,
            commit_message(e.round_id, e.round_no, e.prev, digest, self._rules_digest),
            f"round {e.round_no}'s commitment",
        )
        seated = seated_by_seat(self.computer_seats, self.rules.players)
        try:  # after the signature, as the verifier checks it (9.9 step 1)
            check_parties(e.round_no, e.people, seated)
        except ComputerPartyError:
            self._refused = refused_round(e, host, seated)
            raise
        self._rejoined(e, host, seated)
        self._seen_ids.add(e.round_id)
        self._highest_opened = max(self._highest_opened, e.round_no)
        if self.seat in e.people:
            seed = self.seed_for(e.round_id) if self.seed_for is not None else None
            if seed is None:
                seed = self.new_seed()
            index = e.people.index(self.seat) + 1
            party = BlindParty(self.rules, e.round_id, index, e.people, seed, host_key=host)
            if self.on_seed is not None:
                self.on_seed(e.round_id, seed)
            key = party.key
            self._send(
                m.BlindKey(
                    round_id=e.round_id,
                    key=m.KeyInfo(point=key.point, proof=key.proof, sign_key=key.sign_key),
                )
            )
        else:
            # The seat sits the round out: its client checks what every party relays. (No
            # notice: its screen says a computer plays the seat this round, and why, and the
            # round's deal check says what was checked.)
            observer = len(e.people) + 1
            party = BlindParty(self.rules, e.round_id, observer, e.people, bytes(32), host_key=host)
        self.current = _Round(
            e.round_id, e.round_no, e.prev, e.sig, e.people, host, party, seated=seated
        )
        self.people = e.people

    def dealt_round(self) -> tuple[int, bytes] | None:
        """(number, round id) of the round in play once cards of it were dealt in this seat's
        sight: what a client keeps on disk, so that a client taking the seat back holds the
        host to it (:attr:`told_before`)."""
        cur = self.current
        if cur is None or cur.party is None or not cur.party.deals:
            return None
        return cur.round_no, cur.round_id

    def opened_rounds(self) -> dict[int, ToldRound]:
        """By round number, every round of the match this seat saw opened (for
        :attr:`told_before` of the witness that follows the host's events again)."""
        opened = {r.round_no: ToldRound(r.round_id, bool(r.deals), None) for r in self.rounds}
        for cur in (self._cut_short, self.current):
            if cur is not None and cur.party is not None:
                opened[cur.round_no] = ToldRound(cur.round_id, bool(cur.party.deals), cur)
        return {**self.told_before, **opened}

    def _no_reroll(self, e: m.BlindRound) -> None:
        """9 and 5.4: a round, once opened, is played (or void) and revealed before the next
        opens, and no round number is opened twice, whatever catch-up came between. A host
        that opens a round again throws a deal away, perhaps after seeing its cards."""
        told = self.told_before.get(e.round_no)
        if told is not None and told.dealt and told.round_id != e.round_id:
            self._stopped_in = told.unfinished  # the round thrown away, in the evidence
            if told.unfinished is None:  # revealed before (a deal void for its kings)
                # The round opened again, as the host signed it, is the evidence: its number
                # was used, and it is never revealed (9.9 step 1).
                with contextlib.suppress(BlindCheckError, ValueError):
                    seated = seated_by_seat(self.computer_seats, self.rules.players)
                    self._refused = refused_round(e, party_key(e.key), seated)
            raise RerolledRoundError(
                f"round {e.round_no} was opened again (round id {e.round_id.hex()}) after "
                f"{self.told_since} round {e.round_no} opened (round id "
                f"{told.round_id.hex()}) and cards of it dealt, so the host could have seen "
                "cards of that deal"
            )
        cur = self.current
        if cur is not None and not self.mid_match:
            dealt = cur.party is not None and bool(cur.party.deals)
            when = "after dealing its cards" if dealt else "before dealing it"
            raise RerolledRoundError(
                f"round {e.round_no} (round id {e.round_id.hex()}) was opened while round "
                f"{cur.round_no} (round id {cur.round_id.hex()}) was still in play: the host "
                f"threw round {cur.round_no} away {when}, without a reveal"
            )
        if e.round_no <= self._highest_opened:
            thrown = self._cut_short
            if thrown is not None and thrown.round_no == e.round_no:
                self._stopped_in = thrown  # the round thrown away, in the evidence
            raise RerolledRoundError(
                f"round {e.round_no} was opened again (round id {e.round_id.hex()}), after "
                f"round {self._highest_opened} had been opened: round numbers only go up"
            )

    def _check_dealer(self, cur: _Round, keys: tuple[PartyKey, ...], dealer: int) -> None:
        """9.5.3: the dealer ``blind_keys`` names is the match's, before any deal is read
        with its plan: the match's first deal's as 9.5.5 draws it, later rounds' as 5.6's
        rotation gives it, after a catch-up by snapshot from the snapshot's dealer (unknown
        to a seat taken mid-match, and after a snapshot of no round dealt, past round 1).
        A first dealer other than the draw is :class:`DealerMismatchError`; a later one out of
        turn :class:`MisroutedCardError`, as an ordinary seat's deal plan refuses it (the
        deal goes where the rotation does not send it), in the same words."""
        v, so_far = self._verifier, self._so_far
        if v is not None:
            if v.match_result is None:
                return  # a round failed: the seat stopped there
            due, why = v.next_dealer, ""
        elif so_far is not None and (so_far.dealer is not None or cur.round_no == 1):
            due, why = so_far.dealer, AS_THE_SNAPSHOT_GIVES
        else:
            return
        if due is None:
            first = blind_first_dealer(cur.round_id, keys, self.rules.players)
            if dealer != first:
                raise DealerMismatchError(
                    f"round {cur.round_no} is the match's first deal: its dealer is seat "
                    f"{dealer}, but the round's keys draw seat {first}"
                )
            return
        if dealer != due:
            raise MisroutedCardError(
                f"round {cur.round_no}'s dealer is seat {dealer}, but seat {due} deals it "
                f"(the next seat after a round played out, the same after a void{why})"
            )

    def _round_over(self) -> None:
        cur = self.current
        assert cur is not None and cur.party is not None
        if not cur.over:
            cur.over = True
            # An observer has no seed to give; the host takes none from the seat it voided.
            if not cur.party.observer and not cur.party.absent:
                self._send(m.BlindReveal(round_id=cur.round_id, seed=cur.party.reveal()))

    def _on_reveal(self, e: m.RoundReveal) -> RoundVerdict:
        cur = self.current
        assert cur is not None and cur.party is not None
        public = cur.public(cur.party, score=cur.score, hand_seat=self.seat)
        record, chain = revealed(self.host_key, public, e)
        self.rounds.append(record)
        self.current = None
        self.owed = None
        self._chain = chain  # followed from here on, whatever came before
        if self._verifier is None and self._so_far is not None:
            self._verifier = self._carried_on(record)
        if self._verifier is None:
            how = "caught up mid-match" if self.caught_up else "seat taken mid-match"
            verdict = RoundVerdict(cur.round_no, None, f"cards and proofs checked ({how})")
        else:  # this round alone, the match state carried on from the rounds before (9.9)
            verdict = self._verifier.add(record)
        self.verdicts.append(verdict)
        if verdict.error is not None:
            raise verdict.error
        return verdict

    def _carried_on(self, record: BlindRound) -> BlindRoundByRoundVerifier | None:
        """The verifier that checks the rounds after a catch-up by snapshot, from ``record``
        (the first round revealed since) on, the match before it as :attr:`_so_far` says;
        None while the dealer is unknown (a snapshot of no round dealt: the first dealer was
        drawn in a round this seat may not have seen, 9.7)."""
        so_far = self._so_far
        assert so_far is not None
        verifier = so_far.verifier(
            BlindRoundByRoundVerifier,
            self.host_key,
            self.seat,
            round_no=record.round_no,
            prev=record.prev,
            dealer=record.dealer,
        )
        if verifier is not None:
            self._so_far = None
            self.shape.replayed_from(so_far, record.dealer)
        return verifier

    def _on_match_end(self, e: m.MatchEnd) -> None:
        if self.current is not None:
            raise BrokenChainError("the match ended while a round was still open")
        for round_no, told in sorted(self.told_before.items()):
            if told.dealt and round_no > self._highest_opened:
                # A match told again ends only once it has reached every round this seat saw
                # dealt (as a match ended while that round was open would have stopped it).
                self._stopped_in = told.unfinished  # (None: the round's id is in the words)
                raise BrokenChainError(
                    f"the host ended the match after round {self._highest_opened}, but "
                    f"{self.told_since} round {round_no} opened (round id "
                    f"{told.round_id.hex()}) and cards of it dealt, so the host told the match "
                    "otherwise"
                )
        if self._chain is not None:
            check_signature(
                self.host_key, e.sig, end_message(self._chain, e.scores, e.winner), "the match end"
            )
        self.result = MatchResult(tuple(e.scores), e.winner, e.sig)
        # The signed end kept first, for the evidence.
        check_match_end_caught_up(self.rules, e, self._verifier, self._so_far)

    def _same_round(self, round_id: bytes) -> None:
        assert self.current is not None
        if round_id != self.current.round_id:
            raise FairnessError(
                f"an event names round {round_id.hex()}, not the open round "
                f"{self.current.round_id.hex()}"
            )

    def _send(self, msg: m.Message) -> None:
        self._outgoing.append(msg)
        self.owed = msg

    # --- the record -----------------------------------------------------------------------

    @property
    def keeps_transcript(self) -> bool:
        """Whether this seat's transcript can be checked: it followed the match from its
        start, or it knows what the snapshot it was caught up with told of the match before
        the rounds it followed since (protocol.md 9.8, version 8)."""
        return self.shape.keeps_transcript

    def transcript(self) -> Transcript:
        return self._transcript(tuple(self.rounds))

    def abandoned(self) -> _Round | None:
        """The round in play if cards of it were dealt (so the host saw its table and its
        computer players' hands) and it was never revealed: what a match closed now leaves
        unfinished."""
        cur = self.current
        if cur is None or cur.party is None or not cur.party.deals:
            return None
        return cur

    def transcript_with_abandoned(self) -> Transcript:
        """:meth:`transcript` with :meth:`abandoned`'s round last, unfinished, so that
        ``scopa-net verify`` reports it never revealed."""
        cur = self.abandoned()
        rounds = tuple(self.rounds)
        if cur is not None and cur.party is not None:
            rounds += (cur.public(cur.party, hand_seat=self.seat),)
        return self._transcript(rounds)

    def evidence(self, error: FairnessError) -> Transcript:
        """The transcript saved when a check failed: every round read, the one that failed
        included (as far as it got), and the number of the round the seat stopped in."""
        rounds = list(self.rounds)
        cur = self.current or self._stopped_in
        if (
            cur is not None
            and cur.party is not None
            and all(r.round_id != cur.round_id for r in rounds)
        ):
            rounds.append(cur.public(cur.party, hand_seat=self.seat))
        round_no = self.round_no if cur is None else cur.round_no
        if self._refused is not None and all(r.round_no < self._refused.round_no for r in rounds):
            rounds.append(self._refused)
            round_no = self._refused.round_no
        stopped = Stopped(round_no, check_name(error), str(error)[:1000] or "-")
        return self._transcript(tuple(rounds), stopped)

    def _transcript(
        self, rounds: tuple[BlindRound, ...], stopped: Stopped | None = None
    ) -> Transcript:
        """A blind transcript of ``rounds`` as this seat writes it: version 6, each round
        saying who held each seat, or after a catch-up by snapshot version 8, saying what the
        snapshot told (protocol.md 9.8)."""
        return Transcript(
            self.rules,
            self.host_key,
            self.seat,
            self.shape.rounds(rounds),
            self.result,
            stopped=stopped,
            blind=True,
            blind_version=BLIND_SEATED_FORMAT_VERSION,
            **self.shape.transcript_keys(),
        )


__all__ = ["NO_SALT", "BlindWitness", "ToldRound"]
