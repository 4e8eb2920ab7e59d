"""Files the client writes whole (a seat, a tally, a transcript, the pinned host keys)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from scopa_net.client.files import replace_file


def test_a_file_is_replaced_whole_with_the_mode_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "seat.json"
    replace_file(path, b"old")
    replace_file(path, b"new and longer", mode=0o600, durable=True)
    assert path.read_bytes() == b"new and longer"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["seat.json"]


def test_a_crash_before_the_rename_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "round.scopa"
    replace_file(path, b"rounds 1 and 2")

    def crash(*args: object) -> None:
        raise OSError("the machine went down")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="went down"):
        replace_file(path, b"rounds 1, 2 and 3")
    assert path.read_bytes() == b"rounds 1 and 2"


def test_writes_the_system_takes_in_pieces_still_write_it_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real_write(fd, bytes(data[:3])))
    replace_file(tmp_path / "t", bytes(range(256)) * 4)
    monkeypatch.undo()
    assert (tmp_path / "t").read_bytes() == bytes(range(256)) * 4


def test_a_write_stopped_half_way_leaves_no_half_written_file_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C during an export's write left ``.NAME.PID.tmp`` cut short in the folder, and
    every run stopped so left one more (the next run has another PID)."""
    path = tmp_path / "table1-match1-seat0-ada.scopa"
    replace_file(path, b"an earlier export")
    real_write = os.write
    pieces = []

    def stopped_after_one_piece(fd: int, data: bytes) -> int:
        if pieces:
            raise KeyboardInterrupt  # Ctrl-C lands here, half way through
        pieces.append(data)
        return real_write(fd, bytes(data[:100]))

    monkeypatch.setattr(os, "write", stopped_after_one_piece)
    with pytest.raises(KeyboardInterrupt):
        replace_file(path, b"x" * 1000)
    monkeypatch.undo()
    assert path.read_bytes() == b"an earlier export"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    # A rename the system refuses (a folder of that name) leaves nothing beside it either.
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "inside").write_bytes(b"")
    with pytest.raises(IsADirectoryError):
        replace_file(tmp_path / "taken", b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name, "taken"]
