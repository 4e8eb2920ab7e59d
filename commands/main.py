"""The ``scopa-net`` command and its subcommands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from scopa_net import __version__
from scopa_net.errors import RuleSetError
from scopa_net.rules import PLAYER_COUNTS, RuleSet, Variant


def _rules_from(args: argparse.Namespace) -> RuleSet:
    return RuleSet.of(args.players, args.target, args.variant or ())


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, default=2, help=f"players at the table: {PLAYER_COUNTS}"
    )
    parser.add_argument("--target", type=int, default=11, help="points to win (1-99)")
    parser.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help="a named variant (repeat for more): " + ", ".join(v.value for v in Variant),
    )


def _cmd_demo(args: argparse.Namespace) -> int:
    from scopa_net.commands.demo import play_demo_match

    play_demo_match(_rules_from(args), args.seed, print, rounds=args.rounds)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scopa-net",
        description="Scopa, the Italian card game, between terminals on a LAN, "
        "with deals every player can verify.",
    )
    parser.add_argument("--version", action="version", version=f"scopa-net {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser("demo", help="watch computer players play a round, as text")
    _add_rule_options(demo)
    demo.add_argument("--seed", type=int, default=1, help="seed for the deck and the plays")
    demo.add_argument("--rounds", type=int, default=1, help="rounds to show")
    demo.set_defaults(run=_cmd_demo)

    for register in _subcommand_registrars():
        register(sub)
    return parser


def _subcommand_registrars() -> list:
    """Subcommands that live beside the code they run: each module has ``register(sub)``,
    which adds its parser to the subparsers object and sets ``run`` as its default."""
    import importlib

    return [importlib.import_module(name).register for name in SUBCOMMAND_MODULES]


#: Modules that each add one subcommand. Add a line here for a new subcommand.
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "scopa_net.commands.arena",
    "scopa_net.commands.verify",
    "scopa_net.commands.play",
    "scopa_net.commands.host",
    "scopa_net.commands.join",
    "scopa_net.commands.bots",
    "scopa_net.commands.tally",
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except RuleSetError as exc:
        print(f"scopa-net: {exc}", file=sys.stderr)
        return 2
