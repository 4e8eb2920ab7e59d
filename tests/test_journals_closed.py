"""A command that opens a journal closes it on every path, the one line of a refusal too: a
connection left to the collector is a ResourceWarning on Python 3.13 (an error in this suite),
and a descriptor held open meanwhile."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers import connections_opened, still_open

from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_LOCAL
from scopa_net.commands.paths import default_host_db, lan_host_db
from scopa_net.server.journal import SCHEMA_VERSION, Journal

HOST = ["host", "--host", "127.0.0.1", "--port", "0", "--no-advertise", "--log-level", "ERROR"]


def unreadable_tables(db: Path) -> None:
    """A journal whose schema version is ours but whose tables are of another shape: it opens,
    and reading its tables fails (as a damaged file does)."""
    with Journal(db) as journal:
        journal._db.executescript("DROP TABLE entries; DROP TABLE tables; CREATE TABLE tables (x)")
        journal._db.execute("CREATE TABLE entries (x)")
        assert journal.get_meta("schema_version") == SCHEMA_VERSION


def test_history_on_a_journal_it_cannot_read_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "host.db"
    unreadable_tables(db)
    opened = connections_opened(monkeypatch)
    assert main(["history", "--db", str(db)]) == EXIT_LOCAL
    err = capsys.readouterr().err
    assert err.startswith(f"scopa-net: the journal {db}: cannot use it (no such column")
    assert len(err.splitlines()) == 1
    assert opened
    assert still_open(opened) == []


def test_exporting_with_the_second_journal_unreadable_closes_the_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --db, ``history --export`` opens the host's journal and ``play --lan``'s; the
    second refused, the first was left open."""
    import os

    host, lan = default_host_db(os.environ), lan_host_db(os.environ)
    lan.parent.mkdir(parents=True)
    Journal(host).close()
    unreadable_tables(lan)
    opened = connections_opened(monkeypatch)
    assert main(["history", "--export", "1"]) == EXIT_LOCAL
    assert capsys.readouterr().err.startswith(f"scopa-net: the journal {lan}: cannot use it")
    assert len(opened) == 2
    assert still_open(opened) == []


def test_a_host_refused_for_its_key_closes_its_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "host.key").write_text("garbage")
    opened = connections_opened(monkeypatch)
    assert main([*HOST, "--db", str(tmp_path / "host.db")]) == EXIT_LOCAL
    assert capfd.readouterr().err.startswith(f"scopa-net: {tmp_path}/host.key is not a host key")
    assert opened
    assert still_open(opened) == []


def test_the_helpers_see_a_connection_left_open(monkeypatch: pytest.MonkeyPatch) -> None:
    opened = connections_opened(monkeypatch)
    left = sqlite3.connect(":memory:")
    assert still_open(opened) == [left]
    left.close()
    assert still_open(opened) == []
