"""``scopa-net history``: the matches in a host's journal, narrowed by table, name or time
(:mod:`.history_list`), and one seat's transcript exported for ``scopa-net verify``
(:mod:`.history_export_seat`), or every seat's of every match the list keeps
(:mod:`.history_export_every`). This module holds the command's options and what they may be
given together."""

from __future__ import annotations

import argparse

from scopa_net.commands.history_export_every import export_every_match
from scopa_net.commands.history_export_seat import export_seat
from scopa_net.commands.history_filter import MatchFilter, parse_since
from scopa_net.commands.history_journals import (
    chosen_journals,
    journal_with_table,
    no_history_yet,
)
from scopa_net.commands.history_list import listing
from scopa_net.commands.options import (
    CommandError,
    add_command,
    at_least,
    file_name,
    file_path,
    said_default,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    h = add_command(
        subparsers,
        "history",
        help="matches on this host, over and in play; export their transcripts",
        description="List the matches in a host's journal (each table's number and name, the "
        "match's number at a table that played more than one, when it started and ended or "
        "that it is in play, and the score), or export one seat's transcript for "
        "`scopa-net verify` (--export with no table: every seat's of every match the list "
        "keeps, into a folder). --table, --name and --since narrow the list (`history --name "
        "Ada --since start`: Ada's matches tonight, then her record: 'Ada: 3 matches, won "
        "2'); a list they leave empty says so in one line.",
    )
    h.add_argument(
        "--db",
        type=file_name,
        default=None,
        help="journal database (default: those of `host` and `play --lan`, in the data directory)",
    )
    listing = h.add_argument_group("narrowing the list (combined: a match must pass each)")
    listing.add_argument(
        "--table", type=at_least(1), default=None, help="only that table's matches"
    )
    listing.add_argument(
        "--name",
        default=None,
        help="only the matches where someone of that name held a seat (case and accents "
        "aside: nicolo finds Nicolò), then that person's record over them",
    )
    listing.add_argument(
        "--since",
        type=since_value,
        default=None,
        metavar="WHEN",
        help="only the matches that began at or after WHEN: a date YYYY-MM-DD or "
        "'YYYY-MM-DD HH:MM' (local time), or start (since the host last started: tonight, "
        "with a match it resumed as it started)",
    )
    h.add_argument(
        "--export",
        type=at_least(1),
        nargs="?",
        const=EVERY_MATCH,
        metavar="TABLE",
        help="table to export; without TABLE, every seat of every match over that --table, "
        "--name and --since keep, into the folder --out names (default: this one)",
    )
    h.add_argument(
        "--seat",
        default=None,
        metavar="SEAT",
        help="with --export: whose transcript, a seat number or the name of someone who "
        f"held it in that match {said_default(0)}",
    )
    h.add_argument(
        "--match",
        type=int,
        metavar="N",
        help="which match of a table that played again (default: the last with a round played)",
    )
    h.add_argument(
        "--out",
        type=file_path,
        help="file to write (default: tableT-seatS.scopa, for table T and seat S; "
        "tableT-matchM-seatS.scopa for match M at a table that played again); with --export "
        "and no TABLE, the folder to write into, each file tableT-matchM-seatS-NAME.scopa",
    )
    h.set_defaults(run=run_history)


EVERY_MATCH = -1
"""``--export`` given no table: every match the filters keep."""


def since_value(text: str) -> float | str:
    """``--since``'s value (:func:`parse_since`), a usage error said in one line."""
    try:
        return parse_since(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_history(args: argparse.Namespace) -> int:
    """List the matches, or export what --export asks for, once the flags given agree."""
    lone = [f"--{flag}" for flag in ("seat", "match", "out") if getattr(args, flag) is not None]
    if lone and args.export is None:
        raise CommandError(
            f"{' and '.join(lone)} {'is' if len(lone) == 1 else 'are'} for --export TABLE (the "
            "transcript to write); without --export, history lists the matches"
        )
    wanted = MatchFilter(args.table, args.name, args.since)
    lone = [f"--{flag}" for flag in ("seat", "match") if getattr(args, flag) is not None]
    if args.export == EVERY_MATCH and lone:
        raise CommandError(
            f"{' and '.join(lone)} {'chooses' if len(lone) == 1 else 'choose'} in one "
            "table's export (--export TABLE); --export without a table writes every seat "
            "of every match the filters keep"
        )
    if wanted.given() and args.export not in (None, EVERY_MATCH):
        given = [f"--{f}" for f in ("table", "name", "since") if getattr(args, f) is not None]
        raise CommandError(
            f"{' and '.join(given)} {'narrows' if len(given) == 1 else 'narrow'} the list; "
            "--export TABLE writes one transcript (its --seat takes a name): give one or the "
            "other, or --export with no table to write every match they keep"
        )
    nothing = no_history_yet() if args.db is None else None
    if nothing is not None and args.export in (None, EVERY_MATCH):
        print(nothing)  # nothing to show, as a list the filters leave empty: done (0)
        return 0
    if nothing is not None:  # --export TABLE: no such table, as in an empty journal
        raise CommandError(f"no table {args.export}: {nothing}")
    if args.export == EVERY_MATCH:
        from scopa_net.client.sigterm import stop_signals_raise

        # SIGTERM, and SIGHUP (its terminal closed), say what was written, as Ctrl-C does.
        with stop_signals_raise():
            return export_every_match(args.db, args.out, wanted)
    journals = chosen_journals(args.db)
    if args.export is not None:
        journal = journal_with_table(journals, args.export)
        try:
            seat = "0" if args.seat is None else args.seat
            return export_seat(journal, args.export, seat, args.match, args.out)
        finally:
            journal.close()
    print("\n".join(listing(journals, wanted)))
    return 0
