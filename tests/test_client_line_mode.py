"""`scopa-net play` and `join` with no terminal to draw on: output to a pipe or a file, input
from a script. Plain lines only, each as the person reads it, and a script's lines read as if
typed (:mod:`scopa_net.client.line_mode`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from hosting import HostThread

from scopa_net.commands.options import EXIT_BROKEN_PIPE

SEED_HAND = "Your hand Ah♥=1  Ab♣=1  4h♥=4"
"""`play --seed 3`: the person's first hand (the table is 3d 3s 3b 6h)."""
PLAY = ("play", "--target", "1", "--bot-delay", "0", "--name", "Ada")


def scopa_net(
    *args: str, home: Path, stdin: int | bytes, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``scopa-net ARGS`` with ``stdin`` (a file descriptor, or bytes through a pipe) and its
    output read as bytes, exactly as a file or a pipe gets them."""
    environment = dict(os.environ) | {"XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "scopa_net", *args],
        capture_output=True,
        env=environment | (env or {}),
        stdin=stdin if isinstance(stdin, int) else None,
        input=stdin if isinstance(stdin, bytes) else None,
        timeout=60,
        check=False,
    )


def assert_plain(out: bytes) -> list[str]:
    """Nothing drawn in ``out``: no escapes, no carriage returns, no prompt, no toolbar, no
    blank lines; its lines."""
    assert b"\x1b" not in out
    assert b"\r" not in out
    text = out.decode()
    assert "scopa>" not in text
    assert "Input is not a terminal" not in text
    assert "| local game" not in text
    assert "| connected" not in text
    lines = text.splitlines()
    assert "" not in lines
    return lines


def test_a_script_is_read_line_by_line_as_if_typed(tmp_path: Path) -> None:
    """`play < moves.txt` printed prompt-toolkit's "Input is not a terminal" and a raw
    escape, and left without reading a line. Each line is read when the game waits for the
    person: `last` after `4h` waits for the computer's answer, so it shows both plays."""
    moves = b"board\n4h\nlast\nquit\ny\n"
    done = scopa_net(*PLAY, "--seed", "3", home=tmp_path, stdin=moves)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    lines = assert_plain(done.stdout)
    assert lines.count(SEED_HAND) == 2  # dealt, then `board`
    played = lines.index("You play 4h♥")
    answered = next(i for i, line in enumerate(lines) if line.startswith("bot 1 plays "))
    assert played < answered
    # `last`: each player's last play, after the board drawn for the person's turn
    assert lines[-4:-2] == ["You play 4h♥", lines[answered]]
    assert lines[-2:] == ["The match is not over. Really leave?", "Leaving the table."]


def test_at_a_host_ones_own_plays_read_you_play(tmp_path: Path) -> None:
    """`play` without `--seed` plays at its own host, whose client notes who made each
    play: Ada's own plays read "Ada plays 2b♣" there, as if someone else had made them."""
    ranks = b"A\n2\n3\n4\n5\n6\n7\nJ\nQ\nK\n" * 2
    done = scopa_net(*PLAY, home=tmp_path, stdin=ranks + b"quit\ny\n")
    assert done.returncode == 0, done.stderr
    lines = assert_plain(done.stdout)
    assert any(line.startswith("You play ") for line in lines)
    assert not [line for line in lines if "Ada plays" in line]


def test_the_end_of_a_script_leaves_as_ctrl_d_does(tmp_path: Path) -> None:
    """`play < /dev/null` at its own host: the input's end asks to leave and leaves (it
    printed a warning and an escape, and read nothing)."""
    with open(os.devnull, "rb") as nothing:
        done = scopa_net(*PLAY, home=tmp_path, stdin=nothing.fileno())
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    lines = assert_plain(done.stdout)
    assert lines[0] == "Connection: connected."
    assert "Your turn." in lines
    assert lines[-2:] == ["The match is not over. Really leave?", "Leaving the table."]


def test_the_end_of_a_script_leaves_a_practice_game_as_ctrl_d_does(tmp_path: Path) -> None:
    """`play --seed 3` from a script that ends mid-match left at once, saying nothing,
    where the game at its own host asks and leaves: it now says the same two lines."""
    done = scopa_net(*PLAY, "--seed", "3", home=tmp_path, stdin=b"board\n")
    assert done.returncode == 0, done.stderr
    lines = assert_plain(done.stdout)
    assert lines[-2:] == ["The match is not over. Really leave?", "Leaving the table."]


def test_plain_from_a_script_is_words_with_nothing_redrawn(tmp_path: Path) -> None:
    """--plain promises "nothing redrawn": from a script the prompt was still redrawn after
    every line, with blank lines and the next words 8 columns to the right."""
    done = scopa_net(*PLAY, "--seed", "3", "--plain", home=tmp_path, stdin=b"board\n3\n")
    assert done.returncode == 0, done.stderr
    lines = assert_plain(done.stdout)
    hand = "Your hand: ace of cups (1), ace of clubs (1), 4 of cups (4)."
    assert lines.count(hand) == 2
    assert lines[0] == "Round 1, target 1. Score: Ada: 0, bot 1: 0."
    assert lines[-3] == "You hold no card of rank 3."
    assert lines[-2:] == ["The match is not over. Really leave?", "Leaving the table."]


def test_join_reads_a_script_as_play_does(tmp_path: Path, threaded_host: HostThread) -> None:
    """`join` is the same one client: a script's lines as typed, plain lines out."""
    join = ("join", threaded_host.address, "--create", "--players", "2", "--bots", "1")
    done = scopa_net(*join, "--target", "1", "--name", "Ada", home=tmp_path, stdin=b"who\n")
    assert done.returncode == 0, done.stderr
    lines = assert_plain(done.stdout)
    assert "Seat 0: Ada (you)" in lines or "Seat 1: Ada (you)" in lines
    assert "Your turn." in lines
    # The end of the input: `quit`, then `away` at the question, as Ctrl-D twice
    assert lines[-2].startswith("Leave for good (a computer player takes your seat) or step")
    # A computer plays for a person who stepped away at once (protocol.md 3.3), not after
    # the grace time: the words say so (Nina came back after 7 s to a stock gone down by 12).
    assert lines[-2].endswith(
        "(your seat is kept for you, a computer playing it at once until `scopa-net join` "
        "takes it back)? Type leave, away, or stay."
    )
    # The line saying how to take the seat back is the last: "Connection: closed." under
    # it was noise (the person chose to go).
    assert lines[-1].startswith(
        "Stepping away; your seat is kept, and a computer plays it from now until you come "
        "back. Take it back with: "
    )


def read_until(fd: int, wanted: bytes, timeout: float = 30) -> bytes:
    """What ``fd`` gives until ``wanted`` appears in it."""
    got = b""
    deadline = time.monotonic() + timeout
    while wanted not in got:
        left = deadline - time.monotonic()
        assert left > 0, f"no {wanted!r} in {got!r}"
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 4096)
            assert chunk, f"the output ended before {wanted!r}: {got!r}"
            got += chunk
    return got


def test_output_to_a_pipe_is_plain_lines_while_a_person_types(tmp_path: Path) -> None:
    """`play | tee game.txt`: a prompt was followed by blank lines, the next output began 7
    columns to the right, and the toolbar was drawn into the file with a carriage return at
    every line's end. The person types at the terminal; the pipe gets the game's lines."""
    terminal, typing_end = pty.openpty()
    environment = dict(os.environ) | {
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    game = subprocess.Popen(
        [sys.executable, "-m", "scopa_net", *PLAY, "--seed", "3"],
        stdin=typing_end,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    )
    os.close(typing_end)
    try:
        assert game.stdout is not None
        out = read_until(game.stdout.fileno(), b"Your turn.\n")
        os.write(terminal, b"help\n")
        out += read_until(game.stdout.fileno(), b"Ctrl-D leaves, as quit does.\n")
        os.write(terminal, b"quit\ny\n")
        rest, err = game.communicate(timeout=30)
    finally:
        game.kill()
        os.close(terminal)
    assert game.returncode == 0, err
    assert err == b""
    lines = assert_plain(out + rest)
    assert lines[0] == "Round 1  dealer bot 1  target 1  variants: none"  # at column 0
    assert SEED_HAND in lines
    assert "  board  show the table, your hand and the score again" in lines
    assert lines[-1] == "Leaving the table."


def test_a_terminal_that_is_not_utf8_gets_suit_letters(tmp_path: Path) -> None:
    """LANG=C LC_ALL=C: the suit symbols were printed all the same, garbage on a terminal
    whose character set has none; the letters alone say the suit, as with --ascii."""
    for env in ({"LANG": "C", "LC_ALL": "C"}, {"PYTHONIOENCODING": "latin-1"}):
        done = scopa_net(*PLAY, "--seed", "3", home=tmp_path, stdin=b"board\n", env=env)
        assert done.returncode == 0, done.stderr
        assert done.stderr == b""
        assert done.stdout.isascii()
        assert "Your hand Ah=1  Ab=1  4h=4" in assert_plain(done.stdout)


def test_a_reader_that_goes_away_ends_the_game_quietly(tmp_path: Path) -> None:
    """`play < moves | head -3`: the next line written to the closed pipe ended the game with
    "cannot reach the host: Broken pipe" and status 3. It ends as `demo | head -1` does:
    nothing said, status 141."""
    environment = dict(os.environ) | {
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    game = subprocess.Popen(
        [sys.executable, "-m", "scopa_net", *PLAY, "--seed", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    )
    try:
        assert game.stdin is not None
        assert game.stdout is not None
        read_until(game.stdout.fileno(), b"Your turn.\n")
        game.stdout.close()  # the reader goes away
        game.stdin.write(b"board\n")
        game.stdin.close()
        assert game.stderr is not None
        with game.stderr:
            err = game.stderr.read()
        game.wait(timeout=30)
    finally:
        game.kill()
    assert err == b""
    assert game.returncode == EXIT_BROKEN_PIPE


OWN_TERMINAL = (
    "import os, runpy, sys; os.close(os.open(os.ttyname(0), os.O_RDWR)); "
    "runpy.run_module('scopa_net', run_name='__main__')"
)
"""`python -m scopa_net` in a session of its own whose controlling terminal is its standard
input (opened once, as a login does), so Ctrl-C typed there sends it SIGINT."""


def play_plain_at_a_terminal(
    home: Path,
    typed: list[bytes | signal.Signals],
    *,
    columns: int = 100,
    command: tuple[str, ...] = (*PLAY, "--seed", "3"),
) -> bytes:
    """``scopa-net COMMAND --plain`` (`play` by default) with its input and output a terminal
    ``columns`` wide: the raw bytes the terminal got, each line of ``typed`` typed once the
    game has said "Your turn." (a signal in ``typed`` is sent to the game instead)."""
    terminal, game_end = pty.openpty()
    fcntl.ioctl(game_end, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
    environment = dict(os.environ) | {
        "XDG_DATA_HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
        "TERM": "xterm-256color",
    }
    game = subprocess.Popen(
        [sys.executable, "-c", OWN_TERMINAL, *command, "--plain"],
        stdin=game_end,
        stdout=game_end,
        stderr=subprocess.PIPE,
        env=environment,
        start_new_session=True,
    )
    os.close(game_end)
    try:
        out = read_until(terminal, b"Your turn.")
        for line in typed:
            if isinstance(line, signal.Signals):
                game.send_signal(line)
            else:
                os.write(terminal, line)
            time.sleep(0.05)
        with contextlib.suppress(OSError):  # EIO: the game closed the terminal's other end
            while select.select([terminal], [], [], 30)[0]:
                chunk = os.read(terminal, 4096)
                if not chunk:
                    break
                out += chunk
        game.wait(timeout=30)
    finally:
        game.kill()
        os.close(terminal)
        assert game.stderr is not None
        with game.stderr:
            err = game.stderr.read()
    assert game.returncode == 0, err
    assert err == b""
    return out


def test_plain_at_a_terminal_prints_each_line_once_and_draws_nothing(tmp_path: Path) -> None:
    """Luca, with a screen reader and --plain at a terminal: every line that arrived erased
    the prompt and drew it again ("scopa>" twice, 19-24 blank lines, ESC[20A, ESC[6n), and
    what he had half typed was wiped and redrawn. Each line is now printed once, appended,
    with no escape sequence at all; what he types is echoed by the terminal as typed."""
    out = play_plain_at_a_terminal(tmp_path, [b"board\n", b"quit\n", b"y\n"])
    assert b"\x1b" not in out
    text = out.decode().replace("\r\n", "\n")
    assert "\r" not in text
    assert "scopa>" not in text
    lines = text.splitlines()
    assert "" not in lines
    hand = "Your hand: ace of cups (1), ace of clubs (1), 4 of cups (4)."
    assert lines.count(hand) == 2  # the deal, then `board`: each printed once
    assert lines.count("board") == 1  # the terminal's echo of what was typed, once
    assert lines[-1] == "Leaving the table."


def test_plain_at_a_narrow_terminal_writes_each_sentence_as_one_line(tmp_path: Path) -> None:
    """--plain broke sentences at the terminal's width with line ends of its own ("knave of
    cups (8, must" then "capture)."), so a screen reader read half a sentence per line. Each
    sentence is one line; the terminal wraps it on the screen by itself."""
    out = play_plain_at_a_terminal(tmp_path, [b"help\n", b"quit\n", b"y\n"], columns=40)
    lines = out.decode().replace("\r\n", "\n").splitlines()
    assert "Your hand: ace of cups (1), ace of clubs (1), 4 of cups (4)." in lines
    assert "Table: 3 of coins (3), 3 of swords (3), 3 of clubs (3), 6 of cups (6)." in lines
    assert "A rank alone (7, K) plays your only card of that rank." in lines
    assert "  board  show the table, your hand and the score again" in lines


def test_ctrl_c_in_plain_at_a_terminal_clears_the_line_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    """With --plain at a terminal Ctrl-C ended the game ("scopa-net: stopped"), though help
    says "Ctrl-C clears the line"; and help promised Tab completion, which a terminal's own
    line editing has not. Ctrl-C drops what was typed and says how to leave, once."""
    out = play_plain_at_a_terminal(tmp_path, [b"boa\x03", b"help\n", b"quit\n", b"y\n"])
    lines = out.decode().replace("\r\n", "\n").splitlines()
    assert "^C" in lines  # the terminal's echo, then a line of its own for what is said
    assert "Ctrl-C clears the line; to leave, type quit or press Ctrl-D." in lines
    # It said "Ctrl-D leaves.", and Ctrl-D asked "Really leave?" as quit does: it says so.
    assert "Ctrl-C clears the line; Ctrl-D leaves, as quit does." in lines
    assert not [line for line in lines if "Tab completes" in line]
    assert lines[-1] == "Leaving the table."


def test_join_plain_says_the_hosts_key_on_one_line_at_a_narrow_terminal(
    tmp_path: Path, threaded_host: HostThread
) -> None:
    """`join --plain` cut its first words (the host's key met for the first time) at the
    terminal's width; a screen reader read "...The host prints its" and then "key when it
    starts". Before the game as in it, with --plain each sentence is one line."""
    join = ("join", threaded_host.address, "--create", "--players", "2", "--bots", "1")
    command = (*join, "--target", "1", "--name", "Luca")
    out = play_plain_at_a_terminal(tmp_path, [b"quit\n", b"leave\n"], columns=40, command=command)
    lines = out.decode().replace("\r\n", "\n").splitlines()
    assert lines[0].startswith(f"First visit to the host at {threaded_host.address}: its key is")
    assert lines[0].endswith("From now on a key you have not met is refused at this address.")
    assert lines[1] == "Connection: connected."
    assert lines[-1] == "Leaving the table for good; a computer player takes your seat."


def test_plain_at_a_terminal_shows_the_board_again_after_ctrl_z_and_fg(tmp_path: Path) -> None:
    """docs/playing.md: "Ctrl-Z puts the game in the background as a shell job; `fg` brings it back
    with the table shown again". With --plain at a terminal the game came back saying
    nothing, the person not knowing where the game stood."""
    typed = [b"\x1a", signal.SIGCONT, b"quit\n", b"y\n"]
    out = play_plain_at_a_terminal(tmp_path, typed)
    lines = out.decode().replace("\r\n", "\n").splitlines()
    hand = "Your hand: ace of cups (1), ace of clubs (1), 4 of cups (4)."
    assert lines.count(hand) == 2  # the deal, then the board again at `fg`
    assert lines[-1] == "Leaving the table."
