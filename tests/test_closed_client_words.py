"""A friend whose game stopped in order (its window closed, SIGHUP; ``kill``, SIGTERM) is
told to the others as what it is: "Bruno's client was closed; ...", not "Bruno lost the
connection; ...". A client killed where it stood (SIGKILL: nothing said) still reads as a lost
connection: the host cannot tell it from one. Real host over loopback TCP, both people's
``scopa-net join`` in terminal windows of their own, Ada's screen read as she reads it.

Found in last session's note: every stop in order read "Bruno lost the connection; if they
are not back in 55 s ...", as if his network had failed. The client now says ``bye`` (reason
``quit``) as it closes, and the host tells the table with ``seat_status`` ``closed``
(protocol.md 3.3).
"""

from __future__ import annotations

import shutil
import signal
import sys
from pathlib import Path

import pytest
import trio
from helpers import env_with_home
from hosting import host_in_thread, start_host
from rawseat import RawSeat
from terminal_output import Window, in_a_window, read_until

from scopa_net.wire import messages as m

HANG_GUARD = 30
GRACE = 60
"""The host's grace period, ours by default: a lost connection is said 5 s late (a network's
blip is not news), with the seconds left; a closed client at once."""


def _sigterm(window: Window) -> None:
    window.process.send_signal(signal.SIGTERM)


def _window_closed(window: Window) -> None:
    window.close()


def _sigkill(window: Window) -> None:
    window.process.send_signal(signal.SIGKILL)


@pytest.mark.skipif(shutil.which("setsid") is None, reason="util-linux setsid is not installed")
@pytest.mark.parametrize(
    ("stop", "ada_reads"),
    [
        (
            _window_closed,
            f"News: Bruno's client was closed; a computer plays for them in {GRACE} s",
        ),
        (_sigterm, f"News: Bruno's client was closed; a computer plays for them in {GRACE} s"),
        (_sigkill, "News: Bruno lost the connection; a computer plays for them in 5"),
    ],
    ids=["window closed", "sigterm", "sigkill"],
)
def test_the_others_read_that_a_client_was_closed_not_that_it_lost_the_connection(
    tmp_path: Path, stop: object, ada_reads: str
) -> None:
    def env(who: str) -> dict[str, str]:
        return env_with_home(tmp_path / who) | {"TERM": "xterm-256color", "NO_COLOR": "1"}

    with host_in_thread(bot_delay=0.1, grace=GRACE) as host:
        join = [sys.executable, "-m", "scopa_net", "join", host.address, "--plain", "--ascii"]
        ada_argv = [*join, "--create", "--players", "2", "--no-blind", "--name", "Ada"]
        with in_a_window(ada_argv, env("ada")) as ada:
            read_until(ada.main_fd, b"every seat is taken", HANG_GUARD)
            with in_a_window([*join, "--table", "1", "--name", "Bruno"], env("bruno")) as bruno:
                read_until(bruno.main_fd, b"Your hand:", HANG_GUARD)
                read_until(ada.main_fd, b"Your hand:", HANG_GUARD)
                stop(bruno)  # type: ignore[operator]
                bruno.process.wait(HANG_GUARD)
                said = read_until(ada.main_fd, b"News: Bruno", HANG_GUARD)
                if b"\n" not in said[said.index(b"News: Bruno") :]:  # the rest of that line
                    said += read_until(ada.main_fd, b"\n", HANG_GUARD)
    (line,) = [line for line in said.decode().splitlines() if line.startswith("News: Bruno")]
    assert line.startswith(ada_reads) if "lost" in ada_reads else line == ada_reads


async def test_the_host_says_closed_only_after_a_bye_and_never_in_version_4() -> None:
    """protocol.md 3.3: a seated player's ``bye {reason: "quit"}`` makes its ``seat_status``
    carry ``closed: true``, to a seat in version 5; one in version 4 reads the same status
    without the key (its own connection refuses a key it does not know); a connection that
    ends with no ``bye`` is a drop."""
    rules = m.RulesInfo(players=4, target=11, variants=())
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=30)
        ada = await RawSeat.connect(host.port)
        table_id = await ada.create(
            m.CreateTable(name="t", rules=rules, password=None, bots=0, bot_level=2)
        )
        await ada.join(table_id, name="Ada")
        bea = await RawSeat.connect(host.port, version=4)
        await bea.join(table_id, name="Bea")
        carl, dino = await RawSeat.connect(host.port), await RawSeat.connect(host.port)
        await carl.join(table_id, name="Carl")
        await dino.join(table_id, name="Dino")
        await carl.send(m.Bye(reason="quit", message="the client was closed"))
        await carl.aclose()
        await dino.aclose()  # no bye: a drop
        said: dict[str, list[tuple[int, bool]]] = {}
        for name, seat in (("Ada", ada), ("Bea", bea)):
            gone = []
            for _ in range(2):
                status = await seat.until(
                    lambda msg: isinstance(msg, m.SeatStatus) and not msg.connected
                )
                assert isinstance(status, m.SeatStatus)
                gone.append((status.seat, status.closed))
            said[name] = sorted(gone)
            await seat.aclose()
        nursery.cancel_scope.cancel()
    assert said == {"Ada": [(2, True), (3, False)], "Bea": [(2, False), (3, False)]}
