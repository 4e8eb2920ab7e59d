"""Ctrl-C on ``scopa-net host`` with players connected: the line saying where the tables are
saved, and status 0, whenever it comes (README's table of exit statuses: a host's normal end)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest
import trio
from hosting import host_command
from rawseat import RawSeat

from scopa_net.server.journal import Journal
from scopa_net.wire import messages as m


async def _started(proc: trio.Process) -> tuple[int, bytes]:
    """The port the host listens on, once it said how to join, and what it printed."""
    assert proc.stdout is not None
    out = b""
    with trio.fail_after(20):
        while b"join with: scopa-net join" not in out or not out.endswith(b"\n"):
            chunk = await proc.stdout.receive_some()
            assert chunk, out
            out += chunk
    found = re.search(rb"scopa-net join 127\.0\.0\.1:(\d+)", out)
    assert found, out
    return int(found[1]), out


async def _rest(stream: trio.abc.ReceiveStream | None) -> str:
    assert stream is not None
    data = b""
    while chunk := await stream.receive_some():
        data += chunk
    return data.decode()


# 0: both at once (trio took them as one); the others came while the host saved its tables.
async def _killed_if_running(proc: trio.Process) -> None:
    """The host process ended, if it has not ended by itself."""
    if proc.returncode is None:
        proc.kill()
        await proc.wait()


def _stopped_and_saved(db: object) -> tuple[int, str]:
    """The status and the one line of a host over the journal ``db`` that stopped well."""
    return 0, f"stopped; the tables are saved in {db}: the same command resumes them\n"


@pytest.mark.parametrize("gap", [0.0, 0.003, 0.03])
async def test_ctrl_c_twice_with_players_connected_still_says_the_tables_are_saved(
    tmp_path: Path, gap: float
) -> None:
    """``timeout --foreground scopa-net host`` passes the terminal's Ctrl-C on: the host gets
    SIGINT twice. The second one, pending while the host stopped, came back as
    KeyboardInterrupt: "scopa-net: stopped" and status 130, 3 times in 8 at a club evening,
    with the tables saved all the same."""
    db = tmp_path / "host.db"
    env = dict(os.environ) | {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    argv = host_command(db, 0, "--players", "2", "--bots", "1", "--bot-delay", "0")
    argv[argv.index("WARNING")] = "INFO"  # a host as README runs it: its log lines too
    proc = await trio.lowlevel.open_process(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env
    )
    async with trio.open_nursery() as nursery:
        try:
            port, _ = await _started(proc)
            seated = await RawSeat.connect(port)
            await seated.join(1, name="Ada")  # a match in play
            lobby = await RawSeat.connect(port)  # and one still choosing a table
            await seated.dealt()
            err: list[str] = []

            async def read_stderr() -> None:
                err.append(await _rest(proc.stderr))

            nursery.start_soon(read_stderr)
            proc.send_signal(signal.SIGINT)
            await trio.sleep(gap)
            proc.send_signal(signal.SIGINT)
            with trio.fail_after(30):
                out = await _rest(proc.stdout)
                status = await proc.wait()
        finally:
            await _killed_if_running(proc)
    await seated.stream.aclose()
    await lobby.stream.aclose()
    assert (status, out) == _stopped_and_saved(db), err
    assert "stopped" not in err[0].replace("signal SIGINT: shutting down", "")
    journal = Journal(str(db))
    try:
        assert [r.table_id for r in journal.tables()] == ["1"]  # saved, as it says
    finally:
        journal.close()


@pytest.mark.parametrize("nohup", [False, True], ids=["terminal closed", "under nohup"])
async def test_the_host_s_terminal_closing_stops_it_as_ctrl_c_does_unless_under_nohup(
    tmp_path: Path, nohup: bool
) -> None:
    """Closing the host's terminal (SIGHUP: a window closed, an SSH session dropped) killed it
    where it stood: its players read "the connection to the host was lost", not that it
    stopped, and its status was the shell's 129. It stops as at Ctrl-C (the players told, the
    tables saved, 0); started under nohup, it goes on."""
    db = tmp_path / "host.db"
    env = dict(os.environ) | {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    argv = host_command(db, 0, "--players", "2", "--bots", "1", "--bot-delay", "0")
    if nohup:
        argv = ["nohup", *argv]
    proc = await trio.lowlevel.open_process(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env
    )
    try:
        port, _ = await _started(proc)
        seated = await RawSeat.connect(port)
        await seated.join(1, name="Ada")
        await seated.dealt()
        proc.send_signal(signal.SIGHUP)
        if nohup:
            with trio.move_on_after(1):
                await proc.wait()
            assert proc.returncode is None  # still serving
            proc.send_signal(signal.SIGINT)
        with trio.fail_after(30):
            bye = await seated.until(lambda msg: isinstance(msg, m.Bye))
            out = await _rest(proc.stdout)
            status = await proc.wait()
    finally:
        await _killed_if_running(proc)
    await seated.stream.aclose()
    assert isinstance(bye, m.Bye)
    assert bye.reason == "shutting_down"  # the players told the host stopped
    assert (status, out) == _stopped_and_saved(db)
