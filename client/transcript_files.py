"""A seat's transcripts on disk: each match's written again after every round it checked, with
the seats' names beside it for ``scopa-net verify``, under the data directory's
``transcripts`` folder, and what the end of a match says about them."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from scopa_net.client.files import make_private_folder, names_beside, replace_file
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.errors import FairnessError
from scopa_net.seat_holders import SeatHolders

CHECK_IT = "Check it any time with:"
"""Said after where a transcript was saved; the `scopa-net verify` line follows, alone."""
VERIFY = "  scopa-net verify "
"""How the line with the command that checks a saved transcript begins (its path follows)."""
NO_TRANSCRIPT = (
    "No transcript was saved for this match: you did not see it from its first round, and "
    "the host never sent how the match stood when you came in (a transcript starts from one "
    "or the other). The host can write this seat's transcript from its journal, on the host's "
    "machine, with:"
)
"""Said at the end of a match this seat came into mid-way without a snapshot's word on the
match before; the command follows on a line of its own."""


class TranscriptFiles:
    """Where a session's transcripts go and what was saved last (see the module docstring).
    What cannot be written is told once, by the session (``_not_saved``)."""

    def __init__(self, session: Any) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session
        self._transcript_paths: dict[tuple[int | None, int | None, int, str], Path] = {}
        """The file of each match's transcript (table, seat, match, suffix), once chosen."""
        self.saved: tuple[int, Path] | None = None
        """The match (its number) whose transcript was saved last, and the file."""

    def save_file(self, data: bytes, suffix: str = "") -> Path | None:
        """Write a transcript where the player keeps them; the path, or None if nowhere."""
        session = self.session
        if session.on_transcript is not None:
            session.on_transcript(data)
        if session.data_dir is None or session.host_key is None:
            return None
        folder = self.folder()
        make_private_folder(folder)  # a match's cards and seeds are the player's
        key = (session.table_id, session._seat, session.match_no, suffix)
        path = self._transcript_paths.get(key)
        if path is None:
            path = self._transcript_paths[key] = session._transcript_path(folder, data, suffix)
        # Rewritten each round: never the earlier rounds cut short.
        replace_file(path, data, mode=0o600)
        # Transcripts know seats only (protocol.md 6.1): the names beside, for `verify`.
        names = names_beside(path)
        try:
            make_private_folder(names.parent)
            held = session._seating.holders or SeatHolders(len(session._seating.names))
            replace_file(names, held.names_file(session._seating.names).encode(), mode=0o600)
        except OSError as exc:
            session._not_saved(
                "Could not save the seats' names beside the transcript",
                exc,
                names,
                "`scopa-net verify` will show the seats without names.",
            )
        return path

    def folder(self) -> Path:
        """Where this seat's transcripts are saved."""
        return (self.session.data_dir or Path()) / "transcripts"

    def save_transcript(self, *, abandoned: bool = False) -> Path | None:
        """Write the match's transcript so far; the file written, if one was. ``abandoned``:
        the match was closed under way, and the round in play goes in too once its seeds were
        out (DealWitness.transcript_with_abandoned)."""
        session = self.session
        assert session.witness is not None
        if not session.witness.keeps_transcript:
            return None  # neither from the match's first round nor from a snapshot's word
        w = session.witness
        kept = w.transcript_with_abandoned() if abandoned else w.transcript()
        try:
            saved = self.save_file(kept.encode())
            self.saved = (session.match_no, saved)
            return saved
        except OSError as exc:
            session._not_saved(
                "Could not save the transcript",
                exc,
                self.folder(),
                f"The game goes on, but `scopa-net verify` will not have round "
                f"{session.witness.round_no} (nor later rounds while saving fails).",
            )
            return None

    def no_transcript_lines(self) -> tuple[str, str]:
        """What the end of a match this seat did not see from its start says: why no transcript
        was saved, and the command that has the host write one from its journal."""
        session = self.session
        export = f"scopa-net history --export {session.table_id} --seat {session._seat}"
        return NO_TRANSCRIPT, f"  {export} --match {session.match_no}"


def transcript_path(
    folder: Path,
    data: bytes,
    suffix: str,
    *,
    host_key: bytes,
    table_id: int | None,
    seat: int | None,
    match_no: int,
) -> Path:
    """Where this match's transcript goes: named by host, table, seat and match, and not
    over another match's file. A host that starts again on a new journal with the same
    key numbers its tables from 1 again; its matches are told apart by their first round
    id, and a later one is saved beside the earlier (``-2``, ``-3``...)."""
    fp = fingerprint(host_key).replace("-", "")[:12]
    match = "" if match_no == 1 else f"-match{match_no}"
    stem = f"{fp}-table{table_id}-seat{seat}{match}"
    first = first_round_id(data)
    for n in itertools.count(1):
        path = folder / f"{stem}{'' if n == 1 else f'-{n}'}{suffix}.scopa"
        if not path.exists() or (first is not None and first_round_id(path) == first):
            return path
    raise AssertionError("unreachable")


def first_round_id(source: bytes | Path) -> bytes | None:
    """The round id of a transcript's first round (what tells one match from another), or
    None for a file that cannot be read as a transcript or holds no round."""
    try:
        data = source.read_bytes() if isinstance(source, Path) else source
        rounds = decode_any(data).rounds
    except (OSError, FairnessError):
        return None
    return rounds[0].round_id if rounds else None
