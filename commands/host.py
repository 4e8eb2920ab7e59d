"""``scopa-net host``: run a host, with its tables and its journal (``history`` reads it)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import re
import socket
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from scopa_net.commands.journal_files import (
    JournalLock,
    check_db_path,
    check_host_key,
    journal_folder,
    open_journal,
)
from scopa_net.commands.options import (
    DEFAULT_BOT_LEVEL,
    DEFAULT_TARGET,
    DEFAULT_THINK,
    EXIT_LOCAL,
    LEVEL_WIRE_NUMBERS,
    PASSWORD_VARIABLE,
    CommandError,
    add_blind_option,
    add_bot_delay_option,
    add_bot_options,
    add_command,
    add_old_spelling,
    add_password_option,
    add_rule_options,
    add_think_option,
    at_least,
    blind_table,
    check_bots,
    file_name,
    grace_seconds,
    host_name,
    password_setting,
    plural,
    port_number,
    seconds,
    table_name,
    table_rules,
    variants_epilog,
)
from scopa_net.commands.paths import default_host_db
from scopa_net.commands.progress import Progress
from scopa_net.commands.stop_signals import HANGUP, StopSignals
from scopa_net.rules import RuleSet
from scopa_net.server.config import DEFAULT_PORT, HostConfig
from scopa_net.typed import shown

if TYPE_CHECKING:
    from scopa_net.server.host import Host
    from scopa_net.server.journal import Journal
    from scopa_net.server.table import Table

log = logging.getLogger("scopa_net.host")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_command(
        subparsers,
        "host",
        help="host tables on this machine for players on the LAN",
        description="Run a scopa-net host. With --players it also opens a table at once.",
        epilog=variants_epilog(),
    )
    p.add_argument(
        "--host",
        dest="bind",
        default="0.0.0.0",
        help="address to listen on: 0.0.0.0 is the whole LAN, 127.0.0.1 this machine only",
    )
    p.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, metavar="PORT", help="port to listen on"
    )
    p.add_argument(
        "--host-name",
        dest="name",
        type=host_name,
        default=os.uname().nodename or "scopa-net",
        metavar="NAME",
        help="the host's name on the LAN",
    )
    # `--name` is a player's name in `play` and `join`: the host's is --host-name.
    add_old_spelling(p, "--name", "--host-name", dest="name", type=host_name)
    p.add_argument(
        "--db",
        type=file_name,
        default=None,
        help="journal database (default: host.db in the data directory; ':memory:' keeps nothing)",
    )
    p.add_argument("--no-advertise", action="store_true", help="do not announce on the LAN")
    p.add_argument(
        "--quiet", action="store_true", help="no progress line while restoring the journal"
    )
    p.add_argument(
        "--log-level",
        default="INFO",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="how much the host writes to its log on stderr: DEBUG every message, ERROR only "
        "failures",
    )
    p.add_argument(
        "--max-per-address",
        type=at_least(1),
        default=HostConfig().max_connections_per_address,
        metavar="N",
        help="connections allowed from one address (raise it for load tests)",
    )
    p.add_argument(
        "--max-tables-per-address",
        type=at_least(1),
        default=HostConfig().max_tables_per_address,
        metavar="N",
        help="tables one address may have open at once; one whose match is over for good "
        "does not count (raise it for load tests)",
    )
    p.add_argument(
        "--max-tables",
        type=at_least(1),
        default=HostConfig().max_tables,
        metavar="N",
        help="tables the host serves at once; one whose match is over for good does not "
        "count (raise it for load tests)",
    )
    p.add_argument(
        "--grace",
        type=grace_seconds,
        default=60.0,
        metavar="SECONDS",
        help="seconds a dropped player's seat waits before a bot stands in",
    )
    p.add_argument(
        "--away-limit",
        type=seconds,
        default=HostConfig().away_limit,
        metavar="SECONDS",
        help="seconds a player may be away, a computer playing for them, before a newcomer "
        "may take their seat (they keep it if they come back first)",
    )
    add_bot_delay_option(
        p, "seconds a computer player waits before each move, so people can follow"
    )
    add_think_option(p)
    table = p.add_argument_group("a table to open at start")
    add_rule_options(table, players=None, when="opens a table: ")
    table.add_argument(
        "--bots",
        type=int,
        default=0,
        metavar="N",
        help="opens a table: seats given to computer players",
    )
    add_bot_options(
        table, level_help="opens a table: strength of the computer players", think=False
    )
    add_password_option(table, "opens a table: needed to join the table")
    add_blind_option(table, when="opens a table: ")
    table.add_argument(
        "--table-name",
        type=table_name,
        metavar="NAME",
        help="opens a table: the table's name in listings (default: its number, as in 'table 2')",
    )
    p.set_defaults(run=run_host)


def _db_path(arg: str | None) -> str:
    return arg if arg is not None else str(default_host_db(os.environ))


_LISTEN_ON = "use 0.0.0.0 (the whole LAN) or 127.0.0.1 (this machine only)"


def check_address(bind: str, port: int) -> None:
    """Refuse an address this machine cannot listen on, with what to do instead."""
    try:
        infos = socket.getaddrinfo(bind, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        if not bind.strip() or re.fullmatch(r"[0-9.]+|.*:.*", bind):
            raise CommandError(f"--host {shown(bind)} is not an address; {_LISTEN_ON}") from None
        # A name this machine cannot find is an address that is not here (README: status 5).
        raise CommandError(
            f"--host {shown(bind)}: this machine finds no address called that; {_LISTEN_ON}",
            EXIT_LOCAL,
        ) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise CommandError(_bind_failure(bind, port, exc), EXIT_LOCAL) from None


def _bind_failure(bind: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {port} is already in use on {bind} (another host?); stop it, "
            "or pick another port with --port N (0: any free one)"
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"--host {bind}: not an address of this machine; {_LISTEN_ON}"
    if exc.errno == errno.EACCES:
        return f"port {port} needs administrator rights; pick one above 1023 with --port N"
    return f"cannot listen on {bind}:{port}: {exc.strerror or exc}"


def _table_flags_given(args: argparse.Namespace) -> list[str]:
    """The flags of "a table to open at start" given without --players (which they need)."""
    given = {
        "--bots": args.bots != 0,
        "--bot-level": args.bot_level != DEFAULT_BOT_LEVEL,
        "--password": args.password is not None,
        "--variant": bool(args.variant),
        "--target": args.target != DEFAULT_TARGET,
        "--blind": args.blind is not None,
        "--table-name": args.table_name is not None,
    }
    return [flag for flag, yes in given.items() if yes]


def run_host(args: argparse.Namespace) -> int:
    import trio

    from scopa_net.server import collector

    rules = None
    if args.players is not None:
        rules = table_rules(args.players, args.target, args.variant)
        check_bots(args.bots, args.players)
        args.password_from_env = args.password is None  # said where it came from (below)
        args.password = password_setting(args.password, os.environ)  # the table it opens
    elif table_flags := _table_flags_given(args):
        table_rules(None, args.target, args.variant)  # scopone says --players 4, as play does
        verb = "opens" if len(table_flags) == 1 else "open"
        raise CommandError(f"{', '.join(table_flags)} {verb} a table: give --players too")
    check_address(args.bind, args.port)
    db = _db_path(args.db)
    journal_folder(db, chosen=args.db is not None)
    logging.basicConfig(
        level=args.log_level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s"
    )
    config = HostConfig(
        name=args.name,
        bind=args.bind,
        port=args.port,
        db=db,
        advertise=not args.no_advertise,
        grace=args.grace,
        away_limit=args.away_limit,
        max_connections_per_address=args.max_per_address,
        max_tables_per_address=args.max_tables_per_address,
        max_tables=args.max_tables,
        bot_delay=args.bot_delay,
        think=DEFAULT_THINK if args.think is None else args.think,
    )
    check_db_path(db, create=True)
    # Caught from here: a stop signal while the journal opens (its terminal closed as the
    # host started) ends it as it ends a host that listens, before it listens (0); SIGHUP
    # and SIGTERM killed it there, and Ctrl-C ended it 130.
    with (
        StopSignals() as stop,
        JournalLock(db),
        open_journal(db, create=True) as journal,  # closed on every path
    ):
        check_host_key(journal)
        if stop.received is not None:
            log.info("signal %s: stopped before listening", stop.received.name)
            if journal.path != ":memory:":
                said_unless_hung_up(stop, stopped_before_listening(journal))
            return 0
        collector.install()  # no collector pauses with many tables: the host sweeps (see there)
        try:
            trio.run(serve_until_signalled, config, journal, rules, args, stop)
        except OSError as exc:
            raise CommandError(_bind_failure(args.bind, args.port, exc), EXIT_LOCAL) from None
        except BaseExceptionGroup as group:
            matched, _ = group.split(OSError)
            if matched is None:
                raise
            first = _first_leaf(matched)
            raise CommandError(_bind_failure(args.bind, args.port, first), EXIT_LOCAL) from None
    return 0


def _first_leaf(group: BaseExceptionGroup) -> OSError:
    while isinstance(group, BaseExceptionGroup):
        group = group.exceptions[0]
    return group  # type: ignore[return-value]


async def serve_until_signalled(
    config: HostConfig,
    journal: Journal,
    rules: RuleSet | None,
    args: argparse.Namespace,
    stop: StopSignals,
) -> None:
    """Run the host until Ctrl-C or SIGTERM (``stop``), its normal end: every table is then
    saved in the journal, and the same command resumes those still open (status 0). With the journal
    refusing writes, the stop waits a moment for it, then says what is not saved (status 5)."""
    import trio

    from scopa_net.fair.commitments import fingerprint
    from scopa_net.server.announce import advertise
    from scopa_net.server.host import Host

    host = Host(config, journal)
    restoring: list[Progress] = []

    def restored(done: int, total: int) -> None:
        with _unless_hung_up(stop):
            if not restoring:
                restoring.append(Progress("restoring", total, "tables", quiet=args.quiet))
            restoring[0].advance()
            if done == total:
                restoring[0].close()

    host.on_restored = restored
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.serve)
        lines = [f"host key {fingerprint(host.public_key)} (players see it when they join)"]
        if restoring:
            lines.append(resumed_line(host))
        if rules is not None:
            lines.append(await _open_table(host, rules, args))
        lines += where_to_join(config.bind, port, announced=config.advertise)
        for line in lines:  # stdout: what a person reads; the log goes to stderr
            said_unless_hung_up(stop, line)
        if config.advertise:
            nursery.start_soon(advertise, host)
        signum = await stop.wait()
        log.info("signal %s: shutting down", signum.name)
        # A table closed for good (or none ever opened) is not resumed: nothing to say it is.
        open_tables = any(not task.closed_for_good for task in host.tables.values())
        await host.shutdown()
        since, moves = host.writer.failing_since, host.writer.unsaved_moves()
        nursery.cancel_scope.cancel()
    journal.close()
    if since is not None:
        raise CommandError(not_saved_line(journal.path, since, moves), EXIT_LOCAL)
    if journal.path != ":memory:":
        said_unless_hung_up(stop, stopped_line(journal.path, open_tables))


def stopped_before_listening(journal: Journal) -> str:
    """What a host stopped as it starts, before it listens, says: where the tables a start
    brings back are kept, or, the journal holding none (new, or every table closed), that
    there is nothing to resume."""
    from scopa_net.server.host import resumed_on_start

    now = time.time()
    if not any(resumed_on_start(record, now) for record in journal.tables()):
        return "stopped before listening; no table was open, so there is nothing to resume"
    return (
        f"stopped before listening; the tables are saved in {journal.path}: the same command "
        "resumes them"
    )


def stopped_line(path: str, open_tables: bool) -> str:
    """What a host stopped well says last: where its tables are kept for the same command to
    resume, or, with no table open (closed, or none opened), that there is nothing to resume."""
    if not open_tables:
        return "stopped; no table was open, so there is nothing to resume"
    return f"stopped; the tables are saved in {path}: the same command resumes them"


@contextlib.contextmanager
def _unless_hung_up(stop: StopSignals) -> Iterator[None]:
    """A write to the host's terminal failing because it hung up (SIGHUP came, or is on its
    way: the kernel fails the writes first) is nobody to tell, and no reason to fail; it
    stops the host as SIGHUP does. Any other failure is raised."""
    from scopa_net.client.sigterm import terminal_hung_up

    try:
        yield
    except OSError:
        if stop.received != HANGUP and not terminal_hung_up():
            raise
        stop.hung_up()
        # What stdout could not take stays in its buffer: it goes nowhere, so that Python's
        # last flush does not fail too (which makes the status 120). stderr, the log, may
        # still go to a file.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def said_unless_hung_up(stop: StopSignals, line: str) -> None:
    """``line`` printed on stdout, unless the terminal it goes to hung up (see above)."""
    with _unless_hung_up(stop):
        print(line, flush=True)


def not_saved_line(path: str, since: float, moves: int) -> str:
    """What a host stopped with its journal refusing writes says: where, since when (local
    time, ``since`` in seconds since the epoch), and how many moves are lost."""
    if moves == 0:
        lost = "no move is lost, but what the tables did since may not be saved"
    elif moves == 1:
        lost = "the last move is not saved"
    else:
        lost = f"the last {moves} moves are not saved"
    when = time.strftime("%H:%M", time.localtime(since))
    return f"stopped; the journal at {path} could not be written since {when}: {lost}"


def resumed_line(host: Host) -> str:
    """What a restart resumed, in one line: ``resumed 2 tables (1 in play, 1 waiting for
    players): table 1 'back room' (Bruno, Carla); table 2 'table 2'``."""
    from scopa_net.server.table import Phase

    phases = [task.table.phase for task in host.tables.values()]
    kinds = {
        "in play": sum(p not in (Phase.WAITING, Phase.OVER) for p in phases),
        "waiting for players": phases.count(Phase.WAITING),
        "just finished": phases.count(Phase.OVER),
    }
    said = ", ".join(f"{n} {kind}" for kind, n in kinds.items() if n)
    line = f"resumed {plural(len(phases), 'table')}" + (f" ({said})" if said else "")
    tables = [_who_sits(task.table) for _, task in sorted(host.tables.items())]
    line += ": " + "; ".join(tables) if tables else ""
    for table_id, (name, why) in sorted(host.closed_at_restore.items()):
        line += f"; closed table {table_id}" + (f" '{name}'" if name else "") + f": {why}"
    return line


def _who_sits(table: Table) -> str:
    """A table and the people seated at it, for the restart's line: ``table 2 'back room'
    (Bruno, Carla)``; just the table while nobody is."""
    from scopa_net.server.table import SeatKind

    names = [s.name for s in table.seats if s.kind is SeatKind.HUMAN and s.name]
    from scopa_net.names import table_label

    return table_label(table.table_id, table.name) + (f" ({', '.join(names)})" if names else "")


async def _open_table(host: Host, rules: RuleSet, args: argparse.Namespace) -> str:
    """Open the table the flags ask for, unless a restart resumed one like it whose match is
    not over (waiting for players, or in play): the same command run again gives the same
    table, not one more."""
    from scopa_net.names import clean_table_name, table_label
    from scopa_net.server.host import table_settings
    from scopa_net.server.table import Phase

    level = LEVEL_WIRE_NUMBERS[args.bot_level]
    blind = blind_table(args.blind, rules.players - args.bots)
    settings = table_settings(
        clean_table_name(args.table_name or ""), rules, args.password, args.bots, level, blind=blind
    )
    task = host.open_table_like(settings)
    if task is not None:
        task.expires = False  # the host's own table again: it stays when left alone
        table = task.table
        going = "" if table.phase is Phase.WAITING else ", its match going on"
        label = table_label(table.table_id, table.name)
        return f"{label} is open again{going}: {_described(table, args)}"
    others = _going_on_like(host, settings)  # before this one: opened with other settings
    task = await host.create_table(  # without --table-name, named by its number
        args.table_name or "", rules, args.password, args.bots, level, blind=blind
    )
    line = f"{table_label(task.table.table_id, task.table.name)} is open: "
    line += _described(task.table, args)
    for other in others:
        line += f"\n{table_label(other.table_id, other.name)}, opened with "
        line += _other_settings(host.settings_of(other.table_id), settings)
        line += ", still waits for players" if other.phase is Phase.WAITING else ", plays on"
    return line


def _going_on_like(host: Host, settings: dict) -> list[Table]:
    """Tables waiting for players or in play under the name ``settings`` asks for (``Table
    A``, ``Table A (2)``; no name asked: each named by its own number): a restart with another
    --password or rules opens a new one beside them."""
    from scopa_net.server.host import same_name
    from scopa_net.server.table import Phase

    return [
        task.table
        for table_id, task in host.tables.items()
        if task.table.phase is not Phase.OVER
        and not task.closed_for_good
        and same_name(task.table.name, settings["name"] or f"table {table_id}")
    ]


def _other_settings(opened: dict, asked: dict) -> str:
    """How a table like the one asked was opened otherwise (both as :func:`table_settings`
    says them), as its organiser can tell: a restart in a shell without $SCOPA_NET_PASSWORD
    opened a second table, without a word on why. "a password (none is given now: ...)",
    "another password", "target 3", ..., else "other settings"."""
    said = []
    if opened["password"] != asked["password"]:
        if asked["password"] is None:
            said.append(f"a password (none is given now: --password or ${PASSWORD_VARIABLE})")
        else:
            said.append("no password" if opened["password"] is None else "another password")
    for key, words in (
        ("players", f"{opened['players']} players"),
        ("target", f"target {opened['target']}"),
        ("variants", "variants: " + (", ".join(opened["variants"]) or "none")),
        ("bots", f"--bots {opened['bots']}"),
        ("blind", "a blind table" if opened.get("blind") else "an ordinary table"),
    ):
        if opened.get(key) != asked.get(key):
            said.append(words)
    return ", ".join(said) or "other settings"


def _described(table: Table, args: argparse.Namespace) -> str:
    """Its rules, whether it is blind and whether it asks for a password (as ``join`` lists
    them: ``[blind]``, ``[password]``), and a password's source when no flag gave it: a
    variable left set in the shell would otherwise lock the table unnoticed."""
    described = table.rules.describe() + ("; blind" if table.blind else "")
    if not table.password:
        return described
    source = f" (the one ${PASSWORD_VARIABLE} gives)" if args.password_from_env else ""
    return f"{described}; password needed{source}"


def where_to_join(bind: str, port: int, *, announced: bool) -> list[str]:
    """What the host says at start: the exact command for each address players can use."""
    from scopa_net.server.discovery import (
        WILDCARD_ANY,
        WILDCARD_V4,
        join_address,
        lan_addresses,
    )

    addresses = lan_addresses(bind)
    if not addresses and bind in WILDCARD_V4 + WILDCARD_ANY:  # no network: loopback only
        here = "127.0.0.1" if bind in WILDCARD_V4 else "::1"
        return [
            f"scopa-net host listening on port {port}; this machine has no LAN address, so "
            "only players on this machine can join, with:",
            f"  scopa-net join {join_address(here, port)}",
        ]
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
