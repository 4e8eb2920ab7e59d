"""Lock files are their owner's only (0600), like every file scopa-net keeps (README)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from scopa_net.client.embedded import lan_folder, lan_table_lock
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.client.tally_store import TallyStore


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The umask most people have (022): files are made 0644 unless asked otherwise."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_seat_lock_is_the_owners_only(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    record = SeatRecord(
        host="127.0.0.1",
        port=1,
        host_key="ab" * 32,
        table_id=1,
        seat=0,
        name="Ada",
        players=2,
        target=11,
    )
    assert store.hold(record)
    assert mode(store.folder / f"{record.key}.lock") == 0o600


def test_a_tally_lock_is_the_owners_only(tmp_path: Path) -> None:
    store = TallyStore(tmp_path)
    assert store.hold("20261207-2000-ada-bruno")
    assert mode(store.folder / "20261207-2000-ada-bruno.lock") == 0o600
    store.close()


def test_play_lans_lock_is_the_owners_only(tmp_path: Path) -> None:
    with lan_table_lock(tmp_path):
        assert mode(lan_folder(tmp_path) / "lock") == 0o600


def test_a_lock_file_left_readable_by_others_is_made_the_owners_only(tmp_path: Path) -> None:
    store = TallyStore(tmp_path)
    store.folder.mkdir(mode=0o700)
    old = store.folder / "t.lock"
    old.touch(mode=0o644)
    assert store.hold("t")
    assert mode(old) == 0o600
    store.close()
