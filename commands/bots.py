"""``scopa-net bots HOST[:PORT]``: computer players that join a host like any person's client.

Each bot is a real connection speaking the protocol: it takes part in the fair-deal flow and
(unless ``--no-check``) checks every card and round. With ``--create`` the bots open their own
tables and fill them; otherwise they take open seats at the host's tables. This is also the
load generator of ``benchmarks/load.py``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from scopa_net.commands.join import parse_address
from scopa_net.commands.join_password import ask_password, env_password_wrong
from scopa_net.commands.join_tables import UnlistedTable, named_table
from scopa_net.commands.options import (
    BOT_LEVELS,
    DEFAULT_TARGET,
    EXIT_FAILED,
    EXIT_REFUSED,
    EXIT_UNREACHABLE,
    LEVEL_WIRE_NUMBERS,
    PLAYER_CHOICES,
    TARGET_CHOICES,
    CommandError,
    add_bot_options,
    add_command,
    add_old_spelling,
    add_password_option,
    at_least,
    bot_level,
    expert_think,
    password_setting,
    player_for,
    plural,
    said_default,
)
from scopa_net.rules import RuleSet

if TYPE_CHECKING:
    from scopa_net.client.host_search import HostSearch, SharedLook
    from scopa_net.client.network_session import NetworkSession, RefusedError, TableChoice
    from scopa_net.client.session import MatchOver
    from scopa_net.plays import Play
    from scopa_net.wire import messages as m


@dataclass
class BotStats:
    """What a crowd of bots measured: moves made and each move's round trip, in seconds."""

    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    matches: int = 0
    """Matches each bot finished, added up (two bots at a table count its match twice)."""
    finished: set[tuple[int, int]] = field(default_factory=set)
    """The matches the bots finished, each once: (table, match number at that table)."""
    seated: set[tuple[int, int]] = field(default_factory=set)
    """(table, seat) of every bot sent, once seated: a bot plays again only for someone else."""
    failures: list[str] = field(default_factory=list)
    sent: int = 0
    """Bots that went to a seat (fewer than asked for when the host has fewer open seats)."""
    refusals: list[RefusedError] = field(default_factory=list)
    """The host's answers to bots it refused a seat (a wrong password, a full table...)."""

    def failed(self, name: str, exc: BaseException) -> None:
        """One line for a bot that stopped: its name and the first line of why (a failed
        deal check's banner goes on to say where the evidence is; a bot keeps none); a bot the
        host refused a seat, in the words ``join`` says it in."""
        from scopa_net.client.network_session import RefusedError

        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if isinstance(exc, RefusedError):
            from scopa_net.client.launch import session_failure

            self.refusals.append(exc)
            why = f"not seated: {session_failure(exc)}"  # join's words, not the wire's code
        self.failures.append(f"{name}: {why}")

    def all_refused(self) -> RefusedError | None:
        """The host's first refusal when it refused every bot sent (none sat down): that ends
        the command as ``join`` ends when refused."""
        if self.sent and len(self.refusals) == self.sent and not self.matches:
            return self.refusals[0]
        return None


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_command(
        subparsers,
        "bots",
        help="send computer players to a host, as network clients",
        description="Computer players that join a scopa-net host over the network, like any "
        "person's client: they take the open seats at its tables, or with --create open tables "
        "of their own. Each one says when it sits down, how each round ends and who won. "
        "After a match a bot agrees to play again while someone else at its table does; at a "
        "table of computer players only (these, another bots command's, the host's) it says "
        "no, and the command ends once its tables close.",
    )
    p.add_argument("address", help="HOST or HOST:PORT")
    p.add_argument("--count", type=at_least(1), default=1, metavar="N", help="how many bots")
    add_bot_options(
        p,
        level_help="strength of the computer players",
        delay_help="seconds a bot waits before each move (on average)",
    )
    p.set_defaults(bot_delay=0.0)
    add_old_spelling(p, "--level", "--bot-level", "bot_level", bot_level)
    p.add_argument(
        "--table", type=at_least(1), default=None, help="table number (default: every table)"
    )
    add_password_option(
        p, "the table's password, if it has one (with --create: the password of the tables opened)"
    )
    p.add_argument("--create", action="store_true", help="open tables for the bots to fill")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help=f"with --create: seats per table, one of {PLAYER_CHOICES} {said_default(2)}",
    )
    p.add_argument(
        "--target",
        type=int,
        default=None,
        metavar="POINTS",
        help=f"with --create: points to win, {TARGET_CHOICES} {said_default(DEFAULT_TARGET)}",
    )
    p.add_argument("--no-check", action="store_true", help="skip checking deals (load tests)")
    p.add_argument("--seed", type=int, default=None, help="seed for the bots' choices")
    p.add_argument(
        "--stats", action="store_true", help="print move counts and round-trip times at the end"
    )
    p.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scopa_net.client.network_session import SessionError
    from scopa_net.client.sigterm import run_until_stopped
    from scopa_net.commands.join_host import probe

    try:
        host, port = parse_address(args.address)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    lone = [flag for flag in ("players", "target") if getattr(args, flag) is not None]
    if lone and not args.create:
        flags = " and ".join(f"--{flag}" for flag in lone)
        raise CommandError(
            f"{flags} {'is' if len(lone) == 1 else 'are'} for the tables --create opens; "
            "without --create the bots take open seats at the tables there"
        )
    think = expert_think(args.think, args.bot_level)
    rules = RuleSet.of(
        2 if args.players is None else args.players,
        DEFAULT_TARGET if args.target is None else args.target,
    )
    if args.create and args.table is not None:
        raise CommandError(
            "--table is for sending the bots to a table that is there, --create opens new "
            "ones: give one or the other"
        )
    tables = probe(host, port)  # one clear line if there is no host there
    password = password_setting(args.password, os.environ)  # sent only where one is asked
    from_env = args.password is None and password is not None
    unlisted = None  # --table names a table the host did not list: its answer says why
    if not args.create and not listed(tables, args.table):
        where = f"{host}:{port}"
        unlisted = UnlistedTable(
            args.table, where, tuple(tables), opens_a_table=f"scopa-net bots {where} --create"
        )
    elif not args.create:
        tables = _chosen_tables(tables, args.table, f"{host}:{port}")
        if args.table is not None and tables[0].password and password is None:
            password = ask_password(args.table)  # as join asks it
        if not open_seats(tables, locked=password is not None):
            locked = (
                " without a password; give the table's --password (and --table N), or"
                if open_seats(tables, locked=True)
                else ";"
            )
            raise CommandError(
                f"no table at {host}:{port} has an open seat{locked} `scopa-net bots "
                f"{args.address} --create` opens tables for the bots",
                EXIT_REFUSED,
            )
    started = time.perf_counter()
    plan = BotPlan(
        level=player_for(args.bot_level),
        delay=args.bot_delay,
        think=think,
        check=not args.no_check,
    )
    report = None if args.quiet else _print_now
    try:
        stats = run_until_stopped(  # SIGTERM: "stopped by SIGTERM", 143; Ctrl-C: 130
            partial(
                run_bots,
                host,
                port,
                args.count,
                plan,
                create=rules if args.create else None,
                seed=args.seed,
                report=report,
                table=args.table,
                password=password,
                tables=tables,
            )
        )
    except (OSError, SessionError) as exc:
        raise CommandError(f"lost {host}:{port}: {exc}", EXIT_UNREACHABLE) from None
    refused = stats.all_refused()
    said = (
        unlisted.refused(refused.code, password is not None, refused.message)
        if unlisted and refused
        else None
    )
    if said is not None:  # full, over, or not there: as join --table N says it
        raise CommandError(said, EXIT_REFUSED)
    if refused is not None and refused.code == "bad_password" and from_env:
        raise CommandError(env_password_wrong(args.table), EXIT_REFUSED)
    if refused is not None:  # a wrong password, a full table: join's line and status
        from scopa_net.client.launch import session_failure

        raise session_failure(refused)
    elapsed = time.perf_counter() - started
    done = len(stats.finished)
    print(
        f"{plural(stats.sent, 'bot')} sent, {done} {'match' if done == 1 else 'matches'} "
        f"finished, in {elapsed:.0f} s"
    )
    if args.stats:
        print(f"{stats.moves} moves")
        if stats.latencies:
            ms = sorted(x * 1000 for x in stats.latencies)
            print(
                f"move round trip: median {statistics.median(ms):.1f} ms, "
                f"p99 {ms[int(len(ms) * 0.99) - 1]:.1f} ms"
            )
    for failure in stats.failures[:10]:
        print(f"failure: {failure}", file=sys.stderr)
    return EXIT_FAILED if stats.failures else 0


def _print_now(line: str) -> None:
    print(line, flush=True)


@dataclass(frozen=True)
class BotPlan:
    """How each bot plays: level, pause before a move, an expert's time to think about it,
    whether it checks the deals."""

    level: str = "greedy"
    delay: float = 0.0
    think: float = 1.0
    check: bool = True


async def run_bots(
    host: str,
    port: int,
    count: int,
    plan: BotPlan,
    *,
    create: RuleSet | None = None,
    seed: int | None = None,
    stats: BotStats | None = None,
    report: Callable[[str], None] | None = None,
    table: int | None = None,
    password: str | None = None,
    tables: Sequence[m.TableInfo] | None = None,
) -> BotStats:
    """Run ``count`` bots until their tables close; with ``create``, on tables they open.

    After each match a bot says yes to playing again while someone else sits at its table
    (a person, or another program's player): then it plays every new match agreed there.
    At a table of computer players only (this call's bots, other ``bots`` commands' ones,
    known by their names, and the host's), it says no, so the table closes after one match.

    ``table``: only at that table. ``password``: given at tables that have one (the bots also
    take seats there), and set on the tables ``create`` opens. ``tables``: the host's
    tables as the caller just listed them (``run``'s probe), so that they are not asked for
    twice; None: asked here.

    ``stats`` (made if not given) fills as they play, so a caller can read it while they run.
    ``report``, if given, is told in a line when a bot sits down, a round ends, a match ends.
    """
    import trio

    from scopa_net.client.host_search import SharedLook
    from scopa_net.client.network_session import TableChoice, list_tables
    from scopa_net.wire import messages as m

    stats = stats if stats is not None else BotStats()
    look = SharedLook()  # a host that moves is looked for on the LAN once for all the bots
    rng = random.Random(seed)
    names = (f"bot-{i}" for i in itertools.count(1))  # read back by is_bots_player
    async with trio.open_nursery() as nursery:
        if create is not None:
            per_table = create.players
            for first in range(0, count, per_table):
                seats = min(per_table, count - first)
                request = m.CreateTable(
                    name=f"bots {first // per_table + 1}",
                    rules=m.RulesInfo.of(create),
                    password=password,
                    bots=per_table - seats,
                    bot_level=_WIRE_NUMBER_OF_PLAYER.get(plan.level, 2),
                )
                crowd = _Crowd(host, port, plan, stats, names=names, seed=rng.random(), look=look)
                crowd.report = report
                nursery.start_soon(crowd.fill_table, request, seats)
        else:
            if tables is None:  # (not listed by the caller)
                tables = await list_tables(host, port)
            if not listed(tables, table):
                # Not listed (full, over, or none): one bot asks, and the host's no says
                # which (protocol.md 3.3); a seat opened meanwhile is simply taken.
                crowd = _Crowd(host, port, plan, stats, names=names, seed=rng.random(), look=look)
                crowd.report = report
                choice = TableChoice(table_id=table, seat=None, password=password)
                nursery.start_soon(crowd.one_bot, choice, 0)
                return stats
            if table is not None:
                tables = tuple(t for t in tables if t.id == table)
            free = open_seats(tables, locked=password is not None)
            locked = {t.id: password for t in tables if t.password}
            if report is not None and len(free) < count:
                seats = "1 open seat" if len(free) == 1 else f"{len(free)} open seats"
                report(f"{seats} at {host}:{port}; sending {plural(len(free), 'bot')}")
            for table_id, seat in free[:count]:
                crowd = _Crowd(host, port, plan, stats, names=names, seed=rng.random(), look=look)
                crowd.report = report
                choice = TableChoice(table_id=table_id, seat=seat, password=locked.get(table_id))
                nursery.start_soon(crowd.one_bot, choice, 0)
    return stats


_BOTS_NAME = re.compile(r"bot-[0-9]+(?: \([0-9]+\))?")


def is_bots_player(name: str) -> bool:
    """Whether ``name`` is one ``scopa-net bots`` gives its players: ``bot-1``, ``bot-2``...,
    and ``bot-1 (2)`` where the host told two commands' ``bot-1`` apart. To the host such a
    player is a person's client (seat kind ``human``); a person who takes such a name is
    taken for a computer player by other ``bots`` commands, which then do not play again."""
    return _BOTS_NAME.fullmatch(name) is not None


def listed(tables: Sequence[m.TableInfo], table: int | None) -> bool:
    """Whether the table ``--table`` names is in the host's list (protocol.md 3.3 lists only
    tables with an open seat whose match is not over); True with no ``--table``."""
    return table is None or any(t.id == table for t in tables)


def _chosen_tables(
    tables: Sequence[m.TableInfo], table_id: int | None, where: str
) -> Sequence[m.TableInfo]:
    """The tables the bots may sit at: all, or the one ``--table`` names if it has an open
    seat (else CommandError, in join's words)."""
    if table_id is None:
        return tables
    return (named_table(tuple(tables), table_id, None, where),)


def open_seats(tables: Sequence[m.TableInfo], *, locked: bool = False) -> list[tuple[int, int]]:
    """(table, seat) of every open seat a bot can take: at tables without a password, or
    with ``locked`` (a password given) at any table."""
    return [
        (t.id, seat)
        for t in tables
        if locked or not t.password
        for seat, info in enumerate(t.seats)
        if info.kind == "open"
    ]


_WIRE_NUMBER_OF_PLAYER = {BOT_LEVELS[name]: n for name, n in LEVEL_WIRE_NUMBERS.items()}
"""The ``create_table`` level number for each computer player (``random`` is 1)."""


class _Crowd:
    """The bots of one table."""

    def __init__(
        self,
        host: str,
        port: int,
        plan: BotPlan,
        stats: BotStats,
        *,
        names: Iterator[str],
        seed: float,
        look: SharedLook | None = None,
    ) -> None:
        """``look``: how the bots look for their host on the LAN by its key when it is not
        where it was (as a person's client does); None: they do not."""
        self.host, self.port, self.plan, self.stats = host, port, plan, stats
        self.names = names
        self.seed = seed
        self.look = look
        self.report: Callable[[str], None] | None = None

    async def fill_table(self, request: m.CreateTable, seats: int) -> None:
        import trio

        from scopa_net.client.network_session import (
            LINK_ERRORS,
            SessionError,
            TableChoice,
            open_network_session,
        )

        opened = trio.Event()
        table: list[int] = []

        async def creator() -> None:
            name = next(self.names)
            self.stats.sent += 1
            try:
                async with open_network_session(
                    self.host,
                    self.port,
                    TableChoice(create=request),
                    name=name,
                    check_deals=self.plan.check,
                    offer_rematch=True,
                    lan_search=self.lan_search(),
                ) as session:
                    table.append(session.table_id)
                    opened.set()
                    await self._play(session, 0, name)
            except (SessionError, *LINK_ERRORS) as exc:
                # A failure is counted, as the other bots' are (a failed deal check, a refused
                # table), not raised through the nursery as a traceback.
                self.stats.failed(name, exc)
            finally:
                opened.set()  # the others stop waiting if the table was never opened

        async with trio.open_nursery() as nursery:
            nursery.start_soon(creator)
            await opened.wait()
            for n in range(1, seats if table else 0):
                nursery.start_soon(self.one_bot, TableChoice(table_id=table[0], seat=n), n)

    def lan_search(self) -> HostSearch | None:
        """One bot's search for its host on the LAN, through the bots' one look."""
        from scopa_net.client.host_search import HostSearch

        return None if self.look is None else HostSearch(self.look)

    async def one_bot(self, choice: TableChoice, n: int) -> None:
        """One bot to a seat of a table that is there. A connection that fails before the
        bot sits (a reset, the host restarting) is tried again, with the client's backoff, for
        as long as a seated player keeps trying to get back: the table it was sent to (one
        its companion just opened, say) would otherwise wait for it for ever."""
        import trio

        from scopa_net.client.network_session import (
            BACKOFF,
            LINK_ERRORS,
            RECONNECT_FOR,
            SessionError,
            open_network_session,
        )

        name = next(self.names)
        self.stats.sent += 1
        give_up_at = trio.current_time() + RECONNECT_FOR
        for attempt in itertools.count():
            seated = False
            try:
                async with open_network_session(
                    self.host,
                    self.port,
                    choice,
                    name=name,
                    check_deals=self.plan.check,
                    offer_rematch=True,
                    lan_search=self.lan_search(),
                ) as session:
                    seated = True
                    await self._play(session, n, name)
                return
            except SessionError as exc:
                self.stats.failed(name, exc)
                return
            except LINK_ERRORS as exc:
                if seated or trio.current_time() >= give_up_at:
                    self.stats.failed(name, exc)
                    return
            await trio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])

    async def _play(self, session: NetworkSession, n: int, name: str) -> None:
        import trio

        from scopa_net.client.bot_client import play_matches
        from scopa_net.server.thinking import table_player

        plan, stats = self.plan, self.stats
        player, clock = table_player(plan.level, int(self.seed * 2**31) + n, plan.think)
        rng = random.Random(self.seed + n)
        original = session.submit

        async def timed_submit(play: Play) -> object:
            if plan.delay:
                await trio.sleep(rng.uniform(0.5 * plan.delay, 1.5 * plan.delay))
            started = trio.current_time()
            record = await original(play)
            stats.latencies.append(trio.current_time() - started)
            stats.moves += 1
            return record

        session.submit = timed_submit  # type: ignore[method-assign]
        table = session.table_id
        assert table is not None
        stats.seated.add((table, session.seat))
        where = f"table {table} seat {session.seat}"
        if self.report is not None:
            self.report(f"{name}: seated at {where}")
            watched: Any = _Reporting(session, partial(self._say, f"{name} ({where})"))
        else:
            watched = session

        def match_over(_: MatchOver) -> None:
            stats.matches += 1
            stats.finished.add((table, session.match_no))

        def play_again(_: MatchOver) -> bool:
            """Yes while someone other than computer players sits at the table: this
            command's, another ``bots`` command's (by name) or the host's."""
            names = session.names
            agree = any(
                kind == "human"
                and (table, seat) not in stats.seated
                and not (seat < len(names) and is_bots_player(names[seat]))
                for seat, kind in enumerate(session.seat_kinds)
            )
            if not agree and isinstance(watched, _Reporting):
                watched.declined = True  # its own line, not the table's "bot-1 said no"
                self._say(f"{name} ({where})", "no rematch: only computer players at the table")
            return agree

        await play_matches(watched, player, clock, play_again=play_again, on_match=match_over)
        if session.verdict_failures and session.deal_failure is None:
            # (A failed deal check also ends the session: it is counted once, from there.)
            stats.failures.extend(f"{name}: {f}" for f in session.verdict_failures)

    def _say(self, who: str, text: str) -> None:
        if self.report is not None:
            self.report(f"{who}: {text}")


class _Reporting:
    """A session whose round and match results are told in a line as they arrive, and
    whether its table plays again."""

    def __init__(self, session: NetworkSession, say: Callable[[str], None]) -> None:
        self._session = session
        self._say = say
        self.events = self
        self._table_said = ""
        self.declined = False
        """This bot said no to playing again: the table's line on why it closes is not said."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    async def receive(self) -> object:
        from scopa_net.client.reconnection import HOST_MOVED
        from scopa_net.client.scoresheet import rounds_taken
        from scopa_net.client.session import (
            MatchOver,
            MatchStarted,
            Message,
            RematchClosed,
            RoundOver,
        )

        event = await self._session.events.receive()
        seat = self._session.seat
        rules = self._session.rules
        mine = rules.side_of(seat) if rules is not None else seat
        if isinstance(event, RoundOver | MatchOver):
            # A match's end names a seat by everyone who held it ("Dino, then a computer").
            names = self._session.match_names if isinstance(event, MatchOver) else None
            sides = sides_scored(event.match_scores, mine, rules, names or self._session.names)
        if isinstance(event, RoundOver):
            self._say(f"round over; match score: {sides}")
        elif isinstance(event, MatchOver):
            outcome = "won" if event.winner == mine else "lost"
            after = rounds_taken(event.rounds, event.voids)
            self._say(f"match over after {after}, {outcome}: {sides}")
        elif isinstance(event, MatchStarted):
            self._say(f"everyone agreed: match {self._session.match_no} begins")
        elif isinstance(event, Message) and event.table:
            self._table_said = event.text
        elif isinstance(event, Message) and event.local and event.text.startswith(HOST_MOVED):
            self._say(event.text)  # followed on the LAN by its key
        elif isinstance(event, RematchClosed) and not self.declined:
            self._say(self._table_said)  # "no rematch (Dino said no): the table is closing"
        return event


def sides_scored(
    scores: tuple[int, ...], mine: int, rules: RuleSet | None, names: Sequence[str]
) -> str:
    """A match score as the client's score lines say it, each side named by its players
    and the bot's own side first: ``Dino & bot-2: 5, Carla & bot-3: 3`` (a colon where a
    name ends in a digit, as :func:`~scopa_net.score_line.after_name` says; else ``Ada 5``)."""
    from scopa_net.score_line import after_name

    def side(number: int) -> str:
        seats = rules.seats_of(number) if rules is not None else (number,)
        return " & ".join(names[s] if s < len(names) else f"seat {s}" for s in seats)

    order = [mine, *(n for n in range(len(scores)) if n != mine)]
    mark = after_name(side(n) for n in order)
    return ", ".join(f"{side(n)}{mark}{scores[n]}" for n in order)
