"""A host's journal copied while it runs and put back later, as a person restoring a backup
does (tests of a host that forgot what it dealt)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def copy_journal(db: Path, to: Path) -> None:
    """A copy of a host's journal as it stands now, whole in one file (its write-ahead log
    checkpointed as the copy closes)."""
    source, copy = sqlite3.connect(db), sqlite3.connect(to)
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()


def put_back(copy: Path, db: Path) -> None:
    """What a person does who puts a host's journal back from a copy: the copy in its place,
    and nothing of the journal it replaces (its write-ahead log would hold what came after)."""
    for leftover in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        leftover.unlink(missing_ok=True)
    copy.replace(db)
