"""``scopa-net join [HOST[:PORT]]``: find a host, pick or create a table, and play there.

The command's options, which of them go together, and its run: a kept seat taken back
(:mod:`.join_kept`), else a host from the address or the LAN (:mod:`.join_lan`), a table from
its list (:mod:`.join_tables`), and the game, asked again when the host refuses the seat."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from scopa_net.commands.join_host import host_stopped
from scopa_net.commands.join_kept import kept_seat_to_take, take_back
from scopa_net.commands.join_lan import choose_lan_host
from scopa_net.commands.join_password import PASSWORD_TRIES, ask_password, env_password_wrong
from scopa_net.commands.join_say import say
from scopa_net.commands.join_tables import UnlistedTable, table_choice
from scopa_net.commands.options import (
    DEFAULT_BOT_LEVEL,
    DEFAULT_TARGET,
    EXIT_CANCELLED,
    EXIT_REFUSED,
    EXIT_USAGE,
    CommandError,
    add_blind_option,
    add_bot_options,
    add_command,
    add_display_options,
    add_password_option,
    add_rule_options,
    at_least,
    check_bots,
    password_setting,
    said_default,
    table_name,
    table_rules,
    think_seconds,
    variants_epilog,
)
from scopa_net.commands.paths import data_dir
from scopa_net.server.config import DEFAULT_PORT
from scopa_net.typed import shown, small_number

if TYPE_CHECKING:
    from scopa_net.client.session import Session


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_command(
        subparsers,
        "join",
        help="join a table on a host (found on the LAN, or at an address)",
        description="Join a scopa-net host. Without an address, hosts announced on the LAN are "
        "listed to choose from.",
        epilog=variants_epilog(),
    )
    p.add_argument(
        "address",
        nargs="?",
        help=f"HOST or HOST:PORT (default: port {DEFAULT_PORT}; the host in the 'host' "
        "setting, else the LAN is searched)",
    )
    p.add_argument("--table", type=at_least(1), default=None, help="table number (skip the list)")
    p.add_argument(
        "--seat",
        type=at_least(0),
        default=None,
        help="seat wanted, numbered from 0 in the order the table list shows the seats (at 4 "
        "players, 0 and 2 are partners, 1 and 3) (default: any open one)",
    )
    add_password_option(
        p,
        "the table's password, if it has one (with --create: the new table's; without it, "
        "a table that has one asks for it)",
    )
    p.add_argument("--create", action="store_true", help="open a new table instead")
    add_rule_options(p, when="with --create: ")
    p.add_argument(
        "--bots",
        type=int,
        default=None,
        metavar="N",
        help=f"with --create: seats given to computer players {said_default(0)}",
    )
    add_bot_options(
        p,
        level_help="with --create: strength of the computer players (an expert thinks as "
        "long as the host's --think says)",
        think=False,
    )
    add_blind_option(p, when="with --create: ")
    p.add_argument(
        "--table-name",
        type=table_name,
        default=None,
        metavar="NAME",
        help="with --create: the table's name in listings (default: YOUR NAME's table)",
    )
    # Taken only to say where it belongs: the host spends its own CPU on its experts.
    p.add_argument("--think", type=think_seconds, default=None, help=argparse.SUPPRESS)
    resume = p.add_mutually_exclusive_group()
    resume.add_argument(
        "--resume",
        action="store_true",
        help="take back a seat this client kept (asks which if there are several)",
    )
    resume.add_argument(
        "--no-resume",
        action="store_true",
        help="sit down anew (with --create: open the new table) even if a seat is kept for you",
    )
    p.add_argument(
        "--accept-new-key",
        action="store_true",
        help="trust the host's new key when it changed (after a reinstall, say)",
    )
    add_display_options(p)
    p.set_defaults(run=run)


def parse_address(text: str) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port``; ValueError with the reason."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":") or str(DEFAULT_PORT)
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, str(DEFAULT_PORT)
    if not host:
        raise ValueError(f"no host in {shown(text)}")
    port = small_number(port_text)
    if port is None or not 0 < port < 65536:
        raise ValueError(
            f"bad port in {shown(text)}: write HOST or HOST:PORT, the port a number from 1 to "
            f"65535 (without one, {DEFAULT_PORT})"
        )
    return host, port


def _stopped() -> int:
    """The person stopped at a question (Enter, Ctrl-C or Ctrl-D): say so, in one line."""
    print("scopa-net: stopped; nothing joined", file=sys.stderr)
    return EXIT_CANCELLED


def check_flags(args: argparse.Namespace) -> None:
    """Refuse flags that do nothing here or contradict each other, before connecting."""
    if args.blind is not None and not args.create:
        flag = "--blind" if args.blind else "--no-blind"
        raise CommandError(
            f"{flag} is for a table you open with --create; a table's listing says if it is blind"
        )
    if args.resume and args.seat is not None:
        raise CommandError(
            "--seat picks a seat when you sit down anew, --resume takes back the seat this "
            "client kept: give one or the other"
        )
    if args.create:
        there = [f"--{flag}" for flag in ("table", "seat") if getattr(args, flag) is not None]
        if there:
            raise CommandError(
                f"{' and '.join(there)} {'is' if len(there) == 1 else 'are'} for joining a "
                "table that is there, --create opens a new one: give one or the other"
            )
        rules = table_rules(args.players, args.target, args.variant)
        check_bots(args.bots or 0, rules.players)
        return
    lone = {
        "--players": args.players is not None,
        "--target": args.target != DEFAULT_TARGET,
        "--variant": bool(args.variant),
        "--bots": args.bots is not None,
        "--bot-level": args.bot_level != DEFAULT_BOT_LEVEL,
        "--table-name": args.table_name is not None,
    }
    given = [flag for flag, yes in lone.items() if yes]
    if given:
        raise CommandError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for a table you open with "
            "--create; without it you join a table that is there, with its own rules"
        )


def run(args: argparse.Namespace, ask: Callable[[str], str] | None = None) -> int:
    from dataclasses import replace

    from scopa_net.client.app import only_error
    from scopa_net.client.config import ConfigError
    from scopa_net.client.full_table import match_over
    from scopa_net.client.host_search import HostSearch
    from scopa_net.client.launch import run_game_screen, settings_from
    from scopa_net.client.network_session import (
        HostLostError,
        RefusedError,
        open_network_session,
    )
    from scopa_net.client.seat_store import SeatStore
    from scopa_net.client.sigterm import typed
    from scopa_net.commands.question_stops import signal_stop

    ask = ask or typed  # SIGTERM at a question: "stopped by SIGTERM; nothing joined", 143
    check_flags(args)
    # Given only to a table that asks for one (or to the one --create opens), as if typed;
    # told apart when the host says it is wrong.
    env_password = password_setting(None, os.environ) if args.password is None else None
    if args.think is not None:
        raise CommandError(
            "how long an expert thinks is the host's setting: start the host with "
            "`scopa-net host --think SECONDS`"
        )
    try:
        settings = settings_from(args)
    except ConfigError as exc:
        print(f"scopa-net: {exc}", file=sys.stderr)
        return EXIT_USAGE
    store = SeatStore(data_dir(os.environ))
    try:
        address = args.address or settings.host
        parsed: tuple[str, int] | None = None
        if address:
            try:
                parsed = parse_address(address)
            except ValueError as exc:
                # An address from the settings, not typed: say where it came from.
                where = (
                    "" if args.address else " (the host setting, in client.toml or $SCOPA_NET_HOST)"
                )
                raise CommandError(f"{exc}{where}") from None
        dropped = False
        while (record := kept_seat_to_take(store, args, parsed, ask, dropped=dropped)) is not None:
            status = take_back(record, store, settings, args)
            if status is not None:
                return status
            dropped = True  # the host no longer held it (said, forgotten): on to the next
        if parsed is not None:
            host, port = parsed
        else:
            found = choose_lan_host(ask)
            if found is None:
                return _stopped()
            host, port = found
        listed = "" if parsed is not None else "it was on the LAN's list"
        unlisted: list[UnlistedTable] = []  # --table names a table the host did not list
        choice = table_choice(
            args,
            host,
            port,
            ask,
            player=settings.name,
            listed=listed,
            store=store,
            unlisted=unlisted,
        )
    except (KeyboardInterrupt, EOFError) as exc:
        if stop := signal_stop(exc, "nothing joined"):  # SIGTERM: 143; SIGHUP: 129
            raise stop from None
        print()
        return _stopped()
    if choice is None:  # Enter at the table number: stopped, as the question says
        return _stopped()

    seen = "it answered" if args.create else "it listed its tables"
    again = "scopa-net join" + (f" {args.address}" if args.address else "")
    refused: list[RefusedError] = []  # the host's no to the seat chosen, before the game

    @asynccontextmanager
    async def open_session() -> AsyncIterator[Session]:
        entered = False
        try:
            async with open_network_session(
                host,
                port,
                choice,
                name=settings.name,
                data_dir=store.folder.parent,
                store=store,
                offer_rematch=True,  # the screen asks "play again?" after the match
                lan_search=HostSearch(),  # a host that moves is looked for by its key
            ) as session:
                entered = True
                yield session
        except Exception as exc:
            inner = only_error(exc)
            if not entered and isinstance(inner, RefusedError):
                refused.append(inner)
            if entered or not isinstance(inner, OSError):
                raise
            # It answered a moment ago (the list): it stopped since, or the network did.
            words = host_stopped(f"{host}:{port}", inner, seen, again)
            raise HostLostError(words) from None

    typed = args.password is None and choice.password is not None  # at the password prompt
    tries = 1
    while True:
        refused.clear()
        try:
            return run_game_screen(open_session, settings, plain=args.plain)
        except CommandError:
            code = refused[0].code if refused else ""
            words = refused[0].message if refused else ""
            given = choice.password is not None
            said = unlisted[0].refused(code, given, words) if unlisted else None
            if said is not None:
                raise CommandError(said, EXIT_REFUSED) from None
            from_env = env_password is not None and choice.password == env_password
            if code == "bad_password" and from_env:
                raise CommandError(env_password_wrong(choice.table_id), EXIT_REFUSED) from None
            if code == "bad_password" and typed and tries < PASSWORD_TRIES:
                tries += 1
            elif code in CHOOSE_AGAIN and args.table is None and not args.create:
                tries = 1
            else:
                raise  # a table given on the command line: one line, and a status
        try:
            if code == "bad_password":
                say(
                    f"Wrong password for table {choice.table_id}: type it again (Ctrl-C or "
                    "Ctrl-D gives up)."
                )
                choice = replace(choice, password=ask_password(choice.table_id or 0))
                continue
            again_words = CHOOSE_AGAIN[code]
            if code == "table_full" and match_over(words):
                again_words = MATCH_ENDED_WHILE_CHOSEN
            say(again_words.format(table=choice.table_id, seat=choice.seat))
            picked = table_choice(
                args, host, port, ask, player=settings.name, listed=listed, store=store
            )
        except (KeyboardInterrupt, EOFError) as exc:
            if stop := signal_stop(exc, "nothing joined"):
                raise stop from None
            print()
            return _stopped()
        if picked is None:  # Enter at the table number
            return _stopped()
        choice = picked
        typed = args.password is None and choice.password is not None


CHOOSE_AGAIN = {
    "table_full": "Table {table} is full now: someone took its last seat while you chose. "
    "The tables with an open seat now:",
    "no_such_table": "Table {table} is gone now (its match ended, or it closed). The tables "
    "with an open seat now:",
    "seat_taken": "Seat {seat} at table {table} was taken while you chose. The tables with an "
    "open seat now:",
}
"""What a person who picked a table at the prompt reads when the host refuses the seat, by
the host's code, before the list again, fresh from the host."""

MATCH_ENDED_WHILE_CHOSEN = (
    "The match at table {table} ended while you chose: nobody can sit down there now. The "
    "tables with an open seat now:"
)
"""The line for a ``table_full`` whose host's words say the match is over (3.11), not that
someone took the last seat."""
