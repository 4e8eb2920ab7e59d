"""The host does what protocol.md says, checked over loopback TCP by a bare protocol client.

Each test here pins one statement of the document (section numbers in the docstrings) that an
independent implementation relied on and the host once did differently.
"""

from __future__ import annotations

import secrets

import pytest
import trio
from hosting import MakeHost, create
from rawseat import RawSeat

from scopa_net.blind_witness import BlindWitness
from scopa_net.fair.blind.deck import deck_message, parse_deck
from scopa_net.fair.blind.party import BlindParty
from scopa_net.plays import Play
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.wire import messages as m

SLOW_BOT = 30.0
"""A computer player this slow never moves within a test: its turn stays its turn."""


async def seated(port: int, *, auto_seeds: bool = True, players: int = 2) -> RawSeat:
    """A raw client at a new table of ``players`` with computer players in the other seats."""
    raw = await RawSeat.connect(port, auto_seeds=auto_seeds)
    table_id = await raw.create(create(RuleSet.of(players, 11), bots=players - 1))
    await raw.join(table_id, 0)
    return raw


async def test_seeds_for_another_round_get_wrong_phase(host: Host) -> None:
    """3.8: a seed_commit or seed_reveal naming another round id is wrong_phase (was stale)."""
    raw = await seated(host.port, auto_seeds=False)
    commit = await raw.until(lambda msg: isinstance(msg, m.RoundCommit))
    assert isinstance(commit, m.RoundCommit)
    other = secrets.token_bytes(16)
    seed = secrets.token_bytes(32)
    await raw.send(m.SeedCommit(round_id=other, commit=secrets.token_bytes(32)))
    error = await raw.until(lambda msg: isinstance(msg, m.Error))
    assert (error.code, error.ref) == ("wrong_phase", "seed_commit")
    await raw.send(m.SeedCommit(round_id=commit.round_id, commit=_commit(commit, seed)))
    await raw.until(lambda msg: isinstance(msg, m.SeedCommits))
    await raw.send(m.SeedReveal(round_id=other, seed=seed))
    error = await raw.until(lambda msg: isinstance(msg, m.Error))
    assert (error.code, error.ref) == ("wrong_phase", "seed_reveal")
    # The right seed still goes through: nothing was spoiled by the refusals.
    await raw.send(m.SeedReveal(round_id=commit.round_id, seed=seed))
    await raw.until(lambda msg: isinstance(msg, m.SeedReveals))
    await raw.aclose()


def _commit(commit: m.RoundCommit, seed: bytes) -> bytes:
    from scopa_net.fair.commitments import seat_commitment

    return seat_commitment(commit.round_id, 0, seed)


async def test_staleness_is_checked_before_the_turn(make_host: MakeHost) -> None:
    """3.5: a play on another seat's turn whose ``after`` predates the newest position event
    is ``stale`` (with current_seq), not ``not_your_turn``."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port)
    await raw.dealt()
    before_deal = raw.seq - 1
    if raw.view.my_turn:
        ack = await raw.play(1, raw.my_plays()[0])
        assert isinstance(ack, m.Ack)
        await raw.until(lambda msg: isinstance(msg, m.Played))
    assert not raw.view.my_turn
    card = raw.view.hand[0]
    answer = await raw.play(2, Play(card, ()), after=before_deal)
    assert isinstance(answer, m.Reject)
    assert (answer.code, answer.reason, answer.current_seq) == ("stale", None, raw.seq)
    await raw.aclose()


async def test_turn_and_phase_refusals_use_codes_not_reasons(make_host: MakeHost) -> None:
    """3.5: out of turn is the code ``not_your_turn`` (reason nil); no round in play is the code
    ``wrong_phase``. The reasons of the same names are never sent."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port, auto_seeds=False)
    await raw.until(lambda msg: isinstance(msg, m.RoundCommit))
    answer = await raw.play(1, _any_play())
    assert isinstance(answer, m.Reject)
    assert (answer.code, answer.reason, answer.current_seq) == ("wrong_phase", None, None)
    await raw.aclose()

    raw = await seated(host.port)
    await raw.dealt()
    if raw.view.my_turn:
        await raw.play(2, raw.my_plays()[0])
        await raw.until(lambda msg: isinstance(msg, m.Played))
    answer = await raw.play(3, Play(raw.view.hand[0], ()))
    assert isinstance(answer, m.Reject)
    assert (answer.code, answer.reason, answer.current_seq) == ("not_your_turn", None, None)
    await raw.aclose()


def _any_play() -> Play:
    from scopa_net.cards import CARDS

    return Play(CARDS[0], ())


async def test_a_play_after_a_seq_never_sent_ends_the_connection(make_host: MakeHost) -> None:
    """3.1: ``after`` above the newest seq the connection carried is ``out_of_order``."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port)
    await raw.dealt()
    await raw.send_unchecked(m.Play(move_id=1, after=raw.seq + 1000, card=0, captured=0))
    bye = await raw.until(lambda msg: isinstance(msg, m.Bye))
    assert bye.reason == "out_of_order"
    assert "after seq" in bye.message
    await raw.aclose()


async def test_a_move_id_reused_for_another_play_is_refused(make_host: MakeHost) -> None:
    """3.5: an applied move id sent again with the same play gets ``ack duplicate``; with
    another card or capture it gets ``reject move_id_taken`` and nothing happens."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port)
    await raw.dealt()
    if not raw.view.my_turn:
        await raw.aclose()
        raw = await _my_turn_first(host.port)
    first = raw.my_plays()[0]
    ack = await raw.play(7, first)
    for _ in range(3):
        if not (isinstance(ack, m.Reject) and ack.code == "stale"):
            break
        # Events were still on their way (seq behind): catch up, then the same move again
        # (a refused move id is free, 3.5).
        current = ack.current_seq
        await raw.until(lambda msg, current=current: msg.SEQUENCED and msg.seq >= current)
        ack = await raw.play(7, first)
    assert isinstance(ack, m.Ack), ack
    assert not ack.duplicate
    await raw.until(lambda msg: isinstance(msg, m.Played) and msg.seq == ack.seq)
    seq_before = raw.seq
    other = Play(raw.view.hand[0], ())  # another card than the one move 7 played
    refused = await raw.play(7, other)
    assert isinstance(refused, m.Reject)
    assert (refused.code, refused.reason, refused.current_seq) == ("move_id_taken", None, None)
    again = await raw.play(7, first, after=0)
    assert again == m.Ack(move_id=7, seq=ack.seq, duplicate=True)
    with trio.move_on_after(0.3):
        await raw.until(lambda msg: msg.SEQUENCED)
    assert raw.seq == seq_before  # nothing was played twice
    await raw.aclose()


async def _my_turn_first(port: int) -> RawSeat:
    """A fresh table until the raw client leads the first deal (half of all deals)."""
    while True:
        raw = await seated(port)
        await raw.dealt()
        if raw.view.my_turn:
            return raw
        await raw.aclose()


async def test_a_refused_move_id_may_be_used_again(make_host: MakeHost) -> None:
    """3.5: the host remembers only applied moves; a refused id is free."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await _my_turn_first(host.port)
    hand = raw.view.hand
    refused = await raw.play(5, Play(hand[0], ()), after=0)
    assert isinstance(refused, m.Reject)
    assert refused.code == "stale"
    ack = await raw.play(5, raw.my_plays()[0])
    assert isinstance(ack, m.Ack)
    assert not ack.duplicate
    await raw.aclose()


async def test_a_newcomer_to_a_seat_starts_its_own_move_ids(make_host: MakeHost) -> None:
    """3.5: move ids belong to the player: someone taking a seat another player left may count
    from 1 again, and is not told its first move was a duplicate."""
    host = await make_host(bot_delay=0.05)
    first = await _my_turn_first(host.port)
    table_id = first.table_id
    assert table_id is not None
    ack = await first.play(1, first.my_plays()[0])
    assert isinstance(ack, m.Ack)
    await first.send(m.Leave())
    await first.until(lambda msg: isinstance(msg, m.Left))
    await first.aclose()

    second = await RawSeat.connect(host.port)
    await second.join(table_id, 0, name="newcomer")
    with trio.fail_after(20):
        while not (second.view.my_turn and second.my_plays()):
            await second.receive()
    play = second.my_plays()[0]
    answer = await second.play(1, play)
    assert isinstance(answer, m.Ack)
    assert not answer.duplicate
    played = await second.until(lambda msg: isinstance(msg, m.Played) and msg.seq == answer.seq)
    assert (played.seat, played.card) == (0, play.card.index)
    await second.aclose()


async def test_the_lobby_lists_joinable_tables_and_bots_are_connected(make_host: MakeHost) -> None:
    """3.3 and SeatInfo: ``tables`` lists tables with an open seat, so a started, full table
    is not there; a computer player's seat is always ``connected``."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await RawSeat.connect(host.port)
    table_id = await raw.create(create(RuleSet.of(3, 11), bots=1))
    await raw.send(m.ListTables())
    listing = await raw.until(lambda msg: isinstance(msg, m.Tables))
    (info,) = listing.tables
    assert info.id == table_id
    assert not info.started
    assert [(s.kind, s.connected) for s in info.seats] == [
        ("open", False),
        ("open", False),
        ("bot", True),
    ]
    await raw.join(table_id, 0)
    other = await RawSeat.connect(host.port)
    await other.join(table_id, 1)
    await raw.until(lambda msg: isinstance(msg, m.RoundCommit))
    lobby = await RawSeat.connect(host.port)
    await lobby.send(m.ListTables())
    listing = await lobby.until(lambda msg: isinstance(msg, m.Tables))
    assert listing.tables == ()
    for conn in (raw, other, lobby):
        await conn.aclose()


async def test_a_started_table_with_a_seat_left_open_is_listed(make_host: MakeHost) -> None:
    """3.3: a player who leaves a match under way opens the seat (a computer stands in until
    someone takes it), so the started table is listed again, the open seat not connected."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port, players=3)
    table_id = raw.table_id
    await raw.until(lambda msg: isinstance(msg, m.RoundCommit))
    await raw.send(m.Leave())
    await raw.until(lambda msg: isinstance(msg, m.Left))
    await raw.send(m.ListTables())
    listing = await raw.until(lambda msg: isinstance(msg, m.Tables))
    (info,) = listing.tables
    assert info.id == table_id
    assert info.started
    assert [(s.kind, s.connected) for s in info.seats] == [
        ("open", False),
        ("bot", True),
        ("bot", True),
    ]
    await raw.aclose()


# --- the table itself: snapshot fields and the rematch, without sockets -------------------


def test_snapshot_fields_mean_what_the_document_says() -> None:
    """3.9 snapshot: dealer 0 while round_no is 0; ``scores`` stay the points before the round
    even when ``round_over`` (the round's points are in ``round_score``); hand, table and
    leftover in ascending card index. (Every step also checks snapshot == the seat's view.)"""
    from table_driver import Driver, fill, new_table

    table = new_table(RuleSet.of(2, 11))
    fill(table)
    start = table.snapshot(1)
    assert (start.round_no, start.dealer, start.scores, start.to_move) == (0, 0, (0, 0), None)
    driver = Driver(table, 5)
    checked = 0
    while checked < 3 and driver.step():
        for seat in (0, 1):
            snap = table.snapshot(seat)
            for cards in (snap.hand, snap.table, snap.leftover):
                assert list(cards) == sorted(cards)
            log = table.seats[seat].log
            round_end = next((e for e in reversed(log) if isinstance(e, m.RoundEnd)), None)
            if not snap.round_over or round_end is None:
                continue
            assert snap.round_score is not None
            assert snap.round_no == round_end.round_no
            after = [
                before + sum(line.points[side] for line in snap.round_score)
                for side, before in enumerate(snap.scores)
            ]
            assert tuple(after) == round_end.scores
            checked += seat == 1
    assert checked == 3


def test_a_rematch_starts_a_fresh_match_that_verifies_and_replays() -> None:
    """3.11 at the table: every seat agrees, the new match has round 1 with a zero ``prev``,
    every seat's witness verifies it from scratch, and the journal rebuilds it all."""
    from table_driver import Driver, fill, new_table

    from scopa_net.fair.commitments import ZERO_CHAIN
    from scopa_net.server.table import Phase

    table = new_table(RuleSet.of(2, 1))
    fill(table)
    entries = list(table.take_pending())
    Driver(table, 2).run()
    table.rematch(0, True, 30)
    assert table.rematch_state == "open"
    assert table.phase is Phase.OVER
    table.rematch(1, True, 20)
    assert table.phase is Phase.WAITING
    assert table.match_no == 2
    status = table.seats[0].log[-1]
    assert status == m.RematchStatus(
        seq=status.seq, match_no=1, state="agreed", votes=("yes", "yes"), seconds=0
    )
    second = Driver(table, 3)
    second.run()
    commits = [e for e in table.seats[0].log[status.seq :] if isinstance(e, m.RoundCommit)]
    assert commits[0].round_no == 1
    assert commits[0].prev == ZERO_CHAIN
    for witness in second.witnesses:
        assert witness.verdicts
        assert all(v.ok for v in witness.verdicts)
    entries += table.take_pending()
    twin = new_table(RuleSet.of(2, 1))
    twin.replay(entries)
    for a, b in zip(table.seats, twin.seats, strict=True):
        assert a.log == b.log
    assert (twin.match_no, twin.phase, twin.chain) == (2, Phase.OVER, table.chain)


async def two_people(port: int, *, blind: bool = False) -> tuple[RawSeat, RawSeat]:
    """Two raw clients at a new table of three, the third seat a computer player's."""
    first = await RawSeat.connect(port)
    table_id = await first.create(create(RuleSet.of(3, 11), bots=1, blind=blind))
    await first.join(table_id, 0, name="first")
    second = await RawSeat.connect(port)
    await second.join(table_id, 1, name="second")
    return first, second


async def still_serves(raw: RawSeat, gone: int) -> None:
    """The table goes on for ``raw``: it sees seat ``gone`` held for its player, and its own
    chat comes back as the table's event."""
    await raw.until(
        lambda msg: isinstance(msg, m.SeatStatus) and msg.seat == gone and not msg.connected
    )
    await raw.send(m.Say(text="still here?"))
    await raw.until(lambda msg: isinstance(msg, m.Chat) and msg.text == "still here?")


async def only_its_connection_ends(
    host: Host, hostile: RawSeat, other: RawSeat, message: str
) -> None:
    """``hostile`` is told ``bye bad_field`` with ``message``; the table goes on for ``other``
    (seat 0 held for its player) and is still the host's one table. Both are closed after."""
    bye = await hostile.until(lambda msg: isinstance(msg, m.Bye))
    assert (bye.reason, bye.message) == ("bad_field", message)
    await still_serves(other, gone=0)
    assert len(host.tables) == 1
    await hostile.aclose()
    await other.aclose()


async def test_a_play_with_a_blind_proof_at_an_ordinary_table_ends_only_its_connection(
    make_host: MakeHost,
) -> None:
    """3.5: a play whose fields do not fit the table ends the connection with bye bad_field.
    It used to get no answer at all and stop the table for everyone (the refusal's code could
    not be sent in a reject), until the host restarted."""
    host = await make_host(bot_delay=SLOW_BOT)
    hostile, other = await two_people(host.port)
    await hostile.send_unchecked(
        m.Play(move_id=1, after=hostile.seq, card=0, captured=0, pos=0, proof=bytes(64))
    )
    await only_its_connection_ends(host, hostile, other, "pos and proof are for blind tables")


async def test_a_garbage_blind_key_ends_only_its_connection(make_host: MakeHost) -> None:
    """9.5 step 2: a blind_key whose proof does not verify ends that connection with bye
    bad_field; it used to stop the table for the other person at it."""
    host = await make_host(bot_delay=SLOW_BOT)
    hostile, other = await two_people(host.port, blind=True)
    started = await hostile.until(lambda msg: isinstance(msg, m.BlindRound))
    assert isinstance(started, m.BlindRound)
    junk = m.KeyInfo(point=secrets.token_bytes(32), proof=bytes(64), sign_key=bytes(32))
    await hostile.send(m.BlindKey(round_id=started.round_id, key=junk))
    await only_its_connection_ends(host, hostile, other, "the key proof does not verify")


async def test_a_chat_line_that_cleaning_lengthens_past_200_is_refused(
    make_host: MakeHost,
) -> None:
    """3.7: the 200 characters count once the line is cleaned. 200 of U+FB2C are 600 in NFC:
    the host checked the length before cleaning, failed to send the chat event and stopped
    the table for everyone."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port)
    await raw.send(m.Say(text="\ufb2c" * 200))
    error = await raw.until(lambda msg: isinstance(msg, m.Error))
    assert (error.code, error.ref) == ("chat_too_long", "say")
    await raw.send(m.Say(text="\ufb2c" * 66))  # 198 once cleaned
    chat = await raw.until(lambda msg: isinstance(msg, m.Chat))
    assert len(chat.text) == 198
    assert len(host.tables) == 1
    await raw.aclose()


async def test_a_table_stopped_by_a_host_fault_tells_its_players(
    make_host: MakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """3.8 ``internal``: a table whose task fails on a host bug closes its players'
    connections with bye internal. Before, they stayed open and silent: no event, no answer,
    only pongs, so a client waited for ever."""
    from scopa_net.server.table import Table

    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port)

    def broken(self: Table, seat: int | None, text: str) -> None:
        raise RuntimeError("a bug in the host")

    monkeypatch.setattr(Table, "say", broken)
    await raw.send(m.Say(text="hello"))
    bye = await raw.until(lambda msg: isinstance(msg, m.Bye))
    assert bye.reason == "internal"
    assert bye.message.startswith("this table stopped on a host error")
    assert host.tables == {}
    await raw.aclose()


async def test_requests_waiting_when_a_table_stops_are_answered_before_the_bye(
    make_host: MakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """3.5: every ``play`` gets an ``ack`` or a ``reject``; 3.8: a table request to a table
    that closed or stopped is ``wrong_phase``. A burst whose first frame stops the table
    (a host fault) left the rest in the table's inbox, dropped unanswered: the client read
    only ``bye internal``, never the ``reject`` for its move."""
    from scopa_net.server.table import Table

    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port, auto_seeds=False)
    await raw.until(lambda msg: isinstance(msg, m.RoundCommit))

    def broken(self: Table, seat: int | None, text: str) -> None:
        raise RuntimeError("a bug in the host")

    monkeypatch.setattr(Table, "say", broken)
    burst = [
        m.Say(text="this stops the table"),
        m.Play(move_id=7, after=raw.seq, card=0, captured=0),
        m.Rename(name="Bruno"),
        m.Rematch(agree=True),
        m.Leave(away=True),
    ]
    await raw.stream.send_all(b"".join(raw.conn.send(msg) for msg in burst))
    await raw.until(lambda msg: isinstance(msg, m.Bye), timeout=5)
    answers = [msg for msg in raw.received if isinstance(msg, m.Reject | m.Error)]
    assert [(a.code, getattr(a, "ref", a.TYPE)) for a in answers] == [
        ("wrong_phase", "reject"),
        ("wrong_phase", "rename"),
        ("wrong_phase", "rematch"),
        ("wrong_phase", "leave"),
    ]
    reject = answers[0]
    assert isinstance(reject, m.Reject)
    assert (reject.move_id, reject.reason) == (7, None)
    assert reject.message == f"table {raw.table_id} has closed; nothing was done"
    await raw.aclose()


async def test_a_request_for_a_table_gone_a_moment_ago_is_refused(make_host: MakeHost) -> None:
    """3.5 and 3.8: a seated connection's requests that reach the host after its table's task
    ended (it closed or stopped; the connection's ``left`` or ``bye`` still on its way) are
    refused with ``wrong_phase``, a ``play`` by a ``reject``. They used to get nothing (the
    table no longer listed) or an ``error no_such_table`` with ref ``play``, which the host
    could not even encode: the connection then closed without a word."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port, auto_seeds=False)
    assert raw.table_id is not None
    host.tables.pop(raw.table_id)  # the table's task has just ended, as far as the host knows
    answer = await raw.play(3, _any_play())
    assert isinstance(answer, m.Reject)
    assert (answer.code, answer.reason, answer.current_seq) == ("wrong_phase", None, None)
    await raw.send(m.Say(text="anyone?"))
    error = await raw.until(lambda msg: isinstance(msg, m.Error), timeout=5)
    assert (error.code, error.ref) == ("wrong_phase", "say")
    assert error.message == f"table {raw.table_id} has closed; nothing was done"
    await raw.aclose()


async def blind_until(raw: RawSeat, witness: BlindWitness, kind: type[m.Message]) -> m.Message:
    """Read ``raw``'s events into ``witness`` (its client's party) until the party has a
    message of ``kind`` to send; send the others, return that one unsent."""
    while True:
        msg = await raw.receive()
        if msg.SEQUENCED and not isinstance(msg, m.Snapshot):
            witness.observe(msg)
        for out in witness.take_outgoing():
            if isinstance(out, kind):
                return out
            await raw.send(out)


async def a_shuffle_held_back(
    make_host: MakeHost,
) -> tuple[Host, RawSeat, RawSeat, m.BlindShuffle, BlindParty]:
    """Two people at a 3-player blind table, in round 1's shuffles: the host, the hostile
    person (seat 0, party 1) with its honest blind_shuffle made and not sent, the other, the
    shuffle and the hostile person's party (whose round key signs what it alters)."""
    host = await make_host(bot_delay=SLOW_BOT)
    hostile, other = await two_people(host.port, blind=True)
    rules = RuleSet.of(3, 11)
    welcome = hostile.received[0]
    assert isinstance(welcome, m.Welcome)
    witnesses = [
        BlindWitness(rules, welcome.host_key, seat, new_seed=lambda: secrets.token_bytes(32))
        for seat in (0, 1)
    ]
    key = await blind_until(other, witnesses[1], m.BlindKey)
    await other.send(key)
    shuffle = await blind_until(hostile, witnesses[0], m.BlindShuffle)
    assert isinstance(shuffle, m.BlindShuffle)
    party = witnesses[0].party
    assert party is not None
    return host, hostile, other, shuffle, party


def signed_again(
    shuffle: m.BlindShuffle, party: BlindParty, deck: tuple[bytes, ...], proof: bytes
) -> m.BlindShuffle:
    """``shuffle`` with ``deck`` and ``proof``, signed by the party's own round key."""
    message = deck_message(shuffle.round_id, party.party, parse_deck(deck), proof)
    sig = party.secrets.sign(message)
    return m.BlindShuffle(round_id=shuffle.round_id, deck=deck, proof=proof, sig=sig)


async def test_a_signed_deck_holding_a_non_point_ends_only_its_connection(
    make_host: MakeHost,
) -> None:
    """9.5 step 2: a blind_shuffle whose deck is not 40 valid pairs of points ends that
    connection with bye bad_field. A signed deck with 64 random bytes at one position used
    to be taken, and the host's party failed opening the first deal: bye internal for all."""
    host, hostile, other, shuffle, party = await a_shuffle_held_back(make_host)
    deck = (*shuffle.deck[:3], secrets.token_bytes(64), *shuffle.deck[4:])
    await hostile.send(signed_again(shuffle, party, deck, shuffle.proof))
    await only_its_connection_ends(host, hostile, other, "deck position 3 is not a pair of points")


@pytest.mark.parametrize("swap", [True, False], ids=["swapped-deck", "zero-proof"])
async def test_a_signed_deck_its_proof_does_not_prove_ends_only_its_connection(
    make_host: MakeHost, swap: bool
) -> None:
    """9.5.2 and 9.5.4: a blind_shuffle whose proof does not show it a shuffle of the deck
    before it (two positions swapped after proving, or a proof of zero bytes), signed by the
    seat's own round key, ends that connection with bye bad_field; nothing is relayed, and
    the table goes on for the other person. Without the proof a last shuffler could send a
    deck of its own making and read every hand."""
    host, hostile, other, shuffle, party = await a_shuffle_held_back(make_host)
    deck, proof = shuffle.deck, shuffle.proof
    if swap:
        deck = (deck[1], deck[0], *deck[2:])
    else:
        proof = bytes(len(proof))
    await hostile.send(signed_again(shuffle, party, deck, proof))
    await only_its_connection_ends(
        host, hostile, other, "the deck is not proved a shuffle of the deck before it"
    )
    assert not any(isinstance(msg, m.BlindDeck) and msg.party == 1 for msg in other.received)


async def test_a_flood_of_refused_blind_messages_is_rate_limited(make_host: MakeHost) -> None:
    """3.6: blind messages are paced by the game (one per party and stage) and take no token,
    but each one the table refuses counts, so a flood of them is ``rate_limited`` after the
    burst of 60. 150 refused blind_key used to get 150 ``wrong_phase`` answers."""
    host = await make_host(bot_delay=SLOW_BOT)
    hostile, other = await two_people(host.port, blind=True)
    await hostile.until(lambda msg: isinstance(msg, m.BlindRound))
    junk = m.KeyInfo(point=bytes(32), proof=bytes(64), sign_key=bytes(32))
    for _ in range(150):  # for no round in progress: each is refused wrong_phase
        await hostile.send(m.BlindKey(round_id=bytes(16), key=junk))
    codes = []
    while len(codes) < 150:
        msg = await hostile.until(lambda msg: isinstance(msg, m.Error))
        assert isinstance(msg, m.Error)
        assert msg.ref == "blind_key"
        codes.append(msg.code)
    assert set(codes) == {"wrong_phase", "rate_limited"}
    assert codes.count("wrong_phase") <= 80  # the burst, and what the table had in hand
    assert len(host.tables) == 1
    await other.send(m.Say(text="still here?"))
    await other.until(lambda msg: isinstance(msg, m.Chat) and msg.text == "still here?")
    await hostile.aclose()
    await other.aclose()


REFUSED = {
    "play": (lambda raw: m.Play(move_id=1, after=raw.seq, card=0, captured=0), "wrong_phase"),
    "seed_commit": (lambda raw: m.SeedCommit(round_id=bytes(16), commit=bytes(32)), "wrong_phase"),
    "seed_reveal": (lambda raw: m.SeedReveal(round_id=bytes(16), seed=bytes(32)), "wrong_phase"),
    "say": (lambda raw: m.Say(text=" "), "chat_too_long"),
    "rematch": (lambda raw: m.Rematch(agree=True), "wrong_phase"),
}
"""A message the table refuses while it waits for seeds, and the code it is refused with."""
FLOOD = 150
SLOW_DOWN = "too many requests; slow down"


async def answers(raw: RawSeat, count: int) -> list[tuple[str, str]]:
    """The code and message of the next ``count`` refusals (``error`` or ``reject``)."""
    found = []
    while len(found) < count:
        msg = await raw.until(lambda msg: isinstance(msg, m.Error | m.Reject), timeout=5)
        assert isinstance(msg, m.Error | m.Reject)
        found.append((msg.code, msg.message))
    return found


@pytest.mark.parametrize("kind", sorted(REFUSED))
async def test_a_flood_of_refused_requests_is_rate_limited(make_host: MakeHost, kind: str) -> None:
    """3.6: every refused request counts against the limit, moves and seeds included: past
    the burst of 60 the rest are ``rate_limited`` and the connection stays open. 150 refused
    ``play``, ``seed_commit`` or ``seed_reveal`` used to get 150 ``wrong_phase`` answers."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port, auto_seeds=False)
    await raw.until(lambda msg: isinstance(msg, m.RoundCommit))
    make, code = REFUSED[kind]
    for _ in range(FLOOD):
        await raw.send(make(raw))
    codes = await answers(raw, FLOOD)
    assert {c for c, _ in codes} == {code, "rate_limited"}
    assert sum(c == code for c, _ in codes) <= 80  # the burst, and what the table had in hand
    assert {text for c, text in codes if c == "rate_limited"} == {SLOW_DOWN}
    await raw.send(m.Ping(nonce=5))  # still open: pings are outside the limit
    await raw.until(lambda msg: isinstance(msg, m.Pong) and msg.nonce == 5)
    await raw.aclose()


@pytest.mark.parametrize("kind", sorted(REFUSED))
async def test_a_long_burst_in_one_write_is_answered_in_full(
    make_host: MakeHost, kind: str
) -> None:
    """3.4: a peer that writes 300 requests at once and reads its answers gets every one
    (the burst's refusals, then ``rate_limited``) and keeps its connection: the host reads no
    further while half its bound of answers is owed. More than 64 answers used to pile up
    before the first was written and end the connection ("too far behind; resume")."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port, auto_seeds=False)
    await raw.until(lambda msg: isinstance(msg, m.RoundCommit))
    make, code = REFUSED[kind]
    await raw.stream.send_all(b"".join(raw.conn.send(make(raw)) for _ in range(2 * FLOOD)))
    codes = await answers(raw, 2 * FLOOD)
    assert {c for c, _ in codes} == {code, "rate_limited"}
    await raw.send(m.Ping(nonce=7))
    assert await raw.until(lambda msg: isinstance(msg, m.Pong | m.Bye), timeout=5) == m.Pong(
        nonce=7
    )
    await raw.aclose()


async def test_a_flood_of_lobby_refusals_is_rate_limited(host: Host) -> None:
    """3.6: refused ``join`` and ``resume`` count like any request (one at a time: a lobby
    request waits for its answer, 3.1)."""
    raw = await RawSeat.connect(host.port)
    token = bytes(16)
    requests = [
        m.Join(table_id=99, seat=None, name="x", password=None),
        m.Resume(table_id=99, seat=0, token=token, last_seq=0),
    ]
    codes = []
    for i in range(FLOOD):
        await raw.send(requests[i % 2])
        codes += await answers(raw, 1)
    assert {c for c, _ in codes} == {"no_such_table", "rate_limited"}
    assert sum(c == "no_such_table" for c, _ in codes) <= 80
    await raw.aclose()


async def my_turn(raw: RawSeat) -> None:
    """Wait until a round is dealt and ``raw``'s seat is to play (the computer players move
    at once)."""
    if raw.mirror is None or raw.view.to_move is None:
        await raw.dealt()
    if not raw.view.my_turn:
        await raw.until(lambda msg: raw.view.my_turn, timeout=10)


async def test_repeated_duplicate_moves_are_rate_limited(make_host: MakeHost) -> None:
    """3.6: a ``play`` answered ``ack`` with ``duplicate: true`` was not paced by the game (no
    move was taken), so it counts like a refusal; a flood of them was answered for ever."""
    host = await make_host()
    raw = await seated(host.port)
    await my_turn(raw)
    move = raw.my_plays()[0]
    ack = await raw.play(1, move)
    assert isinstance(ack, m.Ack)
    assert not ack.duplicate
    again = m.Play(move_id=1, after=raw.seq, card=move.card.index, captured=move.captured_mask)
    for _ in range(FLOOD):
        await raw.send(again)
    found = []
    while len(found) < FLOOD:
        msg = await raw.until(lambda msg: isinstance(msg, m.Ack | m.Reject), timeout=5)
        found.append("duplicate" if isinstance(msg, m.Ack) else msg.code)
    assert set(found) == {"duplicate", "rate_limited"}
    assert found.count("duplicate") <= 80
    await raw.aclose()


async def test_other_requests_never_get_a_move_refused_for_the_rate(make_host: MakeHost) -> None:
    """3.6: only refused moves and seeds use up the limit that gates them: a client that
    chatted itself into ``rate_limited`` still has its move taken on its turn."""
    host = await make_host()
    raw = await seated(host.port)
    for _ in range(FLOOD):
        await raw.send(m.Say(text=" "))
    assert "rate_limited" in {c for c, _ in await answers(raw, FLOOD)}
    await my_turn(raw)
    ack = await raw.play(1, raw.my_plays()[0])
    assert isinstance(ack, m.Ack)
    await raw.aclose()


@pytest.mark.parametrize("kind", sorted(REFUSED))
async def test_a_burst_in_one_write_gets_no_more_than_the_limit(
    make_host: MakeHost, kind: str
) -> None:
    """3.6: the host reads a burst written at once before the table has refused any of it; a
    move or seed still waiting at the table counts as if refused until it is answered, so no
    more than the burst of 60 reach the table. 64 refused ``play`` in one write all got
    ``wrong_phase``."""
    host = await make_host(bot_delay=SLOW_BOT)
    raw = await seated(host.port, auto_seeds=False)
    await raw.until(lambda msg: isinstance(msg, m.RoundCommit))
    make, code = REFUSED[kind]
    await raw.stream.send_all(b"".join(raw.conn.send(make(raw)) for _ in range(64)))
    codes = await answers(raw, 64)
    assert {c for c, _ in codes} == {code, "rate_limited"}
    assert sum(c == code for c, _ in codes) <= 61
    await raw.aclose()
