"""Blind matches over real loopback TCP: a host, people as network sessions, computer players.

How these tests show that the host never knows a person's card before it is played:

- *The host's memory.* After every input the host's table applies, every value reachable from
  the blind round it holds (its party, the keys, decks, shares and seeds it keeps) is searched
  for each person's seed and secret key (taken from that person's client, in this process):
  none is there until the round is over; and for every deck position a person owns that is
  not yet played, the shares the host's party holds (its own included) do not open it to any
  card.
- *Every frame.* Each person's connection is tapped; every frame either way is decoded, and for
  every position a person owns, all the shares for it in any frame (to the host, or from it to
  any seat) are summed: the position still opens to no card. With the owner's secret, revealed
  after the round, it opens to exactly the card played from it: so the one missing piece is the
  owner's share, which no frame ever carries.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
import trio
from blind_document_verifier import verify as document_verify
from helpers import no_kings_void, one_wrong_share, shift_a_table_card
from hosting import Through, create

from scopa_net import blind_witness
from scopa_net.blind_witness import BlindWitness
from scopa_net.bots.levels import make_player
from scopa_net.cards import KINGS_MASK
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    DealCheckFailedError,
    NetworkSession,
    TableChoice,
    open_network_session,
)
from scopa_net.client.session import Message
from scopa_net.commands.main import main as cli_main
from scopa_net.dealing import TABLE, deal_plan
from scopa_net.errors import IllegalPlayError
from scopa_net.fair.blind.cards import CARD_POINTS, card_of
from scopa_net.fair.blind.deck import Ciphertext, deck_message, parse_deck
from scopa_net.fair.blind.group import add, base_mul, hash_to_scalar, mul, sub
from scopa_net.fair.blind.party import SignedDeck
from scopa_net.fair.blind.party_secrets import PartySecrets
from scopa_net.fair.blind.plan import owner, shared_positions
from scopa_net.fair.blind.record import blind_first_dealer
from scopa_net.fair.blind.reveal import deck_cards
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.errors import FairnessError
from scopa_net.fair.transcript import VoidNotice
from scopa_net.rules import RuleSet
from scopa_net.server import blind_table
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.host import Host
from scopa_net.server.table import Phase
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode
from scopa_net.wire.framing import FrameReader


class Tap(Through):
    """A connection that keeps a copy of every byte either way."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self.sent = bytearray()
        self.got = bytearray()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += data
        await self.inner.send_all(data)

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.inner.receive_some(max_bytes)
        self.got += data
        return data


def frames(data: bytes) -> list[m.Message]:
    reader = FrameReader()
    reader.receive_data(bytes(data))
    out = []
    while isinstance(payload := reader.next_frame(), bytes):
        out.append(decode(payload))
    return out


def reachable_bytes(obj: object, seen: set[int] | None = None) -> Iterator[bytes]:
    """Every bytes value reachable from ``obj`` through attributes and containers."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, bytes | bytearray):
        yield bytes(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from reachable_bytes(k, seen)
            yield from reachable_bytes(v, seen)
    elif isinstance(obj, list | tuple | set | frozenset):
        for v in obj:
            yield from reachable_bytes(v, seen)
    elif hasattr(obj, "__dict__") or hasattr(obj, "__slots__"):
        names = list(getattr(obj, "__dict__", {}))
        for cls in type(obj).__mro__:
            names += list(getattr(cls, "__slots__", ()))
        for name in names:
            if hasattr(obj, name):
                yield from reachable_bytes(getattr(obj, name), seen)


class HostWatch:
    """Checks the host's blind round after every input it applies (see the module doc)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sessions: list[NetworkSession] = []
        self.checks = 0
        self.controls = 0
        original = BlindTable._commit
        watch = self

        def commit(table: BlindTable, kind: str, payload: dict) -> None:
            original(table, kind, payload)
            watch.check(table)

        monkeypatch.setattr(BlindTable, "_commit", commit)

    def person_parties(self, round_id: bytes) -> dict[int, PartySecrets]:
        """Each person's party secrets this round, by party, from their own clients."""
        out = {}
        for session in self.sessions:
            party = getattr(session.witness, "party", None)
            if party is not None and party.round_id == round_id:
                out[party.party] = party.secrets
        return out

    def check(self, table: BlindTable) -> None:
        b = table.blind_round
        if b is None or table.phase in (Phase.SEEDS, Phase.BETWEEN, Phase.OVER):
            return
        party = b.party
        secrets = self.person_parties(party.round_id)
        held = b"".join(reachable_bytes(b))
        for secret in secrets.values():
            assert secret.seed not in held, "the host holds a person's seed before the reveal"
            assert secret.x not in held, "the host holds a person's key before the reveal"
        assert all(seed is None for seed in b.seeds[1:])
        if len(party.decks) < party.parties:
            return
        played = {p.pos for p in party.plays}
        for k, deal in enumerate(party.plan[: len(party.deals)], 1):
            for i, target in enumerate(deal.targets):
                pos = deal.start + i
                if target == TABLE or owner(target, party.people) == 0 or pos in played:
                    continue
                u, v = party.deck[pos]
                held_sum = party._share_sum(pos)
                assert card_of(sub(v, held_sum)) is None, f"the host reads {pos} of deal {k}"
                o = owner(target, party.people)
                if o in secrets:  # the control: the owner's share is the one piece missing
                    assert card_of(sub(v, add(held_sum, mul(secrets[o].x, u)))) is not None
                    self.controls += 1
                self.checks += 1


def check_frames(taps: list[Tap], rules: RuleSet) -> int:
    """Every position a person owns stays unreadable with every share in every frame, and
    opens to the card played from it with the owner's revealed secret. Returns positions
    checked."""
    events = [f for tap in taps for f in frames(tap.got)]
    rounds: dict[bytes, dict] = {}
    for e in events:
        rid = getattr(e, "round_id", None)
        if rid is None:
            continue
        r = rounds.setdefault(rid, {"decks": {}, "shares": {}, "seeds": None, "plays": {}})
        if isinstance(e, m.BlindRound):
            r["people"] = e.people
        elif isinstance(e, m.BlindKeys):
            r["dealer"] = e.dealer
        elif isinstance(e, m.BlindDeck):
            r["decks"][e.party] = e.deck
        elif isinstance(e, m.BlindDeal):
            r["shares"][e.deal] = e.shares
        elif isinstance(e, m.BlindReveals):
            r["seeds"] = e.seeds
    sent = [(tap, f) for tap in taps for f in frames(tap.sent)]
    checked = 0
    for rid, r in rounds.items():
        if "dealer" not in r or len(r["decks"]) != len(r["people"]) + 1:
            continue
        people = r["people"]
        deck = parse_deck(r["decks"][len(people)])
        plan = deal_plan(rules, r["dealer"])
        public: dict[int, list[bytes]] = {}
        for k, by_party in r["shares"].items():
            for p, shares in enumerate(by_party):
                for pos, share in zip(
                    shared_positions(plan[k - 1], people, p), shares, strict=True
                ):
                    public.setdefault(pos, []).append(share)
        for _, f in sent:  # what the people sent the host
            if isinstance(f, m.BlindShares) and f.round_id == rid:
                for share in f.shares:
                    assert share in {s for v in public.values() for s in v}
        for k, deal in enumerate(plan[: len(r["shares"])], 1):
            for i, target in enumerate(deal.targets):
                pos = deal.start + i
                o = 0 if target == TABLE else owner(target, people)
                if o == 0:
                    continue
                total = public[pos][0]
                for share in public[pos][1:]:
                    total = add(total, share)
                assert card_of(sub(deck[pos].v, total)) is None, (k, pos)
                seed = r["seeds"][o] if r["seeds"] else None
                if seed is not None:
                    x = PartySecrets(seed, rid, o).x
                    assert card_of(sub(deck[pos].v, add(total, mul(x, deck[pos].u)))) is not None
                checked += 1
    return checked


async def blind_match(
    host: Host,
    tmp_path,
    rules: RuleSet,
    people: int,
    *,
    sessions: list[NetworkSession] | None = None,
) -> tuple[list[NetworkSession], list[Tap]]:
    """A whole blind match: ``people`` network sessions, computer players in the rest."""
    sessions = [] if sessions is None else sessions
    taps: list[Tap] = []

    async def connector() -> trio.abc.Stream:
        tap = Tap(await trio.open_tcp_stream("127.0.0.1", host.port))
        taps.append(tap)
        return tap

    async def person(n: int, choice: TableChoice, started: trio.Event | None = None) -> None:
        async with open_network_session(
            "127.0.0.1",
            host.port,
            choice,
            name=f"p{n}",
            data_dir=tmp_path / f"p{n}",
            connector=connector,
        ) as session:
            sessions.append(session)
            if started is not None:
                started.set()
            await play_as_bot(session, make_player("random", n))

    first = TableChoice(create=create(rules, bots=rules.players - people, blind=True))
    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            started = trio.Event()
            nursery.start_soon(person, 0, first, started)
            await started.wait()
            for n in range(1, people):
                nursery.start_soon(person, n, TableChoice(table_id=sessions[0].table_id))
    return sessions, taps


@pytest.mark.parametrize(
    ("players", "people"), [(2, 2), (3, 3), (4, 4), (6, 3)], ids=["2p", "3p", "4p", "6p"]
)
async def test_a_whole_blind_match_the_host_never_reads_a_persons_card(
    tmp_path, host: Host, monkeypatch: pytest.MonkeyPatch, players: int, people: int
) -> None:
    watch = HostWatch(monkeypatch)
    rules = RuleSet.of(players, 3)
    sessions, taps = await blind_match(host, tmp_path, rules, people, sessions=watch.sessions)
    assert watch.checks > 0
    assert watch.controls > 0
    assert len(sessions) == people
    results = set()
    for session in sessions:
        assert session.verdict_failures == []
        assert session.deal_failure is None
        assert session.rounds_verified >= 1
        transcript = session.witness.transcript()
        assert transcript.blind
        assert transcript.result.winner is not None
        assert verify_any(transcript).ok
        results.add(transcript.result)
        (saved,) = (tmp_path / f"p{sessions.index(session)}" / "transcripts").iterdir()
        assert verify_any(decode_any(saved.read_bytes())).ok
    assert len(results) == 1  # every seat saw the same signed end
    exported = host.tables[sessions[0].table_id].table.transcript_for(0)
    assert exported.blind
    assert verify_any(exported).ok  # the host's own export of the match verifies too
    assert check_frames(taps, rules) > 0


async def test_verify_reads_a_blind_transcript_and_refuses_a_tampered_one(
    tmp_path, host: Host, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = RuleSet.of(2, 1)
    await blind_match(host, tmp_path, rules, 1)
    (saved,) = (tmp_path / "p0" / "transcripts").iterdir()
    assert cli_main(["verify", str(saved)]) == 0
    good = capsys.readouterr().out
    assert "blind" in good.lower() or "verified" in good.lower()
    transcript = decode_any(saved.read_bytes())
    n = after_kings_voids(transcript.rounds)  # the first round with plays
    first = transcript.rounds[n - 1]
    play = first.plays[0]
    other = dataclasses.replace(play, code=play.code ^ 1)
    changed = dataclasses.replace(first, plays=(other, *first.plays[1:]))
    tampered = dataclasses.replace(transcript, rounds=(*transcript.rounds[: n - 1], changed))
    bad = tmp_path / "tampered.scopa"
    bad.write_bytes(tampered.encode())
    assert cli_main(["verify", str(bad)]) != 0


async def test_a_person_who_drops_mid_round_voids_it_by_name_and_their_cards_stay_secret(
    tmp_path, make_host, monkeypatch: pytest.MonkeyPatch
) -> None:
    """9.7: the table waits out the grace period, then voids the round naming the seat; the
    absent person's seed is never revealed, so nobody (the host included) reads their cards;
    from the next round a computer player holds the seat for the host, and the match goes on
    to a verified end."""
    watch = HostWatch(monkeypatch)
    host = await make_host(grace=0.5)
    rules = RuleSet.of(3, 3)
    sessions = watch.sessions
    dropped: list[NetworkSession] = []

    async def dropper(table_id: int) -> None:
        player = make_player("random", 7)
        with trio.CancelScope() as scope:
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=table_id), name="bea"
            ) as session:
                sessions.append(session)
                dropped.append(session)
                played = 0
                while True:
                    view = session.view
                    if view is not None and view.to_move == session.seat and not view.round_over:
                        await session.submit(player.choose(view))
                        played += 1
                        if played == 2:
                            scope.cancel()  # the connection drops, mid-round, for good
                    await session.events.receive()

    async def stayer(started: trio.Event) -> None:
        async with open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(create=create(rules, bots=1, blind=True)),
            name="ann",
            data_dir=tmp_path / "ann",
        ) as session:
            sessions.append(session)
            started.set()
            await play_as_bot(session, make_player("random", 1))

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            started = trio.Event()
            nursery.start_soon(stayer, started)
            await started.wait()
            nursery.start_soon(dropper, sessions[0].table_id)

    ann = sessions[0]
    transcript = ann.witness.transcript()
    n = after_kings_voids(transcript.rounds)  # the round she played two cards of
    void = transcript.rounds[n - 1].void
    assert void is not None
    assert (void.reason, void.offender) == ("absent", dropped[0].seat)
    assert transcript.rounds[n - 1].seeds[2] is None  # bea's seed: never revealed
    assert all(r.people == (ann.seat,) for r in transcript.rounds[n:])  # a computer holds hers
    verdict = verify_any(transcript)
    assert verdict.ok
    assert transcript.result.winner is not None
    assert any(f"seat {dropped[0].seat}" in line and "absent" in line for line in verdict.lines())
    bea = dropped[0].witness.party  # her round-1 secrets, from her own client
    assert bea is not None
    assert bea.round_id == transcript.rounds[n - 1].round_id
    held = b"".join(reachable_bytes(host.tables[ann.table_id].table))
    assert bea.secrets.seed not in held
    assert bea.secrets.x not in held
    assert watch.checks > 0


async def test_a_crashed_client_takes_its_blind_seat_back_and_goes_on(tmp_path) -> None:
    """The seat's party seed is on disk with the seat before its key leaves: a new client
    rebuilds the round's party from it and the host's replay, and plays on (a move typed
    just before the crash included), every round verified."""
    from dataclasses import replace

    from hosting import start_host

    from scopa_net.client.moves import legal_plays
    from scopa_net.client.seat_store import PendingMove, SeatStore

    store = SeatStore(tmp_path)

    async def until(predicate) -> None:
        with trio.fail_after(20):
            while not predicate():
                await trio.sleep(0.01)

    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        choice = TableChoice(create=create(RuleSet.of(2, 3), bots=1, blind=True))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path, store=store
        ) as first:
            await until(lambda: first.view is not None and first.view.my_turn)
            await first.submit(legal_plays(first.view)[0])
            await until(lambda: first.view is not None and first.view.my_turn)
            hand, seq = first.view.hand, first.mirror.seq
            move = legal_plays(first.view)[0]
            round_id = first.witness.party.round_id
        (record,) = store.records()
        assert round_id.hex() in record.seeds  # the party seed, kept with the seat
        store.save(
            replace(record, pending=(PendingMove(4242, seq, move.card.index, move.captured_mask),))
        )
        (record,) = store.records()
        async with open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(table_id=record.table_id, seat=record.seat),
            name="Ada",
            data_dir=tmp_path,
            store=store,
            resume_from=record,
        ) as second:
            await until(
                lambda: (
                    second.view is not None
                    and any(p.play == move for p in second.view.plays if p.seat == 0)
                )
            )
            assert set(hand) - {move.card} == set(second.view.hand) - {move.card}
            result = await play_as_bot(second, make_player("random", 5))
        assert result is not None
        assert second.verdict_failures == []
        assert second.rounds_verified >= 1
        assert verify_any(second.witness.transcript()).ok
        nursery.cancel_scope.cancel()


async def stopped_as_ann(tmp_path, host: Host) -> DealCheckFailedError:
    """Ann creates a 2-player blind table against a computer player and plays until her
    client stops on a failed check: the DEAL CHECK FAILED banner, as the person reads it."""
    choice = TableChoice(create=create(RuleSet.of(2, 3), bots=1, blind=True))
    with trio.fail_after(30), pytest.raises(DealCheckFailedError) as info:
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="ann", data_dir=tmp_path
        ) as session:
            await play_as_bot(session, make_player("random", 1))
    assert info.value.evidence is not None
    return info.value


def assert_the_host_is_named(banner: str, check: str, meaning: str) -> None:
    """A DEAL CHECK FAILED banner that names the host: its check, and what it means."""
    assert banner.startswith(f"DEAL CHECK FAILED in round 1: {check}"), banner
    assert "At fault: the host (party 0)." in banner
    assert f"What this means: {meaning}" in banner, banner
    assert "the host cheated" in banner


async def test_a_host_that_alters_its_shares_is_named_on_the_deal_check_failed_banner(
    tmp_path, host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host relaying deal 1 with one of its own shares changed: the seat's check of the
    host party's signature fails at once, the seat stops with DEAL CHECK FAILED naming the
    host, and the evidence it saves is a blind transcript."""
    original = BlindTable._broadcast

    def altered(table: BlindTable, make, **kw: object) -> None:
        def make_bad(seq: int, seat: int) -> m.Message:
            event = make(seq, seat)
            if isinstance(event, m.BlindDeal) and event.deal == 1:
                mine = (event.shares[0][-1], *event.shares[0][1:])
                event = dataclasses.replace(event, shares=(mine, *event.shares[1:]))
            return event

        original(table, make_bad, **kw)

    monkeypatch.setattr(BlindTable, "_broadcast", altered)
    stopped = await stopped_as_ann(tmp_path, host)
    banner = str(stopped)
    assert banner.startswith("DEAL CHECK FAILED in round 1: bad party signature (party 0): ")
    assert "At fault: the host (party 0)." in banner
    assert decode_any(stopped.evidence.read_bytes()).blind


async def test_a_host_that_shifts_a_table_card_after_reading_the_shares_is_stopped(
    tmp_path, host: Host, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """9.5.6: the host sends its party's shares in blind_open, before it reads the person's.
    A host that, holding the person's shares, relays a share of its own (signed with its
    round key) that turns the first table card into another card is stopped by the seat on
    arrival, with DEAL CHECK FAILED naming the host; the seat's record keeps the shares the
    host sent first, and ``scopa-net verify`` on that file does not pass it."""
    original = BlindTable._deal_blind
    sent_first: list[tuple[bytes, ...]] = []

    def shifting(table: BlindTable) -> None:
        b = table.blind_round
        assert b is not None
        if b.opening == 1 and not sent_first:
            shares = [b.shares[p][0] for p in range(b.party.parties)]
            sent_first.append(shares[0])
            _, _, mine, sig = shift_a_table_card(b.party, 1, shares)
            b.shares[0] = (mine, sig)
            b.party._sent[1] = mine  # a cheating host does not check itself
        original(table)

    monkeypatch.setattr(BlindTable, "_deal_blind", shifting)
    stopped = await stopped_as_ann(tmp_path, host)
    # Its meaning is the check's, which names the host, not the reveal's, which names no one.
    assert_the_host_is_named(
        str(stopped),
        "bad shares (party 0): deal 1: the host relayed other shares",
        "the parts the host gave to unlock the cards",
    )
    evidence = decode_any(stopped.evidence.read_bytes())
    deal = evidence.rounds[0].deals[0]
    assert deal.shares[0] == sent_first[0]
    assert deal.relayed is not None
    assert deal.relayed[0] != sent_first[0]
    capsys.readouterr()
    assert cli_main(["verify", str(stopped.evidence)]) != 0
    out = capsys.readouterr().out
    # The file proves it (9.9 step 5): two sets of shares of deal 1, both signed by the host.
    assert (
        "round 1: FAILED: bad shares, by the host (party 0): deal 1: the host "
        "signed two sets of shares of its own" in out
    ), out
    assert "which no change to the file could make: the host cheated" in out, out
    outsider = document_verify(stopped.evidence.read_bytes()).rounds[0].error
    assert outsider is not None
    assert (outsider.check, outsider.party) == ("bad shares", 0)
    # What proves nothing: the other shares not signed by the host, or the same ones again.
    for relayed, words in (
        ((deal.relayed[0], bytes(64)), "they prove nothing"),
        ((deal.shares[0], deal.sigs[0]), "they prove nothing"),
    ):
        forged = dataclasses.replace(
            evidence,
            rounds=(
                dataclasses.replace(
                    evidence.rounds[0],
                    deals=(dataclasses.replace(deal, relayed=relayed),),
                ),
            ),
        )
        changed = tmp_path / "changed.scopa"
        changed.write_bytes(forged.encode())
        assert cli_main(["verify", str(changed)]) != 0
        out = capsys.readouterr().out
        assert words in out, out
        assert "by the host" not in out, out
        outsider = document_verify(forged.encode()).rounds[0].error
        assert outsider is not None
        assert (outsider.check, outsider.party) == ("bad shares", None)


class OwnMadeHostDeck(blind_table.BlindParty):
    """The host's party sends a deck of its own making (every card encrypted afresh, in
    card order, so it would know where each card lies), signed with its round key, with the
    proof of its honest shuffle beside it."""

    def my_deck(self) -> SignedDeck:
        proof = super().my_deck().proof
        assert self.joint is not None
        made = []
        for c in range(40):
            r = hash_to_scalar(b"test/own-made", bytes([c]))
            made.append(Ciphertext(base_mul(r), add(CARD_POINTS[c], mul(r, self.joint))))
        self.decks[-1] = tuple(made)
        sig = self.secrets.sign(deck_message(self.round_id, self.party, made, proof))
        self.deck_sigs[-1] = sig
        return SignedDeck(tuple(c.to_bytes() for c in made), proof, sig)


async def test_a_host_deck_of_its_own_making_stops_the_seat_before_any_card(
    tmp_path, host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    """9.6: the host's party shuffles first; a deck it made itself (so it knows every card's
    place) carries a proof that proves nothing of it. The seat stops at that deck, before a
    card is dealt, with DEAL CHECK FAILED naming the host; the reveal it waits for names the
    host too, in plain words (its deck is not its shuffle: every card substituted)."""
    monkeypatch.setattr(blind_table, "BlindParty", OwnMadeHostDeck)
    stopped = await stopped_as_ann(tmp_path, host)
    # The meaning is the reveal's words (9.6).
    assert_the_host_is_named(str(stopped), "bad shuffle proof (party 0)", "a card was swapped")
    evidence = decode_any(stopped.evidence.read_bytes())
    assert evidence.rounds[0].deals == ()  # stopped before any card was opened


def kings_on_the_table(rules: RuleSet) -> tuple[bytes, bytes, dict[int, bytes]]:
    """A round id, a host seed and each person's seed (seats 0 and 1, both people) whose
    shuffles, all together, lay three or more kings on round 1's opening table: found by
    trying host seeds in turn (about one deal in 600 does; a fraction of a second)."""
    rid = hashlib.sha256(b"kings void round").digest()[:16]
    people = {s: hashlib.sha256(b"kings void person %d" % s).digest() for s in range(2)}
    secrets = [PartySecrets(seed, rid, s + 1) for s, seed in people.items()]
    for i in range(20_000):
        host_seed = hashlib.sha256(b"kings void host %d" % i).digest()
        parties = [PartySecrets(host_seed, rid, 0), *secrets]
        dealer = blind_first_dealer(rid, [p.key for p in parties], rules.players)
        first = deal_plan(rules, dealer)[0]
        cards = deck_cards(parties)
        table = [cards[first.start + j] for j, t in enumerate(first.targets) if t == TABLE]
        if sum(1 for c in table if (1 << c) & KINGS_MASK) >= 3:
            return rid, host_seed, people
    raise AssertionError("no kings deal found")


async def test_a_kings_void_at_a_blind_table_over_the_network(
    tmp_path, host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 1's opening table holds three kings: the host voids the deal (``kings``), every
    seat checks the void against the table it opened itself, the same dealer deals again and
    the match goes on to its end; every transcript and the host's export verify, round 1 as a
    void deal."""
    rules = RuleSet.of(2, 1)
    rid, host_seed, seeds = kings_on_the_table(rules)
    start_round = BlindTable.start_round

    def first_round_scripted(table: BlindTable, round_id: bytes, seed: bytes) -> None:
        if table.round_no == 0:
            round_id, seed = rid, host_seed
        start_round(table, round_id, seed)

    witness_init = BlindWitness.__init__

    def scripted_seed(witness: BlindWitness, *args: object, **kw: Any) -> None:
        fresh = kw["new_seed"]
        first = [seeds[args[2]]]  # type: ignore[index]
        kw["new_seed"] = lambda: first.pop() if first else fresh()
        witness_init(witness, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(BlindTable, "start_round", first_round_scripted)
    monkeypatch.setattr(BlindWitness, "__init__", scripted_seed)
    sessions, _ = await blind_match(host, tmp_path, rules, 2)
    table = host.tables[sessions[0].table_id].table
    first, *later = table.blind_history
    assert first.void is not None
    assert (first.void.reason, first.round_id) == ("kings", rid)
    assert later  # dealt again, and the match went on
    assert later[0].dealer == first.dealer
    assert table.phase is Phase.OVER
    transcripts = [s.witness.transcript() for s in sessions]
    transcripts += [table.transcript_for(seat) for seat in range(rules.players)]
    for session in sessions:
        assert session.verdict_failures == []
        assert session.witness.verdicts[0].note.startswith("void deal (kings on the table)")
    for t in transcripts:
        verdict = verify_any(t)
        assert verdict.ok, verdict.lines()
        assert verdict.rounds[0].note.startswith("void deal (kings on the table)")
        for r, record in zip(verdict.rounds[1:], t.rounds[1:], strict=True):
            # (A later deal may be void for its kings too: about 1 in 600.)
            kings = record.void is not None and record.void.reason == "kings"
            assert r.note.startswith("void deal (kings" if kings else "verified (dealer seat")


async def test_a_party_caught_up_by_snapshot_mid_round_takes_up_the_round_from_its_start(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """9.7: a client taken back from disk asks for every event since the table opened; with
    more missed than the host replays (here 3), a party of the blind round in play gets the
    snapshot taken as that round began and the round's events after it. Its client rebuilds
    its party from the seed kept on disk and plays the round on: no void, every round
    checked."""
    no_kings_void(monkeypatch)  # every round is played out
    from hosting import start_host

    from scopa_net.client.seat_store import SeatStore

    store = SeatStore(tmp_path)
    taps: list[Tap] = []

    async def connector(port: int) -> trio.abc.Stream:
        tap = Tap(await trio.open_tcp_stream("127.0.0.1", port))
        taps.append(tap)
        return tap

    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600, replay_limit=3)
        choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1, blind=True))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path, store=store
        ) as first:  # to 11: no match ends in round 1
            player = make_player("random", 2)
            with trio.fail_after(60):
                while not (
                    first.view is not None
                    and first.view.round_number >= 2
                    and first.view.my_turn
                    and first.witness.party is not None
                    and first.witness.party.deals
                ):
                    view = first.view
                    if view is not None and view.my_turn and not view.round_over:
                        await first.submit(player.choose(view))
                    await first.events.receive()
            round_id = first.witness.party.round_id
        table = host.tables[first.table_id].table
        assert table.blind_round.party.round_id == round_id  # the client left mid-round
        (record,) = store.records()
        async with open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(table_id=record.table_id, seat=record.seat),
            name="Ada",
            data_dir=tmp_path,
            store=store,
            resume_from=record,
            connector=lambda: connector(host.port),
        ) as second:
            with trio.fail_after(60):
                while not any(r.round_id == round_id for r in second.witness.rounds):
                    view = second.view
                    if view is not None and view.my_turn and not view.round_over:
                        await second.submit(player.choose(view))
                    await second.events.receive()
        assert second.verdict_failures == []
        got = frames(taps[0].got)
        (resumed,) = [f for f in got if isinstance(f, m.Resumed)]
        assert resumed.catch_up == "snapshot"
        snapshot = next(f for f in got if isinstance(f, m.Snapshot))
        start = next(f for f in got if isinstance(f, m.BlindRound))
        assert start.round_id == round_id  # the round in play, from its first event
        assert start.seq == snapshot.seq + 1
        taken_up = next(r for r in second.witness.rounds if r.round_id == round_id)
        assert taken_up.void is None  # played out by the client that took the seat back
        assert all(r.void is None for r in table.blind_history)
        nursery.cancel_scope.cancel()


async def test_a_person_voided_as_absent_comes_back_and_their_transcript_verifies(
    tmp_path,
) -> None:
    """9.7: Bea drops mid-round and her grace ends, so round 1 is void naming her; she runs her
    client again (her seat and round seed kept on disk), takes the seat back while a computer
    holds it, and plays on to the match's end. Her client accepts her own void (her seed is
    nil at the reveal by the rule), observes the rounds the computer played for her, and her
    saved transcript verifies to the signed end."""
    from hosting import start_host

    from scopa_net.client.moves import legal_plays
    from scopa_net.client.seat_store import SeatStore

    store = SeatStore(tmp_path / "bea")

    async def until(predicate) -> None:
        with trio.fail_after(30):
            while not predicate():
                await trio.sleep(0.01)

    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=0.5)
        ready = trio.Event()
        ann_sessions: list[NetworkSession] = []

        async def ann() -> None:
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=0, blind=True))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ann", data_dir=tmp_path / "ann"
            ) as session:
                ann_sessions.append(session)
                ready.set()
                await play_as_bot(session, make_player("random", 1))

        nursery.start_soon(ann)
        await ready.wait()
        table_id = ann_sessions[0].table_id
        async with open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(table_id=table_id),
            name="Bea",
            data_dir=tmp_path / "bea",
            store=store,
        ) as first:
            await until(lambda: first.view is not None and first.view.my_turn)
            gone_in = host.tables[table_id].table.round_no  # 1, or a kings void's redeal
            await first.submit(legal_plays(first.view)[0])
        # Bea's client is gone; her grace ends and the round is void naming her seat.
        await until(lambda: len(host.tables[table_id].table.blind_history) >= gone_in)
        void = host.tables[table_id].table.blind_history[gone_in - 1].void
        assert void is not None
        assert void.reason == "absent"
        (record,) = store.records()
        async with open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(table_id=record.table_id, seat=record.seat),
            name="Bea",
            data_dir=tmp_path / "bea",
            store=store,
            resume_from=record,
        ) as second:
            assert void.offender == second.seat
            result = await play_as_bot(second, make_player("random", 5))
        assert result is not None
        assert second.verdict_failures == []
        transcript = second.witness.transcript()
        assert after_kings_voids(transcript.rounds) == gone_in
        assert transcript.rounds[gone_in - 1].void == void
        # The next round began while she was away: a computer played it for the host. She is
        # a party again from the round after.
        assert transcript.rounds[gone_in].people == (0,)
        assert len(transcript.rounds) >= gone_in + 2
        assert all(r.people == (0, 1) for r in transcript.rounds[gone_in + 1 :])
        verdict = verify_any(transcript)
        assert verdict.ok, verdict.lines()
        assert verdict.result_note.startswith("verified: scores")
        nursery.cancel_scope.cancel()


def after_kings_voids(rounds: Iterator[Any] | tuple[Any, ...] | list[Any]) -> int:
    """The number of the first round not void for its kings (a true deal, about 1 in 600,
    that no cheat or drop of round 1 reaches: the same dealer deals again), every round
    before it being one."""
    rounds = list(rounds)
    n = next(i for i, r in enumerate(rounds) if r.void is None or r.void.reason != "kings")
    return n + 1


async def two_people(
    host: Host, tmp_path, rules: RuleSet
) -> tuple[list[NetworkSession], dict[int, DealCheckFailedError]]:
    """Seats 0 and 1 played by people over loopback TCP, to the end or to a failed check."""
    sessions: list[NetworkSession] = []
    failed: dict[int, DealCheckFailedError] = {}

    async def person(n: int, choice: TableChoice, started: trio.Event | None = None) -> None:
        try:
            async with open_network_session(
                "127.0.0.1", host.port, choice, name=f"p{n}", data_dir=tmp_path / f"p{n}"
            ) as session:
                sessions.append(session)
                if started is not None:
                    started.set()
                await play_as_bot(session, make_player("random", n))
        except DealCheckFailedError as exc:
            failed[n] = exc

    first = TableChoice(create=create(rules, bots=rules.players - 2, blind=True))
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            started = trio.Event()
            nursery.start_soon(person, 0, first, started)
            await started.wait()
            nursery.start_soon(person, 1, TableChoice(table_id=sessions[0].table_id))
    return sessions, failed


async def test_a_host_party_that_sends_a_person_a_wrong_share_is_named_by_everyone(
    tmp_path, host: Host, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """9.6 end to end: the host's party signs a wrong share for seat 0's first card, which
    opens to no card point; its client sends its seed and
    reads the reveal, which names the host (party 0) on its DEAL CHECK FAILED banner; the
    round is void ``failed_check`` naming seat 0; the other person's client checks the reveal
    and names the host too, and ``scopa-net verify`` on both seats' files names party 0."""
    monkeypatch.setattr(blind_table, "BlindParty", one_wrong_share(0, 0))
    sessions, failed = await two_people(host, tmp_path, RuleSet.of(2, 3))
    table = host.tables[sessions[0].table_id].table
    assert isinstance(table, BlindTable)
    assert sorted(failed) == [0, 1]
    banner = str(failed[0])
    assert banner.startswith("DEAL CHECK FAILED in round 1: no card")
    # A deal void for its kings (about 1 in 600) is void at its deal, before seat 0's check
    # can void it: the cheat is caught all the same.
    n = 1
    kings = sum(1 for c in table.blind_history[0].table if (1 << c.card) & KINGS_MASK) >= 3
    void = VoidNotice("kings", None) if kings else VoidNotice("failed_check", 0)
    assert table.blind_history[0].void == void
    for n in (0, 1):
        assert "At fault: the host (party 0)." in str(failed[n]), str(failed[n])
    paths = [failed[n].evidence for n in (0, 1)]
    assert all(p is not None for p in paths)
    capsys.readouterr()
    assert cli_main(["verify", *map(str, paths)]) != 0
    out = capsys.readouterr().out
    assert out.count(f"round {n}: FAILED: bad share, by the host (party 0)") == 2, out
    for p in paths:
        record = decode_any(p.read_bytes()).rounds[n - 1]
        assert record.void == void
        assert record.seeds is not None
        assert all(s is not None for s in record.seeds)


async def test_a_persons_wrong_share_is_theirs_on_the_banner_not_the_hosts(
    tmp_path, host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person at seat 0 (party 1) signs a wrong share for seat 1's first card. Seat 1's
    client stops, the reveal names party 1, and its banner names p0 and says this round's
    deal cannot be trusted. It used to add "this host's deal cannot be trusted" even after
    naming the person: the host had only relayed what p0 sent."""
    monkeypatch.setattr(blind_witness, "BlindParty", one_wrong_share(1, 1))
    _, failed = await two_people(host, tmp_path, RuleSet.of(2, 3))
    assert 1 in failed
    banner = str(failed[1])
    assert "At fault: p0 (seat 0, party 1)." in banner, banner
    # By name, not "party 1 (a player)" nor "seat 0": the banner's reader knows who p0 is.
    assert "p0 cheated, or the record was changed" in banner, banner
    assert "seat 0 cheated" not in banner, banner
    assert "The game stops here: this round's deal cannot be trusted." in banner
    assert "host's deal" not in banner


async def test_a_seat_that_stops_without_cause_is_named_and_the_match_goes_on(
    tmp_path, host: Host, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 0's client stops at the first play it sees, though nothing is wrong: the round is
    void ``failed_check``, every party's part checks out, so the other seat's client goes on
    (a computer plays seat 0 from the next round) and ``scopa-net verify`` names seat 0."""
    original = BlindWitness._observe

    def nervous(self: BlindWitness, e: m.Message):  # type: ignore[no-untyped-def]
        # (The first play of the match: after a deal void for its kings, round 2's.)
        if self.seat == 0 and isinstance(e, m.Played) and not any(r.plays for r in self.rounds):
            raise FairnessError("imagined a fault")
        return original(self, e)

    monkeypatch.setattr(BlindWitness, "_observe", nervous)
    sessions, failed = await two_people(host, tmp_path, RuleSet.of(2, 3))
    assert sorted(failed) == [0]
    assert "At fault" not in str(failed[0])
    table = host.tables[sessions[0].table_id].table
    n = after_kings_voids(table.blind_history)
    assert table.blind_history[n - 1].void == VoidNotice("failed_check", 0)
    assert all(r.people == (1,) for r in table.blind_history[n:])
    other = sessions[1]
    assert other.deal_failure is None
    assert other.verdict_failures == []
    transcript = other.witness.transcript()
    assert transcript.result.winner is not None
    (saved,) = (tmp_path / "p1" / "transcripts").iterdir()
    evidence = failed[0].evidence
    assert evidence is not None
    capsys.readouterr()
    assert cli_main(["verify", str(saved)]) == 0
    out = capsys.readouterr().out
    # Named by the names the client saved beside the file (the file is seat 1's).
    assert f"round {n}: void: p0 (seat 0, party 1) stopped without cause" in out, out
    assert "VERIFIED" in out
    monkeypatch.setenv("SCOPA_NET_NAME", "p0")  # p0 reads: their own file says "you"
    cli_main(["verify", str(evidence), str(saved)])
    out = capsys.readouterr().out
    assert out.count(f"round {n}: void: p0 (seat 0, party 1) stopped without cause") == 1, out
    assert out.count(f"round {n}: void: p0 (seat 0, you, party 1) stopped without cause") == 1
    assert "blind rounds void by a seat that stopped without cause: 1 (p0 (seat 0): 1)" in out, out


async def test_a_person_who_steps_away_mid_round_voids_it_and_the_others_read_why(
    make_host,
) -> None:
    """A blind round cannot go on without a person's part, so stepping away voids it at once;
    the others read "Round 1 is void: bea was away past their grace period", a minute before
    any grace period could have ended."""
    host = await make_host(grace=60)
    rules = RuleSet.of(3, 3)
    said: list[str] = []
    ann_seated = trio.Event()
    table: list[int] = []
    left_in: list[int] = []

    async def stepper() -> None:
        player = make_player("random", 7)
        async with open_network_session(
            "127.0.0.1", host.port, TableChoice(table_id=table[0]), name="bea"
        ) as session:
            played = 0
            while played < 2:
                view = session.view
                if view is not None and view.to_move == session.seat and not view.round_over:
                    with contextlib.suppress(IllegalPlayError):
                        await session.submit(player.choose(view))
                        played += 1
                await session.events.receive()
            left_in.append(host.tables[table[0]].table.round_no)  # 1, or a kings void's redeal
            await session.leave(away=True)

    async def stayer() -> None:
        async with open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(create=create(rules, bots=1, blind=True)),
            name="ann",
        ) as session:
            table.append(session.table_id)
            emit = session._emit

            def heard(event: object) -> None:
                if isinstance(event, Message):
                    said.append(event.text)
                emit(event)

            session._emit = heard  # type: ignore[method-assign]
            ann_seated.set()
            player = make_player("random", 1)
            while not any(" is void: bea stepped away" in text for text in said):
                view = session.view
                if view is not None and view.to_move == session.seat and not view.round_over:
                    with contextlib.suppress(IllegalPlayError):  # the table moved on: again
                        await session.submit(player.choose(view))
                await session.events.receive()

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(stayer)
            await ann_seated.wait()
            nursery.start_soon(stepper)
    assert "bea stepped away; a computer plays for them until they are back" in said
    assert (
        f"Round {left_in[0]} is void: bea stepped away, and a blind round cannot go on without "
        "them. Nobody saw their cards; the same dealer deals again."
    ) in said
