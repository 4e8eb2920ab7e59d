"""``scopa-net bots HOST[:PORT]``: computer players that join a host like any person's client.

Each bot is a real connection speaking the protocol: it takes part in the fair-deal flow and
(unless ``--no-check``) checks every card and round. With ``--create`` the bots open their own
tables and fill them; otherwise they take open seats at the host's tables. This is also the
load generator of ``benchmarks/load.py``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial

import trio

from scopa_net.bots.levels import LEVELS, make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.embedded import LEVEL_NUMBERS
from scopa_net.client.network_session import (
    NetworkSession,
    SessionError,
    TableChoice,
    list_tables,
    open_network_session,
)
from scopa_net.commands.join import parse_address
from scopa_net.plays import Play
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


@dataclass
class BotStats:
    """What a crowd of bots measured: moves made and each move's round trip, in seconds."""

    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    matches: int = 0
    failures: list[str] = field(default_factory=list)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "bots",
        help="send computer players to a host, as network clients",
        description="Computer players that join a scopa-net host over the network.",
    )
    p.add_argument("address", help="HOST or HOST:PORT")
    p.add_argument("--count", type=int, default=1, help="how many bots (default 1)")
    p.add_argument("--level", default="greedy", choices=tuple(LEVELS))
    p.add_argument("--create", action="store_true", help="open tables for the bots to fill")
    p.add_argument("--players", type=int, default=2, help="with --create: seats per table")
    p.add_argument("--target", type=int, default=11, help="with --create: points to win")
    p.add_argument("--think", type=float, default=0.0, help="seconds to wait before each move")
    p.add_argument("--no-check", action="store_true", help="skip checking deals (load tests)")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        host, port = parse_address(args.address)
        rules = RuleSet.of(args.players, args.target)
    except ValueError as exc:
        print(f"scopa-net: {exc}", file=sys.stderr)
        return 2
    if args.count < 1:
        print("scopa-net: --count must be at least 1", file=sys.stderr)
        return 2
    started = time.perf_counter()
    plan = BotPlan(level=args.level, think=args.think, check=not args.no_check)
    stats = trio.run(
        partial(
            run_bots,
            host,
            port,
            args.count,
            plan,
            create=rules if args.create else None,
            seed=args.seed,
        )
    )
    elapsed = time.perf_counter() - started
    print(
        f"{args.count} bots, {stats.matches} matches finished, {stats.moves} moves "
        f"in {elapsed:.1f} s"
    )
    if stats.latencies:
        ms = sorted(x * 1000 for x in stats.latencies)
        print(
            f"move round trip: median {statistics.median(ms):.1f} ms, "
            f"p99 {ms[int(len(ms) * 0.99) - 1]:.1f} ms"
        )
    for failure in stats.failures[:10]:
        print(f"failure: {failure}", file=sys.stderr)
    return 1 if stats.failures else 0


@dataclass(frozen=True)
class BotPlan:
    """How each bot plays: level, think time before a move, whether it checks the deals."""

    level: str = "greedy"
    think: float = 0.0
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
) -> BotStats:
    """Run ``count`` bots until their matches end; with ``create``, on tables they open.

    ``stats`` (made if not given) fills as they play, so a caller can read it while they run.
    """
    stats = stats if stats is not None else BotStats()
    rng = random.Random(seed)
    names = (f"bot-{i}" for i in itertools.count(1))
    async with trio.open_nursery() as nursery:
        if create is not None:
            per_table = create.players
            for first in range(0, count, per_table):
                seats = min(per_table, count - first)
                request = m.CreateTable(
                    name=f"bots {first // per_table + 1}",
                    rules=m.RulesInfo.of(create),
                    password=None,
                    bots=per_table - seats,
                    bot_level=LEVEL_NUMBERS.get(plan.level, 2),
                )
                crowd = _Crowd(host, port, plan, stats, names=names, seed=rng.random())
                nursery.start_soon(crowd.fill_table, request, seats)
        else:
            tables = await list_tables(host, port)
            free = [
                (t.id, s) for t in tables for s, info in enumerate(t.seats) if info.kind == "open"
            ]
            for table_id, seat in free[:count]:
                crowd = _Crowd(host, port, plan, stats, names=names, seed=rng.random())
                nursery.start_soon(crowd.one_bot, TableChoice(table_id=table_id, seat=seat), 0)
    return stats


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
    ) -> None:
        self.host, self.port, self.plan, self.stats = host, port, plan, stats
        self.names = names
        self.seed = seed

    async def fill_table(self, request: m.CreateTable, seats: int) -> None:
        opened = trio.Event()
        table: list[int] = []

        async def creator() -> None:
            async with open_network_session(
                self.host,
                self.port,
                TableChoice(create=request),
                name=next(self.names),
                check_deals=self.plan.check,
            ) as session:
                table.append(session.table_id)
                opened.set()
                await self._play(session, 0)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(creator)
            await opened.wait()
            for n in range(1, seats):
                nursery.start_soon(self.one_bot, TableChoice(table_id=table[0], seat=n), n)

    async def one_bot(self, choice: TableChoice, n: int) -> None:
        name = next(self.names)
        try:
            async with open_network_session(
                self.host, self.port, choice, name=name, check_deals=self.plan.check
            ) as session:
                await self._play(session, n)
        except (SessionError, OSError) as exc:
            self.stats.failures.append(f"{name}: {exc}")

    async def _play(self, session: NetworkSession, n: int) -> None:
        plan, stats = self.plan, self.stats
        player = make_player(plan.level, int(self.seed * 2**31) + n)
        rng = random.Random(self.seed + n)
        original = session.submit

        async def timed_submit(play: Play) -> object:
            if plan.think:
                await trio.sleep(rng.uniform(0.5 * plan.think, 1.5 * plan.think))
            started = trio.current_time()
            record = await original(play)
            stats.latencies.append(trio.current_time() - started)
            stats.moves += 1
            return record

        session.submit = timed_submit  # type: ignore[method-assign]
        result = await play_as_bot(session, player)
        if result is not None:
            stats.matches += 1
        if session.verdict_failures:
            stats.failures.extend(session.verdict_failures)
