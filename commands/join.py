"""``scopa-net join [HOST[:PORT]]``: find a host, pick or create a table, and play there."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import trio

from scopa_net.client.config import ConfigError, Settings
from scopa_net.client.embedded import LEVEL_NUMBERS
from scopa_net.client.launch import add_display_options, run_game_screen, settings_from
from scopa_net.client.network_session import TableChoice, list_tables, open_network_session
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.client.session import Session
from scopa_net.commands.paths import data_dir
from scopa_net.errors import RuleSetError
from scopa_net.rules import PLAYER_COUNTS, RuleSet, Variant
from scopa_net.server.config import DEFAULT_PORT
from scopa_net.wire import messages as m

BROWSE_SECONDS = 2.0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "join",
        help="join a table on a host (found on the LAN, or at an address)",
        description="Join a scopa-net host. Without an address, hosts announced on the LAN are "
        "listed to choose from.",
    )
    p.add_argument("address", nargs="?", help=f"HOST or HOST:PORT (default port {DEFAULT_PORT})")
    p.add_argument("--table", type=int, default=None, help="table id (skip the list)")
    p.add_argument("--seat", type=int, default=None, help="seat wanted (default: any open one)")
    p.add_argument("--password", default=None, help="the table's password, if it has one")
    p.add_argument("--create", action="store_true", help="open a new table instead")
    p.add_argument("--players", type=int, default=2, help=f"with --create: {PLAYER_COUNTS}")
    p.add_argument("--target", type=int, default=11, help="with --create: points to win")
    p.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help="with --create, repeatable: " + ", ".join(v.value for v in Variant),
    )
    p.add_argument("--bots", type=int, default=0, help="with --create: computer players")
    p.add_argument("--bot-level", default="greedy", choices=tuple(LEVEL_NUMBERS))
    resume = p.add_mutually_exclusive_group()
    resume.add_argument(
        "--resume",
        action="store_true",
        help="take back a seat this client kept (asks which if there are several)",
    )
    resume.add_argument(
        "--no-resume",
        action="store_true",
        help="sit down anew even if a seat is kept for you",
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
        raise ValueError(f"no host in {text!r}")
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"bad port in {text!r}")
    return host, int(port_text)


def _choose(prompt: str, count: int, ask: Callable[[str], str]) -> int | None:
    """A number from 1..count typed by the user (None for 'n' or an empty line)."""
    while True:
        answer = ask(prompt).strip().lower()
        if answer in ("", "n", "new"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        print(f"type a number from 1 to {count}, or n")


def choose_lan_host(
    ask: Callable[[str], str], seconds: float = BROWSE_SECONDS
) -> tuple[str, int] | None:
    """Browse the LAN for hosts, list them, and return the (address, port) picked."""
    from scopa_net.server.discovery import browse_hosts

    print(f"looking for hosts on the LAN for {seconds:.0f} s...")
    found = browse_hosts(seconds)
    if not found:
        print("no host found; give an address: scopa-net join HOST[:PORT]", file=sys.stderr)
        return None
    for i, h in enumerate(found, 1):
        lock = ", password" if h.password else ""
        where = h.addresses[0] if h.addresses else "?"
        print(f"{i}. {h.name} at {where}:{h.port} ({h.open_seats} open seats{lock})")
    pick = _choose("host number: ", len(found), ask)
    if pick is None:
        return None
    chosen = found[pick]
    return (chosen.addresses[0] if chosen.addresses else "127.0.0.1"), chosen.port


def describe_table(t: m.TableInfo) -> str:
    open_seats = sum(1 for s in t.seats if s.kind == "open")
    people = ", ".join(s.name or "(open)" for s in t.seats)
    variants = ", ".join(t.rules.variants) or "no variants"
    lock = "  [password]" if t.password else ""
    state = "playing" if t.started else "waiting"
    return (
        f"table {t.id} {t.name!r}: {t.rules.players} players to {t.rules.target}, "
        f"{variants}; {open_seats} open ({people}); {state}{lock}"
    )


def describe_seat(record: SeatRecord) -> str:
    """A kept seat, for the question which one to take back."""
    table = f" {record.table_name!r}" if record.table_name else ""
    how = "you stepped away" if record.away else "your client stopped"
    return (
        f"resume your seat at table {record.table_id}{table} on {record.address} "
        f"(seat {record.seat}, as {record.name}; {how})"
    )


def choose_kept_seat(
    kept: list[SeatRecord], ask: Callable[[str], str], *, must: bool
) -> SeatRecord | None:
    """The seat to take back: the only one without asking, else the one picked."""
    if len(kept) == 1:
        text = describe_seat(kept[0])
        print(f"{text[0].upper()}{text[1:]}.")
        return kept[0]
    for i, record in enumerate(kept, 1):
        print(f"{i}. {describe_seat(record)}")
    prompt = "seat number: " if must else "seat number (or n for a new seat): "
    while True:
        pick = _choose(prompt, len(kept), ask)
        if pick is not None:
            return kept[pick]
        if not must:
            return None


def run(args: argparse.Namespace, ask: Callable[[str], str] = input) -> int:
    try:
        settings = settings_from(args)
    except ConfigError as exc:
        print(f"scopa-net: {exc}", file=sys.stderr)
        return 2
    store = SeatStore(data_dir(os.environ))
    address: tuple[str, int] | None = None
    if args.address:
        try:
            address = parse_address(args.address)
        except ValueError as exc:
            print(f"scopa-net: {exc}", file=sys.stderr)
            return 2
    kept: list[SeatRecord] = []
    if args.resume or not (args.no_resume or args.create):
        kept = store.for_address(*address) if address else store.records()
        if args.table is not None:
            kept = [r for r in kept if r.table_id == args.table]
    if args.resume and not kept:
        where = f" at {args.address}" if args.address else ""
        print(f"scopa-net: no seat is kept for you{where}; join without --resume", file=sys.stderr)
        return 1
    record = choose_kept_seat(kept, ask, must=args.resume) if kept else None
    if record is not None:
        return _take_back(record, store, settings, args)
    if address is not None:
        host, port = address
    else:
        found = choose_lan_host(ask)
        if found is None:
            return 1
        host, port = found
    choice = _table_choice(args, settings.name, host, port, ask)
    if choice is None:
        return 1

    def open_session() -> AbstractAsyncContextManager[Session]:
        return open_network_session(
            host, port, choice, name=settings.name, data_dir=store.folder.parent, store=store
        )

    return run_game_screen(open_session, settings, plain=args.plain)


def _take_back(
    record: SeatRecord, store: SeatStore, settings: Settings, args: argparse.Namespace
) -> int:
    def open_session() -> AbstractAsyncContextManager[Session]:
        return open_network_session(
            record.host,
            record.port,
            TableChoice(table_id=record.table_id, seat=record.seat),
            name=record.name,
            data_dir=store.folder.parent,
            store=store,
            resume_from=record,
        )

    return run_game_screen(open_session, settings, plain=args.plain)


def _table_choice(
    args: argparse.Namespace, name: str, host: str, port: int, ask: Callable[[str], str]
) -> TableChoice | None:
    if args.create:
        try:
            rules = RuleSet.of(args.players, args.target, args.variant or ())
        except RuleSetError as exc:
            print(f"scopa-net: {exc}", file=sys.stderr)
            return None
        create = m.CreateTable(
            name=f"{name}'s table"[: m.NAME_LEN],
            rules=m.RulesInfo.of(rules),
            password=args.password,
            bots=max(0, min(args.bots, rules.players - 1)),
            bot_level=LEVEL_NUMBERS[args.bot_level],
        )
        return TableChoice(create=create)
    if args.table is not None:
        return TableChoice(table_id=args.table, seat=args.seat, password=args.password)
    try:
        tables = trio.run(list_tables, host, port)
    except (OSError, trio.TooSlowError) as exc:
        print(f"scopa-net: cannot reach {host}:{port}: {exc}", file=sys.stderr)
        return None
    joinable = [t for t in tables if any(s.kind == "open" for s in t.seats)]
    if not joinable:
        print(f"no table has an open seat; open one with: scopa-net join --create {host}:{port}")
        return None
    for i, t in enumerate(joinable, 1):
        print(f"{i}. {describe_table(t)}")
    pick = _choose("table number: ", len(joinable), ask)
    if pick is None:
        return None
    table = joinable[pick]
    password = args.password
    if table.password and password is None:
        password = getpass.getpass("table password: ")
    return TableChoice(table_id=table.id, seat=args.seat, password=password)
