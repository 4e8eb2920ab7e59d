"""``scopa-net host`` stopped while it starts, before it listens (its journal and key being
opened): SIGHUP (its terminal closed as it started) and SIGTERM killed it there, where
Ctrl-C, SIGTERM and SIGHUP are a host's normal end once it listens (README's exit table: 0).
It now stops there as it stops then: nothing served, the journal closed, status 0, and the
line saying where the tables are saved, or that none was open (nobody to tell after SIGHUP:
nothing said)."""

from __future__ import annotations

import os
import pty
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import free_port

from scopa_net.commands import host as host_command
from scopa_net.commands.journal_files import open_journal
from scopa_net.commands.main import main


class StopNotCaughtError(Exception):
    """The signal reached the test's own handler: the host had none of its own there (left
    to the default, it would have killed the host where it stood)."""


def not_caught(signum: int, frame: object) -> None:
    raise StopNotCaughtError(signal.Signals(signum).name)


def stopped_as_the_key_is_read(
    db: Path, monkeypatch: pytest.MonkeyPatch, signum: signal.Signals
) -> int:
    """``scopa-net host --db DB`` sent ``signum`` as it reads its key, before it listens: its
    status (what it printed is the caller's to read)."""
    real: Callable[..., None] = host_command.check_host_key

    def signalled_meanwhile(journal: object) -> None:
        real(journal)
        os.kill(os.getpid(), signum)  # as the key is read: the host does not listen yet

    monkeypatch.setattr(host_command, "check_host_key", signalled_meanwhile)
    monkeypatch.setattr(host_command, "serve_until_signalled", None)  # called: a TypeError
    before = signal.signal(signum, not_caught)
    try:
        argv = ["host", "--db", str(db), "--port", str(free_port()), "--no-advertise"]
        return main(argv)
    finally:
        signal.signal(signum, before)


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_a_host_stopped_before_it_listens_ends_as_a_host_stopped_later(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    signum: signal.Signals,
) -> None:
    """Its first start, on a new journal: no table was ever open. It said "the tables are
    saved in ...: the same command resumes them", of tables that were never there."""
    db = tmp_path / "host.db"
    assert stopped_as_the_key_is_read(db, monkeypatch, signum) == 0
    out, _ = capsys.readouterr()
    assert out == "stopped before listening; no table was open, so there is nothing to resume\n"
    with open_journal(str(db), create=False) as journal:  # closed, and whole
        assert journal.tables() == []


def test_a_host_stopped_before_it_listens_says_where_the_match_in_play_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Started again on a journal whose table's match is in play, and stopped before it
    listens: the table is saved there, and the same command resumes it."""
    import trio
    from hosting import play_one_round

    db = tmp_path / "host.db"
    trio.run(play_one_round, str(db))
    capsys.readouterr()
    assert stopped_as_the_key_is_read(db, monkeypatch, signal.SIGTERM) == 0
    out, _ = capsys.readouterr()
    assert out == (
        f"stopped before listening; the tables are saved in {db}: the same command resumes them\n"
    )


def test_a_host_whose_terminal_hung_up_as_it_starts_stops_as_at_sighup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel fails a hung-up terminal's writes first and signals after: the host's first
    lines (its key, where to join) then failed, and the failure was read as the port's:
    "cannot listen on 0.0.0.0:PORT: Input/output error", status 5. It is the terminal closing:
    the host stops as at SIGHUP, 0. Its terminal here is one whose window is already closed."""
    main_fd, terminal_fd = pty.openpty()
    os.close(main_fd)  # the window closed: the terminal hung up
    db = tmp_path / "host.db"
    before = signal.signal(signal.SIGHUP, not_caught)  # its SIGHUP has not come yet
    try:
        with open(terminal_fd, "w") as gone:
            monkeypatch.setattr(sys, "stdout", gone)
            argv = ["host", "--db", str(db), "--port", str(free_port()), "--no-advertise"]
            status = main(argv)
    finally:
        signal.signal(signal.SIGHUP, before)
    assert status == 0
    with open_journal(str(db), create=False) as journal:
        assert journal.tables() == []
