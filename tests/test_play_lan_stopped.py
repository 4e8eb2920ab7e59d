"""``play --lan`` stopped by SIGTERM (or closed by any cancel of its game's screen): the
friends at its table read that the host stopped and that their seats are kept, as when
``scopa-net host`` is stopped, not that the connection to the host was lost.

Found by hand (tmux): ``kill`` at Ada's ``play --lan --humans 2`` left Bruno's ``join``
reading "Connection: reconnecting (the connection to the host was lost; trying to get back.
...)". The game's screen closes by cancelling its trio side, and that cancel reached the
embedded host too: it was gone before it could say goodbye. Her ``away`` ended the same way.

These tests run the embedded host bound to loopback (nothing is announced on the LAN)."""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
import trio
from app_driver import HANG_GUARD, RecordingOutput
from hosting import open_lan_game
from person_screen import PersonScreen, sit, until
from prompt_toolkit.input import PipeInput, create_pipe_input

from scopa_net.client.app import ClientApp
from scopa_net.client.client_state import ClientState
from scopa_net.client.embedded import kept_lan_seats, lan_table_lock
from scopa_net.client.launch import until_terminated
from scopa_net.client.network_session import NetworkSession
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.style import Display
from scopa_net.commands.options import EXIT_HANGUP, EXIT_TERMINATED, CommandError

HOST_STOPPED = (
    "Connection: reconnecting (the host was stopped; waiting for it to start again. Your seat "
    "is kept: type quit to stop trying)."
)


def ada_opens_her_table(tmp_path: Path) -> AbstractAsyncContextManager[NetworkSession]:
    """Ada's ``play --lan --humans 2``, its host on loopback (nothing announced)."""
    return open_lan_game(tmp_path, humans=2)


async def friend_reads_when_the_game_closes(
    tmp_path: Path, ada_types: tuple[str, ...]
) -> list[str]:
    """Ada opens ``play --lan`` with a seat for Dino, who joins; once both are dealt, Ada
    types ``ada_types`` and her game's screen closes by a cancel (as SIGTERM closes it, and
    as the app closes it after her ``away``). What Dino's screen printed after the deal."""
    with lan_table_lock(tmp_path):
        async with trio.open_nursery() as nursery:
            with trio.CancelScope() as screen:
                async with ada_opens_her_table(tmp_path) as ada:
                    here = SimpleNamespace(port=ada.embedded_port)  # type: ignore[attr-defined]
                    dino = await sit(nursery, here, "Dino", tmp_path, table_id=ada.table_id)  # type: ignore[arg-type]
                    await PersonScreen(ada).until_dealt()
                    await until(lambda: dino.controller.state.in_match, 10)
                    dealt = len(dino.lines)
                    ada_screen = PersonScreen(ada)
                    for line in ada_types:
                        await ada_screen.type(line)
                    screen.cancel()  # the game's screen closes
                    await trio.sleep_forever()
            await until(lambda: "Connection: reconnecting" in dino.text, 10)
            await trio.sleep(0.3)  # anything said after it would be read too
            nursery.cancel_scope.cancel()
    assert SeatStore(tmp_path / "Dino").records()  # his seat is kept for the host's return
    return dino.lines[dealt:]


async def test_friends_read_that_the_host_stopped_when_play_lan_is_terminated(
    tmp_path: Path,
) -> None:
    said = await friend_reads_when_the_game_closes(tmp_path, ())
    assert said == [HOST_STOPPED], said
    (kept,) = kept_lan_seats(tmp_path)  # Ada's seat too: `scopa-net play --lan` takes it back
    assert kept.name == "Ada"


async def test_friends_read_that_the_host_stopped_when_its_player_steps_away(
    tmp_path: Path,
) -> None:
    said = await friend_reads_when_the_game_closes(tmp_path, ("quit", "away"))
    assert said[-1] == HOST_STOPPED, said
    assert not [line for line in said if "connection to the host was lost" in line], said


class ClosableTerminal(RecordingOutput):
    """Ada's terminal: once closed, every write to it fails, as a hung-up terminal's do."""

    closed = False

    def flush(self) -> None:
        if self.closed:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        super().flush()


def sigterm(pipe: PipeInput, terminal: ClosableTerminal) -> None:
    os.kill(os.getpid(), signal.SIGTERM)  # as `kill PID` at Ada's play --lan


def window_closed(pipe: PipeInput, terminal: ClosableTerminal) -> None:
    """Ada closes the window: her input ends, writes to her terminal fail, and SIGHUP comes,
    in that order at worst (the app may meet the first two before the signal's handler)."""
    terminal.closed = True
    pipe.close()
    os.kill(os.getpid(), signal.SIGHUP)


@pytest.mark.parametrize(
    ("stop", "status", "said"),
    [
        (sigterm, EXIT_TERMINATED, "stopped by SIGTERM"),
        (window_closed, EXIT_HANGUP, "stopped by SIGHUP (the terminal closed)"),
    ],
    ids=["kill", "window closed"],
)
def test_play_lan_itself_stopped_says_what_is_kept_to_ada_and_to_her_friend(
    tmp_path: Path,
    stop: Callable[[PipeInput, ClosableTerminal], None],
    status: int,
    said: str,
) -> None:
    """The whole way a ``kill`` (or the terminal closing) takes at ``play --lan``: the game's
    own handler (launch.until_terminated) ends the prompt and the trio side, and the
    command's line is said; Dino, at the table from another client over loopback, reads that
    the host was stopped. Before SIGHUP was caught, closing Ada's terminal killed her game
    where it stood, and Dino read that the connection to the host was lost."""
    opened: dict[str, int] = {}
    ready = threading.Event()
    states: list[ClientState] = []
    dino_read: list[str] = []
    failed: list[BaseException] = []
    terminal = ClosableTerminal()

    @asynccontextmanager
    async def open_session() -> AsyncIterator[NetworkSession]:
        async with ada_opens_her_table(tmp_path) as session:
            opened.update(port=session.embedded_port, table=session.table_id)  # type: ignore[attr-defined]
            ready.set()
            yield session

    async def dino_joins_then_stops_adas_game() -> None:
        here = SimpleNamespace(port=opened["port"])
        async with trio.open_nursery() as nursery:
            dino = await sit(nursery, here, "Dino", tmp_path, table_id=opened["table"])  # type: ignore[arg-type]
            await until(lambda: dino.controller.state.in_match and states[0].in_match, 20)
            dealt = len(dino.lines)
            stop(pipe, terminal)
            await until(lambda: "Connection: reconnecting" in dino.text, 10)
            await trio.sleep(0.3)  # anything said after it would be read too
            dino_read.extend(dino.lines[dealt:])
            nursery.cancel_scope.cancel()

    def dino() -> None:
        try:
            assert ready.wait(HANG_GUARD)
            trio.run(dino_joins_then_stops_adas_game)
        except BaseException as exc:  # said by the test, below
            failed.append(exc)

    friend = threading.Thread(target=dino)
    stops = (signal.SIGTERM, signal.SIGHUP)
    # A game that did not catch it fails the test (no line, wait_for's guard), not the run.
    before = {signum: signal.signal(signum, lambda signum, frame: None) for signum in stops}
    with create_pipe_input() as pipe, lan_table_lock(tmp_path):
        app = ClientApp(
            open_session,
            Display(color=False),
            input=pipe,
            output=terminal,
            on_state=states.append,
        )
        friend.start()
        try:
            with pytest.raises(CommandError) as stopped:
                asyncio.run(asyncio.wait_for(until_terminated(app), HANG_GUARD))
        finally:
            friend.join(HANG_GUARD)
            for signum, handler in before.items():
                signal.signal(signum, handler)
    assert not failed, failed
    assert stopped.value.status == status
    assert str(stopped.value) == (
        f"{said}; the host keeps your seat while the table is open: `scopa-net play --lan` "
        "takes it back"
    )
    assert dino_read == [HOST_STOPPED], dino_read
