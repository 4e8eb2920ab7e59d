"""``scopa-net play``: a match in this terminal, for now against computer players in-process."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from contextlib import AbstractAsyncContextManager

from prompt_toolkit.patch_stdout import patch_stdout

from scopa_net.client.app import ClientApp
from scopa_net.client.config import ConfigError, load_settings
from scopa_net.client.embedded import open_embedded_game
from scopa_net.client.local_session import DEFAULT_DELAY, bot_levels, open_local_session
from scopa_net.client.session import Session
from scopa_net.client.style import SuitNames
from scopa_net.paths import data_dir
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
        default=1,
        help="with --lan: seats left for people (you included); the rest are computers",
    )
    p.add_argument("--name", default=None, help="your name at the table")
    p.add_argument(
        "--delay",
        type=float,
        default=DEFAULT_DELAY,
        help=f"seconds before each computer play (default {DEFAULT_DELAY})",
    )
    p.add_argument("--no-color", action="store_true", help="no colour (also NO_COLOR, TERM=dumb)")
    p.add_argument("--ascii", action="store_true", help="suit letters only, no suit glyphs")
    p.add_argument(
        "--suits",
        choices=[s.value for s in SuitNames],
        default=None,
        help="suit names on screen and the letters you type",
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="for screen readers: one fact per line, no toolbar, nothing redrawn",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the match; the exit status."""
    try:
        settings = load_settings(
            os.environ,
            color=False if args.no_color else None,
            ascii=True if args.ascii else None,
            suits=args.suits,
            name=args.name,
        )
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
            port=args.port,
            password=args.password,
            humans=args.humans,
            data_dir=data_dir(os.environ),
        )

    display = settings.display(os.environ)
    if args.plain:
        display = type(display)(color=False, glyphs=False, suits=display.suits)
    app = ClientApp(open_session, display, plain=args.plain)
    with patch_stdout(raw=True):
        return asyncio.run(app.run())
