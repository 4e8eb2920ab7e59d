"""``scopa-net play``: a match in this terminal, for now against computer players in-process."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from scopa_net.commands.options import (
    EXIT_USAGE,
    CommandError,
    add_bot_options,
    add_command,
    add_display_options,
    add_old_spelling,
    add_rule_options,
    player_for,
    port_number,
    seconds,
    variants_epilog,
)
from scopa_net.commands.paths import data_dir
from scopa_net.rules import RuleSet
from scopa_net.server.config import DEFAULT_PORT

if TYPE_CHECKING:
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
        help=f"with --lan: the port (default {DEFAULT_PORT}, or any free one if it is taken)",
    )
    p.add_argument("--password", default=None, help="with --lan: needed to join your table")
    p.add_argument(
        "--humans",
        type=int,
        default=1,
        help="with --lan: seats left for people (you included); the rest are computers",
    )
    add_old_spelling(p, "--delay", "--bot-delay", "bot_delay", seconds)
    add_display_options(p)
    p.set_defaults(run=run)


def check_flags(args: argparse.Namespace) -> None:
    """Refuse combinations that cannot mean anything; CommandError says which."""
    if not args.lan:
        for flag, value in (("--port", args.port), ("--password", args.password)):
            if value is not None:
                raise CommandError(f"{flag} needs --lan (it is for friends joining your table)")
    if args.seed is not None and args.lan:
        raise CommandError("--seed practices offline: it cannot be used with --lan")


def run(args: argparse.Namespace) -> int:
    """Start the match; the exit status."""
    from scopa_net.client.config import ConfigError
    from scopa_net.client.embedded import open_embedded_game
    from scopa_net.client.launch import run_game_screen, settings_from
    from scopa_net.client.local_session import open_local_session

    check_flags(args)
    try:
        settings = settings_from(args)
    except ConfigError as exc:
        print(f"scopa-net: {exc}", file=sys.stderr)
        return EXIT_USAGE
    rules = RuleSet.of(args.players, args.target, args.variant or ())
    level = player_for(args.bot_level)

    if not 1 <= args.humans <= rules.players:
        print(f"scopa-net: --humans must be 1..{rules.players}", file=sys.stderr)
        return EXIT_USAGE

    def open_session() -> AbstractAsyncContextManager[Session]:
        if args.seed is not None:
            return open_local_session(
                rules, name=settings.name, level=level, seed=args.seed, delay=args.bot_delay
            )
        return open_embedded_game(
            rules,
            name=settings.name,
            level=level,
            delay=args.bot_delay,
            lan=args.lan,
            port=args.port if args.port is not None else (DEFAULT_PORT if args.lan else 0),
            password=args.password,
            humans=args.humans,
            data_dir=data_dir(os.environ),
        )

    return run_game_screen(open_session, settings, plain=args.plain)
