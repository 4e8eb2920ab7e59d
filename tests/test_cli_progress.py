"""Long work shows progress: a redrawn line on a terminal, plain lines otherwise, nothing with
--quiet; ``bots`` tells what its players do (issue 15)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import trio
from hosting import HostThread, start_host

from scopa_net.commands.main import main
from scopa_net.commands.progress import Progress, format_duration
from scopa_net.rules import RuleSet
from scopa_net.server.config import HostConfig
from scopa_net.server.host import Host
from scopa_net.server.journal import Journal


def test_a_restore_s_last_line_says_how_long_it_took_in_plain_words() -> None:
    """Restoring three tables ended "100%  58.4/min  took 3 s": a rate in symbols run into
    the time it took. On the way the rate says what it counts, in words."""
    out, clock = io.StringIO(), Clock()
    progress = Progress("restoring", 3, "tables", stream=out, terminal=False, clock=clock)
    for _ in range(3):
        clock.now += 1.03
        progress.advance()
    lines = out.getvalue().splitlines()
    assert lines[1] == "restoring  2/3 tables  67%  58.3 tables a minute  about 1 s left"
    assert lines[-1] == "restoring  3/3 tables  100%  took 3 s"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_at_every_tenth_with_rate_and_time_left() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress("arena", 100, "matches", stream=out, terminal=False, clock=clock)
    for _ in range(100):
        clock.now += 0.5
        progress.advance()
    lines = out.getvalue().splitlines()
    assert len(lines) == 10
    assert lines[0] == "arena  10/100 matches  10%  2.0 matches a second  about 45 s left"
    assert lines[-1] == "arena  100/100 matches  100%  took 50 s"


def test_a_terminal_gets_one_redrawn_line_and_quiet_gets_nothing() -> None:
    out, clock = io.StringIO(), Clock()
    with Progress("verify", 4, "files", stream=out, terminal=True, clock=clock) as progress:
        for _ in range(4):
            clock.now += 1
            progress.advance()
    text = out.getvalue()
    # Drawn at once (an arena of experts may take a while to finish its first match), then
    # at each of the four.
    assert text.startswith("\r\x1b[Kverify  0/4 files  [....................]  0%\r")
    assert text.count("\r\x1b[K") == 5
    assert text.endswith("\n")
    assert text.count("\n") == 1
    assert "[#####...............]  25%  1.0 files a second  about 3 s left" in text
    quiet = io.StringIO()
    with Progress("x", 3, "things", stream=quiet, quiet=True, terminal=True) as progress:
        progress.advance(3)
    assert quiet.getvalue() == ""


def test_durations_read_as_people_say_them() -> None:
    assert [format_duration(s) for s in (4.4, 185, 3720)] == ["4 s", "3 min 05 s", "1 h 02 min"]


def test_arena_shows_progress_unless_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "easy", "medium", "--matches", "4", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert re.search(r"arena  4/4 matches  100%  .*took", captured.err)
    assert "win" in captured.out.lower()
    assert main(["arena", "easy", "medium", "--matches", "2", "--jobs", "1", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_host_restoring_its_journal_reports_each_table(tmp_path: Path) -> None:
    db = str(tmp_path / "host.db")

    async def open_tables() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, db=db)
            for n in range(3):
                await host.create_table(f"t{n}", RuleSet.of(2), None, 1, 1)
            await host.shutdown()
            nursery.cancel_scope.cancel()
        host.journal.close()

    async def restart() -> list[tuple[int, int]]:
        seen: list[tuple[int, int]] = []
        config = HostConfig(bind="127.0.0.1", port=0, advertise=False, db=db)
        host = Host(config, Journal(db))
        host.on_restored = lambda done, total: seen.append((done, total))
        async with trio.open_nursery() as nursery:
            await nursery.start(host.serve)
            await host.shutdown()
            nursery.cancel_scope.cancel()
        host.journal.close()
        return seen

    trio.run(open_tables)
    assert trio.run(restart) == [(1, 3), (2, 3), (3, 3)]


def test_bots_say_what_they_do_not_benchmark_figures(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    threaded_host: HostThread,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    argv = ["bots", threaded_host.address, "--create", "--count", "2", "--target", "1"]
    argv += ["--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "bot-1: seated at table 1 seat 0" in out
    assert "bot-2: seated at table 1 seat 1" in out
    # Each side named, as the client's score lines name them ("round over, match 5-3" named
    # none), the bot's own first; the score is the match's, and after a name ending in a
    # digit it follows a colon ("round over: bot-1 5, bot 0 4" read as the round's score,
    # the 0 and the 4 run together).
    first = r"^bot-1 \(table 1 seat 0\): round over; match score: bot-1: \d+, bot-2: \d+$"
    assert re.search(first, out, re.M), out
    second = r"^bot-2 \(table 1 seat 1\): round over; match score: bot-2: \d+, bot-1: \d+$"
    assert re.search(second, out, re.M), out
    # (A deal void for its kings, about 1 in 600, is counted apart: "(1 of them void)".)
    ends = re.findall(
        r"match over after \d+ rounds?(?: \(\d+ of them void\))?, (won|lost): "
        r"bot-\d: (\d+), bot-\d: (\d+)$",
        out,
        re.M,
    )
    assert len(ends) == 2, out
    # Each says its own score first: the winner's is the higher ("lost 3-0" was seat order).
    for outcome, own, other in ends:
        assert (int(own) > int(other)) == (outcome == "won"), ends
    assert re.search(r"^2 bots sent, 1 match finished, in \d+ s$", out, re.M)
    assert "round trip" not in out
    assert main([*argv, "--stats", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "seated" not in out
    assert "move round trip: median" in out


def test_no_rate_over_work_too_short_to_measure() -> None:
    """A restart restoring one table in microseconds read "134426.7/s  took 0 s"."""
    out, clock = io.StringIO(), Clock()
    progress = Progress("restoring", 1, "tables", stream=out, terminal=False, clock=clock)
    clock.now += 0.00001
    progress.advance()
    assert out.getvalue() == "restoring  1/1 tables  100%  took 0 s\n"


def test_bots_name_partners_on_each_side_their_own_first() -> None:
    from scopa_net.commands.bots import sides_scored
    from scopa_net.rules import RuleSet

    names = ["Dino", "Carla", "bot-2", "bot-3"]
    assert sides_scored((5, 3), 0, RuleSet.of(4), names) == "Dino & bot-2: 5, Carla & bot-3: 3"
    assert sides_scored((5, 3), 1, RuleSet.of(4), names) == "Carla & bot-3: 3, Dino & bot-2: 5"
    assert sides_scored((1, 4, 2), 2, RuleSet.of(3), names[:3]) == "bot-2: 2, Dino: 1, Carla: 4"
    assert sides_scored((1, 4), 1, RuleSet.of(2), ["Ada", "Bruno"]) == "Bruno 4, Ada 1"
