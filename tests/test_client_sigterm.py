"""A game stopped by SIGTERM (``kill``) in a real terminal (tmux): it says so in one line, with
what is kept, and ends 143 (README's exit table). Before, ``join`` and ``play`` ended 143
without a word (the shell says nothing of a status a program returned), so a person whose game
vanished could not tell why, nor that the seat waited for them; pass and play was killed where
it stood, the hand of whoever held the keyboard left on the screen.

The tmux ones are skipped when tmux is not installed."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import sys
import termios
import time
from pathlib import Path

import pytest
from helpers import env_with_home, free_port
from hosting import host_command, host_in_thread, host_process
from terminal_output import on_a_terminal, read_until
from tmux_player import HANG_GUARD, Tmux, kept_seats, scopa_net

no_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def said_when_stopped_at_your_turn(tmux: Tmux, name: str) -> str:
    """What the game in tmux window ``name`` says after "Your turn." when SIGTERM stops it
    there; it must end 143."""
    pid = int(tmux.wait_for(name, r"^PID=(\d+)").group(1))
    tmux.wait_for(name, r"^Your turn\.")
    os.kill(pid, signal.SIGTERM)
    tmux.wait_for(name, r"^CLIENT-EXIT=\d+")
    screen = tmux.screen(name)
    assert "CLIENT-EXIT=143" in screen
    return screen.split("Your turn.")[-1].split("CLIENT-EXIT=")[0].strip()


@no_tmux
def test_join_stopped_by_sigterm_says_the_seat_is_kept_and_how_to_take_it_back(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with host_in_thread(bot_delay=0.1) as host, Tmux() as tmux:
        args = ["join", host.address, "--create", "--bots", "1", "--name", "Ada", "--ascii"]
        name = tmux.start(scopa_net(data, *args))
        said = said_when_stopped_at_your_turn(tmux, name)
        assert said == (
            "scopa-net: stopped by SIGTERM; the host keeps your seat while the table is open: "
            f"`scopa-net join {host.address}` takes it back"
        )
        assert len(kept_seats(data)) == 1
        # The command it names takes the seat back.
        again = tmux.start(scopa_net(data, "join", host.address, "--ascii"))
        tmux.wait_for(again, r"Back in your seat at table 1")


@no_tmux
def test_play_stopped_by_sigterm_says_so(tmp_path: Path) -> None:
    with Tmux() as tmux:
        name = tmux.start(scopa_net(tmp_path, "play", "--bot-delay", "0", "--ascii"))
        said = said_when_stopped_at_your_turn(tmux, name)
        assert said == "scopa-net: stopped by SIGTERM"


@no_tmux
def test_pass_and_play_stopped_by_sigterm_clears_the_hand_and_says_so(tmp_path: Path) -> None:
    with Tmux() as tmux:
        args = ["play", "--pass-and-play", "--names", "Ada,Bea", "--ascii", "--handover-pause", "0"]
        name = tmux.start(scopa_net(tmp_path, *args))
        pid = int(tmux.wait_for(name, r"^PID=(\d+)").group(1))
        who = tmux.wait_for(name, r"^(Ada|Bea): press Enter").group(1)
        tmux.keys(name, "Enter")
        tmux.wait_for(name, rf"^{who}>")
        assert re.search(r"^Your hand", tmux.screen(name), re.MULTILINE)
        os.kill(pid, signal.SIGTERM)
        tmux.wait_for(name, r"^CLIENT-EXIT=\d+")
        screen = tmux.screen(name)
        assert "CLIENT-EXIT=143" in screen
        assert "Your hand" not in screen  # cleared, scrollback and all, for the next person
        assert "scopa-net: stopped by SIGTERM; a pass-and-play match cannot be continued" in screen
        assert "Traceback" not in screen


def test_tally_stopped_by_sigterm_gives_the_terminal_back_and_says_what_is_kept(
    tmp_path: Path,
) -> None:
    """The score keeper died where it stood: under a shell that does not restore the terminal
    (a script, dash) it was left raw, with no echo and no line editing, and nothing said."""
    env = env_with_home(tmp_path)
    env.update(TERM="xterm-256color", NO_COLOR="1")
    tally = [sys.executable, "-m", "scopa_net", "tally", "Ada", "Bruno"]
    with on_a_terminal(tally, env) as (process, main_fd, terminal_fd):
        seen = read_until(main_fd, b"tally>", HANG_GUARD)
        os.write(main_fd, b"+2 Ada\r")
        seen += read_until(main_fd, b"'done' scores it.", HANG_GUARD)
        process.send_signal(signal.SIGTERM)
        seen += read_until(main_fd, b"stopped by SIGTERM", HANG_GUARD)
        assert process.wait(timeout=HANG_GUARD) == 143
        modes = termios.tcgetattr(terminal_fd)[3]  # the terminal as the person has it now
    assert modes & termios.ECHO
    assert modes & termios.ICANON
    text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", seen).decode(errors="replace")
    lines = [line.strip() for line in text.replace("\r", "\n").split("\n") if line.strip()]
    # The last words are these three, in this order (a redraw of the prompt that the signal
    # cut short may come between them on a busy machine, so they are looked for, not counted
    # from the end).
    stopped = lines.index("scopa-net: stopped by SIGTERM")
    said = lines[:stopped]
    held = said.index("Hand 1 so far: Ada 2, Bruno 0; not scored yet, kept for next time.")
    assert [line for line in said[held:] if line.startswith("Saved as ")], lines[-6:]
    assert lines[stopped + 1 :] == [], lines[-6:]
    assert "`scopa-net tally --resume` carries on." in text
    assert "Traceback" not in text
    (saved,) = (tmp_path / "scopa-net" / "tallies").glob("*.json")
    assert '"draft"' in saved.read_text()


def test_join_stopped_by_sigterm_at_the_password_gives_the_echo_back(tmp_path: Path) -> None:
    """SIGTERM at "password for table 1:" killed join with the terminal's echo off: under a
    shell that does not restore it (a script, dash) nothing typed next showed."""
    port = free_port()
    env = env_with_home(tmp_path)
    db = tmp_path / "host.db"
    host = host_process(host_command(db, port, "--players", "2", "--password", "sesame"), env)
    join = [sys.executable, "-m", "scopa_net", "join", f"127.0.0.1:{port}", "--table", "1"]
    try:
        with on_a_terminal(join, env) as (process, main_fd, terminal_fd):
            seen = read_until(main_fd, b"password for table 1: ", HANG_GUARD)
            process.send_signal(signal.SIGTERM)
            seen += read_until(main_fd, b"nothing joined", HANG_GUARD)
            assert process.wait(timeout=HANG_GUARD) == 143
            modes = termios.tcgetattr(terminal_fd)[3]
    finally:
        host.stop()
    assert modes & termios.ECHO
    said = seen.decode(errors="replace").replace("\r", "").split("password for table 1: ")[-1]
    assert said.strip() == "scopa-net: stopped by SIGTERM; nothing joined"


def test_a_game_stopping_for_sigterm_takes_no_second_one_nor_ctrl_c(tmp_path: Path) -> None:
    """A second SIGTERM (a process manager's, a script's) while ``play`` stopped for the
    first, or just after it said so, killed it: the shell's "Terminated" after the line, and
    the status of a kill, not the game's 143. Ctrl-C then must change nothing either."""
    env = env_with_home(tmp_path)
    env.update(TERM="xterm-256color", NO_COLOR="1")
    play = [sys.executable, "-m", "scopa_net", "play", "--bot-delay", "0", "--ascii"]
    with on_a_terminal(play, env) as (process, main_fd, _terminal_fd):
        read_until(main_fd, b"Your turn.", HANG_GUARD)
        process.send_signal(signal.SIGTERM)
        time.sleep(0.01)  # the first is taken (two pending at once come lowest first)
        deadline = time.monotonic() + HANG_GUARD
        while process.poll() is None and time.monotonic() < deadline:
            for signum in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signum)
                time.sleep(0.002)
        said = read_until(main_fd, b"stopped by SIGTERM", HANG_GUARD)
        status = process.wait(timeout=HANG_GUARD)
    assert status == 143, said[-500:]
    assert b"Traceback" not in said
