"""What every terminal command shares: settings from the display flags, and running the app."""

from __future__ import annotations

import argparse
import asyncio
import os

from prompt_toolkit.patch_stdout import patch_stdout

from scopa_net.client.app import ClientApp, SessionOpener
from scopa_net.client.config import Settings, load_settings
from scopa_net.client.style import SuitNames


def add_display_options(parser: argparse.ArgumentParser) -> None:
    """The flags every command that opens the game screen takes."""
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument(
        "--no-color", action="store_true", help="no colour (also NO_COLOR, TERM=dumb)"
    )
    parser.add_argument("--ascii", action="store_true", help="suit letters only, no suit glyphs")
    parser.add_argument(
        "--suits",
        choices=[s.value for s in SuitNames],
        default=None,
        help="suit names on screen and the letters you type",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="for screen readers: one fact per line, no toolbar, nothing redrawn",
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """Config file, then environment, then these flags; raises ConfigError."""
    return load_settings(
        os.environ,
        color=False if args.no_color else None,
        ascii=True if args.ascii else None,
        suits=args.suits,
        name=args.name,
    )


def run_game_screen(
    open_session: SessionOpener, settings: Settings, *, plain: bool, coach: bool = False
) -> int:
    """Run the terminal app on this session until the match ends; the exit status."""
    display = settings.display(os.environ)
    if plain:
        display = type(display)(color=False, glyphs=False, suits=display.suits)
    app = ClientApp(open_session, display, plain=plain, coach=coach)
    with patch_stdout(raw=True):
        return asyncio.run(app.run())
