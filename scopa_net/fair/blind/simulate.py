"""Blind rounds and matches played in one process, every party honest unless a test says not.

:class:`BlindTable` runs one round step by step (keys, shuffles, each deal, each play, the
reveal) with one :class:`~scopa_net.fair.blind.party.BlindParty` per party, relaying every
message to every party as the host would; a test swaps in a dishonest party to see which check
catches it. :func:`simulate_blind_match` plays whole matches with random legal plays and gives
every seat's transcript (version 4). Everything random comes from one seeded
:class:`random.Random`. The harness knows every card (it plays all the seats), but each party
learns only what its messages tell it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net.cards import CARDS
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.party import BlindParty
from scopa_net.fair.blind.plan import owner
from scopa_net.fair.blind.record import (
    VOID_FAILED_CHECK,
    BlindRound,
    blind_digest,
    blind_first_dealer,
)
from scopa_net.fair.commitments import (
    ZERO_CHAIN,
    commit_message,
    end_message,
    public_key_bytes,
    reveal_message,
    rules_hash,
    sign,
)
from scopa_net.fair.transcript import VOID_KINGS, MatchResult, Transcript
from scopa_net.match import Match
from scopa_net.plays import CARD_FIELD
from scopa_net.round import Round
from scopa_net.rules import RuleSet

PartyFactory = Callable[[RuleSet, bytes, int, Sequence[int], bytes], BlindParty]


class BlindTable:
    """One blind round among in-process parties; the host's relaying is a loop over them."""

    def __init__(
        self,
        rules: RuleSet,
        rng: random.Random,
        people: Sequence[int],
        *,
        make: dict[int, PartyFactory] | None = None,
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.people = tuple(people)
        self.round_id = rng.randbytes(16)
        make = make or {}
        self.parties = [
            make.get(p, BlindParty)(rules, self.round_id, p, self.people, rng.randbytes(32))
            for p in range(len(self.people) + 1)
        ]
        self.deck: tuple[int, ...] = ()

    @property
    def host(self) -> BlindParty:
        return self.parties[0]

    def keys_and_shuffle(self, dealer: int | None) -> int:
        """Keys to everyone, the dealer (from the keys when None), then every shuffle in turn.
        Returns the dealer."""
        keys = [p.key for p in self.parties]
        for party in self.parties:
            party.take_keys(keys)
        if dealer is None:
            dealer = blind_first_dealer(self.round_id, keys, self.rules.players)
        for party in self.parties:
            party.start(dealer)
        for shuffler in self.parties:
            signed = shuffler.my_deck()
            for party in self.parties:
                if party is not shuffler:
                    party.take_deck(shuffler.party, signed.deck, signed.proof, signed.sig)
        return dealer

    def trace_deck(self) -> tuple[int, ...]:
        """The cards by position, as only the harness can know them (all seeds at hand)."""
        cards = []
        for pos in range(40):
            i = pos
            for party in reversed(self.parties):
                i = party.secrets.perm[i]
            cards.append(i)
        self.deck = tuple(cards)
        return self.deck

    def open_deal(self, k: int) -> None:
        """Deal ``k`` as 9.5.6 opens it: the host's shares to every other party first
        (``blind_open``), then every other party's, then all of them to everyone."""
        first = self.host.open_deal(k)
        for party in self.parties[1:]:
            party.take_open(k, first.shares, first.sig)
        signed = [first, *(p.open_deal(k) for p in self.parties[1:])]
        for party in self.parties:
            party.take_deal(k, [s.shares for s in signed], [s.sig for s in signed])

    def play(self, seat: int, code: int) -> None:
        pos = self.deck.index(code & CARD_FIELD)
        by = self.parties[owner(seat, self.people)]
        proof = by.prove_play(pos, code & CARD_FIELD)
        for party in self.parties:
            party.take_play(seat, pos, code, proof)

    def stop(self, seat: int | None) -> None:
        """A seat stopped on a failed check: every party voids the round, so all may reveal."""
        for party in self.parties:
            party.void(VOID_FAILED_CHECK, seat)

    def reveal(self, absent: Sequence[int] = ()) -> tuple[int, ...] | None:
        """Every party's seed (None for the parties in ``absent``) to every present party."""
        seeds = [None if p.party in absent else p.reveal() for p in self.parties]
        decks, errors = [], []
        for party in self.parties:
            if party.party not in absent:
                try:
                    decks.append(party.take_reveals(seeds))
                except BlindCheckError as exc:  # every party gets the seeds; the first fault
                    errors.append(exc)
        if errors:
            raise errors[0]
        return decks[0]

    def transcript(self, key: Ed25519PrivateKey, seat: int) -> Transcript:
        """A one-round transcript of this table for ``seat``, signed by ``key`` as the host."""
        host = self.host
        rules_digest = rules_hash(self.rules)
        digest = blind_digest(self.round_id, self.people, host.key)
        sig = sign(key, commit_message(self.round_id, 1, ZERO_CHAIN, digest, rules_digest))
        party = self.parties[owner(seat, self.people)]
        record = party.public_round(round_no=1, sig=sig, hand_seat=seat)
        if record.seeds is not None and record.seeds[0] is not None:
            chain = record.chain_hash()
            signed = sign(key, reveal_message(self.round_id, record.seeds[0], chain))
            record = dataclasses.replace(record, reveal_sig=signed)
        result = MatchResult((0,) * self.rules.side_count, None, None)
        return Transcript(self.rules, public_key_bytes(key), seat, (record,), result, blind=True)


def play_round(table: BlindTable, match: Match, rng: random.Random) -> Round:
    """Shuffle, deal and play one round of ``match`` at random, every party checking."""
    table.keys_and_shuffle(match.dealer)
    rnd = match.deal([CARDS[i] for i in table.trace_deck()])
    table.open_deal(1)
    if rnd.void:
        for party in table.parties:
            party.void(VOID_KINGS)
        return rnd
    deals = 1
    while not rnd.finished:
        if table.host._hands_played_out(deals):
            deals += 1
            table.open_deal(deals)
        seat = rnd.turn
        codes = rnd.legal_codes()
        code = codes[rng.randrange(len(codes))]
        table.play(seat, code)
        match.push_code(code)
    return rnd


@dataclass(frozen=True, slots=True)
class BlindMatch:
    rules: RuleSet
    host_private_key: Ed25519PrivateKey
    transcripts: tuple[Transcript, ...]
    """One transcript per seat played by a person, by seat."""
    match: Match


def simulate_blind_match(
    rules: RuleSet,
    seed: int,
    *,
    people: Sequence[int] | None = None,
    max_rounds: int | None = None,
) -> BlindMatch:
    """A blind match played to its end (or ``max_rounds`` rounds) with random legal plays."""
    rng = random.Random(seed)
    key = Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    people = tuple(range(rules.players)) if people is None else tuple(people)
    rules_digest = rules_hash(rules)
    match: Match | None = None
    prev = ZERO_CHAIN
    rounds: dict[int, list[BlindRound]] = {seat: [] for seat in people}
    round_no = 0
    while (max_rounds is None or round_no < max_rounds) and not (match and match.over):
        round_no += 1
        table = BlindTable(rules, rng, people)
        digest = blind_digest(table.round_id, people, table.host.key)
        sig = sign(key, commit_message(table.round_id, round_no, prev, digest, rules_digest))
        if match is None:
            keys = [p.key for p in table.parties]
            match = Match(rules, blind_first_dealer(table.round_id, keys, rules.players))
        rnd = play_round(table, match, rng)
        table.reveal()
        score = None if rnd.void else match.results[-1].totals
        public = table.host.public_round(round_no=round_no, prev=prev, sig=sig, score=score)
        chain = public.chain_hash()
        reveal_sig = sign(key, reveal_message(table.round_id, public.seeds[0], chain))
        prev = chain
        for seat in people:
            mine = table.parties[owner(seat, people)].public_round(
                round_no=round_no, prev=public.prev, sig=sig, score=score, hand_seat=seat
            )
            rounds[seat].append(dataclasses.replace(mine, reveal_sig=reveal_sig))
    assert match is not None
    end_sig = sign(key, end_message(prev, match.scores, match.winner)) if match.over else None
    result = MatchResult(tuple(match.scores), match.winner, end_sig)
    host_key = public_key_bytes(key)
    transcripts = tuple(
        Transcript(rules, host_key, seat, tuple(rounds[seat]), result, blind=True)
        for seat in people
    )
    return BlindMatch(rules, key, transcripts, match)


def reseal_blind(transcript: Transcript, key: Ed25519PrivateKey) -> Transcript:
    """Re-link and re-sign every blind round, as a dishonest host signing what it altered
    would, so a test sees an alteration caught by its own check, not by a broken signature."""
    rules_digest = rules_hash(transcript.rules)
    prev = ZERO_CHAIN
    rounds = []
    for r in transcript.rounds:
        assert isinstance(r, BlindRound)
        message = commit_message(r.round_id, r.round_no, prev, r.digest, rules_digest)
        r = dataclasses.replace(r, prev=prev, sig=sign(key, message))
        if r.seeds is not None and r.seeds[0] is not None:
            signed = reveal_message(r.round_id, r.seeds[0], r.chain_hash())
            r = dataclasses.replace(r, reveal_sig=sign(key, signed))
        prev = r.chain_hash()
        rounds.append(r)
    result = transcript.result
    if result.sig is not None:
        result = dataclasses.replace(
            result, sig=sign(key, end_message(prev, result.scores, result.winner))
        )
    return dataclasses.replace(transcript, rounds=tuple(rounds), result=result)
