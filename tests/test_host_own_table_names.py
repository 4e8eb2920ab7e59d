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
        assert first.out[1] == (
            "table 1 'Table A' is open: 2 players, target 11, variants: none; password needed"
        )
        trio.run(_sit_down, port, 1, "club night")
    finally:
        first.stop()

    for _ in range(2):  # table 1 in play: back each time, no new table beside it
        again = host_process(club, env)
        try:
            assert again.out[2] == (
                "table 1 'Table A' is open again, its match going on: 2 players, target 11, "
                "variants: none; password needed"
            )
            listed = _names(port)
        finally:
            again.stop()
        assert listed == []  # (table 1 has no open seat: not listed)

    for password, opened in (("new pw", 2), ("third pw", 3)):
        other = host_process(host_command(db, port, *CLUB, "--password", password), env)
        try:
            said = other.out[2]
            beside = [line for line in other.out if ", opened with " in line]
            listed = _names(port)
        finally:
            other.stop()
        assert said == (
            f"table {opened} 'Table A ({opened})' is open: 2 players, target 11, variants: none; "
            "password needed"
        )
    assert beside == [
        "table 1 'Table A', opened with another password, plays on",
        "table 2 'Table A (2)', opened with another password, still waits for players",
    ]
    assert listed == ["Table A (2)", "Table A (3)"]


def test_a_restart_without_the_password_says_why_a_second_table_opened(tmp_path: Path) -> None:
    """An organiser started `scopa-net host --players 2 --bots 1` with SCOPA_NET_PASSWORD set
    (README), stopped it mid-match and started it again from another shell, without it: it
    said "resumed 1 table (1 in play)" and "table 2 'table 1 (2)' is open", and nothing on why
    a second table. The new table is called by its number, and the line under it says how the
    first was opened otherwise."""
    env = dict(os.environ) | {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    db, port = tmp_path / "host.db", free_port()
    readme = host_command(db, port, "--players", "2", "--bots", "1")
    first = host_process(readme, env | {"SCOPA_NET_PASSWORD": "tombola"})
    try:
        trio.run(_sit_down, port, 1, "tombola")
    finally:
        first.stop()
    env.pop("SCOPA_NET_PASSWORD", None)
    again = host_process(readme, env)
    again.stop()
    said = [line for line in again.out if line.startswith("table ")]
    assert said == [
        "table 2 is open: 2 players, target 11, variants: none",
        "table 1, opened with a password (none is given now: --password or $SCOPA_NET_PASSWORD), "
        "plays on",
    ]
