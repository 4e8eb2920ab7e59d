"""``scopa-net verify [--pin FINGERPRINT] FILE [FILE...]``: check saved transcripts offline.

One verdict line per round, then the match result; exit status 0 only when every file verifies
completely (an unfinished match, with no signed end, does not). A failure leads with what it
means to a player (:mod:`scopa_net.fair.plain_words`), then the verdict itself as evidence; a
file that cannot be read says why in the same words (empty, cut short, not a transcript).

The host key must be one the player trusts: a ``--pin`` given, or else one this client pinned
when it played (its ``known_hosts``, and ``replaced_hosts``: keys pinned until ``join
--accept-new-key`` replaced them), a host ``play`` ran in it (``own_hosts``) or a host whose
default journal is on this machine (its ``host.key``, and ``play --lan``'s), so a file
re-signed whole under another key is refused, not just shown. With no key to compare with at all
(no ``--pin``, nothing pinned), the fingerprint is only shown, for the player to compare with
the host's. Each file's time is said (the file's own: a transcript records none), and files
are checked in the order their matches were played (:mod:`.verify_order`). With several files,
a summary follows: every file given and what became of it
(verified, unfinished, failed, refused, unreadable, missing, given twice), rounds verified and
failed, rounds not fair-checked, seeds left out by reason and by seat (named by whoever held it in
that round), and for each person (by the names saved beside the files; a seat's number where
there are none) how often they were dealt the settebello, sevens and coins against what fair
deals give. The same transcript given twice counts once. A folder given stands for its
transcripts.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from scopa_net.commands.options import CommandError, add_command, plural
from scopa_net.commands.paths import data_dir, default_host_db, lan_host_db
from scopa_net.commands.progress import Progress
from scopa_net.commands.verify_files import EXIT_FAILED, StoppedError, verify_files
from scopa_net.commands.verify_keys import (
    PINNED_BY_HAND,
    normal_fingerprint,
    own_machine_keys,
    pinned_keys,
)
from scopa_net.commands.verify_order import given_files


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers,
        "verify",
        help="check saved match transcripts: every deal, card, play and score",
        description="Re-derive every deal of saved transcripts from the revealed seeds, check "
        "every card, replay every play and check every score. A file whose host key is not "
        "pinned (by --pin, or by this client's known_hosts; the hosts `play` ran, and a host "
        "whose default journal is on this machine, are trusted too) is refused. With nothing "
        "pinned at all, the key's fingerprint is only shown, to "
        "compare with the one the host shows.",
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        type=Path,
        help="transcript files, or folders: each folder's transcripts (its .scopa files)",
    )
    parser.add_argument(
        "--pin",
        action="append",
        default=None,
        metavar="FINGERPRINT",
        help="the host key fingerprint to accept (as the host shows it, e.g. "
        "0510-a4a7-ee55-e70c-497d); may be given more than once. Without it, the keys this "
        "client pinned when it played, those of the hosts `play` ran, and this machine's "
        "host's (its key beside the default journal), are used",
    )
    parser.add_argument(
        "--since",
        type=since_value,
        default=None,
        metavar="WHEN",
        help="only the files saved at or after WHEN (the file's time: a transcript records "
        "none): a date YYYY-MM-DD or 'YYYY-MM-DD HH:MM' (local time), as history takes it",
    )
    parser.add_argument(
        "--brief",
        action="store_true",
        help="one line for each file (what became of it, and who won), then the summary",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def since_value(text: str) -> float:
    """``--since``'s value, as ``history`` reads it, but for ``start`` (the host's last start:
    a file does not know it); a usage error said in one line."""
    from scopa_net.commands.history_filter import SINCE_START, parse_since

    try:
        since = parse_since(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).split(", or ")[0]) from None
    if since == SINCE_START:
        raise argparse.ArgumentTypeError(
            "start is for history (since the host last started); verify goes by the files' "
            "times: give a date, YYYY-MM-DD or 'YYYY-MM-DD HH:MM' (local time)"
        )
    return float(since)


def run(args: argparse.Namespace) -> int:
    for given in args.pin or ():
        pin = normal_fingerprint(given)
        if len(pin) != 20 or any(c not in "0123456789abcdef" for c in pin):
            raise CommandError(
                f"--pin {given!r} is not a host key fingerprint: 20 hex digits, as the host "
                "shows it (such as 0510-a4a7-ee55-e70c-497d)"
            )
    pins = {normal_fingerprint(p): PINNED_BY_HAND for p in args.pin or ()}
    if not pins:
        here = data_dir(os.environ)
        own = own_machine_keys(
            [
                default_host_db(os.environ).with_suffix(".key"),
                lan_host_db(os.environ).with_suffix(".key"),
            ]
        )
        pins = (
            pinned_keys(here / "replaced_hosts")  # pinned once, until --accept-new-key
            | pinned_keys(here / "own_hosts")
            | pinned_keys(here / "known_hosts")
            | own
        )
    me = _my_name()
    named, args.files = args.files, given_files(args.files)
    if args.since is not None:
        from scopa_net.commands.verify_brief import nothing_since, saved_since, since_words

        args.files, left = saved_since(args.files, args.since)
        when = since_words(args.since)
        if not args.files:  # nothing checked is no success, as for a folder with none
            folders = [p for p in named if p.is_dir()]  # "all 4 files given": he gave one folder
            where = "given" if not folders else "found"
            if len(named) == 1 and folders:
                where = f"in {named[0]}"
            print(nothing_since(when, len(left), where))
            return EXIT_FAILED
        if left:
            print(f"left out: {plural(len(left), 'file')} saved before {when} (--since)")
    brief = args.brief
    from scopa_net.client.sigterm import stop_signals_raise

    try:
        # SIGTERM, and SIGHUP (its terminal closed), say what was checked, as Ctrl-C does.
        with stop_signals_raise():
            if len(args.files) == 1:
                return verify_files(args.files, print, pins=pins, me=me, brief=brief)
            with Progress("verify", len(args.files), "files", quiet=args.quiet) as progress:

                def out(line: str) -> None:
                    progress.clear()
                    print(line, flush=progress.terminal)

                return verify_files(
                    args.files, out, progress.advance, pins=pins, me=me, brief=brief
                )
    except StoppedError as exc:
        if exc.by_ctrl_c:
            print(file=sys.stderr)  # after the terminal's ^C
        raise


def _my_name() -> str:
    """The name this person plays under (config, SCOPA_NET_NAME, login name); "" if their
    settings cannot be read (verify then calls no seat "you")."""
    from scopa_net.client.config import ConfigError, load_settings

    try:
        return load_settings(os.environ).name
    except ConfigError:
        return ""
