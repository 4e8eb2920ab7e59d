"""Chaos soak: computer players over a bad network to a host killed and restarted at random.

It starts a real ``scopa-net host`` (private HOME and journal, loopback only) and keeps
``--seats`` seats busy with ``scopa-net bots --create`` commands (easy level, a short
--bot-delay) that reach the host through a fault proxy: random lag, stalls of 1-40 s, resets,
half-written frames and black holes. Now and then it kills the host (kill -9 or Ctrl-C) and
starts it again on the same port. After ``--minutes`` it stops by itself and checks:

- every bots command ended with a documented status and no traceback in its output;
- the host's log (every run of it) has no traceback and no line saying "bug";
- every table of the journal reached a match end or is still in play;
- ``scopa-net verify`` passes every seat's transcript exported from the journal.

    python benchmarks/chaos_soak.py [--minutes 10] [--seats 6] [--seed 1]

It prints its figures (matches, rounds, reconnects, restarts, faults, verify results) and
every problem found, and exits 1 when there was one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HOST_PORTS = range(43260, 43280)
"""The private ports the host may listen on (the first one free is taken)."""
DOCUMENTED_EXITS = {
    0: "ok",
    1: "failed",
    3: "unreachable",
    4: "refused",
    130: "cancelled",
    -signal.SIGINT: "cancelled",
}
"""The statuses ``scopa-net bots`` may end with (commands/options.py's EXIT_*); ended by
Ctrl-C's signal itself is what a shell shows as 130 too."""
TRACEBACK = re.compile(r"Traceback \(most recent call last\)")
BUG = re.compile(r"\bbug\b", re.IGNORECASE)


def log(start: float, *words: object) -> None:
    print(f"[{time.monotonic() - start:7.1f} s]", *words, flush=True)


def free_host_port() -> int:
    for port in HOST_PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    sys.exit(f"chaos_soak.py: no free port in {HOST_PORTS.start}-{HOST_PORTS.stop - 1}")


def reset(writer: asyncio.StreamWriter | None) -> None:
    """Close with a TCP reset (RST), as a broken network does, not a polite FIN."""
    if writer is None:
        return
    sock = writer.get_extra_info("socket")
    try:
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()
    except OSError:
        pass


class Conn:
    """One client connection through the proxy and the faults set on it."""

    def __init__(self, number: int, writer: asyncio.StreamWriter) -> None:
        self.number = number
        self.client = writer
        self.upstream: asyncio.StreamWriter | None = None
        self.dead = False
        self.stall_until = 0.0
        self.lag = 0.0
        self.halfcut = False

    def kill(self) -> None:
        if not self.dead:
            self.dead = True
            reset(self.client)
            reset(self.upstream)


@dataclass
class Proxy:
    """A loopback TCP proxy to the host's port that injects faults on command."""

    upstream_port: int
    rng: random.Random
    port: int = 0
    conns: set[Conn] = field(default_factory=set)
    blackhole_until: float = 0.0
    opened: int = 0
    faults: Counter[str] = field(default_factory=Counter)

    async def start(self) -> None:
        server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.opened += 1
        conn = Conn(self.opened, writer)
        self.conns.add(conn)
        try:
            if time.monotonic() < self.blackhole_until:
                # Accepted, never forwarded: what a dead route with a live listener looks like.
                while time.monotonic() < self.blackhole_until and not conn.dead:
                    try:
                        if not await asyncio.wait_for(reader.read(65536), 0.5):
                            return
                    except TimeoutError:
                        pass
                conn.kill()
                return
            try:
                up_reader, conn.upstream = await asyncio.open_connection(
                    "127.0.0.1", self.upstream_port
                )
            except OSError:
                conn.kill()  # the host is down: the client sees its connection reset
                return
            await asyncio.gather(
                self._pump(conn, reader, conn.upstream), self._pump(conn, up_reader, writer)
            )
        finally:
            self.conns.discard(conn)
            conn.kill()

    async def _pump(
        self, conn: Conn, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            while not conn.dead:
                data = await reader.read(65536)
                if not data:
                    conn.kill()
                    return
                while not conn.dead and time.monotonic() < conn.stall_until:
                    await asyncio.sleep(0.05)
                if conn.lag:
                    await asyncio.sleep(self.rng.uniform(0, conn.lag))
                if time.monotonic() < self.blackhole_until:
                    continue  # swallowed
                if conn.halfcut and len(data) >= 4:
                    conn.halfcut = False
                    writer.write(data[: len(data) // 2])
                    await writer.drain()
                    await asyncio.sleep(0.05)
                    conn.kill()
                    return
                if conn.dead:
                    return
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            conn.kill()

    def fault(self, now: float) -> str:
        """Inject one random fault; returns its name."""
        conns = [c for c in self.conns if not c.dead]
        kind = self.rng.choices(
            ["reset", "reset_all", "halfcut", "stall", "stall_all", "blackhole", "lag"],
            weights=[5, 1, 4, 3, 1, 1, 3],
        )[0]
        if kind in ("reset", "halfcut", "stall", "lag") and not conns:
            return ""
        if kind == "reset":
            self.rng.choice(conns).kill()
        elif kind == "reset_all":
            for c in conns:
                c.kill()
        elif kind == "halfcut":
            self.rng.choice(conns).halfcut = True
        elif kind == "stall":
            self.rng.choice(conns).stall_until = now + self.rng.uniform(1, 40)
        elif kind == "stall_all":
            until = now + self.rng.uniform(1, 40)
            for c in conns:
                c.stall_until = until
        elif kind == "blackhole":
            self.blackhole_until = now + self.rng.uniform(5, 40)
        elif kind == "lag":
            conn = self.rng.choice(conns)
            conn.lag = 0.0 if conn.lag else self.rng.uniform(0.05, 0.8)
        self.faults[kind] += 1
        return kind


@dataclass
class Bots:
    """One ``scopa-net bots --create`` command and what it printed."""

    number: int
    seats: int
    process: asyncio.subprocess.Process
    out: Path
    started: float
    status: int | None = None


class Soak:
    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.args = args
        self.work = work
        self.rng = random.Random(args.seed)
        self.home = work / "home"
        self.home.mkdir()
        self.db = work / "journal.db"
        self.env = {**os.environ, "HOME": str(self.home)}
        for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            self.env.pop(var, None)
        self.host_port = free_host_port()
        self.host: asyncio.subprocess.Process | None = None
        self.host_runs = 0
        self.restarts: Counter[str] = Counter()
        self.bots: list[Bots] = []
        self.start = time.monotonic()
        self.problems: list[str] = []

    def say(self, *words: object) -> None:
        if not self.args.quiet:
            log(self.start, *words)

    async def start_host(self) -> None:
        self.host_runs += 1
        host_log = open(self.work / f"host-{self.host_runs}.log", "wb")  # noqa: SIM115
        self.host = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "scopa_net",
            "host",
            *("--host", "127.0.0.1", "--port", str(self.host_port)),
            *("--db", str(self.db), "--no-advertise", "--quiet"),
            *("--grace", str(self.args.grace), "--bot-delay", "0.05"),
            *("--max-tables-per-address", "1000", "--max-per-address", "1000"),
            stdin=subprocess.DEVNULL,
            stdout=host_log,
            stderr=subprocess.STDOUT,
            env=self.env,
        )
        host_log.close()
        for _ in range(300):
            try:
                _, w = await asyncio.open_connection("127.0.0.1", self.host_port)
                w.close()
                return
            except OSError:
                if self.host.returncode is not None:
                    break
                await asyncio.sleep(0.1)
        self.problems.append(f"host run {self.host_runs} did not start (host-{self.host_runs}.log)")

    async def stop_host(self, how: str) -> None:
        assert self.host is not None
        if how == "kill -9":
            self.host.kill()
        else:
            self.host.send_signal(signal.SIGINT)
        try:
            status = await asyncio.wait_for(self.host.wait(), 30)
        except TimeoutError:
            self.problems.append(f"host run {self.host_runs}: still running 30 s after {how}")
            self.host.kill()
            status = await self.host.wait()
        if how == "Ctrl-C" and status not in (0, 130, -signal.SIGINT):
            self.problems.append(f"host run {self.host_runs}: ended {status} after Ctrl-C")
        self.restarts[how] += 1

    async def start_bots(self, proxy_port: int, seats: int) -> None:
        number = len(self.bots) + 1
        out = self.work / f"bots-{number}.log"
        with open(out, "wb") as sink:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "scopa_net",
                "bots",
                f"127.0.0.1:{proxy_port}",
                *("--create", "--count", str(seats), "--players", str(seats)),
                *("--target", str(self.rng.choice([1, 3, 11]))),
                *("--bot-level", "easy", "--bot-delay", str(self.args.bot_delay)),
                *("--seed", str(self.rng.randrange(10**6))),
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                env=self.env,
            )
        self.bots.append(Bots(number, seats, process, out, time.monotonic()))

    def running_seats(self) -> int:
        return sum(b.seats for b in self.bots if b.process.returncode is None)

    def reap(self) -> None:
        for b in self.bots:
            if b.status is None and b.process.returncode is not None:
                b.status = b.process.returncode
                tail = b.out.read_text(errors="replace").strip().splitlines()[-1:]
                self.say(f"bots {b.number} ended {b.status}: {' | '.join(tail)}")

    async def run(self) -> None:
        await self.start_host()
        proxy = Proxy(self.host_port, self.rng)
        await proxy.start()
        self.proxy = proxy
        deadline = self.start + self.args.minutes * 60
        next_fault = self.start + self.rng.uniform(1, 6)
        next_restart = self.start + self.rng.uniform(20, self.args.restart_every * 2)
        while time.monotonic() < deadline:
            now = time.monotonic()
            self.reap()
            while self.running_seats() + 2 <= self.args.seats:
                room = self.args.seats - self.running_seats()
                await self.start_bots(proxy.port, min(room, self.rng.choice([2, 2, 3])))
            if now >= next_fault:
                kind = proxy.fault(now)
                if kind:
                    self.say(f"fault: {kind}")
                next_fault = now + self.rng.uniform(1, 8)
            if now >= next_restart and now < deadline - 20:
                how = self.rng.choice(["kill -9", "Ctrl-C"])
                self.say(f"host: {how}")
                await self.stop_host(how)
                await asyncio.sleep(self.rng.uniform(0.2, 6))
                await self.start_host()
                self.say(f"host run {self.host_runs} up")
                next_restart = now + self.rng.uniform(
                    self.args.restart_every / 2, self.args.restart_every * 1.5
                )
            await asyncio.sleep(0.2)
        # The end: no more faults; the bots still running are stopped as a person would.
        self.ended_at = time.monotonic()
        proxy.blackhole_until = 0
        for c in proxy.conns:
            c.stall_until = 0
            c.lag = 0
        self.reap()
        youngest = max((b.started for b in self.bots), default=0.0)
        # (Python's own traceback answers a Ctrl-C before scopa-net's code runs: not ours.)
        await asyncio.sleep(max(0.0, youngest + 1.5 - time.monotonic()))
        for b in self.bots:
            if b.process.returncode is None:
                b.process.send_signal(signal.SIGINT)
        for b in self.bots:
            try:
                await asyncio.wait_for(b.process.wait(), 20)
            except TimeoutError:
                self.problems.append(f"bots {b.number}: still running 20 s after Ctrl-C")
                b.process.kill()
                await b.process.wait()
        self.reap()
        await self.stop_host("Ctrl-C")
        self.restarts["Ctrl-C"] -= 1  # the last stop is no restart

    def check_bots(self) -> Counter[str]:
        words: Counter[str] = Counter()
        for b in self.bots:
            text = b.out.read_text(errors="replace")
            if TRACEBACK.search(text):
                self.problems.append(f"bots {b.number}: a traceback in {b.out}")
            if b.status not in DOCUMENTED_EXITS:
                self.problems.append(f"bots {b.number}: ended {b.status} ({b.out})")
            for line in text.splitlines():
                if line.startswith("failure: "):
                    words[re.sub(r"bot-\d+(?: \(\d+\))?", "bot-N", line)] += 1
        return words

    def check_host_logs(self) -> tuple[int, int]:
        resumed = lost = 0
        for n in range(1, self.host_runs + 1):
            path = self.work / f"host-{n}.log"
            text = path.read_text(errors="replace")
            if TRACEBACK.search(text):
                self.problems.append(f"host run {n}: a traceback in {path}")
            for line in text.splitlines():
                if BUG.search(line):
                    self.problems.append(f"host run {n}: {line.strip()}")
                low = line.lower()
                resumed += "resumed" in low
                lost += "lost the connection" in low or "dropped" in low
        return resumed, lost

    def finished_tables(self) -> set[int]:
        """The tables whose bots command said its match finished."""
        done: set[int] = set()
        for b in self.bots:
            text = b.out.read_text(errors="replace")
            if b.status == 0 and re.search(r"\b1 match finished", text):
                done.update(int(t) for t in re.findall(r"seated at table (\d+)", text))
        return done

    def tables_waited_on(self, seconds: float) -> set[int]:
        """The tables of bots commands that ran for more than ``seconds``."""
        tables: set[int] = set()
        for b in self.bots:
            if self.ended_at - b.started > seconds:
                text = b.out.read_text(errors="replace")
                tables.update(int(t) for t in re.findall(r"seated at table (\d+)", text))
        return tables

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "scopa_net", *args],
            capture_output=True,
            text=True,
            env=self.env,
            cwd=self.work,
            timeout=600,
            check=False,
        )

    def check_journal(self) -> tuple[int, int, int, list[str]]:
        """Tables listed, matches ended, transcripts verified; the exports that failed."""
        listing = self.cli("history", "--db", str(self.db))
        if listing.returncode != 0 or TRACEBACK.search(listing.stdout + listing.stderr):
            self.problems.append(f"history: {listing.returncode} {listing.stderr.strip()}")
            return 0, 0, 0, []
        (self.work / "history.txt").write_text(listing.stdout)
        tables: dict[int, str] = {}
        ended = 0
        for line in listing.stdout.splitlines():
            found = re.match(r"\s*table (\d+)\b", line)
            if not found:
                continue
            table = int(found.group(1))
            if re.search(r", ended [0-9:]+:", line):
                tables[table] = "ended"
                ended += 1
            elif line.endswith("in play"):
                tables[table] = "in play"
                if table in self.finished_tables():
                    self.problems.append(f"its bots command finished it, yet: {line}")
            else:
                tables[table] = "waiting"
                if table in self.tables_waited_on(60):
                    self.problems.append(f"its bots came more than 60 s before the end: {line}")
        exported: dict[str, str] = {}
        failures: list[str] = []
        out = self.work / "transcripts"
        out.mkdir()
        for table, state in sorted(tables.items()):
            for seat in range(6 if state != "waiting" else 0):
                path = out / f"table{table}-seat{seat}.scopa"
                done = self.cli(
                    "history",
                    *("--db", str(self.db), "--export", str(table)),
                    *("--seat", str(seat), "--out", str(path)),
                )
                said = done.stdout + done.stderr
                if done.returncode != 0:
                    if seat < 2 and "never finished a round" not in said:
                        failures.append(f"export table {table} seat {seat}: {said.strip()}")
                    break
                exported[str(path)] = state
        verified = unfinished = 0
        whole = [path for path, state in exported.items() if state == "ended"]
        if whole and self.cli("verify", "--quiet", *whole).returncode == 0:
            verified = len(whole)  # all at once; one by one only to name a failure
            checks = [path for path in exported if path not in whole]
        else:
            checks = list(exported)
        for path in checks:
            done = self.cli("verify", "--quiet", path)
            said = (done.stdout + done.stderr).strip().splitlines()
            if done.returncode == 0:
                verified += 1
            elif exported[path] == "in play" and said and "UNFINISHED" in said[-1]:
                unfinished += 1  # a match in play has no signed end yet: as it should be
            else:
                why = said[-1] if said else done.returncode
                failures.append(f"verify {Path(path).name}: {why}")
        self.unfinished = unfinished
        return len(tables), ended, verified, [*failures, f"({len(exported)} exported)"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long (default: 10)")
    parser.add_argument("--seats", type=int, default=6, help="bots seats kept busy (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the chaos (default 1)")
    parser.add_argument("--bot-delay", type=float, default=0.1, help="bots' --bot-delay")
    parser.add_argument("--grace", type=float, default=20.0, help="host's --grace")
    parser.add_argument(
        "--restart-every", type=float, default=90.0, help="seconds between host restarts, about"
    )
    parser.add_argument("--keep", help="keep the logs, journal and transcripts in this folder")
    parser.add_argument("--quiet", action="store_true", help="only the figures at the end")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="chaos-soak-"))
    try:
        soak = Soak(args, work)
        asyncio.run(soak.run())
        failures = soak.check_bots()
        resumed, lost = soak.check_host_logs()
        tables, ended, verified, export_failures = soak.check_journal()
        rounds = sum(
            len(re.findall(r"round over", b.out.read_text(errors="replace"))) // max(b.seats, 1)
            for b in soak.bots
        )
        statuses = Counter(DOCUMENTED_EXITS.get(b.status or 0, str(b.status)) for b in soak.bots)
        print(f"minutes: {args.minutes}, seats: {args.seats}, seed: {args.seed}")
        print(f"bots commands: {len(soak.bots)}, ended: {dict(statuses)}")
        print(f"rounds the bots saw end (per table): {rounds}")
        print(f"host runs: {soak.host_runs}, restarts: {dict(soak.restarts)}")
        print(f"proxy connections: {soak.proxy.opened}, faults: {dict(soak.proxy.faults)}")
        print(f"host log: {resumed} resumes, {lost} connections lost")
        print(f"journal: {tables} tables, {ended} matches ended, the rest in play or waiting")
        print(
            f"transcripts verified: {verified}, of matches in play (unfinished, as expected): "
            f"{soak.unfinished}; {' '.join(export_failures[-1:])}"
        )
        for line, count in failures.most_common():
            print(f"  {count} x {line}")
        problems = soak.problems + export_failures[:-1]
        for problem in problems:
            print(f"problem: {problem}")
        print(f"problems: {len(problems)}")
    finally:
        if args.keep:
            shutil.copytree(work, args.keep, dirs_exist_ok=True)
            print(f"logs kept in {args.keep}")
        shutil.rmtree(work, ignore_errors=True)
    if problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
