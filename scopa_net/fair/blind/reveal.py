"""The round's end: with the parties' seeds revealed, re-derive and check the whole blind round.

For each party whose seed came: the seed gives the party's published key (*wrong secret*), its
deck is exactly its shuffle of the deck before it (*substituted card*, with the positions),
and each of its shares is its secret key times the position's ``U`` (*bad share*). When every
seed came, the deck's cards follow from the shuffles alone (position by position back through
every permutation to the open deck), and every card the record shows opened (table, hand,
plays) must be the one at its position. Each failure names the party at fault.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.dealing import deal_plan
from scopa_net.fair.blind import errors as checks
from scopa_net.fair.blind.cards import DECK_SIZE
from scopa_net.fair.blind.deck import Ciphertext, joint_key, open_deck, shuffle_deck
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.group import add, base_mul, mul
from scopa_net.fair.blind.party_secrets import PartySecrets
from scopa_net.fair.blind.plan import shared_positions
from scopa_net.fair.blind.record import BlindRound
from scopa_net.plays import CARD_FIELD
from scopa_net.rules import RuleSet


def party_secrets(record: BlindRound) -> list[PartySecrets | None]:
    """Each revealed seed's secrets, checked against the party's published key."""
    assert record.seeds is not None
    if len(record.seeds) != record.parties or len(record.keys) != record.parties:
        raise BlindCheckError(
            checks.WRONG_SECRET,
            f"{len(record.seeds)} seeds, {len(record.keys)} keys, {record.parties} parties",
        )
    out: list[PartySecrets | None] = []
    for p, seed in enumerate(record.seeds):
        if seed is None:
            out.append(None)
            continue
        try:
            secrets = PartySecrets(seed, record.round_id, p)
        except ValueError as exc:
            raise BlindCheckError(checks.WRONG_SECRET, str(exc), p) from None
        if secrets.key != record.keys[p]:
            raise BlindCheckError(
                checks.WRONG_SECRET, "its revealed seed does not give the key it published", p
            )
        out.append(secrets)
    return out


def check_shuffles(
    record: BlindRound, secrets: Sequence[PartySecrets | None], *, full: bool
) -> None:
    """Each revealed party's deck against its shuffle of the deck before it: the ``U`` halves
    only (one fixed-base multiplication a card), or, with ``full``, the whole ciphertexts."""
    joint = joint_key([k.point for k in record.keys])
    source = open_deck(joint)
    for p, deck in enumerate(record.decks):
        own = secrets[p]
        if own is not None:
            if full:
                expected = shuffle_deck(None if p == 0 else source, own, joint)
            else:
                expected = tuple(
                    Ciphertext(add(source[j].u, base_mul(own.rerandomizer(i))), deck[i].v)
                    for i, j in enumerate(own.perm)
                )
            wrong = [i for i in range(DECK_SIZE) if expected[i] != deck[i]]
            if wrong:
                raise BlindCheckError(
                    checks.SUBSTITUTED_CARD,
                    f"its deck is not its shuffle of the deck before it, at positions {wrong}",
                    p,
                )
        source = deck


def check_shares(
    record: BlindRound, rules: RuleSet, secrets: Sequence[PartySecrets | None]
) -> None:
    """Each revealed party's every share: its secret key times the position's ``U``."""
    if record.dealer is None or len(record.decks) != record.parties:
        return
    plan = deal_plan(rules, record.dealer)
    deck = record.decks[-1]
    for k, deal in enumerate(record.deals, 1):
        for p, shares in enumerate(deal.shares):
            own = secrets[p]
            if own is None or shares is None:
                continue
            positions = shared_positions(plan[k - 1], record.people, p)
            for pos, share in zip(positions, shares, strict=True):
                if mul(own.x, deck[pos].u) != share:
                    raise BlindCheckError(
                        checks.BAD_SHARE, f"deal {k}: its share for deck position {pos} is wrong", p
                    )


def deck_cards(secrets: Sequence[PartySecrets]) -> tuple[int, ...]:
    """Card by deck position, traced back through every shuffle to the open deck."""
    cards = []
    for pos in range(DECK_SIZE):
        i = pos
        for own in reversed(secrets):
            i = own.perm[i]
        cards.append(i)
    return tuple(cards)


def opened_cards(record: BlindRound) -> list[tuple[int, int, str]]:
    """(position, card, where) for every card the record shows opened."""
    return [
        *((c.pos, c.card, "hand") for c in record.hand),
        *((c.pos, c.card, "table") for c in record.table),
        *((p.pos, p.code & CARD_FIELD, f"seat {p.seat}'s play") for p in record.plays),
    ]


def check_revealed(record: BlindRound, rules: RuleSet) -> tuple[int, ...] | None:
    """Check every revealed party's part against its seed, naming the party at fault; with
    every seed, return the deck (card by position).

    The quick path, for a round played out with every seed: each shuffle's permutation and
    ``U`` halves re-derived, and every card opened in the round (every position, in a round
    played out) is the card the shuffles put there. Anything else (a mismatch, a void, a
    missing seed) takes the full path: every ciphertext of every shuffle and every share
    re-derived, so the party at fault is named.
    """
    secrets = party_secrets(record)
    check_shuffles(record, secrets, full=False)
    complete = all(s is not None for s in secrets) and len(record.decks) == record.parties
    mismatch = None
    cards = None
    if complete:
        cards = deck_cards([s for s in secrets if s is not None])
        opened = opened_cards(record)
        for pos, card, what in opened:
            if cards[pos] != card:
                mismatch = (
                    f"{what}: deck position {pos} holds card {cards[pos]}, but card {card} was "
                    "opened there"
                )
                break
        if mismatch is None and len({pos for pos, _, _ in opened}) == DECK_SIZE:
            return cards
    check_shuffles(record, secrets, full=True)
    check_shares(record, rules, secrets)
    if mismatch is not None:
        raise BlindCheckError(checks.SUBSTITUTED_CARD, mismatch)
    return cards
