"""Our host, field by field, as protocol.md describes every message: ``document_fields`` (an
outsider's check, written from the document and reading its field tables from it) decodes
every frame our real host sends over loopback TCP and checks each field against 3.9 and 3.10
and their prose. Ordinary and blind tables of 2, 3, 4 and 6, variants that add score lines,
connections cut (a resume by replay, and by snapshot), a person away past the grace period (a
computer standing in), a rematch, a host restarted from its journal, and a blind round void
before its first deal."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from pathlib import Path

import pytest
import rawseat
import trio
from document_fields import ROWS, TABLES, FieldWatch, epoch_problems
from field_watching import Watches
from helpers import free_port, imported_modules, kings_on_the_table
from hosting import create, start_host
from rawseat import RawSeat

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.session_errors import MoveUnansweredError
from scopa_net.rules import RuleSet
from scopa_net.server import table_task
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal
from scopa_net.server.table import Table
from scopa_net.wire import messages as m


def test_the_check_imports_nothing_of_ours() -> None:
    path = Path(__file__).parent / "document_fields.py"
    assert imported_modules(path) <= {"__future__", "re", "unicodedata", "collections", "pathlib",
                                      "msgpack"}  # fmt: skip


def test_every_table_of_the_document_is_read_and_a_wrong_field_is_caught() -> None:
    """The check is not empty: every message and map of 3.9 and 3.10 has its rows, and a
    snapshot that breaks the document one way at a time is caught each time."""
    assert len(TABLES) >= 55
    assert all(ROWS[name] for name in TABLES if name != "list_tables")
    good = {
        "t": "snapshot", "seq": 3, "table_id": 1, "seat": 1, "side": 1,
        "rules": {"players": 2, "target": 11, "variants": []}, "dealer": 0, "round_no": 0,
        "to_move": None, "hand": [], "table": [], "hand_counts": [0, 0], "stock": 0,
        "pile_counts": [0, 0], "sweeps": [0, 0], "scores": [0, 0], "plays": [],
        "void_deal": False, "round_over": False, "leftover": [], "round_score": None,
        "winner": None, "seats": [],
    }  # fmt: skip
    watch = FieldWatch()
    watch.take(good)
    assert watch.problems == []
    for change in (
        {"dealer": 1}, {"voids": 1}, {"voids": 0}, {"hand_counts": [0]}, {"side": 0},
        {"seq": True}, {"stock": 41}, {"redeal": True, "round_no": 1, "dealer": 0},
        {"table": [3, 1], "round_no": 1}, {"seats": [{"kind": "open", "name": "x",
        "connected": False}] * 2}, {"extra": 1},
    ):  # fmt: skip
        watch = FieldWatch()
        watch.take({**good, **change})
        assert watch.problems, change
    reordered = {"t": "snapshot", "table_id": 1, **{k: v for k, v in good.items() if k != "t"}}
    watch = FieldWatch()
    watch.take(reordered)
    assert any("listed order" in p for p in watch.problems)


async def person(
    host: Host,
    watches: Watches,
    name: str,
    choice: TableChoice,
    data: Path,
    *,
    again: bool = False,
    **watching: object,
) -> None:
    """One of our clients, playing at random to the match's end (``again``: then it votes to
    play again and plays the next match too), its connections watched."""
    connector = watches.connector(host.port, name, **watching)  # type: ignore[arg-type]
    async with open_network_session(
        "127.0.0.1", host.port, choice, name=name, data_dir=data, connector=connector,
        offer_rematch=again,
    ) as session:  # fmt: skip
        # A move the match's end cut short (our bot client's race, not the host's fields).
        with contextlib.suppress(MoveUnansweredError):
            await play_as_bot(session, make_player("random", len(name)))
            if again:
                await session.rematch(True)
                await play_as_bot(session, make_player("random", len(name)))


async def a_match(
    tmp_path: Path, rules: RuleSet, people: int, *, blind: bool = False, **host_options: object
) -> Watches:
    """A whole match: ``people`` of our clients, computer players in the other seats. The
    first person's connection is cut twice and comes back at once (a resume by replay); the
    second's is cut once and comes back past the grace period (a computer stood in; a resume
    by snapshot, past the replay limit)."""
    watches = Watches()
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=0.2, replay_limit=8, **host_options)
            opener = await RawSeat.over(
                watches.raw(await trio.open_tcp_stream("127.0.0.1", host.port), "opener")
            )
            table_id = await opener.create(create(rules, bots=rules.players - people, blind=blind))
            await opener.aclose()
            async with trio.open_nursery() as people_there:
                for n in range(people):
                    cuts, pause = ([40, 90], 0.0) if n == 0 else ([60], 1.0)
                    people_there.start_soon(
                        lambda n=n, cuts=cuts, pause=pause: person(
                            host, watches, f"p{n}", TableChoice(table_id=table_id),
                            tmp_path / f"p{n}", cuts=cuts, pause=pause,
                        )
                    )  # fmt: skip
            nursery.cancel_scope.cancel()
    return watches


RULE_SETS = {
    "2p": RuleSet.of(2, 3),
    "3p": RuleSet.of(3, 3),
    "4p scopone, re bello": RuleSet.of(4, 3, ["scopone", "re_bello"]),
    "4p napola": RuleSet.of(4, 3, ["napola", "re_bello"]),
    "6p": RuleSet.of(6, 3),
    "6p three pairs": RuleSet.of(6, 3, ["six_as_three_pairs", "napola"]),
}


@pytest.fixture
def short_linger(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables close 3 s after their match (not 60), so that a client that stays on never
    holds a test for a minute. (A person back by snapshot after the vote was declined was
    seen resuming again every second until the table closed: it sent its unanswered move
    before the snapshot, test_client_resend_after_snapshot.py.)"""
    monkeypatch.setattr(table_task, "LINGER", 3.0)


@pytest.mark.usefixtures("short_linger")
@pytest.mark.parametrize("name", sorted(RULE_SETS))
async def test_every_field_of_an_ordinary_match_is_as_the_document_says(
    tmp_path: Path, name: str
) -> None:
    rules = RULE_SETS[name]
    watches = await a_match(tmp_path, rules, 2)
    print(watches.catch_ups, watches.seen)
    assert watches.problems == []
    seen = watches.seen
    for t in ("snapshot", "round_commit", "deal", "played", "round_end", "match_end"):
        assert seen.get(t), t
    assert len(watches.all) >= 4  # the opener, two people, and p0's resumes


@pytest.mark.usefixtures("short_linger")
@pytest.mark.parametrize("players", [2, 3, 4, 6])
async def test_every_field_of_a_blind_match_is_as_the_document_says(
    tmp_path: Path, players: int
) -> None:
    rules = RuleSet.of(players, 1)
    watches = await a_match(tmp_path, rules, 2, blind=True)
    print(watches.catch_ups, watches.seen)
    assert watches.problems == []
    for t in ("snapshot", "blind_round", "blind_keys", "blind_deal", "round_end", "match_end"):
        assert watches.seen.get(t), t


class Scripted:
    """A bare seat (``RawSeat``) that plays its turns (its first legal play) and sends what
    the test queues in ``todo``, at once: it looks again whenever a message comes and every
    ``LOOK_AGAIN`` seconds meanwhile (a table waiting at its turn sends nothing but a ping, 10 s
    later, so what the test queued or released there would wait for it)."""

    LOOK_AGAIN = 0.05

    def __init__(self, raw: RawSeat) -> None:
        self.raw = raw
        self.todo: list[m.Message] = []
        self.move_id = 0
        self.pending: int | None = None
        self.stop = False
        self.leaving = False
        self.held = False
        """While true it plays no turn (the match waits at its turn: there is no turn timer)."""

    async def run(self) -> None:
        """Until the seat is left, or its connection ends."""
        while not self.stop:
            try:
                msg = await self.raw.receive_within(self.LOOK_AGAIN)
            except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
                return
            while self.todo:
                sent = self.todo.pop(0)
                await self.raw.send(sent)
                self.leaving = self.leaving or isinstance(sent, m.Leave)
            if isinstance(msg, m.Ack | m.Reject) and msg.move_id == self.pending:
                self.pending = None
            if isinstance(msg, m.Left):
                self.leaving = False
                return
            view = None if self.raw.mirror is None else self.raw.view
            mine = view is not None and view.to_move == self.raw.seat and bool(view.hand)
            held = self.held or self.leaving
            if mine and self.pending is None and not held and not view.round_over:
                self.move_id += 1
                self.pending = self.move_id
                play = self.raw.my_plays()[0]
                await self.raw.send(
                    m.Play(move_id=self.move_id, after=self.raw.seq, card=play.card.index,
                           captured=play.captured_mask)
                )  # fmt: skip


async def watched_seat(
    watches: Watches, port: int, label: str, version: int | None = None
) -> RawSeat:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    return await RawSeat.over(watches.raw(stream, label), version=version)


def received(who: RawSeat, cls: type[m.Message], **fields: object) -> bool:
    return any(
        isinstance(msg, cls) and all(getattr(msg, k) == v for k, v in fields.items())
        for msg in who.received
    )


async def until(predicate: Callable[[], object], seconds: float = 30) -> None:
    with trio.fail_after(seconds):
        while not predicate():
            await trio.sleep(0.01)


async def test_every_field_as_people_chat_rename_step_away_leave_and_play_again() -> None:
    """A three-seat table (a computer in seat 2): Ada says something, Bea (whose client speaks
    protocol 4: none of version 5's keys for her) changes her name and
    steps away (a computer stands in), comes back caught up by snapshot; Ada leaves for good
    (her seat open, a computer plays it as `bot 0`), Cy takes it mid-match (a snapshot of the
    present, its makers naming who made each play); the match ends and Cy and Bea play
    again."""
    watches = Watches()
    rules = RuleSet.of(3, 6)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0, grace=0.2, replay_limit=2)
        ada = Scripted(await watched_seat(watches, host.port, "ada"))
        await ada.raw.send(m.ListTables())
        await ada.raw.until(lambda msg: isinstance(msg, m.Tables))
        table_id = await ada.raw.create(create(rules, bots=1))
        await ada.raw.join(table_id, name="Ada")
        bea = Scripted(await watched_seat(watches, host.port, "bea", version=4))
        await bea.raw.join(table_id, name="Bea")
        nursery.start_soon(ada.run)
        nursery.start_soon(bea.run)
        await until(lambda: ada.raw.mirror and len(ada.raw.view.plays) >= 2)
        ada.todo.append(m.Say(text="ciao"))
        bea.todo.append(m.Rename(name="Beatrice"))
        await until(lambda: received(ada.raw, m.SeatStatus, seat=1, name="Beatrice"))
        bea.todo.append(m.Leave(away=True))
        await until(lambda: received(ada.raw, m.SeatStatus, seat=1, stand_in=True))
        await until(lambda: received(ada.raw, m.Played, seat=1))
        assert bea.raw.token is not None
        await bea.raw.send(m.Resume(table_id=table_id, seat=1, token=bea.raw.token, last_seq=0))
        await bea.raw.until(lambda msg: isinstance(msg, m.Snapshot))
        nursery.start_soon(bea.run)
        played = sum(isinstance(msg, m.Played) for msg in ada.raw.received)
        await until(lambda: sum(isinstance(msg, m.Played) for msg in ada.raw.received) > played)
        bea.held = True  # the match waits at her turn until Cy has sat down (before, at a
        # target of 6 with instant computers, it could end before Cy listed the tables)
        ada.todo.append(m.Leave(away=False))
        await until(lambda: received(bea.raw, m.SeatStatus, seat=0, kind="open"))
        await until(lambda: received(bea.raw, m.Played, seat=0))
        cy = Scripted(await watched_seat(watches, host.port, "cy"))
        await cy.raw.send(m.ListTables())
        listing = await cy.raw.until(lambda msg: isinstance(msg, m.Tables))
        assert isinstance(listing, m.Tables)
        assert [t.id for t in listing.tables] == [table_id]  # listed again, seat 0 open
        await cy.raw.send(m.Join(table_id=table_id, seat=0, name="Cy", password=None))
        joined = await cy.raw.until(lambda msg: isinstance(msg, m.Snapshot | m.Error))
        assert isinstance(joined, m.Snapshot), joined
        nursery.start_soon(cy.run)
        bea.held = False
        await until(lambda: received(bea.raw, m.MatchEnd), seconds=60)
        cy.todo.append(m.Rematch(agree=True))
        bea.todo.append(m.Rematch(agree=True))
        await until(lambda: received(bea.raw, m.RematchStatus, state="agreed"))
        await until(lambda: received(cy.raw, m.Deal) and len(cy.raw.received) > 10)
        count = len(bea.raw.received)
        await until(lambda: len(bea.raw.received) > count + 10)
        nursery.cancel_scope.cancel()
    for seat in (ada, bea, cy):
        await seat.raw.aclose()
    assert watches.problems == []
    for t in ("chat", "seat_status", "snapshot", "match_end", "rematch_status", "tables"):
        assert watches.seen.get(t), t
    assert watches.seen["snapshot"] >= 4  # three joins and a resume
    assert epoch_problems(watches.seatings) == []
    assert [e for _, seat, e in watches.seatings if seat == 0] == [1, 2]  # Ada's, then Cy's


class EverySeatsSeed:
    """``secrets`` for the bare seats, whose seat seed is always ``seed``."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def __getattr__(self, name: str) -> object:
        return getattr(secrets, name)

    def token_bytes(self, n: int) -> bytes:
        return self.seed if n == len(self.seed) else secrets.token_bytes(n)


async def resumed_seat(
    watches: Watches, port: int, label: str, old: RawSeat, *, table_id: int, last_seq: int
) -> Scripted:
    """``old``'s seat, taken back on a new connection from ``last_seq``."""
    assert old.token is not None
    assert old.seat is not None
    seat = await watched_seat(watches, port, label)
    if last_seq:  # a replay follows: the seat goes on from what it knew
        seat.mirror, seat._seeds = old.mirror, old._seeds
    await seat.send(m.Resume(table_id=table_id, seat=old.seat, token=old.token, last_seq=last_seq))
    await seat.until(lambda msg: isinstance(msg, m.Resumed))
    return Scripted(seat)


async def test_every_field_after_a_kings_void_and_a_restart_from_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 1 is void for kings (planned: the host's and both seats' seeds), round 2 deals
    it again; Bea comes back caught up by snapshot (round 1's end, `voids` 1), then the host stops
    and starts again from its journal and both resume by replay, and play to the end."""
    round_id, host_seed, seed = kings_on_the_table(2)
    start_round = Table.start_round

    def first_round_planned(table: Table, rid: bytes, host: bytes) -> None:
        start_round(table, *((round_id, host_seed) if table.round_no == 0 else (rid, host)))

    monkeypatch.setattr(Table, "start_round", first_round_planned)
    monkeypatch.setattr(rawseat, "secrets", EverySeatsSeed(seed))
    db = str(tmp_path / "journal.db")
    watches = Watches()
    with trio.fail_after(60):
        async with trio.open_nursery() as running:
            host = await start_host(running, db=db, bot_delay=0, replay_limit=2)
            ada = Scripted(await watched_seat(watches, host.port, "ada"))
            table_id = await ada.raw.create(create(RuleSet.of(2, 3)))
            await ada.raw.join(table_id, name="Ada")
            bea = Scripted(await watched_seat(watches, host.port, "bea"))
            await bea.raw.join(table_id, name="Bea")
            running.start_soon(ada.run)
            running.start_soon(bea.run)
            await until(lambda: received(ada.raw, m.RoundVoid))
            await until(lambda: ada.raw.view.round_number == 2 and len(ada.raw.view.plays) >= 3)
            superseded = bea
            bea = await resumed_seat(
                watches, host.port, "bea back", bea.raw, table_id=table_id, last_seq=0
            )
            running.start_soon(bea.run)
            await until(lambda: bea.raw.mirror and bea.raw.view.round_number == 2)
            await until(lambda: len(bea.raw.view.plays) >= 5 or bea.raw.view.round_number > 2)
            running.cancel_scope.cancel()
        for seat in (ada, bea, superseded):
            await seat.raw.aclose()
        async with trio.open_nursery() as running:
            host = await start_host(running, db=db, bot_delay=0, replay_limit=2)
            ada = await resumed_seat(
                watches, host.port, "ada again", ada.raw, table_id=table_id, last_seq=ada.raw.seq
            )
            bea = await resumed_seat(
                watches, host.port, "bea again", bea.raw, table_id=table_id, last_seq=bea.raw.seq
            )
            running.start_soon(ada.run)
            running.start_soon(bea.run)
            await until(lambda: received(ada.raw, m.MatchEnd))
            running.cancel_scope.cancel()
        for seat in (ada, bea):
            await seat.raw.aclose()
    assert watches.problems == []
    assert "snapshot.voids" in watches.keys
    assert epoch_problems(watches.seatings) == []
    assert "replay" in watches.catch_ups
    assert "snapshot" in watches.catch_ups


async def test_a_newcomer_between_a_round_commit_and_its_deal_reads_who_made_each_play() -> None:
    """Round 2 is opened (its `round_commit` sent) and waits for Ada's seed; Bea leaves for
    good and Cy takes her seat: his snapshot shows round 1, over (the last dealt), with its
    plays, so `makers` names whoever made each of them (3.9: left out only when `plays` is
    empty) and `computer_plays` counts only that round's."""
    watches = Watches()
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0, seed_timeout=20)
        ada = Scripted(await watched_seat(watches, host.port, "ada"))
        table_id = await ada.raw.create(create(RuleSet.of(2, 11)))
        await ada.raw.join(table_id, name="Ada")
        bea = Scripted(await watched_seat(watches, host.port, "bea"))
        await bea.raw.join(table_id, name="Bea")
        nursery.start_soon(ada.run)
        nursery.start_soon(bea.run)
        await until(lambda: ada.raw.mirror and ada.raw.view.plays)
        ada.raw.auto_seeds = False  # round 1's seeds are in; round 2 waits for hers
        await until(lambda: received(bea.raw, m.RoundCommit, round_no=2))
        await bea.raw.send(m.Leave(away=False))
        await until(lambda: received(ada.raw, m.SeatStatus, seat=1, kind="open"))
        cy = await watched_seat(watches, host.port, "cy")
        await cy.send(m.Join(table_id=table_id, seat=1, name="Cy", password=None))
        snap = await cy.until(lambda msg: isinstance(msg, m.Snapshot))
        assert isinstance(snap, m.Snapshot)
        assert ada.raw.view.round_number == 1  # round 2 not dealt yet
        assert snap.round_no == 1
        assert snap.round_over
        assert len(snap.makers) == len(snap.plays) > 0
        assert set(snap.makers) == {"Ada", "Bea"}
        nursery.cancel_scope.cancel()
    for seat in (ada.raw, bea.raw, cy):
        await seat.aclose()
    assert watches.problems == []


async def test_every_field_at_a_blind_table_whose_host_restarts_from_its_journal(
    tmp_path: Path,
) -> None:
    """Two of our clients and a computer at a blind table; the host stops mid-match and a
    new one starts on the same journal and port: the clients resume (the rebuilt round goes
    on, 9.7) and play to the end."""
    watches = Watches()
    db, port = str(tmp_path / "journal.db"), free_port()
    rules = RuleSet.of(3, 2)

    async def hosting(task_status=trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as inner:
            config = HostConfig(bind="127.0.0.1", port=port, advertise=False, db=db, bot_delay=0)
            host = Host(config, Journal(db))
            await inner.start(host.serve)
            task_status.started(host)
            await trio.sleep_forever()

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            first = trio.CancelScope()

            async def first_host(task_status=trio.TASK_STATUS_IGNORED) -> None:
                with first:
                    await hosting(task_status=task_status)

            host = await nursery.start(first_host)
            opener = await watched_seat(watches, port, "opener")
            table_id = await opener.create(create(rules, bots=1, blind=True))
            await opener.aclose()
            async with trio.open_nursery() as people:
                for n in range(2):
                    people.start_soon(
                        lambda n=n: person(
                            host, watches, f"p{n}", TableChoice(table_id=table_id),
                            tmp_path / f"p{n}",
                        )
                    )  # fmt: skip
                table = host.tables[table_id].table
                await until(lambda: table.dealt_round_no >= 1 and table.match.round.plays)
                first.cancel()
                await trio.sleep(0.3)
                await nursery.start(hosting)
            nursery.cancel_scope.cancel()
    assert watches.problems == []
    assert watches.catch_ups == ["replay", "replay"]
    for t in ("blind_round", "blind_deal", "round_end", "match_end"):
        assert watches.seen.get(t), t


async def test_every_field_of_a_blind_rematch(tmp_path: Path) -> None:
    """Two of our clients at a blind table play a match, both vote to play again, and play
    the next one: its rounds numbered from 1 again, its epochs carried on (3.11)."""
    watches = Watches()
    rules = RuleSet.of(2, 1)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            opener = await watched_seat(watches, host.port, "opener")
            table_id = await opener.create(create(rules, blind=True))
            await opener.aclose()
            async with trio.open_nursery() as people:
                for n in range(2):
                    people.start_soon(
                        lambda n=n: person(
                            host, watches, f"p{n}", TableChoice(table_id=table_id),
                            tmp_path / f"p{n}", again=True,
                        )
                    )  # fmt: skip
            nursery.cancel_scope.cancel()
    assert watches.problems == []
    assert watches.seen["match_end"] == 4  # two matches, two seats
    assert epoch_problems(watches.seatings) == []
