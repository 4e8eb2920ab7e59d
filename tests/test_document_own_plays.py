"""The outsiders' client checks its own plays as protocol.md 3.5 says (*changed play*), at our
real host over loopback: a host that relays another capture than the one sent, or plays a card
for a person who is there, stops it; an honest host, through a drop with a move on its way and
a computer standing in, never does."""

from __future__ import annotations

import re

import pytest
import trio
from cheats import play_once_for, relay_another_capture
from document_cheating_host import FORGED_MOVE_ID, CheatingHost
from document_client import ChangedPlayError, DocumentClient, HostMisbehavedError
from document_own_plays import OwnPlays, card_words, take_words
from document_referee import Table
from hosting import start_host


async def ada_at(port: int, *, players: int = 2, target: int = 11) -> DocumentClient:
    """Ada at a new table of ``players`` seats, the others the host's computer players."""
    ada = DocumentClient("Ada")
    await ada.connect("127.0.0.1", port)
    await ada.join(await ada.create_table(target=target, bots=players - 1, players=players))
    return ada


async def stopped_by_a_check(ada: DocumentClient) -> ChangedPlayError:
    with pytest.raises(ChangedPlayError) as failed:
        await ada.play()
    assert ada.conn is None  # it left: `bye deal_failed` sent, the connection closed
    return failed.value


CAPTURE_MATCHES = 8
"""Matches to 21 Ada plays at most to meet a capture with another choice: about 1 match in
25 has none (the deal is random), so 8 all without one is about 1 in 10^11."""


async def stopped_at_a_capture_with_another_choice(
    port: int, changed: list[tuple[int, int, int]]
) -> ChangedPlayError:
    """Ada plays matches to 21, each at a new table, until the host changes one of her
    captures (it can only where her card had another one to take): her client stops then."""
    for _ in range(CAPTURE_MATCHES):
        ada = await ada_at(port, target=21)
        try:
            await ada.play()
        except ChangedPlayError as error:
            failed = error
        else:
            assert not changed, "the host changed one of Ada's captures and her client played on"
            await ada.drop()  # no capture of hers had another choice: another match
            continue
        assert changed, failed  # stopped by the host's change, by nothing else
        assert ada.conn is None  # it left: `bye deal_failed` sent, the connection closed
        return failed
    pytest.fail(f"in {CAPTURE_MATCHES} matches Ada never had a capture with another choice")


async def test_a_host_that_relays_another_capture_stops_it_with_changed_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    changed: list[tuple[int, int, int]] = []
    relay_another_capture(monkeypatch, 0, changed)
    with trio.fail_after(60):  # up to CAPTURE_MATCHES matches (each well under a second alone)
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            failed = await stopped_at_a_capture_with_another_choice(host.port, changed)
            nursery.cancel_scope.cancel()
    ((card, sent, relayed),) = changed
    assert failed.check == "changed play"
    assert failed.detail == (
        f"the host recorded your play of {card_words(card)} as {take_words(relayed)}; "
        f"you sent it {take_words(sent)}"
    )
    assert str(failed).startswith(f"round {failed.round_no}: changed play: the host recorded")


async def test_a_card_the_host_plays_for_a_person_who_is_there_stops_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played_for: list[int] = []
    play_once_for(monkeypatch, 0, played_for)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            failed = await stopped_by_a_check(await ada_at(host.port))
            nursery.cancel_scope.cancel()
    assert played_for, "the host never played for Ada: the test proves nothing"
    assert failed.round_no == 1
    assert re.fullmatch(
        r"the host recorded a play for your seat, the \w+ of \w+ "
        r"(laying it on the table|taking the .*), that you did not make",
        failed.detail,
    ), failed.detail


@pytest.mark.parametrize("players", [2, 4])
async def test_an_honest_host_raises_no_alarm_through_a_drop_mid_move(players: int) -> None:
    """Ada's connection drops just after a `play` left, and stays down past the grace period,
    so the host's computer plays for her; she resumes, sends the move again, and plays on to
    the match's end with no check failing."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0.05, grace=0.2)
            ada = await ada_at(host.port, players=players, target=4)
            await ada.play(stop=lambda c: c.plays_sent == 2)  # the second move on its way
            assert ada.pending is not None
            (task,) = host.tables.values()
            with trio.fail_after(10):  # applied, its answer unread as the connection drops
                while task.table.seats[ada.seat_no].seq <= ada.last_seq:
                    await trio.sleep(0.01)
            await ada.drop()
            stood_in = len(task.table.computer_plays)
            with trio.fail_after(10):  # the host's computer plays for her meanwhile
                while len(task.table.computer_plays) == stood_in:
                    await trio.sleep(0.01)
            await ada.connect("127.0.0.1", host.port)
            await ada.resume()
            assert ada.caught_up_by == "replay"
            await ada.play()
            assert ada.seat is not None
            assert ada.seat.match_over
            # The move on its way was sent again and answered as a repeat, its event replayed.
            repeat = ada.acks[1]
            assert (repeat["move_id"], repeat["duplicate"]) == (2, True), ada.acks
            (event,) = [e for e in ada.events if e["seq"] == repeat["seq"]]
            assert (event["t"], event["seat"]) == ("played", ada.seat_no)
            assert ada.own.sent[2] == (event["card"], event["captured"])
            await ada.quit()
            nursery.cancel_scope.cancel()


def test_a_repeat_answered_after_its_replayed_event_is_compared_with_it() -> None:
    """3.5: where the `played` came first (a move sent again after a resume, its `played` in
    the replay) the `ack` is compared as it arrives; a `played` it did not send, while a move
    is unanswered, is held until every move is answered."""
    own = OwnPlays()
    own.sending(3, 24, 1 << 25)
    assert own.event({"t": "played", "seq": 9, "seat": 0, "card": 24, "captured": 1 << 26},
                     0, watched=True) is None  # fmt: skip
    own.sending(3, 24, 1 << 25)  # sent again after a resume
    said = own.ack({"move_id": 3, "seq": 9, "duplicate": True}, last_seq=9)
    assert said == (
        "the host recorded your play of the seven of coins as taking the seven of swords; "
        "you sent it taking the seven of cups"
    )
    held = OwnPlays()
    held.sending(1, 4, 0)
    assert held.event({"t": "played", "seq": 5, "seat": 0, "card": 4, "captured": 0},
                      0, watched=True) is None  # fmt: skip
    said = held.reject({"move_id": 1, "code": "not_your_turn"})
    assert said == (
        "the host recorded a play for your seat, the two of coins laying it on the table, "
        "that you did not make"
    )


def test_a_not_now_answer_leaves_the_move_unanswered_and_its_held_play_waiting() -> None:
    """3.5: `storage` and `rate_limited` come before any check, even to a move sent again
    that the host had applied: the move stays unanswered, sent again as it was, and the play
    held for it is judged by the answer to that (here the repeat's `ack`), not by them."""
    for code in ("storage", "rate_limited"):
        own = OwnPlays()
        own.sending(3, 24, 1 << 25)
        assert own.event({"t": "played", "seq": 9, "seat": 0, "card": 24, "captured": 1 << 25},
                         0, watched=True) is None  # fmt: skip
        own.sending(3, 24, 1 << 25)  # sent again after a resume
        assert own.reject({"move_id": 3, "code": code}) is None
        assert own.unanswered == {3}
        own.sending(3, 24, 1 << 25)  # sent again after a pause
        assert own.ack({"move_id": 3, "seq": 9, "duplicate": True}, last_seq=9) is None
        assert not own.held
        assert not own.unanswered


async def test_an_ack_for_a_move_it_never_sent_ends_its_connection_out_of_order() -> None:
    """3.1, 3.5: a host that plays a card for Ada and sends her an `ack` naming it under a
    `move_id` she never used, as if she had sent it: her client refuses the answer (`bye
    out_of_order`), and never takes the play as hers."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = CheatingHost("forged_ack")
            await host.start(nursery)
            host.open_table(Table(2, 1, frozenset()), bots=1)
            ada = DocumentClient("Ada")
            await ada.connect("127.0.0.1", host.port)
            await ada.join(1, 0)
            with pytest.raises(HostMisbehavedError, match="ack of a move never sent"):
                await ada.play()
            nursery.cancel_scope.cancel()
    assert host.cheated_once
    assert (0, "out_of_order", f"ack of move {FORGED_MOVE_ID}, never sent") in host.byes
    assert all(ack["move_id"] != FORGED_MOVE_ID for ack in ada.acks)


def played(seq: int, card: int, captured: int = 0, seat: int = 0) -> dict:
    return {"t": "played", "seq": seq, "seat": seat, "card": card, "captured": captured}


def test_after_a_stale_resume_a_replayed_play_is_the_person_s_only_as_acknowledged() -> None:
    """3.3: `error stale` with `current_seq` 10: the events after it did not happen at the host.
    In the replay that follows, a play of the seat at or below 10 that an `ack` named before
    is the person's, as sent; one the host recorded otherwise, or at a `seq` no `ack` named, is
    a *changed play*; so is, once the host answers a new move, any play no `ack` names."""
    own = OwnPlays()
    own.sending(1, 4, 0)
    assert own.ack({"move_id": 1, "seq": 8, "duplicate": False}, last_seq=7) is None
    assert own.event(played(8, 4), 0, watched=True) is None
    own.sending(2, 9, 0)
    assert own.ack({"move_id": 2, "seq": 12, "duplicate": False}, last_seq=11) is None
    assert own.event(played(12, 9), 0, watched=True) is None
    own.rewound(10, dropped=set())
    assert own.acknowledged == {8: (4, 0)}  # the ack of event 12 names nothing now
    assert own.event(played(8, 4), 0, watched=True) is None  # replayed as acknowledged
    assert own.event(played(9, 5), 0, watched=True) == (
        "the host recorded a play for your seat, the two of cups laying it on the table, "
        "that you did not make"
    )
    changed = OwnPlays()
    changed.sending(1, 24, 1 << 25)
    changed.ack({"move_id": 1, "seq": 6, "duplicate": False}, last_seq=5)
    changed.event(played(6, 24, 1 << 25), 0, watched=True)
    changed.rewound(6, dropped=set())
    assert changed.event(played(6, 24, 1 << 26), 0, watched=True) is not None
    answered = OwnPlays()
    answered.sending(1, 4, 0)
    answered.ack({"move_id": 1, "seq": 8, "duplicate": False}, last_seq=7)
    answered.rewound(10, dropped=set())
    answered.sending(2, 9, 0)  # a new move: its answer comes after every replayed event
    answered.ack({"move_id": 2, "seq": 13, "duplicate": False}, last_seq=12)
    assert answered.event(played(13, 9), 0, watched=True) is None
    assert answered.event(played(15, 4), 0, watched=True) is not None  # nothing kept stands now


def test_a_move_chosen_after_current_seq_is_dropped_and_its_held_play_with_it() -> None:
    """3.5: after `stale` a move chosen after `current_seq` is not sent again: it is no longer
    unanswered, and the play held for it (read after `current_seq`) did not happen."""
    own = OwnPlays()
    own.sending(3, 4, 0)
    assert own.event(played(12, 4), 0, watched=True) is None  # held: move 3 unanswered
    own.rewound(10, dropped={3})
    assert not own.unanswered
    assert not own.held
    assert 12 not in own.read


def test_after_a_stale_with_no_current_seq_the_replay_is_unchecked_until_a_new_answer() -> None:
    """3.5: with no `current_seq` said (a host of 4), the client cannot tell which plays the
    host still has: the replay that follows is unchecked, and no play is taken for an earlier
    client's once the host answers a new move."""
    own = OwnPlays()
    own.sending(1, 4, 0)
    own.ack({"move_id": 1, "seq": 8, "duplicate": False}, last_seq=7)
    own.rewound(None, dropped=set())
    assert own.event(played(5, 30), 0, watched=True) is None  # unchecked
    own.sending(2, 9, 0)
    own.ack({"move_id": 2, "seq": 20, "duplicate": False}, last_seq=19)
    assert own.event(played(20, 9), 0, watched=True) is None
    assert own.event(played(22, 30), 0, watched=True) is not None


def test_a_seat_taken_back_from_disk_takes_the_plays_kept_with_it_and_no_other() -> None:
    """3.3, 3.5: a client started afresh that takes a seat back from disk knows the plays an
    `ack` named to an earlier client of the seat (`seq`, `card`, `captured`): in the replay,
    a play of the seat is the person's only where it is one of those, at that `seq`, as sent.
    A seat kept by an older client, which kept only the newest such `seq`, has its replay
    unchecked."""
    own = OwnPlays.taken_back({8: (4, 0), 14: (24, 1 << 25)})
    assert own.event(played(8, 4), 0, watched=True) is None
    assert own.event(played(11, 7, seat=1), 0, watched=True) is None  # another seat's
    assert own.event(played(14, 24, 1 << 26), 0, watched=True) == (
        "the host recorded a play for your seat, the seven of coins taking the seven of swords, "
        "that you did not make"
    )
    assert OwnPlays.taken_back({8: (4, 0)}).event(played(10, 5), 0, watched=True) is not None
    older = OwnPlays.taken_back({}, newest_only=14)
    assert older.event(played(10, 5), 0, watched=True) is None
    assert older.event(played(14, 24, 1 << 26), 0, watched=True) is None
