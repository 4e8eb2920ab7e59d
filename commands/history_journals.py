"""Which journals ``scopa-net history`` reads: the one --db names, else those of ``scopa-net
host`` and of ``play --lan`` in the data directory, each with the heading that names it; and,
to export a table, the one journal that holds it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from scopa_net.commands.journal_files import open_journal
from scopa_net.commands.options import CommandError
from scopa_net.commands.paths import default_host_db, lan_host_db

if TYPE_CHECKING:
    from scopa_net.server.journal import Journal


def default_journals() -> list[tuple[str, str]]:
    """The journals ``history`` reads without --db, each with the heading naming it: the
    host's alone (no heading) unless ``play --lan`` keeps one too."""
    host, lan = default_host_db(os.environ), lan_host_db(os.environ)
    if not lan.exists():
        return [("", str(host))]
    mine = [("scopa-net host", str(host))] if host.exists() else []
    return [*mine, ("play --lan", str(lan))]


def no_history_yet() -> str | None:
    """The one line when this machine keeps no journal in the data directory (no host ran
    here, nor `play --lan`): there is nothing to list yet, which is no mistake; None when
    there is one."""
    host, lan = default_host_db(os.environ), lan_host_db(os.environ)
    if host.exists() or lan.exists():
        return None
    from scopa_net.client.files import shown_path

    return (
        f"no match history on this machine yet (no journal at {shown_path(host)}): a host "
        "keeps one, `scopa-net host` or `scopa-net play --lan` run here; a game of `play` "
        "without --lan keeps only its transcripts (`scopa-net verify` reads them)"
    )


def journal_with_table(journals: list[tuple[str, str]], table: int) -> Journal:
    """The one journal of ``journals`` holding ``table`` (to export); CommandError if none
    does, or more than one (then --db must say which)."""
    opened: list[tuple[str, str, Journal]] = []
    try:
        for heading, path in journals:
            opened.append((heading, path, open_journal(path, create=False)))
        holding = [
            (heading, path, journal)
            for heading, path, journal in opened
            if any(r.table_id == str(table) for r in journal.tables())
        ]
    except BaseException:  # the second journal refused: the first is closed too
        for _, _, journal in opened:
            journal.close()
        raise
    for _, _, journal in opened:
        if len(holding) != 1 or journal is not holding[0][2]:
            journal.close()
    if len(holding) == 1:
        return holding[0][2]
    if not holding and len(opened) == 1:
        raise CommandError(f"no table {table} in this journal")
    which = " or ".join(f"--db {path} ({heading})" for heading, path, _ in holding or opened)
    if not holding:
        raise CommandError(f"no table {table} in either journal ({which})")
    raise CommandError(f"table {table} is in both journals: give {which}")


def chosen_journals(db: str | None) -> list[tuple[str, str]]:
    """The journals to read, each with its heading: the one ``--db`` names (no heading), else
    :func:`default_journals`."""
    return [("", db)] if db is not None else default_journals()
