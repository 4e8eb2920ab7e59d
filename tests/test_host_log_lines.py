"""The host's log as an organiser reads it (a club evening's was half "connection
127.0.0.1:NNNNN opened/closed"): a match beginning, a player dropping and coming back, a
round void, each saying who by name beside the seat, and no connection noise at INFO."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
import trio
from hosting import create, play_one_match, start_host
from rawseat import RawSeat

from scopa_net.commands.history_matches import finished_matches
from scopa_net.commands.host import resumed_line
from scopa_net.commands.main import main
from scopa_net.fair.blind.record import VOID_FAILED_CHECK
from scopa_net.fair.commitments import fingerprint, public_key_bytes
from scopa_net.rules import RuleSet
from scopa_net.server.host import load_host_key
from scopa_net.server.journal import Journal, TableRecord
from scopa_net.server.table_task import void_words
from scopa_net.wire import messages as m
from scopa_net.wire.codec import encode


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The host's lines at INFO and above."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "scopa_net.host" and r.levelno >= logging.INFO
    ]


async def until_said(caplog: pytest.LogCaptureFixture, text: str) -> None:
    with trio.fail_after(15):
        while not any(text in line for line in said(caplog)):
            await trio.sleep(0.02)


async def test_the_log_names_the_player_of_a_seat_and_says_when_a_match_begins(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=1.0, bot_delay=0.0)
        assert host.port is not None
        lobby = await RawSeat.connect(host.port)
        table_id = await lobby.create(create(RuleSet.of(2, 11), bots=1))
        fabio = await RawSeat.connect(host.port)
        await fabio.join(table_id, name="Fabio")
        await until_said(caplog, "match 1 begins")
        await fabio.dealt()
        await trio.aclose_forcefully(fabio.stream)  # the client killed
        await until_said(caplog, "a bot stands in")
        back = await RawSeat.connect(host.port)
        assert fabio.token is not None
        await back.send(m.Resume(table_id=table_id, seat=0, token=fabio.token, last_seq=0))
        await until_said(caplog, "resumed")
        await back.stream.aclose()
        await lobby.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    lines = [
        line
        for line in said(caplog)
        if line.startswith(f"table {table_id}:") and " finished: " not in line  # bot 1 may win
    ]
    # A deal void for its kings (about 1 in 600) is said as it happens, by its round's number.
    kings = "void: three or more kings on the opening table; dealt again"
    voids = [line for line in lines if kings in line]
    assert all(re.fullmatch(rf"table {table_id}: round \d+ {kings}", line) for line in voids)
    assert [line for line in lines if kings not in line] == [
        f"table {table_id}: Fabio (seat 0) joined",
        f"table {table_id}: match 1 begins: Fabio against bot 1",
        f"table {table_id}: Fabio (seat 0) lost the connection; the seat waits 1 s for them",
        f"table {table_id}: a bot stands in for Fabio (seat 0), away past the grace time",
        f"table {table_id}: Fabio (seat 0) resumed",
    ]
    # Before: 'connection 127.0.0.1:NNNNN opened' and 'closed' at INFO for every connection
    # (217 lines of 403), and "write failed: BrokenResourceError('socket connection ...')".
    assert not [line for line in said(caplog) if line.startswith("connection ")]
    # The host's own stop: its players going away then is not logged one by one.
    assert sum("lost the connection" in line for line in said(caplog)) == 1


async def test_a_blind_round_void_for_a_player_away_says_who_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A blind round needs every person (protocol.md 9.7): one away past the grace time
    voids it. Nothing was logged; the organiser saw only a table that had stopped moving."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=0.5, bot_delay=0.0)
        assert host.port is not None
        dino = await RawSeat.connect(host.port, auto_seeds=False)
        table_id = await dino.create(create(RuleSet.of(2, 11), bots=1, blind=True))
        await dino.join(table_id, name="Dino")  # and does not take part in the shuffle
        await until_said(caplog, "match 1 begins")
        await trio.aclose_forcefully(dino.stream)
        await until_said(caplog, "void")
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    (void,) = [line for line in said(caplog) if "void" in line]
    assert void == f"table {table_id}: round 1 void: Dino (seat 0) was away past the grace time"


async def test_a_blind_round_void_for_a_connected_player_silent_past_the_deadline_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Bruno's terminal was suspended (Ctrl-Z) as a blind round was set up: connected, his
    client sent nothing, and past the deadline the round was void. The log said "round 3
    void: Bruno (seat 1) was away past the grace time" (his screen and the others': "did not
    send their shuffle in time"); the organiser looked for a player who had gone."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=30.0, bot_delay=0.0, seed_timeout=0.5)
        assert host.port is not None
        dino = await RawSeat.connect(host.port, auto_seeds=False)
        table_id = await dino.create(create(RuleSet.of(2, 11), bots=1, blind=True))
        await dino.join(table_id, name="Dino")  # connected, and silent at the shuffle
        await until_said(caplog, "void")
        await dino.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    (void,) = [line for line in said(caplog) if "void" in line]
    assert void == (
        f"table {table_id}: round 1 void: Dino (seat 0) was connected but sent nothing in time "
        "(the deadline is 0.5 s)"
    )


def test_every_reason_for_a_void_reads_in_words() -> None:
    assert void_words("kings", None) == "three or more kings on the opening table; dealt again"
    assert (
        void_words(VOID_FAILED_CHECK, "Gina (seat 3)") == "the deal check failed at Gina (seat 3)"
    )
    assert void_words(VOID_FAILED_CHECK, None) == "the host's own check of the deal failed"


async def carla_voids_a_blind_round(
    caplog: pytest.LogCaptureFixture, *sent: m.Message
) -> tuple[int, list[str]]:
    """Carla alone with a computer player at a blind table sends ``sent`` once the match
    begins, which voids the round: her table, and the host's lines about it."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=30.0, bot_delay=0.0)
        assert host.port is not None
        carla = await RawSeat.connect(host.port, auto_seeds=False)
        table_id = await carla.create(create(RuleSet.of(2, 11), bots=1, blind=True))
        await carla.join(table_id, name="Carla")
        await until_said(caplog, "match 1 begins")
        for message in sent:
            await carla.send(message)
        await until_said(caplog, "void")
        await carla.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    return table_id, [line for line in said(caplog) if line.startswith(f"table {table_id}:")]


async def test_a_player_who_renames_then_leaves_voids_the_round_by_name(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Leaving on purpose read "round 1 void: seat 0 was away past the grace time" (the
    person's name gone with the seat), and a rename never reached the log."""
    table_id, lines = await carla_voids_a_blind_round(
        caplog, m.Rename(name="Carlotta"), m.Leave(away=False)
    )
    assert lines[2:5] == [
        f"table {table_id}: Carla (seat 0) is now called Carlotta",
        f"table {table_id}: Carlotta (seat 0) left",
        f"table {table_id}: round 1 void: Carlotta (seat 0) left the table",
    ]


async def test_a_blind_round_void_for_a_player_who_stepped_away_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Stepping away (``quit``, then ``away``) voids the blind round at once; the log said
    "round 1 void: Carla (seat 0) was away past the grace time" 20 ms after "Carla (seat 0)
    stepped away", the wrong cause, while every client said "Carla stepped away"."""
    table_id, lines = await carla_voids_a_blind_round(caplog, m.Leave(away=True))
    assert lines[2:4] == [
        f"table {table_id}: Carla (seat 0) stepped away",
        f"table {table_id}: round 1 void: Carla (seat 0) stepped away",
    ]


async def test_a_table_left_alone_says_its_computers_pause_only_if_it_has_some(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=60.0, bot_delay=0.0, pause_after=0.3)
        assert host.port is not None
        lobby = await RawSeat.connect(host.port)
        people = await lobby.create(create(RuleSet.of(2, 11)))
        with_bot = await lobby.create(create(RuleSet.of(2, 11), bots=1))
        for table_id in (people, with_bot):
            ada = await RawSeat.connect(host.port)
            await ada.join(table_id, name="Ada")
            await trio.aclose_forcefully(ada.stream)
        await until_said(caplog, f"table {people}: nobody here")
        await until_said(caplog, f"table {with_bot}: nobody here")
        await lobby.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    alone = [line for line in said(caplog) if "nobody here" in line]
    assert f"table {people}: nobody here for 0 s" in alone
    assert f"table {with_bot}: nobody here for 0 s; its computer players pause" in alone


async def test_the_hosts_own_table_is_announced_once_and_a_restart_says_who_sits_where(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``host`` says "table 1 'back room' is open: ..." on stdout; the log said it again as
    "table 1 created: ...". A restart said "resumed 1 table (1 waiting for players)" and
    named no table."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=db)
        assert host.port is not None
        own = await host.create_table("back room", RuleSet.of(2, 11))  # as `host` opens it
        lobby = await RawSeat.connect(host.port)
        other = await lobby.create(create(RuleSet.of(2, 11)))  # a player's: news
        bruno = await RawSeat.connect(host.port)
        await bruno.join(own.table.table_id, name="Bruno")
        await until_said(caplog, "Bruno (seat 0) joined")
        await bruno.stream.aclose()
        await lobby.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    assert [line for line in said(caplog) if "created" in line] == [
        f"table {other} created: 'test table', 2 players, target 11, variants: none"
    ]
    async with trio.open_nursery() as nursery:
        again = await start_host(nursery, db=db)
        assert resumed_line(again) == (
            "resumed 2 tables (2 waiting for players): table 1 'back room' (Bruno); "
            "table 2 'test table'"
        )
        await again.shutdown()
        nursery.cancel_scope.cancel()
    again.journal.close()


async def test_history_says_a_table_waits_and_a_match_started_at_its_first_deal(
    tmp_path: Path,
) -> None:
    """history read "table 1 'table 1': started 22:43, in play" for a table that waited all
    evening, and "started" was when a table opened, not when its match began."""
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=db, bot_delay=0.0)
        assert host.port is not None
        await host.create_table("empty", RuleSet.of(2, 11))
        ada = await RawSeat.connect(host.port)
        table_id = await ada.create(create(RuleSet.of(2, 11), bots=1))
        await ada.join(table_id, name="Ada")
        await ada.dealt()
        await ada.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    journal = Journal(db)
    try:
        empty, played = journal.tables()
    finally:
        journal.close()
    assert finished_matches(empty) == [f"table 1 'empty': waiting for players since {_at(empty)}"]
    assert played.began is not None
    assert played.began >= played.created
    # A table opened at 22:43 whose match began at 22:56: the match's time, not the table's.
    opened, began = 1_800_000_000.0, 1_800_000_780.0
    late = TableRecord("2", opened, {"name": "back room"}, None, None, began, True)
    assert finished_matches(late) == [f"table 2 'back room': started {_at(late, began)}, in play"]
    over = TableRecord("2", opened, {}, began + 600, {"began": began, "scores": [11, 4]})
    (line,) = finished_matches(over)
    assert line.startswith(f"table 2: started {_at(over, began)}, ended ")


def _at(record: TableRecord, when: float | None = None) -> str:
    import time

    return time.strftime("%Y-%m-%d %H:%M", time.localtime(record.created if when is None else when))


async def test_a_rename_is_the_same_holder_and_who_came_back_after_a_computer_is_another(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Carla renamed herself Carlotta, left, a computer played, Carla came back: history said
    "Carla, then Carlotta", as if Carlotta had finished the match."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.5)  # the match not over meanwhile
        assert host.port is not None
        carla = await RawSeat.connect(host.port)
        table_id = await carla.create(create(RuleSet.of(2, 11), bots=1))
        await carla.join(table_id, seat=0, name="Carla")
        await carla.dealt()
        await carla.send(m.Rename(name="Carlotta"))
        await carla.send(m.Leave(away=False))
        await until_said(caplog, "Carlotta (seat 0) left")
        back = await RawSeat.connect(host.port)
        await back.join(table_id, seat=0, name="Carla")
        await until_said(caplog, "Carla (seat 0) joined")
        names = host.tables[table_id].table.holders.match_names()
        await back.stream.aclose()
        await carla.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    assert names[0] == "Carlotta, then Carla"


def test_an_export_from_ones_own_host_says_the_verify_command_that_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The organiser exported from her own `host` and ran the line's `scopa-net verify FILE`:
    "REFUSED: host key 9a87-... is not a key you trust" (only `play`'s hosts are trusted)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    db = tmp_path / "host.db"
    trio.run(play_one_match, str(db))
    out = tmp_path / "t1.scopa"
    assert main(["history", "--db", str(db), "--export", "1", "--out", str(out)]) == 0
    journal = Journal(str(db))
    try:
        key = fingerprint(public_key_bytes(load_host_key(journal)))
    finally:
        journal.close()
    said = capsys.readouterr().out
    assert said.endswith(f"; check it with `scopa-net verify --pin {key} {out}`\n"), said
    command = said.rsplit("`", 2)[1].split()
    assert command[0] == "scopa-net"
    assert main(command[1:]) == 0
    verified = capsys.readouterr().out
    assert "REFUSED" not in verified
    assert "NOT VERIFIED" not in verified


async def test_a_seat_whose_person_left_is_named_in_a_match_begins_and_its_scores(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Carla left during match 1 (a computer played her seat), Bruno played on and agreed to
    a rematch: the log's "match 2 begins" and score lines read "seat 0" for her seat."""
    from scopa_net.bots.levels import make_player
    from scopa_net.client.bot_client import play_as_bot
    from scopa_net.client.network_session import TableChoice, open_network_session

    caplog.set_level(logging.INFO, logger="scopa_net")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.0)
        assert host.port is not None
        carla = await RawSeat.connect(host.port)
        table_id = await carla.create(create(RuleSet.of(2, 1)))
        await carla.join(table_id, seat=0, name="Carla")
        choice = TableChoice(table_id=table_id, seat=1)
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Bruno", offer_rematch=True
        ) as bruno:
            await carla.dealt()
            await carla.send(m.Leave(away=False))
            await until_said(caplog, "Carla (seat 0) left")
            with trio.fail_after(20):
                assert await play_as_bot(bruno, make_player("random", 1)) is not None
                await bruno.rematch(True)
                await until_said(caplog, "match 2 begins")
        await until_said(caplog, "finished")
        await carla.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    lines = [line for line in said(caplog) if line.startswith(f"table {table_id}")]
    assert f"table {table_id}: match 1 begins: Carla against Bruno" in lines
    begins = "match 2 begins: seat 0 (open, a computer plays it) against Bruno"
    assert f"table {table_id}: {begins}" in lines, lines
    finished = next(line for line in lines if " finished: " in line)
    # As Bruno's screen and `history` name the seat: "Carla, then a computer".
    assert finished.startswith(f"table {table_id}: match 1 finished: Carla, then a computer ")
    assert " - Bruno " in finished


async def test_a_player_of_another_version_is_logged_saying_who_must_update(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The host's log read "connection ...: bad_version: client speaks protocol version 3;
    this end speaks version 4", the wire's words (protocol.md 3.2, unchanged): the organiser
    had to work out whose scopa-net was old. It now says whose, and who updates: for a newer
    one, only if it cannot say hello again in this host's version (ours does, protocol.md 3.2:
    an older host told its organiser to update for every client of ours that played there)."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    ours, too_old = m.PROTOCOL_VERSION, m.OLDEST_VERSION - 1
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery)
        assert host.port is not None
        for version in (too_old, ours + 1):
            stream = await trio.open_tcp_stream("127.0.0.1", host.port)
            await stream.send_all(encode(m.Hello(version=version, client="other")))
            with trio.fail_after(5):
                while await stream.receive_some():  # the bye, then the host closes
                    pass
            await stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    lines = [line.partition(": ")[2] for line in said(caplog) if "protocol" in line]
    assert lines == [
        f"a player's scopa-net is older than this host's (protocol {too_old}, this one "
        f"{ours}): they need to update it to play here",
        f"a player's scopa-net is newer than this host's (protocol {ours + 1}, this one "
        f"{ours}): it plays here if it also speaks {ours} (it then says hello again in {ours}); "
        "if not, update this host's scopa-net to let them play here",
    ]


async def test_a_player_of_an_older_protocol_is_logged_as_such_as_they_sit_and_come_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At a club half upgraded, the organiser of a host of 5 could not tell who still ran a
    scopa-net of 4 (it plays here): "table 1: Ivo (seat 1) joined" for both. Ivo's line now
    says so, as he sits down and as he comes back; Ada's, of this version, does not."""
    caplog.set_level(logging.INFO, logger="scopa_net")
    ours, older = m.PROTOCOL_VERSION, m.OLDEST_VERSION
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=1.0, bot_delay=0.0)
        assert host.port is not None
        ada = await RawSeat.connect(host.port)
        table_id = await ada.create(create(RuleSet.of(2, 11)))
        await ada.join(table_id, 0, "Ada")
        ivo = await RawSeat.connect(host.port, version=older)
        await ivo.join(table_id, 1, "Ivo")
        await until_said(caplog, "match 1 begins")
        await trio.aclose_forcefully(ivo.stream)  # his client killed
        await until_said(caplog, "Ivo (seat 1) lost the connection")
        back = await RawSeat.connect(host.port, version=older)
        assert ivo.token is not None
        await back.send(m.Resume(table_id=table_id, seat=1, token=ivo.token, last_seq=0))
        await until_said(caplog, "resumed")
        for seat in (back, ada):
            await seat.stream.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    older_words = (
        f", with an older scopa-net than this host's (protocol {older}, this one {ours}), "
        "which plays here"
    )
    lines = [line for line in said(caplog) if " joined" in line or " resumed" in line]
    assert lines == [
        f"table {table_id}: Ada (seat 0) joined",
        f"table {table_id}: Ivo (seat 1) joined{older_words}",
        f"table {table_id}: Ivo (seat 1) resumed{older_words}",
    ]
