"""``scopa-net tally``: keep the score of a game played with real cards."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime

from scopa_net.commands.options import (
    DEFAULT_TARGET,
    EXIT_LOCAL,
    TARGET_CHOICES,
    add_command,
    said_default,
    say,
)
from scopa_net.commands.paths import data_dir
from scopa_net.errors import RuleSetError
from scopa_net.rules import Variant
from scopa_net.tally import EXPORT_FORMATS, SCORING_VARIANTS, Tally, TallyError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``tally`` subcommand."""
    options = ", ".join(v.value for v in SCORING_VARIANTS)
    p = add_command(
        subparsers,
        "tally",
        help="keep the score of a game played with real cards",
        description="A score keeper for Scopa played with a real pack: quick points, typed "
        "totals, or a hand counted line by line (cards, coins, settebello, primiera, sweeps) "
        "and scored by the game's own rules. Saved after every entry.",
    )
    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="the players in seating order (2, 3, 4 or 6); asked for when left out",
    )
    p.add_argument(
        "--target",
        type=int,
        default=None,
        metavar="POINTS",
        help=f"points to win, {TARGET_CHOICES} {said_default(DEFAULT_TARGET)}",
    )
    p.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help=f"a scoring option (repeat for more): {options}",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="ID",
        help="carry on a saved tally (default: the latest unfinished one)",
    )
    which.add_argument("--list", action="store_true", help="list the saved tallies")
    which.add_argument("--export", metavar="ID", help="print a saved tally (see --format)")
    p.add_argument(
        "--format", choices=EXPORT_FORMATS, default=None, help="for --export (default: markdown)"
    )
    p.add_argument("--no-color", action="store_true", help="no colour (also NO_COLOR, TERM=dumb)")
    p.add_argument(
        "--suits",
        choices=["english", "italian", "french"],
        default=None,
        help=f"card letters {said_default('english')}",
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="for screen readers: one fact per line, no toolbar, nothing redrawn",
    )
    p.set_defaults(run=run)


def _fail(text: str) -> int:
    say(text)
    return 2


def run(args: argparse.Namespace) -> int:
    # The screen's modules (prompt-toolkit) load only when a tally runs, not for --help.
    from scopa_net.client.config import ConfigError, load_settings
    from scopa_net.client.style import Display
    from scopa_net.client.tally_app import run_tally
    from scopa_net.client.tally_controller import TallyController
    from scopa_net.client.tally_store import TallyStore, export, summary

    if problem := _flags_that_do_nothing(args):
        return _fail(problem)
    store = TallyStore(data_dir(os.environ))
    if args.list:
        entries = store.saved()
        if not entries:
            print(f"No saved tallies (they are kept in {store.folder}).")
        for entry in entries:  # oldest first, each by the number it keeps
            if entry.tally is None:
                print(f"     {entry.path.stem}: unreadable ({entry.problem})")
            else:
                started = entry.tally.started or "?"
                print(f"{entry.number:>3}. {entry.path.stem}  {started}  {summary(entry.tally)}")
        return 0
    try:
        if args.export is not None:
            sys.stdout.write(export(store.load(args.export), args.format or "markdown"))
            return 0
        settings = load_settings(
            os.environ, color=False if args.no_color else None, suits=args.suits
        )
        tally: Tally | None = None
        unsaved: OSError | None = None
        if args.resume is not None:
            if args.names or args.target is not None or args.variant:
                return _fail("--resume carries on a saved tally: give no names, target or options")
            tally = store.load(args.resume) if args.resume else store.latest_unfinished()
            if tally is None and not store.saved():
                return _fail(
                    "no tally to resume: none is saved on this machine; start one with the "
                    "players' names, such as `scopa-net tally Ada Bruno`"
                )
            if tally is None:
                return _fail("no unfinished tally to resume; `scopa-net tally --list` shows all")
            if not store.hold(tally.id):
                say(
                    f"tally {tally.id} is open in another scopa-net tally on this machine: "
                    "carry on there, or close it and run this again"
                )
                return EXIT_LOCAL  # in use by another, as a database held by another host
        elif args.names:
            _check_scoring_only(args.variant or ())
            now = datetime.now()
            tally = Tally.new(
                args.names,
                target=11 if args.target is None else args.target,
                variants=args.variant or (),
                started=f"{now:%Y-%m-%d %H:%M}",
                id=store.new_id(tuple(args.names), now),
                number=store.next_number(),
            )
            try:
                store.save(tally)
                store.hold(tally.id)
            except OSError as exc:
                unsaved = exc  # the score keeper says so, and scores all the same
        else:
            _check_scoring_only(args.variant or ())
            if args.target is not None and not 1 <= args.target <= 99:
                return _fail(f"target {args.target} is out of range; choose 1 to 99")
    except (TallyError, ConfigError, RuleSetError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        say(f"cannot save in {store.folder}: {exc.strerror}")
        return EXIT_LOCAL  # this machine cannot (README's exit statuses), not a bad flag
    display = settings.display(os.environ)
    if args.plain:
        display = Display(color=False, glyphs=False, suits=display.suits)
    controller = TallyController(
        tally,
        store=store,
        display=display,
        target=args.target if tally is None else None,
        variants=args.variant if tally is None else None,
        plain=args.plain,
    )
    controller.unsaved = unsaved
    if args.names:
        controller.begun_here = tally  # left as it began, its file is not kept
    try:
        return run_tally(controller, display, plain=args.plain)
    finally:
        store.close()


def _flags_that_do_nothing(args: argparse.Namespace) -> str | None:
    """What is wrong with flags that a --list or an --export (or a new tally) would ignore."""
    if args.format is not None and args.export is None:
        return "--format is for --export ID (the saved tally to print)"
    if args.list or args.export is not None:
        flag = "--list" if args.list else "--export"
        what = "lists the saved tallies" if args.list else "prints a saved tally"
        if args.names or args.target is not None or args.variant:
            return f"{flag} {what}: give no names, target or options"
    return None


def _check_scoring_only(names: list[str] | tuple[str, ...]) -> None:
    """Refuse a name that is no variant at all (as ``play`` does), then one that changes
    only how the game is played."""
    for name in names:
        Variant.parse(name)  # "unknown variant 'nope'; known variants: ..."
    allowed = {v.value for v in SCORING_VARIANTS}
    extra = sorted(n for n in names if n not in allowed)
    if extra:
        raise TallyError(
            f"{', '.join(extra)} changes how the game is played, not how it is scored; "
            f"scoring options: {', '.join(v.value for v in SCORING_VARIANTS)}"
        )
