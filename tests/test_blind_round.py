"""Blind rounds played in one process: honest tables of every size, and dishonest parties,
each caught by the check that should catch it and named by the record."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest
from helpers import shift_a_table_card
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.cards import CARDS, KINGS_MASK
from scopa_net.dealing import TABLE
from scopa_net.fair.blind import errors as checks
from scopa_net.fair.blind import party as party_module
from scopa_net.fair.blind.cards import CARD_POINTS, card_of
from scopa_net.fair.blind.deck import Ciphertext, deck_message
from scopa_net.fair.blind.errors import BlindCheckError
from scopa_net.fair.blind.group import add, base_mul, hash_to_scalar, mul, sub
from scopa_net.fair.blind.party import BlindParty, SignedDeck, SignedShares, play_context
from scopa_net.fair.blind.plan import owner
from scopa_net.fair.blind.proofs import prove_dleq
from scopa_net.fair.blind.record import shares_message
from scopa_net.fair.blind.simulate import BlindTable, play_round
from scopa_net.match import Match
from scopa_net.rules import RuleSet


def new_table(players: int, seed: int, people: Sequence[int] | None = None, **kw) -> BlindTable:
    rng = random.Random(seed)
    people = tuple(range(players)) if people is None else tuple(people)
    return BlindTable(RuleSet.of(players), rng, people, **kw)


def play_out(table: BlindTable, seed: int) -> Match:
    match = Match(table.rules, 0)
    rnd = play_round(table, match, random.Random(seed))
    if rnd.void:
        return match
    assert rnd.finished
    return match


@pytest.mark.parametrize(
    ("players", "people"),
    [(2, (0, 1)), (3, (0, 2)), (4, (0, 1, 2, 3)), (6, (1, 4)), (6, tuple(range(6))), (4, ())],
)
def test_an_honest_round_deals_checks_and_reveals(players: int, people: tuple[int, ...]) -> None:
    """Every party reads exactly its own seats' cards and the table, every play is proven,
    and the reveal gives every party the same deck, matching what was played."""
    table = new_table(players, players * 7 + len(people), people)
    play_out(table, 1)
    deck = table.reveal()
    assert deck == table.deck
    assert sorted(deck) == list(range(40))
    for party in table.parties:
        for pos, card in party.owned.items():
            assert deck[pos] == card
        dealt = party._targets_so_far(len(party.plan))
        mine = {pos for pos, t in dealt.items() if t != TABLE and owner(t, people) == party.party}
        assert set(party.owned) == mine
    # Every card was played or laid on the table, and every party saw each exactly once.
    for party in table.parties:
        assert sorted(party.seen.values()) == list(range(40))
    chains = {p.public_round().chain_hash() for p in table.parties}
    assert len(chains) == 1, "every party holds the same public record"


def test_no_party_can_open_a_card_it_must_not_know() -> None:
    """Mid-round, each party tries to open every position with everything it holds: only its
    own seats' cards, the table and the cards played open. The host's state holds no other
    party's secret."""
    table = new_table(4, 11, (0, 2))  # seats 1 and 3 are computer players, owned by the host
    match = Match(table.rules, 0)
    table.keys_and_shuffle(0)
    rnd = match.deal([CARDS[i] for i in table.trace_deck()])
    table.open_deal(1)
    for _ in range(3):  # a few plays into the first deal
        code = rnd.legal_codes()[0]
        table.play(rnd.turn, code)
        match.push_code(code)
    for party in table.parties:
        x = party.secrets.x
        readable = set()
        for pos in range(40):
            u, v = party.deck[pos]
            published = party._published.get(pos, [])
            for extra in ([], [mul(x, u)]):
                point = v
                for share in [*published, *extra]:
                    point = sub(point, share)
                if card_of(point) is not None:
                    readable.add(pos)
        # Played cards are known from the play and its proof; no share opens them.
        assert readable == set(party.owned) | {c.pos for c in party.table}
        others = [p for p in table.parties if p is not party]
        held = _all_bytes(vars(party) | {"secrets": vars(party.secrets)})
        for other in others:
            assert other.secrets.seed not in held
            assert other.secrets.x not in held
    host = table.parties[0]
    played = {p.pos for p in host.plays}
    unplayed = [p for p, t in host._targets_so_far(1).items() if t in (0, 2) and p not in played]
    assert unplayed
    assert not set(unplayed) & (set(host.owned) | set(host.seen))


def _all_bytes(obj: object, depth: int = 0) -> set[bytes]:
    out: set[bytes] = set()
    if isinstance(obj, bytes):
        out.add(obj)
    elif isinstance(obj, dict) and depth < 6:
        for v in obj.values():
            out |= _all_bytes(v, depth + 1)
    elif isinstance(obj, (list, tuple, set)) and depth < 6:
        for v in obj:
            out |= _all_bytes(v, depth + 1)
    elif hasattr(obj, "__slots__") and depth < 6:
        for name in getattr(obj, "__slots__", ()):
            out |= _all_bytes(getattr(obj, name, None), depth + 1)
    return out


def test_no_deal_opens_early_and_no_owned_position_is_shared() -> None:
    table = new_table(2, 5)
    table.keys_and_shuffle(0)
    with pytest.raises(BlindCheckError, match="not due"):
        table.parties[1].open_deal(2)
    shares = table.parties[1].open_deal(1)
    deal = table.parties[1].plan[0]
    mine = [deal.start + i for i, t in enumerate(deal.targets) if t == 0]
    assert len(shares.shares) == len(deal.targets) - len(mine)
    signed = [p.open_deal(1) for p in table.parties]
    for p in table.parties:
        p.take_deal(1, [s.shares for s in signed], [s.sig for s in signed])
    with pytest.raises(BlindCheckError, match="before the hands are out"):
        table.parties[1].open_deal(2)


# --- dishonest parties -----------------------------------------------------------------


class Resigning(BlindParty):
    """A party that alters its own deck after shuffling and signs what it altered."""

    def alter(self, deck: list[Ciphertext]) -> None:
        raise NotImplementedError

    def my_deck(self) -> SignedDeck:
        proof = super().my_deck().proof  # the honest deck's: it proves nothing of this one
        deck = list(self.decks[-1])
        self.alter(deck)
        self.decks[-1] = tuple(deck)
        sig = self.secrets.sign(deck_message(self.round_id, self.party, deck, proof))
        self.deck_sigs[-1] = sig
        return SignedDeck(tuple(c.to_bytes() for c in deck), proof, sig)


class Substituting(Resigning):
    """Plants a fresh encryption of the settebello (a card it then knows) at position 0."""

    def alter(self, deck: list[Ciphertext]) -> None:
        r = hash_to_scalar(b"plant", b"1")
        settebello = next(c.index for c in CARDS if str(c) == "7d")
        deck[0] = Ciphertext(base_mul(r), add(CARD_POINTS[settebello], mul(r, self.joint)))


class Duplicating(Resigning):
    """Copies position 1's card over position 2, re-randomized so the copy looks new."""

    def alter(self, deck: list[Ciphertext]) -> None:
        r = hash_to_scalar(b"copy", b"1")
        u, v = deck[1]
        deck[2] = Ciphertext(add(u, base_mul(r)), add(v, mul(r, self.joint)))


class WrongShare(BlindParty):
    """Sends (and signs) a wrong share for the first position it shares in deal 1."""

    def open_deal(self, k: int) -> SignedShares:
        honest = super().open_deal(k)
        if k != 1:
            return honest
        shares = (mul(hash_to_scalar(b"x", b"2"), honest.shares[0]), *honest.shares[1:])
        self._sent[k] = shares
        sig = self.secrets.sign(shares_message(self.round_id, self.party, k, shares))
        return SignedShares(shares, sig)


class WrongSecret(BlindParty):
    def reveal(self) -> bytes:
        super().reveal()
        return bytes(32)


def open_every_card(table: BlindTable) -> None:
    """Deal every deal and play every hand card its owner read, in position order (no rules:
    the harness cannot know the cards a dishonest shuffle put in place), so every party sees
    every card."""
    table.keys_and_shuffle(0)
    for k in range(1, len(table.host.plan) + 1):
        table.open_deal(k)
        deal = table.host.plan[k - 1]
        for i, target in enumerate(deal.targets):
            if target == TABLE:
                continue
            pos = deal.start + i
            by = table.parties[owner(target, table.people)]
            card = by.owned[pos]
            proof = by.prove_play(pos, card)
            for party in table.parties:
                party.take_play(target, pos, card, proof)


def run_until_caught(table: BlindTable) -> BlindCheckError:
    with pytest.raises(BlindCheckError) as caught:
        open_every_card(table)
    return caught.value


@pytest.mark.parametrize("cheat", [Substituting, Duplicating])
@pytest.mark.parametrize("who", [0, 2])
def test_a_card_substituted_or_duplicated_in_a_shuffle_is_refused_on_arrival(
    cheat: type[BlindParty], who: int
) -> None:
    """The deck's proof no longer holds: the next party refuses it, naming its maker, before
    a card is dealt (the last to shuffle, party 2 here, included: 9.10)."""
    table = new_table(3, 21 + who, make={who: cheat})
    with pytest.raises(BlindCheckError) as caught:
        table.keys_and_shuffle(0)
    assert (caught.value.check, caught.value.party) == (checks.BAD_SHUFFLE_PROOF, who)
    assert not any(p.deals for p in table.parties)  # no card was opened


@pytest.mark.parametrize("cheat", [Substituting, Duplicating])
@pytest.mark.parametrize("who", [0, 2])
def test_a_card_substituted_past_an_unchecked_proof_is_caught_and_named(
    cheat: type[BlindParty], who: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were a deck's proof not checked (a version 3 record had none), the card still opens
    wrong and the reveal names the party that substituted it."""
    monkeypatch.setattr(party_module, "check_shuffle_proof", lambda claim, proof: True)
    table = new_table(3, 21 + who, make={who: cheat})
    caught = run_until_caught(table)
    assert caught.check in (checks.DUPLICATED_CARD, checks.NO_CARD)
    table.stop(0)
    with pytest.raises(BlindCheckError) as named:
        table.reveal()
    assert named.value.check == checks.SUBSTITUTED_CARD
    assert named.value.party == who


def test_a_wrong_share_is_caught_on_arrival_and_named_at_the_reveal() -> None:
    table = new_table(2, 31, make={1: WrongShare})
    caught = run_until_caught(table)
    assert caught.check == checks.NO_CARD
    table.stop(1)
    with pytest.raises(BlindCheckError) as named:
        table.reveal()
    assert (named.value.check, named.value.party) == (checks.BAD_SHARE, 1)


@pytest.mark.parametrize("players", [2, 4])
def test_the_host_cannot_choose_its_shares_after_reading_the_peoples(players: int) -> None:
    """9.5.6: the host's party sends its shares of a deal in ``blind_open``, before any
    person sends theirs. A host that reads the people's shares of a table card and relays,
    signed by its round key, a share of its own that turns that card into one of its choosing
    is refused by every person, naming the host (party 0); each person opens the true card,
    with the shares the host sent first, and its record keeps those."""
    table = new_table(players, 81)
    table.keys_and_shuffle(0)
    table.trace_deck()
    host, people = table.host, table.parties[1:]
    first = host.open_deal(1)
    for person in people:
        person.take_open(1, first.shares, first.sig)
    signed = [person.open_deal(1) for person in people]
    laid = table.deck[: host.plan[0].stop]
    pos, _, shares, sig = shift_a_table_card(
        host, 1, [first.shares, *(s.shares for s in signed)], avoid=laid
    )
    true_card = table.deck[pos]
    for person in people:
        with pytest.raises(BlindCheckError) as caught:
            person.take_deal(
                1, [shares, *(s.shares for s in signed)], [sig, *(s.sig for s in signed)]
            )
        assert (caught.value.check, caught.value.party) == (checks.BAD_SHARES, 0)
        assert "other shares of its own than the ones it sent" in str(caught.value)
        assert person.seen[pos] == true_card
        assert person.deals[0].shares[0] == first.shares
        assert person.deals[0].sigs[0] == first.sig
        assert person.deals[0].relayed == (shares, sig)  # the proof: both signed by the host
        assert caught.value.signed_both


def test_blind_open_is_checked_on_arrival() -> None:
    """A ``blind_open`` whose shares the host party did not sign, or of the wrong count, is
    a failed check naming the host; the same one again (a replay) is taken, another one for
    the same deal is not; an observer checks it too."""
    table = new_table(2, 91)
    table.keys_and_shuffle(0)
    table.trace_deck()
    person = table.parties[1]
    first = table.host.open_deal(1)
    other = table.parties[2].open_deal(1)
    cases = [
        (first.shares, other.sig, checks.BAD_SIGNATURE),
        (first.shares[1:], first.sig, checks.BAD_SHARES),
    ]
    for shares, sig, check in cases:
        with pytest.raises(BlindCheckError) as caught:
            person.take_open(1, shares, sig)
        assert (caught.value.check, caught.value.party) == (check, 0)
    person.take_open(1, first.shares, first.sig)
    person.take_open(1, first.shares, first.sig)  # sent again on a resume: the same
    swapped = (first.shares[1], first.shares[0], *first.shares[2:])
    resigned = table.host.secrets.sign(shares_message(table.round_id, 0, 1, swapped))
    with pytest.raises(BlindCheckError, match="opened it again with other shares"):
        person.take_open(1, swapped, resigned)
    with pytest.raises(BlindCheckError) as early:
        person.take_open(2, first.shares, first.sig)
    assert early.value.check == checks.OUT_OF_TURN
    observer = BlindParty(
        table.rules, table.round_id, 3, table.people, bytes(32), host_key=table.host.key
    )
    observer.take_keys([p.key for p in table.parties])
    observer.start(0)
    host = table.host
    for p, deck in enumerate(host.decks):
        observer.take_deck(p, [c.to_bytes() for c in deck], host.deck_proofs[p], host.deck_sigs[p])
    with pytest.raises(BlindCheckError) as seen:
        observer.take_open(1, first.shares, other.sig)
    assert (seen.value.check, seen.value.party) == (checks.BAD_SIGNATURE, 0)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_player_claiming_another_card_is_refused_at_play_time_and_named(seat: int) -> None:
    """The owner of a hand card names another card (one not seen yet) with the best proof it
    can make: every other party refuses the play and names it."""
    table = new_table(2, 41)
    table.keys_and_shuffle(0)
    table.trace_deck()
    table.open_deal(1)
    liar = table.parties[owner(seat, table.people)]
    pos = min(liar.owned)
    lie = next(c for c in range(40) if c not in liar.seen.values())
    u = liar.deck[pos].u
    forged = prove_dleq(
        liar.secrets.x,
        liar.secrets.public,
        u,
        mul(liar.secrets.x, u),
        play_context(table.round_id, liar.party, pos, lie),
    )
    for party in table.parties:
        if party is liar:
            continue
        with pytest.raises(BlindCheckError) as caught:
            party.take_play(seat, pos, lie, forged)
        assert (caught.value.check, caught.value.party) == (checks.BAD_PLAY, liar.party)
        # The honest proof of the real card is accepted.
        party.take_play(seat, pos, liar.owned[pos], liar.prove_play(pos, liar.owned[pos]))


def test_a_wrong_secret_at_the_reveal_is_named() -> None:
    table = new_table(3, 51, make={1: WrongSecret})
    play_out(table, 4)
    with pytest.raises(BlindCheckError) as named:
        table.reveal()
    assert (named.value.check, named.value.party) == (checks.WRONG_SECRET, 1)


def test_a_seat_that_stops_without_cause_is_named_by_the_verifier() -> None:
    """Covered end to end in test_blind_verify; here the parties accept the void and reveal,
    and every part checks out."""
    table = new_table(2, 61)
    table.keys_and_shuffle(0)
    table.trace_deck()
    table.open_deal(1)
    table.stop(1)
    assert table.reveal() == table.deck


def test_relayed_messages_cannot_be_altered() -> None:
    table = new_table(2, 71)
    keys = [p.key for p in table.parties]
    for p in table.parties:
        p.take_keys(keys)
        p.start(0)
    signed = table.parties[0].my_deck()
    deck = list(signed.deck)
    deck[0], deck[1] = deck[1], deck[0]
    with pytest.raises(BlindCheckError) as caught:
        table.parties[1].take_deck(0, deck, signed.proof, signed.sig)
    assert (caught.value.check, caught.value.party) == (checks.BAD_SIGNATURE, 0)
    # A seat's client holds the host key the signed blind_round committed.
    seat = BlindParty(table.rules, table.round_id, 1, table.people, bytes(32), host_key=keys[0])
    with pytest.raises(BlindCheckError, match="own key was relayed altered"):
        seat.take_keys([keys[0], table.parties[2].key, table.parties[2].key])
    with pytest.raises(BlindCheckError, match="not the one it committed"):
        seat.take_keys([table.parties[2].key, seat.key, table.parties[2].key])
    with pytest.raises(BlindCheckError, match=r"bad key \(party 2\): the key proof does not"):
        seat.take_keys([keys[0], seat.key, table.parties[1].key])


@settings(max_examples=6, deadline=None)
@given(st.sampled_from([2, 3, 4, 6]), st.data())
def test_any_set_of_people_plays_and_reveals(players: int, data: st.DataObject) -> None:
    """Whoever the people are (none, some, all), each party reads only its own seats' cards,
    every play is proven and the reveal gives the deck the harness dealt."""
    people = sorted(data.draw(st.sets(st.integers(0, players - 1))))
    table = new_table(players, data.draw(st.integers(0, 1000)), people)
    play_out(table, 2)
    assert table.reveal() == table.deck
    for party in table.parties:
        owned_seats = {s for s in range(players) if owner(s, people) == party.party}
        dealt = party._targets_so_far(len(party.plan))
        assert {dealt[pos] for pos in party.owned} <= owned_seats


@pytest.mark.parametrize("plays", [0, 5, 13])
def test_a_party_rebuilt_from_its_seed_and_the_record_carries_on(plays: int) -> None:
    """A client or host that restarts mid-round rebuilds its party from its seed and the
    public record (every item checked again) and plays on to the reveal."""
    table = new_table(2, 81 + plays, (0, 1))
    match = Match(table.rules, 0)
    table.keys_and_shuffle(0)
    rnd = match.deal([CARDS[i] for i in table.trace_deck()])
    table.open_deal(1)
    deals = 1
    rng = random.Random(plays)

    def play_one() -> None:
        nonlocal deals
        code = rnd.legal_codes()[rng.randrange(len(rnd.legal_codes()))]
        table.play(rnd.turn, code)
        match.push_code(code)
        if not rnd.finished and table.host._hands_played_out(deals):
            deals += 1
            table.open_deal(deals)

    for _ in range(plays):
        play_one()
    before = [p.public_round(hand_seat=None).chain_hash() for p in table.parties]
    table.parties = [
        BlindParty.rebuild(table.rules, p.public_round(), p.party, p.secrets.seed)
        for p in table.parties
    ]
    assert [p.public_round().chain_hash() for p in table.parties] == before
    while not rnd.finished:
        play_one()
    assert table.reveal() == table.deck


def test_a_rebuild_refuses_a_record_that_does_not_hold() -> None:
    table = new_table(2, 91, (0, 1))
    table.keys_and_shuffle(0)
    table.open_deal(1)
    host = table.host
    record = host.public_round()
    with pytest.raises(BlindCheckError, match="own key was relayed altered"):
        BlindParty.rebuild(table.rules, record, 0, bytes(32))  # not its seed
    deck = list(record.decks[1])
    deck[0], deck[1] = deck[1], deck[0]
    swapped = dataclasses.replace(record, decks=(record.decks[0], tuple(deck), *record.decks[2:]))
    with pytest.raises(BlindCheckError, match=r"bad party signature \(party 1\)"):
        BlindParty.rebuild(table.rules, swapped, 0, host.secrets.seed)


def test_a_void_is_taken_only_as_the_record_allows() -> None:
    table = new_table(2, 101, (0, 1))
    table.keys_and_shuffle(0)
    table.trace_deck()
    party = table.parties[1]
    with pytest.raises(BlindCheckError, match="only after the round"):
        party.reveal()
    table.open_deal(1)
    kings = sum(1 for c in party.table if (1 << c.card) & KINGS_MASK)
    assert kings < 3, "this seed's table is not a kings void"
    with pytest.raises(BlindCheckError, match=f"a kings void with {kings} kings"):
        party.void("kings")
    with pytest.raises(BlindCheckError, match="cannot be void as absent"):
        party.void("absent", 5)
    with pytest.raises(BlindCheckError, match="no such void reason"):
        party.void("bored")
    party.void("absent", 0)
    with pytest.raises(BlindCheckError, match="the round is void"):
        party.open_deal(2)
    assert len(party.reveal()) == 32


def test_check_play_records_nothing_and_hands_out_says_when_a_deal_is_due() -> None:
    table = new_table(2, 111, (0, 1))
    table.keys_and_shuffle(0)
    deck = table.trace_deck()
    table.open_deal(1)
    host = table.host
    assert not host.hands_out()
    deal = host.plan[0]
    firsts = [(deal.targets[i], deal.start + i) for i in range(2)]
    for seat, pos in firsts:
        by = table.parties[owner(seat, table.people)]
        proof = by.prove_play(pos, deck[pos])
        assert host.check_play(seat, pos, deck[pos], proof) == deck[pos]
        assert host.check_play(seat, pos, deck[pos], proof) == deck[pos]  # nothing recorded
        assert pos not in {p.pos for p in host.plays}
    for i, seat in enumerate(deal.targets):
        if seat != TABLE:
            table.play(seat, deck[deal.start + i])
    assert host.hands_out()


def test_a_partys_own_deck_relayed_back_altered_is_refused() -> None:
    """The host relays each party's deck to everyone, its maker included: a copy of it with
    another proof (or signature, or a card moved) is refused by its maker at once, so its
    record never differs from what it sent."""
    table = new_table(2, 81)
    keys = [p.key for p in table.parties]
    for p in table.parties:
        p.take_keys(keys)
        p.start(0)
    host, person = table.parties[0], table.parties[1]
    first = host.my_deck()
    person.take_deck(0, first.deck, first.proof, first.sig)
    mine = person.my_deck()
    altered = [
        (mine.deck, first.proof, mine.sig),
        (mine.deck, mine.proof, first.sig),
        ((mine.deck[1], mine.deck[0], *mine.deck[2:]), mine.proof, mine.sig),
    ]
    for deck, proof, sig in altered:
        with pytest.raises(BlindCheckError, match="own deck was relayed altered"):
            person.take_deck(1, deck, proof, sig)
    person.take_deck(1, mine.deck, mine.proof, mine.sig)  # as it sent it: taken
