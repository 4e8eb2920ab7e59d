"""Seats that outlive the client: what it takes to sit down again, kept on disk.

A player's seat at a table is held by a token only the player has. If the client dies, is
closed, or the player steps away, the seat is worth nothing without that token, so the client
keeps one small file per seat in ``$XDG_DATA_HOME/scopa-net/seats/`` with everything needed to
take the seat back: the host's address and key, the table and seat, the tokens, the seeds the
seat chose for its fair deals, and the moves sent but not yet acknowledged.

Files are private (mode 0600 in a 0700 folder) and written atomically: a temporary file is
written and flushed to disk, then renamed over the old one, so a crash at any instant leaves
either the old record or the new one, never half of each.

A client that plays a seat also holds its lock (``KEY.lock`` beside the record,
:mod:`~scopa_net.client.file_lock`) for as long as it plays there. A seat whose lock nobody
holds is one whose client stopped, and ``join`` offers it back; a seat whose lock is held is
being played by another client of this person on this machine (a second terminal), and taking
it would throw that one out.

Tokens rotate at every resume, and the host honours the previous token until the newest one
has been used once. So a record keeps the newest token first and the one before it second: a
client killed after the host rotated but before the new token reached the disk still holds the
old one, which still works, and a client killed after writing the new one tries it first.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from scopa_net.client.addresses import shown_address
from scopa_net.client.file_lock import FileLocks
from scopa_net.client.files import make_private_folder, replace_file, sync_folder
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode
from scopa_net.wire.convert import opening_snapshot
from scopa_net.wire.errors import ProtocolError

SEATS_DIR = "seats"
MAX_TOKENS = 2


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A ``play`` sent (or queued) whose ``ack`` or ``reject`` has not arrived."""

    move_id: int
    after: int
    card: int
    captured: int


@dataclass(frozen=True, slots=True)
class AckedPlay:
    """A play of the seat that the host acknowledged (``ack``): the ``played`` event's seq,
    and the card and capture the move sent."""

    seq: int
    card: int
    captured: int


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Everything needed to take a seat back."""

    host: str
    port: int
    host_key: str
    """The host's public key, hex: a resume goes only to the same host."""
    table_id: int
    seat: int
    name: str
    players: int
    target: int
    variants: tuple[str, ...] = ()
    table_name: str = ""
    tokens: tuple[str, ...] = ()
    """Hex tokens, newest first (at most two: see the module docstring)."""
    epoch: int = 0
    last_seq: int = 0
    mid_match: bool = False
    """The seat was taken in a match already under way."""
    match_no: int = 1
    """Which match at the table the seat is kept for (one more at every rematch)."""
    match_seq: int = 0
    """The seq the seat's record starts after: the agreed ``rematch_status`` of a rematch, or
    the snapshot the seat was given when its person sat down (0 for a seat taken before
    anything happened). A client taking the seat back starts there and has the host replay
    from there only (an earlier match's events, or rounds another person played in this
    seat, replayed, would be taken for this person's: their seeds are not kept here)."""
    start: str = ""
    """For a seat first taken in a match under way: that snapshot, its wire payload in hex
    (the board as it stood at ``match_seq``); empty when the seat's match starts there."""
    seeds: dict[str, str] = field(default_factory=dict)
    """round id (hex) -> this seat's seed (hex) for that round."""
    seeds_out: str = ""
    """The last round of the match whose commitments (``seed_commits``) reached this seat, as
    far as it saw it then (hex of :func:`~scopa_net.fair.transcript.encode_round`; empty:
    none): a client taking the seat back holds the host to it, since once its commitments
    were out that round is never opened again with another shuffle (protocol.md 5.2)."""
    blind_dealt: tuple[int, str] | tuple[()] = ()
    """At a blind table, the last round of the match whose cards were dealt in this seat's
    sight: (its number, its round id in hex), or empty. A client taking the seat back holds the
    host to it: a round once dealt is never opened anew (protocol.md 9.10)."""
    pending: tuple[PendingMove, ...] = ()
    last_played: int = 0
    """The seq of the newest ``played`` event an ``ack`` named for a move of this seat's, of
    those the host still has (a ``stale`` resume lowers it to the host's newest event, 3.3): a
    client taking the seat back takes every play of the seat up to it as its person's (a
    later one it did not send, while no computer stood in, is a changed play: protocol.md
    3.5)."""
    acked: tuple[AckedPlay, ...] | None = None
    """Every play of the seat in its match (after ``match_seq``) that the host acknowledged
    and still has, oldest first (a ``stale`` resume drops those after the host's newest event,
    3.3): a client taking the seat back takes a play of the seat in the events replayed as
    its person's only if it is one of these (or a computer's for them, or the answer to a
    move still unanswered); any other is a changed play (protocol.md 3.5). None in a record
    kept before (and after a ``stale`` resume from a host that did not say its newest event):
    then every play up to ``last_played`` is taken as the person's."""
    names: tuple[str, ...] = ()
    seats: tuple[tuple[str, str | None, bool], ...] = ()
    """Who held each seat at ``match_seq`` (kind, name, connected), as the seat's snapshot or
    the table's events said then: a client taking the seat back starts from them, and the
    events replayed from there bring them up to date (empty in a record kept before)."""
    away: bool = False
    """The player stepped away on purpose (rather than the client stopping)."""
    rematch_yes: int = 0
    """The match after which this seat answered ``yes`` to playing again (0: none): a
    client taking the seat back holds the host to it, since an ``agreed`` vote this seat did
    not agree to starts a match it leaves (protocol.md 3.11)."""
    updated: float = 0.0

    @property
    def key(self) -> str:
        """The file name (without folder) of this seat's record."""
        host = "".join(ch if ch.isalnum() or ch in ".-" else "_" for ch in self.host)
        return f"{self.host_key[:16]}-{host}-{self.port}-table{self.table_id}-seat{self.seat}"

    @property
    def address(self) -> str:
        return shown_address(self.host, self.port)

    def with_token(self, token: bytes) -> SeatRecord:
        """The record after the host issued ``token``: newest first, the one before kept."""
        new = token.hex()
        older = tuple(t for t in self.tokens if t != new)
        return replace(self, tokens=(new, *older)[:MAX_TOKENS])

    def to_json(self) -> str:
        data = asdict(self)
        data["pending"] = [asdict(p) for p in self.pending]
        if self.acked is not None:
            data["acked"] = [asdict(p) for p in self.acked]
        return json.dumps(data, indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SeatRecord:
        data = json.loads(text)
        data["variants"] = tuple(data.get("variants", ()))
        data["tokens"] = tuple(data.get("tokens", ()))
        data["names"] = tuple(data.get("names", ()))
        data["seats"] = tuple(tuple(seat) for seat in data.get("seats", ()))
        data["pending"] = tuple(PendingMove(**p) for p in data.get("pending", ()))
        if data.get("acked") is not None:  # (left out, or null: a record kept before)
            data["acked"] = tuple(AckedPlay(**p) for p in data["acked"])
        data["blind_dealt"] = tuple(data.get("blind_dealt", ()))
        return cls(**data)


class SeatStore:
    """The seat records in one data directory, and the locks of the seats this process plays."""

    def __init__(self, data_dir: Path) -> None:
        self.folder = data_dir / SEATS_DIR
        self._locks = FileLocks(self.folder)
        """The locks of the seats this store holds, by the seat's key."""

    def path(self, record: SeatRecord) -> Path:
        return self.folder / f"{record.key}.json"

    def hold(self, record: SeatRecord) -> bool:
        """Hold the seat's lock until :meth:`release` (or this process ends); False when
        another client holds it (see :mod:`~scopa_net.client.file_lock`)."""
        return self._locks.hold(record.key)

    def release(self, record: SeatRecord) -> None:
        """Let go of the seat's lock, if this store holds it."""
        self._locks.release(record.key)

    def in_use(self, record: SeatRecord) -> bool:
        """Whether another client (not this store) holds the seat's lock now."""
        return self._locks.held_elsewhere(record.key)

    def _make_folder(self) -> None:
        make_private_folder(self.folder)
        with contextlib.suppress(OSError):
            os.chmod(self.folder, 0o700)

    def save(self, record: SeatRecord) -> SeatRecord:
        """Write ``record`` atomically and durably; returns it as written."""
        record = replace(record, updated=time.time())
        self._make_folder()
        replace_file(self.path(record), record.to_json().encode("utf-8"), mode=0o600, durable=True)
        return record

    def delete(self, record: SeatRecord) -> None:
        """Forget the seat: its record, and its lock file unless another client holds it."""
        with contextlib.suppress(OSError):  # gone already, or never saved (a folder in the way)
            self.path(record).unlink()
            sync_folder(self.folder)
        self._locks.forget(record.key)

    def records(self) -> list[SeatRecord]:
        """Every seat kept, newest first (unreadable files are skipped)."""
        found = []
        if not self.folder.is_dir():
            return []
        for path in self.folder.glob("*.json"):
            try:
                found.append(SeatRecord.from_json(path.read_text(encoding="utf-8")))
            except (OSError, ValueError, TypeError, KeyError):
                continue
        return sorted(found, key=lambda r: r.updated, reverse=True)

    def for_address(self, host: str, port: int) -> list[SeatRecord]:
        return [r for r in self.records() if (r.host, r.port) == (host, port)]


def starting_snapshot(record: SeatRecord) -> m.Snapshot:
    """Where a client taking a seat back from disk starts, and has the host replay every
    event since: the seat's view before anything happened in its match (seq 0 for the
    table's first match, the agreed rematch's seq for a later one), or, for a seat taken in
    a match under way, the snapshot it was given then."""
    if record.start:
        with contextlib.suppress(ValueError, ProtocolError):
            snapshot = decode(bytes.fromhex(record.start))
            if isinstance(snapshot, m.Snapshot) and snapshot.seq == record.match_seq:
                return snapshot
    rules = RuleSet.of(record.players, record.target, record.variants)
    seats = tuple(m.SeatInfo(kind=k, name=n, connected=c) for k, n, c in record.seats)
    return opening_snapshot(
        rules, seat=record.seat, seq=record.match_seq, table_id=record.table_id, seats=seats
    )


def seats_kept(
    seats: tuple[m.SeatInfo, ...] | list[m.SeatInfo],
) -> tuple[tuple[str, str | None, bool], ...]:
    """``seats`` as a :class:`SeatRecord` keeps them."""
    return tuple((s.kind, s.name, s.connected) for s in seats)
