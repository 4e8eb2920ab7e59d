"""A resume the host refuses (protocol.md 3.3, 3.8), over real loopback TCP: for now (the
host slows a seat down, or cannot save just now) the client tries again and takes the seat
back; as ``stale`` (the host has fewer events for the seat than the client saw: its journal
put back from an older copy) the client says so in one line, and is caught up again from
what the host has, the board rebuilt from the host's events."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
import trio
from faultproxy import FaultProxy
from full_journal import between_writes
from helpers import seat_for_reconnection
from hosting import create, start_host
from journal_copies import copy_journal, put_back
from proxied import session_through_proxy
from session_watch import said_into, until

from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import ConnectionChanged, ConnectionState
from scopa_net.client.session_errors import PlayRefusedError
from scopa_net.mirror import SeatMirror
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import Table
from scopa_net.witness import DealWitness


async def cut_and_get_back(proxy: FaultProxy, session: NetworkSession) -> None:
    proxy.cut_all()
    await until(lambda: session.connection is not ConnectionState.CONNECTED)
    await until(lambda: session.connection is ConnectionState.CONNECTED)


async def journaled_rounds(host: Host) -> int:
    """How many rounds the host's journal holds opened (`round` entries), read between two of
    its writes (the test may then copy the file)."""
    await between_writes(host)
    (record,) = host.journal.tables()
    return sum(entry.kind == "round" for entry in host.journal.entries(record.table_id))


async def test_a_resume_refused_rate_limited_is_tried_again(tmp_path: Path) -> None:
    """Bea's network dropped twice within seconds: the host refused the second resume
    (`error rate_limited`: at most one resume of a seat in 1.5 s here), and her client said
    "The host ... no longer holds seat 1 ... (the seat was given up or the match ended)" and
    forgot the seat. The seat was there all along: the client tries again and is back."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, resume_burst=1, resume_window=1.5)
            store = SeatStore(tmp_path)
            async with session_through_proxy(nursery, host.port, RuleSet.of(2, 11), store) as (
                proxy,
                bea,
            ):
                said: list[str] = []
                nursery.start_soon(said_into, bea, said)
                await cut_and_get_back(proxy, bea)  # the one resume allowed
                await cut_and_get_back(proxy, bea)  # refused for a moment, then back
                assert not [t for t in said if "no longer holds" in t], said
                assert [r.seat for r in store.records()] == [bea.seat]  # still kept
                await until(lambda: bea.view is not None and bea.view.my_turn)
                assert bea.view is not None
                await bea.submit(legal_plays(bea.view)[0])  # and played on
            nursery.cancel_scope.cancel()


async def test_a_resume_refused_for_the_host_s_disk_is_tried_again(tmp_path: Path) -> None:
    """The host's disk refused writes as Bea's connection dropped: her resume got `error
    storage` (try again in a moment), which her client took for a seat lost. It tries again,
    and is back once the host can save."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(
                nursery, db=str(tmp_path / "host.db"), bot_delay=0, chat_lines=10_000
            )
            db = host.journal._db
            async with session_through_proxy(
                nursery, host.port, RuleSet.of(2, 11), SeatStore(tmp_path)
            ) as (proxy, bea):
                said: list[str] = []
                nursery.start_soon(said_into, bea, said)
                await until(lambda: bea.view is not None and bea.view.my_turn)
                await between_writes(host)  # (the test may touch the journal)
                # SQLite's page limit reached fails as a full disk does (SQLITE_FULL).
                pages = db.execute("PRAGMA page_count").fetchone()[0]
                db.execute(f"PRAGMA max_page_count = {pages}")
                with trio.fail_after(30):
                    while host.writer.failing is None:  # chat until a write fails
                        await bea.say("x" * 190)
                        await trio.sleep(0.02)
                proxy.cut_all()
                await until(lambda: bea.connection is not ConnectionState.CONNECTED)
                await trio.sleep(1.0)  # a few resumes refused meanwhile
                assert bea.connection is ConnectionState.RECONNECTING
                db.execute("PRAGMA max_page_count = 1073741823")  # space freed
                await until(lambda: bea.connection is ConnectionState.CONNECTED)
                assert not [t for t in said if "no longer holds" in t], said
            nursery.cancel_scope.cancel()


async def test_a_resume_past_the_seat_changes_of_a_round_says_why_then_comes_back(
    tmp_path: Path,
) -> None:
    """Bea's connection dropped again and again in one round, past the host's seat changes
    for a round (protocol.md 3.6; two here): her client tried again in silence, and after
    five minutes would have said the host was unreachable, though it answered every time.
    Now she reads the host's words once, and is back as the next round opens (a computer
    finishes this one for her once her grace period is over)."""
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, seat_changes=2, grace=2.0)
            async with session_through_proxy(
                nursery, host.port, RuleSet.of(2, 11), SeatStore(tmp_path)
            ) as (proxy, bea):
                details: list[str] = []

                async def watch() -> None:
                    async for event in bea.events:
                        if isinstance(event, ConnectionChanged) and event.detail:
                            details.append(event.detail)

                nursery.start_soon(watch)
                await until(lambda: bea.view is not None and bea.view.my_turn)
                await cut_and_get_back(proxy, bea)  # two changes of her seat this round
                await cut_and_get_back(proxy, bea)
                proxy.cut_all()
                await until(lambda: [d for d in details if d.startswith("the host answered")])
                assert bea.connection is ConnectionState.RECONNECTING
                (told,) = [d for d in details if d.startswith("the host answered")]
                assert told == (
                    "the host answered: your seat has changed hands, come back or changed name "
                    "2 times this round, as many as this host allows; it is still yours: come "
                    "back once the next round starts; this client tries again, type quit to stop"
                )
                await until(lambda: bea.connection is ConnectionState.CONNECTED, 30)
            nursery.cancel_scope.cancel()


def _host_view(host: Host, table_id: int, seat: int) -> tuple[object, ...]:
    view = SeatMirror(host.tables[table_id].table.snapshot(seat)).view
    return view.hand, view.table, view.scores, view.plays, view.round_number


async def test_a_host_that_lost_events_the_client_saw_goes_on_from_what_it_has(
    tmp_path: Path,
) -> None:
    """Bea's host was started again from an older copy of its journal: her resume (with the
    newest event she had seen) got `error stale`, and her client said the host "no longer
    holds" her seat and forgot it. It now says in one line that the host lost what came after
    an event, resumes from where her match began, and rebuilds the board from the host's
    events: the same board as the host's, and she plays on."""
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            first = await start_host(nursery, db=str(db), bot_delay=0, grace=600)
            proxy = FaultProxy(first.port)
            await nursery.start(proxy.serve)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            async with open_network_session(
                "127.0.0.1", proxy.port, choice, name="Bea", store=SeatStore(tmp_path / "seats")
            ) as bea:
                said: list[str] = []
                nursery.start_soon(said_into, bea, said)
                await until(lambda: bea.view is not None and bea.view.my_turn)
                copy_journal(db, copy)
                assert bea.mirror is not None
                copied = bea.mirror.seq
                while bea.mirror.seq < copied + 12:  # events the copy will not have (more
                    # than the few a host restarted adds: seats lost, back)
                    await until(lambda: bea.view is not None and bea.view.my_turn)
                    assert bea.view is not None
                    await bea.submit(legal_plays(bea.view)[0])
                await until(lambda: bea.view is not None and bea.view.my_turn)
                seen = bea.mirror.seq
                await first.shutdown()
                first.journal.close()
                put_back(copy, db)
                again = await start_host(nursery, db=str(db), bot_delay=0, grace=600)
                proxy.target_port = again.port
                await until(lambda: bea.connection is not ConnectionState.CONNECTED)
                await until(lambda: bea.connection is ConnectionState.CONNECTED)
                await until(lambda: any(t.startswith("Back in your seat") for t in said))
                (lost,) = [t for t in said if "has lost" in t]
                assert lost.startswith(
                    f"The host at 127.0.0.1:{proxy.port} has lost what came after event "
                ), lost
                assert f"(this client saw {seen})" in lost, lost
                assert lost.endswith(
                    "The table goes on from what the host has; what you saw after that did not "
                    "happen there."
                ), lost
                newest = int(lost.split("after event ")[1].split()[0])
                assert copied <= newest < seen
                assert not [t for t in said if "no longer holds" in t or "FAILED" in t], said
                await until(lambda: bea.view is not None and bea.view.my_turn)
                assert bea.table_id is not None
                assert (bea.view.hand, bea.view.table, bea.view.scores, bea.view.plays) == (
                    _host_view(again, bea.table_id, bea.seat)[:4]
                )
                await bea.submit(legal_plays(bea.view)[0])  # the host takes her move
            nursery.cancel_scope.cancel()


def test_a_resume_refused_is_said_in_the_hosts_words_where_it_says_why(tmp_path: Path) -> None:
    """The host's words on a refused resume: a table a restarted host closed (an older
    scopa-net's journal) read "(the match there is over)" with an export hint the host then
    refuses; a seat a newcomer took while its player was away long read "the seat was given
    up or the match ended". Each now says what the host said; an unexplained refusal names
    every case, the long absence too."""
    from types import SimpleNamespace

    from scopa_net.client.reconnection import Reconnection
    from scopa_net.client.session_errors import RefusedError

    seat = seat_for_reconnection(  # taken back after the client stopped: it saved no end
        tmp_path, seat=1, table_id=2, _transcripts=SimpleNamespace(saved=None)
    )
    words = Reconnection(seat).seat_lost_words
    head = "The host at club:7311 no longer holds seat 1 at table 2 for you"
    closed = RefusedError(
        "no_such_table",
        "the host closed table 2 as it restarted: begun by an older scopa-net that this one "
        "cannot go on with",
    )
    assert words(closed) == (
        f"{head} (the host says: the host closed table 2 as it restarted: begun by an older "
        "scopa-net that this one cannot go on with). Your transcript of its rounds played so "
        f"far is in {tmp_path / 'transcripts'}, to check with `scopa-net verify FILE`."
    )
    over = words(RefusedError("no_such_table", "there is no table 2"))
    assert over.startswith(f"{head} (the match there is over). Its transcript is in the host")
    taken = RefusedError(
        "bad_token",
        "your seat at table 2 was taken by Lea after you were away for more than 10 minutes; "
        "`scopa-net join` lists the open seats",
    )
    assert words(taken) == f"{head}: {taken.message}."
    assert words(RefusedError("bad_token", "that token does not hold the seat")) == (
        f"{head} (the seat was given up, the match ended, or someone took it after you were "
        "away long)."
    )
    # A host of protocol 5 says why in `error`'s `why` (protocol.md 3.8), and only there: its
    # words are for people, however they read.
    gone = RefusedError("no_such_table", "table 2 was closed by its host", version=5)
    assert words(gone).startswith(f"{head} (the match there is over). Its transcript is in")
    closed = RefusedError("no_such_table", "gone", why="table_closed_on_restart", version=5)
    assert words(closed).startswith(f"{head} (the host says: gone). Your transcript")


def test_the_hosts_newest_event_is_read_from_current_seq_and_from_older_words() -> None:
    """protocol.md 3.8: the host's newest event for the seat, from a `stale` refusal of a
    resume: `current_seq` (version 5), whatever the words; from a host of 4, our older host's
    words `... this seat's newest event N; ...`; else not known."""
    from scopa_net.client.reconnection import host_newest_seq
    from scopa_net.client.session_errors import RefusedError

    older = "last_seq 57 is beyond this seat's newest event 41; resume with the newest seq received"
    assert host_newest_seq(RefusedError("stale", "the newest is 3", version=5, current_seq=3)) == 3
    assert host_newest_seq(RefusedError("stale", older, version=5, current_seq=0)) == 0
    assert host_newest_seq(RefusedError("stale", older, version=4)) == 41
    assert host_newest_seq(RefusedError("stale", "the newest event is 41", version=4)) is None


async def test_a_round_the_host_tells_again_from_an_older_journal_gets_the_same_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5.4 (Resending): the host's journal put back to a copy taken as round 2 opened, before
    Bea's commitment reached it, once round 2 was dealt. Her resume is refused `stale`, the host
    tells round 2 again under the same round id, and her client commits the same seed again
    (kept with the round), never a fresh one: she is dealt the same hand, so a host that had
    seen her seed cannot choose between two deals, and no check fails."""
    monkeypatch.setattr(Table, "pause_before_round", property(lambda table: 0.5))
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    hands: dict[int, tuple] = {}  # the host's run: Bea's hand at her first move of round 2
    runs = [1]

    async def plays(bea: NetworkSession) -> None:
        while True:
            await until(lambda: bea.view is not None and bea.view.my_turn, 60)
            view = bea.view
            assert view is not None
            if view.round_number == 2 and view.stock_count == 30 and len(view.hand) == 3:
                hands.setdefault(runs[-1], view.hand)
            with contextlib.suppress(PlayRefusedError):  # chosen on what the host lost
                await bea.submit(legal_plays(view)[0])
            await until(lambda seen=view: bea.view is not seen, 60)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            first = await start_host(nursery, db=str(db), bot_delay=0, grace=600)
            proxy = FaultProxy(first.port)
            await nursery.start(proxy.serve)
            choice = TableChoice(create=create(RuleSet.of(2, 16), bots=1))
            async with open_network_session(
                "127.0.0.1", proxy.port, choice, name="Bea", store=SeatStore(tmp_path / "seats")
            ) as bea:
                said: list[str] = []
                nursery.start_soon(said_into, bea, said)
                player = trio.CancelScope()  # her moves stop before her session closes

                async def play_on() -> None:
                    with player:
                        await plays(bea)

                nursery.start_soon(play_on)
                await until(
                    lambda: isinstance(bea.witness, DealWitness) and bea.witness.verdicts, 30
                )
                proxy.hold()  # round 2's round_commit reaches her only after the copy
                with trio.fail_after(30):  # round 2 opened, in the journal (before her seed)
                    while await journaled_rounds(first) < 2:
                        await trio.sleep(0.01)
                copy_journal(db, copy)
                proxy.lift()
                await until(lambda: 1 in hands, 30)
                await first.shutdown()
                first.journal.close()
                put_back(copy, db)
                runs.append(2)
                again = await start_host(nursery, db=str(db), bot_delay=0, grace=600)
                proxy.target_port = again.port
                await until(lambda: 2 in hands, 30)
                assert [t for t in said if "has lost what came after event" in t], said
                assert hands[1] == hands[2], said
                player.cancel()
                assert not [t for t in said if "FAILED" in t or "re-rolled" in t], said
            nursery.cancel_scope.cancel()
