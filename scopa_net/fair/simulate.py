"""A whole match played through the commit-reveal flow, producing every seat's transcript.

Everything random (host key, round ids, host and seat seeds, the plays) comes from one seeded
:class:`random.Random`, so a seed always gives the same match. Each seat checks every card it
receives on arrival, as a real client does. :func:`reseal` re-signs an altered transcript as a
dishonest host would, so tests can check that a fault is caught by its own check and not only
by a broken signature.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net.cards import CARDS
from scopa_net.dealing import TABLE, seat_positions
from scopa_net.fair.commitments import (
    ZERO_CHAIN,
    ArrivalCheck,
    HostDeck,
    commit_message,
    end_message,
    joint_seed,
    public_key_bytes,
    receipt_message,
    reveal_message,
    rules_hash,
    seat_commitment,
    sign,
)
from scopa_net.fair.shuffle import first_dealer
from scopa_net.fair.transcript import (
    SEATED_FORMAT_VERSION,
    SEATED_PERSON,
    VOID_KINGS,
    DealtCard,
    MatchResult,
    PlayEntry,
    Receipt,
    RoundRecord,
    Transcript,
    VoidNotice,
)
from scopa_net.match import Match
from scopa_net.plays import CARD_FIELD
from scopa_net.round import Round
from scopa_net.rules import RuleSet

VOID_NO_REVEAL = "no_reveal"
"""The exclusion of a seat that did not reveal its seed in time (the round goes on)."""
MAX_ROUNDS = 500


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    rules: RuleSet
    host_private_key: Ed25519PrivateKey
    transcripts: tuple[Transcript, ...]
    """One transcript per seat, by seat."""
    match: Match


def simulate_match(
    rules: RuleSet,
    seed: int,
    *,
    max_rounds: int | None = None,
    no_reveal: Mapping[int, int] | None = None,
) -> SimulatedMatch:
    """Play a match to its end (or ``max_rounds`` rounds, void ones included) with random legal
    plays. ``no_reveal`` maps round numbers to a seat that fails to reveal its seed there: it
    is excluded from that round's joint seed and the round is played all the same."""
    rng = random.Random(seed)
    no_reveal = no_reveal or {}
    key = Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    rules_digest = rules_hash(rules)
    players = rules.players
    match: Match | None = None
    prev = ZERO_CHAIN
    rounds: list[list[RoundRecord]] = [[] for _ in range(players)]
    round_no = 0
    limit = MAX_ROUNDS if max_rounds is None else max_rounds
    while round_no < limit and not (match is not None and match.over):
        round_no += 1
        round_id = rng.randbytes(16)
        host = HostDeck.derive(rng.randbytes(32), round_id)
        sig = sign(key, commit_message(round_id, round_no, prev, host.digest, rules_digest))
        seeds = [rng.randbytes(32) for _ in range(players)]
        commits = tuple(seat_commitment(round_id, s, seed) for s, seed in enumerate(seeds))
        public = dataclasses.replace(
            RoundRecord.opened(
                round_id=round_id,
                round_no=round_no,
                prev=prev,
                card_hashes=host.card_hashes,
                digest=host.digest,
                sig=sig,
            ),
            commits=commits,
            seated=(SEATED_PERSON,) * players,
            host_seed=host.host_seed,
        )
        left_out = no_reveal.get(round_no)
        shown = tuple(None if s == left_out else seed for s, seed in enumerate(seeds))
        joint = joint_seed(round_id, host.digest, [x for x in shown if x is not None])
        checks = [ArrivalCheck(round_id, host.card_hashes, joint) for _ in range(players)]
        if match is None:
            match = Match(rules, first_dealer(joint, round_id, players))
        plays, hands, table, rnd = _deal_and_play(rules, match, host, checks, rng)
        public = dataclasses.replace(
            public,
            seeds=shown,
            excluded=tuple(VOID_NO_REVEAL if s == left_out else None for s in range(players)),
            table=table,
            plays=plays,
            void=VoidNotice(VOID_KINGS, None) if rnd.void else None,
            score=None if rnd.void else match.results[-1].totals,
        )
        chain = public.chain_hash()
        public = dataclasses.replace(
            public, reveal_sig=sign(key, reveal_message(round_id, host.host_seed, chain))
        )
        prev = chain
        for seat in range(players):
            rounds[seat].append(dataclasses.replace(public, hand=hands[seat]))
    if match is None:
        match = Match(rules)
    end_sig = None
    if match.over:
        end_sig = sign(key, end_message(prev, match.scores, match.winner))
    result = MatchResult(tuple(match.scores), match.winner, end_sig)
    host_key = public_key_bytes(key)
    transcripts = tuple(
        Transcript(
            rules,
            host_key,
            seat,
            tuple(rounds[seat]),
            result,
            plain_version=SEATED_FORMAT_VERSION,
        )
        for seat in range(players)
    )
    return SimulatedMatch(rules, key, transcripts, match)


def _deal_and_play(
    rules: RuleSet,
    match: Match,
    host: HostDeck,
    checks: list[ArrivalCheck],
    rng: random.Random,
) -> tuple[tuple[PlayEntry, ...], list[tuple[DealtCard, ...]], tuple[DealtCard, ...], Round]:
    """Deal one shuffled round, every seat checking its cards, and play it out at random."""
    perm = checks[0].perm
    deck = host.deck(perm)
    rnd = match.deal([CARDS[i] for i in deck])

    def dealt(pos: int) -> DealtCard:
        card, salt = host.dealt(perm, pos)
        return DealtCard(pos, card, salt)

    def positions(target: int) -> list[int]:
        return seat_positions(rules, rnd.dealer, target, first_deal_only=rnd.void)

    table = tuple(dealt(pos) for pos in positions(TABLE))
    hands = [tuple(dealt(pos) for pos in positions(seat)) for seat in range(rules.players)]
    for hand, check in zip(hands, checks, strict=True):
        for c in (*hand, *table):
            check.check(c.pos, c.card, c.salt)
    where = {card: pos for pos, card in enumerate(deck)}
    plays = []
    while not rnd.finished:
        seat = rnd.turn
        codes = rnd.legal_codes()
        code = codes[rng.randrange(len(codes))]
        played = dealt(where[code & CARD_FIELD])
        for check in checks:
            check.check(played.pos, played.card, played.salt)
        plays.append(PlayEntry(seat, code, played.pos, played.salt))
        match.push_code(code)
    return tuple(plays), hands, table, rnd


def reseal(transcript: Transcript, key: Ed25519PrivateKey) -> Transcript:
    """Re-link and re-sign every round, as a dishonest host signing what it altered would."""
    rules_digest = rules_hash(transcript.rules)
    prev = ZERO_CHAIN
    rounds = []
    for r in transcript.rounds:
        message = commit_message(r.round_id, r.round_no, prev, r.digest, rules_digest)
        r = dataclasses.replace(r, prev=prev, sig=sign(key, message))
        if r.receipt is not None:
            signed = receipt_message(r.round_id, transcript.seat, r.receipt.seed_hash)
            r = dataclasses.replace(r, receipt=Receipt(r.receipt.seed_hash, sign(key, signed)))
        if r.host_seed is not None:
            chain = r.chain_hash()
            r = dataclasses.replace(
                r, reveal_sig=sign(key, reveal_message(r.round_id, r.host_seed, chain))
            )
        prev = r.chain_hash()
        rounds.append(r)
    result = transcript.result
    if result.sig is not None or result.winner is not None:
        result = dataclasses.replace(
            result, sig=sign(key, end_message(prev, result.scores, result.winner))
        )
    return dataclasses.replace(
        transcript, host_key=public_key_bytes(key), rounds=tuple(rounds), result=result
    )
