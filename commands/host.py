"""``scopa-net host`` (run a host) and ``scopa-net history`` (finished matches, transcripts)."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import signal
import sys
import time
from pathlib import Path

import trio

from scopa_net.commands.paths import default_host_db
from scopa_net.errors import RuleSetError
from scopa_net.rules import PLAYER_COUNTS, RuleSet, Variant
from scopa_net.server.announce import advertise
from scopa_net.server.config import DEFAULT_PORT, HostConfig
from scopa_net.server.discovery import join_address, lan_addresses
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal, JournalError
from scopa_net.server.table import Table

log = logging.getLogger("scopa_net.host")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "host",
        help="host tables on this machine for players on the LAN",
        description="Run a scopa-net host. With --players it also opens a table at once.",
    )
    p.add_argument(
        "--host",
        dest="bind",
        default="0.0.0.0",
        help="address to listen on (default 0.0.0.0: the whole LAN; "
        "127.0.0.1 for this machine only)",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    p.add_argument("--name", default=os.uname().nodename, help="the host's name on the LAN")
    p.add_argument(
        "--db",
        default=None,
        help="journal database (default: the user's data directory; ':memory:' keeps nothing)",
    )
    p.add_argument("--no-advertise", action="store_true", help="do not announce on the LAN")
    p.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        help="seconds a computer player waits before each move, so people can follow",
    )
    p.add_argument(
        "--max-per-address",
        type=int,
        default=HostConfig().max_connections_per_address,
        help="connections allowed from one address (raise it for load tests)",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=60.0,
        help="seconds a dropped player's seat waits before a bot stands in",
    )
    table = p.add_argument_group("a table to open at start")
    table.add_argument("--players", type=int, default=None, help=f"one of {PLAYER_COUNTS}")
    table.add_argument("--target", type=int, default=11)
    table.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help="repeat for more: " + ", ".join(v.value for v in Variant),
    )
    table.add_argument("--bots", type=int, default=0, help="seats given to computer players")
    table.add_argument(
        "--bot-level",
        type=int,
        default=2,
        choices=range(1, 6),
        help="1 random, 2 greedy, 3-5 strong",
    )
    table.add_argument("--password", default=None, help="needed to join the table")
    table.add_argument("--table-name", default="table 1")
    p.set_defaults(run=run_host)

    h = subparsers.add_parser(
        "history",
        help="finished matches on this host; export a seat's transcript",
        description="List finished matches in a host's journal, or export one seat's "
        "transcript for `scopa-net verify`.",
    )
    h.add_argument("--db", default=None, help="journal database (default: the data directory)")
    h.add_argument("--export", type=int, metavar="TABLE", help="table to export")
    h.add_argument("--seat", type=int, default=0, help="whose transcript (default 0)")
    h.add_argument("--out", type=Path, help="file to write (default: TABLE-seatN.scopa)")
    h.set_defaults(run=run_history)


def _db_path(arg: str | None) -> str:
    return arg if arg is not None else str(default_host_db(os.environ))


GC_THRESHOLDS = (100_000, 50, 1000)
"""The host keeps every seat's events for the match: many long-lived objects. With Python's
default thresholds the collector walked them all every few seconds and held up every table
for half a second (p99 move latency 514 ms at 500 tables); with these, 50 ms. Measured with
benchmarks/load.py."""


def run_host(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=args.log_level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s"
    )
    rules = None
    if args.players is not None:
        try:
            rules = RuleSet.of(args.players, args.target, args.variant or ())
        except RuleSetError as exc:
            print(f"scopa-net: {exc}", file=sys.stderr)
            return 2
        if not 0 <= args.bots < args.players:
            print(
                f"scopa-net: --bots must leave a seat for a person (0..{args.players - 1})",
                file=sys.stderr,
            )
            return 2
    config = HostConfig(
        name=args.name[:64] or "scopa-net",
        bind=args.bind,
        port=args.port,
        db=_db_path(args.db),
        advertise=not args.no_advertise,
        grace=args.grace,
        max_connections_per_address=args.max_per_address,
        bot_delay=max(0.0, args.bot_delay),
    )
    try:
        journal = Journal(config.db)
    except (JournalError, OSError) as exc:
        print(f"scopa-net: cannot open the journal {config.db!r}: {exc}", file=sys.stderr)
        return 2
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        trio.run(serve_until_signalled, config, journal, rules, args)
    except OSError as exc:
        print(f"scopa-net: cannot listen on {args.bind}:{args.port}: {exc}", file=sys.stderr)
        return 1
    return 0


async def serve_until_signalled(
    config: HostConfig, journal: Journal, rules: RuleSet | None, args: argparse.Namespace
) -> None:
    host = Host(config, journal)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.serve)
        for line in where_to_join(config.bind, port, announced=config.advertise):
            print(line, file=sys.stderr)
        if rules is not None:
            task = await host.create_table(
                args.table_name, rules, args.password, args.bots, args.bot_level
            )
            log.info("table %s is open: %s", task.table.table_id, rules.describe())
        if config.advertise:
            nursery.start_soon(advertise, host)
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for signum in signals:
                log.info("signal %s: shutting down", signal.Signals(signum).name)
                break
        await host.shutdown()
        nursery.cancel_scope.cancel()
    journal.close()


def where_to_join(bind: str, port: int, *, announced: bool) -> list[str]:
    """What the host says at start: the exact command for each address players can use."""
    addresses = lan_addresses(bind)
    if not addresses:
        return [
            f"scopa-net host listening on {join_address(bind, port)}, this machine only: not "
            "announced on the LAN (use --host 0.0.0.0 to let others join)",
            f"players on this machine join with: scopa-net join {join_address(bind, port)}",
        ]
    lines = [f"scopa-net host listening on port {port}; players join with:"]
    lines += [f"  scopa-net join {join_address(a, port)}" for a in addresses]
    if announced:
        lines.append("  (or just `scopa-net join`: the host is announced on the LAN)")
    return lines


def run_history(args: argparse.Namespace) -> int:
    path = _db_path(args.db)
    if path != ":memory:" and not Path(path).exists():
        print(f"scopa-net: no journal at {path!r}", file=sys.stderr)
        return 2
    journal = Journal(path)
    try:
        if args.export is not None:
            return _export(journal, args)
        finished = journal.tables(finished=True)
        if not finished:
            print("no finished matches")
        for record in finished:
            s = record.summary or {}
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.finished or 0))
            players = ", ".join(str(p) for p in s.get("players", []))
            print(
                f"table {record.table_id}  {when}  {s.get('rules', '')}  players: {players}  "
                f"scores {s.get('scores')}  winner: side {s.get('winner')}"
            )
        return 0
    finally:
        journal.close()


def _export(journal: Journal, args: argparse.Namespace) -> int:
    records = {r.table_id: r for r in journal.tables()}
    record = records.get(str(args.export))
    if record is None:
        print(f"scopa-net: no table {args.export} in this journal", file=sys.stderr)
        return 2
    settings = record.settings
    rules = RuleSet.of(settings["players"], settings["target"], settings["variants"])
    if not 0 <= args.seat < rules.players:
        print(f"scopa-net: seat {args.seat} is not a seat at table {args.export}", file=sys.stderr)
        return 2
    from scopa_net.server.host import load_host_key

    table = Table(
        int(record.table_id), settings["name"], rules, load_host_key(journal), bots=settings["bots"]
    )
    table.replay((e.kind, e.payload) for e in journal.entries(record.table_id))
    out = args.out or Path(f"table{args.export}-seat{args.seat}.scopa")
    out.write_bytes(table.transcript_for(args.seat).encode())
    print(f"wrote {out} ({len(table.history)} rounds); check it with `scopa-net verify {out}`")
    return 0
