"""Host load: many 4-player tables of network bots against one host process on loopback.

The host runs as its own process (``scopa-net host``, journal on disk, WAL with
synchronous=FULL); the bots are real TCP clients in this process (``scopa-net bots``'s code,
deal checks off so one process can play thousands of seats). It prints: tables, moves per
second, move-to-broadcast latency (a move sent until its ``played`` event is back) p50/p99, host
memory per table, and for reference the round trip of a bare trio echo over the same loopback,
measured in this run. It also prints how busy the machine was during the measured window and
who made it busy (the host, the load generator, other processes), and says to discard the
figures when the load generator was saturated or something else was using the machine.

    python benchmarks/load.py [--tables 500] [--bot-delay 1.0] [--duration 30]

Talks only to 127.0.0.1, and stops by itself after ``--duration`` seconds of play.
"""

from __future__ import annotations

import argparse
import gc
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import trio

from scopa_net.commands.bots import BotPlan, BotStats, run_bots
from scopa_net.rules import RuleSet


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, all cores (from /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, total / tick


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def echo_rtt(rounds: int = 2000) -> float:
    """Median round trip of 32 bytes through a bare trio echo server on loopback, seconds."""

    async def echo(stream: trio.SocketStream) -> None:
        async for data in stream:
            await stream.send_all(data)

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, echo, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        times = []
        payload = b"x" * 32
        for _ in range(rounds):
            start = time.perf_counter()
            await stream.send_all(payload)
            got = 0
            while got < len(payload):
                got += len(await stream.receive_some(64))
            times.append(time.perf_counter() - start)
        await stream.aclose()
        nursery.cancel_scope.cancel()
    return statistics.median(times)


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


@dataclass(frozen=True)
class Window:
    """What the measured window saw."""

    moves: int
    latencies: list[float]
    failures: list[str]
    seconds: float
    peak_kib: int
    host_cpu: float
    bots_cpu: float
    machine_cpu: float
    """Cores' worth of CPU the whole machine was busy with during the window."""


async def load(args: argparse.Namespace, port: int, host_pid: int) -> Window:
    """Seat everyone, warm up, then measure ``duration`` seconds of play; returns the stats
    of the measured window only, the peak host RSS and the window's length."""
    stats = BotStats()
    peak = 0
    plan = BotPlan(level="random", delay=args.bot_delay, check=False)
    rules = RuleSet.of(4, 99)  # long matches: nobody finishes inside the window
    async with trio.open_nursery() as nursery:
        nursery.start_soon(
            partial(
                run_bots,
                "127.0.0.1",
                port,
                args.tables * 4,
                plan,
                create=rules,
                seed=1,
                stats=stats,
            )
        )
        await trio.sleep(args.warmup)
        first_move, first_latency = stats.moves, len(stats.latencies)
        window_start = trio.current_time()
        cpu_start = cpu_seconds(host_pid), time.process_time(), machine_busy()[0]
        deadline = window_start + args.duration
        while trio.current_time() < deadline:
            await trio.sleep(1.0)
            peak = max(peak, rss_kib(host_pid))
        elapsed = trio.current_time() - window_start
        window = Window(
            moves=stats.moves - first_move,
            latencies=stats.latencies[first_latency:],
            failures=list(stats.failures),
            seconds=elapsed,
            peak_kib=peak,
            host_cpu=(cpu_seconds(host_pid) - cpu_start[0]) / elapsed,
            bots_cpu=(time.process_time() - cpu_start[1]) / elapsed,
            machine_cpu=(machine_busy()[0] - cpu_start[2]) / elapsed,
        )
        nursery.cancel_scope.cancel()
    return window


GENERATOR_SATURATED = 0.85
"""The load generator is one process on one core: busier than this, its own delays show in
the latencies it measures."""
OTHERS_BUSY = 0.25
"""Cores' worth of CPU taken by other processes during the window past which the machine was
busy with something else and the figures say more about it than about the host."""


def trust(window: Window) -> str:
    """Whether the window's figures can be trusted: the machine's load, and who made it."""
    cores = os.cpu_count() or 1
    others = max(0.0, window.machine_cpu - window.host_cpu - window.bots_cpu)
    line = (
        f"machine: {cores} cores, busy {window.machine_cpu:.2f} of them during the window "
        f"(host {window.host_cpu:.2f}, load generator {window.bots_cpu:.2f}, "
        f"other processes {others:.2f})"
    )
    doubts = []
    if window.bots_cpu >= GENERATOR_SATURATED:
        doubts.append("the load generator was saturated")
    if others >= OTHERS_BUSY:
        doubts.append("other processes were busy")
    if window.machine_cpu >= 0.9 * cores:
        doubts.append("the machine was near full")
    verdict = "DISCARD these figures: " + "; ".join(doubts) if doubts else "figures trustworthy"
    return f"{line}\n{verdict}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument(
        "--bot-delay", type=float, default=1.0, help="mean seconds a bot waits before a move"
    )
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    parser.add_argument(
        "--gc-threshold",
        type=int,
        default=0,
        help="gen-0 GC threshold of the bots process (default: its collector is off)",
    )
    args = parser.parse_args()

    if args.gc_threshold:
        gc.set_threshold(args.gc_threshold, 50, 100)
    else:
        # The bots are the measuring instrument: keep their collector from pausing them
        # (a young collection of 2,000 sessions took up to 140 ms, which is not the host's).
        gc.disable()
    rtt = trio.run(echo_rtt)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        host = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "scopa_net",
                "host",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(Path(tmp) / "load.db"),
                "--no-advertise",
                "--log-level",
                "WARNING",
                "--bot-delay",
                "0",
                "--max-per-address",
                str(args.tables * 4 + 10),
                "--max-tables-per-address",
                str(args.tables + 10),
            ],
            stderr=subprocess.DEVNULL,
        )
        try:
            trio.run(wait_for_port, port)
            idle = rss_kib(host.pid)
            window = trio.run(load, args, port, host.pid)
        finally:
            host.terminate()
            host.wait(timeout=30)
    lat = sorted(x * 1000 for x in window.latencies)
    p50 = statistics.median(lat) if lat else float("nan")
    p99 = lat[max(0, int(len(lat) * 0.99) - 1)] if lat else float("nan")
    print(
        f"load benchmark: {args.tables} four-player tables ({args.tables * 4} TCP clients), "
        f"bot delay {args.bot_delay} s, "
        f"measured {window.seconds:.0f} s after {args.warmup:.0f} s warm-up"
    )
    print(
        f"moves: {window.moves} ({window.moves / window.seconds:,.0f} per second), "
        f"failures: {len(window.failures)}"
    )
    print(f"move-to-broadcast latency: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    print(
        f"CPU: host process {window.host_cpu:.0%} of a core, load generator (the bots, this "
        f"process) {window.bots_cpu:.0%}"
    )
    print(trust(window))
    print(
        f"host memory: idle {idle / 1024:.1f} MiB, peak {window.peak_kib / 1024:.1f} MiB, "
        f"{(window.peak_kib - idle) / max(1, args.tables):.0f} KiB per table"
    )
    print(
        f"baseline: bare trio echo round trip on loopback {rtt * 1000:.3f} ms; "
        f"p50 latency is {p50 / (rtt * 1000):.0f}x that"
    )
    for failure in window.failures[:5]:
        print(f"failure: {failure}")
    if window.failures or not window.moves:
        sys.exit("load benchmark: the bots' play failed (see above)")


if __name__ == "__main__":
    main()
