"""``scopa-net play``: a match in this terminal, for now against computer players in-process."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import AbstractAsyncContextManager

from scopa_net.client.config import ConfigError
from scopa_net.client.embedded import open_embedded_game
from scopa_net.client.launch import add_display_options, run_game_screen, settings_from
from scopa_net.client.local_session import DEFAULT_DELAY, bot_levels, open_local_session
from scopa_net.client.session import Session
from scopa_net.commands.paths import data_dir
from scopa_net.rules import PLAYER_COUNTS, RuleSet, Variant
from scopa_net.server.config import DEFAULT_PORT


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
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port for --lan (default {DEFAULT_PORT}, or any free one if it is taken)",
    )
    p.add_argument("--password", default=None, help="with --lan: needed to join your table")
    p.add_argument(
        "--humans",
        type=int,
        default=1,
        help="with --lan: seats left for people (you included); the rest are computers",
    )
    p.add_argument(
        "--delay",
        type=float,
        default=DEFAULT_DELAY,
        help=f"seconds before each computer play (default {DEFAULT_DELAY})",
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

    if not 1 <= args.humans <= rules.players:
        print(f"scopa-net: --humans must be 1..{rules.players}", file=sys.stderr)
        return 2

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
            port=args.port if args.lan else 0,
            password=args.password,
            humans=args.humans,
            data_dir=data_dir(os.environ),
        )

    return run_game_screen(open_session, settings, plain=args.plain)
