"""The score keeper (``scopa-net tally``) whose terminal closes (SIGHUP: a window closed, an
SSH session dropped) as an entry is being saved: it leaves as at SIGTERM, status 129, and the
one line, which goes wherever stderr still goes (a log), says what is kept, since what it
shows is lost with the terminal. The tally's file stays whole: the entry typed just before is
either in it or not, and no temporary file is left beside it. Before, SIGHUP killed it where
it stood, with nothing said anywhere."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest
from helpers import env_with_home
from terminal_output import in_a_window_logging_stderr, read_until, until_logged

from scopa_net.commands.options import EXIT_HANGUP, EXIT_TERMINATED

GUARD = 30.0
CLOSED = "scopa-net: stopped by SIGHUP (the terminal closed)"


def saved_tally(home: Path) -> dict[str, object]:
    """The one tally saved under ``home``, read whole; no temporary file left beside it."""
    folder = home / "scopa-net" / "tallies"
    (saved,) = folder.glob("*.json")
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []
    return json.loads(saved.read_text())  # type: ignore[no-any-return]


@pytest.mark.skipif(shutil.which("setsid") is None, reason="util-linux setsid is not installed")
def test_tally_whose_window_closes_as_it_saves_stays_whole_and_says_what_is_kept(
    tmp_path: Path,
) -> None:
    """Points typed, Enter, and the window closed at once: the entry is being saved as the
    terminal closes."""
    env = env_with_home(tmp_path) | {"TERM": "xterm-256color", "NO_COLOR": "1"}
    err = tmp_path / "stderr.txt"
    tally = [sys.executable, "-m", "scopa_net", "tally", "Ada", "Bruno"]
    with in_a_window_logging_stderr(tally, env, err) as window:
        read_until(window.main_fd, b"tally>", GUARD)
        os.write(window.main_fd, b"+2 Ada\r")
        read_until(window.main_fd, b"'done' scores it.", GUARD)
        os.write(window.main_fd, b"+1 Bruno\r")
        window.close()
        status = window.process.wait(GUARD)
    saved = saved_tally(tmp_path)
    said = err.read_text()
    assert (status, said) == (
        EXIT_HANGUP,
        "scopa-net: stopped by SIGHUP (the terminal closed); "
        f"saved as {saved['id']}; `scopa-net tally --resume` carries on\n",
    )
    ada, bruno = [0, 2, "quick"], [1, 1, "quick"]
    assert saved["draft"] in ([ada], [ada, bruno]), saved


@pytest.mark.skipif(shutil.which("setsid") is None, reason="util-linux setsid is not installed")
@pytest.mark.parametrize("stop", ["window closed", "SIGTERM"])
def test_tally_typed_at_a_terminal_shown_elsewhere_stops_as_at_its_prompt(
    tmp_path: Path, stop: str
) -> None:
    """``scopa-net tally Ada Bruno > tally.txt``: typed at the terminal, shown in a file (no
    screen drawn). SIGTERM or the window closing killed it there, with nothing said; it now
    says what is kept, as at its prompt."""
    env = env_with_home(tmp_path) | {"TERM": "xterm-256color", "NO_COLOR": "1"}
    err, out = tmp_path / "stderr.txt", tmp_path / "tally.txt"
    tally = ["sh", "-c", 'exec "$0" "$@" >"$OUT"', sys.executable, "-m", "scopa_net", "tally"]
    with in_a_window_logging_stderr([*tally, "Ada", "Bruno"], env | {"OUT": str(out)}, err) as (
        window
    ):
        until_logged(out, "tally>", GUARD)
        os.write(window.main_fd, b"+2 Ada\r")
        until_logged(out, "'done' scores it.", GUARD)
        time.sleep(0.2)  # at the next line's question
        if stop == "SIGTERM":
            window.process.send_signal(signal.SIGTERM)
        else:
            window.close()
        status = window.process.wait(GUARD)
    saved = saved_tally(tmp_path)
    kept = f"Saved as {saved['id']}; `scopa-net tally --resume` carries on."
    shown = out.read_text().splitlines()
    assert shown[-2:] == [
        "Hand 1 so far: Ada 2, Bruno 0; not scored yet, kept for next time.",
        kept,
    ]
    if stop == "SIGTERM":
        assert (status, err.read_text()) == (EXIT_TERMINATED, "scopa-net: stopped by SIGTERM\n")
    else:
        said = (
            f"scopa-net: stopped by SIGHUP (the terminal closed); {kept[0].lower()}{kept[1:-1]}\n"
        )
        assert (status, err.read_text()) == (EXIT_HANGUP, said)


@pytest.mark.skipif(shutil.which("setsid") is None, reason="util-linux setsid is not installed")
def test_tally_whose_window_closes_at_its_names_says_nothing_is_saved(tmp_path: Path) -> None:
    """``scopa-net tally`` asks the players' names first; the window closes there."""
    env = env_with_home(tmp_path) | {"TERM": "xterm-256color", "NO_COLOR": "1"}
    err = tmp_path / "stderr.txt"
    tally = [sys.executable, "-m", "scopa_net", "tally"]
    with in_a_window_logging_stderr(tally, env, err) as window:
        read_until(window.main_fd, b"names>", GUARD)
        time.sleep(0.2)
        window.close()
        status = window.process.wait(GUARD)
    said = f"{CLOSED}; nothing saved: the tally had not started\n"
    assert (status, err.read_text()) == (EXIT_HANGUP, said)
    assert list((tmp_path / "scopa-net").glob("tallies/*.json")) == []
