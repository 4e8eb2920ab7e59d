"""The SQLite journal: durable ordered entries, per table, surviving a reopen."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers import held_open

from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_LOCAL
from scopa_net.server.journal import SCHEMA_VERSION, Journal, JournalError, NewerJournalError


def test_entries_come_back_in_order_per_table_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "host.db"
    journal = Journal(path)
    journal.create_table("t1", 1.0, {"players": 2})
    journal.create_table("t2", 2.0, {"players": 4})
    written = journal.append_many(
        [("t1", "join", {"seat": 0}), ("t2", "join", {"seat": 0}), ("t1", "play", {"c": 5})]
    )
    assert [(e.table_id, e.n) for e in written] == [("t1", 1), ("t2", 1), ("t1", 2)]
    journal.append_many([("t1", "play", {"c": b"\x00\x01"})])
    journal.close()

    with Journal(path) as again:
        entries = list(again.entries("t1"))
        assert [(e.n, e.kind, e.payload) for e in entries] == [
            (1, "join", {"seat": 0}),
            (2, "play", {"c": 5}),
            (3, "play", {"c": b"\x00\x01"}),
        ]
        assert [t.table_id for t in again.tables(finished=False)] == ["t1", "t2"]
        again.finish_table("t2", 9.0, {"winner": 1})
        assert [t.table_id for t in again.tables(finished=True)] == ["t2"]
        assert again.tables(finished=True)[0].summary == {"winner": 1}


def test_a_table_finished_again_keeps_the_matches_before_its_rematch(tmp_path: Path) -> None:
    """A table that played again, then was recorded finished a second time (closed after its
    last match ended), lost its earlier matches from the summary `history` lists."""
    with Journal(tmp_path / "host.db") as journal:
        journal.create_table("t1", 1.0, {"players": 2})
        journal.finish_table("t1", 2.0, {"winner": 0})
        journal.reopen_table("t1")
        journal.finish_table("t1", 3.0, {"winner": 1})
        journal.finish_table("t1", 4.0, {"winner": 1, "abandoned": True})
        (table,) = journal.tables(finished=True)
        assert table.summary == {"winner": 1, "abandoned": True, "earlier": [{"winner": 0}]}


def test_wal_and_full_sync_are_on(tmp_path: Path) -> None:
    with Journal(tmp_path / "host.db") as journal:
        db = journal._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_failed_batch_writes_nothing(tmp_path: Path) -> None:
    with Journal(tmp_path / "host.db") as journal:
        journal.create_table("t1", 1.0, {})
        with pytest.raises(sqlite3.IntegrityError):
            journal.append_many([("t1", "join", {}), ("no-such-table", "join", {})])
        assert list(journal.entries("t1")) == []


def test_a_gap_is_reported(tmp_path: Path) -> None:
    with Journal(tmp_path / "host.db") as journal:
        journal.create_table("t1", 1.0, {})
        journal.append_many([("t1", "a", {}), ("t1", "b", {})])
        journal._db.execute("DELETE FROM entries WHERE n = 1")
        with pytest.raises(JournalError, match="entry 1 is missing"):
            list(journal.entries("t1"))


def test_another_schema_version_is_refused(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "host.db")
    journal.set_meta("schema_version", "x")
    journal.close()
    with pytest.raises(JournalError, match="schema version 'x'"):
        Journal(tmp_path / "host.db")


def test_a_version_1_journal_is_marked_2_when_a_host_writes_it_and_not_when_read(
    tmp_path: Path,
) -> None:
    """An older host (which takes version 1 only) then refuses the journal this one wrote,
    instead of misreading it: closed tables came back, bots finished a person's match."""
    journal = Journal(tmp_path / "host.db")
    journal.set_meta("schema_version", 1)
    journal.close()
    read = Journal(tmp_path / "host.db", read_only=True)  # history: nothing written
    assert read.get_meta("schema_version") == 1
    read.close()
    journal = Journal(tmp_path / "host.db")
    assert journal.get_meta("schema_version") == SCHEMA_VERSION == 2
    journal.close()


def test_a_journal_a_newer_scopa_net_wrote_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "host.db"
    journal = Journal(db)
    journal.set_meta("schema_version", 3)
    journal.close()
    for read_only in (False, True):
        with pytest.raises(JournalError, match="written by a newer scopa-net"):
            Journal(db, read_only=read_only)
    assert main(["history", "--db", str(db)]) == EXIT_LOCAL
    assert capsys.readouterr().err == (
        f"scopa-net: the journal {db} was written by a newer scopa-net (journal version 3; "
        "this one reads up to 2): update scopa-net, or give another --db\n"
    )


def test_a_journal_refused_is_closed_at_once(tmp_path: Path) -> None:
    """Every way a journal is refused as it opens (no database at all, a newer or another
    schema, a database of something else) closes the file before the error is raised: the
    error's traceback, still held here, must not keep it open (Python 3.13 warns of every
    connection left to the collector, and pytest fails the test that happens to be running)."""
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database, but a file of the same name" * 100)
    with pytest.raises(sqlite3.DatabaseError) as refused:
        Journal(garbage)
    assert held_open(garbage) == []
    for read_only in (False, True):
        with pytest.raises(sqlite3.DatabaseError) as refused:
            Journal(garbage, read_only=read_only)
        assert held_open(garbage) == [], refused.value
    for version, error in ((3, NewerJournalError), ("x", JournalError)):
        db = tmp_path / f"version-{version}.db"
        with Journal(db) as journal:
            journal.set_meta("schema_version", version)
        for read_only in (False, True):
            with pytest.raises(error) as refused:
                Journal(db, read_only=read_only)
            assert held_open(db) == [], refused.value
    other = tmp_path / "other.db"
    with Journal(other) as journal:
        journal._db.execute("DELETE FROM meta")
    with pytest.raises(JournalError, match="no schema version") as refused:
        Journal(other, read_only=True)
    assert held_open(other) == [], refused.value


def test_a_journal_closes_as_its_block_ends(tmp_path: Path) -> None:
    with Journal(tmp_path / "host.db") as journal:
        journal.create_table("t", 0.0, {})
        assert held_open(tmp_path / "host.db") != []
    assert held_open(tmp_path / "host.db") == []
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        journal.tables()


def test_memory_journal_works() -> None:
    with Journal(":memory:") as journal:
        journal.create_table("t", 0.0, {})
        assert journal.append_many([("t", "x", {})])[0].n == 1


def test_numbering_goes_on_past_the_tables_kept_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal keeps the next entry number of only so many tables (a long-running host
    makes tables without end); a table it no longer keeps is numbered on from the database."""
    monkeypatch.setattr("scopa_net.server.journal.NEXT_N_KEPT", 2)
    with Journal(tmp_path / "host.db") as journal:
        names = ["t1", "t2", "t3"]
        for name in names:
            journal.create_table(name, 1.0, {"players": 2})
        for turn in range(4):
            for name in names:
                journal.append_many([(name, "play", {"turn": turn})])
        assert len(journal._next_n) <= 2
        for name in names:
            assert [(e.n, e.payload["turn"]) for e in journal.entries(name)] == [
                (n + 1, n) for n in range(4)
            ]
