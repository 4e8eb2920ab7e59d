"""The host against an earlier commit's host, measured in the same window.

The host's CPU per move follows the machine's day as much as the code: the same code measured
0.41 ms a move at 500 tables one day and 0.80 ms another, here. A figure alone then says little
about what the code gained. This script runs ``load.py`` of an earlier commit (that commit's
own host and load generator, installed in a virtual environment of their own) and today's,
alternately, and prints each figure's median for both and their ratio (today's over the
commit's).

    python benchmarks/load_against.py [--commit 27899b4] [--runs 3] [--tables 500]

The commit defaults to the host as it was when the target of a third of the CPU per move was
set (:data:`BEFORE`). Needs git, and pip's package index for that commit's dependencies. Each
run talks only to 127.0.0.1 and stops by itself (see ``load.py``).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

BEFORE = "27899b4"
"""The host of 2026-12-01, 06:56 UTC: ``load.py`` had its raw-frame players, and none of the
host's work on its CPU per move had landed (it began with the next commit)."""
REPO = Path(__file__).resolve().parent.parent
RUN_TIMEOUT = 900.0
"""Seconds one ``load.py`` run may take before this gives up on it."""
ATTEMPTS = 2
"""Tries of a run before this gives up on it: the load generator of 27899b4 stops now and then
on a player whose hand it has as empty (``IndexError`` in its ``choose``, about one run in
five on 2026-12-07), a fault of that generator, not of the host it measures."""

FIGURES = {
    "moves per second": re.compile(r"moves: \d+ \((\d+) per second\)"),
    "latency p50, ms": re.compile(r"latency: p50 ([\d.]+) ms"),
    "latency p99, ms": re.compile(r"latency: p50 [\d.]+ ms, p99 ([\d.]+) ms"),
    "host CPU per move, ms": re.compile(r"CPU: host process \d+% of a core \(([\d.]+) ms per move"),
    "one commit, ms": re.compile(r"one journal commit .* takes ([\d.]+) ms"),
    "trio echo, ms": re.compile(r"bare trio echo round trip on loopback ([\d.]+) ms"),
}
"""Each figure both versions of ``load.py`` print, and how to read it from their report."""


@dataclass(frozen=True)
class Run:
    figures: dict[str, float]
    trustworthy: bool


def read_report(text: str) -> Run:
    """The figures of one ``load.py`` report (a figure it does not print is left out)."""
    figures = {}
    for name, pattern in FIGURES.items():
        found = pattern.search(text)
        if found:
            figures[name] = float(found.group(1))
    failures = re.search(r"failures: (\d+)", text)
    if failures is None or int(failures.group(1)):
        raise SystemExit(f"load_against.py: a run failed or printed no figures:\n{text}")
    return Run(figures, "figures trustworthy" in text)


def install(commit: str, into: Path) -> tuple[Path, Path]:
    """``commit``'s tree and a virtual environment with it installed: (its load.py, python)."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", "--format=tar", commit],
            check=True,
            capture_output=True,
        ).stdout
    except subprocess.CalledProcessError as exc:
        raise SystemExit(
            f"load_against.py: git cannot find commit {commit!r} here: "
            f"{exc.stderr.decode().strip()}"
        ) from None
    source = into / "source"
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(source, filter="data")
        else:
            tar.extractall(source)
    env = into / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    python = env / "bin" / "python"
    pip = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    if pip.returncode:
        raise SystemExit(f"load_against.py: pip could not install {commit}:\n{pip.stderr}")
    return source / "benchmarks" / "load.py", python


def load_command(python: Path, script: Path, args: argparse.Namespace) -> list[str]:
    """``load.py`` with this run's settings (its delay flag was ``--think`` before 2026-12-02)."""
    usage = subprocess.run(
        [str(python), str(script), "--help"], capture_output=True, text=True, check=True
    ).stdout
    delay = "--bot-delay" if "--bot-delay" in usage else "--think"
    return [
        str(python),
        str(script),
        "--tables",
        str(args.tables),
        delay,
        str(args.bot_delay),
        "--duration",
        str(args.duration),
        "--warmup",
        str(args.warmup),
    ]


def run_once(command: list[str], cwd: Path) -> Run:
    """One run's figures; a run that fails is tried again, up to :data:`ATTEMPTS` in all."""
    for attempt in range(1, ATTEMPTS + 1):
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False
        )
        if not done.returncode:
            return read_report(done.stdout)
        if attempt < ATTEMPTS:
            last = done.stderr.strip().splitlines()[-1:] or ["no error printed"]
            print(f"a run failed ({last[0][:200]}); running it again", flush=True)
    raise SystemExit(f"load_against.py: {' '.join(command)} failed:\n{done.stderr[-2000:]}")


def summary(before: list[Run], now: list[Run], commit: str) -> list[str]:
    """The table printed at the end: each figure's median for both, and now over before."""
    lines = [f"{'figure':<24}{commit:>12}{'now':>12}{'now/before':>12}"]
    for name in FIGURES:
        old = [r.figures[name] for r in before if name in r.figures]
        new = [r.figures[name] for r in now if name in r.figures]
        if not old or not new:
            continue
        a, b = statistics.median(old), statistics.median(new)
        ratio = f"{b / a:.2f}" if a else "-"
        lines.append(f"{name:<24}{a:>12.3f}{b:>12.3f}{ratio:>12}")
    doubtful = sum(not r.trustworthy for r in before + now)
    if doubtful:
        lines.append(
            f"{doubtful} of {len(before) + len(now)} runs said their figures are not "
            "trustworthy (the machine was busy): measure again on a quiet machine"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default=BEFORE, help=f"the host to compare with ({BEFORE})")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, alternately")
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--bot-delay", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=15.0)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    work = Path(tempfile.mkdtemp(prefix="load-against-"))
    try:
        print(f"installing {args.commit} in {work} ...", flush=True)
        script, python = install(args.commit, work)
        old = load_command(python, script, args)
        new = load_command(Path(sys.executable), REPO / "benchmarks" / "load.py", args)
        before: list[Run] = []
        now: list[Run] = []
        for i in range(args.runs):
            # The commit's load.py runs outside its tree: ``python -m scopa_net`` there would
            # import the tree's folders, not the package installed from them.
            before.append(run_once(old, work))
            now.append(run_once(new, REPO))
            print(
                f"run {i + 1} of {args.runs}: host CPU per move "
                f"{before[-1].figures.get('host CPU per move, ms')} ms ({args.commit}), "
                f"{now[-1].figures.get('host CPU per move, ms')} ms (now)",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"load_against.py: {args.tables} tables, {args.runs} runs of each, alternately; medians")
    for line in summary(before, now, args.commit):
        print(line)


if __name__ == "__main__":
    main()
