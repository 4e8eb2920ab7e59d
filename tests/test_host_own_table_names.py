"""``scopa-net host --players ...`` run again: its table back while it waits for players, and
else a new one whose name tells it apart from the first (README: "the same command run again
gives the table it opened back while that one still waits for players")."""

from __future__ import annotations

import os
from pathlib import Path

import trio
from helpers import free_port
from hosting import host_command, host_process
from rawseat import RawSeat

from scopa_net.client.network_session import list_tables
from scopa_net.wire import messages as m

CLUB = ("--players", "2", "--bots", "1", "--table-name", "Table A")


async def _sit_down(port: int, table_id: int, password: str) -> None:
    """Ada takes the open seat (the match begins), then her client stops: a match in play."""
    ada = await RawSeat.connect(port)
    await ada.send(m.Join(table_id=table_id, seat=None, name="Ada", password=password))
    await ada.until(lambda msg: isinstance(msg, m.Snapshot))
    await ada.dealt()
    await ada.stream.aclose()


def _names(port: int) -> list[str]:
    return [t.name for t in trio.run(list_tables, "127.0.0.1", port)]


def test_a_second_table_of_the_same_command_has_a_name_of_its_own(tmp_path: Path) -> None:
    """A club evening saw 'Table A' three times (tables 4, 6, 9), and after a restart with
    another --password two identical lines "table 6 'Table A' ... waiting [password]" and
    "table 9 'Table A' ... waiting [password]"."""
    env = dict(os.environ) | {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    db, port = tmp_path / "host.db", free_port()
    club = host_command(db, port, *CLUB, "--password", "club night")

    first = host_process(club, env)
    try:
        assert first.out[1] == "table 1 'Table A' is open: 2 players, target 11, variants: none"
        trio.run(_sit_down, port, 1, "club night")
    finally:
        first.stop()

    second = host_process(club, env)  # table 1 is in play: a new table beside it
    try:
        assert second.out[2] == (
            "table 2 'Table A (2)' is open: 2 players, target 11, variants: none"
        )
        listed = _names(port)
    finally:
        second.stop()
    assert listed == ["Table A (2)"]  # (table 1 has no open seat: not listed)

    third = host_process(club, env)  # the same command: table 2 back, not a third
    try:
        assert third.out[2] == (
            "table 2 'Table A (2)' is open again: 2 players, target 11, variants: none"
        )
    finally:
        third.stop()

    new_password = host_command(db, port, *CLUB, "--password", "new pw")
    fourth = host_process(new_password, env)
    try:
        assert fourth.out[2:4] == [
            "table 3 'Table A (3)' is open: 2 players, target 11, variants: none",
            "table 2 'Table A (2)', opened with other settings, still waits for players",
        ]
        listed = _names(port)
    finally:
        fourth.stop()
    assert listed == ["Table A (2)", "Table A (3)"]
