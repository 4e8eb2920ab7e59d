"""The host when its disk fails it (issue 16 items 6 and 7), over loopback TCP.

A journal whose writes the disk refuses: the players are told, new work is refused with
`storage`, the host retries and carries on when it can write again, logging once each way.
Two ways to make SQLite's writes fail for real: its own page limit (``max_page_count``, which
fails exactly as a full disk does: SQLITE_FULL) everywhere, and a small tmpfs filled up where
the test may mount one (root on Linux; skipped elsewhere, saying why).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import trio
from full_journal import between_writes
from hosting import create, start_host
from rawplayer import RawPlayer, answer, close_links, close_opened, open_link, play_turn

from scopa_net.bots.levels import make_player
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host, host_key_path
from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m

LOOSE = {"chat_lines": 10_000, "request_burst": 10_000, "request_rate": 10_000.0}


@pytest.fixture(autouse=True)
def _close_links() -> Iterator[None]:
    yield
    close_opened()


async def _seated(host: Host) -> tuple[RawPlayer, object]:
    lobby = await open_link(port=host.port)
    await lobby.send(create(RuleSet.of(2, 11), bots=1))
    made = await answer(lobby, (m.TableCreated,))
    player = RawPlayer(lobby, made.table.id)  # type: ignore[attr-defined]
    await player.join()
    return player, host.tables[player.table_id].table


async def _until_storage_fails(player: RawPlayer) -> int:
    """Chat long lines until the host says it cannot save; returns the lines sent."""
    sent = 0
    with trio.fail_after(30):
        while True:
            await player.link.send(m.Say(text=f"{sent:04d} " + "x" * 190))
            sent += 1
            while True:
                msg = await player.step()
                if isinstance(msg, m.Error):
                    assert msg.code == "storage", msg
                    assert msg.ref is None, msg
                    return sent
                if isinstance(msg, m.Chat) and msg.text.startswith(f"{sent - 1:04d}"):
                    break


async def _storage_round_trip(
    host: Host, caplog: pytest.LogCaptureFixture, fail: Callable[[], None], heal: Callable[[], None]
) -> None:
    player, table = await _seated(host)
    chooser = make_player("random", 5)
    assert isinstance(await play_turn(player, table, chooser), m.Ack)
    await between_writes(host)
    fail()
    await _until_storage_fails(player)
    # New work is refused at once, with a reason a person can read; the lobby still answers.
    await player.link.send(m.Say(text="anyone?"))
    refused = await answer(player.link, (m.Error,))
    assert refused.code == "storage", refused  # type: ignore[attr-defined]
    assert refused.ref == "say", refused  # type: ignore[attr-defined]
    assert "cannot save" in refused.message  # type: ignore[attr-defined]
    other = await open_link(port=host.port)
    await other.send(create(RuleSet.of(2, 11), bots=1))
    refused = await answer(other, (m.Error, m.TableCreated))
    assert isinstance(refused, m.Error), refused
    assert refused.code == "storage", refused
    await other.send(m.ListTables())
    assert isinstance(await answer(other, (m.Tables,)), m.Tables)
    await trio.sleep(2.0)  # several retries
    cannot = [r for r in caplog.records if "cannot write" in r.getMessage()]
    assert len(cannot) == 1, [r.getMessage() for r in cannot]
    assert cannot[0].levelno == logging.ERROR
    await between_writes(host)
    heal()
    with trio.fail_after(15):
        while not (
            isinstance(msg := await player.step(), m.Chat)
            and msg.seat is None
            and "again" in msg.text
        ):
            pass
    assert isinstance(await play_turn(player, table, chooser), m.Ack)
    assert player.table_id in host.tables
    again = [r for r in caplog.records if "writable again" in r.getMessage()]
    assert len(again) == 1
    await close_links()


async def test_a_journal_that_refuses_writes_tells_players_and_carries_on_after(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Pass (issue 16 item 6): with SQLite's page limit reached (SQLITE_FULL, as on a full
    disk) mid-match, the seated player gets `error storage`, chat and a new table are refused
    with `storage`, the lobby answers, the log says "cannot write" once in 2 s of retries;
    when the limit is lifted the table says so in its chat and the next move is acknowledged."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(tmp_path / "host.db"), **LOOSE)
        db = host.journal._db

        def fail() -> None:
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            db.execute(f"PRAGMA max_page_count = {pages}")

        def heal() -> None:
            db.execute("PRAGMA max_page_count = 1073741823")

        await _storage_round_trip(host, caplog, fail, heal)
        nursery.cancel_scope.cancel()


def _mount_small_tmpfs(where: Path) -> str | None:
    """Mount a 2 MiB tmpfs at ``where``; None if done, else why not."""
    if sys.platform != "linux" or os.geteuid() != 0 or shutil.which("mount") is None:
        return "needs root on Linux to mount a small tmpfs"
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    return None if done.returncode == 0 else f"cannot mount a tmpfs: {done.stderr.strip()}"


async def test_a_full_disk_tells_players_and_the_host_carries_on_when_space_is_freed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Pass (issue 16 item 6): the journal on a 2 MiB tmpfs, filled up mid-match by another
    file: the same as above, with the disk's own ENOSPC; deleting the file lets play go on."""
    mount = tmp_path / "small"
    why = _mount_small_tmpfs(mount)
    if why is not None:
        pytest.skip(why)
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    filler = mount / "filler"
    try:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, db=str(mount / "host.db"), **LOOSE)

            def fail() -> None:
                with open(filler, "wb") as f:
                    try:
                        while True:
                            f.write(b"\0" * 65536)
                            f.flush()
                    except OSError:
                        pass

            await _storage_round_trip(host, caplog, fail, filler.unlink)
            nursery.cancel_scope.cancel()
        host.journal.close()
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


async def test_a_deleted_journal_is_noticed_and_written_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Pass (issue 16 item 7): the journal file deleted under a running host: within the check
    interval the log says so and the file is back, holding every table; moves made after go
    into it; a host started on it afterwards restores the table, with the same host key."""
    caplog.set_level(logging.INFO, logger="scopa_net.host")
    path = tmp_path / "host.db"
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(path), journal_check=0.2)
        key = host.public_key
        player, table = await _seated(host)
        chooser = make_player("random", 2)
        assert isinstance(await play_turn(player, table, chooser), m.Ack)
        path.unlink()
        with trio.fail_after(10):
            while not path.exists():
                await trio.sleep(0.05)
        assert any("deleted" in r.getMessage() for r in caplog.records)
        assert isinstance(await play_turn(player, table, chooser), m.Ack)
        logged = table.seats[player.seat].seq
        await close_links()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    async with trio.open_nursery() as nursery:
        again = await start_host(nursery, db=str(path))
        assert again.public_key == key
        restored = again.tables[player.table_id].table
        assert restored.seats[player.seat].seq >= logged
        nursery.cancel_scope.cancel()
    again.journal.close()


def test_the_host_key_lives_beside_the_journal_and_survives_losing_it(tmp_path: Path) -> None:
    """Pass (issue 16 item 7): the key is in its own file (owner-only) beside the journal;
    with the journal deleted, a new host on the same path has the same key; a journal from
    before (key only inside it) has its key copied out to the file."""
    from scopa_net.server.config import HostConfig

    path = tmp_path / "data" / "host.db"
    first = Host(HostConfig(db=str(path), advertise=False), Journal(path))
    first.journal.close()
    key_file = host_key_path(str(path))
    assert key_file.exists()
    assert key_file.stat().st_mode & 0o077 == 0
    path.unlink()
    second = Host(HostConfig(db=str(path), advertise=False), Journal(path))
    second.journal.close()
    assert second.public_key == first.public_key
    # An older journal holding the key itself: it is copied out.
    key_file.unlink()
    old = Journal(path)
    old.set_meta("host_key", b"\x07" * 32)
    old.close()
    third = Host(HostConfig(db=str(path), advertise=False), Journal(path))
    third.journal.close()
    fourth = Host(HostConfig(db=str(path), advertise=False), Journal(path))
    fourth.journal.close()
    assert key_file.exists()
    assert third.public_key == fourth.public_key != first.public_key


def test_a_host_stopped_while_its_disk_is_full_says_what_is_not_saved(tmp_path: Path) -> None:
    """A `scopa-net host` process whose journal (on a 2 MiB tmpfs) fills up mid-match, then
    SIGTERM: it said "stopped; the tables are saved in ...: the same command resumes them"
    with status 0, though the last move was not; a helper saw such a stop wait on the journal
    for good. Now the stop gives the journal a moment, says in one line since when it could
    not be written and how many moves are lost, and ends with status 5 (this machine cannot)."""
    import re
    import signal
    import threading
    import time

    from helpers import free_port
    from hosting import host_command, host_process

    mount = tmp_path / "small"
    why = _mount_small_tmpfs(mount)
    if why is not None:
        pytest.skip(why)
    db, port = mount / "host.db", free_port()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    argv = host_command(db, port, "--players", "2", "--bots", "1", "--bot-delay", "0")
    host = host_process([*argv, "--target", "99"], env)
    bots = subprocess.Popen(
        [sys.executable, "-m", "scopa_net", "bots", f"127.0.0.1:{port}", "--bot-delay", "0.1"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    watchdog = threading.Timer(60, host.proc.kill)  # a host that never stops fails, not hangs
    watchdog.start()
    try:
        assert host.proc.stderr is not None
        with open(db.with_name("filler"), "wb") as filler:
            time.sleep(1.0)  # the bot seated and moving
            try:
                while True:
                    filler.write(b"\0" * 65536)
                    filler.flush()
            except OSError:
                pass
            full = time.time()
            log = [host.proc.stderr.readline()]  # WARNING and up: the first is the trouble
            assert "cannot write" in log[0], log
            host.proc.send_signal(signal.SIGTERM)
            began = time.monotonic()
            out, err = host.proc.communicate(timeout=60)
            took = time.monotonic() - began
    finally:
        watchdog.cancel()
        bots.kill()
        bots.wait()
        host.proc.kill()
        host.proc.wait()
        subprocess.run(["umount", "-l", str(mount)], check=False)
    lines = err.splitlines()
    assert "Traceback" not in err, err
    assert "saved" not in out, out  # never "the tables are saved"
    since = {time.strftime("%H:%M", time.localtime(full + d)) for d in (-60, 0)}
    assert re.fullmatch(
        rf"scopa-net: stopped; the journal at {re.escape(str(db))} could not be written since "
        rf"({'|'.join(since)}): (the last (move is|\d+ moves are) not saved|no move is lost, "
        "but what the tables did since may not be saved)",  # a deal's entry may be the last
        lines[-1],
    ), lines
    assert host.proc.returncode == 5, (host.proc.returncode, lines)
    assert took < 10, f"the stop took {took:.1f} s"


def _immutable(path: Path, on: bool) -> str | None:
    """``chattr +i`` (or ``-i``) on ``path``: even root cannot add or remove a file in such a
    folder. None if done, else why not (no chattr, not root, a file system without it)."""
    if shutil.which("chattr") is None or os.geteuid() != 0:
        return "needs root and chattr to make a folder immutable"
    done = subprocess.run(
        ["chattr", "+i" if on else "-i", str(path)], capture_output=True, text=True, check=False
    )
    return None if done.returncode == 0 else f"cannot chattr: {done.stderr.strip()}"


def test_a_host_whose_journal_folder_turned_read_only_stops_in_one_line(tmp_path: Path) -> None:
    """The journal's folder made immutable while the host runs (the journal itself still
    writable): Ctrl-C or SIGTERM ended with "stopped; the tables are saved..." and then a
    traceback (PermissionError removing host.db.lock), status 1. The lock file is left (the
    lock is the flock on it): the line, status 0, and a host starts on that journal again."""
    import signal

    from helpers import free_port
    from hosting import host_command, host_process

    folder = tmp_path / "journal"
    folder.mkdir()
    db = folder / "host.db"
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    host = host_process(host_command(db, free_port()), env)
    try:
        why = _immutable(folder, True)
        if why is not None:
            pytest.skip(why)
        host.proc.send_signal(signal.SIGTERM)
        out, err = host.proc.communicate(timeout=30)
    finally:
        host.proc.kill()
        host.proc.wait()
        _immutable(folder, False)
    assert "Traceback" not in err, err
    assert out.splitlines() == ["stopped; no table was open, so there is nothing to resume"]
    assert host.proc.returncode == 0, err
    assert db.with_name("host.db.lock").exists()
    again = host_process(host_command(db, free_port()), env)
    again.proc.send_signal(signal.SIGTERM)
    out, err = again.proc.communicate(timeout=30)
    assert (again.proc.returncode, "Traceback" in err) == (0, False), err
    assert out.startswith("stopped; no table was open"), out
