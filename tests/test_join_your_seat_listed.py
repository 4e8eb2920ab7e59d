"""`scopa-net join --no-resume` lists the tables to sit at; a seat this client keeps there is
marked "(your seat)". Before, Ada's own seat, away long enough for a newcomer to take it, read
"Ada (away, a computer plays)" as anyone's would: nothing said it was hers. It is known by the
host's key, the table and the seat the client keeps, never by the name (another Ada at another
table is not marked)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from hosting import HostThread, ada_keeps_a_seat, create, host_in_thread
from rawseat import RawSeat, listed

from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_CANCELLED
from scopa_net.rules import RuleSet


@pytest.fixture
def host() -> Iterator[HostThread]:
    """A host whose computer players move slowly (the matches last), and where a player away
    for half a second may have their seat taken by a newcomer."""
    with host_in_thread(grace=0.1, away_limit=0.5, bot_delay=2.0) as running:
        yield running


def two_adas_away(host: HostThread, data: Path) -> None:
    """Ada's seat at table 1, kept by this client (its data in ``data``), and another Ada's at
    table 2, kept by nobody here; both away past the host's limit, open to a newcomer."""

    async def sit_and_go() -> None:
        await ada_keeps_a_seat(host.port, data)
        other = await RawSeat.connect(host.port)
        table = await other.create(create(RuleSet.of(2, 11), bots=1))
        await other.join(table, 0, "Ada")
        await other.dealt()
        await other.aclose()
        with trio.fail_after(10):
            while (
                sum(any(s.name == "Ada <away>" for s in t.seats) for t in await listed(host.port))
                < 2
            ):
                await trio.sleep(0.05)

    trio.run(sit_and_go)


def test_the_list_marks_the_seat_this_client_keeps_and_not_another_of_the_same_name(
    host: HostThread,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    two_adas_away(host, tmp_path / "scopa-net")
    capsys.readouterr()
    monkeypatch.setattr("builtins.input", lambda prompt="": "")  # Enter at the table number
    assert main(["join", host.address, "--no-resume", "--name", "Ada"]) == EXIT_CANCELLED
    tables = [line for line in capsys.readouterr().out.splitlines() if line.startswith("table ")]
    assert [line.split(" (seats: ")[1] for line in tables] == [
        "Ada (your seat; away, a computer plays), bot 1); playing",
        "Ada (away, a computer plays), bot 1); playing",
    ]
