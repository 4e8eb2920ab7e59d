"""A blind table: the host deals without seeing the people's cards (protocol.md section 9).

:class:`BlindTable` is a :class:`~scopa_net.server.table.Table` whose rounds follow 9.5 instead
of section 5: the host runs the host party (:class:`~scopa_net.fair.blind.party.BlindParty`,
index 0) for its own layer and its computer players, and relays every person's key, shuffled
deck, shares and seed, checking each before it relays it. Its engine plays over a guessed deck
(:mod:`scopa_net.fair.blind.hidden`): it learns a person's card only when a play proves it.

Every input is a journal entry, as at any table; the host party's seed is in the ``round``
entry, so a table rebuilt from its journal holds the same party, decks and shares.

The phases of a blind round::

    KEYS     blind_round sent; waiting for every person's key
    SHUFFLE  blind_keys and the host's deck sent; waiting for each person's shuffle in turn
    OPEN     blind_open sent for a deal; waiting for every person's shares
    PLAY     the deal is out; plays until the hands are empty (then OPEN again, or the end)
    SEEDS    the round is over (played out or void); waiting for every person's seed

A person who does not act within the seed deadline, and is not away within their grace period,
and a person whose grace period ends while the round needs them, void the round as ``absent``
(9.7): no one may play a person's cards for them, and the host never has their secret. One
who was connected all the while, silent past a stage's deadline, also sits out from the next
round (a computer plays their seat) until they resume their seat. A
person's seed before the round's end (their client stopped on a failed check), or a card the
host's own party cannot open, voids it as ``failed_check`` (9.6); then every seed is collected
as at any round's end, and the reveal names the party at fault.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net.cards import CARDS
from scopa_net.dealing import deal_plan
from scopa_net.errors import IllegalPlayError
from scopa_net.fair.blind.deck import deck_message, parse_deck
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.hidden import guessed_deck, learn
from scopa_net.fair.blind.party import BlindParty, check_party_signature
from scopa_net.fair.blind.party_secrets import PartyKey, key_proof_ok, seed_gives_key
from scopa_net.fair.blind.plan import owner, shared_positions
from scopa_net.fair.blind.record import (
    VOID_ABSENT,
    VOID_FAILED_CHECK,
    BlindRound,
    OpenCard,
    blind_digest,
    blind_first_dealer,
    shares_message,
)
from scopa_net.fair.blind.shuffle_proof import check_shuffle_proof
from scopa_net.fair.commitments import (
    commit_message,
    public_key_bytes,
    reveal_message,
    sign,
)
from scopa_net.fair.transcript import VOID_KINGS, MatchResult, Transcript
from scopa_net.match import Match
from scopa_net.plays import Play, play_code
from scopa_net.rules import RuleSet
from scopa_net.server.round_start import RoundStart
from scopa_net.server.table import OlderJournalError, Phase, SeatKind, Table, TableError
from scopa_net.wire import messages as m
from scopa_net.wire.errors import ErrorCode

BLIND_WAITS = (Phase.KEYS, Phase.SHUFFLE, Phase.OPEN, Phase.SEEDS)
FAILED_CHECK_PAUSE = 2.0
"""Seconds before the round after a ``failed_check`` void (9.6): one client that cheats every
round cannot make the host deal and journal rounds as fast as it can answer."""


def _hand(
    r: BlindRound, deck: tuple[int, ...] | None, seat: int, rules: RuleSet
) -> tuple[OpenCard, ...]:
    """The cards dealt to ``seat`` in the deals a finished round opened, once revealed."""
    if deck is None or r.dealer is None:
        return ()
    return tuple(
        OpenCard(d.start + i, deck[d.start + i])
        for d in deal_plan(rules, r.dealer)[: len(r.deals)]
        for i, target in enumerate(d.targets)
        if target == seat
    )


def key_info(key: PartyKey) -> m.KeyInfo:
    return m.KeyInfo(point=key.point, proof=key.proof, sign_key=key.sign_key)


def party_key(info: m.KeyInfo) -> PartyKey:
    return PartyKey(info.point, info.proof, info.sign_key)


@dataclass
class BlindState:
    """The round in progress at a blind table, as the host holds it."""

    party: BlindParty
    round_no: int
    prev: bytes
    sig: bytes
    keys: list[PartyKey | None]
    shares: dict[int, tuple[tuple[bytes, ...], bytes]] = field(default_factory=dict)
    """party -> (shares, sig) for the deal being opened."""
    opening: int = 0
    """The deal being opened (or last opened), from 1."""
    seeds: list[bytes | None] = field(default_factory=list)
    known: dict[int, int] = field(default_factory=dict)
    """Deck position -> card, for the cards the engine holds for certain."""
    score: tuple[int, ...] | None = None
    public: BlindRound | None = None
    """The round's public record once it is revealed."""

    @property
    def people(self) -> tuple[int, ...]:
        return self.party.people

    def party_of(self, seat: int) -> int:
        return owner(seat, self.people)


class BlindTable(Table):
    """A table whose rounds are dealt blind (protocol.md 9)."""

    blind = True

    def __init__(
        self, table_id: int, name: str, rules: RuleSet, host_key: Ed25519PrivateKey, **kw: object
    ) -> None:
        super().__init__(table_id, name, rules, host_key, **kw)  # type: ignore[arg-type]
        self.blind_round: BlindState | None = None
        self.blind_history: list[BlindRound] = []
        self.blind_decks: list[tuple[int, ...] | None] = []
        """Each finished round's cards by position, once every seed was revealed (None: a
        person's seed never came, so their cards stay unknown to the host for good)."""
        self.sitting_out: set[int] = set()
        """Seats a computer plays for the host from the next round until their person comes
        back (resumes the seat, or joins it again): a person who stopped on a failed check
        (9.6), one whose part of a round its reveal proved wrong (9.6), and one who stayed
        connected past a stage's deadline without sending what the round waited on (9.7)."""
        self.dealt_people: tuple[int, ...] = ()
        """The ``people`` of the last round dealt (``dealt_round_no``): snapshots name them
        while that round is the one they show, the next one's setup under way or not."""
        self.round_start: dict[int, RoundStart] = {}
        """Seat -> its seq and snapshot as the round in play began: a person's seat caught up by
        snapshot starts there and has the round's events replayed, so its client can take up
        its party again (9.7), or, sitting the round out, follow it from its first deal (the
        round's table is opened only in its events); so does a seat taken by a newcomer while
        the round is still being set up (:meth:`join_point`)."""

    # --- reading ------------------------------------------------------------------------

    @property
    def needs_round(self) -> bool:
        """As at an ordinary table, but only while a person plays a seat: a blind round is
        dealt by people's parties (9.1), so a table every person has left, or whose people are
        all away, waits for one to come back."""
        return super().needs_round and any(self._person(s) for s in range(self.rules.players))

    @property
    def pause_before_round(self) -> float:
        last = self.blind_history[-1] if self.blind_history else None
        failed = (
            last is not None and last.void is not None and last.void.reason == VOID_FAILED_CHECK
        )
        return FAILED_CHECK_PAUSE if failed and self.phase is Phase.BETWEEN else 0.0

    @property
    def waits_on_seats(self) -> bool:
        return self.phase in BLIND_WAITS

    @property
    def wait_stage(self) -> tuple[int, str, int]:
        """Changes whenever the table starts waiting on seats for something new."""
        b = self.blind_round
        return (self.round_no, self.phase.value, 0 if b is None else b.opening)

    def to_act(self) -> list[tuple[int, str]]:
        b = self.blind_round
        if b is None or self.phase not in (*BLIND_WAITS, Phase.PLAY):
            return []
        if self.phase is Phase.PLAY:
            return super().to_act()
        people = b.people
        if self.phase is Phase.KEYS:
            return [(s, "key") for p, s in enumerate(people, 1) if b.keys[p] is None]
        if self.phase is Phase.SHUFFLE:
            due = len(b.party.decks)
            return [(people[due - 1], "shuffle")] if 1 <= due <= len(people) else []
        if self.phase is Phase.OPEN:
            return [(s, "shares") for p, s in enumerate(people, 1) if p not in b.shares]
        # A person away past their grace period, or named absent, is not waited for: their
        # seed stays secret.
        return [
            (s, "reveal")
            for p, s in enumerate(people, 1)
            if b.seeds[p] is None and not self.seats[s].stand_in and s != self._absent(b)
        ]

    @staticmethod
    def _absent(b: BlindState) -> int | None:
        """The seat the round in play is void ``absent`` for, if it is (9.7)."""
        v = b.party.void_notice
        return v.offender if v is not None and v.reason == VOID_ABSENT else None

    def catch_up_point(self, seat: int) -> tuple[int, m.Snapshot] | None:
        start = self.kept_from(seat)
        if start is None or not _a_persons(start.snapshot, seat):
            return None  # no round in play, or the seat was not a person's as it began
        return start.seq, start.snapshot

    def kept_from(self, seat: int) -> RoundStart | None:
        b = self.blind_round
        if b is None or b.public is not None:
            return None  # no round in play
        return self.round_start.get(seat)

    def join_point(self, seat: int) -> tuple[int, m.Snapshot] | None:
        """Where a newcomer who just took ``seat`` starts, when not now: while the blind round
        in play is being set up (not dealt yet), at its start, with the seats as they are now,
        so that its client reads the round's ``blind_round`` (the seat sits it out) and opens
        its table from its events (9.7). None: a snapshot of now (the round dealt, or no round
        in play, or the round's events for this seat no longer kept, or another holder of the
        seat since the round began, whose ``seat_status`` would name them after this one)."""
        start = self.kept_from(seat)
        s = self.seats[seat]
        if start is None or start.seq < s.base or _a_persons(start.snapshot, seat):
            return None
        events = s.log[start.seq - s.base :]
        if events and isinstance(events[-1], m.SeatStatus) and events[-1].seat == seat:
            events = events[:-1]  # the newcomer's own arrival, just now: the snapshot says it
        if any(isinstance(e, m.SeatStatus) and e.seat == seat for e in events):
            return None
        if any(isinstance(e, m.BlindDeal) for e in events):
            return None  # dealt: the present shows the round and names its people
        snapshot = replace(start.snapshot, seats=self.seat_infos(), stand_ins=self.stand_ins())
        return start.seq, snapshot

    def _played_for_a_person(self, seat: int) -> bool:
        """As any table's, and a person sitting the blind round out (9.7) too."""
        b = self.blind_round
        if b is not None and seat not in b.people and self.seats[seat].kind is SeatKind.HUMAN:
            return True
        return super()._played_for_a_person(seat)

    def snapshot(self, seat: int) -> m.Snapshot:
        """As any table's, but a person's own cards are theirs to open: the host does not
        know them (its engine holds guesses), so their snapshot leaves the hand empty. It
        names the people of the round it shows (the last dealt): a seat not among them sits
        that round out (9.7)."""
        snap = super().snapshot(seat)
        if self._person(seat) and not snap.round_over:
            snap = replace(snap, hand=())
        if snap.round_no:  # the last round dealt, as its blind_round named them (3.9)
            snap = replace(snap, people=self.dealt_people)
        return snap

    # --- inputs ---------------------------------------------------------------------------

    def _round_for(self, round_id: bytes, phase: Phase, what: str) -> BlindState:
        b = self.blind_round
        if self.phase is not phase or b is None:
            raise TableError(ErrorCode.WRONG_PHASE, f"cannot {what} now ({self.phase.value})")
        if round_id != b.party.round_id:
            raise TableError(
                ErrorCode.WRONG_PHASE, f"round {round_id.hex()} is not the round in progress"
            )
        return b

    def _party_for(self, b: BlindState, seat: int) -> int:
        if seat not in b.people:
            raise TableError(ErrorCode.WRONG_PHASE, f"seat {seat} is not a party this round")
        return b.party_of(seat)

    def blind_key(self, seat: int, round_id: bytes, key: m.KeyInfo) -> None:
        b = self._round_for(round_id, Phase.KEYS, "take a key")
        p = self._party_for(b, seat)
        if b.keys[p] is not None:
            raise TableError(ErrorCode.WRONG_PHASE, f"seat {seat} has sent its key")
        if not key_proof_ok(round_id, p, party_key(key)):
            raise TableError(ErrorCode.BAD_FIELD, "the key proof does not verify")
        self._commit(
            "blind_key",
            {"seat": seat, "point": key.point, "proof": key.proof, "sign_key": key.sign_key},
        )

    def blind_shuffle(
        self,
        seat: int,
        round_id: bytes,
        deck: tuple[bytes, ...],
        proof: bytes,
        sig: bytes,
    ) -> None:
        """A person's shuffle: awaited, a deck of valid points, signed by the seat's party
        and proved a shuffle of the deck before it (9.5.2, 9.5.4; the proof takes about
        76 ms to check, here on the host's loop)."""
        b = self._round_for(round_id, Phase.SHUFFLE, "take a shuffle")
        p = self._party_for(b, seat)
        if p != len(b.party.decks):
            raise TableError(ErrorCode.WRONG_PHASE, f"it is not seat {seat}'s turn to shuffle")
        key = b.keys[p]
        assert key is not None
        try:
            parsed = parse_deck(deck)
        except ValueError as exc:
            raise TableError(ErrorCode.BAD_FIELD, f"not a deck: {exc}") from None
        bad = next((i for i, c in enumerate(parsed) if not c.valid()), None)
        if bad is not None:  # the next party's shares would multiply it: refuse it here
            raise TableError(ErrorCode.BAD_FIELD, f"deck position {bad} is not a pair of points")
        if not check_party_signature(key, sig, deck_message(round_id, p, parsed, proof)):
            raise TableError(ErrorCode.BAD_FIELD, "the deck is not signed by the seat's key")
        if not check_shuffle_proof(b.party.shuffle_claim(p, parsed), proof):
            raise TableError(
                ErrorCode.BAD_FIELD, "the deck is not proved a shuffle of the deck before it"
            )
        self._commit(
            "blind_shuffle", {"seat": seat, "deck": list(deck), "proof": proof, "sig": sig}
        )

    def blind_shares(
        self, seat: int, round_id: bytes, deal: int, shares: tuple[bytes, ...], sig: bytes
    ) -> None:
        b = self._round_for(round_id, Phase.OPEN, "take shares")
        p = self._party_for(b, seat)
        if deal != b.opening or p in b.shares:
            raise TableError(ErrorCode.WRONG_PHASE, f"deal {deal}'s shares are not awaited")
        due = shared_positions(b.party.plan[deal - 1], b.people, p)
        key = b.keys[p]
        assert key is not None
        if len(shares) != len(due):
            raise TableError(ErrorCode.BAD_FIELD, f"{len(due)} shares due, not {len(shares)}")
        if not check_party_signature(key, sig, shares_message(round_id, p, deal, shares)):
            raise TableError(ErrorCode.BAD_FIELD, "the shares are not signed by the seat's key")
        self._commit(
            "blind_shares", {"seat": seat, "deal": deal, "shares": list(shares), "sig": sig}
        )

    def blind_reveal(self, seat: int, round_id: bytes, seed: bytes) -> None:
        """A person's seed: at the round's end, or before it from a seat that stopped on a
        failed check (9.6), which voids the round ``failed_check`` naming that seat."""
        phase = self.phase if self._round_live() else Phase.SEEDS
        b = self._round_for(round_id, phase, "take a seed")
        p = self._party_for(b, seat)
        if b.seeds[p] is not None:
            raise TableError(ErrorCode.WRONG_PHASE, f"seat {seat} has revealed")
        if seat == self._absent(b):
            raise TableError(
                ErrorCode.WRONG_PHASE, f"the round is void: seat {seat} absent; its seed stays out"
            )
        key = b.keys[p]
        if key is not None and not seed_gives_key(seed, round_id, p, key):
            # Relayed, it would stop every other person's client on a *wrong secret*: the
            # host holds the key, so it refuses the seed, and the party counts as absent at
            # the reveal unless the right one comes in time (9.5 step 8).
            raise TableError(
                ErrorCode.BAD_FIELD, "the seed does not give the key this party published"
            )
        self._commit("blind_reveal", {"seat": seat, "seed": seed})

    def play(
        self,
        seat: int,
        move_id: int | None,
        after: int,
        card: int,
        captured: int,
        *,
        pos: int | None = None,
        proof: bytes | None = None,
    ) -> tuple[int, bool]:
        """A person's play carries its deck position and proof; the host checks the proof
        (the card is the one the position holds) before the rules."""
        s = self.seats[seat]
        if move_id is not None and move_id in s.moves:
            return self._repeated_move(s, move_id, card, captured), True
        if after < s.state_seq:
            raise TableError(
                ErrorCode.STALE,
                f"the game moved on after seq {after}; catch up to {s.seq}",
                current_seq=s.seq,
            )
        b = self.blind_round
        rnd = self.match.round if self.match else None
        if self.phase is not Phase.PLAY or rnd is None or b is None:
            raise TableError(ErrorCode.WRONG_PHASE, "there is no round in play")
        if rnd.turn != seat:
            raise TableError(ErrorCode.NOT_YOUR_TURN, f"it is seat {rnd.turn}'s turn")
        if b.party_of(seat) == 0 and move_id is not None:
            raise TableError(
                ErrorCode.NOT_YOUR_TURN,
                "a computer plays this seat for the host this round (it began while you were "
                "away); you play again from the next round",
            )
        if b.party_of(seat) == 0 and pos is None:  # a computer player: the host plays it
            pos = next((p for p, c in b.party.owned.items() if c == card), None)
            if pos is None:
                raise TableError(ErrorCode.ILLEGAL_PLAY, f"seat {seat} holds no card {card}")
            proof = b.party.prove_play(pos, card)
        if pos is None or proof is None:
            raise TableError(ErrorCode.BAD_FIELD, "a play at a blind table needs pos and proof")
        code = play_code(card, captured)
        try:
            b.party.check_play(seat, pos, code, proof)
        except BlindCheckError as exc:
            raise TableError(ErrorCode.ILLEGAL_PLAY, str(exc), reason="not_in_hand") from None
        trial = rnd.copy()
        try:
            learn(trial, dict(b.known), pos, card)
            trial.resolve(Play.from_code(code), seat, exact=True)
        except (IllegalPlayError, ValueError) as exc:
            reason = exc.reason.name.lower() if isinstance(exc, IllegalPlayError) else None
            raise TableError(ErrorCode.ILLEGAL_PLAY, str(exc), reason=reason) from None
        self._commit(
            "play",
            {
                "seat": seat,
                "move_id": move_id,
                "card": card,
                "captured": captured,
                "pos": pos,
                "proof": proof,
            },
        )
        return self.last_played_seq, False

    def close_seeds(self) -> None:
        """The deadline passed with seats still owing: at the round's end, reveal with the
        seeds that came; before it, the round is void, naming the first seat awaited."""
        if not self.waits_on_seats:
            raise TableError(ErrorCode.WRONG_PHASE, "nothing is awaited from the seats")
        self._commit("close_seeds", {})

    # --- applying ---------------------------------------------------------------------------

    def _apply_round(self, round_id: bytes, host_seed: bytes) -> None:
        persons = [s for s in range(self.rules.players) if self._person(s)]
        if not persons:  # from a journal written before needs_round waited for a person
            return
        self.seen_round_ids.add(round_id)
        # A seat sitting out is a computer's from the next round (9.6, 9.7), unless nobody
        # else is a person: a blind round needs one, so it waits for them.
        people = tuple(s for s in persons if s not in self.sitting_out) or tuple(persons)
        self.round_start = {  # every seat: a newcomer may take one before the deal
            s: RoundStart(self.seats[s].seq, self.snapshot(s)) for s in range(self.rules.players)
        }
        self.round_no += 1
        party = BlindParty(self.rules, round_id, 0, people, host_seed)
        digest = blind_digest(round_id, people, party.key)
        sig = sign(
            self._key,
            commit_message(round_id, self.round_no, self.chain, digest, self._rules_digest),
        )
        b = BlindState(party, self.round_no, self.chain, sig, [party.key] + [None] * len(people))
        b.seeds = [None] * party.parties
        self.blind_round = b
        self.round = None
        self.phase = Phase.KEYS
        round_no, prev, key = self.round_no, self.chain, key_info(party.key)
        self._broadcast(
            lambda seq, _: m.BlindRound(
                seq=seq,
                round_id=round_id,
                round_no=round_no,
                prev=prev,
                people=people,
                key=key,
                sig=sig,
            ),
            state=True,
        )
        self._advance_blind()

    def _apply_blind_key(self, seat: int, point: bytes, proof: bytes, sign_key: bytes) -> None:
        b = self.blind_round
        assert b is not None
        b.keys[b.party_of(seat)] = PartyKey(point, proof, sign_key)
        self._advance_blind()

    def _apply_blind_shuffle(
        self, seat: int, deck: list[bytes], sig: bytes, proof: bytes | None = None
    ) -> None:
        if proof is None:  # journaled by a host from before shuffle proofs (protocol 2)
            raise OlderJournalError(
                f"table {self.table_id}: its blind rounds were journaled by an older "
                "scopa-net, before shuffles carried proofs"
            )
        b = self.blind_round
        assert b is not None
        p = b.party_of(seat)
        # Checked before it was journaled (blind_shuffle): not again, here or on a restart.
        b.party.take_deck(p, tuple(deck), proof, sig, proof_checked=True)
        self._deck_event(p, tuple(deck), proof, sig)
        self._advance_blind()

    def _apply_blind_shares(self, seat: int, deal: int, shares: list[bytes], sig: bytes) -> None:
        b = self.blind_round
        assert b is not None
        b.shares[b.party_of(seat)] = (tuple(shares), sig)
        self._advance_blind()

    def _apply_blind_reveal(self, seat: int, seed: bytes) -> None:
        b = self.blind_round
        assert b is not None
        b.seeds[b.party_of(seat)] = seed
        if self._round_live():  # the seat stopped on a failed check (9.6)
            self.sitting_out.add(seat)
            self._void(VOID_FAILED_CHECK, seat)
            return
        self._advance_blind()

    def _apply_close_seeds(self) -> None:
        b = self.blind_round
        assert b is not None
        if not self.waits_on_seats:
            return  # a journal written when the host revealed only at the deadline
        waiting = [seat for seat, _ in self.to_act()]
        # Connected, yet silent past the deadline: as if stepped away, from the next round
        # (9.7), so that one silent client cannot void every round of the match.
        self.sitting_out.update(s for s in waiting if self.seats[s].connected)
        if self.phase is Phase.SEEDS:
            self._reveal_blind()
            return
        self._void_absent(waiting[0] if waiting else b.people[0])

    def _apply_status(self, seat: int, connected: bool, stand_in: bool, grace: int) -> None:
        """A person whose grace period ended (a computer stands in from now on) cannot be
        played for in a blind round: the round in progress is void, naming them (9.7)."""
        super()._apply_status(seat, connected, stand_in, grace)
        b = self.blind_round
        if stand_in and b is not None and seat in b.people and self._round_live():
            self._void_absent(seat)

    def _apply_join(self, seat: int, name: str, token_hash: bytes) -> None:
        self.sitting_out.discard(seat)
        super()._apply_join(seat, name, token_hash)

    def _apply_resume(self, seat: int, token_hash: bytes, **kw: object) -> None:
        """The person is back: from the next round they play their seat again."""
        self.sitting_out.discard(seat)
        super()._apply_resume(seat, token_hash, **kw)  # type: ignore[arg-type]

    def _apply_leave(self, seat: int) -> None:
        b = self.blind_round
        live = b is not None and seat in b.people and self._round_live()
        super()._apply_leave(seat)
        if live:
            self._void_absent(seat)

    def _apply_away(self, seat: int) -> None:
        b = self.blind_round
        live = b is not None and seat in b.people and self._round_live()
        super()._apply_away(seat)
        if live:
            self._void_absent(seat)
        else:
            self._advance_seeds()  # a person stepped away at the round's end: not awaited

    def host_plays(self, seat: int) -> bool:
        """Also a person's seat, back at the table, in a round that began without them: its
        cards are the host's party's, so the computer plays the round out (9.7)."""
        b = self.blind_round
        sat_out = b is not None and seat not in b.people and self._round_live()
        return sat_out or super().host_plays(seat)

    def _round_live(self) -> bool:
        return self.phase in (Phase.KEYS, Phase.SHUFFLE, Phase.OPEN, Phase.PLAY)

    def _advance_seeds(self) -> None:
        """Section 5's seeds are not used at a blind table; but a seat that stops being
        awaited (a computer stands in past the grace period, the seat opens) may be the last
        the round's end waited on: then the host reveals at once (9.7), as when everyone
        gone at once is past their grace period."""
        if self.blind_round is not None and self.phase is Phase.SEEDS:
            self._advance_blind()

    def _advance_blind(self) -> None:
        """Move on as soon as nothing is awaited from the people."""
        b = self.blind_round
        assert b is not None
        if self.phase is Phase.KEYS and not self.to_act():
            keys = tuple(k for k in b.keys if k is not None)
            b.party.take_keys(keys)
            infos = tuple(key_info(k) for k in keys)
            round_id = b.party.round_id
            if self.match is None:
                first = blind_first_dealer(round_id, keys, self.rules.players)
                self.match = Match(self.rules, first)
            dealer = self.match.dealer
            self._broadcast(
                lambda seq, _: m.BlindKeys(seq=seq, round_id=round_id, keys=infos, dealer=dealer),
                state=True,
            )
            b.party.start(dealer)
            signed = b.party.my_deck()
            self.phase = Phase.SHUFFLE
            self._deck_event(0, signed.deck, signed.proof, signed.sig)
        if self.phase is Phase.SHUFFLE and len(b.party.decks) == b.party.parties:
            self._open_deal(1)
        if self.phase is Phase.OPEN and not self.to_act():
            self._deal_blind()
        if self.phase is Phase.SEEDS and not self.to_act():
            self._reveal_blind()

    def _deck_event(self, party: int, deck: tuple[bytes, ...], proof: bytes, sig: bytes) -> None:
        round_id = self.blind_round.party.round_id  # type: ignore[union-attr]
        self._broadcast(
            lambda seq, _: m.BlindDeck(
                seq=seq, round_id=round_id, party=party, deck=deck, proof=proof, sig=sig
            ),
            state=True,
        )

    def _open_deal(self, k: int) -> None:
        b = self.blind_round
        assert b is not None
        b.opening = k
        own = b.party.open_deal(k)
        b.shares = {0: (own.shares, own.sig)}
        self.phase = Phase.OPEN
        round_id = b.party.round_id
        self._broadcast(
            lambda seq, _: m.BlindOpen(
                seq=seq, round_id=round_id, deal=k, shares=own.shares, sig=own.sig
            ),
            state=True,
        )

    def _deal_blind(self) -> None:
        """Every party's shares are in: relay them, read the table and the computer players'
        cards, and deal the engine (the first deal) or correct its guesses (later ones)."""
        b = self.blind_round
        assert b is not None and self.match is not None
        k = b.opening
        parties = range(b.party.parties)
        shares = tuple(b.shares[p][0] for p in parties)
        sigs = tuple(b.shares[p][1] for p in parties)
        try:
            opened = b.party.take_deal(k, shares, sigs)
        except BlindCheckError:
            opened = None  # a card opens to no card point here: a person's share is wrong
        stock = 40 - b.party.plan[k - 1].stop
        round_id = b.party.round_id
        self._broadcast(
            lambda seq, _: m.BlindDeal(
                seq=seq, round_id=round_id, deal=k, shares=shares, sigs=sigs, stock=stock
            ),
            state=True,
        )
        if opened is None:
            # The host's own party stops (9.6): the deal is relayed all the same, so that the
            # record holds the shares the reveal checks, and the round is void, naming no seat.
            self._void(VOID_FAILED_CHECK, None)
            return
        known = {c.pos: c.card for c in (*opened.table, *opened.hand)}
        if k == 1:
            dealt = self.match.deal([CARDS[c] for c in guessed_deck(known)])
            b.known = dict(known)
            self.dealt_round_no = self.round_no
            self.dealt_people = b.people
            if dealt.void:
                b.party.void(VOID_KINGS)
                self._broadcast(
                    lambda seq, _: m.RoundVoid(seq=seq, round_id=round_id, reason=VOID_KINGS),
                    state=True,
                )
                self._end_blind()
                return
        else:
            assert self.match.round is not None
            for pos, card in known.items():
                learn(self.match.round, b.known, pos, card)
        self.phase = Phase.PLAY

    def _apply_play(
        self,
        seat: int,
        move_id: int | None,
        card: int,
        captured: int,
        *,
        pos: int | None = None,
        proof: bytes | None = None,
    ) -> None:
        b = self.blind_round
        assert self.match is not None and self.match.round is not None and b is not None
        assert pos is not None and proof is not None
        code = play_code(card, captured)
        if b.party_of(seat) == 0:  # a computer player's proof, made again (replaying the journal)
            with contextlib.suppress(BlindCheckError):
                b.party.prove_play(pos, card)
        b.party.take_play(seat, pos, code, proof)
        learn(self.match.round, b.known, pos, card)
        sweep = self.match.push_code(code)
        self._broadcast(
            lambda seq, _: m.Played(
                seq=seq,
                seat=seat,
                card=card,
                captured=captured,
                sweep=sweep,
                pos=pos,
                salt=None,
                proof=proof,
            ),
            state=True,
        )
        played_seq = self.seats[seat].seq
        if move_id is not None:
            self.seats[seat].moves[move_id] = (played_seq, card, captured)
        self.last_played_seq = played_seq
        if b.party.played_out:
            self._end_round()
        elif b.party.hands_out():
            self._open_deal(len(b.party.deals) + 1)

    def _end_round(self) -> None:
        """The score sheet, then every party's seed (SEEDS), then the host's reveal."""
        assert self.match is not None and self.match.round is not None
        b = self.blind_round
        assert b is not None
        b.score = self.match.results[-1].totals
        self._score_sheet()
        self._end_blind()

    def _void_absent(self, seat: int) -> None:
        """Void the round in progress: ``seat``'s person is away past grace (9.7)."""
        self._void(VOID_ABSENT, seat)

    def _void(self, reason: str, seat: int | None) -> None:
        """Void the round in progress, ``absent`` (9.7) or ``failed_check`` (9.6), naming
        ``seat`` (None: the host's own party found the fault), then collect the seeds."""
        b = self.blind_round
        assert b is not None
        b.party.void(reason, seat)
        if (
            self.match is not None
            and self.match.round is not None
            and not self.match.round.finished
        ):
            self.match.round.void = True  # abandoned: the same dealer deals the next round
        round_id = b.party.round_id
        self._broadcast(
            lambda seq, _: m.RoundVoid(seq=seq, round_id=round_id, reason=reason, offender=seat),
            state=True,
        )
        self._end_blind()

    def _end_blind(self) -> None:
        b = self.blind_round
        assert b is not None
        b.seeds[0] = b.party.reveal()
        self.phase = Phase.SEEDS
        self._advance_blind()

    def _reveal_blind(self) -> None:
        """Relay every seed that came, check the round with them, sign the reveal."""
        b = self.blind_round
        assert b is not None
        seeds = tuple(b.seeds)
        round_id = b.party.round_id
        self._broadcast(
            lambda seq, _: m.BlindReveals(seq=seq, round_id=round_id, seeds=seeds), state=True
        )
        # A bad seed: the record (seeds kept) names the party at fault; every seat checks it.
        deck: tuple[int, ...] | None = None
        try:
            deck = b.party.take_reveals(seeds)
        except BlindCheckError as exc:
            if exc.party:  # proven at fault: sits out from the next round, as if stopped
                self.sitting_out.add(b.people[exc.party - 1])
        public = b.party.public_round(
            round_no=b.round_no, prev=b.prev, sig=b.sig, score=b.score, hand_seat=-1
        )
        chain = public.chain_hash()
        host_seed = seeds[0]
        assert host_seed is not None
        sig = sign(self._key, reveal_message(round_id, host_seed, chain))
        b.public = replace(public, reveal_sig=sig)
        self.blind_history.append(b.public)
        self.blind_decks.append(deck)
        self.chain = chain
        self._broadcast(
            lambda seq, _: m.RoundReveal(seq=seq, round_id=round_id, host_seed=host_seed, sig=sig),
            state=True,
        )
        self._match_end_or_between()

    def transcript_for(self, seat: int) -> Transcript:
        """Every finished round's public record, as any seat has it (for export), with the
        seat's hand as the revealed seeds show it (left out of a round whose seeds did not all
        come: nobody but the seat ever read it)."""
        match = self.match
        result = MatchResult(
            tuple(match.scores) if match else (0,) * self.rules.side_count,
            match.winner if match else None,
            self.end_sig,
        )
        return Transcript(
            self.rules,
            public_key_bytes(self._key),
            seat,
            tuple(
                replace(r, hand=_hand(r, deck, seat, self.rules))
                for r, deck in zip(self.blind_history, self.blind_decks, strict=True)
            ),
            result,
            blind=True,
        )

    def _new_match(self) -> None:
        super()._new_match()
        self.blind_round = None
        self.dealt_people = ()
        self.blind_history = []
        self.blind_decks = []
        self.round_start = {}


def _a_persons(snapshot: m.Snapshot, seat: int) -> bool:
    """Whether ``seat`` was a person's in ``snapshot`` (as a round began)."""
    return seat < len(snapshot.seats) and snapshot.seats[seat].kind == SeatKind.HUMAN.value
