"""A seat that changes hands in a match, as `history` and `verify` name it afterwards.

A real host, real client sessions. Bruno and Dino sit at a two-player table; Dino plays round
1, and leaves for good in round 2 (a computer finishes it for him; at a blind table the round
is void, Dino absent); Ivo takes the seat once round 3 is dealt and plays to the end. (After a
void deal, three kings on the table, the rounds Dino plays in are the first two with plays.) Before,
`verify` of Bruno's transcript named every round's seat 1 "Ivo" (the client saved the last
names only: "round 2: void: seat 1 (Ivo) absent"), and `history` said "Bruno 8 - Ivo 11":
Dino was not mentioned. The ordinary table runs over loopback TCP, and `history` reads its
journal; the blind one, whose rounds take longer, on memory streams in virtual time.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from functools import partial
from pathlib import Path

import pytest
import trio
import trio.testing
from hosting import create, start_host, start_memory_host

from scopa_net.bots.levels import make_player
from scopa_net.client.files import names_beside
from scopa_net.client.network_session import NetworkSession, TableChoice
from scopa_net.client.session import MatchOver
from scopa_net.commands.main import main
from scopa_net.rules import RuleSet

Seat = Callable[[TableChoice, str], AbstractAsyncContextManager[NetworkSession]]
"""``seat(choice, name)``: that person's client session at the host."""


async def _plays(
    session: NetworkSession,
    seed: int,
    *,
    leaves_in: int | None = None,
    left_in: list[int] | None = None,
    ivo_sat: trio.Event | None = None,
) -> None:
    """Play at random until the match ends, or (``leaves_in``) leave for good once a card is
    played in the ``leaves_in``-th round with plays (a void deal, three kings on the table,
    has none), noting that round's number in ``left_in``; once ``left_in`` holds it, play in
    a later round only once ``ivo_sat`` is set."""
    player = make_player("random", seed)
    played: set[int] = set()  # the rounds this seat saw a card played in
    while True:
        view = session.view
        if ivo_sat is not None and left_in and view and view.round_number > left_in[0]:
            await ivo_sat.wait()
            view = session.view  # (the table may have moved on meanwhile: a new round)
        if view and view.plays and not view.round_over:
            played.add(view.round_number)
            if leaves_in is not None and len(played) >= leaves_in:
                assert left_in is not None
                left_in.append(view.round_number)
                await session.leave()
                return
        # A person who sat down during a blind round has no cards of it (a computer plays
        # the seat), though the view says it is their turn: they play from the next round.
        if view and view.my_turn and view.hand and not view.round_over:
            await session.submit(player.choose(view))
        with trio.move_on_after(0.5):
            if isinstance(await session.events.receive(), MatchOver):
                return


async def _seat_1_changes_hands(seat: Seat, *, blind: bool) -> tuple[int, int]:
    """Bruno (seat 0) plays the whole match; Dino (seat 1) the first round with plays and
    part of the second (round 2, unless a deal was void); Ivo the rest from the next round.
    The table's number, and the round Dino left in."""
    # To 11 at a blind table: to 7 a side now and then won in round 1 (sweeps), and the test
    # waited for a round 3 that never came.
    choice = TableChoice(create=create(RuleSet.of(2, 11 if blind else 16), blind=blind))
    left_in: list[int] = []
    async with seat(choice, "Bruno") as bruno, trio.open_nursery() as players:
        table = TableChoice(table_id=bruno.table_id, seat=1)
        ivo_sat = trio.Event()  # Bruno waits for him after Dino's round (a computer plays fast)
        players.start_soon(partial(_plays, bruno, 1, left_in=left_in, ivo_sat=ivo_sat))
        async with seat(table, "Dino") as dino:
            await _plays(dino, 3, leaves_in=2, left_in=left_in)
        (left,) = left_in
        while (view := bruno.view) is None or view.round_number <= left:
            await trio.sleep(0.01)
        async with seat(table, "Ivo") as ivo:
            ivo_sat.set()
            await _plays(ivo, 2)
        return bruno.table_id, left


def _each_round_names_who_held_seat_1(words: str) -> None:
    said = re.findall(
        r"^round \d+: (void deal)?.*?\b((?:bot )?\w+) \(seat 1\b", words, re.MULTILINE
    )
    # Seat 1 deals one of the two rounds Dino plays in (and at a blind table is absent in
    # the one he left): his rounds come first, then Ivo's. (Not by number: a kings void is a
    # round of its own, dealt again by the same dealer.) Between them, only a deal void for
    # its kings, dealt before Ivo sat, while a computer held the seat ("dealer bot 1").
    assert [name for _, name in said[:1]] == ["Dino"], words
    held = [{"Dino": 0, "Ivo": 2}.get(name, 1) for _, name in said]
    assert held == sorted(held), words
    computer = [(void, name) for void, name in said if name not in ("Dino", "Ivo")]
    assert all(void and name.startswith("bot ") for void, name in computer), words
    (result,) = [line for line in words.splitlines() if line.startswith("match result")]
    assert "Dino, then Ivo (seat 1)" in result, words


def _verify_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *, blind: bool, left: int
) -> None:
    """What `verify` of Bruno's own transcript says, from the names his client kept (Dino
    left in round ``left``)."""
    (saved,) = (tmp_path / "Bruno" / "transcripts").glob("*.scopa")
    names = names_beside(saved).read_text(encoding="utf-8").splitlines()
    assert names[:3] == ["Bruno", "Ivo", "match\tBruno\tDino, then Ivo"], names
    assert "round 1\tBruno\tDino" in names, names
    assert "round 2\tBruno\tDino" in names, names
    assert main(["verify", str(saved)]) == 0
    words = capsys.readouterr().out
    assert words.startswith("Bruno (seat 0, you), 2 players"), words
    _each_round_names_who_held_seat_1(words)
    if blind:
        assert f"round {left}: void: Dino (seat 1) absent" in words, words


def _history(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What `scopa-net history --db DB` prints (it must succeed)."""
    assert main(["history", "--db", str(db)]) == 0
    return capsys.readouterr().out


def _history_words(tmp_path: Path, capsys: pytest.CaptureFixture[str], table_id: int) -> None:
    """What `history` says of the match, and `verify` of a transcript it exports."""
    db = tmp_path / "host.db"
    out = _history(db, capsys)
    assert re.search(r": Bruno \d+ - Dino, then Ivo \d+; .* won", out), out

    # The host's export carries the names it knows beside the transcript, round by round.
    out_file = tmp_path / "t.scopa"
    export = ["history", "--db", str(db), "--export", str(table_id), "--out", str(out_file)]
    assert main(export) == 0
    assert f"the seats' names in {tmp_path / 't.names'}" in capsys.readouterr().out
    assert main(["verify", str(out_file)]) == 0
    exported = capsys.readouterr().out
    assert exported.startswith("Bruno (seat 0, you), 2 players"), exported
    _each_round_names_who_held_seat_1(exported)


@pytest.fixture
def reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`verify` and `history` run by Bruno, with nothing pinned (the fingerprint is shown)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nobody"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("SCOPA_NET_NAME", "Bruno")


def _seat(tmp_path: Path, host: str, port: int, **options: object) -> Seat:
    from contextlib import asynccontextmanager

    from scopa_net.client.network_session import open_network_session

    @asynccontextmanager
    async def seat(choice: TableChoice, name: str) -> AsyncIterator[NetworkSession]:
        async with open_network_session(
            host, port, choice, name=name, data_dir=tmp_path / name, **options
        ) as session:
            yield session

    return seat


@pytest.mark.usefixtures("reader")
def test_history_and_verify_name_each_round_by_who_held_the_seat_then(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def play() -> tuple[int, int]:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                host = await start_host(nursery, db=str(tmp_path / "host.db"))
                seen = await _seat_1_changes_hands(
                    _seat(tmp_path, "127.0.0.1", host.port), blind=False
                )
                await host.shutdown()
                nursery.cancel_scope.cancel()
        host.journal.close()
        return seen

    table_id, left = trio.run(play)
    _verify_words(tmp_path, capsys, blind=False, left=left)
    _history_words(tmp_path, capsys, table_id)


@pytest.mark.usefixtures("reader")
async def test_at_a_blind_table_the_void_names_the_person_who_left_not_who_came_after(
    autojump_clock: trio.testing.MockClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            _host, net = await start_memory_host(nursery)
            seat = _seat(tmp_path, "mem", 0, connector=net.connect)
            _, left = await _seat_1_changes_hands(seat, blind=True)
            nursery.cancel_scope.cancel()
    _verify_words(tmp_path, capsys, blind=True, left=left)


async def _finished(caplog: pytest.LogCaptureFixture) -> None:
    """Wait for the host's log to say a table finished (its journal holds the match then)."""
    with trio.fail_after(30):
        while not any(" finished: " in r.getMessage() for r in caplog.records):
            await trio.sleep(0.02)


@pytest.mark.usefixtures("reader")
async def test_a_result_a_computer_played_for_an_absent_person_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Nina left in round 1 and a computer played the rest for her, yet `history` said "Nina
    won" and `verify` "seat 1 (Nina) won the match", as if she had played it. The seat stays
    hers, and both now say a computer played for her, in which rounds: from what the host
    kept at the match's end, from a journal kept before it did (replayed), and in the names
    `history --export` writes beside the transcript. (She leaves in the first round with
    plays: round 1, or the next after a deal void for its kings, about once in 600.)"""
    import logging
    import sqlite3

    import msgpack
    from rawseat import RawSeat

    caplog.set_level(logging.INFO, logger="scopa_net")
    db = tmp_path / "host.db"
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(db), grace=0.1, bot_delay=0.0)
        lobby = await RawSeat.connect(host.port)
        table_id = await lobby.create(create(RuleSet.of(2, 1), bots=1))
        nina = await RawSeat.connect(host.port)
        await nina.join(table_id, name="Nina")
        await nina.dealt()
        left = nina.view.round_number
        await trio.aclose_forcefully(nina.stream)  # gone: a computer plays for her
        await _finished(caplog)
        await lobby.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    played_for = rf"a computer played for Nina in (round {left}|rounds {left}-\d+)"
    listed = _history(db, capsys)
    won = rf": Nina: \d+ - bot 1: \d+; (Nina|bot 1) won; {played_for} \(2 players"
    assert re.search(won, listed), listed

    # as a host before this kept it: found by replaying
    with contextlib.closing(sqlite3.connect(db)) as old, old:
        (summary,) = old.execute("SELECT summary FROM tables").fetchone()
        kept = msgpack.unpackb(summary)
        del kept["computer"]
        old.execute("UPDATE tables SET summary = ?", (msgpack.packb(kept),))
    old.close()
    assert _history(db, capsys) == listed

    out_file = tmp_path / "t.scopa"
    export = ["history", "--db", str(db), "--export", str(table_id), "--out", str(out_file)]
    assert main(export) == 0
    capsys.readouterr()
    assert main(["verify", str(out_file)]) == 0
    words = capsys.readouterr().out
    (result,) = [line for line in words.splitlines() if line.startswith("match result")]
    seat = r"Nina \(seat 0, this file's seat\)"
    rounds = rf"(round {left}|rounds {left}-\d+)"
    assert re.search(rf"; a computer played for {seat} in {rounds}$", result), words
    in_round = rf"round {left}: verified .*; a computer played for {seat}$"
    assert re.search(in_round, words, re.M), words


def test_verify_of_a_blind_match_says_a_computer_played_for_a_person_who_sat_rounds_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A blind transcript knows which seats people played in each round (protocol.md 9.8):
    Paolo's file, with names saved before any note of it, said "seat 1 (Nina) won the match"
    for a match a computer played for Nina. It now says so from the record itself."""
    from scopa_net.fair.blind.simulate import simulate_blind_match

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nobody"))
    match = simulate_blind_match(RuleSet.of(2, 1), 3, people=[0])  # seat 1: a computer's play
    path = tmp_path / "t.scopa"
    path.write_bytes(match.transcripts[0].encode())
    path.with_suffix(".names").write_text("Paolo\nNina\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    words = capsys.readouterr().out
    rounds = len(match.transcripts[0].rounds)
    which = "round 1" if rounds == 1 else f"rounds 1-{rounds}"
    assert f"; a computer played for Nina (seat 1) in {which}\n" in words, words
    path.with_suffix(".names").write_text("Paolo\nbot 1\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    assert "a computer played" not in capsys.readouterr().out  # a computer's own seat


async def _until(done: Callable[[], bool]) -> None:
    with trio.fail_after(20):
        while not done():
            await trio.sleep(0.005)


@pytest.mark.usefixtures("reader")
async def test_a_computer_that_played_for_two_people_of_one_seat_names_each_for_their_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Ivo steps away in round 1 (a computer plays for him), then gives his seat up; Lea takes
    it in a later round and steps away too. `history` said "a computer played for Ivo, then
    Lea in rounds 1-4", the seat's whole name with all its rounds; it now says each person's
    rounds, and `verify` of the exported transcript names each by the round's holder."""
    import logging

    from rawseat import RawSeat

    from scopa_net.wire import messages as m

    caplog.set_level(logging.INFO, logger="scopa_net")
    db = tmp_path / "host.db"
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(db), bot_delay=0.005)
        lobby = await RawSeat.connect(host.port)
        table_id = await lobby.create(create(RuleSet.of(2, 11), bots=1))
        table = host.tables[table_id].table
        ivo = await RawSeat.connect(host.port)
        await ivo.join(table_id, seat=0, name="Ivo")
        await ivo.dealt()
        await ivo.send(m.Leave(away=True))
        await _until(lambda: bool(table.holders.computer.get(0)))
        again = await RawSeat.connect(host.port)
        assert ivo.token is not None
        await again.send(m.Resume(table_id=table_id, seat=0, token=ivo.token, last_seq=0))
        await again.until(lambda msg: isinstance(msg, m.Resumed))
        await again.send(m.Leave(away=False))
        await again.until(lambda msg: isinstance(msg, m.Left))
        first = table.round_no
        await _until(lambda: table.round_no > first)
        lea = await RawSeat.connect(host.port)
        await lea.join(table_id, seat=0, name="Lea")
        await lea.send(m.Leave(away=True))
        await _finished(caplog)
        for raw in (lobby, ivo, again, lea):
            await raw.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    rounds = r"(round \d+|rounds \d+(-\d+)?(, \d+(-\d+)?)*( and \d+(-\d+)?)?)"
    listed = _history(db, capsys)
    said = rf"; a computer played for Ivo in {rounds} and for Lea in {rounds} \("
    assert re.search(said, listed), listed

    out_file = tmp_path / "t.scopa"
    export = ["history", "--db", str(db), "--export", str(table_id), "--out", str(out_file)]
    assert main(export) == 0
    capsys.readouterr()
    assert main(["verify", str(out_file)]) == 0
    words = capsys.readouterr().out
    (result,) = [line for line in words.splitlines() if line.startswith("match result")]
    ivo_seat, lea_seat = (rf"{who} \(seat 0, this file's seat\)" for who in ("Ivo", "Lea"))
    said = rf"; a computer played for {ivo_seat} in {rounds} and for {lea_seat} in {rounds}$"
    assert re.search(said, result), words


@pytest.mark.usefixtures("reader")
async def test_a_seat_a_computer_finished_for_a_person_who_left_says_a_computer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Dino gave his seat up in round 1 and the host's computer played it to the end: history
    said "Dino, then bot 0 1 - bot 1 4", a computer player "bot 0" the table never had, and a
    score that read as part of a name ("bot 1 4"). The host's log says the score so too."""
    import logging

    from rawseat import RawSeat

    from scopa_net.wire import messages as m

    caplog.set_level(logging.INFO, logger="scopa_net")
    db = tmp_path / "host.db"
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(db), bot_delay=0.0)
        lobby = await RawSeat.connect(host.port)
        table_id = await lobby.create(create(RuleSet.of(2, 1), bots=1))
        dino = await RawSeat.connect(host.port)
        await dino.join(table_id, seat=0, name="Dino")
        await dino.dealt()
        await dino.send(m.Leave(away=False))
        await _finished(caplog)
        (done,) = [r.getMessage() for r in caplog.records if " finished: " in r.getMessage()]
        # As history (below) and the players' screens say it: not "Dino (left)".
        assert re.search(r"finished: Dino, then a computer: \d+ - bot 1: \d+; ", done), done
        for raw in (lobby, dino):
            await raw.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    listed = _history(db, capsys)
    assert re.search(r": Dino, then a computer: \d+ - bot 1: \d+; ", listed), listed
    assert "bot 0" not in listed, listed
