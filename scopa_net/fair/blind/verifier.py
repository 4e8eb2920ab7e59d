"""Check a blind table's transcript (version 4, or 3): protocol.md 9.9, round by round.

The chain, the host's commit signature over the blind digest, every key and its proof, every
deck (valid points, signed by its party, proved a shuffle of the deck before it), every deal's
signed shares, every table card and play proof against the shares, then with the revealed
seeds the whole round re-derived (naming the party at fault), the deck replayed through the
rules, and the host's reveal signature. The match result is checked as for any transcript.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE, deal_plan, seat_positions
from scopa_net.fair.blind import errors as checks
from scopa_net.fair.blind.cards import CARD_POINTS, DECK_SIZE, card_of
from scopa_net.fair.blind.deck import Ciphertext, deck_message, joint_key, open_deck
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.group import GroupError, add, is_valid_point, mul, sub
from scopa_net.fair.blind.party import check_party_signature, play_context
from scopa_net.fair.blind.party_secrets import PartySecrets, key_proof_ok
from scopa_net.fair.blind.plan import owner, shared_positions
from scopa_net.fair.blind.proofs import check_dleq
from scopa_net.fair.blind.record import (
    VOID_ABSENT,
    VOID_FAILED_CHECK,
    BlindRound,
    DealShares,
    blind_first_dealer,
    shares_message,
)
from scopa_net.fair.blind.reveal import check_revealed, opened_cards
from scopa_net.fair.blind.seated import check_parties
from scopa_net.fair.blind.shuffle_proof import ShuffleClaim, check_shuffle_proof
from scopa_net.fair.commitments import check_signature, commit_message
from scopa_net.fair.errors import (
    BrokenChainError,
    DealerMismatchError,
    IncompleteRoundError,
    MisroutedCardError,
    NotRevealedError,
    RerolledRoundError,
    VoidMismatchError,
)
from scopa_net.fair.transcript import VOID_KINGS, Transcript
from scopa_net.fair.verifier import (
    MatchVerdict,
    RoundByRoundVerifier,
    _Verifier,
    verify_transcript,
)
from scopa_net.match import Match
from scopa_net.plays import CARD_FIELD
from scopa_net.rules import RuleSet


def verify_any(transcript: Transcript) -> MatchVerdict:
    """Verify a transcript of either kind: an ordinary table's or a blind one's."""
    if transcript.blind:
        return _BlindVerifier(transcript).run()
    return verify_transcript(transcript)


class BlindRoundByRoundVerifier(RoundByRoundVerifier):
    """A blind table's rounds checked one at a time as they end, each once (what a seat's
    blind witness does at every round's end): the verdict :func:`verify_any` gives the round."""

    blind = True

    @staticmethod
    def checker(transcript: Transcript) -> _Verifier:
        return _BlindVerifier(transcript)


class _BlindVerifier(_Verifier):
    UNTOLD_DEALER = "its dealer the one it records"

    def dealer_of(self, r: BlindRound) -> int | None:  # type: ignore[override]
        """A blind round records its dealer: read there, in step 4 (None here)."""
        return None

    def round(self, r: BlindRound, expected_no: int) -> str:  # type: ignore[override]
        note = self.checked_round(r, expected_no)
        if r.deck_proofs is None:  # 9.8: a version 3 file, from before shuffle proofs
            note += "; its shuffles carry no proof (an older file: the reveal checked them)"
        return note

    def checked_round(self, r: BlindRound, expected_no: int) -> str:
        """9.9 for one round: the note it passes with, or the check that fails."""
        rules = self.rules
        self.check_link(r, expected_no)  # type: ignore[arg-type]
        if not r.keys:
            raise NotRevealedError("the round holds no host key")
        check_signature(
            self.t.host_key,
            r.sig,
            commit_message(r.round_id, r.round_no, r.prev, r.digest, self.rules_digest),
            f"round {r.round_no}'s commitment",
        )
        if r.seated is not None:  # a version 6 file: what the seat's client knew (9.9 step 1)
            check_parties(r.round_no, r.people, r.seated)
        if r.void is not None and r.void.reason not in (VOID_KINGS, VOID_ABSENT, VOID_FAILED_CHECK):
            raise VoidMismatchError(f"the round is void for {r.void.reason!r}")
        if r.dealer is None and r.void is not None and len(r.keys) == 1 < r.parties:
            return self.void_before_keys(r)
        if len(r.keys) != r.parties:
            raise NotRevealedError("the parties' keys were never relayed for this round")
        for p, key in enumerate(r.keys):
            if not is_valid_point(key.point) or not key_proof_ok(r.round_id, p, key):
                raise BlindCheckError(checks.BAD_KEY, "its key or key proof is not valid", p)
        self.check_decks(r)
        if r.dealer is None:
            raise NotRevealedError("the round never reached its deal")
        if self.replaying:  # the dealer before the deals, whose plan it gives (9.9 step 4)
            first = self.match is None
            if self.match is None and self.dealer_as_recorded:
                # A file that begins mid-match, or a round followed since a catch-up by
                # snapshot that named no dealer (the match's first was drawn in a round this
                # seat did not see): its dealer is the host's word.
                first = False
                self.match = self.match_on(self.scores_before, r.dealer)
                self.dealer_as_recorded = False
            elif self.match is None:
                self.match = Match(rules, blind_first_dealer(r.round_id, r.keys, rules.players))
            if r.dealer != self.match.dealer:
                raise DealerMismatchError(
                    f"the round was dealt by seat {r.dealer}, but seat {self.match.dealer} deals "
                    + (
                        "it (the match's first dealer, as the round's keys draw it)"
                        if first
                        else "it (the next seat after a round played out, the same after a void)"
                    )
                )
        opened = self.check_deals(r)
        if r.seeds is None:
            raise NotRevealedError("the parties' seeds were never revealed for this round")
        deck = check_revealed(r, rules)
        if r.void is not None and r.void.reason == VOID_ABSENT:
            return self.passing_void(r, opened, absent_seats(r))
        if r.seeds[0] is None or len(r.seeds) != r.parties:
            raise NotRevealedError("the host's seed is not in the round's reveal")
        gone = absent_at_reveal(r)
        if r.void is not None and r.void.reason == VOID_FAILED_CHECK:
            stopper = _stopper(r)
            if r.void.offender is not None and owner(r.void.offender, r.people) in gone_parties(r):
                raise NotRevealedError(
                    f"seat {r.void.offender} stopped on a failed check, which it does by "
                    "sending its seed, but its seed is not in the reveal"
                )
            if gone:
                return self.passing_void(
                    r,
                    opened,
                    f"{stopper} stopped; whether with cause cannot be told: "
                    f"{_gone_note(gone)}, and every part that can be checked checks out",
                )
            note = self.passing_void(
                r,
                opened,
                f"{stopper} stopped without cause (every party's part checks out against its seed)",
            )
            if r.void.offender is None and r.deals:  # signed by the host: its own doing
                raise RerolledRoundError(
                    f"round {r.round_no} was voided by the host, saying its own check of a card "
                    "failed, but its reveal shows every party's part right: the host threw the "
                    "round away after dealing its first cards, without cause"
                )
            return note
        if deck is None:  # a person's seed never came (9.7): the round stands on its record
            return self.without_every_seed(r, opened, gone)
        note = self.replayed(r, deck)
        self.check_reveal(r)
        return f"{note}; blind: {people_words(r)}"

    def replayed(self, r: BlindRound, deck: Sequence[int]) -> str:
        """The round replayed over ``deck`` (9.9 step 9), or why it is not (an earlier round
        failed)."""
        if self.replaying:
            return self.replay(r, deck, b"")
        return (
            "keys, decks, shares and cards verified; play not replayed "
            f"(round {self.stopped_at} failed)"
        )

    def without_every_seed(self, r: BlindRound, opened: _Opened, gone: tuple[int, ...]) -> str:
        """9.9 step 9, a round played out or void ``kings`` whose reveal leaves a person's seed
        out (that person absent at the reveal, 9.7): its cards come from the record, whose
        every card was opened in public and proven in step 5: a round played out opened every
        position (the table by every party's shares, the rest by plays), and a kings void is
        decided by its opening table alone. Replayed over those; the hand is empty or is the
        seat's own, as the record gives it."""
        assert r.dealer is not None
        if r.void is not None and r.void.reason == VOID_KINGS:
            deck = kings_deck(r, self.rules)
            self.check_hand_so_far(r, opened)
        else:
            deck = public_deck(r)
            for c in r.hand:
                if deck[c.pos] != c.card:
                    raise BlindCheckError(
                        checks.SUBSTITUTED_CARD,
                        f"hand: deck position {c.pos} holds {CARDS[deck[c.pos]]} (its play), not "
                        f"{CARDS[c.card]}",
                    )
        note = self.replayed(r, deck)
        self.check_reveal(r)
        return f"{note}; blind: {people_words(r)}; {_gone_note(gone)}"

    def check_routing(self, r: BlindRound, dealer: int, *, first_deal_only: bool) -> None:  # type: ignore[override]
        """As 6.2's, but a round whose reveal leaves a seed out may have no hand (9.8): the
        host's export, or the seat's own seed left out."""
        if not r.hand and r.seeds is not None and None in r.seeds:
            want = seat_positions(self.rules, dealer, TABLE, first_deal_only=first_deal_only)
            got = [c.pos for c in r.table]
            if got != want:
                raise MisroutedCardError(
                    f"the table received deck positions {got}; the deal plan with dealer seat "
                    f"{dealer} gives it {want}"
                )
            return
        super().check_routing(r, dealer, first_deal_only=first_deal_only)  # type: ignore[arg-type]

    def void_before_keys(self, r: BlindRound) -> str:
        """A round void before every party's key came (9.9): only the host's key was relayed,
        so nothing was shuffled, dealt or played and no dealer was drawn. What is left to check:
        the record holds nothing past the keys, the void is ``absent`` naming a person's seat
        whose seed is missing (other people's may be, the host's not: :func:`absent_seats`) or
        ``failed_check`` with every seed, the host's seed gives its committed key, and the host's
        reveal signature over the chain hash. The match is not touched: its first dealer comes
        from the first round whose keys all came."""
        v = r.void
        assert v is not None
        if r.decks or r.deck_sigs or r.deals or r.table or r.plays or r.hand or r.score is not None:
            raise BrokenChainError(
                "the round records decks, deals or plays but its keys were never relayed"
            )
        if v.reason == VOID_KINGS:
            raise VoidMismatchError("a kings void before anything was dealt")
        if r.seeds is None:
            raise NotRevealedError("the parties' seeds were never revealed for this round")
        missing = [p for p, s in enumerate(r.seeds) if s is None]
        if v.reason == VOID_FAILED_CHECK:
            stopper = _stopper(r)
            if (
                len(r.seeds) != r.parties
                or 0 in missing
                or (v.offender is not None and owner(v.offender, r.people) in missing)
            ):
                raise NotRevealedError(
                    f"a seat stopped on a failed check and parties {missing} never revealed "
                    "their seeds (the host's and the seat's that stopped must be there)"
                )
            note = f"void: {stopper} stopped without cause before every key came"
            gone = absent_at_reveal(r)
            if gone:  # nothing was encrypted under their keys: the stop is judged all the same
                note += f"; {_gone_note(gone)}"
        else:
            note = f"void: {absent_seats(r)} before every key came"
        host_seed = r.seeds[0]
        assert host_seed is not None
        try:
            host_key = PartySecrets(host_seed, r.round_id, 0).key
        except ValueError as exc:
            raise BlindCheckError(checks.WRONG_SECRET, str(exc), 0) from None
        if host_key != r.keys[0]:
            raise BlindCheckError(
                checks.WRONG_SECRET, "its revealed seed does not give the key it committed", 0
            )
        self.check_reveal(r)
        return f"{note}; nothing dealt"

    def passing_void(self, r: BlindRound, opened: _Opened, what: str) -> str:
        """The end of an ``absent`` or ``failed_check`` void's checks (9.9 steps 7 and 8): no
        score, the hand, the reveal signature. Its note; the round is not replayed."""
        assert r.void is not None
        if r.score is not None:
            raise VoidMismatchError(f"a {r.void.reason} void holds no score")
        self.check_hand_so_far(r, opened)
        self.check_reveal(r)
        return f"void: {what}; {_plays_before(len(r.plays))}"

    def check_hand_so_far(self, r: BlindRound, opened: _Opened) -> None:
        """An ``absent`` or ``failed_check`` void's hand (9.9 steps 7 and 8): empty (the
        host's export), or this seat's positions of the deals recorded, each opening to its
        card with the published shares and the share of the seat's own party, from its
        revealed seed. A position the seat could not take (9.8: it opens to no card point, or
        to a card the record shows at another position) is left out of the hand, and only
        such a one."""
        if not r.hand:
            return
        seat = self.t.seat
        own = owner(seat, r.people)
        seed = r.seeds[own] if r.seeds is not None else None
        positions = sorted(pos for pos, target in opened.targets.items() if target == seat)
        held = [c.pos for c in r.hand]
        if held != sorted(set(held)) or not set(held) <= set(positions) or seed is None:
            raise MisroutedCardError(
                f"the hand of a void round is not seat {seat}'s cards of the deals recorded"
            )
        x = PartySecrets(seed, r.round_id, own).x
        cards = {c.pos: c.card for c in r.hand}
        shown = {pos: card for pos, card, _ in opened_cards(r)}
        for pos in positions:
            try:
                card = card_of(sub(opened.unshared(pos), mul(x, opened.deck[pos].u)))
            except (GroupError, KeyError, IndexError):
                card = None
            if pos in cards and card != cards[pos]:
                raise BlindCheckError(
                    checks.SUBSTITUTED_CARD,
                    f"hand: deck position {pos} does not open to {CARDS[cards[pos]]} with "
                    "the seat's own seed",
                )
            seen_elsewhere = any(c == card and q != pos for q, c in shown.items())
            if pos not in cards and card is not None and not seen_elsewhere:
                raise MisroutedCardError(
                    f"the hand of a void round leaves out deck position {pos}, which opens "
                    f"to {CARDS[card]} with the seat's own seed, a card seen nowhere else"
                )

    def check_decks(self, r: BlindRound) -> None:
        """9.9 step 3: every deck valid, signed by its party and, from version 4, proved a
        shuffle of the deck before it (the open deck for party 0's). More decks than parties
        is a *bad deck* naming no party: no party's key signs the extra one."""
        if len(r.decks) > r.parties:
            raise BlindCheckError(
                checks.BAD_DECK, f"{len(r.decks)} decks recorded for {r.parties} parties"
            )
        proofs = r.deck_proofs if r.deck_proofs is not None else [None] * len(r.decks)
        joint = joint_key([k.point for k in r.keys])
        before = open_deck(joint)
        for p, (deck, proof, sig) in enumerate(zip(r.decks, proofs, r.deck_sigs, strict=True)):
            if not all(c.valid() for c in deck):
                raise BlindCheckError(checks.BAD_DECK, "its deck holds an invalid point", p)
            if not check_party_signature(r.keys[p], sig, deck_message(r.round_id, p, deck, proof)):
                raise BlindCheckError(checks.BAD_SIGNATURE, "its deck is not signed", p)
            claim = ShuffleClaim(r.round_id, p, joint, before, deck)
            if proof is not None and not check_shuffle_proof(claim, proof):
                raise BlindCheckError(
                    checks.BAD_SHUFFLE_PROOF,
                    "its deck is not proved a shuffle of the deck before",
                    p,
                )
            before = deck

    def check_deals(self, r: BlindRound) -> _Opened:
        """Each deal's shares signed by their parties; the table cards open to the recorded
        cards; every play proof against the shares. Returns the positions dealt so far and
        the shares published for them."""
        plan = deal_plan(self.rules, r.dealer)
        if len(r.deals) > len(plan) or (r.deals and len(r.decks) != r.parties):
            raise BlindCheckError(checks.BAD_SHARES, f"{len(r.deals)} deals recorded")
        deck = r.decks[-1] if r.decks else ()
        published: dict[int, list[bytes]] = {}
        targets: dict[int, int] = {}
        for k, deal in enumerate(r.deals, 1):
            laid = plan[k - 1]
            targets.update({laid.start + i: t for i, t in enumerate(laid.targets)})
            for p, (shares, sig) in enumerate(zip(deal.shares, deal.sigs, strict=True)):
                positions = shared_positions(laid, r.people, p)
                if shares is None or sig is None or len(shares) != len(positions):
                    raise BlindCheckError(  # a deal is relayed whole, or not at all (9.8)
                        checks.BAD_SHARES,
                        f"deal {k}: {len(positions)} shares due, the record has "
                        f"{'none' if shares is None or sig is None else len(shares)}",
                        p,
                    )
                message = shares_message(r.round_id, p, k, shares)
                if not check_party_signature(r.keys[p], sig, message):
                    raise BlindCheckError(checks.BAD_SIGNATURE, f"deal {k}: bad shares", p)
                for pos, share in zip(positions, shares, strict=True):
                    published.setdefault(pos, []).append(share)
            if deal.relayed is not None:
                check_relayed(r, k, deal, len(shared_positions(laid, r.people, 0)))

        opened = _Opened(deck, targets, published)
        unshared = opened.unshared
        for c in r.table:
            try:
                card = card_of(unshared(c.pos))
            except (GroupError, KeyError, IndexError):
                card = None
            if targets.get(c.pos) != TABLE or card != c.card:
                raise BlindCheckError(
                    checks.NO_CARD,
                    f"table card at deck position {c.pos} does not open to {CARDS[c.card]}",
                )
        for n, p in enumerate(r.plays, 1):
            card = p.code & CARD_FIELD
            by = owner(p.seat, r.people)
            try:
                d = sub(unshared(p.pos), CARD_POINTS[card])
                ok = targets.get(p.pos) == p.seat and check_dleq(
                    r.keys[by].point,
                    deck[p.pos].u,
                    d,
                    p.proof,
                    play_context(r.round_id, by, p.pos, card),
                )
            except (GroupError, KeyError, IndexError):
                ok = False
            if not ok:
                raise BlindCheckError(
                    checks.BAD_PLAY,
                    f"play {n}: seat {p.seat}'s proof does not show "
                    f"{_card_words(card)} at deck position {p.pos}",
                    by,
                )
        return opened


def _plays_before(n: int) -> str:
    """What a passing void's note says of the plays before it, in players' words: each card
    proven its player's own; the round is not played through (a void round scores nothing)."""
    before = "before the round went void"  # not "before it": the absence, or the round?
    if n == 0:
        return f"no card was played {before}"
    if n == 1:
        checked = f"the card played {before} is proven to be from its player's own hand"
    else:
        checked = f"the {n} cards played {before} are proven to be from their players' own hands"
    return f"{checked} (a void round scores nothing)"


def people_words(r: BlindRound) -> str:
    """Who shuffled a blind round: ``seat 0, seat 2 and the host`` (its parties: the client
    of each seat that took part, and the host for itself and its computer players). Seats,
    not people: a client may be a computer player of its own (``scopa-net bots``); a
    screen puts each seat's name in."""
    return ", ".join(f"seat {seat}" for seat in r.people) + " and the host"


def _card_words(card: int) -> str:
    """A card as verify writes cards (``3h``), or its number when it names no card."""
    return str(CARDS[card]) if 0 <= card < len(CARDS) else f"card number {card} (no card)"


def absent_seats(r: BlindRound) -> str:
    """An ``absent`` void's seeds (9.9 step 7, and *void before the keys* step 5): the seat
    named is a person's (*void mismatch*), its party's seed is nil and the host's is there
    (*not revealed*). Any other person's seed may be nil too: that person was also away past
    their grace period (or silent past the seed deadline) when the host revealed, and is
    reported absent as well. Returns the note: ``seat s absent``, then the others."""
    v = r.void
    assert v is not None and v.reason == VOID_ABSENT and r.seeds is not None
    if v.offender not in r.people:
        raise VoidMismatchError(f"seat {v.offender} was not a person's party")
    missing = [p for p, s in enumerate(r.seeds) if s is None]
    named = owner(v.offender, r.people)
    if len(r.seeds) != r.parties or named not in missing or 0 in missing:
        raise NotRevealedError(
            f"an absent void of seat {v.offender} with the seeds of parties {missing} missing "
            f"(party {named}'s must be, and the host's, party 0, must not)"
        )
    note = f"seat {v.offender} absent"
    also = [r.people[p - 1] for p in missing if p != named]
    if also:
        seats = ", ".join(f"seat {seat}" for seat in also)
        whose = "its seed" if len(also) == 1 else "their seeds"
        note += f" ({seats} absent too: {whose} never came)"
    return note


def absent_seats_of(r: BlindRound) -> tuple[int, ...]:
    """Every seat an ``absent`` void counts as absent (9.9): the seat named, then each other
    person whose seed the reveal left out."""
    v = r.void
    if v is None or v.reason != VOID_ABSENT or v.offender is None:
        return ()
    others: list[int] = []
    if r.seeds is not None and len(r.seeds) == r.parties:
        others = [
            r.people[p - 1]
            for p, s in enumerate(r.seeds)
            if s is None and p >= 1 and r.people[p - 1] != v.offender
        ]
    return (v.offender, *others)


def gone_parties(r: BlindRound) -> tuple[int, ...]:
    """The people's parties (``p >= 1``) whose seed the reveal leaves out, in party order."""
    if r.seeds is None:
        return ()
    return tuple(p for p, s in enumerate(r.seeds) if s is None and 1 <= p <= len(r.people))


def absent_at_reveal(r: BlindRound) -> tuple[int, ...]:
    """The seats whose person was absent at the reveal of a round other than an ``absent``
    void (9.7): played out, void ``kings`` or ``failed_check``, or void before the keys as
    ``failed_check``. Their seed is nil in the signed reveal; each is counted by seat, as an
    absent void's seats are (:func:`absent_seats_of`)."""
    if r.void is not None and r.void.reason == VOID_ABSENT:
        return ()
    return tuple(r.people[p - 1] for p in gone_parties(r))


def unjudged_stop(r: BlindRound) -> bool:
    """A ``failed_check`` void that reached its keys with a person absent at the reveal (9.9
    step 8): whether the seat that stopped had cause cannot be told."""
    return (
        r.void is not None
        and r.void.reason == VOID_FAILED_CHECK
        and not (r.dealer is None and len(r.keys) == 1 < r.parties)
        and bool(absent_at_reveal(r))
    )


def _gone_note(seats: tuple[int, ...]) -> str:
    listed = ", ".join(f"seat {seat}" for seat in seats)
    whose = "its seed" if len(seats) == 1 else "their seeds"
    return f"{listed} absent at the reveal ({whose} never came)"


def public_deck(r: BlindRound) -> tuple[int, ...]:
    """A round played out whose reveal leaves a seed out (9.9 step 9): its cards by position,
    from the record alone. Every position was opened in public, the opening table's by every
    party's shares and every other by a play, each checked in step 5; so each of the 40
    positions must be opened exactly once (*incomplete round* otherwise: the round was not
    played out) and the 40 cards must all differ (*substituted card*: a shuffle put a card in
    twice; its party's seed, not in the record, would name it)."""
    cards: dict[int, int] = {}
    for pos, card in (
        *((c.pos, c.card) for c in r.table),
        *((p.pos, p.code & CARD_FIELD) for p in r.plays),
    ):
        if pos in cards:
            raise IncompleteRoundError(f"deck position {pos} was opened twice")
        cards[pos] = card
    if len(cards) != DECK_SIZE:
        raise IncompleteRoundError(
            f"a person's seed is not in the reveal and {DECK_SIZE - len(cards)} deck positions "
            "were never opened: only a round played out stands without every seed"
        )
    deck = tuple(cards[pos] for pos in range(DECK_SIZE))
    if len(set(deck)) != DECK_SIZE:
        raise BlindCheckError(
            checks.SUBSTITUTED_CARD, "the round opened the same card at two deck positions"
        )
    return deck


def kings_deck(r: BlindRound, rules: RuleSet) -> tuple[int, ...]:
    """A kings void whose reveal leaves a seed out (9.9 step 9): a deck for the replay with
    the record's opening table at its positions and the other cards, in card order, at the
    rest. Only the opening table decides a kings void, and a void deal is never played, so
    the match goes on from it as from the real deck."""
    assert r.dealer is not None
    table = {c.pos: c.card for c in r.table}
    want = seat_positions(rules, r.dealer, TABLE, first_deal_only=True)
    if sorted(table) != want or len(set(table.values())) != len(table):
        raise MisroutedCardError(
            f"the table of a kings void holds deck positions {sorted(table)}, not {want}"
        )
    rest = iter(c for c in range(DECK_SIZE) if c not in table.values())
    return tuple(table[pos] if pos in table else next(rest) for pos in range(DECK_SIZE))


def _stopper(r: BlindRound) -> str:
    """Who stopped a ``failed_check`` void, by seat and party: a person's seat, or the host
    (nil); a seat that is no person's is a *void mismatch*."""
    assert r.void is not None
    seat = r.void.offender
    if seat is None:
        return "the host (party 0)"
    if seat not in r.people:
        raise VoidMismatchError(f"seat {seat} was not a person's party: it cannot stop a round")
    return f"seat {seat} (party {owner(seat, r.people)})"


def check_relayed(r: BlindRound, k: int, deal: DealShares, due: int) -> None:
    """A seat's evidence may hold the other shares of the host's party that ``blind_deal``
    relayed (9.8): signed by the host and not the ones its ``blind_open`` carried, they
    prove it tried to change its part of deal ``k`` after reading the people's (9.9 step
    5). Anything else there proves nothing, and names no one."""
    assert deal.relayed is not None
    other, sig = deal.relayed
    if (
        len(other) == due
        and other != deal.shares[0]
        and check_party_signature(r.keys[0], sig, shares_message(r.round_id, 0, k, other))
    ):
        raise BlindCheckError(
            checks.BAD_SHARES,
            f"deal {k}: the host signed two sets of shares of its own, the ones its "
            "blind_open carried and other ones its blind_deal relayed after the people sent "
            "theirs",
            0,
            signed_both=True,
        )
    raise BlindCheckError(
        checks.BAD_SHARES,
        f"deal {k}: the other shares of the host this record holds are not the host's "
        "signed shares of the deal, other than the ones it sent first: they prove nothing",
    )


@dataclass(frozen=True)
class _Opened:
    """What a round's deals recorded: the final deck, the seat (or ``TABLE``) each position
    dealt so far went to, and every share published for it."""

    deck: Sequence[Ciphertext]
    targets: dict[int, int]
    published: dict[int, list[bytes]]

    def unshared(self, pos: int) -> bytes:
        """``V`` less every share published for ``pos``."""
        shares = self.published[pos]
        total = shares[0]
        for share in shares[1:]:
            total = add(total, share)
        return sub(self.deck[pos].v, total)
