"""``scopa-net play``: a match in this terminal, for now against computer players in-process."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from scopa_net.commands.options import (
    EXIT_CANCELLED,
    EXIT_REFUSED,
    EXIT_USAGE,
    CommandError,
    add_blind_option,
    add_bot_options,
    add_command,
    add_display_options,
    add_old_spelling,
    add_password_option,
    add_rule_options,
    blind_table,
    bot_delay_seconds,
    expert_think,
    password_setting,
    player_for,
    port_number,
    seconds,
    table_rules,
    variants_epilog,
)
from scopa_net.commands.paths import data_dir
from scopa_net.rules import PLAYER_COUNTS, RuleSet
from scopa_net.server.config import DEFAULT_PORT

#: The longest --handover-pause.
MAX_HANDOVER_PAUSE = 10.0

EXAMPLE_NAMES = ("Ada", "Bruno", "Carla", "Dino", "Eva", "Fabio")
"""Names for examples in messages (as many as a table has seats)."""

if TYPE_CHECKING:
    from scopa_net.client.config import Settings
    from scopa_net.client.session import Session


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``play`` subcommand."""
    p = add_command(
        subparsers,
        "play",
        help="play a match in this terminal against computer players",
        description="Play Scopa in this terminal: a host starts inside this process with "
        "computer players at the table, and every deal is checked as it arrives. With --lan "
        "friends can join the same table from their terminals.",
        epilog=variants_epilog(),
    )
    add_rule_options(p)
    add_bot_options(
        p,
        level_help="strength of the computer players",
        delay_help="seconds a computer player waits before each move",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="practice offline with repeatable deals (no host, no fair-deal flow)",
    )
    p.add_argument(
        "--lan",
        action="store_true",
        help="open the table to the LAN (announced) so friends can `scopa-net join` it",
    )
    p.add_argument(
        "--port",
        type=port_number,
        default=None,
        metavar="PORT",
        help=f"with --lan: the port (default: {DEFAULT_PORT}, or any free one if that is "
        "taken); a port you give is refused if it is in use",
    )
    add_password_option(p, "with --lan: needed to join your table")
    add_blind_option(p, when="with --lan: ")
    resume = p.add_mutually_exclusive_group()
    resume.add_argument(
        "--resume",
        action="store_true",
        help="with --lan: take back your seat at the table a closed `play --lan` left "
        "unfinished (the default when there is one)",
    )
    resume.add_argument(
        "--no-resume",
        action="store_true",
        help="with --lan: open a new table even if one was left unfinished (that match is "
        "closed: friends can no longer take their seats back)",
    )
    p.add_argument(
        "--humans",
        type=int,
        default=None,
        metavar="N",
        help="seats for people, you included (default: 1, or 2 with --pass-and-play); the "
        "rest are computers. With --lan friends join from their terminals; without it the "
        "people share this one (pass and play)",
    )
    p.add_argument(
        "--pass-and-play",
        action="store_true",
        help="several people at this terminal (--humans): each sees their hand only on "
        "their turn, and the screen is cleared between turns",
    )
    p.add_argument(
        "--names",
        default=None,
        metavar="A,B",
        help="for pass and play: the people's names, comma-separated",
    )
    p.add_argument(
        "--handover-pause",
        type=handover_seconds,
        default=None,
        metavar="SECONDS",
        help="for pass and play: an Enter this soon after the next person's turn is shown "
        "does not show their hand (the person before pressed it twice) (default: 1.5)",
    )
    p.add_argument(
        "--coach",
        action="store_true",
        help="warn before a play that leaves an easy sweep, gives away the settebello or "
        "passes up a seven, and ask first (also coach = true in client.toml)",
    )
    add_old_spelling(p, "--delay", "--bot-delay", "bot_delay", bot_delay_seconds)
    add_display_options(p)
    p.set_defaults(run=run)


def check_flags(args: argparse.Namespace) -> None:
    """Refuse combinations that cannot mean anything; CommandError says which."""
    if not args.lan:
        friends = "it is for friends joining your table"
        kept = "only a table opened with --lan is kept to come back to"
        for flag, value, why in (
            ("--port", args.port, friends),
            ("--password", args.password, friends),
            ("--resume", args.resume or None, kept),
            ("--no-resume", args.no_resume or None, kept),
        ):
            if value is not None:
                raise CommandError(f"{flag} needs --lan ({why})")
    if args.blind is not None and not args.lan:
        flag = "--blind" if args.blind else "--no-blind"
        raise CommandError(
            f"{flag} needs --lan: a game in this terminal is never blind (its host runs right "
            "here, so there is nobody to hide the cards from)"
        )
    args.think = expert_think(args.think, args.bot_level)
    if args.seed is not None and args.lan:
        raise CommandError("--seed practices offline: it cannot be used with --lan")
    sharing = args.pass_and_play or (not args.lan and (args.humans or 1) > 1)
    if args.names is not None and not sharing:
        raise CommandError(
            "--names names the people taking turns at this terminal (--pass-and-play); "
            "your own name is --name"
        )


def run(args: argparse.Namespace) -> int:
    """Start the match; the exit status."""
    check_flags(args)  # before loading the screen's libraries: a mistake is told at once
    if args.lan:  # the password of the table friends join (a game here has none)
        args.password = password_setting(args.password, os.environ)
    from scopa_net.client.config import ConfigError
    from scopa_net.client.launch import run_game_screen, settings_from
    from scopa_net.client.local_session import open_local_session

    try:
        settings = settings_from(args)
    except ConfigError as exc:
        print(f"scopa-net: {exc}", file=sys.stderr)
        return EXIT_USAGE
    rules = table_rules(args.players, args.target, args.variant)
    level = player_for(args.bot_level)

    humans = people(args, rules)
    coach = args.coach or settings.coach
    if args.pass_and_play or (humans > 1 and not args.lan):
        return run_pass_and_play(args, settings, rules, level, humans, coach=coach)

    if args.lan:
        return run_lan(args, settings, rules, level, humans, coach=coach)

    def open_session() -> AbstractAsyncContextManager[Session]:
        if args.seed is not None:
            return open_local_session(
                rules,
                name=settings.name,
                level=level,
                seed=args.seed,
                delay=args.bot_delay,
                think=args.think,
            )
        return embedded_game(args, settings, rules, level, humans, data_dir=data_dir(os.environ))

    return run_game_screen(open_session, settings, plain=args.plain, coach=coach)


def embedded_game(
    args: argparse.Namespace,
    settings: Settings,
    rules: RuleSet,
    level: str,
    humans: int,
    **more: Any,
) -> AbstractAsyncContextManager[Session]:
    """The game on this process's own host, with the flags' computer players and ``humans``
    seats for people, asking "play again?" after the match; ``more``: the host's other
    settings (``lan``, ``port``, ``data_dir``...)."""
    from scopa_net.client.embedded import open_embedded_game

    return open_embedded_game(
        rules,
        name=settings.name,
        level=level,
        delay=args.bot_delay,
        think=args.think,
        humans=humans,
        offer_rematch=True,  # the screen asks "play again?" after the match
        **more,
    )


def run_lan(
    args: argparse.Namespace,
    settings: Settings,
    rules: RuleSet,
    level: str,
    humans: int,
    *,
    coach: bool,
    ask: Callable[[str], str] | None = None,
) -> int:
    """``play --lan``: the host keeps its table on disk, so a run after a closed one takes
    the seat back (offered first, as ``join`` does); the exit status."""
    from scopa_net.client.embedded import (
        LanTableBusyError,
        close_lan_tables,
        kept_lan_seats,
        lan_folder,
        lan_table_lock,
    )
    from scopa_net.client.launch import run_game_screen
    from scopa_net.client.said import say
    from scopa_net.client.sigterm import typed
    from scopa_net.commands.host import check_address
    from scopa_net.commands.join_kept import choose_kept_seat
    from scopa_net.commands.journal_files import lan_folder_ready
    from scopa_net.commands.question_stops import signal_stop

    where = data_dir(os.environ)
    lan_folder_ready(lan_folder(where))
    try:
        with lan_table_lock(where):
            if args.port:  # a port the person named: refused if busy, as `host` does
                check_address("0.0.0.0", args.port)
            kept = [] if args.no_resume else kept_lan_seats(where)
            if args.resume and not kept:
                raise CommandError(
                    "no unfinished `play --lan` table keeps a seat for you; "
                    "run `scopa-net play --lan` without --resume",
                    EXIT_REFUSED,
                )
            try:
                record = (
                    choose_kept_seat(
                        kept,
                        ask or typed,  # SIGTERM: "stopped by SIGTERM; no table opened"
                        must=args.resume,
                        address=False,
                        instead="`scopa-net play --lan --no-resume` opens a new table",
                    )
                    if kept
                    else None
                )
            except (KeyboardInterrupt, EOFError) as exc:
                if stop := signal_stop(exc, "no table opened"):  # SIGTERM: 143; SIGHUP: 129
                    raise stop from None
                print()
                print("scopa-net: stopped; no table opened", file=sys.stderr)
                return EXIT_CANCELLED
            if record is None:
                closed = close_lan_tables(where)
                if closed:
                    tables = ", ".join(map(str, closed))
                    say(f"The unfinished match at table {tables} is closed; a new table opens.")

            # A table taken back listens where it did, so friends' clients find it again.
            port = args.port if args.port is not None else record.port if record else DEFAULT_PORT

            def open_session() -> AbstractAsyncContextManager[Session]:
                return embedded_game(
                    args,
                    settings,
                    rules,
                    level,
                    humans,
                    lan=True,
                    port=port,
                    any_port_if_taken=args.port is None,
                    password=args.password,
                    data_dir=where,
                    resume_from=record,
                    blind=blind_table(args.blind, humans),
                )

            return run_game_screen(open_session, settings, plain=args.plain, coach=coach)
    except LanTableBusyError:
        raise CommandError(
            "another `scopa-net play --lan` of yours is running on this machine; finish "
            "that one first (its table is kept in one place, for one host at a time)",
            EXIT_REFUSED,
        ) from None


def run_pass_and_play(
    args: argparse.Namespace,
    settings: Settings,
    rules: RuleSet,
    level: str,
    humans: int,
    *,
    coach: bool,
) -> int:
    """Several people at this terminal, on the embedded host; the exit status."""
    from scopa_net.client.config import COMPUTER_NAME_REFUSED
    from scopa_net.client.line_mode import needs_line_mode
    from scopa_net.client.pass_and_play import open_pass_and_play, run_pass_and_play_screen
    from scopa_net.names import name_too_long, reads_as_computer
    from scopa_net.typed import has_control, shown

    problem = pass_and_play_problem(args, humans)
    if problem:
        raise CommandError(problem)
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    names = names or [f"Player {n}" for n in range(1, humans + 1)]
    if len(names) != humans or not all(names) or len({n.lower() for n in names}) != humans:
        raise CommandError(
            f"--names needs {humans} different names, comma-separated (such as --names "
            f"{','.join(EXAMPLE_NAMES[:humans])})"
        )
    too_long = [(n, name_too_long(n)) for n in names if name_too_long(n)]
    if too_long:
        raise CommandError(f"invalid --names: {shown(too_long[0][0])}: {too_long[0][1]}")
    control = [n for n in names if has_control(n)]
    if control:
        raise CommandError(
            f"invalid --names: {shown(control[0])}: a name cannot hold a control character "
            "(a tab, an escape sequence...); choose another"
        )
    computer = [n for n in names if reads_as_computer(n)]
    if computer:
        # The host would seat them as "Player N": refused here, as --name refuses it.
        raise CommandError(f"invalid --names: {computer[0]!r}: {COMPUTER_NAME_REFUSED}")
    if os.environ.get("TERM", "") == "dumb":
        raise CommandError(
            "pass and play cannot keep hands secret with TERM=dumb: this terminal cannot clear "
            "its screen and scrollback between turns, so each hand would stay there to scroll "
            "back to; use a terminal that can (TERM=xterm-256color), or give each person their "
            "own machine (`scopa-net play --lan`, and the others `scopa-net join`)"
        )
    if needs_line_mode(sys.stdin, sys.stdout):
        raise CommandError(
            "pass and play needs a terminal: it hands the keyboard from person to person and "
            "clears each hand from the screen, and here the input or the output is not a "
            "terminal (a script plays one person's seat with `scopa-net play`)"
        )

    def open_sessions() -> AbstractAsyncContextManager[list[Session]]:
        return open_pass_and_play(
            rules,
            names,
            level=level,
            delay=args.bot_delay,
            think=args.think,
            data_dir=data_dir(os.environ),
        )

    return run_pass_and_play_screen(
        open_sessions, settings, plain=args.plain, coach=coach, guard=args.handover_pause
    )


def people(args: argparse.Namespace, rules: RuleSet) -> int:
    """How many people play: --humans; else in pass and play as many as --names names (2
    without it); else 1."""
    if args.humans is None and args.pass_and_play and args.names:
        named = len(args.names.split(","))
        if named > rules.players:
            raise CommandError(f"--names names {named} people: {_too_many(named, rules)}")
        if named < 2:
            raise CommandError("pass and play needs 2 or more people: --names Ada,Bruno")
        return named
    humans = args.humans if args.humans is not None else (2 if args.pass_and_play else 1)
    if not 1 <= humans <= rules.players:
        raise CommandError(f"--humans {humans}: {_too_many(humans, rules)}")
    return humans


def _too_many(people: int, rules: RuleSet) -> str:
    """Why ``people`` do not fit at the table, and the --players that seats them all: "a
    table of 2 has seats for 1 to 2 people; --players 3 seats them all"."""
    seats = f"a table of {rules.players} has seats for 1 to {rules.players} people"
    fits = [n for n in PLAYER_COUNTS if n >= people]
    if people <= rules.players:  # (none: --humans 0)
        return seats
    if not fits:
        return f"{seats}; at most {PLAYER_COUNTS[-1]} play at one table"
    return f"{seats}; --players {fits[0]} seats them all"


def handover_seconds(text: str) -> float:
    """The pause after a handover before Enter shows the next hand: 0 to 10 seconds."""
    value = seconds(text)
    if value > MAX_HANDOVER_PAUSE:
        raise argparse.ArgumentTypeError(
            f"{text} is out of range; choose 0 to {MAX_HANDOVER_PAUSE:g} seconds"
        )
    return value


def pass_and_play_problem(args: argparse.Namespace, humans: int) -> str:
    """Why these flags cannot make a pass-and-play match, or "" if they can."""
    if args.lan:
        return "--pass-and-play is for one terminal; with --lan friends join from theirs"
    if args.seed is not None:
        return "--seed practice is for one player; pass and play uses the embedded host"
    if humans < 2:
        return "pass and play needs --humans 2 or more"
    return ""
