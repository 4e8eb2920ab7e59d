"""A person's mistakes on the command line: each ends in one line on stderr and a documented
status, never a traceback (issue 15). Every case runs the real command against real sockets,
files and a real host on loopback."""

from __future__ import annotations

import builtins
import contextlib
import http.server
import os
import secrets
import socket
import socketserver
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import pytest
import trio
from helpers import free_port, kept_seat, run_scopa_net
from hosting import host_command, host_in_thread

from scopa_net.client import host_link
from scopa_net.commands import join_host, join_password
from scopa_net.commands.main import main
from scopa_net.commands.options import (
    EXIT_CANCELLED,
    EXIT_KEY_CHANGED,
    EXIT_LOCAL,
    EXIT_REFUSED,
    EXIT_STATUSES,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    CommandError,
)
from scopa_net.rules import RuleSet

HOST = ["host", "--no-advertise", "--log-level", "ERROR"]


@dataclass
class Place:
    """What the cases point at: a running host, a silent port, files."""

    tmp: Path
    host: str = ""
    http: str = ""
    answering: str = ""
    silent: str = ""
    refused: str = ""
    busy_port: int = 0
    not_a_db: str = ""
    locked_db: str = ""
    closers: list[Callable[[], None]] = field(default_factory=list)


def _host_in_thread(place: Place) -> None:
    """A real host on loopback: table 1 has a password, table 2 a bot in seat 1."""
    stack = contextlib.ExitStack()
    host = stack.enter_context(host_in_thread())
    place.closers.append(stack.close)
    host.call(host.host.create_table, "locked", RuleSet.of(2), "pw", 0, 1)
    host.call(host.host.create_table, "with a bot", RuleSet.of(2), None, 1, 1)
    place.host = host.address


class _NoNewlineSecrets:
    """The client's random numbers, its challenges free of the byte 10 (see below)."""

    randbelow = staticmethod(secrets.randbelow)

    @staticmethod
    def token_bytes(size: int) -> bytes:
        return bytes(b if b != 10 else 11 for b in secrets.token_bytes(size))


def _http_server(place: Place) -> None:
    httpd = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    httpd.RequestHandlerClass.log_message = lambda *a: None  # type: ignore[method-assign]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    place.http = f"127.0.0.1:{httpd.server_address[1]}"
    place.closers.append(httpd.shutdown)
    place.closers.append(httpd.server_close)


class _AnswersHttp(socketserver.BaseRequestHandler):
    """Another program that answers at once, in its own tongue (an HTTP server's 400)."""

    def handle(self) -> None:
        self.request.sendall(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def _answering_server(place: Place) -> None:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _AnswersHttp)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    place.answering = f"127.0.0.1:{server.server_address[1]}"
    place.closers.append(server.shutdown)
    place.closers.append(server.server_close)


def _locked_db(place: Place) -> None:
    """A second host on a journal another host is using: the first runs in its own process."""
    db = place.tmp / "shared.db"
    env = dict(os.environ, XDG_DATA_HOME=str(place.tmp / "data"))
    first = subprocess.Popen(host_command(db, 0), env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not Path(f"{db}.lock").exists() or not Path(f"{db}.lock").read_text().strip():
        assert first.poll() is None
        assert time.monotonic() < deadline
        time.sleep(0.1)
    place.locked_db = str(db)

    def stop() -> None:
        first.terminate()
        first.wait(10)

    place.closers.append(stop)


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Place]:
    place = Place(tmp_path_factory.mktemp("errors"))
    _host_in_thread(place)
    _http_server(place)
    _answering_server(place)
    # A port whose queue of connections is full: a new connection gets no answer at all.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(0)
    place.silent = f"127.0.0.1:{silent.getsockname()[1]}"
    fillers = []
    for _ in range(2):
        filler = socket.socket()
        filler.setblocking(False)
        filler.connect_ex(silent.getsockname())
        fillers.append(filler)
    place.closers.extend(f.close for f in fillers)
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    place.busy_port = busy.getsockname()[1]
    place.refused = f"127.0.0.1:{free_port()}"
    not_a_db = place.tmp / "notes.db"
    not_a_db.write_text("shopping list\n" * 200)
    place.not_a_db = str(not_a_db)
    _locked_db(place)
    yield place
    for close in place.closers:
        close()
    silent.close()
    busy.close()


def _fake_lan(monkeypatch: pytest.MonkeyPatch, place: Place) -> None:
    """The LAN search finds our loopback host (the prompt is what is tested here)."""
    from scopa_net.server import discovery
    from scopa_net.wire.messages import PROTOCOL_VERSION

    address, port = place.host.split(":")
    found = discovery.HostAdvert(
        "kitchen", int(port), PROTOCOL_VERSION, 1, password=False, addresses=(address,)
    )
    monkeypatch.setattr(discovery, "browse_hosts", lambda seconds, interfaces: [found])
    monkeypatch.setattr(discovery, "browse_interfaces", lambda: ["192.0.2.1"])


def _typing(*answers: str | type[BaseException]) -> Callable[..., str]:
    """``input`` that types these answers, or presses Ctrl-C / Ctrl-D (the exception)."""
    queue = list(answers)

    def ask(prompt: str = "") -> str:
        answer = queue.pop(0)
        if isinstance(answer, str):
            return answer
        raise answer

    return ask


# (case, argv with {placeholders}, keys typed at prompts, expected status, words in the line)
CASES = [
    ("bare scopa-net", [], (), EXIT_USAGE, "usage: scopa-net"),
    ("play --bogus", ["play", "--bogus"], (), EXIT_USAGE, "scopa-net: unknown flag --bogus (see"),
    # A typo read "COMMAND: invalid choice: 'jion' (choose from 'play', 'join', ...)" and
    # "unrecognized arguments: --plyers 2": argparse's words, not the command meant.
    (
        "a command mistyped",
        ["jion"],
        (),
        EXIT_USAGE,
        "scopa-net: unknown command 'jion' (did you mean join?); the commands are play, join, ",
    ),
    ("unknown command", ["xyz"], (), EXIT_USAGE, "unknown command 'xyz'; the commands are"),
    (
        "a flag mistyped",
        ["play", "--plyers", "2"],
        (),
        EXIT_USAGE,
        "scopa-net: unknown flag --plyers; did you mean --players? (see `scopa-net play --help`)",
    ),
    # Club night: the README's `play --lan` typed to `host`, which is announced on the LAN
    # without a flag, read "unknown flag --lan; did you mean --blind?".
    (
        "host --lan",
        ["host", "--lan"],
        (),
        EXIT_USAGE,
        "scopa-net: unknown flag --lan; a host is announced on the LAN without it "
        "(--no-advertise keeps it off) (see `scopa-net host --help`)",
    ),
    (
        "two flags mistyped",
        ["join", "--tabel", "2", "--pasword", "x", "HOST"],
        (),
        EXIT_USAGE,
        "unknown flags --tabel (did you mean --table?), --pasword (did you mean --password?)",
    ),
    (
        "a choice mistyped",
        ["play", "--suits", "englsh"],
        (),
        EXIT_USAGE,
        "--suits: 'englsh' is not one of english, italian, french; did you mean english?",
    ),
    (
        "a word for a number",
        ["play", "--target", "x"],
        (),
        EXIT_USAGE,
        "--target: 'x' is not a number",
    ),
    # argparse's "unrecognized arguments: clubnight", "the following arguments are required:
    # FILE" and "--target: expected one argument", said as a person says them.
    (
        "a word no flag takes",
        ["host", "clubnight"],
        (),
        EXIT_USAGE,
        "scopa-net: unexpected word 'clubnight' on the command line (see `scopa-net host --help`)",
    ),
    ("nothing to verify", ["verify"], (), EXIT_USAGE, "scopa-net: missing FILE: the transcripts"),
    (
        "a flag without its value",
        ["tally", "Ada", "Bruno", "--target"],
        (),
        EXIT_USAGE,
        "scopa-net: --target needs a value after it (see `scopa-net tally --help`)",
    ),
    (
        "a wrong flag, no address",
        ["bots", "--bogus"],
        (),
        EXIT_USAGE,
        "scopa-net: unknown flag --bogus (see",
    ),
    ("verify, a wrong flag only", ["verify", "--bogus"], (), EXIT_USAGE, "unknown flag --bogus"),
    (
        "Ctrl-C at table number",
        ["join", "{host}"],
        (KeyboardInterrupt,),
        EXIT_CANCELLED,
        "stopped",
    ),
    ("Ctrl-D at table number", ["join", "{host}"], (EOFError,), EXIT_CANCELLED, "stopped"),
    # Enter alone stops, as the question says; it said nothing (status 130), even with one
    # table listed.
    (
        "Enter at table number",
        ["join", "{host}"],
        ("",),
        EXIT_CANCELLED,
        "scopa-net: stopped; nothing joined",
    ),
    ("Enter at host number", ["join"], ("",), EXIT_CANCELLED, "scopa-net: stopped; nothing joined"),
    ("Ctrl-C at host number", ["join"], (KeyboardInterrupt,), EXIT_CANCELLED, "stopped"),
    ("Ctrl-D at host number", ["join"], (EOFError,), EXIT_CANCELLED, "stopped"),
    (
        "Ctrl-C at the password",
        ["join", "{host}", "--table", "1"],
        (KeyboardInterrupt,),
        EXIT_CANCELLED,
        "stopped",
    ),
    (
        "only Enter at the password, three times",
        ["join", "{host}", "--table", "1"],
        ("", "", ""),
        EXIT_USAGE,
        "not joined: no password typed for table 1",
    ),
    (
        "join --password ''",
        ["join", "{host}", "--table", "1", "--password", ""],
        (),
        EXIT_USAGE,
        "--password: a password is 1 to 64 characters (this one has 0)",
    ),
    (
        "host --password of 65 characters",
        [*HOST, "--password", "x" * 65],
        (),
        EXIT_USAGE,
        "--password: a password is 1 to 64 characters (this one has 65)",
    ),
    (
        "host --table-name without --players",
        [*HOST, "--table-name", "kitchen", "--target", "21"],
        (),
        EXIT_USAGE,
        "--target, --table-name open a table: give --players too",
    ),
    # A long table name was cut to 32 characters and an empty host name became "scopa-net",
    # both without a word: refused where they are typed, as a long --name is.
    (
        "host --table-name of 200 characters",
        [*HOST, "--players", "2", "--table-name", "t" * 200],
        (),
        EXIT_USAGE,
        "scopa-net: --table-name: a table's name is at most 32 characters (this one has 200) (see",
    ),
    (
        "host --table-name ''",
        [*HOST, "--players", "2", "--table-name", ""],
        (),
        EXIT_USAGE,
        "scopa-net: --table-name: the table's name is empty; give one (see",
    ),
    # join and play said "invalid --name: ''; expected non-empty text", host "the host's
    # name is empty": one wording for an empty name in every command.
    (
        "host --host-name ''",
        [*HOST, "--host-name", ""],
        (),
        EXIT_USAGE,
        "scopa-net: --host-name: the name is empty; give one (see",
    ),
    *(
        (
            f"{' '.join(argv[:2])} --name {name!r}",
            [*argv, "--name", name],
            (),
            EXIT_USAGE,
            "scopa-net: --name: the name is empty; give one",
        )
        for argv in (["join", "{refused}"], ["play"], ["play", "--lan"])
        for name in ("", "  ")
    ),
    (
        "host --host-name of 65 characters",
        [*HOST, "--host-name", "h" * 65],
        (),
        EXIT_USAGE,
        "scopa-net: --host-name: a host's name is at most 64 characters (this one has 65) (see",
    ),
    (
        "host --host-name with an escape sequence",
        [*HOST, "--host-name", "\x1b[31mclub"],
        (),
        EXIT_USAGE,
        "--host-name: a host's name cannot hold a control character",
    ),
    (
        "--name of 21 characters",
        ["join", "{host}", "--name", "n" * 21],
        (),
        EXIT_USAGE,
        "invalid --name: a name is at most 20 columns wide (this one takes 21)",
    ),
    # A long run of digits is no number a person means: Python refuses to read one of more
    # than 4,300 digits, and the prompts ended in a traceback, an address in Python's words.
    (
        "5,000 digits at host number",
        ["join"],
        ("7" * 5000, ""),
        EXIT_CANCELLED,
        "scopa-net: stopped; nothing joined",
    ),
    (
        "5,000 digits at table number",
        ["join", "{host}"],
        ("7" * 5000, ""),
        EXIT_CANCELLED,
        "scopa-net: stopped; nothing joined",
    ),
    (
        "a port of 5,000 digits",
        ["join", "127.0.0.1:" + "7" * 5000],
        (),
        EXIT_USAGE,
        f"bad port in {'127.0.0.1:' + '7' * 30!r}...: write HOST or HOST:PORT",
    ),
    (
        "--port of 5,000 digits",
        [*HOST, "--port", "7" * 5000],
        (),
        EXIT_USAGE,
        f"{'7' * 40!r}... is not a port number",
    ),
    # A control character in a name reached the codec: a traceback, or "internal error".
    (
        "--name with a tab, --create",
        ["join", "{host}", "--create", "--players", "2", "--bots", "1", "--name", "Ev\til"],
        (),
        EXIT_USAGE,
        "invalid --name: 'Ev\\til': a name cannot hold a control character",
    ),
    (
        "--name with an escape sequence",
        ["join", "{host}", "--name", "\x1b[2J\x1b[31mEvil"],
        (),
        EXIT_USAGE,
        "invalid --name: '\\x1b[2J\\x1b[31mEvil': a name cannot hold a control character",
    ),
    (
        "play --lan --name with a tab",
        ["play", "--lan", "--name", "Ev\til"],
        (),
        EXIT_USAGE,
        "a name cannot hold a control character",
    ),
    (
        "play --names with a tab",
        ["play", "--pass-and-play", "--names", "Ada,Ev\til"],
        (),
        EXIT_USAGE,
        "invalid --names: 'Ev\\til': a name cannot hold a control character",
    ),
    (
        "play --names of 33 characters",
        ["play", "--pass-and-play", "--names", "Ada," + "n" * 33],
        (),
        EXIT_USAGE,
        "invalid --names: 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn': a name is at most 20 columns wide",
    ),
    (
        "--password with a tab",
        ["join", "{host}", "--table", "1", "--password", "a\tb"],
        (),
        EXIT_USAGE,
        "a password cannot hold a control character",
    ),
    (
        "--name that reads as a computer player's",
        ["join", "{host}", "--name", "Bot 3"],
        (),
        EXIT_USAGE,
        "invalid --name: 'Bot 3': that reads as a computer player's name (they are called "
        "bot 1, bot 2...); choose another",
    ),
    (
        "wrong password",
        ["join", "{host}", "--table", "1", "--password", "nope"],
        (),
        EXIT_REFUSED,
        "scopa-net: wrong password for that table; ask whoever opened the table (or the host) "
        "for it and join again (or give it with --password)",
    ),
    # Typed at the prompt, it said "ask its host for it", though another player opened the
    # table and chose it. Asked again twice (said on stdout), then this one line.
    (
        "wrong password typed at the prompt",
        ["join", "{host}", "--table", "1"],
        ("nope", "nope", "nope"),
        EXIT_REFUSED,
        "scopa-net: wrong password for that table; ask whoever opened the table (or the host) "
        "for it and join again",
    ),
    # bots took the wrong password as a bot's failure: "failure: bot-1: bad_password: ...",
    # status 1. Now join's line and status.
    (
        "bots with a wrong password",
        ["bots", "{host}", "--table", "1", "--password", "nope", "--quiet"],
        (),
        EXIT_REFUSED,
        "scopa-net: wrong password for that table; ask whoever opened the table (or the host) "
        "for it and join again (or give it with --password)",
    ),
    (
        "two bots with a wrong password",
        ["bots", "{host}", "--table", "1", "--password", "nope", "--count", "2"],
        (),
        EXIT_REFUSED,
        "scopa-net: wrong password for that table; ask whoever opened the table (or the host) "
        "for it and join again (or give it with --password)",
    ),
    (
        "no such --table",
        ["join", "{host}", "--table", "9"],
        (),
        EXIT_REFUSED,
        # The host says there is none (a full table reads otherwise, test_join_at_the_prompt).
        "has no table 9; tables with an open seat now: 1, 2 (`scopa-net join 127.0.0.1:",
    ),
    (
        "--seat taken",
        ["join", "{host}", "--table", "2", "--seat", "1"],
        (),
        EXIT_REFUSED,
        # Table 2's seat 1 is the computer player it was created with.
        "seat 1 at table 2 is a computer player's, given it when the table was created (open "
        "seats: 0); leave out --seat to take any open one",
    ),
    (
        "--seat out of range",
        ["join", "{host}", "--table", "2", "--seat", "7"],
        (),
        EXIT_USAGE,
        "seats 0 to 1",
    ),
    (
        "bad join address",
        ["join", "kitchen:99999"],
        (),
        EXIT_USAGE,
        "bad port in 'kitchen:99999': write HOST or HOST:PORT, the port a number from 1 to",
    ),
    ("demo --rounds 0", ["demo", "--rounds", "0"], (), EXIT_USAGE, "--rounds: 0: use 1 or more"),
    (
        "history with no host journal",
        ["history", "--db", "{tmp}/none.db"],
        (),
        EXIT_USAGE,
        "history lists the matches of a host you ran (`scopa-net host`) and of your "
        "`scopa-net play --lan` tables; give that host's --db",
    ),
    (
        # An HTTP server waits for a request line and says nothing, as a stalled network does:
        # that read "... is not a scopa-net host ... (no answer in 1 s)", blaming a host that
        # may only be behind a slow network. The words name both.
        "HTTP server",
        ["join", "{http}"],
        (),
        EXIT_UNREACHABLE,
        "took the connection but sent no scopa-net welcome within 1 s: the network may be "
        "slow (try again), or something other than a scopa-net host listens there (check "
        "the port)",
    ),
    (
        "another program answering",
        ["join", "{answering}"],
        (),
        EXIT_UNREACHABLE,
        "is not a scopa-net host: something listens there but does not speak scopa-net; check "
        "the port",
    ),
    ("silent port", ["join", "{silent}"], (), EXIT_UNREACHABLE, "no answer from"),
    # A friend who typed the host's address without its port read "check the port", and
    # nothing of where to find it.
    (
        "refused",
        ["join", "{refused}"],
        (),
        EXIT_UNREACHABLE,
        "refused the connection: no host is listening on that port; check the port (a host "
        "prints its own as it starts, and `scopa-net join` alone lists the hosts announced on "
        "the LAN with theirs)",
    ),
    # A name announced on the LAN (`host --host-name clubnight`) given to join read only
    # "cannot find a machine called clubnight; check the name": a dead end.
    (
        "unknown name",
        ["join", "no-such-host.invalid"],
        (),
        EXIT_UNREACHABLE,
        "cannot find a machine called no-such-host.invalid; check the name (a host's name on "
        "the LAN is not a machine's: `scopa-net join` alone lists the hosts announced there, "
        "each with its address)",
    ),
    (
        "port in use",
        [*HOST, "--host", "127.0.0.1", "--port", "{busy_port}", "--db", ":memory:"],
        (),
        EXIT_LOCAL,
        "already in use",
    ),
    (
        # It quietly took another port, said much later ("it opens this table again on port
        # 41927"): a port the person named is refused as `host` refuses it.
        "play --lan --port in use",
        ["play", "--lan", "--port", "{busy_port}"],
        (),
        EXIT_LOCAL,
        "is already in use on 0.0.0.0 (another host?); stop it, or pick another port",
    ),
    ("--host 999.1.1.1", [*HOST, "--host", "999.1.1.1"], (), EXIT_USAGE, "not an address"),
    # An unknown name ended 2, an address not here 5: both are "address not here" (README).
    (
        "--host a name this machine cannot find",
        [*HOST, "--host", "no-such-host.invalid", "--port", "0", "--db", ":memory:"],
        (),
        EXIT_LOCAL,
        "scopa-net: --host 'no-such-host.invalid': this machine finds no address called that; "
        "use 0.0.0.0 (the whole LAN) or 127.0.0.1 (this machine only)",
    ),
    (
        "--host not on this machine",
        [*HOST, "--host", "192.0.2.7", "--port", "0", "--db", ":memory:"],
        (),
        EXIT_LOCAL,
        "not an address of this machine",
    ),
    ("--port -1", [*HOST, "--port", "-1"], (), EXIT_USAGE, "not a port"),
    ("--port 99999", [*HOST, "--port", "99999"], (), EXIT_USAGE, "not a port"),
    (
        "--db not a database",
        [*HOST, "--host", "127.0.0.1", "--port", "0", "--db", "{not_a_db}"],
        (),
        EXIT_LOCAL,
        "not a scopa-net journal",
    ),
    (
        "history --db not a database",
        ["history", "--db", "{not_a_db}"],
        (),
        EXIT_LOCAL,
        "not a scopa-net journal",
    ),
    (
        "--db in a file, not a folder",
        [*HOST, "--host", "127.0.0.1", "--port", "0", "--db", "{not_a_db}/host.db"],
        (),
        EXIT_LOCAL,
        "notes.db is a file, not a folder; give --db a file in a folder",
    ),
    (
        "second host on the same --db",
        [*HOST, "--host", "127.0.0.1", "--port", "0", "--db", "{locked_db}"],
        (),
        EXIT_LOCAL,
        "another host is using the journal",
    ),
    ("play --port without --lan", ["play", "--port", "7000"], (), EXIT_USAGE, "needs --lan"),
    ("play --password without --lan", ["play", "--password", "x"], (), EXIT_USAGE, "needs --lan"),
    (
        "play --blind without --lan",
        ["play", "--blind"],
        (),
        EXIT_USAGE,
        "--blind needs --lan: a game in this terminal is never blind",
    ),
    (
        "play --no-blind without --lan",
        ["play", "--no-blind"],
        (),
        EXIT_USAGE,
        "--no-blind needs --lan: a game in this terminal is never blind",
    ),
    (
        "play --pass-and-play --no-blind",
        ["play", "--pass-and-play", "--no-blind"],
        (),
        EXIT_USAGE,
        "--no-blind needs --lan",
    ),
    (
        "join --no-blind without --create",
        ["join", "127.0.0.1:1", "--no-blind"],
        (),
        EXIT_USAGE,
        "--no-blind is for a table you open with --create",
    ),
    (
        "join --blind without --create",
        ["join", "127.0.0.1:1", "--blind"],
        (),
        EXIT_USAGE,
        "--blind is for a table you open with --create",
    ),
    ("play --resume without --lan", ["play", "--resume"], (), EXIT_USAGE, "--resume needs --lan"),
    (
        "play --bot-delay -1",
        ["play", "--bot-delay", "-1"],
        (),
        EXIT_USAGE,
        "--bot-delay: -1 is out of range; choose 0 to 5 seconds",
    ),
    # Above 5 seconds the game stopped "on an internal error (ValueError: invalid delay...)"
    # with --seed, and without it 1e9 hung the game; host and bots took 10.
    (
        "play --bot-delay 6",
        ["play", "--bot-delay", "6"],
        (),
        EXIT_USAGE,
        "--bot-delay: 6 is out of range; choose 0 to 5 seconds",
    ),
    ("play --bot-delay 1e9", ["play", "--bot-delay", "1e9"], (), EXIT_USAGE, "choose 0 to 5"),
    ("play --delay 6 (old name)", ["play", "--delay", "6"], (), EXIT_USAGE, "choose 0 to 5"),
    (
        "play --names alone",
        ["play", "--names", "Ada,Bruno"],
        (),
        EXIT_USAGE,
        "your own name is --name",
    ),
    (
        "play --lan --names",
        ["play", "--lan", "--humans", "2", "--names", "Ada,Bruno"],
        (),
        EXIT_USAGE,
        "(--pass-and-play)",
    ),
    (
        "play --pass-and-play --names too long",
        ["play", "--pass-and-play", "--names", "Ada,Bartholomew Fitzgerald"],
        (),
        EXIT_USAGE,
        "invalid --names: 'Bartholomew Fitzgerald': a name is at most 20 columns wide (this "
        "one takes 22)",
    ),
    ("host --bot-delay -1", [*HOST, "--bot-delay", "-1"], (), EXIT_USAGE, "choose 0 to 5"),
    (
        "host --bot-delay 10",
        [*HOST, "--host", "127.0.0.1", "--port", "{busy_port}", "--bot-delay", "10"],
        (),
        EXIT_USAGE,
        "--bot-delay: 10 is out of range; choose 0 to 5 seconds",
    ),
    # A seat_status carries at most an hour of grace: past it, the table stopped at the first drop.
    (
        "host --grace 4000",
        [*HOST, "--grace", "4000"],
        (),
        EXIT_USAGE,
        "--grace: 4000 is out of range; choose 0 to 3600 seconds (an hour)",
    ),
    ("host --grace -1", [*HOST, "--grace", "-1"], (), EXIT_USAGE, "choose 0 to 3600 seconds"),
    ("bots --bot-delay -1", ["bots", "x", "--bot-delay", "-1"], (), EXIT_USAGE, "choose 0 to 5"),
    ("bots --bot-delay 10", ["bots", "x", "--bot-delay", "10"], (), EXIT_USAGE, "choose 0 to 5"),
    ("play --think 0", ["play", "--think", "0"], (), EXIT_USAGE, "think more than 0"),
    (
        "verify --pin garbage",
        ["verify", "--pin", "garbage", "x"],
        (),
        EXIT_USAGE,
        "is not a host key fingerprint: 20 hex digits",
    ),
    ("play --think -1", ["play", "--think", "-1"], (), EXIT_USAGE, "think more than 0 and at"),
    ("bots --think -1", ["bots", "x", "--think", "-1"], (), EXIT_USAGE, "think more than 0"),
    ("host --think 61", [*HOST, "--think", "61"], (), EXIT_USAGE, "at most 60"),
    ("join --think", ["join", "h", "--create", "--think", "2"], (), EXIT_USAGE, "host --think"),
    ("--bot-level bogus", ["play", "--bot-level", "bogus"], (), EXIT_USAGE, "not a level"),
    ("5 players", ["play", "--players", "5"], (), EXIT_USAGE, "5 players cannot play"),
    # "scopone is for 4 players, not 2" to a person who never asked for 2: one wording in
    # every command, naming the flag to give.
    *(
        (
            f"{' '.join(argv[:1])} --variant scopone, no --players",
            argv,
            (),
            EXIT_USAGE,
            "scopa-net: scopone is a 4-player game: add --players 4",
        )
        for argv in (
            ["join", "{refused}", "--create", "--variant", "scopone"],
            ["play", "--variant", "scopone"],
            [*HOST, "--variant", "scopone"],
            ["demo", "--variant", "scopone"],
        )
    ),
    (
        "host --players 2 --variant scopone",
        [*HOST, "--players", "2", "--variant", "scopone"],
        (),
        EXIT_USAGE,
        "scopa-net: scopone is a 4-player game: --players 4, not 2",
    ),
    (
        "play --variant six_as_three_pairs",
        ["play", "--variant", "six_as_three_pairs"],
        (),
        EXIT_USAGE,
        "scopa-net: six_as_three_pairs is a 6-player game: add --players 6",
    ),
    ("arena 6 players", ["arena", "easy", "hard", "--players", "6"], (), EXIT_USAGE, "2 or 4"),
    (
        "arena --think-b, B no expert",
        ["arena", "expert", "medium", "--think-b", "0.5"],
        (),
        EXIT_USAGE,
        "--think-b is LEVEL_B's budget as an expert; LEVEL_B is medium",
    ),
    (
        "arena --think, no expert",
        ["arena", "easy", "medium", "--think", "0.5"],
        (),
        EXIT_USAGE,
        "--think is an expert's budget; neither easy nor medium is one",
    ),
    # `--target 0` (and `--players 0`) quietly became the defaults, 11 and 2: a match played.
    (
        "bots --create --target 0",
        ["bots", "x", "--create", "--target", "0"],
        (),
        EXIT_USAGE,
        "scopa-net: target 0 is out of range; choose 1 to 99",
    ),
    (
        "bots --create --players 0",
        ["bots", "x", "--create", "--players", "0"],
        (),
        EXIT_USAGE,
        "scopa-net: 0 players is not a Scopa table; use 2, 3, 4 or 6",
    ),
    # Flags that contradict each other, or do nothing, were taken and ignored.
    (
        "host --blind --no-blind",
        [*HOST, "--host", "127.0.0.1", "--port", "{busy_port}", "--blind", "--no-blind"],
        (),
        EXIT_USAGE,
        "scopa-net: --no-blind: not allowed with argument --blind (see",
    ),
    (
        "join --create --no-blind --blind",
        ["join", "{refused}", "--create", "--no-blind", "--blind"],
        (),
        EXIT_USAGE,
        "scopa-net: --blind: not allowed with argument --no-blind (see",
    ),
    (
        "play --lan --blind --no-blind",
        ["play", "--lan", "--port", "{busy_port}", "--blind", "--no-blind"],
        (),
        EXIT_USAGE,
        "--no-blind: not allowed with argument --blind",
    ),
    (
        "join --players without --create",
        ["join", "{refused}", "--players", "3"],
        (),
        EXIT_USAGE,
        "scopa-net: --players is for a table you open with --create; without it you join a "
        "table that is there, with its own rules",
    ),
    (
        "join --bots without --create",
        ["join", "{refused}", "--bots", "1"],
        (),
        EXIT_USAGE,
        "--bots is for a table you open with --create",
    ),
    (
        "join --create --table",
        ["join", "{refused}", "--create", "--table", "2"],
        (),
        EXIT_USAGE,
        "scopa-net: --table is for joining a table that is there, --create opens a new one: "
        "give one or the other",
    ),
    (
        "join --resume --seat",
        ["join", "{refused}", "--resume", "--seat", "1"],
        (),
        EXIT_USAGE,
        "scopa-net: --seat picks a seat when you sit down anew, --resume takes back the seat "
        "this client kept: give one or the other",
    ),
    # No host was asked: a person's mistake (status 2), not "the host said no" (4).
    (
        "join --resume with no seat kept",
        ["join", "{refused}", "--resume"],
        (),
        EXIT_USAGE,
        "; join without --resume",
    ),
    (
        "join --resume with no seat kept, no address",
        ["join", "--resume"],
        (),
        EXIT_USAGE,
        "scopa-net: no seat is kept for you; join without --resume",
    ),
    (
        "join --create --bots 5 at 2 players",
        ["join", "{refused}", "--create", "--bots", "5"],
        (),
        EXIT_USAGE,
        "scopa-net: --bots must leave a seat for a person (0..1)",
    ),
    (
        "join --seat -1",
        ["join", "{refused}", "--seat", "-1"],
        (),
        EXIT_USAGE,
        "scopa-net: --seat: -1: use 0 or more (see",
    ),
    (
        "history --seat without --export",
        ["history", "--db", "{not_a_db}", "--seat", "1"],
        (),
        EXIT_USAGE,
        "scopa-net: --seat is for --export TABLE (the transcript to write); without --export, "
        "history lists the matches",
    ),
    (
        "history --match --out without --export",
        ["history", "--db", "{not_a_db}", "--match", "2", "--out", "x.scopa"],
        (),
        EXIT_USAGE,
        "--match and --out are for --export TABLE",
    ),
    (
        "tally --list --export",
        ["tally", "--list", "--export", "1"],
        (),
        EXIT_USAGE,
        "scopa-net: --export: not allowed with argument --list (see",
    ),
    (
        "tally names --export",
        ["tally", "Ada", "Bruno", "--export", "1"],
        (),
        EXIT_USAGE,
        "scopa-net: --export prints a saved tally: give no names, target or options",
    ),
    (
        "tally --format without --export",
        ["tally", "--format", "csv"],
        (),
        EXIT_USAGE,
        "scopa-net: --format is for --export ID (the saved tally to print)",
    ),
    (
        "play --think for a level that does not think",
        ["play", "--think", "2", "--bot-level", "easy"],
        (),
        EXIT_USAGE,
        "scopa-net: --think is an expert's budget; --bot-level easy does not think (give "
        "--bot-level expert, or leave out --think)",
    ),
    (
        "bots --think for a level that does not think",
        ["bots", "{refused}", "--think", "2"],
        (),
        EXIT_USAGE,
        "--think is an expert's budget; --bot-level medium does not think",
    ),
    # An empty file name read as the current folder: "cannot write .: Is a directory",
    # "--db : that is a directory".
    (
        "history --export --out ''",
        ["history", "--export", "1", "--out", ""],
        (),
        EXIT_USAGE,
        "scopa-net: --out: the file name is empty; give one (see",
    ),
    (
        "history --db ''",
        ["history", "--db", ""],
        (),
        EXIT_USAGE,
        "scopa-net: --db: the file name is empty; give one (see",
    ),
    ("host --db ''", [*HOST, "--db", ""], (), EXIT_USAGE, "--db: the file name is empty"),
    (
        "bots --players without --create",
        ["bots", "x", "--players", "4"],
        (),
        EXIT_USAGE,
        "--players is for the tables --create opens; without --create the bots take open seats",
    ),
]


@pytest.mark.parametrize("case", [pytest.param(case, id=case[0]) for case in CASES])
def test_a_mistake_is_one_line_and_a_documented_status(
    place: Place,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    case: tuple,
) -> None:
    _, argv, keys, status, words = case
    monkeypatch.setenv("XDG_DATA_HOME", str(place.tmp / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(place.tmp / "config"))
    monkeypatch.setattr(join_host, "PROBE_SECONDS", 1.0)
    # The hello's challenge without a newline: one with a byte 10 among its 32 random bytes
    # (about one hello in eight) completes an HTTP server's request line, which then answers
    # 400 and reads as "does not speak scopa-net" (the case of another program answering), not as
    # the silence the HTTP server case is about.
    monkeypatch.setattr(host_link, "secrets", _NoNewlineSecrets())
    monkeypatch.setattr(builtins, "input", _typing(*keys))
    monkeypatch.setattr("getpass.getpass", _typing(*keys))
    monkeypatch.setattr(join_password, "terminal_to_type_at", lambda: True)
    _fake_lan(monkeypatch, place)
    args = [a.format(**vars(place)) for a in argv]

    assert main(args) == status
    err = capfd.readouterr().err
    assert "Traceback" not in err
    assert words in err
    assert status in dict(EXIT_STATUSES)
    lines = [line for line in err.splitlines() if line.strip()]
    if args:
        assert len(lines) == 1, lines
    else:  # bare scopa-net: the help, on stderr, then status 2
        assert "exit status:" in err
        assert "COMMAND" in err


def piped_input(text: str) -> TextIO:
    """A script's input: a pipe (not a terminal) holding ``text``."""
    read, write = os.pipe()
    os.write(write, text.encode())
    os.close(write)
    return os.fdopen(read)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (
            ["verify"],
            "scopa-net: missing FILE: the transcripts to check, such as "
            "~/.local/share/scopa-net/transcripts/* (every one saved on this machine) (see "
            "`scopa-net verify --help`)",
        ),
        (
            ["bots"],
            "scopa-net: missing address: the host's, such as 192.168.1.20, as the host printed "
            "it when it started (see `scopa-net bots --help`)",
        ),
        (
            ["arena", "hard"],
            "scopa-net: missing LEVEL_B: the two levels to pit against each other, such as "
            "`scopa-net arena hard medium` (see `scopa-net arena --help`)",
        ),
    ],
)
def test_a_command_given_too_few_words_says_what_to_give(
    tmp_path: Path, argv: list[str], words: str
) -> None:
    """A newcomer read "Check it any time with: scopa-net verify FILE", typed `scopa-net
    verify` and read "scopa-net: missing FILE (see ...)": what is missing is said as a person
    gives it, here the folder their transcripts are saved in."""
    env = dict(os.environ, HOME=str(tmp_path))
    env.pop("XDG_DATA_HOME", None)
    done = subprocess.run(
        [sys.executable, "-m", "scopa_net", *argv],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (EXIT_USAGE, words + "\n")


def test_a_password_table_joined_from_a_script_without_one_names_the_flag(
    place: Place, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Joined from a script (no terminal), a table with a password printed getpass's warnings
    and, given an empty line, ended in a traceback."""
    monkeypatch.setenv("XDG_DATA_HOME", str(place.tmp / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(place.tmp / "config"))
    monkeypatch.setattr("getpass.getpass", _typing())  # never asked
    with piped_input("") as nothing:
        monkeypatch.setattr(sys, "stdin", nothing)
        # Status 4, as README gives for a wrong password (it was 2, a bad flag's).
        assert main(["join", place.host, "--table", "1"]) == EXIT_REFUSED
    err = capfd.readouterr().err
    assert err.splitlines()[-1] == (
        "scopa-net: table 1 has a password: give it with --password (no terminal here to type "
        "it at, and no line of input to read it from)"
    )
    assert "Warning" not in err


def test_a_password_is_read_quietly_from_a_script_s_input(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("getpass.getpass", _typing())  # never asked
    for line, read in (("pw\n", "pw"), ("pw", "pw"), ("a b \r\n", "a b ")):
        with piped_input(line) as script:
            monkeypatch.setattr(sys, "stdin", script)
            assert join_password.ask_password(1) == read
    with piped_input("x" * 65) as script:
        monkeypatch.setattr(sys, "stdin", script)
        with pytest.raises(CommandError, match="1 to 64"):
            join_password.ask_password(1)
    assert capfd.readouterr() == ("", "")  # no prompt, no warning


def test_old_spellings_still_work_with_a_note(capfd: pytest.CaptureFixture[str]) -> None:
    from scopa_net.commands.main import build_parser

    args = build_parser().parse_args(["play", "--delay", "0.1", "--bot-level", "strong"])
    assert (args.bot_delay, args.bot_level) == (0.1, "hard")
    args = build_parser().parse_args(["host", "--bot-level", "1"])
    assert args.bot_level == "easy"
    args = build_parser().parse_args(["bots", "h", "--level", "greedy", "--bot-delay", "2"])
    assert (args.bot_level, args.bot_delay) == ("medium", 2.0)
    args = build_parser().parse_args(["arena", "random", "hard"])
    assert (args.level_a, args.level_b) == ("easy", "hard")
    err = capfd.readouterr().err
    assert "--delay is now --bot-delay" in err
    assert "--level is now --bot-level" in err
    assert "'strong' is now called 'hard'" in err
    assert "'1' is now called 'easy'" in err


def test_a_level_number_means_the_same_on_the_command_line_and_on_the_wire(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """`--bot-level 4` was hard on the command line while a table opened with bot_level 4
    got the expert: each number now names one level everywhere, and the note says which."""
    from scopa_net.commands.main import build_parser
    from scopa_net.commands.options import LEVEL_WIRE_NUMBERS, player_for
    from scopa_net.server.table_task import BOT_LEVELS as ON_THE_WIRE

    for number, player in ON_THE_WIRE.items():
        for command in (["play"], ["host"], ["join", "h", "--create"], ["bots", "h"]):
            args = build_parser().parse_args([*command, "--bot-level", str(number)])
            assert player_for(args.bot_level) == player
        assert ON_THE_WIRE[LEVEL_WIRE_NUMBERS[args.bot_level]] == player
    err = capfd.readouterr().err
    assert "note: bot level '4' is now called 'expert'" in err
    assert "note: bot level '5' is now called 'hard'" in err


@pytest.mark.parametrize("command", ["play", "join", "host", "bots", "arena"])
def test_one_name_for_each_concept_and_defaults_in_help(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert "{easy,medium,hard,expert}" in out
    # --think is the expert's time budget per move everywhere (issue 14): the table
    # commands no longer take it as the old spelling of --bot-delay.
    for old in ("--delay ", "--level ", "random,greedy"):
        assert old not in out
    if command != "join":  # join --create: the host's --think decides
        assert "--think SECONDS" in out
    if command not in {"join", "arena"}:
        assert "--bot-delay SECONDS" in out
    if command in ("play", "join", "host"):
        assert "scopone_scientifico  4 players, ten cards each" in out
    assert "(default: " in out


def test_join_with_a_seat_kept_at_a_host_that_is_gone_says_what_it_does_and_how_not_to(
    tmp_path: Path,
) -> None:
    """A bare `scopa-net join` with one seat kept at a host that is gone went to that host
    without a word of choice ("Resume your seat at ...", read like an offer) and ended with
    "... failed (127.0.0.1:N) (127.0.0.1:N)". Now it says it is taking the seat back and how
    to sit down anew instead, and the failure names the address once and both ways on. It
    said "your seat is still kept", which the host, not reached, may no longer do."""
    from scopa_net.client.seat_store import SeatStore

    port = free_port()  # nothing listens there
    SeatStore(tmp_path / "scopa-net").save(kept_seat(port, table_name="sunday"))
    done = run_scopa_net("join", home=tmp_path)
    assert done.returncode == EXIT_UNREACHABLE
    out, err = done.stdout, done.stderr
    assert out == (
        f"Taking back your seat at table 3 'sunday' on 127.0.0.1:{port} (seat 1, as Ada; your "
        "client stopped); `scopa-net join --no-resume` sits down anew instead.\n"
    )
    (line,) = err.splitlines()
    assert line.startswith("scopa-net: ")
    assert line.count(f"127.0.0.1:{port}") == 2, line
    assert line.endswith(
        f"; the host keeps your seat while the table is open: `scopa-net join 127.0.0.1:{port}` "
        "tries again, `scopa-net join --no-resume` sits down anew"
    )


def test_a_kept_seat_at_an_address_where_another_host_now_answers_is_not_taken_there(
    tmp_path: Path,
) -> None:
    """A seat kept at a host whose address now answers with another key (another host there,
    or the same one after its journal was lost) ended "the host's key changed while we were
    playing", status 1, and every `scopa-net join` there ended the same way. Now it says which
    keys, that the seat stays kept, and how to sit down anew; status 6, as for a changed pin."""
    from scopa_net.client.seat_store import SeatStore
    from scopa_net.fair.commitments import fingerprint

    with host_in_thread() as running:
        port = running.port
        SeatStore(tmp_path / "scopa-net").save(kept_seat(port))  # kept at key ab...ab
        # ... and pinned there, as it is after playing at that host (the tester's case).
        (tmp_path / "scopa-net" / "known_hosts").write_text(f"127.0.0.1:{port} {'ab' * 32}\n")
        done = run_scopa_net("join", f"127.0.0.1:{port}", home=tmp_path)
        now = fingerprint(running.host.public_key)
        # The command it gives works at once: no second refusal for the changed key.
        advised = run_scopa_net(
            "join", f"127.0.0.1:{port}", "--no-resume", "--accept-new-key", home=tmp_path
        )
    assert done.returncode == EXIT_KEY_CHANGED
    assert done.stderr == (
        f"scopa-net: the host at 127.0.0.1:{port} now has key {now}, not "
        f"{fingerprint(bytes.fromhex('ab' * 32))}, the one your seat (table 3, seat 1, as Ada) "
        "is kept at: it may be a different host, or one that lost its journal. Your seat stays "
        f"kept for that host; `scopa-net join 127.0.0.1:{port} --no-resume --accept-new-key` "
        "sits down anew with the new key.\n"
    )
    assert f"pinned the new key {now} for 127.0.0.1:{port}" in advised.stdout
    assert advised.returncode != EXIT_KEY_CHANGED, advised.stderr
    assert "--accept-new-key" not in advised.stderr
    assert len(SeatStore(tmp_path / "scopa-net").records()) == 1  # still kept


def test_the_same_join_create_command_run_again_takes_the_kept_seat_back(tmp_path: Path) -> None:
    """Bruno's client crashed and he ran the command he started with again, `scopa-net join
    HOST --create --players 2 --name Bruno`: it opened a new table, leaving his seat (and his
    partner) at the old one, where the README says the same command takes the seat back. It
    now says so in one line and goes to that seat (this host has another key: the seat stays
    kept, no table is opened); with --no-resume it opens a new table."""
    from scopa_net.client.network_session import list_tables
    from scopa_net.client.seat_store import SeatStore

    command = ("join", "--create", "--players", "2", "--name", "Bruno")
    with host_in_thread() as running:
        address = f"127.0.0.1:{running.port}"
        SeatStore(tmp_path / "scopa-net").save(kept_seat(running.port, table_name="sunday"))
        again = run_scopa_net(command[0], address, *command[1:], home=tmp_path)
        tables = running.call(list_tables, "127.0.0.1", running.port)
    assert again.stdout == (
        f"Taking back your seat at table 3 'sunday' on {address} (seat 1, as Ada; your client "
        "stopped); add --no-resume to open a new table instead.\n"
    )
    assert again.returncode == EXIT_KEY_CHANGED, again.stderr
    assert "the one your seat (table 3, seat 1, as Ada) is kept at" in again.stderr
    assert tables == ()  # no table opened
    assert len(SeatStore(tmp_path / "scopa-net").records()) == 1  # still kept


def test_join_create_with_two_seats_kept_there_asks_and_enter_opens_a_new_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With two seats kept at the host, `join HOST --create` asks which to take back, as a
    plain `join` does; Enter opens the new table the command asked for (here the host is
    gone: the table cannot be opened, and the seats stay kept)."""
    from scopa_net.client.seat_store import SeatStore

    port = free_port()  # nothing listens there
    store = SeatStore(tmp_path / "scopa-net")
    store.save(kept_seat(port))
    store.save(kept_seat(port, table_id=4, away=True))
    # A mistake first: the line refusing it says what Enter does here, as the question does
    # (it said "or press Enter to stop").
    done = run_scopa_net("join", f"127.0.0.1:{port}", "--create", home=tmp_path, input="x\n\n")
    assert sorted(line[3:] for line in done.stdout.splitlines()[:2]) == [
        f"resume your seat at table 3 on 127.0.0.1:{port} (seat 1, as Ada; your client stopped)",
        f"resume your seat at table 4 on 127.0.0.1:{port} (seat 1, as Ada; you stepped away)",
    ], done.stdout
    assert done.stdout.splitlines()[2].startswith("which one (1-2; Enter for a new table): ")
    assert "type a number from 1 to 2, or press Enter for a new table\n" in done.stdout
    assert done.returncode == EXIT_UNREACHABLE
    assert done.stderr == (
        f"scopa-net: 127.0.0.1:{port} refused the connection: no host is listening on that "
        "port; check the port (a host prints its own as it starts, and `scopa-net join` alone "
        "lists the hosts announced on the LAN with theirs), or start one with `scopa-net host`\n"
    )
    assert len(store.records()) == 2
    # --no-resume opens the new table at once (in this process: no second start-up).
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["join", f"127.0.0.1:{port}", "--create", "--no-resume"]) == EXIT_UNREACHABLE
    out, err = capsys.readouterr()
    assert "Taking back" not in out
    assert "resume your seat" not in out
    # ... saying that the seats stay kept, and how to take them back.
    assert out == (
        f"Your seats at tables 4 on 127.0.0.1:{port}, 3 on 127.0.0.1:{port} stay kept while "
        "their matches last: `scopa-net join --resume` offers them back.\n"
    )
    assert err == done.stderr


def test_join_no_resume_says_the_seat_kept_stays_kept_and_how_to_take_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`join --no-resume` opened the new table without a word about the seat still kept."""
    from scopa_net.client.seat_store import SeatStore

    port = free_port()  # nothing listens there: the line comes before any connection
    SeatStore(tmp_path / "scopa-net").save(kept_seat(port))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["join", f"127.0.0.1:{port}", "--no-resume"]) == EXIT_UNREACHABLE
    assert capsys.readouterr().out == (
        f"Your seat at table 3 on 127.0.0.1:{port} (seat 1, as Ada) stays kept while its match "
        f"lasts: `scopa-net join 127.0.0.1:{port} --table 3` takes it back.\n"
    )
    assert len(SeatStore(tmp_path / "scopa-net").records()) == 1


def test_a_host_of_another_version_says_both_need_the_same_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host that speaks an older protocol answers `bye bad_version` naming both versions.
    Joined by address, that read "... is not a scopa-net host: something listens there but
    does not speak scopa-net; check the port" (status 3); taking back a kept seat there read
    "the host stopped the session: client speaks protocol version 4; this end speaks version
    3", with nothing on what to do. Both now say the host runs an older version, which, and
    who must update; status 4 (the host said no)."""
    from scopa_net.client.seat_store import SeatStore
    from scopa_net.wire import messages

    ours, too_old = messages.PROTOCOL_VERSION, messages.OLDEST_VERSION - 1
    monkeypatch.setattr(messages, "PROTOCOL_VERSION", too_old)  # the host, in this process
    monkeypatch.setattr(messages, "OLDEST_VERSION", too_old)
    with host_in_thread() as running:
        address = f"127.0.0.1:{running.port}"
        joined = run_scopa_net("join", address, home=tmp_path / "new")
        SeatStore(tmp_path / "kept" / "scopa-net").save(kept_seat(running.port))
        taken_back = run_scopa_net("join", address, home=tmp_path / "kept")
    same = (
        f"runs an older scopa-net than yours (protocol {too_old}, this one {ours}): you can "
        "play there once whoever runs it updates it"
    )
    assert joined.returncode == EXIT_REFUSED
    assert joined.stderr == f"scopa-net: the host at {address} {same}\n"
    assert taken_back.returncode == EXIT_REFUSED
    (line,) = taken_back.stderr.splitlines()
    assert line.startswith(f"scopa-net: the host at {address} {same}"), line
    assert len(SeatStore(tmp_path / "kept" / "scopa-net").records()) == 1, line


async def test_a_host_restarted_as_another_version_ends_the_session_naming_both(
    tmp_path: Path,
) -> None:
    """A session running when its host is stopped, upgraded and started again on the same
    journal (found while a club upgraded): the client, taking its seat back, ends in one
    line naming both versions, who must update, and that the seat is kept (it said nothing
    of the seat), not "not a scopa-net host" nor a wait of five minutes."""
    from hosting import start_host_process

    from scopa_net.client.launch import session_failure
    from scopa_net.client.network_session import (
        SessionError,
        TableChoice,
        open_network_session,
    )
    from scopa_net.client.seat_store import SeatStore
    from scopa_net.wire import messages

    ours, port, db = messages.PROTOCOL_VERSION, free_port(), tmp_path / "host.db"
    first = await start_host_process(db, port, first=True, log=tmp_path / "host.log")
    upgraded = None
    failure: SessionError | None = None
    try:
        store = SeatStore(tmp_path / "scopa-net")
        async with open_network_session(
            "127.0.0.1", port, TableChoice(table_id=1), name="Ada", data_dir=tmp_path, store=store
        ) as session:
            with trio.fail_after(10):
                while session.view is None:
                    await trio.sleep(0.02)
            first.kill()
            await first.wait()
            other = str(Path(__file__).with_name("other_version.py"))
            argv = [sys.executable, other, "1", *host_command(db, port)[3:]]
            upgraded = await trio.lowlevel.open_process(argv, stderr=subprocess.DEVNULL)
            with trio.fail_after(30):
                async for _ in session.events:
                    pass
    except* SessionError as group:
        (failure,) = group.exceptions  # type: ignore[assignment]
    finally:
        for host in (first, upgraded):
            if host is not None:
                host.kill()
                await host.wait()
    assert failure is not None, "the session went on with a host of another version"
    said = session_failure(failure)
    assert said.status == EXIT_REFUSED
    assert str(said) == (
        f"the host at 127.0.0.1:{port} runs a newer scopa-net than yours (protocol {ours + 1}, "
        f"this one {ours}): update yours to play there; the host keeps your seat "
        f"while the table is open: `scopa-net join 127.0.0.1:{port}` takes it back"
    ), said
    assert len(store.records()) == 1


def test_every_error_of_a_command_begins_the_same_way(capsys: pytest.CaptureFixture[str]) -> None:
    """`play --players 5` said "scopa-net: ..." but `play --bot-level 9` "scopa-net play: ...":
    one form, the command named where its help is."""
    assert main(["play", "--players", "5"]) == EXIT_USAGE
    ours = capsys.readouterr().err
    assert main(["play", "--bot-level", "9"]) == EXIT_USAGE
    parsers = capsys.readouterr().err
    assert ours.startswith("scopa-net: 5 players cannot play"), ours
    assert parsers.startswith("scopa-net: --bot-level: '9' is not a level"), parsers
    assert parsers.endswith(" (see `scopa-net play --help`)\n"), parsers


def test_ctrl_c_while_the_command_line_is_read_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C in the first moments of a command, while its options are still being set up
    (a person who typed the wrong one and stops it at once; found by benchmarks/chaos_soak.py
    stopping `scopa-net bots` just started), printed Python's KeyboardInterrupt traceback and
    died of the signal; it now says "stopped", status 130, as later."""
    import signal

    from scopa_net.commands import tally

    def interrupted(subparsers: object) -> None:
        signal.raise_signal(signal.SIGINT)  # a real Ctrl-C, as the parser is built

    monkeypatch.setattr(tally, "register", interrupted)
    assert main(["bots", "127.0.0.1:1"]) == EXIT_CANCELLED
    out, err = capsys.readouterr()
    assert (out, err) == ("", "\nscopa-net: stopped\n")
