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
from scopa_net.fair.blind.group import ONE, add, base_mul, mul, scalar_add, scalar_mul
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


def joint_secret(secrets: Sequence[PartySecrets | None]) -> bytes | None:
    """``y``, the secret of the joint key (the sum of every party's ``x``), once every seed
    came; None while one is missing."""
    total: bytes | None = None
    for own in secrets:
        if own is None:
            return None
        total = own.x if total is None else scalar_add(total, own.x)
    return total


def check_shuffles(record: BlindRound, secrets: Sequence[PartySecrets | None]) -> None:
    """Each revealed party's deck against its shuffle of the deck before it, in party order:
    the first that is not names its party (*substituted card*, with the positions).

    With every seed the joint secret ``y`` is known, so ``r·Y`` is ``(r·y)·B``: the whole
    ciphertext is re-derived with fixed-base multiplications only, the same check as the
    one without it (9.9 step 6)."""
    joint = joint_key([k.point for k in record.keys])
    y = joint_secret(secrets)
    source = open_deck(joint)
    for p, deck in enumerate(record.decks):
        own = secrets[p]
        if own is not None:
            if y is None:
                expected = shuffle_deck(None if p == 0 else source, own, joint)
            else:
                expected = tuple(
                    Ciphertext(
                        add(source[j].u, base_mul(own.rerandomizer(i))),
                        add(source[j].v, base_mul(scalar_mul(own.rerandomizer(i), y))),
                    )
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


def u_scalars(secrets: Sequence[PartySecrets]) -> tuple[bytes, ...]:
    """With every seed: ``U`` of the last deck at each position as a multiple of ``B`` (the
    open deck's is 1; each shuffle adds its re-randomizer)."""
    u = [ONE] * DECK_SIZE
    for own in secrets:
        u = [scalar_add(u[j], own.rerandomizer(i)) for i, j in enumerate(own.perm)]
    return tuple(u)


def check_shares(
    record: BlindRound, rules: RuleSet, secrets: Sequence[PartySecrets | None]
) -> None:
    """Each revealed party's every share is its secret key times the position's ``U``: deal
    by deal, in party order within a deal and position order within a party; the first that
    is not names its party (*bad share*). With every seed (and every deck checked before),
    ``x·U`` is ``(x·u)·B``, fixed-base."""
    if record.dealer is None or len(record.decks) != record.parties:
        return
    plan = deal_plan(rules, record.dealer)
    deck = record.decks[-1]
    every = [s for s in secrets if s is not None]
    u = u_scalars(every) if len(every) == len(secrets) else None
    for k, deal in enumerate(record.deals, 1):
        for p, shares in enumerate(deal.shares):
            own = secrets[p]
            if own is None or shares is None:
                continue
            positions = shared_positions(plan[k - 1], record.people, p)
            for pos, share in zip(positions, shares, strict=True):
                want = mul(own.x, deck[pos].u) if u is None else base_mul(scalar_mul(own.x, u[pos]))
                if want != share:
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

    In 9.9 step 6's order, the first failure the verdict: every seed against its party's
    key (party order), every revealed party's deck (party order), every revealed party's
    shares (deal, then party, then position), then with every seed each card the record shows
    opened against the card the shuffles put there (*substituted card*, naming no party).
    With every seed the checks use fixed-base multiplications only (:func:`check_shuffles`,
    :func:`check_shares`): the same checks, at a third of the cost.
    """
    secrets = party_secrets(record)
    check_shuffles(record, secrets)
    check_shares(record, rules, secrets)
    if not all(s is not None for s in secrets) or len(record.decks) != record.parties:
        return None
    cards = deck_cards([s for s in secrets if s is not None])
    for pos, card, what in opened_cards(record):
        if cards[pos] != card:
            raise BlindCheckError(
                checks.SUBSTITUTED_CARD,
                f"{what}: deck position {pos} holds card {cards[pos]}, but card {card} was "
                "opened there",
            )
    return cards
