"""The files a host keeps: a place it cannot use is one line and status 5; what it makes is
its owner's only (the journal holds the seeds of the rounds in play)."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from helpers import free_port, unwritable
from hosting import host_command, host_process

from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_LOCAL
from scopa_net.server.journal import Journal

HOST = ["host", "--host", "127.0.0.1", "--port", "0", "--no-advertise", "--log-level", "ERROR"]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_data_folder_that_is_a_file_is_one_line_and_status_5(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """It was a FileExistsError traceback, status 1."""
    (tmp_path / "scopa-net").write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(HOST) == EXIT_LOCAL
    assert capfd.readouterr().err == (
        f"scopa-net: the journal {tmp_path}/scopa-net/host.db: {tmp_path}/scopa-net is a file, "
        "not a folder; move that file away, or give --db a file in a folder\n"
    )


def test_a_journal_folder_that_cannot_be_written_is_one_line_and_status_5(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """It was a PermissionError traceback (on the lock file), status 1."""
    if os.geteuid() == 0:  # root writes anywhere but where the system refuses everyone
        folder = Path("/sys")
    else:
        folder = tmp_path / "read-only"
        folder.mkdir(mode=0o500)
    db = folder / "host.db"
    assert main([*HOST, "--db", str(db)]) == EXIT_LOCAL
    err = capfd.readouterr().err
    assert err.startswith(f"scopa-net: the journal {db}: permission denied for {db}")
    assert err.endswith("; give --db a file in a folder you can write\n")
    assert len(err.splitlines()) == 1


def test_a_read_only_journal_file_is_told_as_the_file_not_its_folder(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A journal file that cannot be written, in a folder that can, got "give --db a file in a
    folder you can write": the file is the trouble."""
    db = tmp_path / "host.db"
    Journal(db).close()
    if os.geteuid() == 0:  # root writes a 0444 file: only an immutable one is refused
        made = subprocess.run(["chattr", "+i", str(db)], check=False, capture_output=True)
        if made.returncode:
            pytest.skip("root, and chattr +i is not available here")
    else:
        os.chmod(db, 0o444)
    try:
        assert main([*HOST, "--db", str(db)]) == EXIT_LOCAL
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(db)], check=True)
    assert capfd.readouterr().err == (
        f"scopa-net: the journal {db} is a read-only file; make it writable (chmod u+w), or "
        "give --db another file\n"
    )


def test_a_host_key_that_is_not_a_key_is_one_line_and_status_5(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "host.key").write_text("garbage")
    assert main([*HOST, "--db", str(tmp_path / "host.db")]) == EXIT_LOCAL
    err = capfd.readouterr().err
    assert err.startswith(f"scopa-net: {tmp_path}/host.key is not a host key (")
    assert len(err.splitlines()) == 1


def test_what_the_host_makes_is_its_owner_s_only(tmp_path: Path) -> None:
    """host.db and its -wal, -shm and lock were 0644 in a 0755 folder: another user of the
    machine could read the seeds of the round in play."""
    env = dict(os.environ) | {"XDG_DATA_HOME": str(tmp_path / "data")}
    old = os.umask(0o022)  # the usual umask, whatever the test runner's
    try:
        argv = host_command(tmp_path / "unused", free_port(), "--players", "2", "--bots", "1")
        argv.remove("--db")
        argv.remove(str(tmp_path / "unused"))
        host = host_process(argv, env)
    finally:
        os.umask(old)
    try:
        folder = tmp_path / "data" / "scopa-net"
        made = {p.name: mode(p) for p in folder.iterdir()}
        assert made == dict.fromkeys(
            ["host.db", "host.db-wal", "host.db-shm", "host.db.lock", "host.key"], 0o600
        )
        assert mode(folder) == mode(tmp_path / "data") == 0o700
    finally:
        host.stop()


def test_a_db_in_folders_not_made_yet_makes_them_the_owner_s_only(tmp_path: Path) -> None:
    """`host --db ~/scopa/club.db` with no ~/scopa was refused with status 2 ("create it
    first"), where the default place's folders are made: the missing ones are made now
    (0700), and a folder already there is used as it is."""
    os.chmod(tmp_path, 0o755)
    db = tmp_path / "clubs" / "friday" / "host.db"
    env = dict(os.environ) | {"XDG_DATA_HOME": str(tmp_path / "data")}
    old = os.umask(0o022)
    try:
        host = host_process(host_command(db, free_port()), env)
    finally:
        os.umask(old)
    try:
        assert mode(db.parent) == mode(db.parent.parent) == 0o700
        assert mode(tmp_path) == 0o755
        assert mode(db) == 0o600
    finally:
        host.stop()


def test_a_journal_left_readable_by_others_is_made_the_owner_s_only(tmp_path: Path) -> None:
    from scopa_net.server.journal import Journal

    db = tmp_path / "host.db"
    Journal(db).close()
    os.chmod(db, 0o644)
    Journal(db).close()
    assert mode(db) == 0o600


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"", "the file is empty"),
        (b"shopping list\n", "file is not a database"),
        (None, "it holds other tables"),  # an SQLite database of something else
    ],
)
def test_history_on_a_file_that_is_not_a_journal_says_so_and_leaves_it_as_it_was(
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    content: bytes | None,
    why: str,
) -> None:
    """`history --db` on an empty file wrote a whole journal into it (28 KB, mode 0600): a
    command that only lists opens a journal to read, and changes nothing."""
    import sqlite3

    db = tmp_path / "notes.db"
    if content is None:
        with sqlite3.connect(db) as other:
            other.execute("CREATE TABLE shopping (item TEXT)")
        other.close()
    else:
        db.write_bytes(content)
    os.chmod(db, 0o644)
    before = db.read_bytes()
    assert main(["history", "--db", str(db)]) == EXIT_LOCAL
    assert capfd.readouterr().err == (
        f"scopa-net: {db} is not a scopa-net journal ({why}); give --db another file\n"
    )
    assert db.read_bytes() == before
    assert mode(db) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def test_history_reads_a_journal_no_host_has_open_without_leaving_files_beside_it(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from scopa_net.server.journal import Journal

    db = tmp_path / "host.db"
    Journal(db).close()
    before = db.read_bytes()
    assert main(["history", "--db", str(db)]) == 0
    assert capfd.readouterr().out == "no matches yet\n"
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["host.db"]


def test_play_lan_with_a_data_folder_that_is_a_file_is_one_line_and_status_5(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play --lan` keeps its own host's journal in the data folder: a file in the way ended
    in a NotADirectoryError traceback, status 1."""
    (tmp_path / "scopa-net").write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["play", "--lan", "--port", "0"]) == EXIT_LOCAL
    assert capfd.readouterr().err == (
        f"scopa-net: `play --lan` keeps its table in {tmp_path}/scopa-net/play-lan: "
        f"{tmp_path}/scopa-net is a file, not a folder; move that file away, or set "
        "XDG_DATA_HOME to a folder you can write\n"
    )


def test_play_lan_with_its_folder_unwritable_is_one_line_and_status_5(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A home folder made read-only after a `play --lan` (its folder and journal there) ended
    in an sqlite3.OperationalError traceback ("unable to open database file"), status 1."""
    folder = tmp_path / "scopa-net" / "play-lan"
    folder.mkdir(parents=True)
    Journal(str(folder / "host.db")).close()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with unwritable(folder):
        status = main(["play", "--lan", "--port", "0"])
    err = capfd.readouterr().err
    assert status == EXIT_LOCAL, err
    assert err.startswith(f"scopa-net: `play --lan` keeps its table in {folder}: ")
    assert err.endswith("; set XDG_DATA_HOME to a folder you can write\n")
    assert len(err.splitlines()) == 1
