"""``scopa-net play``: a match in this terminal, for now against computer players in-process."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import AbstractAsyncContextManager

from scopa_net.client.config import ConfigError, Settings
from scopa_net.client.embedded import open_embedded_game
from scopa_net.client.launch import add_display_options, run_game_screen, settings_from
from scopa_net.client.local_session import DEFAULT_DELAY, bot_levels, open_local_session
from scopa_net.client.pass_and_play import open_pass_and_play, run_pass_and_play_screen
from scopa_net.client.session import Session
from scopa_net.commands.paths import data_dir
from scopa_net.rules import PLAYER_COUNTS, RuleSet, Variant


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``play`` subcommand."""
    levels = bot_levels()
    p = subparsers.add_parser(
        "play",
        help="play a match in this terminal against computer players",
        description="Play Scopa in this terminal: a host starts inside this process with "
        "computer players at the table, and every deal is checked as it arrives. With --lan "
        "friends can join the same table from their terminals.",
    )
    p.add_argument("--players", type=int, default=2, help=f"players at the table: {PLAYER_COUNTS}")
    p.add_argument("--target", type=int, default=11, help="points to win (1-99)")
    p.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help="a named variant (repeat for more): " + ", ".join(v.value for v in Variant),
    )
    p.add_argument(
        "--bot-level",
        default="greedy" if "greedy" in levels else levels[0],
        choices=levels,
        help="strength of the computer players",
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
    p.add_argument("--port", type=int, default=0, help="port for --lan (default: any free one)")
    p.add_argument("--password", default=None, help="with --lan: needed to join your table")
    p.add_argument(
        "--humans",
        type=int,
        default=None,
        help="seats for people (you included); the rest are computers. With --lan friends "
        "join from their terminals; without it the people share this one (pass and play)",
    )
    p.add_argument(
        "--pass-and-play",
        action="store_true",
        help="several people at this terminal (--humans, default 2): each sees their hand "
        "only on their turn, the screen is cleared between turns",
    )
    p.add_argument(
        "--names",
        default=None,
        metavar="A,B",
        help="for pass and play: the people's names, comma-separated",
    )
    p.add_argument(
        "--delay",
        type=float,
        default=DEFAULT_DELAY,
        help=f"seconds before each computer play (default {DEFAULT_DELAY})",
    )
    p.add_argument(
        "--coach",
        action="store_true",
        help="warn before a play that leaves an easy sweep, gives away the settebello or "
        "passes up a seven, and ask first (also coach = true in client.toml)",
    )
    add_display_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the match; the exit status."""
    try:
        settings = settings_from(args)
    except ConfigError as exc:
        print(f"scopa-net: {exc}", file=sys.stderr)
        return 2
    rules = RuleSet.of(args.players, args.target, args.variant or ())

    humans = args.humans if args.humans is not None else (2 if args.pass_and_play else 1)
    if not 1 <= humans <= rules.players:
        print(f"scopa-net: --humans must be 1..{rules.players}", file=sys.stderr)
        return 2
    if args.pass_and_play or (humans > 1 and not args.lan):
        return run_pass_and_play(args, settings, rules, humans)

    def open_session() -> AbstractAsyncContextManager[Session]:
        if args.seed is not None:
            return open_local_session(
                rules, name=settings.name, level=args.bot_level, seed=args.seed, delay=args.delay
            )
        return open_embedded_game(
            rules,
            name=settings.name,
            level=args.bot_level,
            delay=args.delay,
            lan=args.lan,
            port=args.port,
            password=args.password,
            humans=humans,
            data_dir=data_dir(os.environ),
        )

    coach = args.coach or settings.coach
    return run_game_screen(open_session, settings, plain=args.plain, coach=coach)


def run_pass_and_play(
    args: argparse.Namespace, settings: Settings, rules: RuleSet, humans: int
) -> int:
    """Several people at this terminal, on the embedded host; the exit status."""
    problem = pass_and_play_problem(args, humans)
    if problem:
        print(f"scopa-net: {problem}", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    names = names or [f"Player {n}" for n in range(1, humans + 1)]
    if len(names) != humans or not all(names) or len({n.lower() for n in names}) != humans:
        print(
            f"scopa-net: --names needs {humans} different names, comma-separated "
            "(such as --names Ada,Bruno)",
            file=sys.stderr,
        )
        return 2

    def open_sessions() -> AbstractAsyncContextManager[list[Session]]:
        return open_pass_and_play(
            rules, names, level=args.bot_level, delay=args.delay, data_dir=data_dir(os.environ)
        )

    coach = args.coach or settings.coach
    return run_pass_and_play_screen(open_sessions, settings, plain=args.plain, coach=coach)


def pass_and_play_problem(args: argparse.Namespace, humans: int) -> str:
    """Why these flags cannot make a pass-and-play match, or "" if they can."""
    if args.lan:
        return "--pass-and-play is for one terminal; with --lan friends join from theirs"
    if args.seed is not None:
        return "--seed practice is for one player; pass and play uses the embedded host"
    if humans < 2:
        return "pass and play needs --humans 2 or more"
    return ""
