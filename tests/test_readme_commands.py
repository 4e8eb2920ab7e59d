"""The README's command lines that no other test runs, each run here as a person types it (a
short form where the real one is long); test_readme.py names the test that runs every line.

The LAN lines (``play --lan``, ``join`` with no address) run in a private network namespace
of their own (``unshare -rn`` and a veth pair), so the announcement and the search go over a
LAN that reaches nothing outside this machine."""

from __future__ import annotations

import builtins
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from app_driver import RecordingOutput
from hosting import HostThread
from prompt_toolkit.input import create_pipe_input
from reading_screen import FirstDeal, reading_screen

from scopa_net.client import launch, tally_app
from scopa_net.commands.main import main
from scopa_net.rules import RuleSet

TESTS = Path(__file__).resolve().parent

#: A LAN of its own: loopback, and a veth pair whose one end has an address to announce.
PRIVATE_LAN = (
    "ip link set lo up && ip link add v0 type veth peer name v1"
    " && ip addr add 10.77.0.1/24 dev v0 && ip link set v1 up && ip link set v0 up"
    " && ip route add 224.0.0.0/4 dev v0"
)


def private_lan_problem() -> str | None:
    """Why a private network namespace cannot be made here (None: it can)."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "unshare or ip is not installed"
    probe = subprocess.run(
        ["unshare", "-rn", "sh", "-c", PRIVATE_LAN],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    if probe.returncode != 0:
        return f"unshare -rn and a veth pair are not allowed here ({probe.stderr.strip()})"
    return None


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Data and config folders under tmp_path, never the real home."""
    dirs = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    for key, value in dirs.items():
        monkeypatch.setenv(key, value)
    return dirs


def test_play_lan_host_and_a_friends_join_that_finds_them_on_the_lan(
    homes: dict[str, str],
) -> None:
    """``scopa-net play --lan --players 4 --humans 2`` (here with ``--port`` and ``--password``
    too) opens a table with two computer seats and announces it; a friend's ``scopa-net
    join`` finds it on the LAN with its open seat and password, takes the numbers typed (the
    host, then the table) and the password asked for, and sits down; both get their first
    deal, and the player at ``play`` is told the command friends type. Then ``scopa-net host
    --players 2 --bots 1`` is announced too (the host's own path), the same ``join`` finds it
    and sits down, and SIGINT stops the host cleanly."""
    problem = private_lan_problem()
    if problem is not None:
        pytest.skip(f"no private LAN to run play --lan, host and join on: {problem}")
    play = ["play", "--lan", "--players", "4", "--humans", "2"]
    play += ["--port", "7400", "--password", "pw", "--name", "Ada"]
    host = ["host", "--players", "2", "--bots", "1", "--db", f"{homes['XDG_DATA_HOME']}/h.db"]
    lines = {"play": play, "join": ["join", "--name", "Bruno"], "host": host}
    script = f"exec {sys.executable} {TESTS / 'lan_scenario.py'} '{json.dumps(lines)}'"
    done = subprocess.run(
        ["unshare", "-rn", "sh", "-c", f"{PRIVATE_LAN} && {script}"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **homes},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    *printed, last = done.stdout.splitlines()
    report = json.loads(last)
    assert report["asked"] == [
        "host number (1, Enter to stop): ",
        "table number (1; Enter to stop): ",
        "password for table 1: ",
        "--- host",
        "host number (1, Enter to stop): ",
        "table number (1; Enter to stop): ",
    ]
    # play --lan, and the friend who found it.
    assert report["play"]["statuses"] == {"play": 0, "join": 0}
    # Each host with its key's fingerprint (short), to tell two hosts apart before a pick.
    key = r"key [0-9a-f]{4}-[0-9a-f]{4}"
    listed = "\n".join(printed)
    assert re.search(
        rf"^1\. Ada's table at 10\.77\.0\.1:7400, {key} \(1 open seat, password\)$", listed, re.M
    )
    ada, bruno = sorted((FirstDeal(**s) for s in report["play"]["seen"]), key=lambda s: s.seat)
    assert (ada.seat, bruno.seat) == (0, 1)
    assert ada.players == bruno.players == 4
    assert ada.names == bruno.names == ["Ada", "Bruno", "bot 2", "bot 3"]
    assert ada.table == bruno.table
    assert not set(ada.hand) & set(bruno.hand)
    # A table with a password: friends' join asks for it (typed unseen), never shown here.
    assert "  scopa-net join 10.77.0.1:7400" in ada.notices
    assert "It asks them for the table's password, the one you gave: tell them yourself" in (
        ada.notices
    )
    assert not any("pw" in line.split() for line in ada.notices)
    # host, and the same friend.
    assert report["host"]["statuses"] == {"host": 0, "join": 0}
    assert re.search(
        rf"^1\. .* at 10\.77\.0\.1:7311, {key} \(1 open seat\)$", "\n".join(printed), re.M
    )
    (seated,) = (FirstDeal(**s) for s in report["host"]["seen"])
    assert seated.players == 2
    assert seated.names[seated.seat] == "Bruno"


def test_join_at_an_address_lists_the_tables_and_seats_the_number_typed(
    threaded_host: HostThread, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """``scopa-net join HOST:PORT``: the tables with an open seat are listed, the number typed
    picks one, and the player sits down at it and is dealt."""
    host = threaded_host.host
    for name in ("hall", "kitchen", "garden"):
        threaded_host.call(host.create_table, name, RuleSet.of(2, 1), None, 1, 1)
    asked: list[str] = []
    monkeypatch.setattr(builtins, "input", lambda prompt="": asked.append(prompt) or "2")
    seen: list[FirstDeal] = []
    monkeypatch.setattr(launch, "run_game_screen", reading_screen(seen))
    assert main(["join", threaded_host.address, "--name", "Ada"]) == 0
    out = capsys.readouterr().out
    assert "table 2 'kitchen': 2 players, playing to 1," in out
    assert asked == ["table number (1, 2, 3; Enter to stop): "]
    (dealt,) = seen
    assert (dealt.table_id, dealt.players) == (2, 2)
    assert dealt.names[dealt.seat] == "Ada"


def test_join_create_opens_the_table_asked_for_and_sits_down(
    threaded_host: HostThread, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scopa-net join HOST --create --players 4`` (with three computer players, so the round
    starts): the player sits at a new 4-seat table and is dealt, with nothing asked."""

    def never_asked(prompt: str = "") -> str:
        raise AssertionError(f"--create asked {prompt!r}")

    monkeypatch.setattr(builtins, "input", never_asked)
    seen: list[FirstDeal] = []
    monkeypatch.setattr(launch, "run_game_screen", reading_screen(seen))
    argv = ["join", threaded_host.address, "--create", "--players", "4", "--bots", "3"]
    assert main([*argv, "--name", "Ada"]) == 0
    (dealt,) = seen
    assert dealt.players == 4
    assert dealt.names[dealt.seat] == "Ada"


def test_play_coach_from_the_flag_or_the_settings_file(
    homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scopa-net play --coach``, or ``coach = true`` in client.toml, turns the coach on at
    the game screen (what the coach says is tested in test_hints.py)."""
    screens: list[object] = []
    seen: list[FirstDeal] = []
    reading = reading_screen(seen)

    def screen(open_session, settings, **options: object) -> int:
        screens.append(options.get("coach"))
        return reading(open_session, settings, **options)

    monkeypatch.setattr(launch, "run_game_screen", screen)
    assert main(["play", "--coach", "--bot-delay", "0"]) == 0
    assert main(["play", "--bot-delay", "0"]) == 0
    config = Path(homes["XDG_CONFIG_HOME"]) / "scopa-net" / "client.toml"
    config.parent.mkdir(parents=True)
    config.write_text("coach = true\n")
    assert main(["play", "--bot-delay", "0"]) == 0
    assert screens == [True, False, True]
    assert len(seen) == 3


def test_play_against_the_expert_thinking_as_long_as_asked(
    homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scopa-net play --bot-level expert --think 2`` (here 0.05 s): the table's computer player
    is the expert, given that budget a move."""
    from scopa_net.server import table_task

    made: list[tuple[str, float]] = []
    real_table_player = table_task.table_player

    def recording_table_player(level: str, seed: int, think: float) -> object:
        made.append((level, think))
        return real_table_player(level, seed, think)

    monkeypatch.setattr(table_task, "table_player", recording_table_player)
    seen: list[FirstDeal] = []
    monkeypatch.setattr(launch, "run_game_screen", reading_screen(seen))
    argv = ["play", "--bot-level", "expert", "--think", "0.05", "--bot-delay", "0"]
    assert main(argv) == 0
    assert made  # the host made its computer player...
    assert set(made) == {("expert", 0.05)}  # ...as the flags asked, every time
    assert len(seen) == 1


def test_a_tally_started_resumed_listed_and_exported(
    homes: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scopa-net tally Ada Bruno Carla Dino --target 21``, a hand typed, quit; ``tally
    --resume`` goes on with another (and exports it at the prompt); ``tally --list`` shows it
    as number 1; ``tally --export 1 --format csv`` prints both hands."""
    typed = [
        ["+3 ada", "done", "y", "quit"],
        ["+2 bruno", "done", "y", "export csv", "export markdown", "quit"],
    ]
    screens: list[str] = []
    real_run_tally = tally_app.run_tally

    def run_typed(controller, display, *, plain: bool = False) -> int:
        output = RecordingOutput()
        with create_pipe_input() as pipe:
            pipe.send_text("".join(f"{line}\r" for line in typed.pop(0)))
            status = real_run_tally(controller, display, plain=plain, input=pipe, output=output)
        screens.append(output.text)
        return status

    monkeypatch.setattr(tally_app, "run_tally", run_typed)
    assert main(["tally", "Ada", "Bruno", "Carla", "Dino", "--target", "21"]) == 0
    assert main(["tally", "--resume"]) == 0
    assert not typed
    # Four players are two sides; the resumed tally went on from the first hand.
    assert "After it: Ada & Carla 3, Bruno & Dino 2." in screens[1]
    assert "1. Ada & Carla    3   18 to go" in screens[1]
    capsys.readouterr()
    assert main(["tally", "--list"]) == 0
    listed = capsys.readouterr().out
    assert listed.startswith("  1. ")
    assert "Ada & Carla 3, Bruno & Dino 2 (to 21), 2 hands" in listed
    assert main(["tally", "--export", "1", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == [
        "hand,Ada & Carla,Bruno & Dino,how,details",
        "1,3,0,quick,",
        "2,0,2,quick,",
    ]
    assert main(["tally", "--export", "1"]) == 0  # markdown, the default
    assert capsys.readouterr().out.startswith("# Scopa tally: Ada & Carla v Bruno & Dino\n")
    # The file table the README links to names what is written: `tally --export` writes
    # nothing, the prompt's `export csv` and `export markdown` write `ID.csv` and `ID.md`.
    files = (TESTS.parent / "docs" / "files.md").read_text(encoding="utf-8")
    (row,) = [line for line in files.splitlines() if line.startswith("| `tallies/")]
    named = set(re.findall(r"`(?:tallies/)?ID(\.[a-z]+)`", row))
    tallies = Path(homes["XDG_DATA_HOME"]) / "scopa-net" / "tallies"
    written = {path.suffix for path in tallies.iterdir()}
    assert named == written, (row, sorted(tallies.iterdir()))
