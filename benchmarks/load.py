"""Host load: many 4-player tables against one host process on loopback.

The host runs as its own process (``scopa-net host``, journal on disk, WAL with
synchronous=FULL). The load generator is this process: by default a raw-frame player per seat
(it decodes the host's msgpack maps without checking them, follows its hand and the table from
``deal`` and ``played``, takes part in the fair deal and plays the first legal card), cheap
enough not to be what limits the run; ``--client bots`` uses ``scopa-net bots``'s full client
stack instead. It prints: tables, moves per second, move-to-broadcast latency (a move sent
until its ``played`` event is back) p50/p99, the host's CPU per move, the host's memory per
connection and per idle table, and as baselines measured in this run: the round trip of a bare
trio echo over the same loopback, and one durable journal commit (SQLite WAL,
synchronous=FULL) in the directory the journal is in, which every move waits for. It also
prints how busy the machine was during the measured window (the load average too) and who made
it busy (the host, the load generator, other processes), and says to discard the figures when
the load generator was saturated or something else was using the machine.

    python benchmarks/load.py [--tables 500] [--bot-delay 1.0] [--duration 30]

Talks only to 127.0.0.1, and stops by itself after ``--duration`` seconds of play.
"""

from __future__ import annotations

import argparse
import bisect
import gc
import math
import os
import random
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import msgpack
import trio

from scopa_net.cards import BIT, VALUE
from scopa_net.fair.commitments import seat_commitment
from scopa_net.mirror import dealer_from_positions
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.journal_writer import _WriterThread  # the host's own hand-off, measured
from scopa_net.server.table_task import LINGER
from scopa_net.wire.messages import PROTOCOL_VERSION

RULES = RuleSet.of(4, 99)
"""Long matches: nobody finishes inside the window."""
SOAK_RULES = RuleSet.of(4, 1)
"""``--soak``: matches to 1 point, over in a round or two; the table is left and a new one
made, so that finished tables close and the host's memory can be seen to stay level."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU time a process has used so far, seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def main_thread_seconds(pid: int) -> float:
    """CPU time (user + system) the process's main thread has used so far, seconds: the
    host's trio loop, apart from its journal thread."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[float, float]:
    """(busy, niced) CPU seconds of the whole machine so far, all cores (from /proc/stat):
    ``niced`` is the part of ``busy`` spent by processes running at a positive nice value
    (the second field)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, fields[1] / tick


def autogroups() -> bool:
    """Whether the kernel groups processes by session for scheduling (autogroup): then a
    nice value counts only against processes of the same session, and niced work started in
    another session takes its full share of the CPU from this benchmark all the same."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def echo_rtt(rounds: int = 2000, pause: float = 0.0, hop: bool = False) -> float:
    """Median round trip of 32 bytes through a bare trio echo server on loopback, seconds;
    with ``pause`` seconds between round trips, as the players pause between moves (both
    ends then wake from sleep for every round trip, as the host and a player do). ``hop``:
    before it echoes, the server hands an empty batch to a thread of the kind that writes the
    journal and waits for the answer, as the host does for every commit (the thread wakes
    from sleep, and then wakes the trio loop): the price of keeping the fsync off the loop,
    without the fsync."""

    async with trio.open_nursery() as nursery:
        echo = partial(echo_stream, hop=hop)
        listeners = await nursery.start(partial(trio.serve_tcp, echo, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        median = await echo_client(port, rounds, pause)
        nursery.cancel_scope.cancel()
    return median


ECHO_SERVER_WAIT = 30.0
"""How long an echo server in its own process waits for its one client before it gives up."""
MIN_PACED = 5
"""The fewest round trips (and commits) a paced baseline takes, however short
``--baseline-seconds`` (tiny runs, as the tests make, take a fraction of a second)."""


async def serve_one_echo(hop: bool) -> None:
    """The echo server of :func:`process_echo_rtt`, in its own process: print the port, echo
    one connection until it closes (with the journal thread's hand-off first if ``hop``),
    then end. It gives up if nobody connects within :data:`ECHO_SERVER_WAIT`."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(listeners[0].socket.getsockname()[1], flush=True)
    with trio.fail_after(ECHO_SERVER_WAIT):
        stream = await listeners[0].accept()
    await echo_stream(stream, hop=hop)


async def echo_stream(stream: trio.abc.Stream, *, hop: bool) -> None:
    """Send back what ``stream`` sends until it closes; with ``hop``, each time after an
    empty batch's round trip through a journal writer's thread (see :func:`echo_rtt`)."""
    thread = _WriterThread(lambda jobs: (len(jobs), None)) if hop else None
    try:
        async for data in stream:
            if thread is not None:
                await thread.write([])
            await stream.send_all(data)
    finally:
        if thread is not None:
            thread.stop()


def process_echo_rtt(rounds: int = 2000, pause: float = 0.0, hop: bool = False) -> float:
    """:func:`echo_rtt` with the echo server in a process of its own, as the host is: each
    round trip then wakes another process and comes back, which one process echoing to
    itself never does (measured here: about twice the round trip, back to back or paced)."""
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve-echo", "hop" if hop else "plain"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        return trio.run(echo_client, port, rounds, pause)
    finally:
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


async def echo_client(port: int, rounds: int, pause: float) -> float:
    """Median round trip of 32 bytes to the echo server on ``port``, seconds (see
    :func:`echo_rtt`); the connection is closed at the end, which ends the server."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    times = []
    payload = b"x" * 32
    for _ in range(rounds):
        if pause:
            await trio.sleep(pause)
        start = time.perf_counter()
        await stream.send_all(payload)
        got = 0
        while got < len(payload):
            got += len(await stream.receive_some(64))
        times.append(time.perf_counter() - start)
    await stream.aclose()
    return statistics.median(times)


def commit_time(directory: str, commits: int = 50, pause: float = 0.0) -> float:
    """Median time of one durable commit (one small row, WAL, synchronous=FULL) in
    ``directory``: what the journal costs every move at the least, seconds; with ``pause``
    seconds between commits, as a quiet table's moves come."""
    path = Path(directory) / f"commit-{pause}.db"
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE t (n INTEGER, payload BLOB)")
        times = []
        for n in range(commits):
            time.sleep(pause)
            start = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO t VALUES (?, ?)", (n, b"x" * 40))
            db.execute("COMMIT")
            times.append(time.perf_counter() - start)
    finally:
        db.close()
    return statistics.median(times)


HOST_LOG_TABLES = 10
"""Up to this many tables the host logs at INFO (to a file), so that its journal writer's
commit times can be read when it stops; above it, the INFO log's own cost would show in the
host's CPU per move, and the host logs warnings only."""
TRIM_INTERVAL = HostConfig().memory_trim_interval
"""How often (seconds) the host hands its free heap back to the system."""


COMMIT_LINE = re.compile(
    r"commits; the last (\d+) took ([\d.]+) ms at the median, ([\d.]+) ms at the 99th"
)
"""The journal writer's summary when it stops (``JournalWriter.run`` in
server/journal_writer.py)."""


def commit_summary(log_path: Path) -> tuple[int, float, float] | None:
    """(commits timed, median, 99th percentile in seconds) from the journal writer's line in
    the host's log when it stopped; None when the log does not have it."""
    found = COMMIT_LINE.findall(log_path.read_text(errors="replace"))
    if not found:
        return None
    timed, median, p99 = found[-1]
    return int(timed), float(median) / 1000, float(p99) / 1000


async def wait_for_port(port: int, limit: float = 20.0) -> None:
    with trio.fail_after(limit):
        while True:
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
            except OSError:
                await trio.sleep(0.05)
                continue
            await stream.aclose()
            return


# --- the load generator: raw frames, no client stack -------------------------------------


@dataclass
class Stats:
    """What the raw players saw, read by the measuring loop while they play."""

    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    connected: int = 0
    created: int = 0
    playing: int = 0
    """Players whose first move has come back."""
    matches: int = 0
    """Matches played to their end (``--soak``)."""
    ended: list[float] = field(default_factory=list)
    """When each of them ended (trio time, in order): the host keeps a finished table for
    LINGER seconds more."""

    def lingering(self, now: float) -> int:
        """Finished tables the host still holds at ``now``: matches ended within LINGER."""
        return len(self.ended) - bisect.bisect_right(self.ended, now - LINGER)


def minute_lows(rss_kib: list[int]) -> list[int]:
    """The lowest of each whole :data:`TRIM_INTERVAL` (a minute) of once-a-second readings.
    The host gives its free heap back to the system that often (``malloc_trim``), so the
    lowest reading of each is taken just after that: what the host holds, without the free
    space glibc was keeping meanwhile, whose size depends on when in the minute one looks."""
    span = int(TRIM_INTERVAL)
    return [min(rss_kib[i : i + span]) for i in range(0, len(rss_kib) - span + 1, span)]


def slope(values: list[int]) -> float:
    """The least-squares change per step of ``values`` (at least two)."""
    n = len(values)
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    spread = sum((x - mean_x) ** 2 for x in range(n))
    return sum((x - mean_x) * (y - mean_y) for x, y in enumerate(values)) / spread


def pack(msg: dict) -> bytes:
    payload = msgpack.packb(msg, use_bin_type=True)
    return len(payload).to_bytes(4, "big") + payload


def choose(hand: list[int], table: list[int]) -> tuple[int, int]:
    """A legal play of the first card in hand (standard rules): (card, captured mask)."""
    card = hand[0]
    value = VALUE[card]
    for t in table:
        if VALUE[t] == value:
            return card, BIT[t]
    # No card of that value: a group of two or more adding up to it must be taken.
    stack = [(0, 0, 0, 0)]  # (next table index, total, mask, size)
    while stack:
        i, total, mask, size = stack.pop()
        if total == value and size >= 2:
            return card, mask
        for j in range(i, len(table)):
            if total + VALUE[table[j]] <= value:
                stack.append((j + 1, total + VALUE[table[j]], mask | BIT[table[j]], size + 1))
    return card, 0


class RawPlayer:
    """One seat played over raw frames: it decodes the host's msgpack maps without checking
    them, follows its hand and the table from ``deal`` and ``played``, takes part in the
    fair deal, and plays the first legal card after a random think time."""

    def __init__(self, stream: trio.SocketStream, rules: RuleSet, stats: Stats, think: float):
        self.stream, self.rules, self.stats, self.think = stream, rules, stats, think
        self.fd = stream.socket.fileno()
        self.rng = random.Random()
        self.buffer = b""
        self.seat = -1
        self.seq = 0
        self.hand: list[int] = []
        self.table: list[int] = []
        self.to_move: int | None = None
        self.due = math.inf
        self.sent_at: float | None = None
        self.move_id = 0
        self.seeds: dict[bytes, bytes] = {}
        self.out: list[bytes] = []
        self.backlog: list[dict] = []
        """What came in after the answer to a request, to handle first in play."""
        self.over = False
        """The match has ended (its ``match_end`` came)."""

    async def receive(self, until: float = math.inf) -> list[dict]:
        """The whole messages that arrive before ``until`` (none if it passed)."""
        if until == math.inf:
            return await self._frames()
        with trio.move_on_at(until):
            return await self._frames()
        return []

    async def _frames(self) -> list[dict]:
        """The next whole messages. The socket is read directly once it is readable (as the
        host reads), which keeps the generator cheaper than going through the stream."""
        fd = self.fd
        while True:
            await trio.lowlevel.wait_readable(fd)
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not data:
                raise trio.BrokenResourceError("the host closed the connection")
            buffer = self.buffer + data
            frames, start = [], 0
            while len(buffer) - start >= 4:
                size = int.from_bytes(buffer[start : start + 4], "big")
                if len(buffer) - start - 4 < size:
                    break
                frames.append(msgpack.unpackb(buffer[start + 4 : start + 4 + size]))
                start += 4 + size
            self.buffer = buffer[start:]
            if frames:
                return frames

    async def send(self, data: bytes) -> None:
        """Write ``data``: straight to the socket, and what it does not take at once through
        the stream."""
        try:
            sent = os.write(self.fd, data)
        except BlockingIOError:
            sent = 0
        if sent < len(data):
            await self.stream.send_all(data[sent:])

    async def play(self) -> None:
        """Answer and play until cancelled, or until the match is over and every answer is
        sent."""
        for msg in self.backlog:
            self.handle(msg)
        self.backlog = []
        self.over = False
        while not (self.over and not self.out):
            for msg in await self.receive(self.due):
                self.handle(msg)
            if trio.current_time() >= self.due:
                card, captured = choose(self.hand, self.table)
                self.move_id += 1
                self.out.append(
                    pack(
                        {
                            "t": "play",
                            "move_id": self.move_id,
                            "after": self.seq,
                            "card": card,
                            "captured": captured,
                        }
                    )
                )
                self.due, self.to_move = math.inf, None
                self.sent_at = trio.current_time()
            if self.out:
                data, self.out = b"".join(self.out), []
                await self.send(data)

    def handle(self, msg: dict) -> None:
        kind = msg["t"]
        if "seq" in msg:
            self.seq = msg["seq"]
        if kind == "played":
            seat, card, captured = msg["seat"], msg["card"], msg["captured"]
            if seat == self.seat:
                if self.sent_at is not None:
                    self.stats.latencies.append(trio.current_time() - self.sent_at)
                    self.stats.moves += 1
                    self.sent_at = None
                    if self.move_id == 1:
                        self.stats.playing += 1
                self.hand.remove(card)
            if captured:
                self.table = [t for t in self.table if not BIT[t] & captured]
            else:
                self.table.append(card)
            self.to_move = (seat + 1) % self.rules.players
        elif kind == "deal":
            self.hand += [c["card"] for c in msg["hand"]]
            if msg["table"]:  # the first deal of a round
                self.table = [c["card"] for c in msg["table"]]
                positions = {c["pos"] for c in msg["hand"]}
                dealer = dealer_from_positions(self.rules, self.seat, positions)
                self.to_move = (dealer + 1) % self.rules.players
        elif kind in ("round_end", "round_void"):
            self.hand, self.table, self.to_move = [], [], None
            self.due = math.inf  # a void deal takes back the turn it gave
        elif kind == "match_end":
            self.over = True
        elif kind == "round_commit":
            seed = secrets.token_bytes(32)
            self.seeds = {msg["round_id"]: seed}
            commit = seat_commitment(msg["round_id"], self.seat, seed)
            self.out.append(
                pack({"t": "seed_commit", "round_id": msg["round_id"], "commit": commit})
            )
        elif kind == "seed_commits" and msg["round_id"] in self.seeds:
            seed = self.seeds[msg["round_id"]]
            self.out.append(pack({"t": "seed_reveal", "round_id": msg["round_id"], "seed": seed}))
        elif kind == "ping":
            self.out.append(pack({"t": "pong", "nonce": msg["nonce"]}))
        elif kind in ("reject", "error", "bye"):
            self.stats.failures.append(f"seat {self.seat}: {msg}")
        if self.to_move == self.seat and self.hand and self.due == math.inf:
            self.due = trio.current_time() + self.rng.uniform(0.5, 1.5) * self.think

    async def request(self, msg: dict, answer: str) -> dict:
        """Send ``msg`` and wait for its ``answer``; what came after it is kept for play."""
        await self.send(pack(msg))
        with trio.fail_after(60):
            while True:
                frames = await self.receive()
                for i, reply in enumerate(frames):
                    if reply["t"] == answer:
                        self.backlog += frames[i + 1 :]
                        return reply
                    if reply["t"] == "ping":  # a busy host may take a while to answer
                        await self.send(pack({"t": "pong", "nonce": reply["nonce"]}))
                    if reply["t"] in ("error", "bye"):
                        raise RuntimeError(f"{msg['t']}: {reply}")


async def idle(players: list[RawPlayer], until: trio.Event) -> None:
    """Wait for ``until``, answering the host's pings meanwhile (what else comes is kept)."""

    async def answer(player: RawPlayer) -> None:
        while True:
            for msg in await player.receive():
                if msg["t"] == "ping":
                    await player.send(pack({"t": "pong", "nonce": msg["nonce"]}))
                else:
                    player.backlog.append(msg)

    async with trio.open_nursery() as nursery:
        for player in players:
            nursery.start_soon(answer, player)
        await until.wait()
        nursery.cancel_scope.cancel()


async def idle_for(players: list[RawPlayer], seconds: float) -> None:
    """:func:`idle` for ``seconds``."""
    done = trio.Event()

    async def wake() -> None:
        await trio.sleep(seconds)
        done.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(wake)
        await idle(players, done)


async def raw_table(
    n: int,
    port: int,
    args: argparse.Namespace,
    *,
    stats: Stats,
    go: Phases,
    limiter: trio.CapacityLimiter,
) -> None:
    """Four raw players: connect, wait; create the table, wait; join it and play. With
    ``--soak``, once the match is over they leave, make a new table and play again."""
    players: list[RawPlayer] = []
    rules_played = SOAK_RULES if args.soak else RULES
    try:
        async with limiter:
            for _ in range(RULES.players):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                player = RawPlayer(stream, rules_played, stats, args.bot_delay)
                hello = {"t": "hello", "version": PROTOCOL_VERSION, "client": "load"}
                await player.request(hello, "welcome")
                players.append(player)
        stats.connected += RULES.players
        await idle(players, go.create)
        rules = {"players": rules_played.players, "target": rules_played.target, "variants": []}
        create = {
            "t": "create_table",
            "name": f"load {n}",
            "rules": rules,
            "password": None,
            "bots": 0,
            "bot_level": 1,
        }
        table_id = (await players[0].request(create, "table_created"))["table"]["id"]
        stats.created += 1
        await idle(players, go.join)
        if args.stagger:
            await idle_for(players, random.uniform(0, args.stagger))
        while True:
            for seat, player in enumerate(players):
                player.seat = seat
                join = {"t": "join", "table_id": table_id, "seat": seat, "name": f"p{seat}"}
                snapshot = await player.request({**join, "password": None}, "snapshot")
                player.seq = snapshot["seq"]
            async with trio.open_nursery() as nursery:
                for player in players:
                    nursery.start_soon(player.play)
            # Only a soak's matches end: leave the finished table for a new one.
            stats.matches += 1
            stats.ended.append(trio.current_time())
            for player in players:
                await player.request({"t": "leave", "away": False}, "left")
                player.backlog = []
            table_id = (await players[0].request(create, "table_created"))["table"]["id"]
    except* (OSError, RuntimeError, trio.BrokenResourceError, trio.TooSlowError) as group:
        # A player's failure reaches here inside the exception group of its table's nursery.
        for exc in _leaves(group):
            stats.failures.append(f"table {n}: {exc!r}")
    finally:
        for player in players:
            await trio.aclose_forcefully(player.stream)


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    """The exceptions inside ``group``, however deeply nested."""
    out: list[BaseException] = []
    for exc in group.exceptions:
        out += _leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc]
    return out


@dataclass
class Phases:
    create: trio.Event = field(default_factory=trio.Event)
    join: trio.Event = field(default_factory=trio.Event)


async def until(condition: Callable[[], bool], limit: float) -> None:
    with trio.move_on_after(limit):
        while not condition():
            await trio.sleep(0.1)


@dataclass(frozen=True)
class Window:
    """What the measured window saw."""

    moves: int
    matches: int
    latencies: list[float]
    failures: list[str]
    seconds: float
    peak_kib: int
    rss_kib: list[int]
    """The host's RSS once a second through the window."""
    host_cpu: float
    host_system: float
    """Of ``host_cpu``, the part spent in the kernel (sends, receives, fsync)."""
    host_main: float
    """Of ``host_cpu``, the part spent by the main thread (the trio loop; the rest is the
    journal's thread)."""
    bots_cpu: float
    machine_cpu: float
    """Cores' worth of CPU the whole machine was busy with during the window."""
    niced_cpu: float
    """Of ``machine_cpu``, the part run at a positive nice value (this benchmark's own
    processes included when it runs niced)."""
    load: tuple[float, float]
    """The 1-minute load average at the start and at the end of the window."""
    memory: tuple[int, int, int]
    """Host RSS (KiB): before any connection, with every connection open, with every table
    created (nobody seated yet)."""
    wall: tuple[float, float] = (0.0, 0.0)
    """The window's start and end, wall time (``time.time()``)."""
    lingering: tuple[int, int, int] = (0, 0, 0)
    """``--soak``: finished tables the host still held (see :meth:`Stats.lingering`) at the
    window's start, at its end, and the most at any second of it."""


async def load(args: argparse.Namespace, port: int, host_pid: int) -> Window:
    """Connect everyone, create the tables, seat everyone, warm up, then measure
    ``duration`` seconds of play; returns the stats of the measured window only."""
    stats = Stats()
    go = Phases()
    idle = rss_kib(host_pid)
    async with trio.open_nursery() as nursery:
        if args.client == "bots":
            from scopa_net.commands.bots import BotPlan, run_bots

            plan = BotPlan(level="random", delay=args.bot_delay, check=False)
            run = partial(run_bots, "127.0.0.1", port, args.tables * 4, plan, create=RULES, seed=1)
            nursery.start_soon(partial(run, stats=stats))  # type: ignore[arg-type]
            connected = created = idle
        else:
            limiter = trio.CapacityLimiter(50)
            for n in range(args.tables):
                nursery.start_soon(
                    partial(raw_table, n, port, args, stats=stats, go=go, limiter=limiter)
                )
            await until(lambda: stats.connected >= 4 * args.tables, 120)
            await trio.sleep(0.5)
            connected = rss_kib(host_pid)
            go.create.set()
            await until(lambda: stats.created >= args.tables, 120)
            await trio.sleep(0.5)
            created = rss_kib(host_pid)
            go.join.set()
            # Seating everyone and the first fair deals take a while with thousands of tables:
            # the warm-up starts once nearly every player has made a move.
            await until(lambda: stats.playing >= 0.95 * 4 * args.tables, 300)
        await trio.sleep(args.warmup)
        first_move, first_latency, first_match = stats.moves, len(stats.latencies), stats.matches
        window_start = trio.current_time()
        load_start = os.getloadavg()[0]
        spy = start_py_spy(args.py_spy, host_pid, args.duration) if args.py_spy else None
        host_start = cpu_seconds(host_pid)
        main_start = main_thread_seconds(host_pid)
        cpu_start = time.process_time(), machine_busy()
        wall_start = time.time()
        if args.gc_log or args.counts:
            os.kill(host_pid, signal.SIGUSR2)  # the probe's mark: the window begins
        deadline = window_start + args.duration
        samples: list[int] = []
        lingering = [stats.lingering(window_start)]
        while trio.current_time() < deadline:
            await trio.sleep(min(1.0, args.duration))
            samples.append(rss_kib(host_pid))
            lingering.append(stats.lingering(trio.current_time()))
        elapsed = trio.current_time() - window_start
        window = Window(
            moves=stats.moves - first_move,
            matches=stats.matches - first_match,
            latencies=stats.latencies[first_latency:],
            failures=list(stats.failures),
            seconds=elapsed,
            peak_kib=max(samples, default=0),
            rss_kib=samples,
            host_cpu=(sum(cpu_seconds(host_pid)) - sum(host_start)) / elapsed,
            host_system=(cpu_seconds(host_pid)[1] - host_start[1]) / elapsed,
            host_main=(main_thread_seconds(host_pid) - main_start) / elapsed,
            bots_cpu=(time.process_time() - cpu_start[0]) / elapsed,
            machine_cpu=(machine_busy()[0] - cpu_start[1][0]) / elapsed,
            niced_cpu=(machine_busy()[1] - cpu_start[1][1]) / elapsed,
            load=(load_start, os.getloadavg()[0]),
            memory=(idle, connected, created),
            wall=(wall_start, time.time()),
            lingering=(lingering[0], lingering[-1], max(lingering)),
        )
        if args.gc_log or args.counts:
            os.kill(host_pid, signal.SIGUSR1)  # the probe writes its census, or its counts
            await trio.sleep(5 if args.gc_log else 1)
        nursery.cancel_scope.cancel()
    if spy is not None:
        spy.wait(timeout=60)
    return window


def host_command(args: argparse.Namespace) -> list[str]:
    """How the host is started after the interpreter: under a probe script when asked."""
    if args.gc_log:
        return [str(Path(__file__).with_name("gc_probe.py")), args.gc_log]
    if args.stages:
        return [str(Path(__file__).with_name("stage_probe.py")), args.stages]
    if args.counts:
        return [str(Path(__file__).with_name("count_probe.py")), args.counts]
    return ["-m", "scopa_net"]


def count_report(text: str, moves: int) -> list[str]:
    """What benchmarks/count_probe.py counted in the window, each per move."""
    lines = [f"host's counts in the window, per move ({moves} moves): count per move, name"]
    for line in text.splitlines():
        name, _, count = line.rpartition("\t")
        lines.append(f"  {int(count) / max(moves, 1):9.3f}  {name}")
    return lines


def stage_report(text: str, wall: tuple[float, float]) -> list[str]:
    """Each stage of a move (benchmarks/stage_probe.py's lines) over the moves made in the
    window ``wall`` (wall-clock start and end): its 10th, 50th and 90th percentiles."""
    header, *moves = text.splitlines() or [""]
    names = header.removeprefix("stages ").split(",")
    rows = []
    for line in moves:
        at, *stages = line.split()
        if wall[0] <= float(at) <= wall[1]:
            rows.append([float(x) for x in stages])
    if not rows:
        return ["stages: no move timed in the window"]
    lines = [f"one move's stages over {len(rows)} moves (us): p10 p50 p90"]
    for i, name in enumerate(names):
        values = sorted(row[i] for row in rows)
        n = len(values)
        lines.append(
            f"  {name:12} {values[n // 10]:8.1f} {values[n // 2]:8.1f} {values[9 * n // 10]:8.1f}"
        )
    totals = sorted(sum(row) for row in rows)
    lines.append(f"  {'in all':12} {'':8} {totals[len(totals) // 2]:8.1f}")
    return lines


def start_py_spy(path: str, pid: int, seconds: float) -> subprocess.Popen:
    """Sample the host with py-spy for ``seconds`` (100 a second, without pausing it; a
    thread waiting in the kernel is not sampled), its stacks written to ``path``."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    return subprocess.Popen(
        [
            *(spy, "record", "--pid", str(pid), "--duration", str(math.ceil(seconds))),
            *("--rate", "100", "--nonblocking", "--function", "--format", "raw", "--output", path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


WAITING = ("EpollIOManager.get_events ", "_Transaction.__exit__ ")
"""Innermost frames of samples that wait rather than work: the trio loop asleep in epoll, the
journal thread in its commit's fsync (py-spy, sampling without pausing the host, cannot tell
a thread asleep in the kernel from one at work)."""


def top_entries(path: str, count: int = 15) -> tuple[float, list[tuple[float, float, str]]]:
    """The functions the py-spy samples in ``path`` (collapsed stacks) were most often in, of
    the samples at work (not :data:`WAITING`): the share of samples left out as waiting, and
    (self share, inclusive share, function) by self share."""
    own: Counter[str] = Counter()
    within: Counter[str] = Counter()
    total = waiting = 0
    for line in Path(path).read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack:
            continue
        frames = stack.split(";")
        if frames[-1].startswith(WAITING):
            waiting += int(n)
            continue
        total += int(n)
        own[frames[-1]] += int(n)
        for frame in set(frames):
            within[frame] += int(n)
    busy = max(1, total)
    shares = [(k / busy, within[f] / busy, f) for f, k in own.most_common(count)]
    return waiting / max(1, total + waiting), shares


GENERATOR_SATURATED = 0.85
"""The load generator is one process on one core: busier than this, its own delays show in
the latencies it measures."""
OTHERS_BUSY = 0.25
"""Cores' worth of CPU taken by other processes during the window past which the machine was
busy with something else and the figures say more about it than about the host."""


def trust(window: Window, *, niced: bool | None = None, grouped: bool | None = None) -> str:
    """Whether the window's figures can be trusted: the machine's load, and who made it.

    Other processes' CPU is split into niced work (run at a positive nice value, which
    yields to normal-priority work) and the rest; only the rest makes the figures doubtful,
    unless the kernel schedules by autogroup, where niced work from another session does not
    yield. ``niced``: whether this benchmark itself runs niced (then its own CPU is in the
    machine's niced time); ``grouped``: whether autogroup is on (both read from the system
    when not given)."""
    cores = os.cpu_count() or 1
    if niced is None:
        niced = os.getpriority(os.PRIO_PROCESS, 0) > 0
    if grouped is None:
        grouped = autogroups()
    ours = window.host_cpu + window.bots_cpu
    others = max(0.0, window.machine_cpu - ours)
    others_niced = min(others, max(0.0, window.niced_cpu - (ours if niced else 0.0)))
    others_normal = others - others_niced
    line = (
        f"load average {window.load[0]:.2f} at the start, {window.load[1]:.2f} at the end; "
        f"machine: {cores} cores, busy {window.machine_cpu:.2f} of them during the window "
        f"(host {window.host_cpu:.2f}, load generator {window.bots_cpu:.2f}, "
        f"other processes {others_normal:.2f} at normal priority and {others_niced:.2f} "
        f"niced{'; the kernel schedules by autogroup' if grouped else ''})"
    )
    doubts = []
    if window.bots_cpu >= GENERATOR_SATURATED:
        doubts.append("the load generator was saturated")
    if others_normal >= OTHERS_BUSY:
        doubts.append("other processes were busy")
    elif grouped and others_niced >= OTHERS_BUSY:
        doubts.append("niced processes were busy (under autogroup they do not yield)")
    contending = ours + others_normal + (others_niced if grouped else 0.0)
    if contending >= 0.9 * cores:
        doubts.append("the machine was near full")
    verdict = "DISCARD these figures: " + "; ".join(doubts) if doubts else "figures trustworthy"
    return f"{line}\n{verdict}"


def gc_report(text: str, window: Window) -> list[str]:
    """What benchmarks/gc_probe.py logged: the host's collections in the window by generation
    (how many, their pauses in all and the longest, share of the window) and the census."""
    start, end = window.wall
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    tracked = []
    census: list[str] = []
    engine_start: dict[str, str] = {}
    alloc_start: dict[str, str] = {}
    for line in text.splitlines():
        words = line.split()
        if words[0] == "gc" and start <= float(words[1]) <= end:
            pauses[int(words[2])].append(float(words[3]))
            if int(words[5]) >= 0:
                tracked.append(int(words[5]))
        elif words[0] == "census":
            census = [
                f"host objects tracked by the collector at the end: {int(words[2]):,}, "
                f"frozen {int(words[3]):,}; most numerous:"
            ]
        elif words[0] == "type" and census:
            before = int(words[3]) if len(words) > 3 else -1
            at_start = f" (at the window's start {before:,})" if before >= 0 else ""
            census.append(f"  {int(words[1]):9,} {words[2]}{at_start}")
        elif words[0] == "engine-start":
            engine_start = dict(w.split("=") for w in words[2:])
        elif words[0] == "engine":
            census += engine_memories(engine_start, dict(w.split("=") for w in words[2:]))
        elif words[0] == "alloc-start":
            alloc_start = dict(w.split("=") for w in words[2:])
        elif words[0] == "alloc":
            census += allocator_growth(alloc_start, dict(w.split("=") for w in words[2:]))
        elif words[0] == "trim" and len(words) == 4:
            before, after = int(words[2]), int(words[3])
            census.append(
                f"host memory then given back by malloc_trim(0): {(before - after) / 2**20:.1f} "
                f"MiB of {before / 2**20:.1f} (malloc's free space, nothing alive)"
            )
        elif words[0] == "error":
            census.append(f"gc probe: {' '.join(words[2:])}")
        elif words[0] == "traced":
            census.append(
                f"host memory traced (tracemalloc): {int(words[2]) / 2**20:.1f} MiB, "
                f"{int(words[1]) / 2**20:+.2f} MiB over the window; by source file:"
            )
        elif words[0] == "grew":
            census.append(
                f"  {int(words[1]) / 1024:+9.0f} KiB ({int(words[2]):+,} blocks; "
                f"{int(words[3]) / 1024:.0f} KiB now)  {words[4]}"
            )
        elif words[0] == "garbage":
            census.append(
                f"host collector: then a full collection of everything (unfrozen) freed "
                f"{int(words[2]):,} objects in {float(words[3]):.0f} ms"
            )
    seconds = max(end - start, 1e-9)
    lines = []
    for generation, times in pauses.items():
        if times:
            lines.append(
                f"host collector, generation {generation}: {len(times)} collections in the "
                f"window, {sum(times):.1f} ms in all ({sum(times) / 10 / seconds:.2f}% of it), "
                f"longest {max(times):.1f} ms, median {statistics.median(times):.2f} ms"
            )
        else:
            lines.append(f"host collector, generation {generation}: no collection in the window")
    if tracked:
        lines.append(f"host collector: after its full collections {tracked[-1]:,} objects tracked")
    return lines + census


def allocator_growth(start: dict[str, str], end: dict[str, str]) -> list[str]:
    """What each allocator under the host held at the window's start and end (gc_probe's
    ``alloc`` lines): which one a growth the object census does not see is in."""
    lines = ["host allocators, KiB at the window's start -> end (change):"]
    for name, bytes_at_end in end.items():
        before = int(start[name]) if name in start else None
        after = int(bytes_at_end)
        change = f" ({(after - before) / 1024:+,.0f})" if before is not None else ""
        was = f"{before / 1024:,.0f} -> " if before is not None else ""
        lines.append(f"  {name:16} {was}{after / 1024:,.0f}{change}")
    return lines


def engine_memories(start: dict[str, str], end: dict[str, str]) -> list[str]:
    """The rules engine's bounded memories in the host (``entries/bound`` by name, from
    benchmarks/gc_probe.py) at the window's start and end: what of the host's growth is those
    memories filling up to their bounds."""
    lines = ["rules engine's memories in the host, entries at the window's start -> end (bound):"]
    for name, now in end.items():
        held, bound = now.split("/")
        before = start.get(name, "?/").split("/")[0]
        lines.append(f"  {name.replace('_', ' '):28} {before:>6} -> {held:>6} ({bound})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument(
        "--bot-delay", type=float, default=1.0, help="mean seconds a player waits before a move"
    )
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    parser.add_argument(
        "--client",
        choices=("raw", "bots"),
        default="raw",
        help="raw-frame players (default), or the full client stack of `scopa-net bots`",
    )
    parser.add_argument(
        "--gc-threshold",
        type=int,
        default=0,
        help="gen-0 GC threshold of the load generator (default: its collector is off)",
    )
    parser.add_argument(
        "--stagger",
        type=float,
        metavar="SECONDS",
        help="each table sits down at a random moment within this many seconds, so that "
        "rounds (and their fair-deal exchanges) do not begin at every table at once; about "
        "36 x --bot-delay spreads them over a whole round (default 0: all at once; with "
        "--soak, 36 x --bot-delay)",
    )
    parser.add_argument(
        "--soak",
        action="store_true",
        help="matches to 1 point: each table's players leave it once its match is over and "
        "play on at a new one (finished tables close after a minute); for the memory "
        "growth line over a long --duration",
    )
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        help="sample the host with py-spy through the measured window, write the stacks to "
        "FILE and print the top entries (py-spy must be installed)",
    )
    parser.add_argument(
        "--gc-log",
        metavar="FILE",
        help="run the host under benchmarks/gc_probe.py, which logs every garbage collection "
        "to FILE, and print the collector's pauses in the window and a census of the objects "
        "it tracks at the end",
    )
    parser.add_argument(
        "--stages",
        metavar="FILE",
        help="run the host under benchmarks/stage_probe.py, which times each move's stages "
        "(decoding, the table, the journal's thread, the way back, the first write) to FILE, "
        "and print each stage's 10th, 50th and 90th percentiles over the window; one table "
        "only (--tables 1)",
    )
    parser.add_argument(
        "--counts",
        metavar="FILE",
        help="run the host under benchmarks/count_probe.py, which counts what it does in the "
        "measured window (trio task steps, loop turns, socket reads and writes, msgpack calls, "
        "journal commits and rows, signatures, young collections) to FILE, and print each "
        "count per move",
    )
    parser.add_argument(
        "--host-log",
        metavar="FILE",
        help="write the host's log to FILE, at level INFO (every connection and table) "
        f"whatever the number of tables (without: INFO up to {HOST_LOG_TABLES} tables)",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="run the host under cProfile and write its stats to FILE (slows the host down)",
    )
    parser.add_argument(
        "--baseline-seconds",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how long each paced echo baseline runs, at most (default 3; at least 5 round "
        "trips each)",
    )
    parser.add_argument(
        "--journal-dir",
        metavar="DIR",
        help="make the host's journal (and the commit baselines) in a new folder under DIR "
        "(default: the system's temporary folder). On a RAM file system (/dev/shm) an fsync "
        "costs next to nothing, so one table's latency there is the host's own part, "
        "measured whole instead of worked out by taking a commit's median away; not "
        "durable, for measuring only",
    )
    parser.add_argument("--serve-echo", choices=("plain", "hop"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_echo:  # the echo server of process_echo_rtt
        trio.run(serve_one_echo, args.serve_echo == "hop")
        return
    if args.journal_dir is not None and not Path(args.journal_dir).is_dir():
        parser.error(f"--journal-dir: {args.journal_dir} is not a folder")
    if args.stages and args.tables != 1:
        parser.error("--stages times one move at a time: give --tables 1")
    if sum(bool(probe) for probe in (args.stages, args.gc_log, args.counts)) > 1:
        parser.error("--stages, --gc-log and --counts each run the host under a probe of their own")
    if args.soak and args.client != "raw":
        parser.error("--soak plays with the raw-frame players")
    if args.stagger is None:
        # A soak's tables start over a round, so that their matches end (and the finished
        # tables close) at a steady rate: started at once, they end in waves, and the host's
        # memory follows the waves' crests instead of levelling.
        args.stagger = 36 * args.bot_delay if args.soak else 0.0

    if args.gc_threshold:
        gc.set_threshold(args.gc_threshold, 50, 100)
    else:
        # The load generator is the measuring instrument: keep its collector from pausing it
        # (a young collection of 2,000 sessions took up to 140 ms, which is not the host's).
        gc.disable()
    # Paced like one seat's moves (a table moves about once per --bot-delay), 3 s at most
    # (--baseline-seconds), and a few round trips at least.
    pace = min(args.bot_delay, 0.05)
    paced_fit = int(args.baseline_seconds / pace)
    paced_rounds = max(MIN_PACED, min(200, paced_fit))
    echoes = Echoes(
        pace=pace,
        rtt=trio.run(echo_rtt),
        paced=trio.run(echo_rtt, paced_rounds, pace),
        hop=trio.run(echo_rtt, paced_rounds, pace, True),
        process_rtt=process_echo_rtt(),
        process_paced=process_echo_rtt(paced_rounds, pace),
        process_hop=process_echo_rtt(paced_rounds, pace, True),
    )
    port = free_port()
    # A soak's finished tables stay up a minute (LINGER) beside the new ones; a match takes
    # a round at least, 36 moves of about --bot-delay each.
    lingering = math.ceil(60 / (36 * max(args.bot_delay, 0.001))) if args.soak else 0
    tables_kept = args.tables * (2 + lingering)
    with tempfile.TemporaryDirectory(dir=args.journal_dir) as tmp:
        commit = commit_time(tmp)
        paced_commit = commit_time(tmp, max(MIN_PACED, min(50, int(2 / pace), paced_fit)), pace)
        host_log_path = Path(args.host_log) if args.host_log else Path(tmp) / "host.log"
        with open(host_log_path, "wb") as host_log:
            host = subprocess.Popen(
                [
                    sys.executable,
                    *(["-m", "cProfile", "-o", args.profile] if args.profile else []),
                    *host_command(args),
                    "host",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--db",
                    str(Path(tmp) / "load.db"),
                    "--no-advertise",
                    "--log-level",
                    # DEBUG: the journal writer's commit figures (commit_summary) are logged
                    # at that level, being for benchmarks, not for the organiser.
                    "DEBUG" if args.host_log or args.tables <= HOST_LOG_TABLES else "WARNING",
                    "--bot-delay",
                    "0",
                    "--max-per-address",
                    str(args.tables * 4 + 10),
                    "--max-tables-per-address",
                    str(tables_kept + 10),
                    "--max-tables",
                    str(max(1000, tables_kept + 10)),
                ],
                stderr=host_log,
                # A soak's census compares object counts with the window's start (a pause there).
                env={**os.environ, **({"GC_PROBE_COUNT_AT_MARK": "1"} if args.soak else {})},
            )
            try:
                trio.run(wait_for_port, port)
                window = trio.run(load, args, port, host.pid)
            finally:
                host.terminate()
                host.wait(timeout=30)
        host_commit = commit_summary(host_log_path)
    report(args, window, echoes, (commit, paced_commit, host_commit))
    if window.failures or not window.moves:
        sys.exit("load benchmark: the play failed (see above)")


@dataclass(frozen=True)
class Echoes:
    """The round trips the latency is set against (seconds): a bare trio echo on loopback
    back to back (``rtt``), with ``pace`` seconds between round trips (``paced``), the same
    through the journal thread's hand-off (``hop``), and those three with the echo server in
    a process of its own (``process_*``)."""

    pace: float
    rtt: float
    paced: float
    hop: float
    process_rtt: float
    process_paced: float
    process_hop: float


def report(
    args: argparse.Namespace,
    window: Window,
    echoes: Echoes,
    commits: tuple[float, float, tuple[int, float, float] | None],
) -> None:
    """Print the figures; ``commits``: one durable commit back to back, with the echoes'
    pauses, and the host's own commits during the run (how many were timed, median, p99;
    None when not known)."""
    pace, rtt, paced_rtt, hop_rtt = echoes.pace, echoes.rtt, echoes.paced, echoes.hop
    commit, paced_commit, host_commit = commits
    lat = sorted(x * 1000 for x in window.latencies)
    p50 = statistics.median(lat) if lat else float("nan")
    p99 = lat[max(0, int(len(lat) * 0.99) - 1)] if lat else float("nan")
    players = "raw-frame players" if args.client == "raw" else "network bots"
    print(
        f"load benchmark: {args.tables} four-player tables ({args.tables * 4} TCP clients, "
        f"{players}), bot delay {args.bot_delay} s, measured {window.seconds:.0f} s after "
        f"{args.warmup:.0f} s warm-up"
        + (f", tables sat down over {args.stagger:.0f} s" if args.stagger else "")
        + (f", journal under {args.journal_dir}" if args.journal_dir else "")
    )
    print(
        f"moves: {window.moves} ({window.moves / window.seconds:,.0f} per second), "
        f"failures: {len(window.failures)}"
        + (
            f", matches played to the end and tables replaced: {window.matches}"
            if args.soak
            else ""
        )
    )
    print(f"move-to-broadcast latency: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    per_move = window.host_cpu * window.seconds / max(1, window.moves)
    system = window.host_system * window.seconds / max(1, window.moves)
    main = window.host_main * window.seconds / max(1, window.moves)
    print(
        f"CPU: host process {window.host_cpu:.0%} of a core ({per_move * 1000:.3f} ms per move, "
        f"of which {system * 1000:.3f} ms in the kernel; main thread "
        f"{main * 1000:.3f} ms, journal thread {(per_move - main) * 1000:.3f} ms), "
        f"load generator (this process) {window.bots_cpu:.0%}"
    )
    print(trust(window))
    idle, connected, created = window.memory
    clients = args.tables * 4
    print(
        f"host memory: idle {idle / 1024:.1f} MiB, peak {window.peak_kib / 1024:.1f} MiB; "
        f"{(window.peak_kib - idle) / max(1, args.tables):.0f} KiB per table in play"
    )
    if len(window.rss_kib) >= 10:
        # Growth: the last tenth of the window against the first tenth (medians).
        tenth = len(window.rss_kib) // 10
        first = statistics.median(window.rss_kib[:tenth])
        last = statistics.median(window.rss_kib[-tenth:])
        minutes = (len(window.rss_kib) - tenth) / 60
        print(
            f"host memory through the window: {first / 1024:.1f} MiB at the start, "
            f"{last / 1024:.1f} MiB at the end ({(last - first) / minutes:+.0f} KiB per minute)"
        )
        tenths = [
            statistics.median(window.rss_kib[i * tenth : (i + 1) * tenth]) / 1024 for i in range(10)
        ]
        print(f"host memory by tenths of the window (MiB): {' '.join(f'{t:.1f}' for t in tenths)}")
    lows = minute_lows(window.rss_kib)
    if len(lows) >= 2:
        print(
            f"host memory after each minute's give-back (its lowest each minute, MiB; the host "
            f"hands its free heap back every {TRIM_INTERVAL:.0f} s): "
            f"{' '.join(f'{low / 1024:.1f}' for low in lows)} "
            f"({slope(lows):+.0f} KiB per minute, least squares)"
        )
    if args.soak:
        start, end, most = window.lingering
        print(
            f"soak: tables the host held beside the {args.tables} in play, finished ones kept "
            f"{LINGER:.0f} s after their match: {start} at the window's start, {end} at its "
            f"end, {most} at the most (their memory is part of the host's)"
        )
    if args.client == "raw":
        print(
            f"host memory: {(connected - idle) / clients:.1f} KiB per connection, "
            f"{(created - connected) / args.tables:.1f} KiB per idle table (created, nobody "
            "seated)"
        )
    print(
        f"durability: one journal commit (WAL, synchronous=FULL) takes {commit * 1000:.3f} ms "
        f"here (median of 50); p50 latency less one commit: {p50 - commit * 1000:.2f} ms"
    )
    print(
        f"durability: one commit after a {pace * 1000:.0f} ms pause takes "
        f"{paced_commit * 1000:.3f} ms; p50 latency less that: {p50 - paced_commit * 1000:.2f} ms"
    )
    print(
        f"baseline: bare trio echo round trip on loopback {rtt * 1000:.3f} ms; "
        f"p50 latency is {p50 / (rtt * 1000):.0f}x that, less one commit "
        f"{(p50 - commit * 1000) / (rtt * 1000):.1f}x"
    )
    print(
        f"baseline: the same echo with {pace * 1000:.0f} ms pauses (both ends wake from sleep "
        f"each time, as at a quiet table) {paced_rtt * 1000:.3f} ms; p50 latency less one "
        f"commit after the same pause is {(p50 - paced_commit * 1000) / (paced_rtt * 1000):.1f}x "
        "that"
    )
    hop = (hop_rtt - paced_rtt) * 1000
    print(
        f"durability: the journal's thread hand-off (to the writer thread and back, no fsync) "
        f"adds {hop:.3f} ms to that paced echo ({hop_rtt * 1000:.3f} ms)"
    )
    process_paced = echoes.process_paced * 1000
    process_hop = (echoes.process_hop - echoes.process_paced) * 1000
    print(
        f"baseline: the echo server in a process of its own, as the host is (each round trip "
        f"wakes another process): back to back {echoes.process_rtt * 1000:.3f} ms, with "
        f"{pace * 1000:.0f} ms pauses {process_paced:.3f} ms; the thread hand-off adds "
        f"{process_hop:.3f} ms there"
    )
    if host_commit is not None:
        timed, median, p99_commit = host_commit
        ours = p50 - median * 1000 - hop
        print(
            f"durability: the host's own commits (its last {timed:,}, in the writer thread): "
            f"median {median * 1000:.3f} ms, p99 {p99_commit * 1000:.3f} ms; p50 latency less "
            f"that and the hand-off (ours): {ours:.2f} ms, {ours / (paced_rtt * 1000):.1f}x the "
            f"paced echo, {ours / (rtt * 1000):.1f}x the echo"
        )
        ours_apart = p50 - median * 1000 - process_hop
        print(
            f"ours, against the echo in its own process: p50 latency less the host's commit and "
            f"that hand-off {ours_apart:.2f} ms, {ours_apart / process_paced:.1f}x its paced "
            f"round trip, {ours_apart / (echoes.process_rtt * 1000):.1f}x its back-to-back one"
        )
    for failure in window.failures[:5]:
        print(f"failure: {failure}")
    if args.gc_log and Path(args.gc_log).exists():
        for line in gc_report(Path(args.gc_log).read_text(), window):
            print(line)
    if args.stages and Path(args.stages).exists():
        for line in stage_report(Path(args.stages).read_text(), window.wall):
            print(line)
    if args.counts and Path(args.counts).exists():
        for line in count_report(Path(args.counts).read_text(), window.moves):
            print(line)
    if args.py_spy and Path(args.py_spy).exists():
        waited, entries = top_entries(args.py_spy)
        print(
            f"host profile (py-spy, both threads; {waited:.0%} of the samples waited in epoll "
            "or in the commit's fsync and are left out): self %, inclusive %, function"
        )
        for own, within, function in entries:
            print(f"  {own:6.1%} {within:6.1%}  {function}")


if __name__ == "__main__":
    main()
