"""A journal's tables rebuilt as a host's restart rebuilds them, for what ``scopa-net
history`` says of them and exports from them: each match's transcripts and who held its
seats, where a computer played for someone, and the key of the host that kept the journal
(found beside it, never made here), which signs what is exported."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from scopa_net.commands.options import EXIT_LOCAL, CommandError
from scopa_net.rules import RuleSet

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from scopa_net.fair.transcript import Transcript
    from scopa_net.seat_holders import SeatHolders
    from scopa_net.server.journal import Journal, TableRecord
    from scopa_net.server.table import Table


def replayed(
    journal: Journal, record: TableRecord, seat: int | None
) -> tuple[list[Transcript], list[SeatHolders]]:
    """Each match of a table, rebuilt from its journal as a restart does: ``seat``'s
    transcript of it (none without a seat) and who held its seats, round by round."""
    every, held = replayed_seats(journal, record, [] if seat is None else [seat])
    return [seats[0] for seats in every if seats], held


def replayed_seats(
    journal: Journal, record: TableRecord, seats: Sequence[int]
) -> tuple[list[list[Transcript]], list[SeatHolders]]:
    """:func:`replayed` for several seats at once (one replay of the table): each match's
    transcripts of ``seats``, in that order, and who held its seats."""

    table = _new_table(journal, record)
    matches: list[list[Transcript]] = []  # each match over when the table played again
    held: list[SeatHolders] = []  # who held its seats, round by round

    def keep_match() -> None:
        if seats:
            matches.append([table.transcript_for(seat) for seat in seats])
        held.append(table.holders)

    table.before_rematch = keep_match
    table.replay((e.kind, e.payload) for e in journal.entries(record.table_id))
    keep_match()
    return matches, held


def _new_table(journal: Journal, record: TableRecord) -> Table:
    """The table ``record`` opened, before any of its journal's entries."""
    from scopa_net.server.blind_table import BlindTable
    from scopa_net.server.table import Table

    settings = record.settings
    rules = table_rules(record)
    kind = BlindTable if settings.get("blind") else Table
    return kind(
        int(record.table_id), settings["name"], rules, journal_key(journal), bots=settings["bots"]
    )


REPLAYED_SETTINGS = ("name", "players", "target", "variants", "bots")
"""What a table's settings in the journal must hold for it to be replayed."""


def table_rules(record: TableRecord) -> RuleSet:
    """The rules ``record``'s table was opened with. OlderJournalError (an export says it in
    one line) if its settings lack one of :data:`REPLAYED_SETTINGS`: a journal an older
    scopa-net kept, or one edited by hand."""
    settings = record.settings
    missing = [key for key in REPLAYED_SETTINGS if key not in settings]
    if missing:
        from scopa_net.server.table import OlderJournalError

        said = f"{', '.join(missing[:-1])} and {missing[-1]}" if len(missing) > 1 else missing[0]
        raise OlderJournalError(
            f"table {record.table_id}: its settings in the journal lack {said} (an older or "
            "hand-edited journal)"
        )
    return RuleSet.of(settings["players"], settings["target"], settings["variants"])


def replayed_table(journal: Journal, record: TableRecord) -> Table:
    """The table ``record`` as its journal leaves it (as a restart rebuilds it)."""
    table = _new_table(journal, record)
    table.replay((e.kind, e.payload) for e in journal.entries(record.table_id))
    return table


def with_computer_rounds(journal: Journal, record: TableRecord) -> TableRecord:
    """``record`` with, in each match's summary, the rounds a computer played for each seat's
    person (``computer``): the host keeps them there, and for a match a journal kept before
    it did, they are found by replaying the table (only where a person went away)."""
    summary = record.summary
    if not isinstance(summary, dict) or not isinstance(record.settings, dict):
        return record
    matches = [dict(m) for m in [*summary.get("earlier", []), summary] if isinstance(m, dict)]
    if all("computer" in m for m in matches) or not journal.has_entry(record.table_id, "status"):
        return record
    try:
        _, held = replayed(journal, record, None)
    except Exception:  # a note only: a table that cannot be replayed is listed all the same
        return record
    for match, holders in zip(matches, held, strict=False):
        if "computer" not in match:
            match["computer"] = holders.computer_rounds()
            match["computer_for"] = holders.computer_people()
    *earlier, last = matches
    return dataclasses.replace(record, summary={**last, "earlier": earlier} if earlier else last)


def journal_key(journal: Journal) -> Ed25519PrivateKey:
    """The key of the host that kept ``journal``, which signs what is exported from it: from
    its file beside the journal, never made here (a key made here would sign under a key no
    player pinned). CommandError (one line) if there is none, or it cannot be read."""
    from scopa_net.server.host import host_key_path, read_host_key

    path = host_key_path(journal.path)
    try:
        key = read_host_key(journal)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise CommandError(f"cannot read the host key {path}: {why}", EXIT_LOCAL) from None
    if key is None:
        raise CommandError(
            f"no host key beside the journal {journal.path} (it would be {path}): what history "
            "exports is signed with the key of the host that kept this journal; copy that "
            "host's key file (host.key, beside its journal) to "
            f"{path}, then try again",
            EXIT_LOCAL,
        )
    return key


def host_fingerprint(journal: Journal) -> str:
    """The key of the host whose journal it is, as it shows it: this machine runs that host,
    so its key is the one to pin (verify trusts by itself only the keys of hosts joined, and
    of those `play` ran)."""
    from scopa_net.fair.commitments import fingerprint, public_key_bytes

    return fingerprint(public_key_bytes(journal_key(journal)))
